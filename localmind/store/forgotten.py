"""``forgotten_texts``: a keyed fingerprint of each text a person forgot, so that the text told
again (their own diary imported again, an assistant's ``remember``) is recognised and not
brought back silently (review13 J11; docs/design.md, "A forgotten memory stays forgotten").

Never the text, nor a plain hash of it: a 4-digit PIN in a known sentence has 10,000
candidates, and an unkeyed hash of each is a second's work. The fingerprint is an HMAC-SHA256
under a random 256-bit key this store makes the first time something is forgotten and keeps in
its ``meta`` table, that is, inside the encrypted database: without the store's key there is
neither the fingerprint nor the key to test a guess against it. It never leaves the store
(exports, the sync folder and the profile carry neither), so each device keeps its own.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from hashlib import sha256

from localmind.records import MemoryType, folded_text
from localmind.store.meta import Meta

#: The ``meta`` key of this store's forget key (hex).
FORGET_KEY = "forgotten_key"
_DOMAIN = b"localmind forgotten text v1\x00"


@dataclass(frozen=True, slots=True)
class Told:
    """A text as it is told: its type and moment matter for an event (what happened one day
    is forgotten for that day, not for every day it happens again)."""

    content: str
    type: MemoryType | str = MemoryType.LONG_TERM
    created_at: float | None = None


def fingerprint(key: bytes, told: Told) -> str:
    """The keyed fingerprint of a text (folded as ``content_hash`` folds it: case, spacing,
    width and punctuation do not count); an event's carries its moment, to the second."""
    message = _DOMAIN + folded_text(told.content).encode("utf-8")
    if MemoryType(told.type) is MemoryType.EPISODIC and told.created_at is not None:
        message += b"\x00@%d" % int(told.created_at)
    return hmac.new(key, message, sha256).hexdigest()


class ForgottenTexts(Meta):
    def _forget_key(self, *, make: bool) -> bytes | None:
        value = self.get_meta(FORGET_KEY)
        if value is None and make:
            value = secrets.token_hex(32)
            self.set_meta(FORGET_KEY, value)
        return None if value is None else bytes.fromhex(value)

    def note_forgotten(self, namespace: str, texts: Iterable[Told], at: float) -> None:
        """Remember that a person forgot these texts (a memory's current text, its earlier
        versions and the restatements merged into it). Inside the forget's transaction."""
        key = self._forget_key(make=True)
        assert key is not None
        self.db.executemany(
            "INSERT INTO forgotten_texts (namespace, fingerprint, at) VALUES (?, ?, ?) "
            "ON CONFLICT (namespace, fingerprint) DO UPDATE SET at = excluded.at",
            [(namespace, fingerprint(key, told), at) for told in texts if told.content],
        )

    def forgotten_when(self, namespace: str, told: Sequence[Told]) -> list[float | None]:
        """For each text, when a person forgot it in ``namespace`` (None: never)."""
        key = self._forget_key(make=False)
        if key is None or not told:
            return [None] * len(told)  # nothing was ever forgotten here
        found: list[float | None] = []
        for item in told:
            row = self.db.execute(
                "SELECT at FROM forgotten_texts WHERE namespace = ? AND fingerprint = ?",
                (namespace, fingerprint(key, item)),
            ).fetchone()
            found.append(None if row is None else float(row[0]))
        return found

    def unforget(self, namespace: str, told: Told) -> None:
        """A person brought the text back on purpose: it is no longer one they forgot (a later
        forget notes it again)."""
        key = self._forget_key(make=False)
        if key is not None:
            self.db.execute(
                "DELETE FROM forgotten_texts WHERE namespace = ? AND fingerprint = ?",
                (namespace, fingerprint(key, told)),
            )

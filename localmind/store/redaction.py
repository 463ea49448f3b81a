"""Forgetting's promise: every trace of a forgotten memory's text goes (its history, the
payloads and reasons of its events, the reasons of conflicts, profiles built from it), leaving
only the tombstone that replicates the forget."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from localmind.fts_terms import query_terms
from localmind.store.history import History
from localmind.store.meta import Meta

#: ``meta`` key counting the forgets this store has redacted (local or received): the sync
#: folder re-seals its files when it moved.
REDACTIONS = "redactions"

# Reasons that say only what kind of change it was. After a forget, an event's or a conflict's
# reason is cut to its kind (the text before ":" or "(") when the kind is one of these, and
# dropped otherwise: reasons may hold memory text (older merge notes did; an LLM's reason may
# quote either memory; a library caller may pass anything).
_REASON_KINDS = frozenset(
    {
        "update",
        "correct",
        "revert",
        "merge",
        "take_new",
        "overwrite",
        "confirm",
        "deny",
        "restated",
        "contradicted by a new memory",
        "may contradict the older memory; no LLM to check",
        "same content remembered again",
        "evicted",
        "archived",
        "confidence decay",
        "expired",
        "implicit",
        "undo forget",
        "carried_over",
    }
)
_REASON_KIND = re.compile(r"^([^:(]*?)\s*([:(]|$)")


def redacted_reason(reason: str | None) -> str | None:
    """What a forgotten memory's event or conflict may keep of its reason: the kind of change
    ("evicted:", "restated"), never anything quoted after it."""
    if reason is None:
        return None
    match = _REASON_KIND.match(reason)
    kind = match.group(1) if match else ""
    if kind not in _REASON_KINDS:
        return "redacted"
    return kind + (":" if match and match.group(2) == ":" else "")


# Shorter Latin words ("gym", "the") say too little to mark a quote of a forgotten text.
_QUOTE_MIN_LETTERS = 4


def _distinctive_words(texts: Sequence[str]) -> list[str]:
    """The words of ``texts`` that can show a reason quotes them: words of four letters or
    more and CJK bigrams, lower-cased as SQLite's ``lower`` does (ASCII letters only)."""
    words: list[str] = []
    for text in texts:
        for term in query_terms(text):
            if len(term) >= (2 if _CJK_TERM.match(term) else _QUOTE_MIN_LETTERS):
                words.append(term)
    return list(dict.fromkeys(words))


_CJK_TERM = re.compile(r"^[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]")


class Redaction(History, Meta):
    def redact_traces(self, namespace: str, memory_id: str, texts: Sequence[str] = ()) -> None:
        """Everything but the tombstone that may hold a forgotten memory's text: its version
        history, the payloads and reasons of its events (a merge's note held the restatement;
        an LLM's reason may quote either memory), the reasons of conflicts that involve it and
        of their events, and every profile version that was built from it or quotes it (and
        the later ones, which may have been built from those). ``texts``: the memory's last
        text. Call it inside the forget's transaction; :meth:`purge_forgotten` follows."""
        texts = [t for t in texts if t] + [t for _, t, _, _ in self.versions(memory_id) if t]
        texts += self._merged_restatements(memory_id)
        self.forget_history(memory_id)
        rows: list[tuple[Any, ...]] = self.db.execute(
            "SELECT seq, reason FROM events WHERE memory_id = ? AND op != 'forget' UNION "
            "SELECT seq, reason FROM events WHERE op = 'conflict' "
            "AND json_valid(payload) AND json_extract(payload, '$.existing') = ? UNION "
            # the model's verdict on a pair is noted on the older memory; it may quote the newer
            "SELECT seq, reason FROM events WHERE op = 'relation' "
            "AND json_valid(payload) AND json_extract(payload, '$.candidate') = ?",
            (memory_id, memory_id, memory_id),
        ).fetchall()
        self.db.executemany(
            "UPDATE events SET reason = ?, payload = CASE WHEN memory_id = ? "
            "THEN '{\"redacted\": true}' ELSE payload END WHERE seq = ?",
            [(redacted_reason(reason), memory_id, seq) for seq, reason in rows],
        )
        conflicts: list[tuple[Any, ...]] = self.db.execute(
            "SELECT id, reason FROM conflicts WHERE existing_id = ? OR candidate_id = ?",
            (memory_id, memory_id),
        ).fetchall()
        self.db.executemany(
            "UPDATE conflicts SET reason = ? WHERE id = ?",
            [(redacted_reason(reason) or "", conflict) for conflict, reason in conflicts],
        )
        self._redact_quotes(namespace, memory_id, texts)
        self.drop_profiles_quoting(namespace, memory_id, texts)
        self.count_redaction()

    def drop_profiles_quoting(self, namespace: str, memory_id: str, texts: Sequence[str]) -> None:
        """Every profile version built from ``memory_id`` or quoting one of ``texts``, and all
        later ones (they may have been built incrementally from it)."""
        quoted = " OR ".join("instr(text, ?) > 0" for _ in texts) or "0"
        first = self.db.execute(
            "SELECT min(version) FROM profiles WHERE namespace = ? AND (EXISTS (SELECT 1 FROM "
            "json_each(built_from, '$.ids') WHERE value = ?) OR " + quoted + ")",
            (namespace, memory_id, *texts),
        ).fetchone()
        if first and first[0] is not None:
            self.db.execute(
                "DELETE FROM profiles WHERE namespace = ? AND version >= ?", (namespace, first[0])
            )

    def count_redaction(self) -> None:
        """A redaction happened: the sync folder re-seals the files that held the text."""
        count = int(self.get_meta(REDACTIONS) or 0)
        self.set_meta(REDACTIONS, str(count + 1))

    def _merged_restatements(self, memory_id: str) -> list[str]:
        """The texts merged into the memory as restatements (kept in its merge events)."""
        return [
            str(text)
            for (text,) in self.db.execute(
                "SELECT json_extract(payload, '$.content') FROM events WHERE memory_id = ? "
                "AND op = 'merge' AND json_valid(payload)",
                (memory_id,),
            )
            if isinstance(text, str) and text
        ]

    def _redact_quotes(self, namespace: str, memory_id: str, texts: Sequence[str]) -> None:
        """Reasons attached to *other* memories, or to conflicts between them, that quote the
        forgotten text: a model's reason on a neighbour's pair may (a batched verdict sees
        several pairs; a confused model quotes what it saw before). Such a reason is found by
        a word of the forgotten texts that no other active memory holds, and cut to its kind
        like the memory's own: a lost diagnostic note is cheap, a kept secret is not."""
        words = _distinctive_words(texts)
        if not words:
            return
        held = " OR ".join("instr(lower(reason), ?) > 0" for _ in words)
        events: list[tuple[Any, ...]] = self.db.execute(
            "SELECT seq, reason FROM events WHERE namespace = ? AND reason IS NOT NULL "
            f"AND (memory_id IS NULL OR memory_id != ?) AND ({held})",
            (namespace, memory_id, *words),
        ).fetchall()
        conflicts: list[tuple[Any, ...]] = self.db.execute(
            f"SELECT id, reason FROM conflicts WHERE namespace = ? AND ({held})",
            (namespace, *words),
        ).fetchall()
        if not events and not conflicts:
            return
        reasons = [str(reason).lower() for _, reason in (*events, *conflicts)]
        quoted = [word for word in words if any(word in reason for reason in reasons)]
        elsewhere = self._held_elsewhere(namespace, memory_id, quoted)
        secret = [word for word in quoted if word not in elsewhere]

        def quotes(reason: str) -> bool:
            return any(word in reason.lower() for word in secret)

        self.db.executemany(
            "UPDATE events SET reason = ? WHERE seq = ?",
            [(redacted_reason(r), seq) for seq, r in events if quotes(str(r))],
        )
        self.db.executemany(
            "UPDATE conflicts SET reason = ? WHERE id = ?",
            [(redacted_reason(r) or "", cid) for cid, r in conflicts if quotes(str(r))],
        )

    def _held_elsewhere(self, namespace: str, memory_id: str, words: Sequence[str]) -> set[str]:
        """Which of ``words`` another active memory of the namespace holds (it is not secret)."""
        held = set()
        for word in words:
            if self.db.execute(
                "SELECT 1 FROM memories WHERE namespace = ? AND status = 'active' AND id != ? "
                "AND instr(lower(content), ?) > 0 LIMIT 1",
                (namespace, memory_id, word),
            ).fetchone():
                held.add(word)
        return held

"""What must hold in a store after any crash or any mix of concurrent writers, checked on its
tables directly (not through ``Memory``, whose own bugs it must be able to catch)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import apsw

from localmind.fts_terms import index_text
from localmind.keys import KeyFile, key_file_for
from localmind.memory import content_hash
from localmind.store.connection import connect
from tests.conftest import PASSPHRASE

REDACTED = '{"redacted": true}'  # the payload of an event whose memory was forgotten


@contextmanager
def raw_store(path: Path, passphrase: str = PASSPHRASE) -> Iterator[apsw.Connection]:
    """The store's own connection (decrypted, sqlite-vec loaded), closed afterwards."""
    key_file = KeyFile.load(key_file_for(path))
    db = connect(path, key_file.unwrap(passphrase), create=False, cipher=key_file.cipher)
    try:
        yield db
    finally:
        db.close()


@dataclass(frozen=True, slots=True)
class StoreSummary:
    active: int
    rows: int
    events: int


def phrase(content: str) -> str:
    """An FTS5 query that matches the whole indexed text of ``content`` as one phrase."""
    return '"' + index_text(content).replace('"', '""') + '"'


def check_store(path: Path, passphrase: str = PASSPHRASE) -> StoreSummary:
    """Assert the store is whole: SQLite and FTS5 integrity, and every memory either fully
    present (row, float vector, sign bits, keyword entry findable by its text, its events) or,
    when not active, in no index at all. Returns counts for the caller's own checks."""
    with raw_store(path, passphrase) as db:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
        # Raises apsw.CorruptError when the keyword index is inconsistent with itself.
        db.execute("INSERT INTO memory_fts (memory_fts) VALUES ('integrity-check')")

        rows = db.execute(
            "SELECT rowid, id, namespace, type, content, content_hash, status, hlc FROM memories"
        ).fetchall()
        active = {r[0]: r for r in rows if r[6] == "active"}
        vec = {r[0]: r for r in db.execute("SELECT rowid, namespace, type FROM memory_vec")}
        bits = {r[0]: r for r in db.execute("SELECT rowid, namespace, type FROM memory_vec_bits")}
        fts = {r[0] for r in db.execute("SELECT rowid FROM memory_fts")}
        assert set(vec) == set(active), _diff("memory_vec", set(vec), set(active))
        assert set(bits) == set(active), _diff("memory_vec_bits", set(bits), set(active))
        assert fts == set(active), _diff("memory_fts", fts, set(active))
        stale_bits = db.execute(
            "SELECT v.rowid FROM memory_vec AS v JOIN memory_vec_bits AS b ON b.rowid = v.rowid "
            "WHERE b.bits != vec_quantize_binary(v.embedding)"
        ).fetchall()
        assert stale_bits == [], f"sign bits out of step with vectors: {stale_bits[:5]}"
        for rowid, memory_id, namespace, type_, content, hashed, _status, _hlc in active.values():
            assert vec[rowid][1:] == (namespace, type_) == bits[rowid][1:], memory_id
            assert hashed == content_hash(content), f"{memory_id}: content_hash is stale"
            found = db.execute(
                "SELECT rowid FROM memory_fts WHERE memory_fts MATCH ? AND rowid = ?",
                (phrase(content), rowid),
            ).fetchall()
            assert found == [(rowid,)], f"{memory_id}: its text is not in the keyword index"

        # Every memory's current state is an event of the log, and every memory the log adds
        # has its row. (A sync import may hold the redacted add of a memory whose forget has
        # not arrived yet: no text, so no row until the forget makes its tombstone.)
        stamps: dict[str, set[str]] = {}
        for memory_id, stamp in db.execute(
            "SELECT memory_id, hlc FROM events WHERE memory_id IS NOT NULL "
            "AND op IN ('add', 'update', 'forget')"
        ):
            stamps.setdefault(memory_id, set()).add(stamp)
        for _rowid, memory_id, *_, hlc in rows:
            assert hlc in stamps.get(memory_id, set()), f"{memory_id}: no event for its state"
        added = {
            memory_id
            for (memory_id,) in db.execute(
                "SELECT memory_id FROM events WHERE op = 'add' AND payload != ?", (REDACTED,)
            )
        }
        orphans = added - {r[1] for r in rows}
        assert not orphans, f"added memories that have no row: {sorted(orphans)[:5]}"
        twice = db.execute("SELECT hlc FROM events GROUP BY hlc HAVING count(*) > 1").fetchall()
        assert twice == [], f"events recorded twice: {twice[:5]}"
        events = int(db.execute("SELECT count(*) FROM events").fetchone()[0])
    return StoreSummary(active=len(active), rows=len(rows), events=events)


def _diff(name: str, indexed: set[int], active: set[int]) -> str:
    return (
        f"{name} out of step with active rows: missing {sorted(active - indexed)[:5]}, "
        f"extra {sorted(indexed - active)[:5]}"
    )

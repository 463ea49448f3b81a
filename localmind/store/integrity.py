"""Whether a store file is whole: SQLite's integrity check, the keyword index's own check, and
the indexes against the rows (every active memory has a vector, sign bits and keyword entry;
nothing else does). Used by ``localmind check`` and before a restore replaces a store."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import apsw

#: Tables without which a file is not a localmind store.
STORE_TABLES = frozenset({"memories", "meta", "events"})


def integrity_check(db: apsw.Connection) -> list[str]:
    """SQLite's ``PRAGMA integrity_check``: ``["ok"]`` when the file is whole. Since SQLite
    3.44 it also runs FTS5's own check of the keyword index's structure (the virtual table's
    ``xIntegrity``), as a read: the ``INSERT … VALUES ('integrity-check')`` command it replaces
    is a write, and waited for (then failed behind) an import holding the write lock."""
    return _texts(db, "PRAGMA integrity_check")


def table_names(db: apsw.Connection) -> set[str]:
    return set(_texts(db, "SELECT name FROM sqlite_master"))


def active_memories(db: apsw.Connection) -> int:
    """Active memories of every user."""
    return int(scalar(db, "SELECT count(*) FROM memories WHERE status = 'active'"))


def index_problems(db: apsw.Connection) -> Iterator[str]:
    """What is wrong with the indexes, in words (nothing when they agree with the rows)."""
    tables = table_names(db)
    # (the keyword index's own structure: checked by integrity_check)
    indexes = [("keyword index", "memory_fts")]
    if "memory_vec" in tables:
        indexes += [("vector index", "memory_vec"), ("vector sign bits", "memory_vec_bits")]
    for label, table in indexes:
        missing = scalar(
            db,
            f"SELECT count(*) FROM memories AS m WHERE m.status = 'active' "
            f"AND NOT EXISTS (SELECT 1 FROM {table} AS i WHERE i.rowid = m.rowid)",
        )
        stray = scalar(
            db,
            f"SELECT count(*) FROM {table} AS i WHERE NOT EXISTS (SELECT 1 FROM memories AS m "
            f"WHERE m.rowid = i.rowid AND m.status = 'active')",
        )
        if missing:
            yield f"{missing} active memories are missing from the {label}"
        if stray:
            yield f"the {label} has {stray} entries of no active memory"
    if db.execute("PRAGMA foreign_key_check").fetchall():
        yield "some versions or conflicts refer to memories that do not exist"


def scalar(db: apsw.Connection, sql: str) -> Any:
    return db.execute(sql).fetchall()[0][0]


def _texts(db: apsw.Connection, sql: str) -> list[str]:
    return [str(row[0]) for row in db.execute(sql).fetchall()]

"""``localmind.store``: the only package that speaks SQL (rows in, records out).

One module per concept: ``memories``, ``vectors``, ``keywords``, ``events``, ``conflicts``,
``history``, ``redaction``, ``meta``; the file itself: ``connection`` (the encrypted
connection), ``migrations``, ``wal`` (telling a damaged write-ahead log from a crash).
:class:`SqliteStore` combines the tables' parts over one connection. The names below are those
callers used when the store was one module (``from localmind.store import ...``)."""

from localmind.store.base import CHECKPOINT_WAIT_MS, checkpoint
from localmind.store.connection import DATABASE_ERRORS
from localmind.store.events import LATER_VERSION, newest_change, newest_stamp
from localmind.store.memories import StoredMemory
from localmind.store.redaction import REDACTIONS, redacted_reason
from localmind.store.sqlite_store import SqliteStore
from localmind.store.vectors import (
    INDEX_AFTER_SEARCHES,
    INDEX_LOAD_CHUNK,
    INDEX_MAX_POOL,
    INDEX_ROOM,
    INDEX_ROWS_PER_CANDIDATE,
    MAX_RESCORE,
    MIN_RESCORE,
    RESCORE_FACTOR,
    ROWS_PER_CANDIDATE,
)

__all__ = [
    "CHECKPOINT_WAIT_MS",
    "DATABASE_ERRORS",
    "INDEX_AFTER_SEARCHES",
    "INDEX_LOAD_CHUNK",
    "INDEX_MAX_POOL",
    "INDEX_ROOM",
    "INDEX_ROWS_PER_CANDIDATE",
    "LATER_VERSION",
    "MAX_RESCORE",
    "MIN_RESCORE",
    "REDACTIONS",
    "RESCORE_FACTOR",
    "ROWS_PER_CANDIDATE",
    "SqliteStore",
    "StoredMemory",
    "checkpoint",
    "newest_change",
    "newest_stamp",
    "redacted_reason",
]

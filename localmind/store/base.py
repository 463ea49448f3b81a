"""What every table of the store shares: the connection, aggregate reads, the write-ahead log's
checkpoints, and the ``?`` placeholders of an ``IN (...)`` list."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import apsw

from localmind.store.connection import BUSY_TIMEOUT_MS
from localmind.store.row_cache import RowCache

CHECKPOINT_WAIT_MS = 1000
BOOKKEEPING_WAIT_MS = 500


def placeholders(values: Sequence[Any]) -> str:
    return ", ".join("?" * len(values))


def checkpoint(db: apsw.Connection) -> None:
    """Copy what the write-ahead log holds into the database file as far as readers allow,
    syncing the log first: the changes are on disk, not only in the page cache."""
    db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()


class Tables:
    """The base of the store's parts (one per concept, combined in
    :class:`localmind.store.sqlite_store.SqliteStore`): they share one connection."""

    db: apsw.Connection
    _row_cache: RowCache[Any]

    def index_log_changes(self) -> tuple[int, ...]:
        """This connection's changes to ``memory_vec_changes`` so far, the log the in-memory
        indexes follow (counted by the row cache's update hook): while it and ``data_version``
        stay the same, nothing they hold changed. ``total_changes`` served before, but every
        recall changes it (noting what it returned), so each search read the log again."""
        return self._row_cache.table_changes(self.db, ("memory_vec_changes",))

    def data_version(self) -> int:
        """SQLite's count that changes when another connection commits to the file (never
        for this connection's own writes): one cheap pragma, no table read."""
        return self.scalar("PRAGMA data_version")

    def truncate_log(self) -> bool:
        """After a forget has committed: copy the write-ahead log into the database and empty
        it, so the old pages that held the text leave the ``-wal`` file. False when another
        connection's open read kept part of the log (the next forget or checkpoint retries)."""
        # A reader elsewhere (the app, the MCP server) holds the log only for one query: wait a
        # little for it, never the full busy timeout (the forget itself is already done).
        self.db.set_busy_timeout(CHECKPOINT_WAIT_MS)
        try:
            frames, _ = self.db.wal_checkpoint(mode=apsw.SQLITE_CHECKPOINT_TRUNCATE)
        except apsw.BusyError:
            return False
        finally:
            self.db.set_busy_timeout(BUSY_TIMEOUT_MS)
        return bool(frames == 0)

    @contextmanager
    def waiting_briefly(self) -> Iterator[None]:
        """Writes inside wait ``BOOKKEEPING_WAIT_MS`` for the write lock, not the busy timeout,
        then raise a busy error (``BUSY_ERRORS``): for a write that may be put off."""
        self.db.set_busy_timeout(BOOKKEEPING_WAIT_MS)
        try:
            yield
        finally:
            self.db.set_busy_timeout(BUSY_TIMEOUT_MS)

    def write_unless_busy(self, write: Callable[[], None]) -> bool:
        """Run ``write`` in a write transaction if the write lock comes within
        ``BOOKKEEPING_WAIT_MS``; False, and nothing written, when another program holds it
        longer (an import holds it throughout). For what may be skipped: recall's use counts
        and timings must not make a search wait, or fail, behind an import."""
        if self.db.in_transaction:  # this connection holds the lock already: a savepoint
            with self.db:
                write()
            return True
        self.db.set_busy_timeout(BOOKKEEPING_WAIT_MS)
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except apsw.BusyError:
            return False
        finally:
            self.db.set_busy_timeout(BUSY_TIMEOUT_MS)
        try:
            write()
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")
        return True

    def scalar(self, sql: str, params: Sequence[Any] = ()) -> int:
        """The integer result of an aggregate query (count, max, ...)."""
        row = self.db.execute(sql, params).fetchone()
        assert row is not None  # aggregate queries always return one row
        return int(row[0])

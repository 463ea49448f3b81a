"""Decoded ``memories`` rows that recall read lately, kept while they cannot have changed.

Recall reads ~70 candidate rows per query, and a person's memories recur from one query to the
next; decoding them (SQL, then a ``MemoryRecord`` each) was a fifth of a recall's CPU time. The
cache follows every writer as the in-memory indexes do, but row by row:

- this connection's writes: SQLite's update hook names each ``memories`` row inserted or
  changed, which leaves the cache at once (whatever the change: a recall's ``last_accessed``
  too, so what a recall returns is what SQL would read now);
- other connections' commits: ``PRAGMA data_version`` moved, and the whole cache goes;
- inside a transaction nothing read is kept (it may roll back), and a read that a write
  overtook is not kept either (a generation count the hook bumps).

``memories`` rows are never deleted (a forget keeps a tombstone), so inserts and updates are all
the hook has to see. The hook is the connection's only one (SQLite keeps one per connection;
nothing else in localmind sets it). The cached records are shared: callers must not change them
(recall hands out copies of what it returns).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from typing import Any, Generic, TypeVar

_Row = TypeVar("_Row")
_Value = TypeVar("_Value")

#: Rows kept (least recently used out first): ~1 KB each, so ~20 MB at most, the size of the
#: recall's own cache of memories' terms.
ROW_CACHE_SIZE = 20_000


class RowCache(Generic[_Row]):
    """Rows by rowid, valid for one connection while its ``data_version`` stays the same."""

    def __init__(self, size: int = ROW_CACHE_SIZE) -> None:
        self.size = size
        self._rows: OrderedDict[int, _Row] = OrderedDict()
        self._lock = threading.Lock()
        self._db: Any = None  # the connection whose update hook feeds this cache
        self._data_version = -1
        self._generation = 0  # this connection's changes to memories seen so far
        # values read from many rows (``derived``), by name: (data_version, generation, value)
        self._derived: dict[str, tuple[int, int, Any]] = {}
        self._tables: dict[str, int] = {}  # rows this connection changed, by table
        self._followed = 0  # connections whose update hook fed it so far

    def rows(
        self,
        db: Any,
        rowids: Iterable[int],
        data_version: Callable[[], int],
        read: Callable[[list[int]], dict[int, _Row]],
    ) -> dict[int, _Row]:
        """The rows of ``rowids`` that exist, in rowid order (as SQL's ``rowid IN`` returns
        them): from the cache, and through ``read`` for the others (kept for next time)."""
        wanted = sorted(set(rowids))
        with self._lock:
            self._follow(db, data_version)
            found: dict[int, _Row] = {}
            missing = []
            for rowid in wanted:
                row = self._rows.get(rowid)
                if row is None:
                    missing.append(rowid)
                else:
                    self._rows.move_to_end(rowid)
                    found[rowid] = row
            # kept only if no transaction was open while it was read (another thread's may
            # still roll back) and no write came in between
            keep = not db.in_transaction
            generation = self._generation
        if not missing:
            return found
        fresh = read(missing)
        with self._lock:
            if keep and generation == self._generation and not db.in_transaction:
                self._rows.update(fresh)
                while len(self._rows) > self.size:
                    self._rows.popitem(last=False)
        found.update(fresh)
        return {rowid: found[rowid] for rowid in wanted if rowid in found}

    def updating(
        self,
        db: Any,
        rowids: Iterable[int],
        data_version: Callable[[], int],
        change: Callable[[_Row], _Row],
        write: Callable[[], object],
    ) -> Callable[[], None]:
        """Run ``write``, an update of ``rowids`` inside the caller's write transaction that
        changes each row as ``change`` does; returns what to call once that transaction
        committed: the rows cached before it then come back changed, instead of being read and
        decoded again by the next recall (the update hook dropped them). Nothing comes back if
        the transaction is still open (a savepoint inside another), another connection
        committed since, or this one changed any other ``memories`` row in between."""
        with self._lock:
            self._follow(db, data_version)
            before = {rowid: self._rows[rowid] for rowid in rowids if rowid in self._rows}
            version = self._data_version
        write()
        with self._lock:
            generation = self._generation
        changed = {rowid: change(row) for rowid, row in before.items()}

        def committed() -> None:
            with self._lock:
                if (
                    not changed
                    or db.in_transaction
                    or db is not self._db
                    or generation != self._generation
                    or version != self._data_version
                    or version != data_version()
                ):
                    return
                for rowid, row in changed.items():
                    self._rows.setdefault(rowid, row)
                while len(self._rows) > self.size:
                    self._rows.popitem(last=False)

        return committed

    def derived(
        self, db: Any, data_version: Callable[[], int], name: str, read: Callable[[], _Value]
    ) -> _Value:
        """``read()`` (a value read from many ``memories`` rows: the secret ones), kept under
        ``name`` while no row can have changed, by the rules the rows follow."""
        with self._lock:
            self._follow(db, data_version)
            keep = not db.in_transaction
            generation = self._generation
            kept = self._derived.get(name)
            if keep and kept is not None and kept[:2] == (self._data_version, generation):
                return kept[2]
        value = read()
        with self._lock:
            if keep and generation == self._generation and not db.in_transaction:
                self._derived[name] = (self._data_version, generation, value)
        return value

    def _follow(self, db: Any, data_version: Callable[[], int]) -> None:
        """Under the lock: listen to ``db``'s writes, and forget everything when another
        connection committed."""
        self._listen(db)
        version = data_version()
        if version != self._data_version:  # another connection committed
            self._rows.clear()
            self._derived.clear()
            self._data_version = version

    def _listen(self, db: Any) -> None:
        """Under the lock: feed this cache from ``db``'s update hook."""
        if db is not self._db:
            db.set_update_hook(self._changed)
            self._db, self._data_version = db, -1
            self._tables.clear()
            self._followed += 1

    def table_changes(self, db: Any, tables: Iterable[str]) -> tuple[int, ...]:
        """How many rows of each of ``tables`` this connection has changed since the hook
        follows it, after the number of connections it followed (a new one starts again)."""
        with self._lock:
            self._listen(db)
            return (self._followed, *(self._tables.get(table, 0) for table in tables))

    def _changed(self, _op: int, _database: str, table: str, rowid: int) -> None:
        """SQLite's update hook: a row of ``table`` was inserted, updated or deleted on this
        connection (any thread, committed or not yet)."""
        self._tables[table] = self._tables.get(table, 0) + 1
        if table == "memories":
            self._generation += 1
            self._rows.pop(rowid, None)


_Key = TypeVar("_Key", bound=Hashable)
_Answer = TypeVar("_Answer")


class LookupCache(Generic[_Key, _Answer]):
    """Answers of a lookup by key in other tables than ``memories`` (a memory's pending
    conflicts, its later versions), kept while those tables cannot have changed: this
    connection changed none of their rows (``RowCache``'s update hook counts them) and no other
    connection committed (``PRAGMA data_version``). Recall asks both for its first few results
    on every query: two statements, a twentieth of its CPU time at 10k memories. The same rules
    as the row cache: nothing read inside a transaction, or overtaken by a write, is kept."""

    def __init__(self, rows: RowCache[Any], tables: tuple[str, ...], size: int = ROW_CACHE_SIZE):
        self._follower, self._tables, self.size = rows, tables, size
        self._answers: OrderedDict[_Key, _Answer] = OrderedDict()
        self._lock = threading.Lock()
        self._stamp: tuple[int, tuple[int, ...]] = (-1, ())

    def get(
        self,
        db: Any,
        keys: Iterable[_Key],
        data_version: Callable[[], int],
        read: Callable[[list[_Key]], dict[_Key, _Answer]],
    ) -> dict[_Key, _Answer]:
        """The answer for each of ``keys`` (``read`` must give one for every key it is asked)."""
        wanted = list(dict.fromkeys(keys))
        with self._lock:
            stamp = (data_version(), self._follower.table_changes(db, self._tables))
            if stamp != self._stamp:
                self._answers.clear()
                self._stamp = stamp
            found = {key: self._answers[key] for key in wanted if key in self._answers}
            keep = not db.in_transaction
        missing = [key for key in wanted if key not in found]
        if not missing:
            return found
        fresh = read(missing)
        with self._lock:
            after = self._follower.table_changes(db, self._tables)
            if keep and after == stamp[1] and self._stamp == stamp and not db.in_transaction:
                self._answers.update(fresh)
                while len(self._answers) > self.size:
                    self._answers.popitem(last=False)
        found.update(fresh)
        return {key: found[key] for key in wanted}

"""The row cache's rules on a real SQLite connection (no store): a read that a write overtook
is not kept, and the cache holds at most its size."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import apsw

from localmind.store.row_cache import LookupCache, RowCache


def _connection() -> apsw.Connection:
    db = apsw.Connection(":memory:")
    db.execute("CREATE TABLE memories (content TEXT)")
    db.executemany("INSERT INTO memories (content) VALUES (?)", [("a",), ("b",), ("c",)])
    return db


def _reader(db: apsw.Connection, reads: list[list[int]]) -> Callable[[list[int]], dict[int, str]]:
    def read(rowids: list[int]) -> dict[int, str]:
        reads.append(rowids)
        marks = ", ".join("?" for _ in rowids)
        rows = db.execute(f"SELECT rowid, content FROM memories WHERE rowid IN ({marks})", rowids)
        return {int(rowid): str(content) for rowid, content in rows}

    return read


def test_rows_are_read_once_and_a_write_here_reads_them_again() -> None:
    db, cache, reads = _connection(), RowCache[str](), list[list[int]]()
    read = _reader(db, reads)

    assert cache.rows(db, [3, 1, 9], lambda: 1, read) == {1: "a", 3: "c"}
    assert cache.rows(db, [1, 3], lambda: 1, read) == {1: "a", 3: "c"}
    db.execute("UPDATE memories SET content = 'A' WHERE rowid = 1")
    assert cache.rows(db, [1, 3], lambda: 1, read) == {1: "A", 3: "c"}

    assert reads == [[1, 3, 9], [1]]


def test_a_read_overtaken_by_a_write_is_not_kept() -> None:
    db, cache, reads = _connection(), RowCache[str](), list[list[int]]()
    plain = _reader(db, reads)

    def overtaken(rowids: list[int]) -> dict[int, str]:
        found = plain(rowids)
        db.execute("UPDATE memories SET content = 'B' WHERE rowid = 2")  # another thread's
        return found

    assert cache.rows(db, [2], lambda: 1, overtaken) == {2: "b"}
    assert cache.rows(db, [2], lambda: 1, plain) == {2: "B"}


def test_another_connection_s_commit_empties_it_and_it_keeps_its_size() -> None:
    db, cache, reads = _connection(), RowCache[str](size=2), list[list[int]]()
    read = _reader(db, reads)

    cache.rows(db, [1, 2, 3], lambda: 1, read)
    cache.rows(db, [2, 3], lambda: 1, read)
    cache.rows(db, [2, 3], lambda: 2, read)

    assert reads == [[1, 2, 3], [2, 3]]
    assert len(cache._rows) == 2


def test_a_derived_value_is_read_again_after_any_change() -> None:
    """The list of secret memories a recall for an assistant leaves out: kept while no row can
    have changed, read again after a write here, another connection's commit, and never kept
    from inside a transaction."""
    db, cache = _connection(), RowCache[str]()
    reads: list[str] = []

    def everything() -> list[str]:
        reads.append("read")
        return [str(content) for (content,) in db.execute("SELECT content FROM memories")]

    assert cache.derived(db, lambda: 1, "all", everything) == ["a", "b", "c"]
    assert cache.derived(db, lambda: 1, "all", everything) == ["a", "b", "c"]
    assert len(reads) == 1
    db.execute("UPDATE memories SET content = 'A' WHERE rowid = 1")
    assert cache.derived(db, lambda: 1, "all", everything) == ["A", "b", "c"]
    assert cache.derived(db, lambda: 2, "all", everything) == ["A", "b", "c"]  # a commit there
    assert len(reads) == 3
    with contextlib.suppress(RuntimeError), db:  # a transaction that rolls back
        db.execute("UPDATE memories SET content = 'X' WHERE rowid = 2")
        assert cache.derived(db, lambda: 2, "all", everything) == ["A", "X", "c"]
        raise RuntimeError
    assert cache.derived(db, lambda: 2, "all", everything) == ["A", "b", "c"]


def _links(db: apsw.Connection, reads: list[list[str]]) -> Callable[[list[str]], dict[str, int]]:
    """A lookup by key in the ``links`` table: how many links each key has."""

    def read(keys: list[str]) -> dict[str, int]:
        reads.append(keys)
        counts = dict.fromkeys(keys, 0)
        for (key,) in db.execute("SELECT key FROM links"):
            if key in counts:
                counts[key] += 1
        return counts

    return read


def test_lookups_are_kept_until_their_table_changes_here_or_elsewhere() -> None:
    db, reads = _connection(), list[list[str]]()
    db.execute("CREATE TABLE links (key TEXT)")
    rows = RowCache[str]()
    cache = LookupCache[str, int](rows, ("links",))
    version = [1]
    read = _links(db, reads)

    def ask(*keys: str) -> dict[str, int]:
        return cache.get(db, keys, lambda: version[0], read)

    assert ask("a", "b") == {"a": 0, "b": 0}
    assert ask("b", "a") == {"b": 0, "a": 0}
    db.execute("UPDATE memories SET content = 'A' WHERE rowid = 1")  # another table: kept
    assert ask("a") == {"a": 0}
    db.execute("INSERT INTO links (key) VALUES ('a')")  # this connection's write
    assert ask("a", "b") == {"a": 1, "b": 0}
    version[0] = 2  # another connection committed
    assert ask("b") == {"b": 0}
    with db:  # inside a transaction nothing read is kept
        assert ask("c") == {"c": 0}
    assert ask("c") == {"c": 0}

    assert reads == [["a", "b"], ["a", "b"], ["b"], ["c"], ["c"]]


def _noted(
    db: apsw.Connection, cache: RowCache[str], version: Callable[[], int], rowids: list[int]
) -> Callable[[], None]:
    """``RowCache.updating`` as a recall notes its results: the rows upper-cased in SQL, and
    the cached copies changed alike."""
    marks = ", ".join("?" for _ in rowids)
    return cache.updating(
        db,
        rowids,
        version,
        str.upper,
        lambda: db.execute(
            f"UPDATE memories SET content = upper(content) WHERE rowid IN ({marks})", rowids
        ),
    )


def test_rows_a_committed_update_changed_are_kept_changed_not_read_again() -> None:
    db, cache, reads = _connection(), RowCache[str](), list[list[int]]()
    read = _reader(db, reads)
    cache.rows(db, [1, 2, 3], lambda: 1, read)

    db.execute("BEGIN IMMEDIATE")
    committed = _noted(db, cache, lambda: 1, [1, 2])
    db.execute("COMMIT")
    committed()

    assert cache.rows(db, [1, 2, 3], lambda: 1, read) == {1: "A", 2: "B", 3: "c"}
    assert reads == [[1, 2, 3]]  # what SQL holds now, without reading it


def test_an_update_not_committed_or_overtaken_is_read_again() -> None:
    db, cache, reads = _connection(), RowCache[str](), list[list[int]]()
    read = _reader(db, reads)
    version = [1]
    cache.rows(db, [1, 2, 3], lambda: version[0], read)

    # rolled back: its rows left the cache, and nothing puts them back
    db.execute("BEGIN IMMEDIATE")
    _noted(db, cache, lambda: version[0], [1])
    db.execute("ROLLBACK")
    assert cache.rows(db, [1], lambda: version[0], read) == {1: "a"}
    # a savepoint inside a transaction still open: not committed yet when it is called
    with contextlib.suppress(RuntimeError), db:
        _noted(db, cache, lambda: version[0], [2])()
        raise RuntimeError("the outer write fails")
    assert cache.rows(db, [2], lambda: version[0], read) == {2: "b"}
    # another change to memories here came in between
    db.execute("BEGIN IMMEDIATE")
    committed = _noted(db, cache, lambda: version[0], [3])
    db.execute("UPDATE memories SET content = 'x' || content WHERE rowid = 3")
    db.execute("COMMIT")
    committed()
    assert cache.rows(db, [3], lambda: version[0], read) == {3: "xC"}
    # another connection committed before it was called, and another thread read since
    cache.rows(db, [1], lambda: version[0], read)
    db.execute("BEGIN IMMEDIATE")
    committed = _noted(db, cache, lambda: version[0], [1])
    db.execute("COMMIT")
    version[0] = 2
    cache.rows(db, [2], lambda: version[0], read)
    committed()
    assert cache.rows(db, [1], lambda: version[0], read) == {1: "A"}

    assert reads == [[1, 2, 3], [1], [2], [3], [2], [1]]

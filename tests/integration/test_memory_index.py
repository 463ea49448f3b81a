"""The in-memory vector index of an open store (localmind.sign_index through SqliteStore): the
same results as the SQL path, and in step with every write: this connection's (committed or
rolled back), another process's (the CLI), a sync import's, a forget's."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest

from localmind import Memory
from localmind.keys import UNSAFE_TEST_KDF_ENV
from localmind.store import INDEX_AFTER_SEARCHES, SqliteStore
from localmind.store import vectors as vectors_module
from localmind.store.connection import connect
from localmind.store.migrations import MIGRATIONS
from tests.conftest import FAST_KDF, PASSPHRASE
from tests.integration.test_cli import run_installed
from tests.integration.test_vector_index import vector_store

DIM = 512
CHANGE_LOG = next(m.version for m in MIGRATIONS if m.name == "vector change log")
TYPES = ("semantic", "episodic", "long_term")


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteStore]:
    store = vector_store(tmp_path / "store.db", DIM)
    yield store
    store.db.close()


def _add(store: SqliteStore, rowid: int, vector: np.ndarray, type_: str = "semantic") -> None:
    store.db.execute(
        "INSERT INTO memory_vec (rowid, namespace, type, embedding) VALUES (?, 'me', ?, ?)",
        (rowid, type_, vector.astype(np.float32).tobytes()),
    )


def _vectors(count: int, seed: int) -> np.ndarray:
    """Unit vectors in loose clusters, like sentence embeddings (neighbours share a topic)."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(20, DIM))
    vectors = centres[rng.integers(0, 20, count)] + 0.8 * rng.normal(size=(count, DIM))
    return (vectors / np.linalg.norm(vectors, axis=1, keepdims=True)).astype(np.float32)


def _warm(store: SqliteStore, query: np.ndarray) -> None:
    """Search until the index is built (one-shot commands never build it)."""
    for _ in range(INDEX_AFTER_SEARCHES + 1):
        store.nearest(query, 5, "me", None)
    assert store.memory_index is not None


@pytest.mark.parametrize("floats_held", [True, False])
def test_results_are_those_of_the_sql_path(
    store: SqliteStore, floats_held: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not floats_held:  # past the bound: the exact stage reads the vectors from the store
        monkeypatch.setattr(vectors_module, "FLOAT_COPY_MAX_BYTES", 100 * DIM * 4)
    vectors = _vectors(350, seed=1)
    with store.db:
        for rowid, vector in enumerate(vectors, start=1):
            _add(store, rowid, vector, TYPES[rowid % 3])
    queries = _vectors(30, seed=2)
    _warm(store, queries[0])
    assert store.memory_index is not None
    assert bool(store.memory_index.float_vectors([1])) is floats_held

    for query in queries:
        for k, types in (
            (50, None),
            (10, None),
            (5, ["episodic"]),
            (20, ["semantic", "long_term"]),
        ):
            fast = store.nearest(query, k, "me", types)
            slow = store.nearest_through_sql(query, k, "me", types)
            # to the bit: a memory's distance does not depend on how many candidates were
            # rescored with it (the SQL path rescores them all, the index about k)
            assert fast == slow


def test_the_index_follows_this_connections_writes_and_rollbacks(store: SqliteStore) -> None:
    vectors = _vectors(120, seed=3)
    with store.db:
        for rowid, vector in enumerate(vectors[:100], start=1):
            _add(store, rowid, vector)
    _warm(store, vectors[0])
    new, moved = vectors[100], vectors[5]

    with store.db:
        _add(store, 500, new)
        # inside the transaction its own write is found (overlaid, not yet taken in)
        assert store.nearest(new, 1, "me", None)[0][0] == 500
    assert store.nearest(new, 1, "me", None)[0][0] == 500
    assert 500 in store.memory_index.rowids()  # type: ignore[union-attr]

    with pytest.raises(RuntimeError), store.db:
        _add(store, 501, vectors[101])
        store.db.execute("DELETE FROM memory_vec WHERE rowid = 6")
        assert store.nearest(vectors[101], 1, "me", None)[0][0] == 501
        raise RuntimeError("roll back")
    # rolled back: 501 never existed, 6 is still there
    assert store.nearest(vectors[101], 1, "me", None)[0][0] != 501
    assert store.nearest(moved, 1, "me", None)[0][0] == 6

    store.db.execute("UPDATE memory_vec SET type = 'episodic' WHERE rowid = 6")
    assert store.nearest(moved, 1, "me", ["semantic"])[0][0] != 6
    assert store.nearest(moved, 1, "me", ["episodic"])[0][0] == 6


def test_another_connections_writes_are_read_incrementally(
    store: SqliteStore, tmp_path: Path
) -> None:
    vectors = _vectors(60, seed=4)
    with store.db:
        for rowid, vector in enumerate(vectors[:50], start=1):
            _add(store, rowid, vector)
    _warm(store, vectors[0])
    built = store.memory_index
    other = connect(tmp_path / "store.db", b"k" * 32, create=False)
    try:
        with other:
            other.execute(
                "INSERT INTO memory_vec (rowid, namespace, type, embedding) "
                "VALUES (77, 'me', 'semantic', ?)",
                (vectors[55].tobytes(),),
            )
            other.execute("DELETE FROM memory_vec WHERE rowid = 3")
    finally:
        other.close()

    assert store.nearest(vectors[55], 1, "me", None)[0][0] == 77
    assert 3 not in {rowid for rowid, _ in store.nearest(vectors[2], 5, "me", None)}
    assert store.memory_index is built  # taken in, not rebuilt


@pytest.fixture
def live(open_memory: Callable[..., Memory]) -> Memory:
    memory = open_memory()
    for text in (
        "I live in Lisbon with two cats",
        "My favourite tea is green tea from Shizuoka",
        "I play the cello every Sunday morning",
        "Our team uses PostgreSQL in production",
        "我每天早上喝绿茶",
    ):
        memory.remember(text)
    for _ in range(INDEX_AFTER_SEARCHES + 1):
        memory.recall("tea")
    assert memory._store.memory_index is not None
    return memory


def _env(store_path: Path) -> dict[str, str]:
    return {
        "LOCALMIND_DB": str(store_path),
        "LOCALMIND_PASSPHRASE": PASSPHRASE,
        UNSAFE_TEST_KDF_ENV: "1",
    }


@pytest.mark.slow
def test_a_cli_add_and_forget_in_another_process_are_searched_at_once(
    live: Memory, store_path: Path
) -> None:
    added = run_installed("add", "My dentist is Dr Okafor in Porto", env=_env(store_path))
    assert added.returncode == 0, added.stderr

    found = live.recall("who is my dentist?", 1)
    assert found[0].memory.content == "My dentist is Dr Okafor in Porto"
    rowid = live._store.get(found[0].memory.id).rowid  # type: ignore[union-attr]
    assert rowid in live._store.memory_index.rowids()  # type: ignore[union-attr]

    forgot = run_installed("forget", found[0].memory.id, env=_env(store_path))
    assert forgot.returncode == 0, forgot.stderr
    assert "Okafor" not in " ".join(r.memory.content for r in live.recall("who is my dentist?", 5))
    assert rowid not in live._store.memory_index.rowids()  # type: ignore[union-attr]


SYNC_IMPORT = """
import sys
from localmind import Memory
from tests.conftest import FAST_KDF, PASSPHRASE
target, source = (Memory.open(p, PASSPHRASE, kdf=FAST_KDF) for p in sys.argv[1:3])
source.remember("The piano tuner comes every March")
print(target.apply_remote(source.events_since(0)))
"""


def sync_import_in_another_process(store_path: Path, laptop: Path) -> None:
    """Another process imports into the store a laptop's memory: "The piano tuner comes every
    March"."""
    imported = subprocess.run(
        [sys.executable, "-c", SYNC_IMPORT, str(store_path), str(laptop)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert imported.returncode == 0, imported.stderr


@pytest.mark.slow
def test_a_sync_import_by_another_process_is_searched_at_once(
    live: Memory, store_path: Path, tmp_path: Path
) -> None:
    sync_import_in_another_process(store_path, tmp_path / "laptop.db")

    assert live.recall("when does the piano tuner come?", 1)[0].memory.content == (
        "The piano tuner comes every March"
    )


def test_a_forgotten_memory_leaves_the_index_at_once(live: Memory) -> None:
    target = live.recall("cello", 1)[0].memory
    rowid = live._store.get(target.id).rowid  # type: ignore[union-attr]
    assert rowid in live._store.memory_index.rowids()  # type: ignore[union-attr]

    live.forget(target.id)

    # before any search reads the change log
    assert rowid not in live._store.memory_index.rowids()  # type: ignore[union-attr]
    assert target.id not in {r.memory.id for r in live.recall("cello", 5)}
    assert rowid not in live._store.memory_index.rowids()  # type: ignore[union-attr]


def test_one_shot_commands_never_build_it(store: SqliteStore) -> None:
    with store.db:
        _add(store, 1, _vectors(1, seed=5)[0])

    for _ in range(INDEX_AFTER_SEARCHES):
        store.nearest(_vectors(1, seed=6)[0], 5, "me", None)

    assert store.memory_index is None


def test_an_old_store_gets_the_change_log(tmp_path: Path) -> None:
    # a store made before the change log: memory_vec exists, the log does not (nor does
    # anything a later migration added)
    memory = Memory.open(tmp_path / "old.db", PASSPHRASE, kdf=FAST_KDF)
    db = memory._store.db
    with db:
        db.execute("DROP INDEX memory_versions_by_hash")
        db.execute("ALTER TABLE memory_versions DROP COLUMN content_hash")
        db.execute("DROP TABLE set_aside")
        db.execute("DROP INDEX memories_by_source")
        db.execute("ALTER TABLE memories DROP COLUMN source")
        db.execute("ALTER TABLE memories DROP COLUMN secret")
        for trigger in ("insert", "update", "delete"):
            db.execute(f"DROP TRIGGER memory_vec_log_{trigger}")
        db.execute("DROP TABLE memory_vec_changes")
        db.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(CHANGE_LOG - 1),))
    memory.close()

    memory = Memory.open(tmp_path / "old.db", PASSPHRASE, kdf=FAST_KDF)
    try:
        added = memory.remember("I keep bees on the roof")
        changes = memory._store.db.execute("SELECT vec_rowid FROM memory_vec_changes").fetchall()
        assert (memory._store.get(added.id).rowid,) in changes  # type: ignore[union-attr]
        assert memory._store.get_meta("schema_version") == str(MIGRATIONS[-1].version)
    finally:
        memory.close()


def test_vectors_read_from_the_store_leave_out_rows_gone(
    store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past the float copy's bound the vectors are read through a blob handle moved from row to
    row (``_stored_vectors``): a rowid no longer there is left out, and the rows after it are
    still read, each its own vector."""
    monkeypatch.setattr(vectors_module, "FLOAT_COPY_MAX_BYTES", 100 * DIM * 4)
    vectors = _vectors(150, seed=4)
    with store.db:
        for rowid, vector in enumerate(vectors, start=1):
            _add(store, rowid, vector)
    _warm(store, vectors[0])
    assert not store.memory_index.float_vectors([1])  # type: ignore[union-attr]
    store.db.execute("DELETE FROM memory_vec WHERE rowid = 5")
    found = store.vectors_for([9999, 7, 3, 5, 151, 150])
    assert sorted(found) == [3, 7, 150]
    for rowid in (3, 7, 150):
        assert found[rowid] == vectors[rowid - 1].tobytes()

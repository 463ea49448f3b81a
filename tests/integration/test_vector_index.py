"""The store's two-stage vector search (binary candidates, exact rescoring) and its keyword search,
checked against brute force on a real (encrypted) store file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from localmind.fts_terms import index_text, match_expression
from localmind.hlc import HybridLogicalClock
from localmind.store import SqliteStore
from localmind.store.connection import connect
from localmind.store.migrations import migrate

DIM = 32


def vector_store(path: Path, dim: int) -> SqliteStore:
    """A new encrypted store at ``path`` with a vector table of ``dim`` floats (close its db)."""
    db = connect(path, b"k" * 32, create=True)
    migrate(db)
    clock = lambda: 1_780_000_000.0  # noqa: E731
    store = SqliteStore(db, HybridLogicalClock("dev", clock), "dev", clock)
    with db:
        store.create_vector_table(dim)
    return store


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteStore]:
    store = vector_store(tmp_path / "store.db", DIM)
    yield store
    store.db.close()


def _add(store: SqliteStore, rowid: int, namespace: str, type_: str, vector: np.ndarray) -> None:
    store.db.execute(
        "INSERT INTO memory_vec (rowid, namespace, type, embedding) VALUES (?, ?, ?, ?)",
        (rowid, namespace, type_, vector.astype(np.float32).tobytes()),
    )


def _exact(vectors: dict[int, np.ndarray], query: np.ndarray, k: int) -> list[int]:
    ids = list(vectors)
    matrix = np.stack([vectors[i] for i in ids])
    return [ids[i] for i in np.argsort(-(matrix @ query))[:k]]


def test_nearest_is_exact_when_the_namespace_fits_the_candidate_pool(store: SqliteStore) -> None:
    rng = np.random.default_rng(3)
    vectors = {}
    with store.db:
        for rowid in range(1, 301):
            vector = rng.normal(size=DIM)
            vector /= np.linalg.norm(vector)
            namespace = "me" if rowid % 3 else "other"
            type_ = "episodic" if rowid % 2 else "semantic"
            _add(store, rowid, namespace, type_, vector)
            vectors[rowid] = (vector, namespace, type_)
    query = rng.normal(size=DIM).astype(np.float32)
    query /= np.linalg.norm(query)
    for namespace, types in (("me", None), ("other", None), ("me", ["episodic"])):
        pool = {
            r: v
            for r, (v, ns, t) in vectors.items()
            if ns == namespace and (types is None or t in types)
        }
        hits = store.nearest(query, 10, namespace, types)
        assert [r for r, _ in hits] == _exact(pool, query, 10)
        for rowid, distance in hits:
            assert distance == pytest.approx(1.0 - float(pool[rowid] @ query), abs=1e-5)


def test_the_bit_index_follows_inserts_updates_and_deletes(store: SqliteStore) -> None:
    rng = np.random.default_rng(4)
    with store.db:
        for rowid in range(1, 21):
            _add(store, rowid, "me", "episodic", rng.normal(size=DIM))
        store.db.execute("UPDATE memory_vec SET type = 'semantic' WHERE rowid <= 5")
        store.db.execute("DELETE FROM memory_vec WHERE rowid > 15")
    bits = dict(store.db.execute("SELECT rowid, type FROM memory_vec_bits"))
    assert bits == dict(store.db.execute("SELECT rowid, type FROM memory_vec"))
    assert sorted(bits) == list(range(1, 16))
    query = rng.normal(size=DIM).astype(np.float32)
    assert {r for r, _ in store.nearest(query, 50, "me", ["semantic"])} == {1, 2, 3, 4, 5}
    assert store.nearest(query, 0, "me", None) == []


def test_a_vector_of_the_wrong_size_is_refused(store: SqliteStore) -> None:
    with pytest.raises(Exception, match="CHECK"), store.db:
        _add(store, 1, "me", "episodic", np.zeros(DIM + 1))


def test_keyword_search_ranks_like_a_joined_bm25_query(store: SqliteStore) -> None:
    texts = [
        ("me", "episodic", "Had ramen with Anna in Berlin"),
        ("me", "semantic", "Anna lives in Berlin and likes ramen"),
        ("other", "episodic", "Anna moved to Berlin"),
        ("me", "episodic", "Ramen night again"),
        ("me", "long_term", "我喜欢喝绿茶"),
        ("other", "semantic", "绿茶和乌龙茶都不错"),
    ] * 30  # enough rows for the namespace filter to need a second, larger fetch
    with store.db:
        for rowid, (namespace, type_, text) in enumerate(texts, start=1):
            store.db.execute(
                "INSERT INTO memories (rowid, id, namespace, content, type, importance, "
                "confidence, created_at, updated_at, content_hash, hlc) "
                "VALUES (?, ?, ?, ?, ?, 0.5, 0.8, 0, 0, '', '')",
                (rowid, f"id{rowid}", namespace, text, type_),
            )
            store.db.execute(
                "INSERT INTO memory_fts (rowid, text) VALUES (?, ?)", (rowid, index_text(text))
            )
    for query in ("anna berlin ramen", "绿茶"):
        match = match_expression(query)
        assert match
        for namespace, types in (("me", None), ("other", None), ("me", ["episodic", "semantic"])):
            sql = (
                "SELECT f.rowid FROM memory_fts f JOIN memories m ON m.rowid = f.rowid "
                "WHERE memory_fts MATCH ? AND m.namespace = ?"
            )
            params: list[object] = [match, namespace]
            if types:
                sql += f" AND m.type IN ({', '.join('?' * len(types))})"
                params += types
            sql = sql.replace("SELECT f.rowid", "SELECT f.rowid, bm25(memory_fts) AS score")
            expected = dict(store.db.execute(sql + " ORDER BY score", params).fetchall())
            got = store.keyword(match, 7, namespace, types)
            # The same scores, best first (rows tied on score may come in either order).
            assert [score for _, score in got] == sorted(expected.values())[:7]
            assert all(expected[rowid] == score for rowid, score in got)

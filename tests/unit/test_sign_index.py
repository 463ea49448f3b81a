"""The in-memory sign-bit index (localmind.sign_index): pure numpy, checked against brute force."""

from __future__ import annotations

import numpy as np
import pytest

from localmind import blas
from localmind.sign_index import IndexRows, SignIndex, _first_by_value, sign_words

DIM = 96  # not a multiple of 64: the last word of the sign bits is padded


def _rows(rowids: list[int], vectors: np.ndarray, kind: str = "semantic") -> IndexRows:
    return IndexRows(np.array(rowids, np.int64), [kind] * len(rowids), vectors)


def _exact(vectors: dict[int, np.ndarray], query: np.ndarray, k: int) -> list[int]:
    ids = list(vectors)
    matrix = np.stack([vectors[i] / np.linalg.norm(vectors[i]) for i in ids])
    return [ids[i] for i in np.argsort(-(matrix @ query))[:k]]


def test_sign_words_hold_one_bit_per_positive_dimension() -> None:
    vectors = np.array([[1.0, -1.0, 0.0, 2.0] + [0.0] * 60 + [3.0]], np.float32)

    words = sign_words(vectors)

    assert words.shape == (1, 2)
    assert int(words[0, 0]) == 0b1001
    assert int(words[0, 1]) == 1


def test_search_over_the_whole_pool_ranks_like_exact_cosine() -> None:
    rng = np.random.default_rng(3)
    vectors = {rowid: rng.normal(size=DIM).astype(np.float32) for rowid in range(1, 201)}
    index = SignIndex("me")
    index.add(_rows(list(vectors), np.stack(list(vectors.values()))))
    query = rng.normal(size=DIM).astype(np.float32)
    query /= np.linalg.norm(query)

    rowids, cosines = index.search(query, pool=400, keep=10, types=None)

    # int8 rounding moves cosines by ~1e-2 at most here: the top 10 overlap almost entirely
    assert len(set(rowids.tolist()) & set(_exact(vectors, query, 10))) >= 9
    assert list(cosines) == sorted(cosines, reverse=True)


def test_the_hamming_stage_keeps_the_nearest_when_the_pool_is_smaller() -> None:
    rng = np.random.default_rng(5)
    noise = rng.normal(size=(2000, DIM)).astype(np.float32)
    query = rng.normal(size=DIM).astype(np.float32)
    near = query + 0.1 * rng.normal(size=(5, DIM)).astype(np.float32)
    index = SignIndex("me")
    index.add(_rows(list(range(1, 2001)), noise))
    index.add(_rows([5001, 5002, 5003, 5004, 5005], near))

    rowids, _ = index.search(query, pool=50, keep=5, types=None)

    assert set(rowids.tolist()) == {5001, 5002, 5003, 5004, 5005}


def test_remove_types_and_exclusions() -> None:
    rng = np.random.default_rng(9)
    index = SignIndex("me")
    index.add(_rows([1, 2, 3], rng.normal(size=(3, DIM)).astype(np.float32), "semantic"))
    index.add(_rows([4, 5], rng.normal(size=(2, DIM)).astype(np.float32), "episodic"))
    query = rng.normal(size=DIM).astype(np.float32)

    index.remove([2, 99])

    assert index.rowids() == {1, 3, 4, 5}
    assert set(index.search(query, 400, 10, ["episodic"])[0].tolist()) == {4, 5}
    assert set(index.search(query, 400, 10, None, exclude=[1, 4])[0].tolist()) == {3, 5}
    index.remove([1, 3, 4, 5])
    assert len(index) == 0
    assert index.search(query, 400, 10, None)[0].size == 0


def test_growth_keeps_every_row_and_the_memory_bound() -> None:
    rng = np.random.default_rng(11)
    index = SignIndex("me")
    for start in range(0, 3000, 100):  # one add per write, as the store does
        index.add(_rows(list(range(start, start + 100)), rng.normal(size=(100, DIM)).astype("f4")))

    assert index.rowids() == set(range(3000))
    # bits (padded to 2 words), int8, scale, norm, error bound, rowid, type, float32
    per_row = DIM // 8 + 8 + DIM + 4 + 4 + 4 + 8 + 1 + 4 * DIM
    assert index.nbytes() <= 1.25 * 3000 * per_row + 256 * per_row


def test_vectors_of_another_width_are_refused() -> None:
    index = SignIndex("me")
    index.add(_rows([1], np.ones((1, DIM), np.float32)))

    with pytest.raises(ValueError, match="floats"):
        index.add(_rows([2], np.ones((1, DIM + 1), np.float32)))


def _clustered(count: int, seed: int) -> np.ndarray:
    """Unit vectors in loose clusters (neighbours share a topic, as sentence embeddings do)."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(8, DIM))
    vectors = centres[rng.integers(0, 8, count)] + 0.7 * rng.normal(size=(count, DIM))
    return (vectors / np.linalg.norm(vectors, axis=1, keepdims=True)).astype(np.float32)


def test_each_int8_cosine_is_within_its_error_bound() -> None:
    vectors = _clustered(500, seed=13)
    index = SignIndex("me")
    index.add(_rows(list(range(1, 501)), vectors))
    queries = _clustered(20, seed=14)

    for query in queries:
        rowids, approximate = index.search(query, pool=500, keep=500, types=None)
        exact = vectors[rowids - 1].astype(np.float64) @ query.astype(np.float64)
        bound = index._error[rowids - 1]  # slots in insertion order: slot = rowid - 1

        assert np.all(np.abs(approximate - exact) <= bound)
        assert np.abs(approximate - exact).max() > 1e-4  # the int8 copy is not exact


def test_rows_left_out_for_the_best_can_never_be_among_them() -> None:
    vectors = _clustered(3000, seed=15)
    index = SignIndex("me")
    index.add(_rows(list(range(1, 3001)), vectors))
    kept, pruned = [], []

    for query in _clustered(30, seed=16):
        every, _ = index.search(query, pool=600, keep=120, types=None)
        some, _ = index.search(query, pool=600, keep=120, types=None, best=50)
        exact = vectors[every - 1] @ query
        best = set(every[np.argsort(-exact)[:50]].tolist())

        assert set(some.tolist()) <= set(every.tolist())
        assert best <= set(some.tolist())  # the exact 50 best of the 120 are all still there
        kept.append(len(some))
        pruned.append(len(every) - len(some))

    assert sum(pruned) > sum(kept) / 4  # and many others were left out


def test_the_float_vectors_follow_their_rows_through_removals() -> None:
    rng = np.random.default_rng(12)
    vectors = rng.normal(size=(50, DIM)).astype(np.float32)
    index = SignIndex("me")
    index.add(_rows(list(range(50)), vectors))

    index.remove([0, 7, 49, 20, 21])  # the last rows fill the gaps

    kept = [rowid for rowid in range(50) if rowid not in {0, 7, 49, 20, 21}]
    held = index.float_vectors([*kept, 7, 999])
    assert sorted(held) == kept
    assert all(np.array_equal(held[rowid], vectors[rowid]) for rowid in kept)
    assert 7 not in index and 8 in index


def test_past_its_bound_the_float_copy_is_dropped_and_search_goes_on() -> None:
    rng = np.random.default_rng(13)
    vectors = rng.normal(size=(101, DIM)).astype(np.float32)
    index = SignIndex("me", max_float_bytes=100 * DIM * 4)
    index.add(_rows(list(range(100)), vectors[:100]))
    assert set(index.float_vectors([5])) == {5}

    index.add(_rows([100], vectors[100:]))

    assert index.float_vectors([5]) == {}
    rowids, held = index.search_exact(vectors[100], pool=200, keep=5, types=None)
    assert held is None
    assert 100 in rowids.tolist()


def test_the_first_by_value_are_a_stable_sort_cut_short() -> None:
    rng = np.random.default_rng(17)
    for size, keep in [(0, 5), (3, 5), (400, 120), (2000, 120), (500, 1)]:
        # few distinct values: many ties, some across the cut
        values = rng.integers(0, 40, size=size).astype(np.float32) / 7

        first = _first_by_value(values, keep)

        assert first.tolist() == np.argsort(-values, kind="stable")[:keep].tolist()


def test_the_int8_cosines_are_one_product_over_the_pool() -> None:
    # the int8 stage ranks its rows in blocks that stay in the CPU's cache; each cosine must be
    # the one a single product over all the pool's rows gives, to the last bit, else the rows
    # handed to the exact stage (and so recall's results) would change with the block size
    rng = np.random.default_rng(19)
    query = rng.normal(size=512).astype(np.float32)
    for size in (1500, 1001, 333):
        vectors = rng.normal(size=(size, 512)).astype(np.float32)
        index = SignIndex("me")
        index.add(_rows(list(range(size)), vectors))
        scale = (np.abs(vectors).max(axis=1) / 127.0).astype(np.float32)
        norms = np.linalg.norm(vectors, axis=1) * float(np.linalg.norm(query))

        with blas.one_thread():  # as recall searches
            rowids, cosines = index.search(query, pool=size, keep=size, types=None)
            once = np.rint(vectors / scale[:, None]).astype(np.float32) @ query

        expected = (once * scale / norms)[rowids]
        assert len(rowids) == size
        assert np.array_equal(cosines, expected)


def test_the_hamming_pool_is_the_nearest_and_their_ties_however_the_distances_fall() -> None:
    rng = np.random.default_rng(23)
    spread = rng.binomial(512, 0.3, size=50_000).astype(np.uint16)
    # every 16th distance 0, the rest 100: a strided sample sees only zeros
    misleading = np.where(np.arange(50_000) % 16 == 0, 0, 100).astype(np.uint16)
    for distance, pool in [(spread, 2000), (spread, 1), (spread, 49_999), (misleading, 30_000)]:
        bar = int(np.argmax(np.cumsum(np.bincount(distance)) >= pool))
        expected = np.flatnonzero(distance <= bar)

        found = SignIndex._closest(distance, pool)

        if len(expected) > 2 * pool:  # too many ties: a partial sort takes exactly the pool
            assert len(found) == pool and distance[found].max() <= bar
        else:
            assert found.tolist() == expected.tolist()

"""The open namespace's vectors held in memory for search: their sign bits, an int8 copy and the
float32 vectors themselves.

Pure numpy, no SQL: :class:`localmind.store.SqliteStore` fills it from ``memory_vec`` and keeps
it in step with every write (see there). A search scans the sign bits by Hamming distance
(``np.bitwise_count`` over 64-bit words), ranks the candidates by cosine on the int8 copy, and
rescores the best of those exactly on their float32 vectors (:meth:`SignIndex.search_exact`),
kept here too so that a search reads nothing from the encrypted store.

Each int8 vector also keeps a bound on how far its int8 cosine can be from the exact one (the
rounding residual's norm over the vector's: Cauchy-Schwarz), so that only the candidates that can
still be among the exact best need their float32 vectors read (:meth:`SignIndex.search`).

Bytes per memory: 64 (sign bits of 512 dimensions) + 512 (int8 vector) + 4 (its scale) + 4 (its
norm) + 4 (its error bound) + 8 (rowid) + 1 (type) = 597, and 2048 more (the float32 vector) up
to ``max_float_bytes``; the arrays grow by a quarter when full.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from localmind import blas
from localmind.records import MemoryType

_TYPE_CODES = {str(kind): code for code, kind in enumerate(MemoryType)}
_GROWTH = 1.25
#: Added to each error bound: the float32 rounding of the cosines compared (~1e-6) and of the
#: bound itself, so that a bound is never too tight.
_BOUND_SLACK = 1e-4
# Rows of a matrix-vector product computed alike (OpenBLAS's kernels take 4 or 8 at a time;
# a multiple of both, with room).
_BLAS_ROWS = 32
# Int8 rows ranked per block: 128 KB gathered, 512 KB widened to float32 (512 dimensions),
# within a core's L2 cache; a multiple of _BLAS_ROWS.
_INT8_BLOCK = 256
# The Hamming bar of the pool is guessed from every _SAMPLE_STEP-th distance, then moved by at
# most _BAR_STEPS steps (see _within_pool_bar).
_SAMPLE_STEP = 16
_BAR_STEPS = 6


def _first_by_value(values: np.ndarray, keep: int) -> np.ndarray:
    """Positions of the ``keep`` highest ``values``, highest first, equal values in position
    order: ``np.argsort(-values, kind="stable")[:keep]``, without sorting all of them (the
    values down to the ``keep``-th are picked by a partial sort, then sorted)."""
    if len(values) <= keep:
        return np.argsort(-values, kind="stable")
    negated = -values
    bar = np.partition(negated, keep - 1)[keep - 1]
    within = np.flatnonzero(negated <= bar)  # in position order: ties keep it
    return within[np.argsort(negated[within], kind="stable")][:keep]


@dataclass(frozen=True, slots=True)
class IndexRows:
    """Rows to add: rowids, their memory types and float32 vectors (one per row)."""

    rowids: np.ndarray  # int64
    types: Sequence[str]
    vectors: np.ndarray  # float32, (n, dim)

    @classmethod
    def from_blobs(cls, rows: Sequence[tuple[int, str, bytes]]) -> IndexRows:
        """From (rowid, type, float32 blob) rows as ``memory_vec`` holds them."""
        vectors = np.frombuffer(b"".join(bytes(blob) for _, _, blob in rows), dtype=np.float32)
        return cls(
            np.fromiter((rowid for rowid, _, _ in rows), dtype=np.int64, count=len(rows)),
            [kind for _, kind, _ in rows],
            vectors.reshape(len(rows), -1) if rows else vectors.reshape(0, 0),
        )


def exact_nearest(
    query: np.ndarray, rowids: np.ndarray, vectors: np.ndarray, k: int
) -> list[tuple[int, float]]:
    """(rowid, cosine distance) of the ``k`` of these rows nearest ``query`` by exact cosine on
    their float32 ``vectors``; equal distances in rowid order (the same whichever path found
    them: SQL, or the vectors held in memory)."""
    count = len(rowids)
    if not count:
        return []
    # Zero rows up to a whole number of BLAS blocks: OpenBLAS computes the last (rows mod 4)
    # products with another kernel, whose sums differ in the last bit, so without them a
    # memory's similarity would depend on how many candidates were rescored with it.
    matrix = np.zeros((count + (-count % _BLAS_ROWS), len(query)), np.float32)
    matrix[:count] = vectors
    with blas.one_thread():
        norms = np.linalg.norm(matrix[:count], axis=1) * float(np.linalg.norm(query))
        products = (matrix @ query)[:count]
        similarity = products / np.where(norms > 0, norms, 1.0)
    best = np.lexsort((rowids, -similarity))[:k]
    return [(int(rowids[i]), float(1.0 - similarity[i])) for i in best]


def sign_words(vectors: np.ndarray) -> np.ndarray:
    """The sign bits of each vector (1 where > 0) packed into uint64 words, one row each."""
    bits = np.packbits(vectors > 0, axis=-1, bitorder="little")
    pad = (-bits.shape[-1]) % 8
    if pad:
        bits = np.pad(bits, [(0, 0)] * (bits.ndim - 1) + [(0, pad)])
    return np.ascontiguousarray(bits).view(np.uint64)


def _within_pool_bar(distance: np.ndarray, pool: int) -> np.ndarray:
    """Where ``distance`` is at or below the smallest bar with at least ``pool`` of them there.
    The bar is guessed from a histogram of every ``_SAMPLE_STEP``-th distance, then moved a
    step at a time, counting all of them, until it is that bar (each count is one pass over the
    array, where a histogram of them all costs about four: the conversion to integers first);
    when the guess is far off, the histogram of them all."""
    sample = np.cumsum(np.bincount(distance[::_SAMPLE_STEP])) * _SAMPLE_STEP
    bar = int(np.argmax(sample >= pool)) if sample[-1] >= pool else len(sample)
    within = distance <= bar
    for _ in range(_BAR_STEPS):
        if np.count_nonzero(within) < pool:
            bar += 1
            within = distance <= bar
            continue
        lower = distance <= bar - 1 if bar > 0 else None
        if lower is None or np.count_nonzero(lower) < pool:
            return within
        bar, within = bar - 1, lower
    reached = np.cumsum(np.bincount(distance)) >= pool
    return distance <= int(np.argmax(reached))


class SignIndex:
    """Sign bits and int8 vectors of one namespace's active memories, by rowid."""

    def __init__(self, namespace: str, dim: int = 0, *, max_float_bytes: int | None = None) -> None:
        self.namespace = namespace
        #: When the float32 copy would take more, it is dropped (None: no bound): the exact
        #: stage then reads the vectors from the store.
        self.max_float_bytes = max_float_bytes
        self.size = 0
        self._allocate(dim)

    def _allocate(self, dim: int) -> None:
        """Empty arrays for vectors of ``dim`` floats (0: not known until the first row)."""
        self.dim = dim
        words = (dim + 63) // 64
        self._rowids = np.empty(0, np.int64)
        self._slot_of: dict[int, int] = {}  # rowid -> its slot in the arrays
        self._types = np.empty(0, np.uint8)
        # Word-major (one row per 64-bit word of every vector): the scan then runs over long
        # contiguous arrays, four times faster than summing 8 words per row.
        self._bits = np.empty((words, 0), np.uint64)
        self._int8 = np.empty((0, dim), np.int8)
        self._scale = np.empty(0, np.float32)
        self._norm = np.empty(0, np.float32)
        self._error = np.empty(0, np.float32)  # |int8 cosine - exact cosine| <= this
        # the exact stage's vectors (None: past max_float_bytes, not held)
        self._float: np.ndarray | None = np.empty((0, dim), np.float32)
        self._block_buffers: tuple[np.ndarray, np.ndarray] | None = None

    def __len__(self) -> int:
        return self.size

    def __contains__(self, rowid: object) -> bool:
        return rowid in self._slot_of

    def rowids(self) -> set[int]:
        return set(self._rowids[: self.size].tolist())

    def nbytes(self) -> int:
        return self._bits.nbytes + sum(array.nbytes for array in self._arrays())

    def add(self, rows: IndexRows) -> None:
        """Append rows (their rowids must not be in the index: :meth:`remove` them first)."""
        count = len(rows.rowids)
        if not count:
            return
        if self.dim != rows.vectors.shape[1]:
            if self.size:
                raise ValueError(f"vectors of {rows.vectors.shape[1]} floats, not {self.dim}")
            self._allocate(rows.vectors.shape[1])
        self.reserve(self.size + count)
        at = slice(self.size, self.size + count)
        vectors = np.asarray(rows.vectors, np.float32)
        peak = np.abs(vectors).max(axis=1)
        scale = np.where(peak > 0, peak / 127.0, 1.0).astype(np.float32)
        self._rowids[at] = rows.rowids
        self._slot_of.update(zip(rows.rowids.tolist(), range(at.start, at.stop), strict=True))
        self._types[at] = [_TYPE_CODES[kind] for kind in rows.types]
        self._bits[:, at] = sign_words(vectors).T
        scaled = vectors / scale[:, None]
        rounded = np.rint(scaled)
        norm = np.linalg.norm(vectors, axis=1)
        # v = scale * q8 + e, so |v.x - scale * q8.x| = |e.x| <= |e| |x|: over |v| |x|, the
        # int8 cosine is within |e| / |v| of the exact one, whatever the query x
        residual = np.linalg.norm(scaled - rounded, axis=1) * scale
        self._int8[at] = rounded.astype(np.int8)
        self._scale[at] = scale
        self._norm[at] = norm
        self._error[at] = residual / np.where(norm > 0, norm, 1.0) + _BOUND_SLACK
        if self._float is not None:
            self._float[at] = vectors
        self.size += count

    def remove(self, rowids: Sequence[int] | np.ndarray) -> None:
        """Drop these rowids (absent ones are ignored); the last rows fill the gaps."""
        if not len(rowids) or not self.size:
            return
        slots = (self._slot_of.pop(rowid, None) for rowid in np.asarray(rowids).tolist())
        gone = sorted((slot for slot in slots if slot is not None), reverse=True)
        for slot in gone:  # from the end: a moved row never lands on a slot still to go
            last = self.size - 1
            if slot != last:
                for array in self._arrays():
                    array[slot] = array[last]
                self._bits[:, slot] = self._bits[:, last]
                self._slot_of[int(self._rowids[slot])] = slot
            self.size = last

    def float_vectors(self, rowids: Sequence[int]) -> dict[int, np.ndarray]:
        """The float32 vectors of those of ``rowids`` held here."""
        slot_of, vectors = self._slot_of, self._float
        if vectors is None:
            return {}
        return {rowid: vectors[slot_of[rowid]] for rowid in rowids if rowid in slot_of}

    def search(
        self,
        query: np.ndarray,
        pool: int,
        keep: int,
        types: Sequence[str] | None,
        exclude: Sequence[int] = (),
        best: int | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """(rowids, approximate cosines) of up to ``keep`` rows, best first: the ``pool``
        nearest by Hamming distance of the sign bits, ranked by cosine on the int8 vectors.
        ``types`` limits the memory types; ``exclude`` leaves rowids out.

        ``best``: the caller keeps only the ``best`` nearest of these by exact cosine, so rows
        that cannot be among them are left out too: those whose cosine, raised by its error
        bound, stays below the ``best``-th highest cosine lowered by its bound. What the caller
        then finds is exactly what it would find among all ``keep`` rows (about half as many
        float32 vectors to read)."""
        slots, cosine = self._search(query, pool, keep, types, exclude, best)
        return self._rowids[slots], cosine

    def search_exact(
        self,
        query: np.ndarray,
        pool: int,
        keep: int,
        types: Sequence[str] | None,
        exclude: Sequence[int] = (),
        best: int | None = None,
    ) -> tuple[np.ndarray, np.ndarray | None]:
        """:meth:`search`'s rows for the exact stage: (rowids in ascending order, their float32
        vectors, which :func:`exact_nearest` ranks; None when they are not held)."""
        slots, _ = self._search(query, pool, keep, types, exclude, best)
        slots = slots[np.argsort(self._rowids[slots], kind="stable")]
        return self._rowids[slots], None if self._float is None else self._float[slots]

    def _search(
        self,
        query: np.ndarray,
        pool: int,
        keep: int,
        types: Sequence[str] | None,
        exclude: Sequence[int],
        best: int | None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """(slots, approximate cosines) of :meth:`search`'s rows."""
        n = self.size
        slots: np.ndarray | slice = slice(0, n)
        if types or len(exclude):
            live = np.ones(n, bool)
            if types:
                live &= np.isin(self._types[:n], [_TYPE_CODES[kind] for kind in types])
            if len(exclude):
                live &= ~np.isin(self._rowids[:n], np.asarray(exclude, np.int64))
            slots = np.flatnonzero(live)
        count = n if isinstance(slots, slice) else len(slots)
        if not count:
            return np.empty(0, np.intp), np.empty(0, np.float32)
        if count > pool:
            closest = self._closest(self._hamming(query, slots), pool)
            picked = closest if isinstance(slots, slice) else slots[closest]
        else:
            picked = np.arange(n) if isinstance(slots, slice) else slots
        norms = self._norm[picked] * float(np.linalg.norm(query))
        cosine = self._int8_products(query, picked) * self._scale[picked]
        cosine /= np.where(norms > 0, norms, 1.0)
        order = _first_by_value(cosine, keep)
        if best is not None and len(order) > best:
            error = self._error[picked[order]]
            floor = np.partition(cosine[order] - error, len(order) - best)[len(order) - best]
            order = order[cosine[order] + error >= floor]
        return picked[order], cosine[order]

    def _int8_products(self, query: np.ndarray, slots: np.ndarray) -> np.ndarray:
        """Each slot's int8 vector (as float32) times ``query``: the rows gathered and widened
        in blocks that stay in the CPU's cache (2,000 rows widened at once are 4 MB, written
        and read back through memory), into buffers kept between searches. Blocks of whole
        BLAS kernels, so each product is the one a single product over all rows gives."""
        count = len(slots)
        gathered, widened = self._buffers
        products = np.empty(count, np.float32)
        for start in range(0, count, _INT8_BLOCK):
            stop = min(count, start + _INT8_BLOCK)
            rows = gathered[: stop - start]
            np.take(self._int8, slots[start:stop], axis=0, out=rows)
            block = widened[: stop - start]
            block[...] = rows
            products[start:stop] = block @ query
        return products

    @property
    def _buffers(self) -> tuple[np.ndarray, np.ndarray]:
        """A block of gathered int8 rows and its float32 copy (made once per index and width).
        Shared by every search of this index: one search at a time, as the store searches
        under its index lock."""
        held = self._block_buffers
        if held is None or held[0].shape[1] != self.dim:
            held = self._block_buffers = (
                np.empty((_INT8_BLOCK, self.dim), np.int8),
                np.empty((_INT8_BLOCK, self.dim), np.float32),
            )
        return held

    @staticmethod
    def _closest(distance: np.ndarray, pool: int) -> np.ndarray:
        """Positions of the ``pool`` smallest distances, and those tied with the last (the
        smallest bar with ``pool`` distances at or below it: few possible distances, so a
        bar and a mask find them faster than a partial sort, unless the ties are many)."""
        within = _within_pool_bar(distance, pool)
        if np.count_nonzero(within) > 2 * pool:
            return np.argpartition(distance, pool - 1)[:pool]
        return np.flatnonzero(within)

    def _hamming(self, query: np.ndarray, slots: np.ndarray | slice) -> np.ndarray:
        """Hamming distance between the query's sign bits and each of these slots' bits."""
        words = sign_words(query.reshape(1, -1))[0]
        distance: np.ndarray | None = None
        for word, query_word in zip(self._bits, words, strict=True):
            counts = np.bitwise_count(word[slots] ^ query_word)
            distance = counts.astype(np.uint16) if distance is None else distance + counts
        assert distance is not None  # a vector has at least one word
        return distance

    def _arrays(self) -> tuple[np.ndarray, ...]:
        """The arrays with one row per slot (the bits are word-major, apart)."""
        held = (self._rowids, self._types, self._int8, self._scale, self._norm, self._error)
        return held if self._float is None else (*held, self._float)

    def reserve(self, needed: int, *, dim: int | None = None) -> None:
        """Room for ``needed`` rows (growing by a quarter at least, so appends stay cheap)."""
        if dim is not None and not self.size and dim != self.dim:
            self._allocate(dim)
        bound = self.max_float_bytes
        if self._float is not None and bound is not None and needed * self.dim * 4 > bound:
            self._float = None  # the memory goes back now, before the other arrays grow
        capacity = len(self._rowids)
        if needed <= capacity:
            return
        capacity = max(needed, int(capacity * _GROWTH) + 256)

        def grown(array: np.ndarray) -> np.ndarray:
            bigger = np.empty((capacity, *array.shape[1:]), array.dtype)
            bigger[: self.size] = array[: self.size]
            return bigger

        self._rowids, self._types, self._int8, self._scale, self._norm, self._error = (
            grown(array) for array in self._arrays()[:6]
        )
        if self._float is not None:
            self._float = grown(self._float)
        bits = np.empty((self._bits.shape[0], capacity), np.uint64)
        bits[:, : self.size] = self._bits[:, : self.size]
        self._bits = bits

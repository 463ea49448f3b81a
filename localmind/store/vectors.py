"""Vectors: each active memory's embedding in ``memory_vec`` and its nearest-neighbour search.

Vector search is two-stage. ``memory_vec`` holds each active memory's float32 embedding;
triggers keep ``memory_vec_bits`` in step with it (the sign bits, sqlite-vec's
``vec_quantize_binary``) and log each changed rowid in ``memory_vec_changes``. A process that
searches more than once holds the namespace's sign bits and an int8 copy of its vectors in
memory (:class:`localmind.sign_index.SignIndex`, ~2,650 bytes per memory, the float32 vectors
included), scans the bits with numpy, ranks the candidates on the int8 vectors and the best of
those exactly on their float32 vectors; it follows every writer through the change log (see
``_index_view``). The first searches of a process, and searches inside a transaction before
the index is built, run the same two stages in SQL (``nearest_through_sql``: ``ORDER BY``
Hamming distance ``LIMIT`` the pool, then exact cosine). sqlite-vec's own ``vec0`` KNN is
slower here: its cost grows with rows × k, and rescoring needs a large k.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import apsw
import numpy as np

from localmind import blas
from localmind.embedders.base import Vectors
from localmind.errors import EmbedderMismatch
from localmind.records import MemoryRecord
from localmind.sign_index import IndexRows, SignIndex, exact_nearest
from localmind.store.base import placeholders
from localmind.store.connection import DAMAGE_ERRORS, damaged
from localmind.store.meta import Meta
from localmind.store.migrations import VECTOR_LOG_TABLE, VECTOR_LOG_TRIGGERS

# Candidates the binary (Hamming) stage hands to exact rescoring: RESCORE_FACTOR per result
# asked for, at least MIN_RESCORE, and more in big stores (one per ROWS_PER_CANDIDATE rows, up to
# MAX_RESCORE): recall(limit=5) asks for 50, so 400 candidates up to 40k memories, 1000 from
# 100k. Recall@10 against exact search on USE vectors of synthetic memories: 0.989 at 10k
# (400), 0.966 at 100k (1000; 400 there would give 0.936).
RESCORE_FACTOR = 8
MIN_RESCORE = 400
ROWS_PER_CANDIDATE = 100
MAX_RESCORE = 1000

# The in-memory index (localmind.sign_index) ranks its Hamming candidates on int8 vectors, which
# costs far less than reading float vectors from SQLite, so it takes more of them (one per
# INDEX_ROWS_PER_CANDIDATE rows, up to INDEX_MAX_POOL); the best ``_exact_keep(k)`` of those are
# rescored exactly on their float32 vectors, or rather those of them whose int8 cosine's error
# bound lets them still be among the ``k`` best (about half: the same results, fewer reads).
INDEX_ROWS_PER_CANDIDATE = 50
INDEX_MAX_POOL = 2000
# The in-memory index holds the float32 vectors too (the exact stage then reads nothing from the
# store) while they take at most this much: 64 MiB, 32,768 memories of 512 floats. Beyond, a
# 100k store's search process would pass the peak RSS bound (docs/design.md, round 5).
FLOAT_COPY_MAX_BYTES = 64 << 20
# Rows read per statement when the index is (re)built: its float32 temporaries (~10 MB) are
# what the build adds to the peak memory besides the index itself.
INDEX_LOAD_CHUNK = 1024
# Room the index is built with for later writes, as a share of its rows: growing copies the
# arrays (old and new at once), a peak this spares the next writes.
INDEX_ROOM = 0.125
# Searches answered through SQL before the index is built: building it reads every vector of
# the namespace (~0.1 s per 10k memories), which a one-shot command (``localmind recall``,
# ``add``: one or two searches) would pay for nothing; a long-lived process (the MCP server, the
# app, a script's loop) gets it from its third search on.
INDEX_AFTER_SEARCHES = 2


def _pool(k: int, rows: int) -> int:
    return max(k * RESCORE_FACTOR, MIN_RESCORE, min(rows // ROWS_PER_CANDIDATE, MAX_RESCORE))


def _index_pool(k: int, rows: int) -> int:
    return max(
        k * RESCORE_FACTOR, MIN_RESCORE, min(rows // INDEX_ROWS_PER_CANDIDATE, INDEX_MAX_POOL)
    )


def _exact_keep(k: int) -> int:
    """How many of the int8-ranked candidates get their exact cosine: a margin over ``k`` so
    that the int8 rounding (about 1e-3 in cosine) cannot push a true top-``k`` memory out."""
    return 2 * k + 20


def _wanted(kind: str, types: Sequence[str] | None) -> bool:
    return not types or kind in types


def _ranked(query: np.ndarray, rows: list[tuple[int, bytes]], k: int) -> list[tuple[int, float]]:
    """:func:`exact_nearest` over (rowid, float32 blob) rows as ``memory_vec`` holds them."""
    rowids = np.fromiter((rowid for rowid, _ in rows), dtype=np.int64, count=len(rows))
    vectors = np.frombuffer(b"".join(bytes(blob) for _, blob in rows), np.float32)
    return exact_nearest(query, rowids, vectors.reshape(len(rows), len(query)), k)


@dataclass(slots=True)
class _IndexState:
    """Where the in-memory index stands: the newest change it has taken in (``seq`` of
    ``memory_vec_changes``), the data and schema versions and this connection's changes to
    that log (``index_log_changes``) when it last looked, and rowids to read again (removed
    while a transaction was open)."""

    seen: int = 0
    data_version: int = -1
    schema_version: int = -1
    changes: tuple[int, ...] = ()
    recheck: set[int] = field(default_factory=set)
    searches_before: int = 0  # searches answered through SQL before the index was built
    # Inside ``SqliteStore.all_or_nothing``: the index takes in the transaction's own writes as
    # if committed (a long import searches among its earlier items without rereading them all
    # at each search), and is dropped, to be built again, if the transaction rolls back.
    follows_uncommitted: bool = False


def read_change_log(db: Any, seen: int) -> tuple[set[int], int] | None:
    """The rowids ``memory_vec_changes`` logged after change number ``seen``, and the newest
    change's number; None when the log no longer reaches back that far."""
    log: list[tuple[Any, ...]] = db.execute(
        "SELECT seq, vec_rowid FROM memory_vec_changes WHERE seq > ? ORDER BY seq", (seen,)
    ).fetchall()
    if log and log[0][0] != seen + 1:
        return None
    return {int(rowid) for _, rowid in log}, int(log[-1][0]) if log else seen


def _blob(vector: Vectors) -> bytes:
    return np.asarray(vector, np.float32).tobytes()


class VectorIndex(Meta):
    vector_identity: str | None
    _sign_index: SignIndex | None
    _index_state: _IndexState
    _index_lock: threading.Lock

    def _index_vector(self, rowid: int, record: MemoryRecord, vector: Vectors) -> None:
        self.check_vector_identity()  # inside the write transaction: the meta cannot move now
        self.db.execute(
            "INSERT INTO memory_vec (rowid, namespace, type, embedding) VALUES (?, ?, ?, ?)",
            (rowid, record.namespace, str(record.type), _blob(vector)),
        )

    def put_vectors(self, rows: Iterable[tuple[int, MemoryRecord, Vectors]]) -> None:
        """Write the vectors of many memories at once, ``(rowid, record, vector)`` each (a
        re-index fills the new table with them)."""
        self.db.executemany(
            "INSERT INTO memory_vec (rowid, namespace, type, embedding) VALUES (?, ?, ?, ?)",
            [
                (rowid, record.namespace, str(record.type), _blob(vector))
                for rowid, record, vector in rows
            ],
        )

    def _unindex_vector(self, rowid: int) -> None:
        self.db.execute("DELETE FROM memory_vec WHERE rowid = ?", (rowid,))
        with self._index_lock:
            if self._sign_index is not None:
                # Out of memory at once (a forgotten memory's vector must not linger), and read
                # again at the next search: the transaction may still roll back.
                self._sign_index.remove([rowid])
                self._index_state.recheck.add(rowid)

    def _retype_vector(self, rowid: int, record: MemoryRecord) -> None:
        self.db.execute("UPDATE memory_vec SET type = ? WHERE rowid = ?", (str(record.type), rowid))

    def check_vector_identity(self) -> None:
        """Refuse to write or search vectors of another model than the store's: another program
        may have re-indexed the store with a new model since this one opened it."""
        stored = self.get_meta("embedder")
        if self.vector_identity is not None and stored != self.vector_identity:
            raise EmbedderMismatch(
                f"This store was re-indexed with {stored} by another program since it was opened "
                f"here with {self.vector_identity}. Nothing was changed: close and open it again."
            )

    def create_vector_table(self, dim: int) -> None:
        """(Re)create ``memory_vec`` for vectors of ``dim`` floats, with its binary index
        ``memory_vec_bits`` kept in step by triggers; any old vectors are dropped."""
        dim = int(dim)
        self.db.execute("DROP TABLE IF EXISTS memory_vec")  # its triggers go with it
        self.db.execute("DROP TABLE IF EXISTS memory_vec_bits")
        self._sign_index = None
        self.db.execute(
            f"""
            CREATE TABLE memory_vec (
                rowid     INTEGER PRIMARY KEY,  -- memories.rowid
                namespace TEXT NOT NULL,
                type      TEXT NOT NULL,
                embedding BLOB NOT NULL CHECK (length(embedding) = {dim * 4})  -- float32[{dim}]
            );
            -- Sign bits of each embedding: the candidate stage of nearest(). Narrow rows, so the
            -- scan reads {dim // 8} bytes per memory, not {dim * 4}.
            CREATE TABLE memory_vec_bits (
                rowid     INTEGER PRIMARY KEY,
                namespace TEXT NOT NULL,
                type      TEXT NOT NULL,
                bits      BLOB NOT NULL
            );
            CREATE TRIGGER memory_vec_insert AFTER INSERT ON memory_vec BEGIN
                INSERT INTO memory_vec_bits (rowid, namespace, type, bits)
                VALUES (new.rowid, new.namespace, new.type, vec_quantize_binary(new.embedding));
            END;
            CREATE TRIGGER memory_vec_delete AFTER DELETE ON memory_vec BEGIN
                DELETE FROM memory_vec_bits WHERE rowid = old.rowid;
            END;
            CREATE TRIGGER memory_vec_update AFTER UPDATE ON memory_vec BEGIN
                UPDATE memory_vec_bits SET rowid = new.rowid, namespace = new.namespace,
                    type = new.type, bits = vec_quantize_binary(new.embedding)
                WHERE rowid = old.rowid;
            END;
            """
        )
        self.db.execute(VECTOR_LOG_TABLE)
        self.db.execute(VECTOR_LOG_TRIGGERS)

    def cached_vector(self, content_hash: str) -> bytes | None:
        """The stored vector of any active memory with this exact content (the embedding cache)."""
        row = self.db.execute(
            "SELECT v.embedding FROM memories m JOIN memory_vec v ON v.rowid = m.rowid "
            "WHERE m.content_hash = ? AND m.status = 'active' LIMIT 1",
            (content_hash,),
        ).fetchone()
        return row[0] if row else None

    def vectors_for(self, rowids: Sequence[int]) -> dict[int, bytes]:
        """The stored float32 vectors of these rowids (those the in-memory index holds from
        there, once it is built and up to date)."""
        if not rowids:
            return {}
        found: dict[int, bytes] = {}
        with self._index_lock:
            index = self._sign_index
            view = self._index_view(index.namespace) if index is not None else None
            if view is not None:
                index, overlay = view
                held = index.float_vectors([rowid for rowid in rowids if rowid not in overlay])
                found = {rowid: vector.tobytes() for rowid, vector in held.items()}
        rest = [rowid for rowid in rowids if rowid not in found]
        if rest:
            read, vectors = self._stored_vectors(rest)
            found.update(zip(read.tolist(), (vector.tobytes() for vector in vectors), strict=True))
        return found

    def _stored_vectors(self, rowids: Iterable[int]) -> tuple[np.ndarray, np.ndarray]:
        """(rowids in ascending order, their float32 vectors) of those of ``rowids`` in
        ``memory_vec`` (rows no longer there are left out, as a ``SELECT … IN`` leaves them).

        Read through one blob handle moved from row to row (``sqlite3_blob_reopen``) straight
        into the array: ~0.6× the CPU of one ``SELECT rowid, embedding … WHERE rowid IN (…)``
        and its rows made into bytes and joined (~78 rows per search at 100k memories, where
        the float copy is not held). The handle is closed before returning: an open one would
        hold the connection's read transaction."""
        wanted = sorted(set(rowids))
        read: list[int] = []
        vectors: np.ndarray | None = None
        handle: Any = None
        try:
            for rowid in wanted:
                try:
                    if handle is None:
                        handle = self.db.blob_open("main", "memory_vec", "embedding", rowid, False)
                    else:
                        handle.reopen(rowid)
                except apsw.SQLError:  # no such row any more (apsw closes a handle that failed)
                    handle = None
                    continue
                if vectors is None:
                    vectors = np.empty((len(wanted), handle.length() // 4), np.float32)
                handle.read_into(vectors[len(read)])
                read.append(rowid)
        except DAMAGE_ERRORS as error:
            raise damaged(self.db.filename) from error
        finally:
            if handle is not None:
                handle.close()
        if vectors is None:
            return np.empty(0, np.int64), np.empty((0, 0), np.float32)
        return np.array(read, np.int64), vectors[: len(read)]

    def nearest(
        self, vector: Vectors, k: int, namespace: str, types: Sequence[str] | None
    ) -> list[tuple[int, float]]:
        """(rowid, cosine distance) of the ``k`` nearest active memories, nearest first.

        Searched in memory (:class:`SignIndex`: Hamming candidates ranked on int8 vectors, the
        best rescored exactly on their float32 vectors), kept in step with every write; inside a
        transaction that the index cannot follow yet, through SQL (:meth:`nearest_through_sql`).
        """
        if k <= 0:
            return []
        self.check_vector_identity()
        query = np.asarray(vector, dtype=np.float32).reshape(-1)
        # one block for both stages: setting the limit costs more than the exact stage's product
        with blas.one_thread():
            with self._index_lock:
                view = self._index_view(namespace)
                if view is not None:
                    index, overlay = view
                    rowids, vectors = index.search_exact(
                        query,
                        _index_pool(k, len(index)),
                        _exact_keep(k),
                        types,
                        list(overlay),
                        best=k,
                    )
            if view is None:
                return self.nearest_through_sql(query, k, namespace, types)
            # Rows this transaction (or one the index has not read yet) changed: their state now.
            fresh = [r for r, kind in overlay.items() if kind is not None and _wanted(kind, types)]
            if fresh or vectors is None:
                return self._rescored(query, [*rowids.tolist(), *fresh], k)
            return exact_nearest(query, rowids, vectors, k)

    def nearest_through_sql(
        self, vector: Vectors, k: int, namespace: str, types: Sequence[str] | None
    ) -> list[tuple[int, float]]:
        """:meth:`nearest` without the in-memory index: the Hamming scan over
        ``memory_vec_bits`` picks the candidates (see ``_pool``); exact cosine on their float
        vectors ranks them. A namespace with no more memories than the pool is therefore
        searched exactly."""
        if k <= 0:
            return []
        query = np.asarray(vector, dtype=np.float32).reshape(-1)
        # max(rowid): an upper bound of the row count, without counting.
        top = self.db.execute("SELECT max(rowid) FROM memory_vec_bits").fetchone()
        rows = int(top[0]) if top and top[0] is not None else 0
        scope = "namespace = ?"
        params: list[Any] = [namespace]
        if types:
            scope += f" AND type IN ({placeholders(types)})"
            params.extend(types)
        params += [np.packbits(query > 0, bitorder="little").tobytes(), _pool(k, rows)]
        found: list[tuple[Any, ...]] = self.db.execute(
            "SELECT v.rowid, v.embedding FROM ("
            f"SELECT rowid FROM memory_vec_bits WHERE {scope} "
            "ORDER BY vec_distance_hamming(vec_bit(bits), vec_bit(?)) LIMIT ?"
            ") AS c JOIN memory_vec AS v ON v.rowid = c.rowid",
            params,
        ).fetchall()
        return _ranked(query, [(int(rowid), blob) for rowid, blob in found], k)

    def _rescored(self, query: np.ndarray, rowids: list[int], k: int) -> list[tuple[int, float]]:
        """The ``k`` of ``rowids`` nearest ``query`` by exact cosine on their float32 vectors."""
        if not rowids:
            return []
        read, vectors = self._stored_vectors(rowids)
        return exact_nearest(query, read, vectors, k)

    @property
    def memory_index(self) -> SignIndex | None:
        """The in-memory vector index as it stands (None until built; see ``nearest``)."""
        return self._sign_index

    def _index_view(self, namespace: str) -> tuple[SignIndex, dict[int, str | None]] | None:
        """The in-memory index of ``namespace``, brought up to date, with the rows it cannot
        take in yet: {rowid: its type now, or None when it left ``memory_vec``}.

        Changes come from ``memory_vec_changes`` (filled by triggers, so every writer's changes
        are there). ``PRAGMA data_version`` (other connections' commits) and this connection's
        changes to the log (``index_log_changes``) say when to look. Inside a transaction what
        is read may still roll back: it is only overlaid on the index, never folded in (except
        in ``all_or_nothing``, which drops the index if it rolls back). None: use SQL (the index
        is not built yet: see INDEX_AFTER_SEARCHES, and never inside a transaction)."""
        db, state = self.db, self._index_state
        in_transaction = db.in_transaction and not state.follows_uncommitted
        data_version = self.scalar("PRAGMA data_version")
        changes = self.index_log_changes()
        index = self._sign_index
        if (
            index is not None
            and data_version != state.data_version
            and self.scalar("PRAGMA schema_version") != state.schema_version
        ):
            index = None  # re-indexed elsewhere: memory_vec is a new table
        if index is None or index.namespace != namespace:
            if in_transaction or state.searches_before < INDEX_AFTER_SEARCHES:
                state.searches_before += 1
                return None
            index = self._load_index(namespace)
        if (data_version, changes) == (state.data_version, state.changes) and not state.recheck:
            return index, {}
        log = read_change_log(db, state.seen)
        if log is None:  # the log no longer reaches back that far
            if in_transaction:
                return None
            index = self._load_index(namespace)
            return index, {}
        changed = sorted(log[0] | state.recheck)
        now = self._vector_rows(namespace, changed)
        if in_transaction:
            overlay: dict[int, str | None] = dict.fromkeys(changed)
            overlay.update((rowid, kind) for rowid, kind, _ in now)
            return index, overlay
        index.remove(changed)
        index.add(IndexRows.from_blobs(now))
        state.recheck.clear()
        state.seen = log[1]
        state.data_version, state.changes = data_version, changes
        return index, {}

    def _vector_rows(self, namespace: str, rowids: Sequence[int]) -> list[Any]:
        """(rowid, type, embedding) of those of ``rowids`` in ``namespace``'s vectors now."""
        rows: list[Any] = []
        for start in range(0, len(rowids), INDEX_LOAD_CHUNK):
            chunk = list(rowids[start : start + INDEX_LOAD_CHUNK])
            rows += self.db.execute(
                "SELECT rowid, type, embedding FROM memory_vec "
                f"WHERE namespace = ? AND rowid IN ({placeholders(chunk)})",
                [namespace, *chunk],
            ).fetchall()
        return rows

    def _load_index(self, namespace: str) -> SignIndex:
        """Build the index of ``namespace`` from ``memory_vec``, in chunks of rows. The change
        log's position is read first: what changes during the load is read again after it."""
        db, state = self.db, self._index_state
        state.data_version = self.scalar("PRAGMA data_version")
        state.changes = self.index_log_changes()
        state.schema_version = self.scalar("PRAGMA schema_version")
        state.seen = self.scalar("SELECT coalesce(max(seq), 0) FROM memory_vec_changes")
        state.recheck.clear()
        self._sign_index = None  # the old one's memory goes before the new one's is taken
        # The narrow bits table counts without reading the float vectors.
        count = self.scalar("SELECT count(*) FROM memory_vec_bits WHERE namespace = ?", [namespace])
        width = db.execute("SELECT length(embedding) FROM memory_vec LIMIT 1").fetchone()
        index = SignIndex(namespace, max_float_bytes=FLOAT_COPY_MAX_BYTES)
        room = count + int(count * INDEX_ROOM) + 256
        index.reserve(room, dim=int(width[0]) // 4 if width else 0)
        last = -1
        while True:
            rows: list[Any] = db.execute(
                "SELECT rowid, type, embedding FROM memory_vec "
                "WHERE namespace = ? AND rowid > ? ORDER BY rowid LIMIT ?",
                (namespace, last, INDEX_LOAD_CHUNK),
            ).fetchall()
            if not rows:
                break
            index.add(IndexRows.from_blobs(rows))
            last = int(rows[-1][0])
            # Every float vector passes through the page cache once here; the int8 copy
            # replaces them, so the cache gives their pages back instead of growing to its
            # ceiling (searches re-read only the few they rescore).
            db.execute("PRAGMA shrink_memory")
        self._sign_index = index
        return index

"""The SQLite store: memory rows with their vector and keyword (FTS5) index entries kept in step
inside one transaction, the version history, and the append-only events log.

Only *active* memories are indexed: a memory that is superseded, expired or deleted leaves
``memory_vec`` and ``memory_fts`` in the same transaction as its status change.

Vector search is two-stage. ``memory_vec`` holds each active memory's float32 embedding;
triggers keep ``memory_vec_bits`` in step with it (the sign bits, sqlite-vec's
``vec_quantize_binary``) and log each changed rowid in ``memory_vec_changes``. A process that
searches more than once holds the namespace's sign bits and an int8 copy of its vectors in
memory (:class:`localmind.sign_index.SignIndex`, ~600 bytes per memory), scans the bits with
numpy, ranks the candidates on the int8 vectors and the best of those exactly on their float32
vectors; it follows every writer through the change log (see ``_index_view``). The first
searches of a process, and searches inside a transaction before the index is built, run the
same two stages in SQL (``nearest_through_sql``: ``ORDER BY`` Hamming distance ``LIMIT`` the
pool, then exact cosine). sqlite-vec's own ``vec0`` KNN is slower here: its cost grows with
rows × k, and rescoring needs a large k.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import apsw
import numpy as np

from localmind.db import BUSY_TIMEOUT_MS
from localmind.embedders.base import Vectors
from localmind.errors import EmbedderMismatch
from localmind.fts_terms import index_text, query_terms
from localmind.hlc import HybridLogicalClock, Stamp
from localmind.migrations import VECTOR_LOG_TABLE, VECTOR_LOG_TRIGGERS
from localmind.records import (
    MemoryRecord,
    MemoryType,
    Status,
    restatements,
    searchable_text,
)
from localmind.sign_index import IndexRows, SignIndex

if TYPE_CHECKING:
    from localmind.records import Version

_COLUMNS = (
    "rowid, id, namespace, content, type, metadata, importance, confidence, access_count, "
    "created_at, updated_at, last_accessed, expires_at, version, status, pinned, content_hash, hlc"
)

_INSERT_PLACEHOLDERS = ", ".join("?" * (len(_COLUMNS.split(",")) - 1))

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
# rescored exactly on their float32 vectors.
INDEX_ROWS_PER_CANDIDATE = 50
INDEX_MAX_POOL = 2000
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

# Fields that update() may change directly; content goes through replace_content().
_UPDATABLE = frozenset(
    {"type", "metadata", "importance", "confidence", "expires_at", "pinned", "status"}
)


@dataclass(frozen=True, slots=True)
class StoredMemory:
    rowid: int
    record: MemoryRecord


# Recall reads ~70 rows per query: the enum constructor and json.loads of "{}" were a third of
# that, so known values are looked up (an unknown one still fails in the enum's constructor).
_TYPES = {str(t.value): t for t in MemoryType}
_STATUSES = {str(s.value): s for s in Status}


def _record(row: Sequence[Any]) -> StoredMemory:
    return StoredMemory(
        rowid=row[0],
        record=MemoryRecord(
            id=row[1],
            namespace=row[2],
            content=row[3],
            type=_TYPES.get(row[4]) or MemoryType(row[4]),
            metadata={} if row[5] == "{}" else json.loads(row[5]),
            importance=row[6],
            confidence=row[7],
            access_count=row[8],
            created_at=row[9],
            updated_at=row[10],
            last_accessed=row[11],
            expires_at=row[12],
            version=row[13],
            status=_STATUSES.get(row[14]) or Status(row[14]),
            pinned=bool(row[15]),
            content_hash=row[16],
            hlc=row[17],
        ),
    )


CHECKPOINT_WAIT_MS = 1000

#: Event op on a memory that a newer one may replace (payload ``{"later": id}``): a local note,
#: like conflicts; recall ranks the newer one first. On the earlier memory, so that recall looks
#: up only its top results.
LATER_VERSION = "later_version"

#: ``meta`` key counting the forgets this store has redacted (local or received): the sync
#: folder re-seals its files when it moved.
REDACTIONS = "redactions"

# Reasons that say only what kind of change it was. After a forget, an event's or a conflict's
# reason is cut to its kind (the text before ":" or "(") when the kind is one of these, and
# dropped otherwise: reasons may hold memory text (older merge notes did; an LLM's reason may
# quote either memory; a library caller may pass anything).
_REASON_KINDS = frozenset(
    {
        "update",
        "correct",
        "revert",
        "merge",
        "take_new",
        "overwrite",
        "confirm",
        "deny",
        "restated",
        "contradicted by a new memory",
        "may contradict the older memory; no LLM to check",
        "same content remembered again",
        "evicted",
        "archived",
        "confidence decay",
        "expired",
        "implicit",
        "undo forget",
    }
)
_REASON_KIND = re.compile(r"^([^:(]*?)\s*([:(]|$)")


def redacted_reason(reason: str | None) -> str | None:
    """What a forgotten memory's event or conflict may keep of its reason: the kind of change
    ("evicted:", "restated"), never anything quoted after it."""
    if reason is None:
        return None
    match = _REASON_KIND.match(reason)
    kind = match.group(1) if match else ""
    if kind not in _REASON_KINDS:
        return "redacted"
    return kind + (":" if match and match.group(2) == ":" else "")


# Shorter Latin words ("gym", "the") say too little to mark a quote of a forgotten text.
_QUOTE_MIN_LETTERS = 4


def _distinctive_words(texts: Sequence[str]) -> list[str]:
    """The words of ``texts`` that can show a reason quotes them: words of four letters or
    more and CJK bigrams, lower-cased as SQLite's ``lower`` does (ASCII letters only)."""
    words: list[str] = []
    for text in texts:
        for term in query_terms(text):
            if len(term) >= (2 if _CJK_TERM.match(term) else _QUOTE_MIN_LETTERS):
                words.append(term)
    return list(dict.fromkeys(words))


_CJK_TERM = re.compile(r"^[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]")


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


def _placeholders(values: Sequence[Any]) -> str:
    return ", ".join("?" * len(values))


def newest_change(db: apsw.Connection) -> int:
    """The number of the newest change in the store's event log (0 when it has none). Events
    are only ever appended, so it only grows: an older copy of the store has a lower one."""
    newest = db.execute("SELECT coalesce(max(seq), 0) FROM events").fetchall()[0][0]
    assert isinstance(newest, int)  # an INTEGER PRIMARY KEY
    return newest


def checkpoint(db: apsw.Connection) -> None:
    """Copy what the write-ahead log holds into the database file as far as readers allow,
    syncing the log first: the changes are on disk, not only in the page cache."""
    db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()


def _wanted(kind: str, types: Sequence[str] | None) -> bool:
    return not types or kind in types


def _ranked(query: np.ndarray, rows: list[tuple[int, bytes]], k: int) -> list[tuple[int, float]]:
    """(rowid, cosine distance) of the ``k`` of ``rows`` nearest ``query`` by exact cosine on
    their float32 vectors; equal distances in rowid order (the same whichever path found them)."""
    if not rows:
        return []
    rowids = np.fromiter((rowid for rowid, _ in rows), dtype=np.int64, count=len(rows))
    matrix = np.frombuffer(b"".join(bytes(blob) for _, blob in rows), dtype=np.float32)
    matrix = matrix.reshape(len(rows), -1)
    norms = np.linalg.norm(matrix, axis=1) * float(np.linalg.norm(query))
    similarity = (matrix @ query) / np.where(norms > 0, norms, 1.0)
    best = np.lexsort((rowids, -similarity))[:k]
    return [(int(rowids[i]), float(1.0 - similarity[i])) for i in best]


@dataclass(slots=True)
class _IndexState:
    """Where the in-memory index stands: the newest change it has taken in (``seq`` of
    ``memory_vec_changes``), the data and schema versions and this connection's change count
    when it last looked, and rowids to read again (removed while a transaction was open)."""

    seen: int = 0
    data_version: int = -1
    schema_version: int = -1
    changes: int = -1
    recheck: set[int] = field(default_factory=set)
    searches_before: int = 0  # searches answered through SQL before the index was built


class SqliteStore:
    def __init__(
        self,
        db: apsw.Connection,
        hlc: HybridLogicalClock,
        device_id: str,
        clock: Callable[[], float],
    ) -> None:
        self.db = db
        self._hlc = hlc
        self._clock = clock
        self.device_id = device_id
        # The model this process embeds with; None until the store is known to be indexed with
        # it (and then vectors are neither written nor searched).
        self.vector_identity: str | None = None
        self._tokenizer: apsw.FTS5Tokenizer | None = None
        self._vocabulary = False
        self._sign_index: SignIndex | None = None
        self._index_state = _IndexState()
        # The app searches from worker threads while its main thread may write: the arrays
        # change under one thread at a time.
        self._index_lock = threading.Lock()

    # --- meta ---------------------------------------------------------------------------------

    def get_meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        self.db.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    def delete_meta_prefixed(self, prefix: str) -> None:
        self.db.execute("DELETE FROM meta WHERE substr(key, 1, ?) = ?", (len(prefix), prefix))

    def newest_own_event_time(self) -> float | None:
        """The wall-clock time of this device's newest event (None when it has none)."""
        row = self.db.execute(
            "SELECT max(at) FROM events WHERE device_id = ?", (self.device_id,)
        ).fetchone()
        return float(row[0]) if row and row[0] is not None else None

    def latest_event_seq(self) -> int:
        return self.scalar("SELECT coalesce(max(seq), 0) FROM events")

    def data_version(self) -> int:
        """SQLite's count that changes when another connection commits to the file (never
        for this connection's own writes): one cheap pragma, no table read."""
        return self.scalar("PRAGMA data_version")

    def check_vector_identity(self) -> None:
        """Refuse to write or search vectors of another model than the store's: another program
        may have re-indexed the store with a new model since this one opened it."""
        stored = self.get_meta("embedder")
        if self.vector_identity is not None and stored != self.vector_identity:
            raise EmbedderMismatch(
                f"This store was re-indexed with {stored} by another program since it was opened "
                f"here with {self.vector_identity}. Nothing was changed: close and open it again."
            )

    # --- the vector table ---------------------------------------------------------------------

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

    # --- writes -------------------------------------------------------------------------------

    def stamp(self) -> str:
        """A new stamp, later than every event in the store. Call it in the write transaction:
        other processes with this store open share its device id, so each must move past the
        stamps the others wrote, or two events could get the same stamp (and another device
        would skip the second as already applied)."""
        newest = self.db.execute("SELECT max(hlc) FROM events").fetchone()
        if newest and newest[0]:
            self._hlc.observe(Stamp.parse(newest[0]))
        return str(self._hlc.now())

    def observe(self, stamp: str) -> None:
        """Move this device's clock past a stamp received from another device."""
        self._hlc.observe(Stamp.parse(stamp))

    def insert(self, record: MemoryRecord, vector: Vectors) -> int:
        record.hlc = self.stamp()
        self.db.execute(
            f"INSERT INTO memories ({_COLUMNS}) VALUES (NULL, {_INSERT_PLACEHOLDERS})",
            (
                record.id,
                record.namespace,
                record.content,
                str(record.type),
                json.dumps(record.metadata, ensure_ascii=False),
                record.importance,
                record.confidence,
                record.access_count,
                record.created_at,
                record.updated_at,
                record.last_accessed,
                record.expires_at,
                record.version,
                str(record.status),
                int(record.pinned),
                record.content_hash,
                record.hlc,
            ),
        )
        rowid = self.db.last_insert_rowid()
        if record.status is Status.ACTIVE:
            self._index(rowid, record, vector)
        self.record_event(record.namespace, record.id, "add", record.to_dict(), stamp=record.hlc)
        return rowid

    def _index(self, rowid: int, record: MemoryRecord, vector: Vectors) -> None:
        self.check_vector_identity()  # inside the write transaction: the meta cannot move now
        self.db.execute(
            "INSERT INTO memory_vec (rowid, namespace, type, embedding) VALUES (?, ?, ?, ?)",
            (rowid, record.namespace, str(record.type), np.asarray(vector, np.float32).tobytes()),
        )
        self._index_words(rowid, record)

    def _index_words(self, rowid: int, record: MemoryRecord) -> None:
        self.db.execute(
            "INSERT INTO memory_fts (rowid, text) VALUES (?, ?)",
            (rowid, index_text(searchable_text(record))),
        )

    def _unindex(self, rowid: int) -> None:
        self.db.execute("DELETE FROM memory_vec WHERE rowid = ?", (rowid,))
        self.db.execute("DELETE FROM memory_fts WHERE rowid = ?", (rowid,))
        with self._index_lock:
            if self._sign_index is not None:
                # Out of memory at once (a forgotten memory's vector must not linger), and read
                # again at the next search: the transaction may still roll back.
                self._sign_index.remove([rowid])
                self._index_state.recheck.add(rowid)

    def update_fields(self, stored: StoredMemory, reason: str, **fields: Any) -> MemoryRecord:
        """Change plain fields of a memory (not its content); keeps the indexes in step with its
        status and type, and logs the change."""
        unknown = set(fields) - _UPDATABLE - {"updated_at", "access_count", "last_accessed"}
        if unknown:
            raise ValueError(f"cannot update {sorted(unknown)}")
        record = stored.record
        was_active = record.status is Status.ACTIVE
        for name, value in fields.items():
            setattr(record, name, value)
        record.hlc = self.stamp()
        assignments = ", ".join(f"{name} = ?" for name in fields)
        values = [self._to_column(name, value) for name, value in fields.items()]
        self.db.execute(
            f"UPDATE memories SET {assignments}, hlc = ? WHERE rowid = ?",
            (*values, record.hlc, stored.rowid),
        )
        now_active = record.status is Status.ACTIVE
        if was_active and not now_active:
            self._unindex(stored.rowid)
        elif was_active and "metadata" in fields:
            # a merge adds its restatement to the words the memory is found by
            self.db.execute("DELETE FROM memory_fts WHERE rowid = ?", (stored.rowid,))
            self._index_words(stored.rowid, record)
        elif now_active and "type" in fields:
            self.db.execute(
                "UPDATE memory_vec SET type = ? WHERE rowid = ?", (str(record.type), stored.rowid)
            )
        payload = {name: self._to_column(name, value) for name, value in fields.items()}
        self.record_event(record.namespace, record.id, "update", payload, reason, record.hlc)
        return record

    @staticmethod
    def _to_column(name: str, value: Any) -> Any:
        if name == "metadata":
            return json.dumps(value, ensure_ascii=False)
        if name == "pinned":
            return int(value)
        if name in ("type", "status"):
            return str(value)
        return value

    def reactivate(self, stored: StoredMemory, vector: Vectors) -> None:
        """Put a memory that was not active back into the indexes (its status already active)."""
        self._index(stored.rowid, stored.record, vector)

    def replace_content(
        self,
        stored: StoredMemory,
        content: str,
        content_hash: str,
        vector: Vectors,
        reason: str,
        at: float,
    ) -> MemoryRecord:
        """A new version: the old content goes to ``memory_versions``, the row and its index
        entries take the new content."""
        record = stored.record
        self.db.execute(
            "INSERT INTO memory_versions (memory_id, version, content, reason, at) "
            "VALUES (?, ?, ?, ?, ?)",
            (record.id, record.version, record.content, reason, at),
        )
        record.content, record.content_hash = content, content_hash
        record.version += 1
        record.updated_at = at
        record.hlc = self.stamp()
        self.db.execute(
            "UPDATE memories SET content = ?, content_hash = ?, version = ?, updated_at = ?, "
            "hlc = ? WHERE rowid = ?",
            (content, content_hash, record.version, at, record.hlc, stored.rowid),
        )
        if record.status is Status.ACTIVE:
            self._unindex(stored.rowid)
            self._index(stored.rowid, record, vector)
        self.record_event(
            record.namespace,
            record.id,
            "update",
            {"content": content, "version": record.version},
            reason,
            record.hlc,
        )
        return record

    def add_version(self, memory_id: str, version: Version) -> None:
        """An earlier version, as restored from an export."""
        self.db.execute(
            "INSERT INTO memory_versions (memory_id, version, content, reason, at) "
            "VALUES (?, ?, ?, ?, ?)",
            (memory_id, version.version, version.content, version.reason, version.replaced_at),
        )

    def erase(self, stored: StoredMemory, at: float) -> None:
        """Forget: the row stays as a tombstone (status deleted, content and history gone) so the
        deletion can replicate; the indexes lose it at once, and every trace of its text goes
        (:meth:`redact_traces`; secure_delete zeroes the freed bytes)."""
        record = stored.record
        if record.status is Status.ACTIVE:
            self._unindex(stored.rowid)
        record.hlc = self.stamp()
        self.redact_traces(
            record.namespace, record.id, [record.content, *restatements(record.metadata)]
        )
        self.db.execute(
            "UPDATE memories SET status = 'deleted', content = '', metadata = '{}', "
            "content_hash = '', updated_at = ?, hlc = ? WHERE rowid = ?",
            (at, record.hlc, stored.rowid),
        )
        # The tombstone travels whole: a device that never saw the memory (or whose copy of its
        # events was redacted) builds the same tombstone from this payload (localmind.replica).
        tombstone = {
            "type": str(record.type),
            "importance": record.importance,
            "confidence": record.confidence,
            "created_at": record.created_at,
            "updated_at": at,
            "expires_at": record.expires_at,
            "version": record.version,
            "pinned": record.pinned,
        }
        self.record_event(record.namespace, record.id, "forget", tombstone, None, record.hlc)

    def redact_traces(self, namespace: str, memory_id: str, texts: Sequence[str] = ()) -> None:
        """Everything but the tombstone that may hold a forgotten memory's text: its version
        history, the payloads and reasons of its events (a merge's note held the restatement;
        an LLM's reason may quote either memory), the reasons of conflicts that involve it and
        of their events, and every profile version that was built from it or quotes it (and
        the later ones, which may have been built from those). ``texts``: the memory's last
        text. Call it inside the forget's transaction; :meth:`purge_forgotten` follows."""
        texts = [t for t in texts if t] + [t for _, t, _, _ in self.versions(memory_id) if t]
        texts += self._merged_restatements(memory_id)
        self.db.execute("DELETE FROM memory_versions WHERE memory_id = ?", (memory_id,))
        rows: list[tuple[Any, ...]] = self.db.execute(
            "SELECT seq, reason FROM events WHERE memory_id = ? AND op != 'forget' UNION "
            "SELECT seq, reason FROM events WHERE op = 'conflict' "
            "AND json_valid(payload) AND json_extract(payload, '$.existing') = ? UNION "
            # the model's verdict on a pair is noted on the older memory; it may quote the newer
            "SELECT seq, reason FROM events WHERE op = 'relation' "
            "AND json_valid(payload) AND json_extract(payload, '$.candidate') = ?",
            (memory_id, memory_id, memory_id),
        ).fetchall()
        self.db.executemany(
            "UPDATE events SET reason = ?, payload = CASE WHEN memory_id = ? "
            "THEN '{\"redacted\": true}' ELSE payload END WHERE seq = ?",
            [(redacted_reason(reason), memory_id, seq) for seq, reason in rows],
        )
        conflicts: list[tuple[Any, ...]] = self.db.execute(
            "SELECT id, reason FROM conflicts WHERE existing_id = ? OR candidate_id = ?",
            (memory_id, memory_id),
        ).fetchall()
        self.db.executemany(
            "UPDATE conflicts SET reason = ? WHERE id = ?",
            [(redacted_reason(reason) or "", conflict) for conflict, reason in conflicts],
        )
        self._redact_quotes(namespace, memory_id, texts)
        quoted = " OR ".join("instr(text, ?) > 0" for _ in texts) or "0"
        first = self.db.execute(
            "SELECT min(version) FROM profiles WHERE namespace = ? AND (EXISTS (SELECT 1 FROM "
            "json_each(built_from, '$.ids') WHERE value = ?) OR " + quoted + ")",
            (namespace, memory_id, *texts),
        ).fetchone()
        if first and first[0] is not None:
            self.db.execute(
                "DELETE FROM profiles WHERE namespace = ? AND version >= ?", (namespace, first[0])
            )
        count = int(self.get_meta(REDACTIONS) or 0)
        self.set_meta(REDACTIONS, str(count + 1))

    def _merged_restatements(self, memory_id: str) -> list[str]:
        """The texts merged into the memory as restatements (kept in its merge events)."""
        return [
            str(text)
            for (text,) in self.db.execute(
                "SELECT json_extract(payload, '$.content') FROM events WHERE memory_id = ? "
                "AND op = 'merge' AND json_valid(payload)",
                (memory_id,),
            )
            if isinstance(text, str) and text
        ]

    def _redact_quotes(self, namespace: str, memory_id: str, texts: Sequence[str]) -> None:
        """Reasons attached to *other* memories, or to conflicts between them, that quote the
        forgotten text: a model's reason on a neighbour's pair may (a batched verdict sees
        several pairs; a confused model quotes what it saw before). Such a reason is found by
        a word of the forgotten texts that no other active memory holds, and cut to its kind
        like the memory's own: a lost diagnostic note is cheap, a kept secret is not."""
        words = _distinctive_words(texts)
        if not words:
            return
        held = " OR ".join("instr(lower(reason), ?) > 0" for _ in words)
        events: list[tuple[Any, ...]] = self.db.execute(
            "SELECT seq, reason FROM events WHERE namespace = ? AND reason IS NOT NULL "
            f"AND (memory_id IS NULL OR memory_id != ?) AND ({held})",
            (namespace, memory_id, *words),
        ).fetchall()
        conflicts: list[tuple[Any, ...]] = self.db.execute(
            f"SELECT id, reason FROM conflicts WHERE namespace = ? AND ({held})",
            (namespace, *words),
        ).fetchall()
        if not events and not conflicts:
            return
        reasons = [str(reason).lower() for _, reason in (*events, *conflicts)]
        quoted = [word for word in words if any(word in reason for reason in reasons)]
        elsewhere = self._held_elsewhere(namespace, memory_id, quoted)
        secret = [word for word in quoted if word not in elsewhere]

        def quotes(reason: str) -> bool:
            return any(word in reason.lower() for word in secret)

        self.db.executemany(
            "UPDATE events SET reason = ? WHERE seq = ?",
            [(redacted_reason(r), seq) for seq, r in events if quotes(str(r))],
        )
        self.db.executemany(
            "UPDATE conflicts SET reason = ? WHERE id = ?",
            [(redacted_reason(r) or "", cid) for cid, r in conflicts if quotes(str(r))],
        )

    def _held_elsewhere(self, namespace: str, memory_id: str, words: Sequence[str]) -> set[str]:
        """Which of ``words`` another active memory of the namespace holds (it is not secret)."""
        held = set()
        for word in words:
            if self.db.execute(
                "SELECT 1 FROM memories WHERE namespace = ? AND status = 'active' AND id != ? "
                "AND instr(lower(content), ?) > 0 LIMIT 1",
                (namespace, memory_id, word),
            ).fetchone():
                held.add(word)
        return held

    def purge_forgotten(self) -> None:
        """After forgets, inside their transaction: merge the keyword index into one segment.
        Its table is contentless, so a delete only writes a tombstone and the forgotten words
        stay in the old segments until a merge rewrites them (11 ms at 10k memories,
        docs/design.md)."""
        self.db.execute("INSERT INTO memory_fts (memory_fts) VALUES ('optimize')")

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

    def mark_recalled(self, rowids: Iterable[int], at: float) -> None:
        """Note that these memories were returned by a recall (``last_accessed``: maintenance
        keeps what is still being found). Not a use: ``access_count`` counts real use only
        (``count_use``), so being shown never lifts a memory's rank. Local, not an event."""
        self.db.executemany(
            "UPDATE memories SET last_accessed = ? WHERE rowid = ?",
            [(at, rowid) for rowid in rowids],
        )

    def count_use(self, memory_id: str, at: float) -> None:
        """The memory was really used: confirmed, corrected, used in a chat turn, or an
        assistant's feedback said so. Frequency in the ranking counts these. Local."""
        self.db.execute(
            "UPDATE memories SET access_count = access_count + 1, last_accessed = ? WHERE id = ?",
            (at, memory_id),
        )

    def pending_pairs(self, namespace: str, ids: Sequence[str]) -> list[tuple[str, str]]:
        """(earlier id, newer id) of each pending conflict between two of ``ids``: the newer
        memory may replace the earlier one, so recall ranks it first."""
        if len(ids) < 2:
            return []
        marks = _placeholders(ids)
        rows: list[tuple[Any, ...]] = self.db.execute(
            "SELECT e.id, c.id FROM conflicts AS k "
            "JOIN memories AS e ON e.id = k.existing_id "
            "JOIN memories AS c ON c.id = k.candidate_id "
            f"WHERE k.namespace = ? AND k.status = 'pending' AND k.existing_id IN ({marks}) "
            f"AND k.candidate_id IN ({marks}) ORDER BY k.id",
            [namespace, *ids, *ids],
        ).fetchall()
        # created_at decides which is newer (an import may add an older fact after a newer one)
        dated: list[tuple[Any, ...]] = self.db.execute(
            f"SELECT id, created_at FROM memories WHERE id IN ({marks})", list(ids)
        ).fetchall()
        created = {str(memory_id): float(at) for memory_id, at in dated}
        pairs = []
        for existing_id, candidate_id in rows:
            old, new = str(existing_id), str(candidate_id)
            if created.get(old, 0.0) > created.get(new, 0.0):
                old, new = new, old
            pairs.append((old, new))
        return pairs

    def conflicts_involving(self, namespace: str, ids: Sequence[str]) -> list[tuple[str, str]]:
        """(existing id, candidate id) of each pending conflict that involves one of ``ids``:
        one of the two may replace the other."""
        if not ids:
            return []
        marks = _placeholders(ids)
        rows: list[tuple[Any, ...]] = self.db.execute(
            "SELECT existing_id, candidate_id FROM conflicts WHERE namespace = ? AND "
            f"status = 'pending' AND (existing_id IN ({marks}) OR candidate_id IN ({marks})) "
            "ORDER BY id",
            [namespace, *ids, *ids],
        ).fetchall()
        return [(str(a), str(b)) for a, b in rows]

    def later_versions(self, namespace: str, ids: Sequence[str]) -> list[tuple[str, str]]:
        """(earlier id, later id) for each of ``ids`` that ``remember`` noted a later memory may
        replace (a ``LATER_VERSION`` event on the earlier one)."""
        if not ids:
            return []
        rows: list[tuple[Any, ...]] = self.db.execute(
            "SELECT memory_id, json_extract(payload, '$.later') FROM events "
            f"WHERE memory_id IN ({_placeholders(ids)}) AND op = ? AND namespace = ? ORDER BY seq",
            [*ids, LATER_VERSION, namespace],
        ).fetchall()
        return [(str(a), str(b)) for a, b in rows]

    def record_event(
        self,
        namespace: str,
        memory_id: str | None,
        op: str,
        payload: dict[str, Any],
        reason: str | None = None,
        stamp: str | None = None,
    ) -> None:
        self.db.execute(
            "INSERT INTO events (hlc, device_id, namespace, memory_id, op, payload, reason, at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                stamp or self.stamp(),
                self.device_id,
                namespace,
                memory_id,
                op,
                json.dumps(payload, ensure_ascii=False),
                reason,
                self._clock(),
            ),
        )

    # --- reads --------------------------------------------------------------------------------

    def get(self, memory_id: str) -> StoredMemory | None:
        row = self.db.execute(
            f"SELECT {_COLUMNS} FROM memories WHERE id = ?", (memory_id,)
        ).fetchone()
        return _record(row) if row else None

    def ids_starting_with(self, namespace: str, prefix: str, limit: int) -> list[tuple[str, str]]:
        """(id, status) of at most ``limit`` memories of ``namespace`` whose id starts with
        ``prefix``, in id order (a range on the id's unique index: ULIDs are 0-9 and A-Z)."""
        rows = self.db.execute(
            "SELECT id, status FROM memories WHERE id >= ? AND id < ? AND namespace = ? "
            "ORDER BY id LIMIT ?",
            (prefix, prefix + "~", namespace, limit),
        )
        return [(row[0], row[1]) for row in rows]

    def get_by_rowids(self, rowids: Sequence[int]) -> dict[int, StoredMemory]:
        if not rowids:
            return {}
        rows = self.db.execute(
            f"SELECT {_COLUMNS} FROM memories WHERE rowid IN ({_placeholders(rowids)})",
            tuple(rowids),
        )
        return {row[0]: _record(row) for row in rows}

    def find_active_by_hash(self, namespace: str, content_hash: str) -> StoredMemory | None:
        row = self.db.execute(
            f"SELECT {_COLUMNS} FROM memories WHERE namespace = ? AND content_hash = ? "
            "AND status = 'active' LIMIT 1",
            (namespace, content_hash),
        ).fetchone()
        return _record(row) if row else None

    def cached_vector(self, content_hash: str) -> bytes | None:
        """The stored vector of any active memory with this exact content (the embedding cache)."""
        row = self.db.execute(
            "SELECT v.embedding FROM memories m JOIN memory_vec v ON v.rowid = m.rowid "
            "WHERE m.content_hash = ? AND m.status = 'active' LIMIT 1",
            (content_hash,),
        ).fetchone()
        return row[0] if row else None

    def vectors_for(self, rowids: Sequence[int]) -> dict[int, bytes]:
        if not rowids:
            return {}
        rows = self.db.execute(
            f"SELECT rowid, embedding FROM memory_vec WHERE rowid IN ({_placeholders(rowids)})",
            tuple(rowids),
        )
        return {rowid: blob for rowid, blob in rows}

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
        with self._index_lock:
            view = self._index_view(namespace)
            if view is not None:
                index, overlay = view
                rowids, _ = index.search(
                    query, _index_pool(k, len(index)), _exact_keep(k), types, list(overlay)
                )
        if view is None:
            return self.nearest_through_sql(query, k, namespace, types)
        # Rows this transaction (or one the index has not read yet) changed: their state now.
        fresh = [r for r, kind in overlay.items() if kind is not None and _wanted(kind, types)]
        return self._rescored(query, [*rowids.tolist(), *fresh], k)

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
            scope += f" AND type IN ({_placeholders(types)})"
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
        rows: list[tuple[Any, ...]] = self.db.execute(
            f"SELECT rowid, embedding FROM memory_vec WHERE rowid IN ({_placeholders(rowids)})",
            rowids,
        ).fetchall()
        return _ranked(query, [(int(rowid), blob) for rowid, blob in rows], k)

    # --- the in-memory vector index -----------------------------------------------------------

    @property
    def memory_index(self) -> SignIndex | None:
        """The in-memory vector index as it stands (None until built; see ``nearest``)."""
        return self._sign_index

    def _index_view(self, namespace: str) -> tuple[SignIndex, dict[int, str | None]] | None:
        """The in-memory index of ``namespace``, brought up to date, with the rows it cannot
        take in yet: {rowid: its type now, or None when it left ``memory_vec``}.

        Changes come from ``memory_vec_changes`` (filled by triggers, so every writer's changes
        are there). ``PRAGMA data_version`` (other connections' commits) and this connection's
        change count say when to look. Inside a transaction what is read may still roll back:
        it is only overlaid on the index, never folded in. None: use SQL (the index is not
        built yet: see INDEX_AFTER_SEARCHES, and never inside a transaction)."""
        db, state = self.db, self._index_state
        in_transaction = db.in_transaction
        data_version = self.scalar("PRAGMA data_version")
        changes = db.total_changes()
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
        log: list[tuple[Any, ...]] = db.execute(
            "SELECT seq, vec_rowid FROM memory_vec_changes WHERE seq > ? ORDER BY seq",
            (state.seen,),
        ).fetchall()
        if log and log[0][0] != state.seen + 1:  # the log no longer reaches back that far
            if in_transaction:
                return None
            index = self._load_index(namespace)
            return index, {}
        changed = sorted({int(rowid) for _, rowid in log} | state.recheck)
        now = self._vector_rows(namespace, changed)
        if in_transaction:
            overlay: dict[int, str | None] = dict.fromkeys(changed)
            overlay.update((rowid, kind) for rowid, kind, _ in now)
            return index, overlay
        index.remove(changed)
        index.add(IndexRows.from_blobs(now))
        state.recheck.clear()
        state.seen = int(log[-1][0]) if log else state.seen
        state.data_version, state.changes = data_version, changes
        return index, {}

    def _vector_rows(self, namespace: str, rowids: Sequence[int]) -> list[Any]:
        """(rowid, type, embedding) of those of ``rowids`` in ``namespace``'s vectors now."""
        rows: list[Any] = []
        for start in range(0, len(rowids), INDEX_LOAD_CHUNK):
            chunk = list(rowids[start : start + INDEX_LOAD_CHUNK])
            rows += self.db.execute(
                "SELECT rowid, type, embedding FROM memory_vec "
                f"WHERE namespace = ? AND rowid IN ({_placeholders(chunk)})",
                [namespace, *chunk],
            ).fetchall()
        return rows

    def _load_index(self, namespace: str) -> SignIndex:
        """Build the index of ``namespace`` from ``memory_vec``, in chunks of rows. The change
        log's position is read first: what changes during the load is read again after it."""
        db, state = self.db, self._index_state
        state.data_version = self.scalar("PRAGMA data_version")
        state.changes = db.total_changes()
        state.schema_version = self.scalar("PRAGMA schema_version")
        state.seen = self.scalar("SELECT coalesce(max(seq), 0) FROM memory_vec_changes")
        state.recheck.clear()
        self._sign_index = None  # the old one's memory goes before the new one's is taken
        # The narrow bits table counts without reading the float vectors.
        count = self.scalar("SELECT count(*) FROM memory_vec_bits WHERE namespace = ?", [namespace])
        index = SignIndex(namespace)
        width = db.execute("SELECT length(embedding) FROM memory_vec LIMIT 1").fetchone()
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

    def keyword(
        self, match: str, k: int, namespace: str, types: Sequence[str] | None
    ) -> list[tuple[int, float]]:
        """(rowid, bm25) of the ``k`` best keyword matches among active memories, best first
        (FTS5's bm25 is negative: lower is better).

        FTS5 ranks its matches alone (a common term matches thousands of rows: joining each to
        ``memories`` before the sort costs more than the search); only the best ``fetch`` are
        joined and checked against namespace and types, and more are fetched while too few
        pass and FTS5 has more to give."""
        if k <= 0:
            return []
        in_scope = "m.namespace = ?"
        scope_params: list[Any] = [namespace]
        if types:
            in_scope += f" AND m.type IN ({_placeholders(types)})"
            scope_params.extend(types)
        sql = (
            f"SELECT r.rowid, r.score, {in_scope} FROM ("
            "SELECT rowid, bm25(memory_fts) AS score FROM memory_fts WHERE memory_fts MATCH ? "
            "ORDER BY score LIMIT ?"
            ") AS r LEFT JOIN memories AS m ON m.rowid = r.rowid ORDER BY r.score"
        )
        fetch = k
        while True:
            ranked: list[tuple[Any, ...]] = self.db.execute(
                sql, [*scope_params, match, fetch]
            ).fetchall()
            hits = [(int(rowid), float(score)) for rowid, score, ok in ranked if ok]
            if len(hits) >= k or len(ranked) < fetch:
                return hits[:k]
            fetch *= 4

    def terms(self, text: str) -> list[str]:
        """The terms the keyword index holds for ``text``: FTS5's own tokenizer (Porter stems)
        over ``index_text`` (CJK bigrams), so they compare with indexed terms exactly."""
        if self._tokenizer is None:
            self._tokenizer = self.db.fts5_tokenizer(
                "porter", ["unicode61", "remove_diacritics", "2"]
            )
        tokens = self._tokenizer(
            index_text(text).encode("utf-8"), apsw.FTS5_TOKENIZE_DOCUMENT, None
        )
        return [str(token[2]) for token in tokens]  # type: ignore[misc]

    def documents_with(self, terms: Sequence[str]) -> dict[str, int]:
        """How many indexed memories (every namespace) hold each term; absent terms: 0."""
        if not terms:
            return {}
        if not self._vocabulary:
            self.db.execute(
                "CREATE VIRTUAL TABLE IF NOT EXISTS temp.memory_fts_terms "
                "USING fts5vocab(main, 'memory_fts', 'row')"
            )
            self._vocabulary = True
        rows: list[tuple[Any, ...]] = self.db.execute(
            f"SELECT term, doc FROM temp.memory_fts_terms WHERE term IN ({_placeholders(terms)})",
            list(terms),
        ).fetchall()
        found = {str(term): int(doc) for term, doc in rows}
        return {term: found.get(term, 0) for term in terms}

    def created_between(
        self, start: float, end: float, k: int, namespace: str, types: Sequence[str] | None
    ) -> list[int]:
        """Rowids of up to ``k`` active memories made in ``[start, end)``, newest first: the
        candidates a query naming that period adds (they need not share a word with it)."""
        sql = (
            "SELECT rowid FROM memories WHERE namespace = ? AND status = 'active' "
            "AND created_at >= ? AND created_at < ?"
        )
        params: list[Any] = [namespace, start, end]
        if types:
            sql += f" AND type IN ({_placeholders(types)})"
            params.extend(types)
        rows: list[tuple[Any, ...]] = self.db.execute(
            sql + " ORDER BY created_at DESC LIMIT ?", [*params, k]
        ).fetchall()
        return [int(rowid) for (rowid,) in rows]

    def size_estimate(self) -> int:
        """About how many memories the store holds (an upper bound, without counting)."""
        row = self.db.execute("SELECT max(rowid) FROM memories").fetchone()
        return int(row[0]) if row and row[0] is not None else 0

    def count_all_active(self) -> int:
        return self.scalar("SELECT count(*) FROM memories WHERE status = 'active'")

    def count(
        self, namespace: str, types: Sequence[str] | None = None, status: str | None = "active"
    ) -> int:
        sql, params = "SELECT count(*) FROM memories WHERE namespace = ?", [namespace]
        if status:
            sql += " AND status = ?"
            params.append(status)
        if types:
            sql += f" AND type IN ({_placeholders(types)})"
            params.extend(types)
        return self.scalar(sql, params)

    def scalar(self, sql: str, params: Sequence[Any] = ()) -> int:
        """The integer result of an aggregate query (count, max, ...)."""
        row = self.db.execute(sql, params).fetchone()
        assert row is not None  # aggregate queries always return one row
        return int(row[0])

    def iter_memories(
        self,
        namespace: str | None,
        *,
        types: Sequence[str] | None = None,
        status: str | None = "active",
        newest_first: bool = True,
        limit: int | None = None,
        offset: int = 0,
    ) -> Iterator[StoredMemory]:
        clauses: list[str] = []
        params: list[Any] = []
        if namespace is not None:
            clauses.append("namespace = ?")
            params.append(namespace)
        if status:
            clauses.append("status = ?")
            params.append(status)
        if types:
            clauses.append(f"type IN ({_placeholders(types)})")
            params.extend(types)
        where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
        order = "DESC" if newest_first else "ASC"
        sql = f"SELECT {_COLUMNS} FROM memories {where} ORDER BY created_at {order}, rowid {order}"
        sql += " LIMIT ? OFFSET ?"
        params.extend([-1 if limit is None else limit, offset])
        for row in self.db.execute(sql, params):
            yield _record(row)

    def archive_reasons(self, memory_ids: Sequence[str]) -> dict[str, str]:
        """Why each memory was last archived (status set to expired), from the events log."""
        if not memory_ids:
            return {}
        rows = self.db.execute(
            "SELECT memory_id, reason FROM events WHERE op = 'update' AND "
            f"memory_id IN ({_placeholders(memory_ids)}) AND "
            "json_extract(payload, '$.status') = 'expired' ORDER BY seq",
            tuple(memory_ids),
        )
        return {memory_id: reason or "" for memory_id, reason in rows}

    def versions(self, memory_id: str) -> list[tuple[int, str, str, float]]:
        return list(
            self.db.execute(
                "SELECT version, content, reason, at FROM memory_versions WHERE memory_id = ? "
                "ORDER BY version",
                (memory_id,),
            )
        )

    def counts_by(
        self, column: str, namespace: str | None, status: str | None = None
    ) -> dict[str, int]:
        """Memories counted by ``column``; of one ``namespace`` and one ``status`` if given."""
        assert column in ("type", "status", "namespace")
        sql = f"SELECT {column}, count(*) FROM memories WHERE 1"
        params: list[Any] = []
        if namespace is not None:
            sql += " AND namespace = ?"
            params.append(namespace)
        if status is not None:
            sql += " AND status = ?"
            params.append(status)
        return {key: n for key, n in self.db.execute(sql + f" GROUP BY {column}", params)}

    def event_count(self) -> int:
        return self.scalar("SELECT count(*) FROM events")

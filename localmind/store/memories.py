"""Memories: the ``memories`` rows (rows in, records out), with their vector and keyword index
entries kept in step inside one transaction and every change logged as an event.

Only *active* memories are indexed: a memory that is superseded, expired or deleted leaves
``memory_vec`` and ``memory_fts`` in the same transaction as its status change.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from localmind.embedders.base import Vectors
from localmind.records import (
    BASED_ON,
    CARRIED_FROM,
    DECLARED,
    FOLDED_INTO,
    JUDGED,
    KEPT_WITH,
    PURGED,
    SEEN,
    SET_ASIDE_FOR,
    TOMBSTONE,
    MemoryRecord,
    Status,
    column_reader,
    copied,
    restatements,
    to_column,
    to_json,
)
from localmind.secrets_check import withheld
from localmind.store.base import placeholders
from localmind.store.conflicts import Conflicts
from localmind.store.events import Events
from localmind.store.forgotten import ForgottenTexts, Told
from localmind.store.keywords import KeywordIndex
from localmind.store.redaction import Redaction
from localmind.store.row_cache import RowCache
from localmind.store.vectors import VectorIndex

# The columns of ``memories`` are the declared fields of a memory (``localmind.records``).
_COLUMNS = ", ".join(["rowid", *DECLARED])


# Fields that update() may change directly; content goes through replace_content().
_UPDATABLE = frozenset(
    {"type", "metadata", "importance", "confidence", "expires_at", "pinned", "status"}
)


@dataclass(frozen=True, slots=True)
class StoredMemory:
    rowid: int
    record: MemoryRecord


# Recall reads ~70 rows per query: each column's reader is looked up once, here, and the
# record is built positionally (the columns are the fields, in their order); only the
# columns that need it are converted.
_READERS = tuple(
    (column, read)
    for column, name in enumerate(DECLARED, start=1)
    if (read := column_reader(name)) is not None
)


def _record(row: Sequence[Any]) -> StoredMemory:
    values = list(row)
    for column, read in _READERS:
        values[column] = read(values[column])
    return StoredMemory(rowid=row[0], record=MemoryRecord(*values[1:]))


def _matching(
    namespace: str | None,
    status: str | None = None,
    types: Sequence[str] | None = None,
    source: str | None = None,
) -> tuple[str, list[Any]]:
    """The WHERE condition (and its parameters) for memories of a namespace, a status, types
    and a source (``records.from_source``: ``mcp`` is every ``mcp:<client>``), each only when
    given."""
    clauses, params = ["1"], list[Any]()
    if namespace is not None:
        clauses.append("namespace = ?")
        params.append(namespace)
    if status:
        clauses.append("status = ?")
        params.append(status)
    if types:
        clauses.append(f"type IN ({placeholders(types)})")
        params.extend(types)
    if source is not None:
        # ':' < ';': the range holds every "<source>:<anything>"
        clauses.append("(source = ? OR (source >= ? AND source < ?))")
        params.extend([source, source + ":", source + ";"])
    return " AND ".join(clauses), params


def _row_values(record: MemoryRecord) -> dict[str, Any]:
    """A record as the columns of its row (besides rowid and id)."""
    return {name: to_column(name, getattr(record, name)) for name in DECLARED if name != "id"}


def secret_column(content: str, metadata: dict[str, Any] | str) -> int:
    """The ``secret`` column of a row with this text and metadata (a dict, or its JSON as the
    column and events hold it): derived wherever a row is written, like ``content_hash``, so
    no write path (a merge, an edit, a restore, another device's change) can skip it."""
    if isinstance(metadata, str):
        try:
            metadata = json.loads(metadata)
        except ValueError:
            metadata = {}
    return int(bool(content) and withheld(content, metadata if isinstance(metadata, dict) else {}))


class Memories(VectorIndex, KeywordIndex, Redaction, Events, Conflicts, ForgottenTexts):
    _row_cache: RowCache[StoredMemory]

    def insert(self, record: MemoryRecord, vector: Vectors) -> int:
        record.hlc = self.stamp()
        record.secret = bool(secret_column(record.content, record.metadata))
        rowid = self._insert_row(record.id, _row_values(record))
        if record.status is Status.ACTIVE:
            self._index(rowid, record, vector)
        self.record_event(record.namespace, record.id, "add", record.to_dict(), stamp=record.hlc)
        return rowid

    def _insert_row(self, memory_id: str, values: dict[str, Any]) -> int:
        """A new ``memories`` row: ``values`` by column (a local add, or a memory another device
        made arriving here)."""
        names = ", ".join(["id", *values])
        self.db.execute(
            f"INSERT INTO memories ({names}) VALUES ({placeholders([memory_id, *values])})",
            (memory_id, *values.values()),
        )
        return self.db.last_insert_rowid()

    def _set_columns(self, rowid: int, values: dict[str, Any]) -> None:
        """Columns of a ``memories`` row (a local update, or the fold of remote events)."""
        assignments = ", ".join(f"{name} = ?" for name in values)
        self.db.execute(
            f"UPDATE memories SET {assignments} WHERE rowid = ?", (*values.values(), rowid)
        )

    def _leave_active(
        self, rowid: int, memory_id: str, at: float, *, archived: bool = False
    ) -> None:
        """A memory stops being active (archived, superseded, forgotten, here or on another
        device): its index entries go, and its pending conflicts with it (``archived``: set
        aside until it is brought back)."""
        self._unindex(rowid)
        self.settle_conflicts_of(memory_id, at, archived=archived)

    def _index(self, rowid: int, record: MemoryRecord, vector: Vectors) -> None:
        self._index_vector(rowid, record, vector)
        self._index_words(rowid, record)

    def _unindex(self, rowid: int) -> None:
        self._unindex_vector(rowid)
        self._unindex_words(rowid)

    def update_fields(
        self,
        stored: StoredMemory,
        reason: str,
        *,
        judged: str | None = None,
        kept_with: str | None = None,
        based_on: str | None = None,
        **fields: Any,
    ) -> MemoryRecord:
        """Change plain fields of a memory (not its content); keeps the indexes in step with its
        status and type, and logs the change. ``judged``: the hash of the text a verdict was
        about (feedback's confidence); it travels, so that another device's fold does not let
        the verdict land on a correction it never saw (``localmind.replica``). ``kept_with``:
        a person kept this memory beside that one (keep-both); it travels, so every device
        settles its copy of the pair (no field need change). ``based_on``: maintenance (decay,
        expiry) names the stamp of the state it read (``records.BASED_ON``)."""
        unknown = set(fields) - _UPDATABLE - {"updated_at", "access_count", "last_accessed"}
        if unknown:
            raise ValueError(f"cannot update {sorted(unknown)}")
        record = stored.record
        was_active = record.status is Status.ACTIVE
        for name, value in fields.items():
            setattr(record, name, value)
        record.hlc = self.stamp()
        columns = {name: to_column(name, value) for name, value in fields.items()}
        derived: dict[str, Any] = {"hlc": record.hlc}
        if "metadata" in fields:  # a merged restatement, or the person's verdict on it
            record.secret = bool(secret_column(record.content, record.metadata))
            derived["secret"] = int(record.secret)
        self._set_columns(stored.rowid, {**columns, **derived})
        now_active = record.status is Status.ACTIVE
        if was_active and not now_active:
            archived = record.status is Status.EXPIRED
            self._leave_active(stored.rowid, record.id, self._clock(), archived=archived)
        elif was_active and "metadata" in fields:
            # a merge adds its restatement to the words the memory is found by
            self._unindex_words(stored.rowid)
            self._index_words(stored.rowid, record)
            self._log_words_changed(stored.rowid)
        elif now_active and "type" in fields:
            self._retype_vector(stored.rowid, record)
        ties = {JUDGED: judged, KEPT_WITH: kept_with, BASED_ON: based_on}
        payload = columns | {key: value for key, value in ties.items() if value is not None}
        self.record_event(record.namespace, record.id, "update", payload, reason, record.hlc)
        return record

    def reactivate(self, stored: StoredMemory, vector: Vectors) -> None:
        """Put a memory that was not active back into the indexes (its status already active),
        and the conflicts its archiving set aside back in the queue."""
        self._index(stored.rowid, stored.record, vector)
        self.reopen_archived_conflicts(stored.record.id)

    def replace_content(
        self,
        stored: StoredMemory,
        content: str,
        content_hash: str,
        vector: Vectors,
        reason: str,
        at: float,
        created_at: float | None = None,
        source: str | None = None,
    ) -> MemoryRecord:
        """A new version: the old content goes to ``memory_versions``, the row and its index
        entries take the new content. ``created_at``: the new text's own date (a newer fact
        that took the old one's place is dated when it was told, not when the old one was);
        it travels with the update, so every device dates the memory alike. ``source``: the
        memory whose text this is (a resolution folded it into this one): it travels, so a
        concurrent forget of that memory on another device reaches this copy of its text."""
        record = stored.record
        self.db.execute(
            "INSERT INTO memory_versions (memory_id, version, content, reason, at, content_hash) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (record.id, record.version, record.content, reason, at, record.content_hash),
        )
        record.content, record.content_hash = content, content_hash
        record.version += 1
        record.updated_at = at
        if created_at is not None:
            record.created_at = created_at
        record.hlc = self.stamp()
        record.secret = bool(secret_column(content, record.metadata))
        self.db.execute(
            "UPDATE memories SET content = ?, content_hash = ?, version = ?, updated_at = ?, "
            "created_at = ?, hlc = ?, secret = ? WHERE rowid = ?",
            (
                content,
                content_hash,
                record.version,
                at,
                record.created_at,
                record.hlc,
                record.secret,
                stored.rowid,
            ),
        )
        if record.status is Status.ACTIVE:
            self._unindex(stored.rowid)
            self._index(stored.rowid, record, vector)
        self.record_event(
            record.namespace,
            record.id,
            "update",
            {"content": content, "version": record.version}
            | ({} if created_at is None else {"created_at": created_at})
            | ({} if source is None else {CARRIED_FROM: source}),
            reason,
            record.hlc,
        )
        return record

    def erase(
        self,
        stored: StoredMemory,
        at: float,
        into: str | None = None,
        set_aside_for: str | None = None,
        purged: bool = False,
    ) -> None:
        """Forget: the row stays as a tombstone (status deleted, content and history gone) so the
        deletion can replicate; the indexes lose it at once, and every trace of its text goes
        (:meth:`redact_traces`; secure_delete zeroes the freed bytes). ``into``: a person's
        resolution folded the memory into that one (take-new, merge); the forget then also
        names the content writes of it this device had seen, so the device that made an edit
        not among them carries that edit into the kept memory (``localmind.replica``).
        ``set_aside_for``: a keep-old dropped it for that memory (sync10b). ``purged``: an
        archived memory purged here (:data:`PURGED`: this laptop's own, like its archiving)."""
        record = stored.record
        seen = self.content_stamps(record.id) if into is not None else []
        if into is None and set_aside_for is None and not purged:
            # a person's own forget: told again, the text is recognised (a resolution's text
            # lives on in the kept memory, a set-aside one in ``set_aside``; a purge is
            # housekeeping, not the person's word on the text)
            self.note_forgotten(record.namespace, self.texts_of(record), at)
        if record.status is Status.ACTIVE:
            self._unindex(stored.rowid)
        self.settle_conflicts_of(record.id, self._clock())
        record.hlc = self.stamp()
        self._redact_forgotten(record)
        self.db.execute(
            "UPDATE memories SET status = 'deleted', content = '', metadata = '{}', "
            "content_hash = '', secret = 0, updated_at = ?, hlc = ? WHERE rowid = ?",
            (at, record.hlc, stored.rowid),
        )
        # The tombstone travels whole: a device that never saw the memory (or whose copy of its
        # events was redacted) builds the same tombstone from this payload (localmind.replica).
        tombstone = {name: to_json(getattr(record, name)) for name in TOMBSTONE}
        tombstone["updated_at"] = at
        if into is not None:
            tombstone.update({FOLDED_INTO: into, SEEN: seen})
        if set_aside_for is not None:
            tombstone[SET_ASIDE_FOR] = set_aside_for
        if purged:
            tombstone[PURGED] = True
        self.record_event(record.namespace, record.id, "forget", tombstone, None, record.hlc)

    def content_stamps(self, memory_id: str) -> list[str]:
        """The stamps of a memory's events that wrote its text (its add and its new versions)."""
        return [
            str(stamp)
            for (stamp,) in self.db.execute(
                "SELECT hlc FROM events WHERE memory_id = ? AND op IN ('add', 'update') "
                "AND json_valid(payload) AND json_type(payload, '$.content') = 'text' "
                "ORDER BY hlc",
                (memory_id,),
            )
        ]

    def texts_of(self, record: MemoryRecord) -> list[Told]:
        """Every text a memory holds, as told: its current one, the restatements merged into it
        and its earlier versions."""
        earlier = [text for _, text, _, _ in self.versions(record.id)]
        return [
            Told(text, record.type, record.created_at)
            for text in [record.content, *restatements(record.metadata), *earlier]
        ]

    def _redact_forgotten(self, record: MemoryRecord) -> None:
        """Every trace of a forgotten memory's texts (its content and the restatements merged
        into it), whether it was forgotten here or on another device."""
        self.redact_traces(
            record.namespace, record.id, [record.content, *restatements(record.metadata)]
        )

    def mark_recalled(self, rowids: Sequence[int], at: float) -> Callable[[], None]:
        """Note that these memories were returned by a recall (``last_accessed``: maintenance
        keeps what is still being found). Not a use: ``access_count`` counts real use only
        (``count_use``), so being shown never lifts a memory's rank. Local, not an event.
        Inside a write transaction; call what it returns once that committed: the rows recall
        keeps (``recall_rows``) then hold the new ``last_accessed`` instead of being read again
        by the next recall that finds them (``RowCache.updating``)."""
        # a REAL column: what SQL reads back is the float
        noted = float(at)
        return self._row_cache.updating(
            self.db,
            rowids,
            lambda: self.scalar("PRAGMA data_version"),
            lambda row: StoredMemory(row.rowid, copied(row.record, last_accessed=noted)),
            lambda: self.db.executemany(
                "UPDATE memories SET last_accessed = ? WHERE rowid = ?",
                [(noted, rowid) for rowid in rowids],
            ),
        )

    def count_use(self, memory_id: str, at: float) -> None:
        """The memory was really used: confirmed, corrected, used in a chat turn, or an
        assistant's feedback said so. Frequency in the ranking counts these. Local."""
        self.db.execute(
            "UPDATE memories SET access_count = access_count + 1, last_accessed = ? WHERE id = ?",
            (at, memory_id),
        )

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
            f"SELECT {_COLUMNS} FROM memories WHERE rowid IN ({placeholders(rowids)})",
            tuple(rowids),
        )
        return {row[0]: _record(row) for row in rows}

    def secret_memories(self) -> list[MemoryRecord]:
        """The active memories marked secret, in every namespace (as the keyword index counts
        documents), read when a recall for an assistant leaves them out: kept beside recall's
        rows while none can have changed (a scan of 10k rows cost 3.6 ms a recall). Shared:
        read them, never change them."""

        def read() -> list[MemoryRecord]:
            rows = self.db.execute(
                f"SELECT {_COLUMNS} FROM memories WHERE secret = 1 AND status = 'active'"
            )
            return [_record(row).record for row in rows]

        return self._row_cache.derived(
            self.db, lambda: self.scalar("PRAGMA data_version"), "secret", read
        )

    def any_secret(self, memory_ids: Sequence[str]) -> bool:
        """Whether one of these memories is marked secret (a profile built from it is stale)."""
        if not memory_ids:
            return False
        row = self.db.execute(
            f"SELECT 1 FROM memories WHERE secret = 1 AND id IN ({placeholders(memory_ids)}) "
            "LIMIT 1",
            tuple(memory_ids),
        ).fetchone()
        return row is not None

    def recall_rows(self, rowids: Sequence[int]) -> dict[int, StoredMemory]:
        """:meth:`get_by_rowids` for recall's candidates, from a cache of rows read lately that
        follows every write (``localmind.store.row_cache``). The records are shared: read them,
        never change them."""
        if not rowids:
            return {}
        return self._row_cache.rows(
            self.db, rowids, lambda: self.scalar("PRAGMA data_version"), self.get_by_rowids
        )

    def find_active_by_hash(self, namespace: str, content_hash: str) -> StoredMemory | None:
        row = self.db.execute(
            f"SELECT {_COLUMNS} FROM memories WHERE namespace = ? AND content_hash = ? "
            "AND status = 'active' LIMIT 1",
            (namespace, content_hash),
        ).fetchone()
        return _record(row) if row else None

    def active_by_hash(self, namespace: str, content_hash: str) -> list[StoredMemory]:
        """Every active memory with this text, oldest first (events told on several days)."""
        # Sorted here, not by ORDER BY: with it SQLite's planner walked memories_by_namespace
        # (which yields that order) over every active memory instead of the few with this hash,
        # so each line of an import read the whole namespace (a 100k build did not finish).
        rows = self.db.execute(
            f"SELECT {_COLUMNS} FROM memories WHERE namespace = ? AND content_hash = ? "
            "AND status = 'active'",
            (namespace, content_hash),
        )
        found = [_record(row) for row in rows]
        return sorted(found, key=lambda stored: (stored.record.created_at, stored.rowid))

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
            sql += f" AND type IN ({placeholders(types)})"
            params.extend(types)
        rows: list[tuple[Any, ...]] = self.db.execute(
            sql + " ORDER BY created_at DESC LIMIT ?", [*params, k]
        ).fetchall()
        return [int(rowid) for (rowid,) in rows]

    def told_together(
        self, rowids: Sequence[int], turns: int, namespace: str, types: Sequence[str] | None
    ) -> list[int]:
        """Rowids of the active memories stored within ``turns`` places of one of ``rowids``
        and made at the same moment as it: the turns next to it in one conversation imported at
        once (a batch gets consecutive rowids and, per session, one date). Memories told one by
        one never share a moment, so they have none."""
        if not rowids or turns <= 0:
            return []
        # From the cache of rows recall reads (``recall_rows``), not SQL: the anchors are
        # candidates already read, their neighbours recur from one query to the next, and the
        # statement was a twentieth of a recall's CPU at 10k memories.
        rows = self.recall_rows(
            sorted(
                {n for anchor in rowids for n in range(max(anchor - turns, 1), anchor + turns + 1)}
            )
        )
        wanted = set(types or ())
        together: dict[int, None] = {}
        for anchor in rowids:
            if anchor not in rows:
                continue
            made = rows[anchor].record.created_at
            for n in range(anchor - turns, anchor + turns + 1):
                row = rows.get(n)
                if row is None or n == anchor:
                    continue
                record = row.record
                if (
                    record.created_at == made
                    and record.namespace == namespace
                    and record.status is Status.ACTIVE
                    and (not wanted or str(record.type) in wanted)
                ):
                    together[n] = None
        return list(together)

    def size_estimate(self) -> int:
        """About how many memories the store holds (an upper bound, without counting)."""
        row = self.db.execute("SELECT max(rowid) FROM memories").fetchone()
        return int(row[0]) if row and row[0] is not None else 0

    def count_all_active(self) -> int:
        return self.scalar("SELECT count(*) FROM memories WHERE status = 'active'")

    def count(
        self,
        namespace: str,
        types: Sequence[str] | None = None,
        status: str | None = "active",
        source: str | None = None,
    ) -> int:
        where, params = _matching(namespace, status, types, source)
        return self.scalar(f"SELECT count(*) FROM memories WHERE {where}", params)

    def iter_memories(
        self,
        namespace: str | None,
        *,
        types: Sequence[str] | None = None,
        status: str | None = "active",
        newest_first: bool = True,
        limit: int | None = None,
        offset: int = 0,
        source: str | None = None,
    ) -> Iterator[StoredMemory]:
        where, params = _matching(namespace, status, types, source)
        order = "DESC" if newest_first else "ASC"
        sql = f"SELECT {_COLUMNS} FROM memories WHERE {where} "
        sql += f"ORDER BY created_at {order}, rowid {order} LIMIT ? OFFSET ?"
        params.extend([-1 if limit is None else limit, offset])
        for row in self.db.execute(sql, params):
            yield _record(row)

    def counts_by(
        self, column: str, namespace: str | None, status: str | None = None
    ) -> dict[str, int]:
        """Memories counted by ``column``; of one ``namespace`` and one ``status`` if given."""
        assert column in ("type", "status", "namespace")
        where, params = _matching(namespace, status)
        sql = f"SELECT {column}, count(*) FROM memories WHERE {where} GROUP BY {column}"
        return {key: n for key, n in self.db.execute(sql, params)}

    def holds_active(self, namespace: str, types: Sequence[str]) -> bool:
        """Whether ``namespace`` holds an active memory of one of ``types``: stops at the first
        (a count of them all, asked once per batch of a large import, made it quadratic)."""
        return bool(
            self.scalar(
                "SELECT EXISTS (SELECT 1 FROM memories WHERE namespace = ? AND status = 'active' "
                f"AND type IN ({placeholders(types)}))",
                (namespace, *types),
            )
        )

    def count_folded(self, namespace: str) -> int:
        """Forgotten memories of ``namespace`` that were folded into another (a take-new, a
        merge, or the same memory told on two laptops): their text lives on in the kept one."""
        return self.scalar(
            "SELECT count(*) FROM memories AS m WHERE m.namespace = ? AND m.status = 'deleted' "
            "AND EXISTS (SELECT 1 FROM events AS e WHERE e.memory_id = m.id AND e.op = 'forget' "
            f"AND json_valid(e.payload) AND json_type(e.payload, '$.{FOLDED_INTO}') = 'text')",
            (namespace,),
        )

    def eviction_candidates(
        self,
        namespace: str,
        limit: int,
        *,
        source: str | None = None,
        keep: str | None = None,
        last_sources: Sequence[str] = (),
    ) -> list[str]:
        """Ids of up to ``limit`` active unpinned memories of least value (confidence times
        uses, then importance, then age: the later of when it was told and last changed): what
        capacity archives first. Memories whose source is one of ``last_sources`` come after
        all others, and among the rest a memory in a
        pending conflict comes last: archiving it would settle the question silently, before
        the person has read it. ``source``: only those whose metadata names it; ``keep``:
        never this one."""
        sql = "SELECT id FROM memories WHERE namespace = ? AND status = 'active' AND pinned = 0 "
        params: list[Any] = [namespace]
        if source is not None:
            sql += "AND json_extract(metadata, '$.source') = ? "
            params.append(source)
        if keep is not None:
            sql += "AND id != ? "
            params.append(keep)
        sql += "ORDER BY source IN (SELECT value FROM json_each(?)), "
        params.append(json.dumps(list(last_sources)))
        sql += (
            "EXISTS (SELECT 1 FROM conflicts k WHERE k.status = 'pending' AND "
            "(k.existing_id = memories.id OR k.candidate_id = memories.id)), "
            # a memory changed lately (a take-new's new text) is as recent as one told lately
            "confidence * (access_count + 1), importance, max(created_at, updated_at) LIMIT ?"
        )
        rows: list[tuple[Any, ...]] = self.db.execute(sql, (*params, limit)).fetchall()
        return [str(memory_id) for (memory_id,) in rows]

    def archived_ids(self, before: float | None, namespace: str | None = None) -> list[str]:
        """Ids of archived (expired) memories, of every namespace or of one, archived before a
        moment (or ever, with None)."""
        where, params = _matching(namespace, str(Status.EXPIRED))
        if before is not None:
            where += " AND updated_at < ?"
            params.append(before)
        rows: list[tuple[Any, ...]] = self.db.execute(
            f"SELECT id FROM memories WHERE {where}", params
        ).fetchall()
        return [str(memory_id) for (memory_id,) in rows]

    def confidences(self, namespace: str) -> list[float]:
        """The confidence of every active memory of ``namespace``."""
        rows = self.db.execute(
            "SELECT confidence FROM memories WHERE namespace = ? AND status = 'active'",
            (namespace,),
        )
        return [float(confidence) for (confidence,) in rows]

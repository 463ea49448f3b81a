"""The ``events`` log: every change, stamped with a hybrid logical clock; this device's own
and those received from other devices (``localmind.replica``)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

import apsw

from localmind.hlc import HybridLogicalClock, Stamp
from localmind.records import BASED_ON, KEPT_WITH, is_eviction
from localmind.store.base import Tables, placeholders
from localmind.store.row_cache import LookupCache

#: Event op on a memory that a newer one may replace (payload ``{"later": id, "similarity": s}``,
#: s their cosine): a local note, like conflicts; recall ranks the newer one first when the two
#: are alike enough. On the earlier memory, so that recall looks up only its top results.
LATER_VERSION = "later_version"


def newest_change(db: apsw.Connection) -> int:
    """The number of the newest change in the store's event log (0 when it has none). Events
    are only ever appended, so it only grows: an older copy of the store has a lower one."""
    newest = db.execute("SELECT coalesce(max(seq), 0) FROM events").fetchall()[0][0]
    assert isinstance(newest, int)  # an INTEGER PRIMARY KEY
    return newest


def newest_stamp(db: apsw.Connection) -> str | None:
    """The latest stamp in the event log (any device's), None when it is empty."""
    row = db.execute("SELECT max(hlc) FROM events").fetchone()
    return str(row[0]) if row and row[0] else None


#: A later-version note as the cache holds it: (its event's seq, the later id, the similarity).
_LaterVersion = tuple[int, str, float | None]


class Events(Tables):
    device_id: str
    _later_versions: LookupCache[tuple[str, str], list[_LaterVersion]]
    _kept_with: LookupCache[str, list[str]]  # memory id -> the ids a person kept it with
    _hlc: HybridLogicalClock
    _clock: Callable[[], float]

    def newest_own_event_time(self) -> float | None:
        """The wall-clock time of this device's newest event (None when it has none)."""
        row = self.db.execute(
            "SELECT max(at) FROM events WHERE device_id = ?", (self.device_id,)
        ).fetchone()
        return float(row[0]) if row and row[0] is not None else None

    def latest_event_seq(self) -> int:
        return self.scalar("SELECT coalesce(max(seq), 0) FROM events")

    def stamp(self) -> str:
        """A new stamp, later than every event in the store. Call it in the write transaction:
        other processes with this store open share its device id, so each must move past the
        stamps the others wrote, or two events could get the same stamp (and another device
        would skip the second as already applied)."""
        newest = newest_stamp(self.db)
        if newest:
            self._hlc.observe(Stamp.parse(newest))
        return str(self._hlc.now())

    def observe(self, stamp: str) -> None:
        """Move this device's clock past a stamp received from another device."""
        self._hlc.observe(Stamp.parse(stamp))

    def later_versions(
        self, namespace: str, ids: Sequence[str]
    ) -> list[tuple[str, str, float | None]]:
        """(earlier id, later id, their similarity) for each of ``ids`` that ``remember`` noted a
        later memory may replace (a ``LATER_VERSION`` event on the earlier one), in the order
        they were noted; the similarity is None in a note that lacks it. Not a pair a person
        kept both of, here or on another laptop (``kept_pairs``): both hold, neither replaces
        the other. Each memory's notes come from a cache while the event log is unchanged
        (``LookupCache``)."""
        if not ids:
            return []

        def read(keys: list[tuple[str, str]]) -> dict[tuple[str, str], list[_LaterVersion]]:
            rows: list[tuple[Any, ...]] = self.db.execute(
                "SELECT seq, memory_id, json_extract(payload, '$.later'), "
                "json_extract(payload, '$.similarity') FROM events AS note "
                f"WHERE memory_id IN ({placeholders(keys)}) AND op = ? AND namespace = ? "
                "AND NOT EXISTS (SELECT 1 FROM events AS kept WHERE kept.op IN ('update', 'add') "
                "AND kept.memory_id IN (note.memory_id, json_extract(note.payload, '$.later')) "
                f"AND json_valid(kept.payload) AND json_extract(kept.payload, '$.{KEPT_WITH}') "
                "IN (note.memory_id, json_extract(note.payload, '$.later')))",
                [*(memory_id for _, memory_id in keys), LATER_VERSION, namespace],
            ).fetchall()
            found: dict[tuple[str, str], list[_LaterVersion]] = {key: [] for key in keys}
            for seq, memory_id, later, similarity in rows:
                found[(namespace, str(memory_id))].append(
                    (int(seq), str(later), None if similarity is None else float(similarity))
                )
            return found

        answers = self._later_versions.get(
            self.db,
            [(namespace, memory_id) for memory_id in ids],
            lambda: self.scalar("PRAGMA data_version"),
            read,
        )
        noted = sorted(
            (seq, memory_id, later, similarity)
            for (_, memory_id), notes in answers.items()
            for seq, later, similarity in notes
        )
        return [(memory_id, later, similarity) for _, memory_id, later, similarity in noted]

    def superseded_by_note(self, namespace: str, later: str) -> list[tuple[str, float | None]]:
        """(earlier id, similarity) of each memory ``remember`` (or the arrivals judge) noted
        ``later`` may replace (``LATER_VERSION``), oldest note first, each memory once."""
        rows = self.db.execute(
            "SELECT memory_id, json_extract(payload, '$.similarity') FROM events "
            "WHERE op = ? AND namespace = ? AND json_valid(payload) "
            "AND json_extract(payload, '$.later') = ? ORDER BY seq",
            (LATER_VERSION, namespace, later),
        ).fetchall()
        noted: dict[str, float | None] = {}
        for memory_id, similarity in rows:
            noted.setdefault(str(memory_id), None if similarity is None else float(similarity))
        return list(noted.items())

    def kept_pairs(self, ids: Sequence[str]) -> set[frozenset[str]]:
        """The pairs a person kept both of (keep-both, on this laptop or another: a
        ``kept_with`` note on the newer memory, which travels; an update, or the add that brings
        it back after another laptop folded it away, ``replica._kept_both_later``) whose newer
        memory is one of ``ids`` (looked up by the memory's id: a search of every note's text
        would read the whole log). Each memory's notes come from a cache while the event log is
        unchanged (``LookupCache``): recall asks on every query, and the answer is nearly always
        none."""
        if not ids:
            return set()

        def read(keys: list[str]) -> dict[str, list[str]]:
            rows: list[tuple[Any, ...]] = self.db.execute(
                f"SELECT memory_id, json_extract(payload, '$.{KEPT_WITH}') FROM events "
                f"WHERE memory_id IN ({placeholders(keys)}) AND op IN ('update', 'add') "
                "AND json_valid(payload) "
                f"AND json_type(payload, '$.{KEPT_WITH}') = 'text'",
                keys,
            ).fetchall()
            found: dict[str, list[str]] = {key: [] for key in keys}
            for newer, kept in rows:
                found[str(newer)].append(str(kept))
            return found

        answers = self._kept_with.get(
            self.db, ids, lambda: self.scalar("PRAGMA data_version"), read
        )
        return {frozenset((newer, kept)) for newer, held in answers.items() for kept in held}

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

    def archive_reasons(self, memory_ids: Sequence[str]) -> dict[str, str]:
        """Why each memory was last archived (status set to expired), from the events log, in
        stamp order: not by maintenance that read an older state than a change before it (the
        fold leaves that out, ``records.BASED_ON``)."""
        if not memory_ids:
            return {}
        rows = self.db.execute(
            "SELECT memory_id, hlc, reason, op = 'update' AND json_valid(payload) AND "
            "json_extract(payload, '$.status') = 'expired', "
            f"json_extract(payload, '$.{BASED_ON}') FROM events "
            f"WHERE memory_id IN ({placeholders(memory_ids)}) "
            "AND op IN ('add', 'update', 'forget') ORDER BY hlc",
            tuple(memory_ids),
        )
        reasons: dict[str, str] = {}
        folded: dict[str, str] = {}  # each memory's stamp folded so far
        for memory_id, stamp, reason, archives, based_on in rows:
            if isinstance(based_on, str) and based_on < folded.get(memory_id, ""):
                continue
            if not is_eviction(reason):  # each laptop's own: not what maintenance is measured by
                folded[memory_id] = str(stamp)
            if archives:
                reasons[memory_id] = reason or ""
        return reasons

    def event_count(self) -> int:
        return self.scalar("SELECT count(*) FROM events")

    def activity_by_day(self, namespace: str, since: float) -> list[tuple[str, str, int]]:
        """(kind, UTC day, count) of the events of ``namespace`` (and store-wide ones) since a
        moment; the kind is the op, or for archiving updates why (evicted, archived, decayed,
        expired)."""
        rows = self.db.execute(
            "SELECT op, CASE WHEN reason LIKE 'evicted:%' THEN 'evicted' "
            "WHEN reason LIKE 'archived:%' THEN 'archived' "
            "WHEN reason LIKE 'confidence decay:%' THEN 'decayed' "
            "WHEN reason = 'expired' THEN 'expired' ELSE NULL END, "
            "date(at, 'unixepoch'), count(*) FROM events "
            "WHERE (namespace = ? OR namespace = '') AND at >= ? GROUP BY 1, 2, 3",
            (namespace, since),
        )
        return [(str(reason or op), str(day), int(n)) for op, reason, day, n in rows]

    def touched_since(self, namespace: str, seq: int) -> set[str]:
        """Ids of the memories of ``namespace`` that events after position ``seq`` changed or
        name: a queued conflict's existing memory, a later version's successor too."""
        rows = self.db.execute(
            "SELECT memory_id, json_extract(payload, '$.existing'), "
            "json_extract(payload, '$.later') FROM events WHERE namespace = ? AND seq > ?",
            (namespace, seq),
        )
        return {str(memory_id) for row in rows for memory_id in row if memory_id is not None}

    def changed_since(self, namespace: str, seq: int, ops: Sequence[str] | None = None) -> set[str]:
        """Ids of the memories of ``namespace`` with events after position ``seq`` (of the
        ``ops`` given, or any)."""
        sql = "SELECT DISTINCT memory_id FROM events WHERE namespace = ? AND seq > ? "
        params: list[Any] = [namespace, seq]
        if ops:
            sql += f"AND op IN ({placeholders(ops)}) "
            params.extend(ops)
        rows = self.db.execute(sql + "AND memory_id IS NOT NULL", params)
        return {str(memory_id) for (memory_id,) in rows}

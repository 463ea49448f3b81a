"""The store's side of replication (``localmind.replica``): this device's events read for the
outbox, other devices' events recorded under their own stamps, and a memory's fold written
through the same row, index, conflict and redaction writes as a local change."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from localmind.records import (
    CARRIED_FROM,
    FOLDED_INTO,
    KEPT_WITH,
    PURGED,
    SEEN,
    SET_ASIDE_FOR,
    MemoryRecord,
    Status,
    content_hash,
    restatements,
)
from localmind.store.base import placeholders
from localmind.store.memories import Memories, secret_column


@dataclass(frozen=True, slots=True)
class LoggedEvent:
    """One row of the ``events`` log (``localmind.replica.Event`` adds how it travels)."""

    hlc: str
    device_id: str
    namespace: str
    memory_id: str | None
    op: str
    payload: dict[str, Any]
    reason: str | None
    at: float
    seq: int = 0  # the position in the origin device's log (0 when unknown)


Logged = TypeVar("Logged", bound=LoggedEvent)


@dataclass(frozen=True, slots=True)
class Folded:
    """What a memory's replicated events make of it (``localmind.replica``'s fold): its
    columns, its earlier texts by version (content, reason, replaced at), whether forgotten."""

    values: dict[str, Any]
    history: dict[int, tuple[str, str, float]]
    deleted: bool


class Replication(Memories):
    def replicated_events(
        self,
        seq: int,
        limit: int | None,
        relay_through: int,
        ops: Sequence[str],
        record: Callable[..., Logged],
    ) -> list[Logged]:
        """Events of ``ops`` after position ``seq``, oldest first: this device's own, and up to
        position ``relay_through`` every device's; each made by ``record`` (``LoggedEvent``'s
        fields, in its order)."""
        rows = self.db.execute(
            "SELECT seq, hlc, device_id, namespace, memory_id, op, payload, reason, at FROM events "
            f"WHERE seq > ? AND (device_id = ? OR seq <= ?) AND op IN ({placeholders(ops)}) "
            "ORDER BY seq LIMIT ?",
            (seq, self.device_id, relay_through, *ops, -1 if limit is None else limit),
        )
        return [
            record(hlc, device, ns, mid, op, json.loads(payload), reason, at, seq)
            for seq, hlc, device, ns, mid, op, payload, reason, at in rows
        ]

    def has_event(self, stamp: str) -> bool:
        return (
            self.db.execute("SELECT 1 FROM events WHERE hlc = ?", (stamp,)).fetchone() is not None
        )

    def record_received(self, event: LoggedEvent) -> None:
        """Another device's event, kept under its own device id and stamp."""
        self.db.execute(
            "INSERT INTO events (hlc, device_id, namespace, memory_id, op, payload, reason, at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                event.hlc,
                event.device_id,
                event.namespace,
                event.memory_id,
                event.op,
                json.dumps(event.payload, ensure_ascii=False),
                event.reason,
                event.at,
            ),
        )

    def memory_events(
        self, memory_id: str, ops: Sequence[str]
    ) -> list[tuple[str, str, str, str | None, float]]:
        """(op, payload as JSON text, stamp, reason, at) of a memory's events of ``ops``, in
        stamp order."""
        rows: list[Any] = self.db.execute(
            "SELECT op, payload, hlc, reason, at FROM events WHERE memory_id = ? "
            f"AND op IN ({placeholders(ops)}) ORDER BY hlc",
            (memory_id, *ops),
        ).fetchall()
        return rows

    def folded_into(self, memory_id: str) -> list[tuple[str, list[str]]]:
        """(kept id, stamps seen) of each forget of ``memory_id`` that a person's resolution
        made on some device (it folded the memory into the kept one)."""
        rows = self.db.execute(
            "SELECT payload FROM events WHERE memory_id = ? AND op = 'forget'", (memory_id,)
        )
        folds = []
        for (text,) in rows:
            payload = json.loads(text)
            into, seen = payload.get(FOLDED_INTO), payload.get(SEEN)
            if isinstance(into, str) and isinstance(seen, list):
                folds.append((into, [str(stamp) for stamp in seen]))
        return folds

    def folds_with_stamps(self, memory_id: str) -> list[tuple[str, str]]:
        """(stamp, kept id) of each forget that folded ``memory_id`` into another."""
        rows = self.db.execute(
            f"SELECT hlc, json_extract(payload, '$.{FOLDED_INTO}') FROM events "
            "WHERE memory_id = ? AND op = 'forget' AND json_valid(payload) "
            f"AND json_type(payload, '$.{FOLDED_INTO}') = 'text'",
            (memory_id,),
        )
        return [(str(stamp), str(kept)) for stamp, kept in rows]

    def own_keep_both(self, memory_id: str, other: str) -> str | None:
        """The stamp of this device's last keep-both of ``memory_id`` beside ``other``."""
        row = self.db.execute(
            "SELECT max(hlc) FROM events WHERE memory_id = ? AND device_id = ? AND op = 'update' "
            f"AND json_valid(payload) AND json_extract(payload, '$.{KEPT_WITH}') = ?",
            (memory_id, self.device_id, other),
        ).fetchone()
        return None if row is None or row[0] is None else str(row[0])

    def forgotten_for_real(self, memory_id: str) -> bool:
        """Whether some device forgot ``memory_id`` itself (not by folding it into another)."""
        return any(
            FOLDED_INTO not in json.loads(text)
            for (text,) in self.db.execute(
                "SELECT payload FROM events WHERE memory_id = ? AND op = 'forget'", (memory_id,)
            )
        )

    def told_on(self, memory_id: str) -> str | None:
        """The device whose ``add`` made ``memory_id`` (None when no add is logged)."""
        row = self.db.execute(
            "SELECT device_id FROM events WHERE memory_id = ? AND op = 'add' ORDER BY hlc LIMIT 1",
            (memory_id,),
        ).fetchone()
        return None if row is None else str(row[0])

    def kept_together(self, one: str, other: str) -> bool:
        """Whether a person on some device kept ``one`` and ``other`` both (keep-both)."""
        row = self.db.execute(
            f"SELECT 1 FROM events WHERE op = 'update' AND json_valid(payload) AND ("
            f"(memory_id = ? AND json_extract(payload, '$.{KEPT_WITH}') = ?) OR "
            f"(memory_id = ? AND json_extract(payload, '$.{KEPT_WITH}') = ?)) LIMIT 1",
            (one, other, other, one),
        ).fetchone()
        return row is not None

    def own_texts(self, memory_id: str) -> list[tuple[str, str]]:
        """(stamp, text) of this device's content writes of ``memory_id`` still unredacted, in
        stamp order."""
        rows = self.db.execute(
            "SELECT hlc, json_extract(payload, '$.content') FROM events WHERE memory_id = ? "
            "AND device_id = ? AND op IN ('add', 'update') AND json_valid(payload) "
            "AND json_type(payload, '$.content') = 'text' ORDER BY hlc",
            (memory_id, self.device_id),
        )
        return [(str(stamp), str(text)) for stamp, text in rows]

    def final_forgets(self, memory_id: str) -> list[tuple[str, str | None]]:
        """(stamp, kept id) of each forget of ``memory_id`` that did not fold it into another:
        the kept id is the memory a keep-old kept instead (sync10b), None for a person's own
        forget."""
        rows = self.db.execute(
            "SELECT hlc, payload FROM events WHERE memory_id = ? AND op = 'forget'", (memory_id,)
        )
        forgets = []
        for stamp, text in rows:
            payload = json.loads(text)
            # a purge is housekeeping of an archived copy, not the person's word on the text
            if FOLDED_INTO not in payload and payload.get(PURGED) is not True:
                kept = payload.get(SET_ASIDE_FOR)
                forgets.append((str(stamp), kept if isinstance(kept, str) else None))
        return forgets

    def carried_texts(self, memory_id: str) -> list[tuple[int, str, str, str]]:
        """(seq, stamp, source id, text) of the versions of ``memory_id`` that took another
        memory's text (a resolution's take-new or merge, or an edit carried over)."""
        rows = self.db.execute(
            f"SELECT seq, hlc, json_extract(payload, '$.{CARRIED_FROM}'), "
            "json_extract(payload, '$.content') FROM events WHERE memory_id = ? "
            f"AND op = 'update' AND json_valid(payload) "
            f"AND json_type(payload, '$.{CARRIED_FROM}') = 'text' ORDER BY seq",
            (memory_id,),
        )
        return [
            (int(seq), str(stamp), str(source), str(text or ""))
            for seq, stamp, source, text in rows
        ]

    def redact_carried(self, seq: int, memory_id: str, namespace: str, text: str) -> None:
        """A forget reached a copy of its text in another memory (event ``seq`` of
        ``memory_id`` carried it there): that version's event, history row and the profiles
        quoting it go; the memory's fold then ends where it was before that version."""
        self.db.execute(
            "UPDATE events SET payload = '{\"redacted\": true}', reason = ? WHERE seq = ?",
            ("redacted", seq),
        )
        if text:
            self.db.execute(
                "DELETE FROM memory_versions WHERE memory_id = ? AND content = ?",
                (memory_id, text),
            )
            self.drop_profiles_quoting(namespace, memory_id, [text])
        self.count_redaction()

    def first_namespace(self, memory_id: str) -> str | None:
        """The namespace of a memory's first event (None when it has none)."""
        row = self.db.execute(
            "SELECT namespace FROM events WHERE memory_id = ? ORDER BY hlc LIMIT 1", (memory_id,)
        ).fetchone()
        return str(row[0]) if row else None

    def write_fold(self, memory_id: str, folded: Folded) -> int | None:
        """Write a memory's fold over its row and history, through the writes a local change
        uses. Returns the rowid when its index entries must be rebuilt (it is active and its
        text, type, namespace or restatements changed); they were removed already."""
        # derived here, as every local write derives it: the events never carry it
        values = {
            **folded.values,
            "secret": secret_column(folded.values["content"], folded.values["metadata"]),
        }
        current = self.get(memory_id)
        before: MemoryRecord | None = None
        if current is None:
            rowid = self._insert_row(memory_id, values)
        else:
            rowid, before = current.rowid, current.record
            self._set_columns(rowid, values)
        if folded.deleted and before is not None:
            if before.status is not Status.DELETED and any(
                kept is None for _, kept in self.final_forgets(memory_id)
            ):
                # the person forgot it on another laptop: told again here, it is recognised
                self.note_forgotten(before.namespace, self.texts_of(before), self._clock())
            # The promise of a forget: the text leaves this device too.
            self._redact_forgotten(before)
        elif folded.deleted:
            self.redact_traces(values["namespace"], memory_id)
        self._write_history(memory_id, folded)
        active = values["status"] == str(Status.ACTIVE)
        was_active = before is not None and before.status is Status.ACTIVE
        same = (
            before is not None
            and before.content == values["content"]
            and str(before.type) == values["type"]
            and before.namespace == values["namespace"]
            and restatements(before.metadata) == _restated(values["metadata"])
        )
        if not active:
            if was_active:
                archived = values["status"] == str(Status.EXPIRED)
                self._leave_active(rowid, memory_id, self._clock(), archived=archived)
            else:
                self.settle_conflicts_of(memory_id, self._clock())
        elif was_active and not same:
            self._unindex(rowid)
        if active and before is not None and not was_active:
            self.reopen_archived_conflicts(memory_id)  # brought back on another laptop
        if active and (not was_active or not same):
            return rowid
        return None

    def _write_history(self, memory_id: str, folded: Folded) -> None:
        if folded.deleted:
            self.forget_history(memory_id)
            return
        # Versions the fold knows replace what is here; older ones (restored from an export,
        # which records no events for them) stay. Nothing at or past the current version is
        # history.
        self.db.execute(
            "DELETE FROM memory_versions WHERE memory_id = ? AND version >= ?",
            (memory_id, folded.values["version"]),
        )
        self.db.executemany(
            "INSERT INTO memory_versions (memory_id, version, content, reason, at, content_hash) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (memory_id, version) DO UPDATE SET "
            "content = excluded.content, reason = excluded.reason, at = excluded.at, "
            "content_hash = excluded.content_hash",
            [
                (memory_id, version, content, reason, at, content_hash(content))
                for version, (content, reason, at) in sorted(folded.history.items())
            ],
        )


def _restated(metadata: str) -> list[str]:
    """The restatements in a folded metadata value (the keyword index holds them too)."""
    try:
        value = json.loads(metadata)
    except ValueError:
        return []
    return restatements(value) if isinstance(value, dict) else []

"""Conflicts: pairs of memories that may contradict each other, queued for a person (or the
model) to settle; local to this device."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from localmind.store.base import Tables, placeholders
from localmind.store.row_cache import LookupCache

# How a pending conflict ends when one of its memories is archived (capacity, decay, expiry):
# not settled, set aside until the memory is brought back.
ARCHIVED = "archived"


@dataclass(frozen=True, slots=True)
class StoredConflict:
    id: int
    existing_id: str
    candidate_id: str
    similarity: float
    reason: str
    created_at: float


#: A pending conflict as the cache holds it: (its id, existing id, candidate id).
_Pending = tuple[int, str, str]


class Conflicts(Tables):
    _pending_conflicts: LookupCache[tuple[str, str], list[_Pending]]

    def add_conflict(
        self,
        namespace: str,
        existing_id: str,
        candidate_id: str,
        similarity: float,
        reason: str,
        at: float,
    ) -> int:
        """Queue a pair that may contradict; returns the conflict's id."""
        self.db.execute(
            "INSERT INTO conflicts (namespace, existing_id, candidate_id, similarity, reason, "
            "created_at) VALUES (?, ?, ?, ?, ?, ?)",
            (namespace, existing_id, candidate_id, similarity, reason, at),
        )
        return self.db.last_insert_rowid()

    def pending_conflicts(self, namespace: str) -> list[StoredConflict]:
        """The pending conflicts of ``namespace``, oldest first."""
        rows: list[tuple[Any, ...]] = self.db.execute(
            "SELECT id, existing_id, candidate_id, similarity, reason, created_at FROM conflicts "
            "WHERE namespace = ? AND status = 'pending' ORDER BY id",
            (namespace,),
        ).fetchall()
        return [StoredConflict(*row) for row in rows]

    def ever_in_conflict(self, one: str, other: str) -> bool:
        """Whether a conflict about these two memories was ever queued here (pending, or
        settled by a person, the model, or one of them going)."""
        return bool(
            self.scalar(
                "SELECT count(*) FROM conflicts WHERE (existing_id = ? AND candidate_id = ?) "
                "OR (existing_id = ? AND candidate_id = ?)",
                (one, other, other, one),
            )
        )

    def pending_conflicts_of(self, memory_id: str) -> list[StoredConflict]:
        """The pending conflicts ``memory_id`` is in (either side), oldest first."""
        rows: list[tuple[Any, ...]] = self.db.execute(
            "SELECT id, existing_id, candidate_id, similarity, reason, created_at FROM conflicts "
            "WHERE status = 'pending' AND (existing_id = ? OR candidate_id = ?) ORDER BY id",
            (memory_id, memory_id),
        ).fetchall()
        return [StoredConflict(*row) for row in rows]

    def repoint_conflict(
        self, conflict_id: int, old_id: str, new_id: str, similarity: float
    ) -> None:
        """A pending conflict asks about ``new_id`` where it asked about ``old_id`` (a
        resolution dropped that memory for this one), ``similarity`` apart."""
        self.db.execute(
            "UPDATE conflicts SET "
            "existing_id = CASE WHEN existing_id = ? THEN ? ELSE existing_id END, "
            "candidate_id = CASE WHEN candidate_id = ? THEN ? ELSE candidate_id END, "
            "similarity = ? WHERE id = ? AND status = 'pending'",
            (old_id, new_id, old_id, new_id, similarity, conflict_id),
        )

    def dropped_by(self, memory_id: str) -> tuple[str, str] | None:
        """(resolution, id of the memory kept) when a person's resolution dropped ``memory_id``
        (the newer side of a conflict settled keep_old, take_new or merge); None otherwise."""
        row = self.db.execute(
            "SELECT resolution, existing_id FROM conflicts WHERE candidate_id = ? "
            "AND status = 'resolved' AND resolution IN ('keep_old', 'take_new', 'merge') "
            "ORDER BY resolved_at DESC, id DESC LIMIT 1",
            (memory_id,),
        ).fetchone()
        return None if row is None else (str(row[0]), str(row[1]))

    def count_pending(self, namespace: str) -> int:
        return self.scalar(
            "SELECT count(*) FROM conflicts WHERE namespace = ? AND status = 'pending'",
            (namespace,),
        )

    def close_conflict(self, conflict_id: int, resolution: str, at: float) -> None:
        """Settled, by a person or the model (``resolution``: how)."""
        self.db.execute(
            "UPDATE conflicts SET status = 'resolved', resolved_at = ?, resolution = ? "
            "WHERE id = ?",
            (at, resolution, conflict_id),
        )

    def pending_pairs(self, namespace: str, ids: Sequence[str]) -> list[tuple[str, str]]:
        """(earlier id, newer id) of each pending conflict between two of ``ids``: the newer
        memory may replace the earlier one, so recall ranks it first."""
        if len(ids) < 2:
            return []
        marks = placeholders(ids)
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
        one of the two may replace the other. In the order they were queued; each memory's
        from a cache while the conflicts are unchanged (``LookupCache``)."""
        if not ids:
            return []

        def read(keys: list[tuple[str, str]]) -> dict[tuple[str, str], list[_Pending]]:
            marks = placeholders(keys)
            memory_ids = [memory_id for _, memory_id in keys]
            rows: list[tuple[Any, ...]] = self.db.execute(
                "SELECT id, existing_id, candidate_id FROM conflicts WHERE namespace = ? AND "
                f"status = 'pending' AND (existing_id IN ({marks}) OR candidate_id IN ({marks}))",
                [namespace, *memory_ids, *memory_ids],
            ).fetchall()
            found: dict[tuple[str, str], list[_Pending]] = {key: [] for key in keys}
            for number, existing, candidate in rows:
                pending = (int(number), str(existing), str(candidate))
                for memory_id in {pending[1], pending[2]}:
                    if (namespace, memory_id) in found:
                        found[(namespace, memory_id)].append(pending)
            return found

        answers = self._pending_conflicts.get(
            self.db,
            [(namespace, memory_id) for memory_id in ids],
            lambda: self.scalar("PRAGMA data_version"),
            read,
        )
        involved = sorted({pending for found in answers.values() for pending in found})
        return [(existing, candidate) for _, existing, candidate in involved]

    def settle_conflicts_of(self, memory_id: str, at: float, *, archived: bool = False) -> None:
        """The pending conflicts of a memory that stopped being active end with it ("gone");
        ``archived``: it was archived, which can be undone, and they wait for that
        (:meth:`reopen_archived_conflicts`)."""
        self.db.execute(
            "UPDATE conflicts SET status = 'resolved', resolved_at = ?, resolution = ? "
            "WHERE status = 'pending' AND (existing_id = ? OR candidate_id = ?)",
            (at, ARCHIVED if archived else "gone", memory_id, memory_id),
        )

    def reopen_archived_conflicts(self, memory_id: str) -> int:
        """The conflicts ``memory_id``'s archiving closed wait for review again, now that it is
        back, where the other memory is active too (review12 R10: a capacity typed one digit
        short archived 6,930 memories, and bringing them back left their 1,511 questions
        unasked). Returns how many."""
        self.db.execute(
            "UPDATE conflicts SET status = 'pending', resolved_at = NULL, resolution = NULL "
            "WHERE status = 'resolved' AND resolution = ? "
            "AND (existing_id = ? OR candidate_id = ?) AND NOT EXISTS (SELECT 1 FROM memories m "
            "WHERE m.status != 'active' "
            "AND m.id IN (conflicts.existing_id, conflicts.candidate_id))",
            (ARCHIVED, memory_id, memory_id),
        )
        return int(self.db.changes())

    def settle_pair(self, one: str, other: str, resolution: str, at: float) -> int:
        """End the pending conflicts between ``one`` and ``other`` (either side either way) as
        ``resolution``: a person settled that pair on another device. Returns how many."""
        self.db.execute(
            "UPDATE conflicts SET status = 'resolved', resolved_at = ?, resolution = ? "
            "WHERE status = 'pending' AND ((existing_id = ? AND candidate_id = ?) "
            "OR (existing_id = ? AND candidate_id = ?))",
            (at, resolution, one, other, other, one),
        )
        return int(self.db.changes())

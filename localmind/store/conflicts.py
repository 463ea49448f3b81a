"""Conflicts: pairs of memories that may contradict each other, queued for a person (or the
model) to settle; local to this device."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from localmind.store.base import Tables, placeholders


class Conflicts(Tables):
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
        one of the two may replace the other."""
        if not ids:
            return []
        marks = placeholders(ids)
        rows: list[tuple[Any, ...]] = self.db.execute(
            "SELECT existing_id, candidate_id FROM conflicts WHERE namespace = ? AND "
            f"status = 'pending' AND (existing_id IN ({marks}) OR candidate_id IN ({marks})) "
            "ORDER BY id",
            [namespace, *ids, *ids],
        ).fetchall()
        return [(str(a), str(b)) for a, b in rows]

"""``memory_versions``: the earlier texts of a memory, with why each was replaced; and
``set_aside``: the hashes of texts a person resolved away in favour of a memory. Both let a
text told again be recognised as one that was replaced (see docs/design.md, "Earlier
versions")."""

from __future__ import annotations

from dataclasses import dataclass

from localmind.records import Version, content_hash
from localmind.store.base import Tables


@dataclass(frozen=True, slots=True)
class Replaced:
    """An active memory that replaced a text: ``how`` is the reason of the version it was
    (update, overwrite, take_new …) or the resolution that set it aside (keep_old, merge)."""

    memory_id: str
    how: str
    set_aside: bool  # a person's resolution dropped it (it was never this memory's text)
    at: float  # when it was replaced or set aside


class History(Tables):
    def add_version(self, memory_id: str, version: Version) -> None:
        """An earlier version, as restored from an export."""
        self.db.execute(
            "INSERT INTO memory_versions (memory_id, version, content, reason, at, content_hash) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (
                memory_id,
                version.version,
                version.content,
                version.reason,
                version.replaced_at,
                content_hash(version.content),
            ),
        )

    def versions(self, memory_id: str) -> list[tuple[int, str, str, float]]:
        return list(
            self.db.execute(
                "SELECT version, content, reason, at FROM memory_versions WHERE memory_id = ? "
                "ORDER BY version",
                (memory_id,),
            )
        )

    def set_aside(self, memory_id: str, hashed: str, resolution: str, at: float) -> None:
        """A person kept ``memory_id`` over a text (its hash): told again, it is recognised."""
        self.db.execute(
            "INSERT INTO set_aside (memory_id, content_hash, resolution, at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (memory_id, content_hash) DO UPDATE SET resolution = excluded.resolution, "
            "at = excluded.at",
            (memory_id, hashed, resolution, at),
        )

    def replaced_by(self, namespace: str, hashed: str) -> Replaced | None:
        """The active memory of ``namespace`` that replaced the text with this hash: one it is
        an earlier version of before one a person set it aside for, the newest made first;
        None when no active memory did."""
        # CROSS JOIN keeps the texts found by hash as the outer loop (SQLite never reorders
        # it): with a plain JOIN the planner walked every active memory of the namespace and
        # probed set_aside for each, so each checked remember read the whole namespace (at
        # 100k memories that was nine tenths of a batch's time).
        row = self.db.execute(
            "SELECT m.id, v.reason, 0, v.at FROM memory_versions AS v "
            "CROSS JOIN memories AS m ON m.id = v.memory_id "
            "WHERE v.content_hash = ? AND m.namespace = ? AND m.status = 'active' "
            "UNION ALL SELECT m.id, s.resolution, 1, s.at FROM set_aside AS s "
            "CROSS JOIN memories AS m ON m.id = s.memory_id "
            "WHERE s.content_hash = ? AND m.namespace = ? AND m.status = 'active' "
            "ORDER BY 3, 1 DESC LIMIT 1",
            (hashed, namespace, hashed, namespace),
        ).fetchone()
        if row is None:
            return None
        return Replaced(str(row[0]), str(row[1]), bool(row[2]), float(row[3]))

    def forget_history(self, memory_id: str) -> None:
        """A forgotten memory's earlier texts and what was set aside for it: neither may be
        recognised afterwards."""
        self.db.execute("DELETE FROM memory_versions WHERE memory_id = ?", (memory_id,))
        self.db.execute("DELETE FROM set_aside WHERE memory_id = ?", (memory_id,))

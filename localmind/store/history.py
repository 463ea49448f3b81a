"""``memory_versions``: the earlier texts of a memory, with why each was replaced."""

from __future__ import annotations

from localmind.records import Version
from localmind.store.base import Tables


class History(Tables):
    def add_version(self, memory_id: str, version: Version) -> None:
        """An earlier version, as restored from an export."""
        self.db.execute(
            "INSERT INTO memory_versions (memory_id, version, content, reason, at) "
            "VALUES (?, ?, ?, ?, ?)",
            (memory_id, version.version, version.content, version.reason, version.replaced_at),
        )

    def versions(self, memory_id: str) -> list[tuple[int, str, str, float]]:
        return list(
            self.db.execute(
                "SELECT version, content, reason, at FROM memory_versions WHERE memory_id = ? "
                "ORDER BY version",
                (memory_id,),
            )
        )

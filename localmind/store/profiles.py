"""``profiles``: the versions of each user's profile, with what each was built from."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from localmind.store.base import Tables


@dataclass(frozen=True, slots=True)
class StoredProfile:
    version: int
    text: str
    built_from: dict[str, Any]  # {"ids": [...], "method": ..., "seq": ...}
    at: float


class Profiles(Tables):
    def profiles(self, namespace: str, *, latest_only: bool) -> list[StoredProfile]:
        """The profile versions of ``namespace``, oldest first; or only the newest."""
        sql = "SELECT version, text, built_from, at FROM profiles WHERE namespace = ? ORDER BY "
        sql += "version DESC LIMIT 1" if latest_only else "version"
        rows: list[tuple[Any, ...]] = self.db.execute(sql, (namespace,)).fetchall()
        return [
            StoredProfile(int(version), str(text), json.loads(built_from), float(at))
            for version, text, built_from, at in rows
        ]

    def add_profile(self, namespace: str, text: str, built_from: dict[str, Any], at: float) -> int:
        """A new profile version of ``namespace``; returns its number. Call it inside the
        write transaction: numbered under the write lock, another process may have built one
        meanwhile."""
        version = self.scalar(
            "SELECT coalesce(max(version), 0) + 1 FROM profiles WHERE namespace = ?",
            (namespace,),
        )
        self.db.execute(
            "INSERT INTO profiles (namespace, version, text, built_from, at) "
            "VALUES (?, ?, ?, ?, ?)",
            (namespace, version, text, json.dumps(built_from), at),
        )
        return version

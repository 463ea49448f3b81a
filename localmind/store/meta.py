"""The ``meta`` table: a store's settings and bookkeeping as key and text value."""

from __future__ import annotations

from localmind.store.base import Tables


class Meta(Tables):
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

"""The ``meta`` table: a store's settings and bookkeeping as key and text value."""

from __future__ import annotations

import apsw

from localmind.store.base import Tables


def read_meta(db: apsw.Connection, key: str) -> str | None:
    """One value of a connection's ``meta`` (for a file opened without a :class:`Meta`)."""
    row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return row[0] if row else None


def write_meta(db: apsw.Connection, key: str, value: str) -> None:
    db.execute(
        "INSERT INTO meta (key, value) VALUES (?, ?) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (key, value),
    )


class Meta(Tables):
    def get_meta(self, key: str) -> str | None:
        return read_meta(self.db, key)

    def set_meta(self, key: str, value: str) -> None:
        write_meta(self.db, key, value)

    def delete_meta(self, key: str) -> None:
        self.db.execute("DELETE FROM meta WHERE key = ?", (key,))

    def delete_meta_prefixed(self, prefix: str) -> None:
        self.db.execute("DELETE FROM meta WHERE substr(key, 1, ?) = ?", (len(prefix), prefix))

"""``recall_latency``: the time recalls took here, the newest samples kept (``stats``)."""

from __future__ import annotations

from localmind.store.base import Tables


class Latency(Tables):
    def record_latency(
        self, at: float, embed_ms: float, search_ms: float, load_ms: float, keep: int
    ) -> None:
        """One recall's times; only the newest ``keep`` samples stay."""
        self.db.execute(
            "INSERT INTO recall_latency (at, embed_ms, search_ms, load_ms) VALUES (?, ?, ?, ?)",
            (at, embed_ms, search_ms, load_ms),
        )
        self.db.execute(
            "DELETE FROM recall_latency WHERE rowid <= (SELECT max(rowid) FROM recall_latency) - ?",
            (keep,),
        )

    def latency_samples(self) -> list[tuple[float, float, float]]:
        """(embed_ms, search_ms, load_ms) of each kept sample."""
        rows = self.db.execute("SELECT embed_ms, search_ms, load_ms FROM recall_latency")
        return [(float(e), float(s), float(load)) for e, s, load in rows]

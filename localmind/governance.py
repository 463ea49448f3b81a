"""Keeping the store healthy on its own: capacity with eviction, expiry, daily maintenance
(decay, archival, purge) and the figures behind ``localmind stats``.

Importance decay needs no writes: the effective importance is a pure function of the stored
importance and the idle time (``localmind.ranking.decayed_importance``), exact between runs.
Maintenance archives what has decayed under the floor. Confidence decay is written, by the days
since the previous run, so a second run on the same day changes nothing.
"""

from __future__ import annotations

import logging
import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from localmind.config import DecayConfig, GovernanceConfig
from localmind.errors import CapacityFull, WouldArchive
from localmind.hlc import Stamp
from localmind.ranking import DAY, decayed_importance
from localmind.records import EVICTION, MemoryRecord, Status
from localmind.store import SqliteStore

LAST_MAINTENANCE = "last_maintenance"
# metadata "source" of memories an assistant wrote over MCP: the only ones its writes may evict
AGENT_SOURCE = "mcp"
#: Where the memories a person typed one at a time come from (``add``, the app's memories page,
#: the chat). Capacity archives them only when nothing else is left: an import of many lines
#: must not push out "I live in Berlin" that the person typed (docs/design.md, "Imports that
#: never surprise").
TYPED_SOURCES = ("cli", "tui", "chat")
log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class MaintenanceReport:
    at: float
    expired: int = 0
    archived: int = 0  # importance decayed under the floor
    confidence_decayed: int = 0
    purged: int = 0
    skipped: bool = False  # the last run was too recent
    refused: str | None = None  # why the clock was not trusted (nothing was changed)
    # archived by an explicit run because the user's memories were over capacity (memories that
    # arrived by sync are never evicted on arrival: docs/design.md, "Small debts")
    evicted: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__}


def _day(timestamp: float) -> int:
    return int(timestamp // DAY)


def _touched(record: MemoryRecord) -> float:
    """When the memory was last written or used. Its stamp counts too: the hybrid clock never
    runs backwards, so a memory written while the wall clock was reset to the past (a dead
    RTC battery) is not taken for years idle once the clock is right again."""
    try:
        stamped = Stamp.parse(record.hlc).millis / 1000 if record.hlc else 0.0
    except ValueError:
        stamped = 0.0
    return max(record.last_touched, stamped)


class Governance:
    def __init__(
        self,
        store: SqliteStore,
        config: GovernanceConfig,
        decay: DecayConfig,
        clock: Callable[[], float],
    ) -> None:
        self.store = store
        self.config = config
        self.decay = decay
        self._clock = clock

    # --- capacity -----------------------------------------------------------------------------

    def enforce_capacity(
        self, namespace: str, *, agent_write: bool = False, keep: str | None = None
    ) -> list[str]:
        """Archive the lowest-valued unpinned memories over capacity; returns their ids.
        Call inside the transaction that added memories.

        ``agent_write``: the write came from an assistant over MCP; it may only displace what an
        assistant wrote (metadata source ``mcp``), never the person's own memories. When those
        are all that is left, :class:`CapacityFull` is raised and the caller's transaction
        rolls back, so nothing is written. ``keep``: a memory that must not be chosen (the
        one just written, or just brought back from the archive)."""
        excess = self.over_capacity(namespace)
        if excess == 0:
            return []
        rows = self.store.eviction_candidates(
            namespace,
            excess,
            source=AGENT_SOURCE if agent_write else None,
            keep=keep,
            last_sources=TYPED_SOURCES,
        )
        if agent_write and len(rows) < excess:
            raise CapacityFull(
                f"Not remembered: the store is full (capacity {self.config.capacity}) and "
                "making room would archive memories the person wrote themselves, which an "
                "assistant's memory never displaces. Tell the user; they can raise the limit "
                "(localmind config capacity N) or forget memories they no longer need."
            )
        evicted = []
        for memory_id in rows:
            stored = self.store.get(memory_id)
            assert stored is not None
            value = stored.record.confidence * (stored.record.access_count + 1)
            self.store.update_fields(
                stored,
                f"{EVICTION}: over capacity {self.config.capacity}, value {value:.3f}",
                status=Status.EXPIRED,
                updated_at=self._clock(),
            )
            evicted.append(memory_id)
        return evicted

    def refuse_over_capacity(self, namespace: str, *, adding: int = 0) -> None:
        """:class:`WouldArchive` when ``namespace`` holds more active memories than the
        capacity (a bulk write not allowed to archive, inside its transaction: it rolls back),
        or would with ``adding`` more: the most a bulk write could add, checked before its
        work (then the count is an upper bound, and the message says "up to")."""
        capacity = self.config.capacity
        if capacity is None:
            return
        total = self.store.count(namespace) + adding
        excess = total - capacity
        if excess <= 0:
            return
        up_to = "up to " if adding else ""
        raise WouldArchive(
            f"This would leave {up_to}{total} memories, over the capacity of {capacity}: "
            f"{up_to}{excess} would be archived to make room. Nothing was written.",
            excess=excess,
            total=total,
            capacity=capacity,
            at_most=bool(adding),
        )

    def over_capacity(self, namespace: str) -> int:
        """How many active memories of ``namespace`` are over the capacity (0 when none)."""
        if self.config.capacity is None:
            return 0
        return max(0, self.store.count(namespace) - self.config.capacity)

    def purge_archived(self, namespace: str) -> int:
        """Erase every archived memory of ``namespace`` now (the person asked for it)."""
        with self.store.db:
            purged = self._purge(None, namespace)
        return purged

    # --- maintenance --------------------------------------------------------------------------

    def due(self) -> bool:
        last = self.store.get_meta(LAST_MAINTENANCE)
        if last is None:
            return True
        return self._clock() - float(last) >= self.config.maintenance_interval_hours * 3600

    def untrusted_clock(self, now: float) -> str | None:
        """Why the wall clock reading ``now`` cannot be trusted to measure idle time, or None.
        Forward: more than ``max_clock_jump_days`` since the last maintenance. Backward: more
        than a day before the last maintenance or the newest change written here (both were
        read from this device's clock, so a sync peer's clock plays no part)."""
        bound = self.config.max_clock_jump_days * DAY
        last_text = self.store.get_meta(LAST_MAINTENANCE)
        last = float(last_text) if last_text is not None else None
        if last is not None and now - last > bound:
            return (
                f"the clock moved {(now - last) / DAY:.0f} days forward since the last "
                f"maintenance (more than {self.config.max_clock_jump_days:g})"
            )
        seen = [t for t in (last, self.store.newest_own_event_time()) if t is not None]
        if seen and now < max(seen) - DAY:
            return (
                f"the clock is {(max(seen) - now) / DAY:.0f} days behind the last maintenance "
                "or change made on this device"
            )
        return None

    def maintain(self, *, force: bool = True, trust_clock: bool = False) -> MaintenanceReport:
        """One maintenance pass over every namespace, in one transaction. Refused (nothing
        changes, ``refused`` says why) when the clock jumped, unless ``trust_clock``."""
        now = self._clock()
        if not force and not self.due():
            return MaintenanceReport(at=now, skipped=True)
        counts: Counter[str] = Counter()
        with self.store.db:
            # Read under the write lock: two processes opening the store together must not
            # both run a pass that is due once (nor decay the same days twice).
            if not force and not self.due():
                return MaintenanceReport(at=now, skipped=True)
            if not trust_clock and (why := self.untrusted_clock(now)) is not None:
                log.warning(
                    "maintenance refused: %s. Nothing was archived, decayed or purged. Fix the "
                    "clock; if it is right, run `localmind maintain --trust-clock`.",
                    why,
                )
                return MaintenanceReport(at=now, refused=why)
            last = self.store.get_meta(LAST_MAINTENANCE)
            # Whole calendar days (UTC) since the last run: a second run on the same day decays
            # nothing, and no fraction of a day is ever lost or counted twice.
            elapsed_days = float(_day(now) - _day(float(last))) if last is not None else 0.0
            for stored in list(self.store.iter_memories(None, status="active")):
                record = stored.record
                if record.expires_at is not None and record.expires_at <= now:
                    self.store.update_fields(
                        stored,
                        "expired",
                        based_on=record.hlc,
                        status=Status.EXPIRED,
                        updated_at=now,
                    )
                    counts["expired"] += 1
                    continue
                if record.pinned:
                    continue
                idle_days = max(0.0, (now - _touched(record)) / DAY)
                effective = decayed_importance(record.importance, idle_days, self.decay)
                if effective < self.decay.floor:
                    self.store.update_fields(
                        stored,
                        f"archived: importance decayed to {effective:.3f} after "
                        f"{idle_days:.0f} idle days",
                        based_on=record.hlc,
                        status=Status.EXPIRED,
                        updated_at=now,
                    )
                    counts["archived"] += 1
                    continue
                doubtful = record.confidence < self.config.low_confidence
                rarely_used = idle_days >= self.config.rarely_used_days
                if elapsed_days > 0 and (doubtful or rarely_used):
                    factor = (1.0 - self.config.confidence_daily_decay) ** elapsed_days
                    self.store.update_fields(
                        stored,
                        "confidence decay: " + ("low confidence" if doubtful else "rarely used"),
                        based_on=record.hlc,
                        confidence=max(0.0, record.confidence * factor),
                    )
                    counts["confidence_decayed"] += 1
            if self.config.retention_days is not None:
                counts["purged"] = self._purge(now - self.config.retention_days * DAY)
            self.store.set_meta(LAST_MAINTENANCE, repr(now))
            self.store.record_event(
                "", None, "maintenance", dict(counts), f"{elapsed_days:.2f} days since last run"
            )
        if counts["purged"]:  # purged memories are forgotten: their old pages leave the log
            self.store.truncate_log()
        return MaintenanceReport(
            at=now,
            expired=counts["expired"],
            archived=counts["archived"],
            confidence_decayed=counts["confidence_decayed"],
            purged=counts["purged"],
        )

    def _purge(self, archived_before: float | None, namespace: str | None = None) -> int:
        """Erase archived memories (of every namespace, or of one) archived before a moment
        (or ever, with None)."""
        rows = self.store.archived_ids(archived_before, namespace)
        for memory_id in rows:
            stored = self.store.get(memory_id)
            if stored is not None:
                self.store.erase(stored, self._clock(), purged=True)
        if rows:
            self.store.purge_forgotten()
        return len(rows)

    # --- figures ------------------------------------------------------------------------------

    def record_latency(
        self, embed_ms: float, search_ms: float, at: float, load_ms: float = 0.0
    ) -> None:
        self.store.record_latency(at, embed_ms, search_ms, load_ms, self.config.latency_samples)

    def latency_percentiles(self) -> dict[str, float | int | None]:
        """p50 and p95 of embedding the query, searching, and both (``total``); and of loading
        the model, over the recalls that had to (``model_loads`` of them: the first of each
        process that had not loaded it yet)."""
        rows = self.store.latency_samples()
        loads = sorted(row[2] for row in rows if row[2] > 0)
        figures: dict[str, float | int | None] = {"samples": len(rows), "model_loads": len(loads)}
        columns: list[tuple[str, list[float]]] = [
            ("embed", sorted(row[0] for row in rows)),
            ("search", sorted(row[1] for row in rows)),
            ("total", sorted(row[0] + row[1] for row in rows)),
            ("load", loads),
        ]
        for name, values in columns:
            for share in (0.5, 0.95):
                key = f"{name}_p{int(share * 100)}_ms"
                if not values:
                    figures[key] = None
                    continue
                index = min(len(values) - 1, max(0, math.ceil(share * len(values)) - 1))
                figures[key] = round(values[index], 2)
        return figures

    def confidence_histogram(self, namespace: str, bins: int = 10) -> list[int]:
        histogram = [0] * bins
        for confidence in self.store.confidences(namespace):
            histogram[min(bins - 1, int(confidence * bins))] += 1
        return histogram

    def activity_by_day(self, namespace: str, days: int = 30) -> dict[str, dict[str, int]]:
        """Per operation (add, merge, overwrite, evicted, ...), the count per UTC day."""
        since = self._clock() - days * DAY
        activity: dict[str, dict[str, int]] = {}
        for key, day, n in self.store.activity_by_day(namespace, since):
            activity.setdefault(key, {})[day] = activity.get(key, {}).get(day, 0) + n
        return activity

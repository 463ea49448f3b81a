"""How the store is doing: counts, recall latency, sync, capacity, confidence, activity and
maintenance; and a key to run the maintenance now."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Label, ProgressBar, Sparkline, Static

from localmind.governance import MaintenanceReport
from localmind.records import status_counts_shown
from sync.folder import device_label
from sync.watch import SyncReport
from tui.format import DAY, age, ago, plural
from tui.screens.base import Page
from tui.syncing import SyncOverview

ACTIVITY_DAYS = 30


def last_days(now: float, days: int = ACTIVITY_DAYS) -> list[str]:
    """The UTC dates (YYYY-MM-DD) of the last ``days`` days, oldest first, today last."""
    return [
        datetime.fromtimestamp(now - back * DAY, UTC).strftime("%Y-%m-%d")
        for back in range(days - 1, -1, -1)
    ]


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f} ms"


class HealthScreen(Page):
    PAGE = "health"
    BINDINGS: ClassVar = [
        Binding("m", "maintain", "Run maintenance"),
        Binding("r", "reload", "Refresh"),
    ]

    def body(self) -> ComposeResult:
        with VerticalScroll(id="health-page"):
            with Horizontal(classes="health-row"):
                yield Static(id="counts", classes="card")
                yield Static(id="latency", classes="card")
            yield Static(id="sync", classes="card")
            with Vertical(classes="card"):
                yield Label("", id="capacity-label")
                yield ProgressBar(id="capacity", show_eta=False)
            with Vertical(classes="card"):
                yield Label("Confidence of active memories (0 → 1)")
                yield Sparkline([], id="confidence")
            with Vertical(classes="card", id="activity"):
                yield Label(f"Activity, last {ACTIVITY_DAYS} days")
            with Vertical(classes="card"):
                yield Label("", id="maintenance")

    def reload(self) -> None:
        self.in_background(self.memory.stats, self._show)
        self.in_background(lambda: SyncOverview.of(self.memory), self._show_sync)

    def synced(self, report: SyncReport) -> None:
        self.reload()  # the last sync, and whatever it brought in

    def action_reload(self) -> None:
        self.reload()

    def _show(self, stats: dict[str, Any]) -> None:
        now = self.lm.clock()
        counts = Text("Memories\n", style="bold")
        counts.append(f"{stats['active']} active, {stats['short_term']} in this session\n")
        by_status = status_counts_shown(stats["by_status"], stats["merged_away"])
        for title, figures in (("by type", stats["by_type"]), ("by status", by_status)):
            parts = ", ".join(f"{k} {v}" for k, v in sorted(figures.items()))
            counts.append(f"{title}: {parts or '-'}\n")
        counts.append(f"pending conflicts: {stats['pending_conflicts']}\n")
        counts.append(f"events: {stats['events']} · {stats['size_bytes'] / 1e6:.1f} MB\n")
        counts.append(f"embedder: {stats['embedder']}")
        self.query_one("#counts", Static).update(counts)

        latency = stats["recall_latency"]
        figures = Text("Recall latency\n", style="bold")
        figures.append(f"{latency['samples']} recalls measured\n")
        for name in ("total", "search", "embed"):
            figures.append(
                f"{name:>6}: p50 {_ms(latency[f'{name}_p50_ms'])}, "
                f"p95 {_ms(latency[f'{name}_p95_ms'])}\n"
            )
        if latency["model_loads"]:
            # apart from the figures above: a process pays it once, not every recall
            figures.append(
                f"  model load: p50 {_ms(latency['load_p50_ms'])}, "
                f"p95 {_ms(latency['load_p95_ms'])} ({latency['model_loads']} loads)\n"
            )
        self.query_one("#latency", Static).update(figures)

        capacity = stats["capacity"] or 0
        bar = self.query_one("#capacity", ProgressBar)
        if capacity:
            bar.update(total=capacity, progress=min(stats["active"], capacity))
            label = f"Capacity: {stats['active']} of {capacity} memories"
        else:
            bar.update(total=None)
            label = f"Capacity: unlimited ({stats['active']} memories)"
        if over := stats["over_capacity"]:
            # arrived by sync, which never archives: say what will
            label += f" · {over} over: maintenance (m) archives the {over} lowest-valued"
        if archived := stats["by_status"].get("expired", 0):
            # archived memories are kept until purged: say where they are
            label += f" · {archived} archived (Memories, s)"
        self.query_one("#capacity-label", Label).update(label)
        histogram = stats["confidence_histogram"]
        self.query_one("#confidence", Sparkline).data = histogram
        self._show_activity(stats["activity_by_day"], now)

        last = stats["last_maintenance"]
        when = "never" if not last else "just now" if now - last < 60 else f"{age(now - last)} ago"
        self.query_one("#maintenance", Label).update(
            f"Last maintenance: {when}  ·  press m to run it now"
        )

    def _show_sync(self, overview: SyncOverview) -> None:
        text = Text("Sync\n", style="bold")
        report = overview.status
        if report is None:
            text.append("Sync not set up — run `localmind sync init FOLDER`")
            self.query_one("#sync", Static).update(text)
            return
        self.lm.start_sync()  # joined since the app opened: start watching now
        now, sync = self.lm.clock(), self.lm.sync
        watching = "watching for changes" if sync.running else "not watching"
        text.append(f"folder: {report['folder']} · {watching}\n")
        pending = plural(report["pending_events"], "change")
        text.append(f"this device: {device_label(report)} · {pending} to export\n")
        for device in report["devices"]:
            seen = device["last_seen"]
            text.append(
                f"other device {device_label(device)}"
                f"{' (left the folder)' if device['left'] else ''}: last seen "
                f"{'never' if seen is None else ago(now - seen)}"
                f" · {plural(device['pending_segments'], 'file')} to import\n"
            )
        if not report["devices"]:
            text.append("no other laptop yet: run `localmind sync join FOLDER` on them\n")
        for advice in report["advice"]:
            text.append(advice + "\n", style="yellow")
        last = sync.last
        if last is None:
            text.append("last sync: not yet")
        else:
            text.append(f"last sync: {ago(now - last.at)} — ")
            text.append(last.summary(), style="" if last.ok else "bold red")
        self.query_one("#sync", Static).update(text)

    def _show_activity(self, activity: dict[str, dict[str, int]], now: float) -> None:
        box = self.query_one("#activity", Vertical)
        box.query(".activity-row").remove()
        days = last_days(now)
        for op in sorted(activity):
            counts = [activity[op].get(day, 0) for day in days]
            row = Horizontal(
                Label(f"{op:>10} {sum(counts):>4}"),
                Sparkline(counts),
                classes="activity-row",
            )
            box.mount(row)

    def action_maintain(self) -> None:
        self.query_one("#maintenance", Label).update("Maintenance running…")

        def done(report: MaintenanceReport) -> None:
            self.notify(
                f"Maintenance done: {report.expired} expired, "
                f"{report.archived} archived (importance decayed), "
                f"{report.confidence_decayed} with less confidence, {report.purged} purged"
                + (f"; {len(report.evicted)} over capacity archived." if report.evicted else ".")
            )
            self.reload()

        self.in_background(self.memory.maintain, done)

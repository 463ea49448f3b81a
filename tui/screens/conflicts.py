"""Memories that may contradict each other, side by side: keep the old one, take the new one,
keep both, or merge them into one text you write."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Label, Static

from localmind.lifecycle import Conflict, Resolution
from localmind.records import MemoryRecord
from localmind.terminal import printable
from tui.format import age, one_line, shown, word_diff
from tui.screens.base import Page
from tui.widgets.editor import EditorModal

#: Memory ids mean nothing to a person reading a reason; the old memory is shown beside it.


class ConflictsScreen(Page):
    PAGE = "conflicts"
    BINDINGS: ClassVar = [
        Binding("o", "resolve('keep_old')", "Keep old"),
        Binding("n", "resolve('take_new')", "Take new"),
        Binding("b", "resolve('keep_both')", "Keep both"),
        Binding("m", "merge", "Merge…"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.pending: dict[str, Conflict] = {}

    def body(self) -> ComposeResult:
        with Vertical(id="conflicts-page"):
            yield Label("", id="conflicts-count", classes="heading")
            yield DataTable(id="conflicts", cursor_type="row", zebra_stripes=True)
            with Horizontal(id="pair"):
                with Vertical(classes="side"):
                    yield Label("Old  (o keeps it)", classes="heading")
                    yield Static(id="old")
                with Vertical(classes="side"):
                    yield Label("New  (n takes it)", classes="heading")
                    yield Static(id="new")
            yield Static(id="why")

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_column("Sim", key="sim")
        table.add_column("Age", key="age")
        table.add_column("Old", key="old")
        table.add_column("New", key="new")
        table.focus()

    def reload(self) -> None:
        self.in_background(self.memory.conflicts, self._show)

    def _show(self, conflicts: list[Conflict]) -> None:
        table = self.query_one(DataTable)
        table.clear()
        self.pending = {str(c.id): c for c in conflicts}
        now = self.lm.clock()
        for c in conflicts:
            table.add_row(
                f"{c.similarity:.2f}",
                age(now - c.created_at),
                Text(one_line(c.existing.content, 50)),
                Text(one_line(c.candidate.content, 50)),
                key=str(c.id),
            )
        count = len(conflicts)
        self.query_one("#conflicts-count", Label).update(
            f"{count} pending conflict{'s' if count != 1 else ''}"
            if count
            else "No conflicts to review: nothing contradicts anything else."
        )
        self._show_pair()

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._show_pair()

    def selected(self) -> Conflict | None:
        table = self.query_one(DataTable)
        if not self.pending or table.row_count == 0:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return self.pending.get(key or "")

    def _show_pair(self) -> None:
        conflict = self.selected()
        old, new, why = (self.query_one(f"#{n}", Static) for n in ("old", "new", "why"))
        if conflict is None:
            for panel in (old, new, why):
                panel.update("")
            return
        old.update(shown(conflict.existing.content))
        new.update(shown(conflict.candidate.content))
        changes = word_diff(conflict.existing.content, conflict.candidate.content)
        why.update(
            Text.assemble(
                ("What changed: ", "bold"),
                changes,
                (f"\nWhy it is here: {printable(conflict.reason)}", "dim"),
            )
        )

    def action_resolve(self, resolution: str) -> None:
        conflict = self.selected()
        if conflict is None:
            self.notify("No conflict selected.", severity="warning")
            return
        self._resolve(conflict, Resolution(resolution), None)

    def action_merge(self) -> None:
        conflict = self.selected()
        if conflict is None:
            self.notify("No conflict selected.", severity="warning")
            return
        both = f"{conflict.existing.content}\n{conflict.candidate.content}"

        def merged(text: str | None) -> None:
            if text is not None:
                self._resolve(conflict, Resolution.MERGE, text)

        self.app.push_screen(EditorModal("Write the merged memory", both), merged)

    def _resolve(self, conflict: Conflict, resolution: Resolution, text: str | None) -> None:
        def done(record: MemoryRecord | None) -> None:
            kept = f": “{one_line(record.content, 50)}”" if record else ""
            self.notify(f"Resolved ({resolution.value.replace('_', ' ')}){kept}", markup=False)
            self.reload()

        self.in_background(
            lambda: self.memory.resolve_conflict(conflict.id, resolution, text), done
        )

"""A memory's versions, each with what changed since the one before; revert to any of them."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Footer, Label, Static

from localmind.records import MemoryRecord, Version
from tui.format import SECRET_MARK, age, one_line, shown, word_diff
from tui.widgets.table import Table

#: A secret's versions while the page hides it (leak11): the history is no way around r.
HIDDEN = f"{SECRET_MARK} •••••••• (a secret: r on the page shows it, then h)"


class HistoryModal(ModalScreen[int | None]):
    """Lists every version (the current one last). Returns the version to revert to, or None."""

    BINDINGS: ClassVar = [
        Binding("r", "revert", "Revert to this version"),
        Binding("escape", "close", "Close"),
    ]

    def __init__(
        self,
        record: MemoryRecord,
        versions: list[Version],
        clock: Callable[[], float],
        *,
        hidden: bool = False,
    ) -> None:
        """``hidden``: the memory is a secret the page hides; so are its versions' texts."""
        super().__init__()
        self.record = record
        self.hidden = hidden
        # (version, content, why it was replaced, when); the current version has no reason yet.
        self.rows: list[tuple[int, str, str, str]] = [
            (v.version, v.content, v.reason, age(clock() - v.replaced_at)) for v in versions
        ]
        self.rows.append((record.version, record.content, "current", ""))

    def compose(self) -> ComposeResult:
        with Vertical(id="history-dialog", classes="dialog"):
            yield Label(
                f"History of: {self._text(self.record.content, 60)}",
                classes="dialog-title",
                markup=False,
            )
            yield Table(id="versions", cursor_type="row", zebra_stripes=True)
            yield Label("Changes from the version before:", classes="dim")
            yield Static(id="diff")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_column("v", key="version")
        table.add_column("replaced", key="why")
        table.add_column("ago", key="ago")
        table.add_column("text", key="text")
        for version, content, why, ago in self.rows:
            table.add_row(
                str(version),
                Text(one_line(why)),
                ago,
                Text(self._text(content, 60)),
                key=str(version),
            )
        table.move_cursor(row=len(self.rows) - 1)
        table.focus()

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        index = event.cursor_row
        diff = self.query_one("#diff", Static)
        if self.hidden:  # the changed words are the secret's
            diff.update(Text(HIDDEN))
            return
        if index <= 0:
            diff.update(shown(self.rows[0][1]))
            return
        diff.update(word_diff(self.rows[index - 1][1], self.rows[index][1]))

    def _text(self, content: str, width: int) -> str:
        return one_line(HIDDEN if self.hidden else content, width)

    def action_revert(self) -> None:
        index = self.query_one(DataTable).cursor_row
        version = self.rows[index][0]
        if version == self.record.version:
            self.notify("That is the current version already.", severity="warning")
            return
        self.dismiss(version)

    def action_close(self) -> None:
        self.dismiss(None)

"""Every key, page by page (F1 or ?)."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Label, Static

from tui.screens.chat import ChatScreen
from tui.screens.conflicts import ConflictsScreen
from tui.screens.health import HealthScreen
from tui.screens.memories import MemoriesScreen
from tui.screens.profile import ProfileScreen

GLOBAL_KEYS = (
    ("F1  ?", "this help"),
    ("F2 … F6", "Chat · Memories · Conflicts · Profile · Health"),
    ("Ctrl+P", "command palette: every page and this page's actions by name"),
    ("Tab  Shift+Tab", "move between panels"),
    ("Ctrl+Q", "quit"),
)
PAGES: tuple[tuple[str, list[BindingType]], ...] = (
    ("Chat", ChatScreen.BINDINGS),
    ("Memories", MemoriesScreen.BINDINGS),
    ("Conflicts", ConflictsScreen.BINDINGS),
    ("Profile", ProfileScreen.BINDINGS),
    ("Health", HealthScreen.BINDINGS),
)


def keys_of(binding: Binding) -> str:
    """A binding's keys as the help and the command palette show them: ``/  Del``."""
    names = {"slash": "/", "delete": "Del", "question_mark": "?", "space": "Space", "tab": "Tab"}
    keys = (k.strip() for k in binding.key.split(","))
    # ctrl+s as the help's own lines write it (Ctrl+S)
    return "  ".join(
        names.get(k, "Ctrl+" + k[5:].upper() if k.startswith("ctrl+") else k) for k in keys
    )


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar = [Binding("escape,q,f1", "close", "Close")]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-dialog", classes="dialog"):
            yield Label("localmind — keys", classes="dialog-title")
            yield Static(self._table())
        yield Footer()

    @staticmethod
    def _table() -> Table:
        table = Table(box=None, show_header=False, padding=(0, 2))
        table.add_column(style="bold")
        table.add_column()
        table.add_row("Everywhere", "", style="underline")
        for key, what in GLOBAL_KEYS:
            table.add_row(key, what)
        for page, bindings in PAGES:
            table.add_row("", "")
            table.add_row(page, "", style="underline")
            for binding in bindings:
                # every key a page has, also those its footer leaves out for room
                if isinstance(binding, Binding) and binding.description:
                    # the tooltip: what a footer's short word means, when it has one
                    table.add_row(keys_of(binding), binding.tooltip or binding.description)
        table.add_row("", "")
        table.add_row("Editor", "Ctrl+S saves · Esc cancels")
        table.add_row("History", "r reverts to the selected version · Esc closes")
        return table

    def action_close(self) -> None:
        self.dismiss(None)

"""The navigation bar at the top of every screen and the status bar above the footer."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

#: (mode, key, label) in the order the navigation bar shows them.
PAGES = (
    ("chat", "F2", "Chat"),
    ("memories", "F3", "Memories"),
    ("conflicts", "F4", "Conflicts"),
    ("profile", "F5", "Profile"),
    ("health", "F6", "Health"),
)


class NavBar(Static):
    """Where you are, and the keys to go elsewhere."""

    def __init__(self, current: str) -> None:
        super().__init__()
        self.current = current

    def on_mount(self) -> None:
        text = Text(" localmind ", style="bold reverse")
        for mode, key, label in PAGES:
            text.append("  ")
            text.append(f" {key} {label} ", style="bold reverse" if mode == self.current else "")
        self.update(text)


class StatusBar(Static):
    """Store path · memory count · pending conflicts · the model (or why there is none)."""

    def on_mount(self) -> None:
        self.watch(self.app, "status_text", self._show)

    def _show(self, text: str) -> None:
        self.update(Text(text))

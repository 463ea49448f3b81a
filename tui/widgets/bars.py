"""The navigation bar at the top of every screen and the status bar above the footer."""

from __future__ import annotations

from rich.cells import cell_len
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

    def on_resize(self) -> None:
        self._show(str(getattr(self.app, "status_text", "")))

    def _show(self, text: str) -> None:
        self.update(Text(fit_status(text, self.content_region.width)))


def fit_status(text: str, width: int) -> str:
    """``text`` within ``width`` cells: a long store path gives way first (its start, then all
    but the file name, then all of it), so the counts after it stay in view at 80 columns."""
    path, _, rest = text.partition(" · ")
    room = width - cell_len(rest) - len(" · ")
    if width <= 0 or not rest or cell_len(path) <= room:
        return text
    name = path.rsplit("/", 1)[-1]
    if room > len(name) + 1:
        return f"…{path[-(room - 1) :]} · {rest}"
    return f"{name} · {rest}" if room >= len(name) else rest

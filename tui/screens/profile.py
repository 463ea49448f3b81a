"""The user profile the assistant is given: the current text, every earlier version, and a key
to rebuild it now."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Label, Static

from localmind.profile import Profile
from tui.format import age, shown
from tui.screens.base import Page
from tui.widgets.table import Table


class ProfileScreen(Page):
    PAGE = "profile"
    BINDINGS: ClassVar = [Binding("r", "rebuild", "Rebuild")]

    def __init__(self) -> None:
        super().__init__()
        self.versions: dict[str, Profile] = {}

    def body(self) -> ComposeResult:
        with Horizontal(id="profile-page"):
            with Vertical(id="profile-current"):
                yield Label("", id="profile-title", classes="heading")
                yield Static(id="profile-text")
            with Vertical(id="profile-versions"):
                yield Label("Versions", classes="heading")
                yield Table(id="profiles", cursor_type="row")

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        for key in ("v", "how", "ago"):
            table.add_column(key, key=key)
        table.focus()

    def reload(self) -> None:
        self.in_background(self.memory.profile_history, self._show)

    def _show(self, history: list[Profile]) -> None:
        table = self.query_one(DataTable)
        table.clear()
        now = self.lm.clock()
        newest_first = sorted(history, key=lambda p: p.version, reverse=True)
        self.versions = {str(p.version): p for p in newest_first}
        for p in newest_first:
            table.add_row(str(p.version), p.method, age(now - p.at), key=str(p.version))
        if not history:
            self.query_one("#profile-title", Label).update("No profile yet")
            self.query_one("#profile-text", Static).update(
                Text("Press r to build one from your memories.", style="dim")
            )

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        key = event.row_key.value
        profile = self.versions.get(key or "")
        if profile is None:
            return
        newest = max(int(v) for v in self.versions)
        label = "current" if profile.version == newest else "earlier"
        self.query_one("#profile-title", Label).update(
            f"Profile version {profile.version} ({label}; {profile.method}, "
            f"from {len(profile.built_from)} memories)"
        )
        self.query_one("#profile-text", Static).update(shown(profile.text))

    def action_rebuild(self) -> None:
        self.query_one("#profile-title", Label).update("Rebuilding the profile…")

        def rebuilt(profile: Profile | None) -> None:
            if profile is None:
                self.notify("No memories to build a profile from yet.", severity="warning")
            else:
                self.notify(f"Profile rebuilt: version {profile.version} ({profile.method}).")
            self.reload()

        self.in_background(lambda: self.memory.profile(rebuild=True), rebuilt)

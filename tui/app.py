"""The localmind TUI: wiring only. Unlock, then pages (modes) for chat, memories, conflicts,
profile and health; a status bar; help and the command palette."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, ClassVar

from textual import work
from textual.app import App
from textual.binding import Binding
from textual.reactive import reactive
from textual.screen import Screen

from localmind.embedders.base import Embedder
from localmind.keys import KdfParams
from localmind.llm.base import LLM
from localmind.memory import Memory
from localmind.paths import default_db_path
from localmind.session import Session
from tui.backend import Clock, StoreOptions
from tui.commands import LocalmindCommands
from tui.format import plural
from tui.screens.chat import ChatScreen
from tui.screens.conflicts import ConflictsScreen
from tui.screens.health import HealthScreen
from tui.screens.help import HelpScreen
from tui.screens.memories import MemoriesScreen
from tui.screens.profile import ProfileScreen
from tui.screens.unlock import UnlockScreen

#: Actions that need an unlocked store (hidden and refused before).
_NEEDS_STORE = {"go", "help"}


class LocalmindApp(App[None]):
    CSS_PATH = "app.tcss"
    TITLE = "localmind"
    MODES: ClassVar = {
        "chat": ChatScreen,
        "memories": MemoriesScreen,
        "conflicts": ConflictsScreen,
        "profile": ProfileScreen,
        "health": HealthScreen,
    }
    BINDINGS: ClassVar = [
        Binding("f1", "help", "Help"),
        Binding("question_mark", "help", "Help", show=False),
        Binding("f2", "go('chat')", "Chat", show=False),
        Binding("f3", "go('memories')", "Memories", show=False),
        Binding("f4", "go('conflicts')", "Conflicts", show=False),
        Binding("f5", "go('profile')", "Profile", show=False),
        Binding("f6", "go('health')", "Health", show=False),
        Binding("ctrl+q", "quit", "Quit"),
    ]
    COMMANDS = App.COMMANDS | {LocalmindCommands}

    status_text: reactive[str] = reactive("")

    def __init__(
        self,
        db_path: str | Path | None = None,
        *,
        llm: LLM | None = None,
        clock: Clock = time.time,
        passphrase: str | None = None,
        kdf: KdfParams | None = None,
        namespace: str = "me",
        embedder: Embedder | str | None = None,
    ) -> None:
        """``passphrase``: unlock with it at once (no unlock screen). ``kdf``: the key
        derivation cost when creating a store (tests pass a cheap one)."""
        super().__init__()
        path = Path(db_path).expanduser() if db_path is not None else default_db_path()
        self.options = StoreOptions(path, namespace, embedder, llm, clock, kdf)
        self.passphrase = passphrase
        self.memory: Memory | None = None
        self.session: Session | None = None

    @property
    def llm(self) -> LLM | None:
        return self.options.llm

    @property
    def clock(self) -> Clock:
        return self.options.clock

    @property
    def display_path(self) -> str:
        path, home = str(self.options.path), str(Path.home())
        return "~" + path[len(home) :] if path.startswith(home + "/") else path

    def get_default_screen(self) -> Screen[Any]:
        return UnlockScreen()

    def unlocked(self, memory: Memory) -> None:
        self.memory = memory
        self.passphrase = None
        self.session = Session(memory, self.llm)
        self.refresh_status()
        self.switch_mode("chat")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.memory is not None or action not in _NEEDS_STORE

    # --- navigation ---------------------------------------------------------------------------

    def action_go(self, page: str) -> None:
        self.switch_mode(page)

    async def go(self, page: str, action: str | None = None) -> None:
        """Show ``page`` and, optionally, run one of its actions (for the command palette)."""
        await self.switch_mode(page)
        if action is not None:
            await self.screen.run_action(action)

    def action_help(self) -> None:
        self.push_screen(HelpScreen())

    async def show_help(self) -> None:
        self.action_help()

    # --- the status bar -----------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="status")
    def refresh_status(self) -> None:
        memory, llm = self.memory, self.llm
        if memory is None:
            return
        count, pending = memory.count(), memory.pending_conflicts()
        if llm is None:
            model = "LLM off"
        else:
            model = f"LLM {llm.model}" if llm.available() else "LLM offline"
        parts = [self.display_path, f"{count} memories"]
        if pending:
            parts.append(f"{plural(pending, 'conflict')} to review (F4)")
        parts.append(model)
        self.call_from_thread(setattr, self, "status_text", " · ".join(parts))

    def on_unmount(self) -> None:
        if self.memory is not None:
            self.memory.close()
            self.memory = None

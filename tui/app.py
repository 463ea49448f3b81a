"""The localmind TUI: wiring only. Unlock, then pages (modes) for chat, memories, conflicts,
profile and health; a status bar; help and the command palette."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any, ClassVar

import rich
from rich.segment import Segments
from rich.traceback import Traceback
from textual import work
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.reactive import reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.worker import Worker

from localmind.chat import Session
from localmind.configuration import Configuration
from localmind.embedders.base import Embedder, warm_up
from localmind.errors import LocalmindError
from localmind.keys import KdfParams
from localmind.llm.base import LLM
from localmind.memory import Memory
from localmind.paths import default_db_path
from sync.folder import joined_folder
from sync.watch import SyncReport, watch
from tui.backend import Clock, StoreOptions
from tui.commands import LocalmindCommands
from tui.format import plural
from tui.screens.base import Page
from tui.screens.chat import ChatScreen
from tui.screens.conflicts import ConflictsScreen, Waiting, settle_all
from tui.screens.health import HealthScreen
from tui.screens.help import HelpScreen
from tui.screens.memories import UNDO_WINDOW_S, MemoriesScreen
from tui.screens.profile import ProfileScreen
from tui.screens.unlock import UnlockScreen
from tui.status import status_counts
from tui.syncing import STOP_WAIT_S, SyncReported, SyncState

#: Actions that need an unlocked store (hidden and refused before).
_NEEDS_STORE = {"go", "help"}
#: How often the app looks whether another program (the CLI, MCP) wrote to the store.
STORE_POLL_S = 1.0


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
        configuration: Configuration | None = None,
    ) -> None:
        """``passphrase``: unlock with it at once (no unlock screen). ``kdf``: the key
        derivation cost when creating a store (tests pass a cheap one). ``configuration``: the
        rest of the person's configuration (its embedder, its numbers)."""
        super().__init__()
        path = Path(db_path).expanduser() if db_path is not None else default_db_path()
        chosen = configuration or Configuration()
        self.options = StoreOptions(path, namespace, embedder, llm, clock, kdf, chosen)
        self.passphrase = passphrase
        self.memory: Memory | None = None
        self.session: Session | None = None
        # Forgets waiting out their undo window (memory id -> the timer that carries them out).
        self.pending_forgets: dict[str, Timer] = {}
        # conflict resolutions in their undo window (the Conflicts page)
        self.waiting_resolutions: list[Waiting] = []
        self.sync = SyncState()
        self._sync_worker: Worker[None] | None = None
        self._store_poll: Timer | None = None
        self._store_version: int | None = None
        self._store_poller: Worker[None] | None = None

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
        # Where the store stands now: a write elsewhere before the first poll must count as
        # a change (the first poll can come late while the model loads).
        self._store_version = memory.data_version()
        self.passphrase = None
        self.session = Session(memory, self.llm)
        self._load_model()
        self.refresh_status()
        self.start_sync()
        self._store_poll = self.set_interval(STORE_POLL_S, self._poll_store)
        self.switch_mode("chat")

    def _fatal_error(self) -> None:
        """Textual's own, less each frame's local variables (leak11): its crash report printed
        them (a memory's text, a secret the page hid, the passphrase being typed) to the
        terminal, where they stay in the scrollback and go into a pasted bug report."""
        self.bell()
        report = Traceback(show_locals=False, width=None, suppress=[rich])
        self._exit_renderables.append(Segments(self.console.render(report, self.console.options)))
        self._close_messages_no_wait()

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        # Textual's "Keys" (a panel of the focused widget's keys) next to ours (every key of
        # every page) listed "Keys" twice: ours stays.
        return (c for c in super().get_system_commands(screen) if c.title != "Keys")

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
        counts = status_counts(memory, list(self.pending_forgets), self._settling())
        if llm is None:
            model = "LLM off"
        else:
            model = f"LLM {llm.model}" if llm.available() else "LLM offline"
        parts = [self.display_path, plural(counts.stored, "memory", "memories")]
        if counts.session:
            parts[-1] += f" + {counts.session} this session"
        if counts.conflicts:
            parts.append(f"{plural(counts.conflicts, 'conflict')} to review (F4)")
        parts.append(model)
        self.call_from_thread(setattr, self, "status_text", " · ".join(parts))

    def _settling(self) -> list[int]:
        """Conflicts whose resolution waits out its undo window or is being written (the page
        hides them; a batch leaves the list once written)."""
        return [cid for batch in self.waiting_resolutions for cid in batch.settles]

    # --- the embedding model -------------------------------------------------------------------

    @work(thread=True, group="model", exit_on_error=False)
    def _load_model(self) -> None:
        """Load the embedding model in the background: the pages show the store at once, and
        the first search or chat turn finds the model loaded (or waits for it, never twice).
        A model that cannot load says so when a page first needs it. Through the embedder, not
        the store: it touches no table, so it must not hold the store's lock meanwhile."""
        if self.memory is not None:
            with contextlib.suppress(Exception):
                warm_up(self.memory.embedder)

    # --- sync ---------------------------------------------------------------------------------

    def start_sync(self) -> None:
        """Keep the store in sync with its folder while the app runs, if it has joined one
        (checked in the worker). Again after ``sync join`` elsewhere: the Health page asks."""
        if self.memory is None or self.sync.stop.is_set():
            return
        if self._sync_worker is not None and not self._sync_worker.is_finished:
            return
        self._sync_worker = self._watch_folder()

    @work(thread=True, group="sync", exit_on_error=False)
    def _watch_folder(self) -> None:
        self.sync.running = True  # before looking at stop: see SyncState
        self.sync.stopped.clear()
        try:
            memory = self.memory
            if memory is None or self.sync.stop.is_set():
                return
            folder = joined_folder(memory)
            if folder is not None:
                watch(memory, folder, self.sync.stop, self._post_sync_report, clock=self.clock)
        finally:
            self.sync.running = False
            self.sync.stopped.set()

    def _post_sync_report(self, report: SyncReport) -> None:
        with contextlib.suppress(RuntimeError):  # the app's event loop is gone: quitting
            self.post_message(SyncReported(report))

    def on_sync_reported(self, message: SyncReported) -> None:
        report = self.sync.last = message.report
        if report.imported.memories:
            self.refresh_status()
        if isinstance(self.screen, Page):
            self.screen.synced(report)

    # --- writes by other programs -------------------------------------------------------------

    def _poll_store(self) -> None:
        # One look at a time: a long chat turn holds the store, and looks must not pile up.
        if self._store_poller is None or self._store_poller.is_finished:
            self._store_poller = self._look_at_store()

    @work(thread=True, group="store-poll", exit_on_error=False)
    def _look_at_store(self) -> None:
        """Show what the CLI or the MCP server wrote: SQLite's data_version moves only on
        another connection's commit (our own writes, and sync's, already refresh)."""
        memory = self.memory
        if memory is None:
            return
        version = memory.data_version()
        if self._store_version is not None and version != self._store_version:
            self.call_from_thread(self._store_changed)
        self._store_version = version

    def _store_changed(self) -> None:
        self.refresh_status()
        if isinstance(self.screen, Page):  # a dialog on top: its page reloads when it closes
            self.screen.reload()

    # --- forgetting, with a window to undo ------------------------------------------------------

    def forget_later(self, memory_id: str) -> None:
        """Forget ``memory_id`` once the undo window has passed (or the page is left, or the
        app quits). A forget erases the memory's history for good, so undo must come before
        it, not after: an undone forget leaves the memory exactly as it was, id and history."""
        self.pending_forgets[memory_id] = self.set_timer(
            UNDO_WINDOW_S, lambda: self.forget_pending(memory_id)
        )
        self.refresh_status()

    def cancel_forget(self, memory_id: str) -> bool:
        """Take back a forget still in its window; False when it has been carried out."""
        timer = self.pending_forgets.pop(memory_id, None)
        if timer is not None:
            timer.stop()
            self.refresh_status()
        return timer is not None

    def forget_pending(self, memory_id: str | None = None) -> None:
        """Carry out one waiting forget now, or all of them (in a thread: the write may wait
        for another program's lock)."""
        ids = [memory_id] if memory_id else list(self.pending_forgets)
        for pending in ids:
            if (timer := self.pending_forgets.pop(pending, None)) is not None:
                timer.stop()
                self._forget(pending)

    @work(thread=True, group="forget")
    def _forget(self, memory_id: str) -> None:
        try:
            if self.memory is not None:
                self.memory.forget(memory_id)
        except LocalmindError as error:
            self.call_from_thread(self.notify, str(error), severity="error", markup=False)
        else:
            self.call_from_thread(self.refresh_status)

    async def on_unmount(self) -> None:
        if self._store_poll is not None:
            self._store_poll.stop()
        ids, self.pending_forgets = list(self.pending_forgets), {}
        if ids and self.memory is not None:  # quitting inside the window still forgets
            await asyncio.to_thread(_forget_all, self.memory, ids)
        waiting = [batch for batch in self.waiting_resolutions if not batch.done]
        self.waiting_resolutions = []
        if waiting and self.memory is not None:  # and still settles
            await asyncio.to_thread(settle_all, self.memory, waiting)
        self.sync.stop.set()
        if self.sync.running:  # a sync in progress ends its transaction before the store closes
            await asyncio.to_thread(self.sync.stopped.wait, STOP_WAIT_S)
        if self.memory is not None:
            self.memory.close()
            self.memory = None


def _forget_all(memory: Memory, ids: list[str]) -> None:
    for memory_id in ids:
        with contextlib.suppress(LocalmindError):  # e.g. already forgotten by a sync
            memory.forget(memory_id)

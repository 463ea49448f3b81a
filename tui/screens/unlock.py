"""Unlock the store with its passphrase, or create a new one (passphrase twice)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, cast

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Input, Label, LoadingIndicator, Static

from localmind.errors import LocalmindError, WrongPassphrase
from localmind.memory import Memory
from localmind.remembered_key import remembered_data_key

if TYPE_CHECKING:
    from tui.app import LocalmindApp


class UnlockScreen(Screen[None]):
    BINDINGS: ClassVar = [Binding("ctrl+c", "app.quit", "Quit", show=False, priority=True)]

    def __init__(self) -> None:
        super().__init__()
        self.creating = False
        self.busy = False

    @property
    def lm(self) -> LocalmindApp:
        return cast("LocalmindApp", self.app)

    def compose(self) -> ComposeResult:
        path = self.lm.display_path
        self.creating = not self.lm.options.exists()
        problem = None if self.creating else self.lm.options.problem()
        with Center(), Vertical(id="unlock-dialog", classes="dialog"):
            yield Static("localmind", id="unlock-title")
            if problem is not None:  # no passphrase can open it: say so before asking
                yield Label(f"Cannot open {path}", markup=False)
                yield Label(problem, id="unlock-message", markup=False)
                yield Label("Ctrl+Q quits.", classes="dim")
                return
            if self.creating:
                yield Label(
                    f"No store at {path} yet: choose a passphrase to create it.", markup=False
                )
                yield Label("It cannot be recovered if you lose it.", classes="warning")
            else:
                yield Label(f"Unlock {path}", markup=False)
            yield Input(placeholder="Passphrase", password=True, id="passphrase")
            if self.creating:
                yield Input(placeholder="The same passphrase again", password=True, id="again")
            yield Label("", id="unlock-message")
            yield LoadingIndicator(id="unlocking")
        yield Footer()

    def on_mount(self) -> None:
        if not self.query("#passphrase"):
            return  # the store cannot be opened (see compose)
        self.query_one("#unlocking").display = False
        self.query_one("#passphrase", Input).focus()
        if self.lm.passphrase is not None:
            self._start(self.lm.passphrase)
        elif not self.creating and (key := remembered_data_key(self.lm.options.path)):
            self._start("", key)  # `localmind unlock --remember` kept it in the OS keyring

    def say(self, message: str) -> None:
        self.query_one("#unlock-message", Label).update(Text(message))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if self.busy:
            return
        first = self.query_one("#passphrase", Input)
        if not self.creating:
            self._start(first.value)
            return
        again = self.query_one("#again", Input)
        if event.input is first:
            if not first.value:
                self.say("Choose a passphrase (it cannot be empty).")
                return
            again.focus()
            return
        if not first.value:
            self.say("Choose a passphrase (it cannot be empty).")
            first.focus()
        elif first.value != again.value:
            self.say("The two passphrases differ: type them again.")
            first.value = again.value = ""
            first.focus()
        else:
            self._start(first.value)

    def _start(self, passphrase: str, data_key: bytes | None = None) -> None:
        self.busy = True
        self.say("Creating the store…" if self.creating else "Unlocking…")
        for field in self.query(Input):
            field.disabled = True
        self.query_one("#unlocking").display = True
        self.unlock(passphrase, data_key)

    @work(thread=True, exclusive=True, group="unlock")
    def unlock(self, passphrase: str, data_key: bytes | None = None) -> None:
        try:
            memory = self.lm.options.open(passphrase, create=self.creating, data_key=data_key)
        except WrongPassphrase as error:
            why = str(error) if data_key is not None else "Wrong passphrase: try again."
            self.app.call_from_thread(self._failed, why)
        except LocalmindError as error:
            self.app.call_from_thread(self._failed, str(error))
        else:
            self.app.call_from_thread(self._opened, memory)

    def _failed(self, message: str) -> None:
        self.busy = False
        self.query_one("#unlocking").display = False
        for field in self.query(Input):
            field.disabled = False
            field.value = ""
        self.say(message)
        self.query_one("#passphrase", Input).focus()

    def _opened(self, memory: Memory) -> None:
        self.lm.unlocked(memory)

"""Add a memory from the app (Memories ``a``, Chat ``ctrl+s``): a modal to write it and pick its
type, stored through the same facade call as the CLI's ``add`` (so it is judged: merged, queued
against a memory it may contradict, kept secret), and the outcome told in plain words."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Label, Select, TextArea

from localmind.lifecycle import Conflict, Decision, Outcome
from localmind.records import MemoryType
from localmind.writing import TOLD_AGAIN
from tui.format import archived_note, one_line
from tui.widgets.editor import TextEditor

if TYPE_CHECKING:
    from tui.screens.base import Page

#: What the app stores (short-term memories live in a chat session only); a fact about the
#: person is what someone types most, so semantic comes first and is the default.
ADDED_TYPES = (MemoryType.SEMANTIC, MemoryType.EPISODIC, MemoryType.LONG_TERM)
TYPE_HINTS = {
    MemoryType.SEMANTIC: "semantic · a fact about you",
    MemoryType.EPISODIC: "episodic · something that happened",
    MemoryType.LONG_TERM: "long_term · anything else worth keeping",
}
#: Where a queued memory is settled (the page and its key).
SEE_CONFLICTS = "see Conflicts (F4)"


@dataclass(frozen=True, slots=True)
class NewMemory:
    text: str
    type: MemoryType


class AddModal(ModalScreen[NewMemory | None]):
    """Returns the memory to add, or None when cancelled or left empty."""

    BINDINGS: ClassVar = [
        Binding("ctrl+s", "save", "Save"),
        Binding("escape", "cancel", "Cancel"),
    ]

    def __init__(self, text: str = "", title: str = "Add a memory") -> None:
        super().__init__()
        self.text = text
        self.title_text = title

    def compose(self) -> ComposeResult:
        with Vertical(id="add-dialog", classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            with Horizontal(id="add-type-row"):
                yield Label("Type ", classes="dim")
                yield Select(
                    [(TYPE_HINTS[t], t) for t in ADDED_TYPES],
                    value=MemoryType.SEMANTIC,
                    allow_blank=False,
                    id="add-type",
                )
            yield TextEditor(self.text, id="add-text", soft_wrap=True, show_line_numbers=False)
            yield Label(
                "Ctrl+S saves · Esc cancels · Tab moves to the type",
                classes="dim",
            )
        yield Footer()

    def on_mount(self) -> None:
        editor = self.query_one("#add-text", TextArea)
        editor.focus()
        editor.move_cursor(editor.document.end)

    def action_save(self) -> None:
        text = self.query_one("#add-text", TextArea).text.strip()
        kind = self.query_one("#add-type", Select).value
        assert isinstance(kind, MemoryType)
        self.dismiss(NewMemory(text, kind) if text else None)

    def action_cancel(self) -> None:
        self.dismiss(None)


def added_note(outcome: Outcome, pending: list[Conflict]) -> tuple[str, bool]:
    """What the app says once a memory was added, and whether it needs a look (a warning):
    the same judgement the CLI's ``add`` reports, in the app's words. A secret's text is never
    repeated (someone may be looking over the person's shoulder)."""
    record, related = outcome.record, outcome.related
    what = "a secret" if record.secret else f"“{one_line(record.content, 60)}”"
    other = f"“{one_line(related.content, 40)}”" if related and not related.secret else "another"
    warn = False
    if outcome.decision is Decision.REINFORCED:
        note = f"Already remembered: {what}; confidence now {record.confidence:.2f}."
    elif outcome.decision is Decision.MERGED:
        note = f"Remembered: it says the same as {what}, merged into it."
    elif outcome.decision is Decision.OVERWRITTEN:
        note = f"Remembered: {what} is now version {record.version} (it replaced the old text)."
    elif outcome.decision is Decision.QUEUED and outcome.reason.startswith(TOLD_AGAIN):
        note = f"Remembered {what}, not as the current fact ({outcome.reason}): {SEE_CONFLICTS}."
        warn = True
    elif outcome.decision is Decision.QUEUED:
        number = f"#{outcome.conflict_id} " if outcome.conflict_id is not None else ""
        note = f"Remembered {what}; it may contradict {number}{other}: {SEE_CONFLICTS}."
        warn = True
    else:
        note = f"Remembered {what} ({record.type})."
    for waiting in pending[:1]:
        note += (
            f" It is in pending conflict #{waiting.id}: telling it again does not settle that;"
            f" {SEE_CONFLICTS}."
        )
        warn = True
    if record.secret:
        note += " Kept secret: it looks like a password, PIN, key or code, so it is never sent"
        note += " to an assistant."
        warn = True
    if outcome.evicted:
        note += f" {archived_note(len(outcome.evicted)).capitalize()}."
    return note, warn


def add_memory(
    page: Page, text: str = "", *, done: Callable[[Outcome], object] | None = None
) -> None:
    """Ask for a memory (``text`` to start from) and store it in a worker, as ``localmind add``
    would; then tell the outcome and call ``done``. Nothing is stored unless the person saves."""

    def save(new: NewMemory | None) -> None:
        if new is None:
            return
        memory = page.memory

        def store() -> tuple[Outcome, list[Conflict]]:
            # typed by hand in the dialog: the person says it again on purpose (what stays
            # forgotten is a text a file or an assistant brings back)
            outcome = memory.remember_explained(new.text, type=new.type, allow_forgotten=True)
            return outcome, memory.still_pending(outcome)

        def stored(result: tuple[Outcome, list[Conflict]]) -> None:
            outcome, pending = result
            note, warn = added_note(outcome, pending)
            page.notify(note, severity="warning" if warn else "information", markup=False)
            if done is not None:
                done(outcome)

        page.in_background(store, stored)

    page.app.push_screen(AddModal(text), save)

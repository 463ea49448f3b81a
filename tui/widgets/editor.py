"""A modal text editor: correct a memory, or write the merged text of a conflict."""

from __future__ import annotations

from typing import ClassVar

from rich.segment import Segment
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.strip import Strip
from textual.widgets import Footer, Label, TextArea

from localmind.terminal import without_controls


class TextEditor(TextArea):
    """A TextArea that never draws a control character: TextArea passes an ESC in the text to
    the terminal as it is (a memory's ``\\x1b[2J`` would clear the screen while it is being
    corrected). The text edited and saved is unchanged."""

    def render_line(self, y: int) -> Strip:
        strip = super().render_line(y)
        return Strip(
            [Segment(without_controls(s.text), s.style, s.control) for s in strip],
            strip.cell_length,
        )


class EditorModal(ModalScreen[str | None]):
    """Returns the edited text (stripped), or None when cancelled or left empty."""

    BINDINGS: ClassVar = [
        Binding("ctrl+s", "save", "Save"),
        Binding("escape", "cancel", "Cancel"),
    ]

    def __init__(self, title: str, text: str) -> None:
        super().__init__()
        self.title_text = title
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical(id="editor-dialog", classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            yield TextEditor(self.text, id="editor", soft_wrap=True, show_line_numbers=False)
            yield Label("Ctrl+S saves · Esc cancels", classes="dim")
        yield Footer()

    def on_mount(self) -> None:
        editor = self.query_one(TextArea)
        editor.focus()
        editor.move_cursor(editor.document.end)

    def action_save(self) -> None:
        text = self.query_one(TextArea).text.strip()
        self.dismiss(text or None)

    def action_cancel(self) -> None:
        self.dismiss(None)

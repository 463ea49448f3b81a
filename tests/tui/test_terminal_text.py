"""Memory text in the app is shown, never obeyed: terminal escape sequences appear as visible
escapes and Textual markup in a memory is never interpreted (issue 18 item 7)."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import DataTable, Static, TextArea

from localmind import Memory
from tests.conftest import FAST_KDF, PASSPHRASE, FakeClock
from tests.tui.conftest import make_app, settle
from tui.screens.memories import MemoriesScreen
from tui.widgets.editor import EditorModal
from tui.widgets.history import HistoryModal

# An OSC 52 clipboard write, a screen clear, a bidi override, and markup: an action link and
# an unbalanced closing tag (which markup parsing refuses with an error).
EVIL = "[/bold] [@click=app.quit]quit[/] Note \x1b]52;c;cm0gLXJmIH4=\x07 \x1b[2J \u202eevil\u202c"
RAW = ("\x1b", "\x07", "\u202e", "\u202c")


def visible(widget: Static | DataTable[object] | TextArea) -> str:
    """What the widget puts on screen, as plain text."""
    return "\n".join(strip.text for strip in widget.render_lines(widget.region.reset_offset))


async def test_escape_sequences_and_markup_in_a_memory_are_shown_as_text(
    store_path: Path, clock: FakeClock
) -> None:
    with Memory.open(store_path, PASSPHRASE, kdf=FAST_KDF, clock=clock) as memory:
        record = memory.remember(EVIL)
        memory.update(record.id, content=EVIL + " again")
    app = make_app(store_path, clock)
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        await pilot.press("f3")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, MemoriesScreen)
        # Its odd characters make it look like a password: it is masked until revealed, and a
        # revealed text is drawn as safely as any other.
        await pilot.press("r")
        await settle(pilot)
        table = screen.query_one("#memories", DataTable)
        detail = screen.query_one("#detail", Static)
        row = visible(table)
        assert not any(char in row for char in RAW)
        assert "quit[/] Note \\u001b]52;c;" in row  # (the row is cut at the column's width)
        shown = visible(detail)
        assert not any(char in shown for char in RAW)
        assert "\\u001b]52;c;cm0gLXJmIH4=\\u0007" in shown
        assert "[/bold] [@click=app.quit]quit[/]" in shown  # markup shown as typed

        await pilot.press("h")  # the history: title, versions and the diff
        await settle(pilot)
        modal = app.screen
        assert isinstance(modal, HistoryModal)
        diff = visible(modal.query_one("#diff", Static))
        assert "\\u202eevil\\u202c" in diff and "\u202e" not in diff
        await pilot.press("escape")
        await settle(pilot)

        # the history hid it again on the way, and the editor waits for r (leak11)
        await pilot.press("r", "e")  # the correction editor draws the text without its controls
        await pilot.pause()
        assert isinstance(app.screen, EditorModal)
        editor = app.screen.query_one(TextArea)
        assert editor.text == EVIL + " again"  # edited as it is stored
        drawn = visible(editor)
        assert not any(char in drawn for char in RAW)
        assert "Note ]52;c;cm0gLXJmIH4=" in drawn
        await pilot.press("escape")
        await settle(pilot)

        await pilot.press("r")  # (the editor hid it again on the way)
        await pilot.press("x")  # forget: the notification quotes the memory
        await settle(pilot)
        assert any("[@click=app.quit]" in n.message for n in app._notifications)
        await pilot.pause(0.2)  # the toast is rendered: no markup error, no action run
        assert app.is_running and app.return_code is None

"""Adding a memory from the app without a model (review10 F29): Memories ``a`` opens a dialog
whose memory is judged as ``localmind add`` judges it; Chat ``ctrl+s`` offers the last message
the same way; nothing is stored unless the person saves."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Select, TextArea

from localmind import Memory
from localmind.records import MemoryRecord, MemoryType
from tests.cli_support import Cli
from tests.conftest import FAST_KDF, PASSPHRASE, FakeClock
from tests.tui.conftest import make_app, settle
from tests.tui.test_chat import say
from tui.app import LocalmindApp
from tui.format import SECRET_MARK
from tui.screens.memories import EMPTY, MemoriesScreen
from tui.widgets.adding import AddModal

BERLIN = "I live in Berlin and I have a cat named Pixel."


def empty_store(path: Path, clock: FakeClock) -> None:
    with Memory.open(path, PASSPHRASE, kdf=FAST_KDF, clock=clock):
        pass


def notes(app: LocalmindApp) -> list[str]:
    return [n.message for n in app._notifications]


def stored(app: LocalmindApp) -> list[MemoryRecord]:
    """What stays after the app quits (a chat's own messages live in its session only)."""
    assert app.memory is not None
    return [m for m in app.memory.list_memories() if m.type is not MemoryType.SHORT_TERM]


async def write_and_save(pilot: Pilot[None], text: str, kind: MemoryType | None = None) -> None:
    """In the open add dialog: write ``text`` (in place of what it holds), pick ``kind``, save."""
    modal = pilot.app.screen
    assert isinstance(modal, AddModal)
    modal.query_one("#add-text", TextArea).text = text
    if kind is not None:
        modal.query_one("#add-type", Select).value = kind
    await pilot.press("ctrl+s")
    await settle(pilot)


async def test_a_memory_added_on_the_memories_page_is_stored_and_listed(
    store_path: Path, clock: FakeClock
) -> None:
    empty_store(store_path, clock)
    app = make_app(store_path, clock)  # no model
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("f3")
        await settle(pilot)
        assert EMPTY in str(app.screen.query_one("#detail").render())
        await pilot.press("a")
        await settle(pilot)
        assert isinstance(app.screen, AddModal)
        assert app.screen.query_one("#add-type", Select).value is MemoryType.SEMANTIC
        await write_and_save(pilot, BERLIN)
        screen = app.screen
        assert isinstance(screen, MemoriesScreen)
        assert [row.record.content for row in screen.rows.values()] == [BERLIN]
        assert any(f"Remembered “{BERLIN}” (semantic)" in note for note in notes(app))
    listed = Cli(store_path).ok("list").stdout
    assert BERLIN in listed and "semantic" in listed


async def test_esc_in_the_add_dialog_stores_nothing(store_path: Path, clock: FakeClock) -> None:
    empty_store(store_path, clock)
    app = make_app(store_path, clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("f3", "a")
        await settle(pilot)
        app.screen.query_one("#add-text", TextArea).text = BERLIN
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, MemoriesScreen) and not app.screen.rows
    assert "No memories yet" in Cli(store_path).ok("list").stdout


async def test_a_contradiction_added_is_queued_and_a_secret_kept_hidden(
    store_path: Path, clock: FakeClock
) -> None:
    with Memory.open(store_path, PASSPHRASE, kdf=FAST_KDF, clock=clock) as memory:
        rent = memory.remember("My rent is 1200 euros a month", "semantic")
    app = make_app(store_path, clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("f3", "a")
        await settle(pilot)
        await write_and_save(pilot, "My rent went up to 1450 euros a month")
        assert app.memory is not None
        [conflict] = app.memory.conflicts()
        assert conflict.existing.id == rent.id
        assert any(
            f"may contradict #{conflict.id}" in note and "see Conflicts (F4)" in note
            for note in notes(app)
        )
        await pilot.press("a")
        await settle(pilot)
        await write_and_save(pilot, "My bank card PIN is 4821", MemoryType.LONG_TERM)
        screen = app.screen
        assert isinstance(screen, MemoriesScreen)
        [secret] = [r.record for r in screen.rows.values() if r.record.secret]
        assert secret.type is MemoryType.LONG_TERM
        assert str(screen.query_one("#memories").get_cell(secret.id, "content")).startswith(
            SECRET_MARK
        )
        [told] = [note for note in notes(app) if "Kept secret" in note]
        assert "never sent to an assistant" in told and "4821" not in told


async def test_without_a_model_chat_says_how_to_keep_a_message_and_ctrl_s_keeps_it(
    store_path: Path, clock: FakeClock
) -> None:
    empty_store(store_path, clock)
    app = make_app(store_path, clock)  # no model
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await say(pilot, app, BERLIN)
        said = " ".join(str(m.render()) for m in app.screen.query(".message"))
        assert "No language model: nothing is extracted from chat" in said
        assert "Ctrl+S keeps your last message as a memory" in said
        assert app.memory is not None and stored(app) == []  # never silently
        await pilot.press("ctrl+s")
        await settle(pilot)
        modal = app.screen
        assert isinstance(modal, AddModal)
        assert modal.query_one("#add-text", TextArea).text == BERLIN
        await pilot.press("ctrl+s")
        await settle(pilot)
        [kept] = stored(app)
        assert (kept.content, kept.type) == (BERLIN, MemoryType.SEMANTIC)
        assert "new" in str(app.screen.query_one("#remembered").render())
    assert BERLIN in Cli(store_path).ok("list").stdout

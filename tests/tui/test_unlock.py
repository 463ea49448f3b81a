"""Unlocking and creating a store from the TUI."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input, Label

from localmind import Memory
from tests.conftest import PASSPHRASE, FakeClock
from tests.tui.conftest import TEA, make_app, screen_text, settle, words
from tui.screens.chat import ChatScreen
from tui.screens.unlock import UnlockScreen


def message(app: object) -> str:
    from textual.app import App

    assert isinstance(app, App)
    return str(app.screen.query_one("#unlock-message", Label).render())


async def test_the_right_passphrase_unlocks_the_store(
    store_path: Path, clock: FakeClock, seeded: dict[str, str]
) -> None:
    app = make_app(store_path, clock, passphrase=None)
    async with app.run_test() as pilot:
        assert isinstance(app.screen, UnlockScreen)
        assert "Unlock" in str(app.screen.query(Label).first().render())
        app.screen.query_one("#passphrase", Input).value = PASSPHRASE
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ChatScreen)
        assert app.memory is not None and app.memory.count() == 4
        assert "4 memories" in app.status_text
        assert "LLM off" in app.status_text


async def test_a_wrong_passphrase_says_so_clears_the_field_and_stays(
    store_path: Path, clock: FakeClock, seeded: dict[str, str]
) -> None:
    app = make_app(store_path, clock, passphrase=None)
    async with app.run_test() as pilot:
        field = app.screen.query_one("#passphrase", Input)
        await pilot.press(*"wrong")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, UnlockScreen)
        assert message(app) == "Wrong passphrase: try again."
        assert field.value == "" and not field.disabled and field.has_focus
        assert app.memory is None

        field.value = PASSPHRASE
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ChatScreen)


async def test_creating_a_store_asks_for_the_passphrase_twice(
    tmp_path: Path, clock: FakeClock
) -> None:
    path = tmp_path / "new" / "memory.db"
    app = make_app(path, clock, passphrase=None)
    async with app.run_test() as pilot:
        assert "No store at" in str(app.screen.query(Label).first().render())
        first = app.screen.query_one("#passphrase", Input)
        again = app.screen.query_one("#again", Input)

        await pilot.press("enter")
        assert "cannot be empty" in message(app)

        first.value = "one passphrase"
        await pilot.press("enter")
        assert again.has_focus
        again.value = "another one"
        await pilot.press("enter")
        assert "differ" in message(app)
        assert not path.exists()

        first.value = again.value = "the same"
        again.focus()
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ChatScreen)
    assert path.is_file() and path.with_name("memory.db.key").is_file()
    with Memory.open(path, "the same", create=False) as memory:
        assert memory.count() == 0


async def test_ctrl_c_on_the_unlock_screen_quits_cleanly(
    store_path: Path, clock: FakeClock, seeded: dict[str, str]
) -> None:
    app = make_app(store_path, clock, passphrase=None)
    async with app.run_test() as pilot:
        await pilot.press("ctrl+c")
        await pilot.pause()
    assert app.return_code == 0
    assert app.memory is None


async def test_a_given_passphrase_skips_the_screen_and_pages_need_a_store(
    store_path: Path, clock: FakeClock, seeded: dict[str, str]
) -> None:
    locked = make_app(store_path, clock, passphrase=None)
    async with locked.run_test() as pilot:
        await pilot.press("f3")  # refused while locked
        assert isinstance(locked.screen, UnlockScreen)

    app = make_app(store_path, clock)
    async with app.run_test() as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ChatScreen)
        assert app.memory is not None
        assert app.memory.list_memories()[0].content == TEA


async def test_messages_wrap_in_an_80_column_terminal(tmp_path: Path, clock: FakeClock) -> None:
    """A long path wraps the message over several rows: nothing is cut off (issue 16 item 7)."""
    path = tmp_path / "a folder with a rather long name" / "and another one" / "memory.db"
    app = make_app(path, clock, passphrase=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        shown = words(screen_text(app))
        assert "yet: choose a passphrase to create it." in shown
        assert "It cannot be recovered if you lose it." in shown
        assert "and another one" in shown


async def test_a_missing_key_file_is_told_before_the_passphrase_is_asked(
    store_path: Path, clock: FakeClock, seeded: dict[str, str]
) -> None:
    store_path.with_name("memory.db.key").unlink()
    app = make_app(store_path, clock, passphrase=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, UnlockScreen)
        assert not app.screen.query(Input)  # no passphrase can open it: none is asked for
        shown = words(screen_text(app))
        assert "its key file memory.db.key is missing." in shown
        assert "If you moved the store, move its .key file with it." in shown
        await pilot.press("ctrl+q")
    assert app.memory is None
    assert not store_path.with_name("memory.db.key").exists()  # nothing was made

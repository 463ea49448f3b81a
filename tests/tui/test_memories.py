"""The memories page: search, filters, feedback, correct, forget and undo, pin, history."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, TextArea

from localmind import Memory
from tests.conftest import FAST_KDF, PASSPHRASE, FakeClock
from tests.tui.conftest import (
    ENGINEER,
    HIKING,
    RUST,
    TEA,
    make_app,
    screen_text,
    settle,
    until,
    words,
)
from tui.app import LocalmindApp
from tui.screens.memories import HIDDEN, SEARCH_LIMIT, SECRET_MARK, MemoriesScreen
from tui.widgets.editor import EditorModal
from tui.widgets.history import HistoryModal


def contents(app: LocalmindApp) -> list[str]:
    screen = app.screen
    assert isinstance(screen, MemoriesScreen)
    table = screen.query_one("#memories", DataTable)
    return [screen.rows[str(key.value)].record.content for key in table.rows]


def cell(app: LocalmindApp, memory_id: str, column: str) -> str:
    return str(app.screen.query_one("#memories", DataTable).get_cell(memory_id, column))


async def select(pilot: Pilot[None], app: LocalmindApp, memory_id: str) -> None:
    table = app.screen.query_one("#memories", DataTable)
    table.move_cursor(row=table.get_row_index(memory_id))
    table.focus()
    await pilot.pause()


@pytest.fixture
def app(store_path: Path, clock: FakeClock, seeded: dict[str, str]) -> LocalmindApp:
    return make_app(store_path, clock)


async def open_page(pilot: Pilot[None]) -> None:
    await settle(pilot)
    await pilot.press("f3")
    await settle(pilot)


async def test_lists_every_memory_newest_first_with_its_figures(
    app: LocalmindApp, seeded: dict[str, str]
) -> None:
    async with app.run_test(size=(140, 40)) as pilot:
        await open_page(pilot)
        assert contents(app) == [TEA, RUST, ENGINEER, HIKING]
        engineer = seeded[ENGINEER]
        assert cell(app, engineer, "type") == "semantic"
        assert cell(app, engineer, "conf") == "0.80"
        assert cell(app, engineer, "imp") == "0.90"
        assert cell(app, engineer, "age") == "7d"


async def test_typing_a_search_filters_the_rows(app: LocalmindApp) -> None:
    async with app.run_test(size=(140, 40)) as pilot:
        await open_page(pilot)
        await pilot.press("slash")
        assert app.screen.query_one("#search", Input).has_focus
        await pilot.press(*"Rust")
        await settle(pilot)
        assert contents(app)[0] == RUST
        assert HIKING not in contents(app)

        await pilot.press(*" 编程")
        await settle(pilot)
        assert contents(app)[0] == RUST

        app.screen.query_one("#search", Input).value = ""
        await settle(pilot)
        assert len(contents(app)) == 4


async def test_a_new_search_selects_its_best_hit(app: LocalmindApp, seeded: dict[str, str]) -> None:
    """review15a TW12: the memory selected before the search (the newest) was among the hits,
    so it stayed selected, the best hit scrolled out of view, and `e` edited the wrong one."""
    async with app.run_test(size=(140, 40)) as pilot:
        await open_page(pilot)
        table = app.screen.query_one("#memories", DataTable)
        await select(pilot, app, seeded[ENGINEER])  # any memory but the best hit below
        app.screen.query_one("#search", Input).value = "which programming language do I like"
        await settle(pilot)
        assert ENGINEER in contents(app) and contents(app)[0] == RUST
        assert isinstance(app.screen, MemoriesScreen)
        assert app.screen.selected_id() is not None
        assert app.screen.rows[app.screen.selected_id() or ""].record.content == RUST
        assert table.cursor_row == 0
        # a reload of the same search (another program wrote) keeps what the person selected
        await select(pilot, app, seeded[ENGINEER])
        app.screen.reload()
        await settle(pilot)
        assert app.screen.rows[app.screen.selected_id() or ""].record.content == ENGINEER


async def test_type_filter_and_sort_keys(app: LocalmindApp) -> None:
    async with app.run_test(size=(140, 40)) as pilot:
        await open_page(pilot)
        screen = app.screen
        assert isinstance(screen, MemoriesScreen)
        for _ in range(3):  # all -> short_term -> long_term -> episodic
            await pilot.press("t")
            await settle(pilot)
        assert screen.type_filter == "episodic"
        assert contents(app) == [HIKING]
        for _ in range(2):  # -> semantic -> all
            await pilot.press("t")
            await settle(pilot)
        assert screen.type_filter is None
        assert len(contents(app)) == 4
        await pilot.press("o", "o")  # newest -> confidence -> importance
        assert screen.sort == "importance"
        assert contents(app) == [ENGINEER, RUST, TEA, HIKING]


async def test_confirm_and_deny_change_confidence_in_the_row_and_the_store(
    app: LocalmindApp, seeded: dict[str, str]
) -> None:
    async with app.run_test(size=(140, 40)) as pilot:
        await open_page(pilot)
        tea = seeded[TEA]
        await select(pilot, app, tea)
        await pilot.press("y")
        await settle(pilot)
        assert cell(app, tea, "conf") == "0.90"
        assert app.memory is not None
        assert app.memory.get(tea).confidence == pytest.approx(0.9)
        await pilot.press("n")
        await settle(pilot)
        assert cell(app, tea, "conf") == "0.70"
        assert app.memory.get(tea).confidence == pytest.approx(0.7)


async def test_correct_opens_the_editor_and_stores_a_new_version(
    app: LocalmindApp, seeded: dict[str, str]
) -> None:
    async with app.run_test(size=(140, 40)) as pilot:
        await open_page(pilot)
        tea = seeded[TEA]
        await select(pilot, app, tea)
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, EditorModal)
        editor = app.screen.query_one(TextArea)
        assert editor.text == TEA
        editor.text = "I prefer black tea over coffee"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, MemoriesScreen)
        assert app.memory is not None
        record = app.memory.get(tea)
        assert record.content == "I prefer black tea over coffee"
        assert record.version == 2 and record.confidence == pytest.approx(0.9)
        assert [v.content for v in app.memory.history(tea)] == [TEA]
        assert "black tea" in cell(app, tea, "content")
        assert cell(app, tea, "conf") == "0.90"


async def test_escape_cancels_a_correction(app: LocalmindApp, seeded: dict[str, str]) -> None:
    async with app.run_test(size=(140, 40)) as pilot:
        await open_page(pilot)
        await select(pilot, app, seeded[TEA])
        await pilot.press("e")
        await pilot.pause()
        app.screen.query_one(TextArea).text = "something else"
        await pilot.press("escape")
        await settle(pilot)
        assert app.memory is not None
        assert app.memory.get(seeded[TEA]).content == TEA


async def test_forget_then_undo_keeps_the_memory_as_it_was(
    app: LocalmindApp, seeded: dict[str, str]
) -> None:
    async with app.run_test(size=(140, 40)) as pilot:
        await open_page(pilot)
        rust = seeded[RUST]
        await select(pilot, app, rust)
        await pilot.press("p")  # pinned: the undo keeps it pinned
        await pilot.press("y")  # 0.9: the undo keeps the confidence
        await settle(pilot)
        assert app.memory is not None
        history = app.memory.history(rust)
        await pilot.press("x")
        await settle(pilot)
        assert RUST not in contents(app)
        assert any("Press u to undo" in n.message for n in app._notifications)

        await pilot.press("u")
        await settle(pilot)
        assert RUST in contents(app)
        screen = app.screen
        assert isinstance(screen, MemoriesScreen)
        assert screen.selected_id() == rust  # the cursor is back on it, not on its neighbour
        back = app.memory.get(rust)  # the same memory: same id, history untouched
        assert back.status == "active" and back.pinned
        assert back.confidence == pytest.approx(0.9)
        assert app.memory.history(rust) == history
        assert app.memory.count() == 4


async def test_a_forget_is_carried_out_when_the_page_is_left_or_the_app_quits(
    app: LocalmindApp,
    seeded: dict[str, str],
    store_path: Path,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # leaving and quitting end the window, not its clock: a window that outlasts a loaded
    # machine's slow steps (it once ran out before the first check, at load 20)
    monkeypatch.setattr("tui.app.UNDO_WINDOW_S", 600.0)
    async with app.run_test(size=(140, 40)) as pilot:
        await open_page(pilot)
        await select(pilot, app, seeded[RUST])
        await pilot.press("x")
        await settle(pilot)
        assert app.memory is not None
        assert app.memory.count() == 4  # still undoable: nothing erased yet
        await pilot.press("f2")  # leaving the page ends the undo window
        await settle(pilot)
        assert app.memory.get(seeded[RUST]).status == "deleted"
        assert app.memory.count() == 3

        await pilot.press("f3")
        await settle(pilot)
        await select(pilot, app, seeded[TEA])
        await pilot.press("x")
        await settle(pilot)
    with Memory.open(store_path, PASSPHRASE, clock=clock) as memory:  # quit inside the window
        assert memory.get(seeded[TEA]).status == "deleted"
        assert memory.count() == 2


async def test_pin_and_unpin(app: LocalmindApp, seeded: dict[str, str]) -> None:
    async with app.run_test(size=(140, 40)) as pilot:
        await open_page(pilot)
        hiking = seeded[HIKING]
        await select(pilot, app, hiking)
        await pilot.press("p")
        await settle(pilot)
        assert app.memory is not None and app.memory.get(hiking).pinned
        assert cell(app, hiking, "pin") == "📌"
        await pilot.press("p")
        await settle(pilot)
        assert not app.memory.get(hiking).pinned


async def test_history_shows_versions_and_reverts(
    app: LocalmindApp, seeded: dict[str, str]
) -> None:
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        tea = seeded[TEA]
        assert app.memory is not None
        app.memory.update(tea, content="I prefer black tea over coffee")
        await pilot.press("f3")
        await settle(pilot)
        await select(pilot, app, tea)
        await pilot.press("h")
        await settle(pilot)
        modal = app.screen
        assert isinstance(modal, HistoryModal)
        assert [row[0] for row in modal.rows] == [1, 2]
        diff = modal.query_one("#diff").render()
        assert "I prefer [-green-]{+black+} tea" in str(diff)  # marked, not only coloured
        await pilot.press("up", "r")
        await settle(pilot)
        assert isinstance(app.screen, MemoriesScreen)
        record = app.memory.get(tea)
        assert record.content == TEA and record.version == 3
        assert TEA in cell(app, tea, "content")


NURSE = "I work as a nurse at the city hospital"


async def test_search_finds_what_recall_finds_in_the_same_order(
    app: LocalmindApp, store_path: Path, clock: FakeClock
) -> None:
    """The page's search is `localmind recall`: a question that shares no word with the memory
    still finds it, and the rows come in recall's order (issue 16 item 5)."""
    with Memory.open(store_path, PASSPHRASE, clock=clock) as memory:
        memory.remember(NURSE, "semantic")
    async with app.run_test(size=(140, 40)) as pilot:
        await open_page(pilot)
        assert app.memory is not None
        for query, first in (("what do I drink", TEA), ("my job", NURSE), ("Rust", RUST)):
            app.screen.query_one("#search", Input).value = query
            await settle(pilot)
            recalled = app.memory.recall(query, SEARCH_LIMIT, touch=False)
            assert contents(app) == [r.memory.content for r in recalled], query
            assert contents(app)[0] == first, query


async def test_at_80x24_the_content_column_gets_the_room(app: LocalmindApp) -> None:
    """The default terminal size: the table keeps the few columns that matter and shows the
    memories' text; the detail moves under it. A wide terminal shows every column again."""
    async with app.run_test(size=(80, 24)) as pilot:
        await open_page(pilot)
        table = app.screen.query_one("#memories", DataTable)
        assert [str(key.value) for key in table.columns] == [
            "type",
            "conf",
            "age",
            "pin",
            "content",
        ]
        shown = screen_text(app)
        for content in (ENGINEER, HIKING, TEA):
            assert content in shown  # whole, on its row
        detail = app.screen.query_one("#detail")
        assert detail.region.y > table.region.y and detail.region.width >= 78

        await pilot.resize_terminal(140, 40)
        await settle(pilot)
        assert len(table.columns) == 8
        assert detail.region.x > table.region.x
        assert contents(app) == [TEA, RUST, ENGINEER, HIKING]


async def test_a_write_by_another_program_shows_without_leaving_the_page(
    app: LocalmindApp, store_path: Path, clock: FakeClock, seeded: dict[str, str]
) -> None:
    """What the CLI or the MCP server writes to the open store appears on the page in front
    (issue 16 item 8): here another connection adds one memory and forgets another."""

    def elsewhere() -> None:
        with Memory.open(store_path, PASSPHRASE, clock=clock) as other:
            other.remember(NURSE, "semantic")
            other.forget(seeded[HIKING])

    async with app.run_test(size=(140, 40)) as pilot:
        await open_page(pilot)
        assert NURSE not in contents(app)
        await asyncio.to_thread(elsewhere)
        assert await until(pilot, lambda: NURSE in contents(app) and HIKING not in contents(app))
        assert await until(pilot, lambda: "4 memories" in app.status_text)


async def test_the_detail_says_where_a_memory_came_from(
    app: LocalmindApp, seeded: dict[str, str]
) -> None:
    async with app.run_test(size=(140, 40)) as pilot:
        await open_page(pilot)
        assert app.memory is not None
        made = app.memory.remember("I keep bees on the roof")  # as the app adds one
        screen = app.screen
        assert isinstance(screen, MemoriesScreen)
        screen.reload()
        await settle(pilot)
        await select(pilot, app, made.id)
        assert "source  tui" in screen_text(app)
        await select(pilot, app, seeded[RUST])  # seeded by the library alone: no source
        assert "source" not in screen_text(app)


PIN = "My bank password is Tulip!Rain"


@pytest.mark.slow  # a few seconds: two stores opened, the page driven
async def test_a_secret_is_marked_and_hidden_until_revealed(
    store_path: Path, clock: FakeClock, seeded: dict[str, str]
) -> None:
    """Someone may look over the person's shoulder: a memory marked secret shows 🔒 and dots,
    in the table and the detail, until r shows it; r hides it again, and so does leaving."""
    with Memory.open(store_path, PASSPHRASE, kdf=FAST_KDF, clock=clock) as memory:
        pin = memory.remember(PIN, "semantic")
    assert pin.secret
    app = make_app(store_path, clock)
    async with app.run_test(size=(140, 40)) as pilot:
        await open_page(pilot)
        await select(pilot, app, pin.id)
        assert cell(app, pin.id, "content") == f"{SECRET_MARK} {HIDDEN}"
        assert cell(app, seeded[TEA], "content") == TEA  # a plain memory as it is
        assert "Tulip" not in screen_text(app)
        assert "never sent to an assistant" in words(screen_text(app))

        await pilot.press("r")
        await pilot.pause()
        assert cell(app, pin.id, "content") == f"{SECRET_MARK} {PIN}"
        assert PIN in screen_text(app) and "(r hides it)" in words(screen_text(app))
        await pilot.press("r")
        await pilot.pause()
        assert "Tulip" not in screen_text(app)

        await pilot.press("r", "f2", "f3")  # shown, then the page left and come back to
        await settle(pilot)
        assert "Tulip" not in screen_text(app)
        await select(pilot, app, seeded[TEA])
        await pilot.press("r")
        await pilot.pause()
        assert any("Only a memory marked secret" in n.message for n in app._notifications)
        assert cell(app, seeded[TEA], "content") == TEA


@pytest.mark.slow
async def test_at_80x24_the_footer_is_whole_and_every_key_is_on_screen(app: LocalmindApp) -> None:
    """The footer was cut after "h" (review9 Q3): it now holds what fits, and the keys it has
    no room for are where they act: the filter keys on the filter line, the feedback keys
    under the selected memory."""
    async with app.run_test(size=(80, 24)) as pilot:
        await open_page(pilot)
        lines = screen_text(app).rstrip("\n").splitlines()
        footer = lines[-1]
        for key in ("a Add", "e Correct", "x Forget", "u Undo", "h History", "f1 Help"):
            assert key in footer, footer
        assert footer.rstrip().endswith("^p palette")
        shown = "\n".join(lines[:-1])
        # search's key is in its field (tui10 gave its footer room to Add)
        for key in ("( / )", "(t)", "(s)", "(o)", "y confirms", "n denies", "p pins"):
            assert key in shown

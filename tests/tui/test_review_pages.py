"""Conflicts, profile, health, help and the command palette."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from textual.binding import Binding
from textual.pilot import Pilot
from textual.widgets import DataTable, Label, OptionList, TextArea

from localmind import Memory
from localmind.records import Status
from tests.conftest import PASSPHRASE, FakeClock
from tests.tui.conftest import HIKING, RENT, RENT_NEW, TEA, make_app, seed, settle
from tui.app import LocalmindApp
from tui.screens.conflicts import ConflictsScreen
from tui.screens.health import HealthScreen
from tui.screens.help import PAGES as HELP_PAGES
from tui.screens.help import HelpScreen
from tui.screens.memories import MemoriesScreen
from tui.screens.profile import ProfileScreen
from tui.widgets.editor import EditorModal
from tui.widgets.history import HistoryModal


@pytest.fixture
def ids(store_path: Path, clock: FakeClock) -> dict[str, str]:
    return seed(store_path, clock, conflict=True)


async def open_conflicts(pilot: Pilot[None], app: LocalmindApp) -> None:
    await settle(pilot)
    await pilot.press("f4")
    await settle(pilot)
    assert isinstance(app.screen, ConflictsScreen)
    assert app.screen.query_one("#conflicts", DataTable).row_count == 1
    assert RENT in str(app.screen.query_one("#old").render())
    assert RENT_NEW in str(app.screen.query_one("#new").render())
    changed = "What changed: My rent [-is-]{+went+} [-1200-]{+up to 1450+} euros a month"
    assert changed in str(app.screen.query_one("#changes").render())  # readable without colour


# a second copy in the quick loop: test_conflict_review settles o, n and b on the page (keep-old
# undone, marked take-new, keep-both for a similarity)
@pytest.mark.slow
@pytest.mark.parametrize(
    ("key", "kept", "gone"),
    [("o", RENT, RENT_NEW), ("n", RENT_NEW, RENT), ("b", None, None)],
)
async def test_each_resolution_changes_the_store(
    store_path: Path,
    clock: FakeClock,
    ids: dict[str, str],
    key: str,
    kept: str | None,
    gone: str | None,
) -> None:
    app = make_app(store_path, clock)
    async with app.run_test(size=(140, 40)) as pilot:
        await open_conflicts(pilot, app)
        await pilot.press(key)
        await settle(pilot)
        assert app.memory is not None
        assert app.screen.query_one("#conflicts", DataTable).row_count == 0
        assert "No conflicts" in str(app.screen.query_one("#conflicts-count", Label).render())
        assert len(app.memory.conflicts()) == 1  # in its undo window: nothing written yet
        await pilot.press("f3")  # leaving the page carries it out
        await settle(pilot)
        assert app.memory.conflicts() == []
        active = [r.content for r in app.memory.list_memories()]
        if kept is None:
            assert RENT in active and RENT_NEW in active
        else:
            assert kept in active and gone not in active
        old = app.memory.get(ids[RENT])
        assert old.status is Status.ACTIVE
        assert old.content == (RENT_NEW if key == "n" else RENT)


@pytest.mark.slow  # several seconds: the quick loop stays under two minutes
async def test_merge_opens_the_editor_with_both_texts(
    store_path: Path, clock: FakeClock, ids: dict[str, str]
) -> None:
    app = make_app(store_path, clock)
    async with app.run_test(size=(140, 40)) as pilot:
        await open_conflicts(pilot, app)
        await pilot.press("m")
        await pilot.pause()
        assert isinstance(app.screen, EditorModal)
        editor = app.screen.query_one(TextArea)
        assert editor.text == f"{RENT}\n{RENT_NEW}"
        editor.text = "My rent was 1200 euros and is now 1450 euros a month"
        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.press("f3")
        await settle(pilot)
        assert app.memory is not None
        assert app.memory.conflicts() == []
        merged = app.memory.get(ids[RENT])
        assert merged.content == "My rent was 1200 euros and is now 1450 euros a month"
        # both sides' own texts stay in the kept memory's history (review15a TW9)
        assert [v.content for v in app.memory.history(ids[RENT])] == [RENT, RENT_NEW]
        assert app.memory.get(ids[RENT_NEW]).status is Status.DELETED


async def test_profile_rebuild_adds_a_version(
    store_path: Path, clock: FakeClock, seeded: dict[str, str]
) -> None:
    app = make_app(store_path, clock)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        await pilot.press("f5")
        await settle(pilot)
        assert isinstance(app.screen, ProfileScreen)
        assert app.screen.query_one(DataTable).row_count == 0
        await pilot.press("r")
        await settle(pilot)
        assert app.memory is not None
        assert [p.version for p in app.memory.profile_history()] == [1]
        assert app.screen.query_one(DataTable).row_count == 1
        title = str(app.screen.query_one("#profile-title").render())
        assert "version 1" in title and "extractive" in title
        assert "software engineer" in str(app.screen.query_one("#profile-text").render())
        await pilot.press("r")
        await settle(pilot)
        assert app.screen.query_one(DataTable).row_count == 2


async def test_health_shows_counts_and_runs_maintenance(
    store_path: Path, clock: FakeClock, ids: dict[str, str]
) -> None:
    app = make_app(store_path, clock)
    async with app.run_test(size=(140, 50)) as pilot:
        await settle(pilot)
        await pilot.press("f6")
        await settle(pilot)
        assert isinstance(app.screen, HealthScreen)
        counts = str(app.screen.query_one("#counts").render())
        assert "6 active" in counts and "pending conflicts: 1" in counts
        label = str(app.screen.query_one("#capacity-label", Label).render())
        assert label == "Capacity: 6 of 500 memories"
        maintenance = app.screen.query_one("#maintenance", Label)
        # Over a day old when the app opened it: maintained on open.
        assert "Last maintenance: just now" in str(maintenance.render())
        assert app.screen.query(".activity-row")
        clock.advance(seconds=7200)
        await pilot.press("r")
        await settle(pilot)
        assert "Last maintenance: 2h ago" in str(maintenance.render())
        await pilot.press("m")
        await settle(pilot)
        assert "Last maintenance: just now" in str(maintenance.render())
        assert any("Maintenance done" in n.message for n in app._notifications)


@pytest.mark.slow  # several seconds: the quick loop stays under two minutes
async def test_help_lists_the_keys_and_the_palette_reaches_pages(
    store_path: Path, clock: FakeClock, seeded: dict[str, str]
) -> None:
    app = make_app(store_path, clock)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"Memories", "enter")
        await settle(pilot)
        assert isinstance(app.screen, MemoriesScreen)


async def test_health_counts_by_type_only_the_active_memories(
    store_path: Path, clock: FakeClock, ids: dict[str, str]
) -> None:
    """A forgotten memory is no longer one of a type (issue 16 polish)."""
    with Memory.open(store_path, PASSPHRASE, clock=clock) as memory:
        memory.forget(ids[HIKING])  # the only episodic one
    app = make_app(store_path, clock)
    async with app.run_test(size=(140, 50)) as pilot:
        await settle(pilot)
        await pilot.press("f6")
        await settle(pilot)
        counts = str(app.screen.query_one("#counts").render())
        assert "5 active" in counts
        assert "by type: semantic 5\n" in counts
        assert "by status: active 5, deleted 1" in counts


def test_footers_hold_no_emoji() -> None:
    """Terminals disagree on an emoji's width (✏️ is one cell to Textual, two to most
    terminals), which shifted and clipped the footer: its keys are described in words."""
    screens = [page for _, page in HELP_PAGES]
    screens += [LocalmindApp.BINDINGS, HistoryModal.BINDINGS, EditorModal.BINDINGS]
    descriptions = [
        b.description for bindings in screens for b in bindings if isinstance(b, Binding)
    ]
    assert "Confirm" in descriptions and "Correct" in descriptions
    for description in descriptions:
        assert "\ufe0f" not in description, description
        assert all(unicodedata.category(ch) != "So" for ch in description), description


async def palette(pilot: Pilot[None], app: LocalmindApp, query: str = "") -> list[str]:
    """Open the command palette, type ``query``: the titles it offers."""
    await pilot.press("ctrl+p")
    await pilot.pause()
    if query:
        await pilot.press(*query)
    await pilot.pause(0.3)  # the palette searches in a worker of its own
    options = app.screen.query_one(OptionList).options
    return [str(option.prompt).split("\n")[0] for option in options]


@pytest.mark.slow  # several seconds: the quick loop stays under two minutes
async def test_the_palette_offers_every_action_of_the_page_by_name(
    store_path: Path, clock: FakeClock, seeded: dict[str, str]
) -> None:
    """It lists "Keys" once, the page's forget, pin, confirm… and sync (issue 16 polish)."""
    app = make_app(store_path, clock)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        await pilot.press("f3")
        await settle(pilot)
        table = app.screen.query_one("#memories", DataTable)
        table.move_cursor(row=table.get_row_index(seeded[TEA]))
        titles = await palette(pilot, app)
        assert titles.count("Keys") == 1
        for title in ("Sync", "Memories: Forget", "Memories: Pin", "Memories: Confirm"):
            assert title in titles
        await pilot.press("escape")
        await pilot.pause()

        assert await palette(pilot, app, "pin") == ["Memories: Pin"]
        await pilot.press("enter")
        await settle(pilot)
        assert app.memory is not None and app.memory.get(seeded[TEA]).pinned

        await palette(pilot, app, "forget")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, MemoriesScreen)
        assert seeded[TEA] not in app.screen.rows  # forgotten, in its undo window
        assert any("Press u to undo" in n.message for n in app._notifications)


@pytest.mark.slow  # several seconds: the quick loop stays under two minutes
async def test_the_palette_lists_each_job_once_on_its_own_page(
    store_path: Path, clock: FakeClock, seeded: dict[str, str]
) -> None:
    """Not both "Search memories" and "Memories: Search" (issue 16 leftover)."""
    app = make_app(store_path, clock)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        pages = [("f3", "Search memories", "Memories: Search")]
        pages += [("f5", "Rebuild profile", "Profile: Rebuild")]
        pages += [("f6", "Run maintenance", "Health: Run maintenance")]
        for key, job, same_job in pages:
            await pilot.press(key)
            await settle(pilot)
            titles = await palette(pilot, app)
            assert titles.count(job) == 1, titles
            assert same_job not in titles, titles
            await pilot.press("escape")
            await pilot.pause()
        await pilot.press("f3")
        await settle(pilot)
        assert await palette(pilot, app, "search") == ["Search memories"]
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, MemoriesScreen)
        assert app.focused is not None and app.focused.id == "search"

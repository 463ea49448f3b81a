"""The Conflicts page hides a secret as the Memories page does (leak11): a pair with a memory
marked secret shows dots in the list and the panels, and neither its changed words nor the
reason, until r reveals that pair for a few seconds. So do a hidden secret's history and the
chat's note of a secret it compared with. Pilot against the real store."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console
from textual.widgets import DataTable

from localmind import Memory
from tests.conftest import FAST_KDF, PASSPHRASE, FakeClock
from tests.tui.conftest import make_app, screen_text, settle, until, words
from tui.app import LocalmindApp
from tui.screens import conflicts as conflicts_page
from tui.screens.chat import HIDDEN as CHAT_HIDDEN
from tui.screens.chat import describe
from tui.screens.conflicts import HIDDEN, ConflictsScreen
from tui.screens.help import HelpScreen
from tui.widgets.history import HIDDEN as HISTORY_HIDDEN
from tui.widgets.history import HistoryModal

DOOR, DOOR_NEW = "The door code of the flat is 7391#", "The door code of the flat changed to 2280#"
RENT, RENT_NEW = "My rent is 1200 euros a month", "My rent went up to 1450 euros a month"
DIGITS = ("7391", "2280")


def seed(path: Path, clock: FakeClock) -> dict[str, int]:
    """Two pending conflicts, a plain one and one between two door codes: text -> conflict."""
    made = {}
    with Memory.open(path, PASSPHRASE, kdf=FAST_KDF, clock=clock) as memory:
        for old, new in ((RENT, RENT_NEW), (DOOR, DOOR_NEW)):
            memory.remember(old, "semantic")
            clock.advance(days=30)
            outcome = memory.remember_explained(new, "semantic")
            assert outcome.conflict_id is not None, outcome
            made[new] = outcome.conflict_id
        assert [c.existing.secret for c in memory.conflicts()] == [False, True]
    return made


def select(app: LocalmindApp, conflict_id: int) -> None:
    table = app.screen.query_one("#conflicts", DataTable)
    table.move_cursor(row=table.get_row_index(str(conflict_id)))


def footer(app: LocalmindApp) -> str:
    return screen_text(app).rstrip("\n").splitlines()[-1]


def leaked(app: LocalmindApp) -> bool:
    return any(digits in screen_text(app) for digits in DIGITS)


@pytest.mark.slow  # a few seconds: the page driven through a reveal and its end
async def test_a_secret_pair_is_hidden_until_r_shows_it_for_a_few_seconds(
    store_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(conflicts_page, "REVEAL_S", 0.5)
    conflicts = seed(store_path, clock)
    app = make_app(store_path, clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("f4")
        await settle(pilot)
        assert isinstance(app.screen, ConflictsScreen)
        select(app, conflicts[RENT_NEW])
        assert await until(pilot, lambda: "o Old" in footer(app))
        assert "1450" in screen_text(app)  # a plain pair as it is, with no r to press
        assert "Reveal" not in footer(app)
        select(app, conflicts[DOOR_NEW])
        # the footer follows the selection a moment later
        assert await until(pilot, lambda: "r Reveal" in footer(app))
        shown = words(screen_text(app))
        assert not leaked(app), shown  # not in the list, the panels, what changed or why
        assert HIDDEN.split(" (")[0] in shown and "r shows the pair" in shown
        keys = footer(app)  # whole at 80 columns: r takes "Ask model"'s room (never for a secret)
        assert "r Reveal" in keys and "f1 Help" in keys and keys.rstrip().endswith("^p palette")

        await pilot.press("m")  # the merge editor would show it
        await pilot.pause()
        assert isinstance(app.screen, ConflictsScreen) and not leaked(app)
        assert any("r shows the pair first" in n.message for n in app._notifications)

        await pilot.press("r")
        await pilot.pause()
        assert all(digits in screen_text(app) for digits in DIGITS)
        assert "What changed" in words(screen_text(app))
        assert await until(pilot, lambda: not leaked(app), seconds=5)  # its time is up

        await pilot.press("r")  # shown again, then hidden by moving to another pair
        await pilot.pause()
        assert leaked(app)
        select(app, conflicts[RENT_NEW])
        await pilot.pause()
        select(app, conflicts[DOOR_NEW])
        await pilot.pause()
        assert not leaked(app)

        await pilot.press("r", "f3", "f4")  # or by leaving the page
        await settle(pilot)
        assert not leaked(app)
    help_page = Console(width=100, file=io.StringIO(), record=True)
    help_page.print(HelpScreen._table())
    assert "r Show a pair with a secret for 10 s" in words(help_page.export_text())


def test_the_chat_names_a_secret_it_compared_with_without_its_text(memory: Memory) -> None:
    """What the chat says it remembered: the person's own words, and the memory it was
    compared with, hidden when that one is a secret they did not just say."""
    door = memory.remember(DOOR, "semantic")
    outcome = memory.remember_explained(DOOR_NEW, "semantic")
    assert outcome.related is not None and outcome.related.id == door.id and door.secret
    said = describe(outcome).plain
    assert "7391" not in said and CHAT_HIDDEN in said and "may contradict" in said


@pytest.mark.slow  # a few seconds: the page and its history dialog driven
async def test_the_history_and_editor_of_a_hidden_secret_wait_for_r(
    store_path: Path, clock: FakeClock
) -> None:
    with Memory.open(store_path, PASSPHRASE, kdf=FAST_KDF, clock=clock) as memory:
        pin = memory.remember("My bank PIN is 4821", "semantic")
        memory.update(pin.id, content="My bank PIN is 5930")
    app = make_app(store_path, clock)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        await pilot.press("f3")
        await settle(pilot)
        await pilot.press("h")
        await settle(pilot)
        assert isinstance(app.screen, HistoryModal)
        assert not any(d in screen_text(app) for d in ("4821", "5930"))
        assert HISTORY_HIDDEN.split(" (")[0] in screen_text(app)
        await pilot.press("escape", "e")  # nor does the correction editor show it
        await settle(pilot)
        assert "5930" not in screen_text(app)
        assert any("r shows the secret first" in n.message for n in app._notifications)
        await pilot.press("r", "h")  # revealed on the page: its history shows
        await settle(pilot)
        assert all(d in screen_text(app) for d in ("4821", "5930"))
        for page in ("f5", "f6"):  # the profile and health pages name no secret
            await pilot.press("escape", page)
            await settle(pilot)
            assert not any(d in screen_text(app) for d in ("4821", "5930")), page

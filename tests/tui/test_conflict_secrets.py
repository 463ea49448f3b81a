"""The Conflicts page hides a secret as the Memories page does (leak11): a pair with a memory
marked secret shows dots in the list and the panels, and neither its changed words nor the
reason, until r reveals that pair for a few seconds. Pilot against the real store."""

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
from tui.screens.conflicts import HIDDEN, ConflictsScreen
from tui.screens.help import HelpScreen

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
        await pilot.pause()
        await pilot.pause(0.2)
        assert "1450" in screen_text(app)  # a plain pair as it is, with no r to press
        assert "Reveal" not in footer(app)
        select(app, conflicts[DOOR_NEW])
        await pilot.pause(0.2)  # the footer follows the selection a moment later
        shown = words(screen_text(app))
        assert not leaked(app), shown  # not in the list, the panels, what changed or why
        assert HIDDEN.split(" (")[0] in shown and "r shows the pair" in shown
        keys = footer(app)  # whole at 80 columns: r takes "Ask model"'s room (never for a secret)
        assert "r Reveal" in keys and "f1 Help" in keys and keys.rstrip().endswith("^p palette")

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

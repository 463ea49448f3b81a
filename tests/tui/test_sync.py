"""Sync in the TUI: a store that joined a sync folder is kept in sync while the app runs, and
the Health page says how sync is doing (or how to set it up)."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path

import pytest
from textual.message import Message
from textual.widgets import DataTable

from localmind import Memory
from sync import export_pending, init_folder, join_folder
from sync.folder import publish_cursors
from sync.watch import SyncReport
from tests.conftest import FAST_KDF, PASSPHRASE, FakeClock
from tests.tui.conftest import make_app, settle
from tui.app import LocalmindApp
from tui.screens.health import HealthScreen
from tui.syncing import SyncReported

TIMEOUT_S = 60.0  # generous: only a broken watcher ever waits this long
CELLO = "I play the cello on Sundays"
CHESS = "I play chess online every evening"


class Reports:
    """The app's sync reports, as they arrive (a Pilot message hook); tests await them."""

    def __init__(self) -> None:
        self.reports: list[SyncReport] = []
        self._arrived = asyncio.Event()

    def __call__(self, message: Message) -> None:
        if isinstance(message, SyncReported):
            self.reports.append(message.report)
            self._arrived.set()

    async def wait_for(self, wanted: Callable[[SyncReport], bool], after: int = 0) -> SyncReport:
        """The first report from the ``after``-th on that is ``wanted``."""
        while (found := next((r for r in self.reports[after:] if wanted(r)), None)) is None:
            self._arrived.clear()
            await asyncio.wait_for(self._arrived.wait(), TIMEOUT_S)
        return found


def sync_card(app: LocalmindApp) -> str:
    return str(app.screen.query_one("#sync").render())


@pytest.fixture
def shared(tmp_path: Path) -> Path:
    return tmp_path / "Sync" / "localmind"


@pytest.fixture
def other_laptop(tmp_path: Path, store_path: Path, shared: Path) -> Iterator[Memory]:
    """The TUI's store made the sync folder; this other store joined it and has a memory of
    its own waiting in the folder."""
    with Memory.open(store_path, PASSPHRASE, kdf=FAST_KDF, clock=FakeClock()) as mine:
        mine.remember("I prefer green tea over coffee")
        init_folder(mine, shared, PASSPHRASE, FAST_KDF, name="home-laptop")
    other = Memory.open(tmp_path / "other.db", PASSPHRASE, kdf=FAST_KDF, clock=FakeClock())
    join_folder(other, shared, PASSPHRASE, name="work-laptop")
    other.remember(CELLO)
    export_pending(other, shared)
    publish_cursors(other, shared)  # where it says what it is called
    yield other
    other.close()


async def test_health_says_how_to_set_sync_up(store_path: Path, clock: FakeClock) -> None:
    Memory.open(store_path, PASSPHRASE, kdf=FAST_KDF, clock=clock).close()
    app = make_app(store_path, clock)
    async with app.run_test(size=(140, 50)) as pilot:
        await settle(pilot)
        await pilot.press("f6")
        await settle(pilot)
        assert isinstance(app.screen, HealthScreen)
        assert "Sync not set up — run `localmind sync init FOLDER`" in sync_card(app)
        assert not app.sync.running


@pytest.mark.slow  # several seconds: the quick loop stays under two minutes
async def test_a_joined_store_syncs_while_the_app_runs(
    store_path: Path, clock: FakeClock, shared: Path, other_laptop: Memory
) -> None:
    reports = Reports()
    app = make_app(store_path, clock)
    async with app.run_test(size=(140, 50), message_hook=reports) as pilot:
        first = await reports.wait_for(lambda r: True)
        assert first.summary() == "exported 1, imported 1 from 1 file (1 memory changed)"
        await pilot.pause()
        await pilot.press("f6")
        await settle(pilot)
        card = sync_card(app)
        assert f"folder: {shared} · watching for changes" in card
        mine = app.memory.device_id  # type: ignore[union-attr]
        assert f"this device: home-laptop ({mine}) · 0 changes to export" in card
        other = other_laptop.device_id
        assert f"other device work-laptop ({other}): last seen just now · 0 files" in card
        assert f"last sync: just now — {first.summary()}" in card
        assert "2 active" in str(app.screen.query_one("#counts").render())

        # A memory made on the other laptop while the Health page is in front shows up there.
        seen = len(reports.reports)
        other_laptop.remember(CHESS)
        export_pending(other_laptop, shared)
        await reports.wait_for(lambda r: r.imported.events > 0, after=seen)
        await pilot.pause()
        await settle(pilot)
        assert "3 active" in str(app.screen.query_one("#counts").render())
        assert "3 memories" in app.status_text

        # ... and on the Memories page, which reloads in place.
        await pilot.press("f3")
        await settle(pilot)
        table: DataTable[object] = app.screen.query_one("#memories", DataTable)
        assert table.row_count == 3
        seen = len(reports.reports)
        made = other_laptop.remember("My sister lives in Lyon")
        export_pending(other_laptop, shared)
        await reports.wait_for(lambda r: r.imported.events > 0, after=seen)
        await pilot.pause()
        await settle(pilot)
        assert table.row_count == 4 and made.id in {str(key.value) for key in table.rows}
        assert app.memory is not None
        # This laptop's own memory goes out without any sync command.
        seen = len(reports.reports)
        mine = app.memory.remember("I am learning Portuguese")
        await reports.wait_for(lambda r: r.exported > 0, after=seen)
    assert app.sync.stopped.is_set() and not app.sync.running  # quitting stopped the watch
    from sync import import_new

    import_new(other_laptop, shared)
    assert other_laptop.get(mine.id).content == "I am learning Portuguese"


async def test_health_names_a_laptop_silent_for_weeks(
    store_path: Path, clock: FakeClock, shared: Path, other_laptop: Memory
) -> None:
    other = other_laptop.device_id
    three_weeks_ago = time.time() - 21 * 86400
    for path in (shared / other).iterdir():
        os.utime(path, (three_weeks_ago, three_weeks_ago))
    reports = Reports()
    app = make_app(store_path, clock)
    async with app.run_test(size=(140, 50), message_hook=reports) as pilot:
        await reports.wait_for(lambda r: True)
        await pilot.press("f6")
        await settle(pilot)
        date = datetime.fromtimestamp(three_weeks_ago).strftime("%Y-%m-%d")
        assert (
            f"work-laptop ({other}) has not written since {date}; if it was this laptop before "
            f"a restore, run `localmind sync forget-device {other}`"
        ) in sync_card(app)

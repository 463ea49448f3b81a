"""The TUI driven by Textual's Pilot against a real encrypted store (cheap KDF) and, for chat,
the Ollama-speaking test server."""

from __future__ import annotations

import contextlib
import io
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.app import App
from textual.pilot import Pilot
from textual.worker import WorkerCancelled

from localmind import Memory
from localmind.llm.base import LLM
from tests.conftest import DAY, FAST_KDF, PASSPHRASE, FakeClock
from tui.app import LocalmindApp

TEA = "I prefer green tea over coffee"
RUST = "用户喜欢 Rust 编程语言"
ENGINEER = "The user is a software engineer working on databases"
HIKING = "Went hiking in the Alps with my sister last August"
RENT = "My rent is 1200 euros a month"
RENT_NEW = "My rent went up to 1450 euros a month"


def seed(path: Path, clock: FakeClock, *, conflict: bool = False) -> dict[str, str]:
    """A store with a few memories of different ages (and one pending conflict if asked);
    returns content -> id."""
    ids: dict[str, str] = {}
    with Memory.open(path, PASSPHRASE, kdf=FAST_KDF, clock=clock) as memory:
        for content, kind, importance in (
            (HIKING, "episodic", 0.4),
            (ENGINEER, "semantic", 0.9),
            (RUST, "semantic", 0.8),
            (TEA, "semantic", 0.7),
        ):
            ids[content] = memory.remember(content, kind, importance).id
            clock.advance(days=2)
        if conflict:
            ids[RENT] = memory.remember(RENT, "semantic").id
            outcome = memory.remember_explained(RENT_NEW, "semantic")
            assert outcome.conflict_id is not None, outcome
            ids[RENT_NEW] = outcome.record.id
        clock.advance(days=1)
    return ids


def make_app(
    path: Path,
    clock: FakeClock,
    *,
    llm: LLM | None = None,
    passphrase: str | None = PASSPHRASE,
) -> LocalmindApp:
    return LocalmindApp(path, llm=llm, clock=clock, passphrase=passphrase, kdf=FAST_KDF)


@pytest.fixture(autouse=True)
def notifications_stay(monkeypatch: pytest.MonkeyPatch) -> None:
    """Textual drops a notification 5 s of wall-clock time after showing it, and the tests read
    what was said from ``app._notifications``: on a loaded machine (the suite's parallel
    workers) a press and the assertion after it took longer, and "Maintenance done" was gone.
    The app shows the same notifications; they only stay up for the test to read them."""
    monkeypatch.setattr(LocalmindApp, "NOTIFICATION_TIMEOUT", 3600.0)


@pytest.fixture
def seeded(store_path: Path, clock: FakeClock) -> dict[str, str]:
    return seed(store_path, clock)


__all__ = ["DAY", "PASSPHRASE", "make_app", "seed", "settle", "until"]


async def settle(pilot: object) -> None:
    """Let the app's workers finish and their results reach the screen (twice: a worker's
    result may start another, e.g. a reload after a change). The sync worker runs until the
    app quits: tests wait for its reports instead (see test_sync.py)."""
    from textual.pilot import Pilot

    assert isinstance(pilot, Pilot)
    # Until a pause starts no new worker (a result may start another: the profile's rebuild
    # starts a reload). The headings once caught over wider rows were not a wait too short
    # but a stale cache in Textual's table, which no wait undoes: see tui/widgets/table.py.
    quiet = 0
    for _ in range(20):
        if workers := [w for w in pilot.app.workers if w.group != "sync"]:
            # one a newer worker of its exclusive group replaced (refresh_status under load)
            # is cancelled: it is as finished as it will get; the loop waits for the others
            with contextlib.suppress(WorkerCancelled):
                await pilot.app.workers.wait_for_complete(workers)
            quiet = 0
        else:
            quiet += 1
        await pilot.pause()
        if quiet == 2:
            break


def on_page(key: str, *then: str) -> Callable[[Pilot[None]], Awaitable[None]]:
    """Settle, press ``key`` (a page's F-key), then each of ``then``, settling after each."""

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press(key)
        await settle(pilot)
        for press in then:
            await pilot.press(press)
            await settle(pilot)

    return run_before


def screen_text(app: App[Any]) -> str:
    """What the terminal shows, as plain text (one line per row)."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True)
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text()


def words(text: str) -> str:
    """``text`` as one line of words, without box-drawing edges: a message wrapped over
    several rows of a dialog reads as it was written."""
    kept = "".join(" " if "\u2500" <= ch <= "\u259f" else ch for ch in text)
    return " ".join(kept.split())


async def until(pilot: Pilot[None], condition: Callable[[], bool], seconds: float = 10.0) -> bool:
    """Whether ``condition`` came true within ``seconds`` (the app's polls run meanwhile)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        await pilot.pause(0.1)
    return True

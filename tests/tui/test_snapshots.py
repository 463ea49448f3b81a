"""What each page looks like, against deterministic data (a fixed clock, relative store path,
no ids on screen). Update after an intended change with ``pytest --snapshot-update``."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from localmind.llm.ollama import OllamaLLM
from tests.conftest import FakeClock
from tests.ollama_server import FakeOllama
from tests.tui.conftest import make_app, seed, settle

SIZE = (120, 34)
SnapCompare = Callable[..., bool]


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clock: FakeClock) -> Path:
    """A seeded store at the relative path ``memory.db`` (the status bar shows the path)."""
    monkeypatch.chdir(tmp_path)
    seed(Path("memory.db"), clock, conflict=True)
    return Path("memory.db")


def on_page(key: str, *then: str) -> Callable[[Pilot[None]], Awaitable[None]]:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press(key)
        await settle(pilot)
        for press in then:
            await pilot.press(press)
            await settle(pilot)

    return run_before


def test_unlock_screen(snap_compare: SnapCompare, here: Path, clock: FakeClock) -> None:
    assert snap_compare(make_app(here, clock, passphrase=None), terminal_size=SIZE)


def test_create_screen(
    snap_compare: SnapCompare, tmp_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    app = make_app(Path("new.db"), clock, passphrase=None)
    assert snap_compare(app, terminal_size=SIZE)


def test_memories_page(snap_compare: SnapCompare, here: Path, clock: FakeClock) -> None:
    assert snap_compare(make_app(here, clock), terminal_size=SIZE, run_before=on_page("f3"))


def test_memories_search(snap_compare: SnapCompare, here: Path, clock: FakeClock) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await on_page("f3")(pilot)
        pilot.app.screen.query_one("#search", Input).value = "tea"
        await settle(pilot)

    assert snap_compare(make_app(here, clock), terminal_size=SIZE, run_before=run_before)


def test_history_modal(snap_compare: SnapCompare, here: Path, clock: FakeClock) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        app = pilot.app
        memory = app.memory  # type: ignore[attr-defined]
        newest = memory.list_memories()[0]  # the one the cursor starts on
        memory.update(newest.id, content=newest.content.replace("1450", "1500"))
        await on_page("f3")(pilot)
        await pilot.press("h")
        await settle(pilot)

    assert snap_compare(make_app(here, clock), terminal_size=SIZE, run_before=run_before)


def test_chat_page(
    snap_compare: SnapCompare, here: Path, clock: FakeClock, ollama_server: FakeOllama
) -> None:
    ollama_server.when_schema_has(
        "facts", {"facts": [{"content": "The user drinks tea every afternoon"}]}
    )
    ollama_server.when_schema_has("relation", {"relation": "compatible", "reason": "both true"})
    ollama_server.default_reply = "Green tea, as you told me. Shall I brew some?"
    app = make_app(here, clock, llm=OllamaLLM(host=ollama_server.host, timeout_s=5.0))

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        pilot.app.screen.query_one("#message", Input).value = "What do I like to drink?"
        await pilot.press("enter")
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_conflicts_page(snap_compare: SnapCompare, here: Path, clock: FakeClock) -> None:
    assert snap_compare(make_app(here, clock), terminal_size=SIZE, run_before=on_page("f4"))


def test_conflicts_page_at_80x24(snap_compare: SnapCompare, here: Path, clock: FakeClock) -> None:
    """The smallest terminal the app supports: every key of the page is in its footer."""
    run_before = on_page("f4")
    assert snap_compare(make_app(here, clock), terminal_size=(80, 24), run_before=run_before)


def test_profile_page(snap_compare: SnapCompare, here: Path, clock: FakeClock) -> None:
    run_before = on_page("f5", "r")
    assert snap_compare(make_app(here, clock), terminal_size=SIZE, run_before=run_before)


def test_health_page(snap_compare: SnapCompare, here: Path, clock: FakeClock) -> None:
    assert snap_compare(make_app(here, clock), terminal_size=SIZE, run_before=on_page("f6"))


def test_help_screen(snap_compare: SnapCompare, here: Path, clock: FakeClock) -> None:
    assert snap_compare(make_app(here, clock), terminal_size=SIZE, run_before=on_page("f1"))

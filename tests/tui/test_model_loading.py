"""The TUI shows the store at once and loads the embedding model in a worker: the bundled model
is held back by the test hook (a file that must exist before it may load) and this process's
already loaded model is set aside, so the app really has to load it."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from localmind.embedders import use
from tests.conftest import FakeClock
from tests.tui.conftest import ENGINEER, HIKING, RUST, TEA, make_app, settle
from tests.tui.test_memories import contents
from tui.app import LocalmindApp


async def settle_without_the_model(pilot: Pilot[None]) -> None:
    waiting = [w for w in pilot.app.workers if w.group not in ("sync", "model")]
    if waiting:
        await pilot.app.workers.wait_for_complete(waiting)
    await pilot.pause()


async def test_the_store_is_shown_while_the_model_loads_and_search_waits_for_it(
    store_path: Path,
    clock: FakeClock,
    seeded: dict[str, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    gate = tmp_path / "the model may load now"
    monkeypatch.setenv(use.MODEL_GATE_ENV, str(gate))
    monkeypatch.setattr(use, "_models", {})  # as in a new process: not loaded yet
    app = make_app(store_path, clock)
    try:
        await shows_the_store_then_searches(app, gate)
    finally:
        gate.touch()  # never leave the worker waiting: the app's exit would wait for it


async def shows_the_store_then_searches(app: LocalmindApp, gate: Path) -> None:
    async with app.run_test(size=(140, 40)) as pilot:
        await settle_without_the_model(pilot)
        await pilot.press("f3")
        await settle_without_the_model(pilot)
        assert contents(app) == [TEA, RUST, ENGINEER, HIKING]
        loading = [w for w in app.workers if w.group == "model"]
        assert loading and not loading[0].is_finished  # the model is still held back

        app.screen.query_one("#search", Input).value = "Rust"
        await pilot.pause()
        gate.touch()
        await settle(pilot)
        assert loading[0].is_finished
        assert contents(app)[0] == RUST
        assert use._models  # loaded once, by the worker or the search, for both

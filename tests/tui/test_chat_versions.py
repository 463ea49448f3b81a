"""The chat page's breakdown says which memory is newer and from when, and what a memory said
in the period the message names (issue 12, fix9 items 1 and 3). The real store and embedder,
the Ollama-speaking test server."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.widgets import DataTable, Input

from localmind import Memory
from localmind.llm.ollama import OllamaLLM
from tests.conftest import FakeClock
from tests.integration.test_resolved_answers import MOVES, moved
from tests.ollama_server import FakeOllama
from tests.tui.conftest import make_app, settle
from tests.tui.test_chat import say
from tui.screens.chat import ChatScreen


@pytest.mark.slow
async def test_the_breakdown_names_the_newer_memory_and_the_earlier_text(
    store_path: Path,
    clock: FakeClock,
    open_memory: Callable[..., Memory],
    ollama_server: FakeOllama,
) -> None:
    old, new, question, sister = MOVES[0]
    memory = open_memory(llm=None)
    conflict = moved(memory, old, new, sister)
    berlin = memory.conflicts()[0].existing.id
    lisbon = memory.conflicts()[0].candidate.id
    memory.close()
    ollama_server.default_reply = "Lisbon."
    app = make_app(store_path, clock, llm=OllamaLLM(host=ollama_server.host, timeout_s=5.0))
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        await say(pilot, app, question)
        screen = app.screen
        assert isinstance(screen, ChatScreen) and berlin in screen.recalled
        table = screen.query_one("#recalled", DataTable)
        table.focus()
        table.move_cursor(row=table.get_row_index(berlin))
        await pilot.pause()
        shown = str(screen.query_one("#breakdown").render())
        assert f"may be outdated: #{lisbon} from 2026-03-20 is newer" in shown, shown

        assert app.memory is not None
        app.memory.resolve_conflict(conflict, "take-new")
        screen.query_one("#message", Input).focus()
        await say(pilot, app, "Where did I live last year?")
        table.focus()
        table.move_cursor(row=table.get_row_index(berlin))  # the kept memory is Berlin's
        await pilot.pause()
        shown = str(screen.query_one("#breakdown").render())
        assert "earlier (told 2025-01-10, until 2026-03-20): I live in Berlin" in shown, shown

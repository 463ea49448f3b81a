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
from tests.tui.conftest import make_app, settle, until
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
        assert isinstance(screen, ChatScreen)
        assert await until(pilot, lambda: berlin in screen.recalled)
        table = screen.query_one("#recalled", DataTable)

        def breakdown_of(memory_id: str) -> str:
            table.focus()
            table.move_cursor(row=table.get_row_index(memory_id))
            return str(screen.query_one("#breakdown").render())

        newer = f"may be outdated: #{lisbon} from 2026-03-20 is newer"
        assert await until(pilot, lambda: newer in breakdown_of(berlin)), breakdown_of(berlin)

        assert app.memory is not None
        app.memory.resolve_conflict(conflict, "take-new")
        screen.query_one("#message", Input).focus()
        await say(pilot, app, "Where did I live last year?")
        # the kept memory is Berlin's, which now holds the move
        assert await until(pilot, lambda: bool(getattr(screen.recalled.get(berlin), "earlier", ())))
        earlier = "earlier (told 2025-01-10, until 2026-03-20): I live in Berlin"
        assert await until(pilot, lambda: earlier in breakdown_of(berlin)), breakdown_of(berlin)

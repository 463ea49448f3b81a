"""The chat page against the Ollama-speaking test server (and without a model)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import DataTable, Input, Static, TextArea

from localmind import Memory
from localmind.chat.session import WITHHELD_NOTE
from localmind.llm.ollama import OllamaLLM
from tests.conftest import FAST_KDF, PASSPHRASE, FakeClock
from tests.ollama_server import FakeOllama, unused_port_host
from tests.tui.conftest import TEA, make_app, screen_text, settle, words
from tui.app import LocalmindApp
from tui.screens.chat import ChatScreen
from tui.widgets.editor import EditorModal

REPLY = "Green tea, as you told me. Shall I brew some?"
FACT = "The user drinks tea every afternoon"


@pytest.fixture
def server(ollama_server: FakeOllama) -> FakeOllama:
    ollama_server.when_schema_has("facts", {"facts": [{"content": FACT, "type": "semantic"}]})
    ollama_server.when_schema_has("relation", {"relation": "compatible", "reason": "both true"})
    ollama_server.default_reply = REPLY
    return ollama_server


def texts(app: LocalmindApp, selector: str) -> list[str]:
    return [str(w.render()) for w in app.screen.query(selector).results(Static)]


async def say(pilot: object, app: LocalmindApp, text: str) -> None:
    from textual.pilot import Pilot

    assert isinstance(pilot, Pilot)
    app.screen.query_one("#message", Input).value = text
    await pilot.press("enter")
    await settle(pilot)


async def test_a_turn_streams_the_reply_and_shows_what_was_recalled_and_remembered(
    store_path: Path, clock: FakeClock, seeded: dict[str, str], server: FakeOllama
) -> None:
    llm = OllamaLLM(host=server.host, timeout_s=5.0)
    app = make_app(store_path, clock, llm=llm)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ChatScreen)
        assert "LLM qwen2.5:3b" in app.status_text
        assert not app.screen.query_one("#offline").display

        await say(pilot, app, "What do I like to drink, tea or coffee?")

        assert texts(app, ".message.user") == ["What do I like to drink, tea or coffee?"]
        assert texts(app, ".message.assistant") == [REPLY]
        assert any(r.path == "/api/chat" and r.body.get("stream") for r in server.requests)
        recalled = app.screen.query_one("#recalled", DataTable)
        assert app.screen.recalled and recalled.row_count == len(app.screen.recalled)
        first = next(iter(app.screen.recalled.values()))
        assert first.memory.content == TEA
        assert str(recalled.get_cell(first.memory.id, "score")) == f"{first.score:.2f}"
        assert "score" in str(app.screen.query_one("#breakdown").render())
        remembered = str(app.screen.query_one("#remembered").render())
        assert FACT in remembered and "new" in remembered
        assert app.memory is not None
        assert FACT in [r.content for r in app.memory.list_memories()]
        assert app.screen.query_one("#message", Input).has_focus


async def test_feedback_keys_on_a_recalled_memory_change_it_in_the_store(
    store_path: Path, clock: FakeClock, seeded: dict[str, str], server: FakeOllama
) -> None:
    app = make_app(store_path, clock, llm=OllamaLLM(host=server.host, timeout_s=5.0))
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        await say(pilot, app, "What do I like to drink, tea or coffee?")
        tea = seeded[TEA]
        table = app.screen.query_one("#recalled", DataTable)
        table.focus()
        table.move_cursor(row=table.get_row_index(tea))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ChatScreen)
        old = screen.recalled[tea].breakdown
        before = str(app.screen.query_one("#breakdown").render())
        assert "confidence 0.80 × relevance" in before
        assert "0.1×importance" in before and "0.1×frequency 0.00" in before  # the weights
        await pilot.press("y")
        await settle(pilot)
        assert app.memory is not None
        assert app.memory.get(tea).confidence == pytest.approx(0.9)
        assert str(table.get_cell(tea, "conf")) == "0.90"
        # the score follows: the same relevance, the confidence and uses it has now
        b = screen.recalled[tea].breakdown
        assert b.similarity == old.similarity and b.frequency > old.frequency  # a use
        boost = 1 + 0.1 * b.importance + 0.1 * b.recency + 0.1 * b.frequency
        assert b.score == pytest.approx(0.9 * b.similarity * boost) and b.score > old.score
        after = str(app.screen.query_one("#breakdown").render())
        assert f"score {b.score:.3f} = confidence 0.90 × relevance" in after
        assert str(table.get_cell(tea, "score")) == f"{b.score:.2f}"

        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, EditorModal)
        app.screen.query_one(TextArea).text = "I prefer oolong tea over coffee"
        await pilot.press("ctrl+s")
        await settle(pilot)
        record = app.memory.get(tea)
        assert record.content == "I prefer oolong tea over coffee"
        assert record.confidence == pytest.approx(0.9) and record.version == 2
        assert "oolong" in str(table.get_cell(tea, "content"))


async def test_without_ollama_the_chat_says_how_to_start_it(
    store_path: Path, clock: FakeClock, seeded: dict[str, str]
) -> None:
    llm = OllamaLLM(host=unused_port_host(), timeout_s=1.0)
    app = make_app(store_path, clock, llm=llm)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        offline = app.screen.query_one("#offline")
        assert offline.display
        assert "ollama serve" in str(offline.render())
        assert "ollama pull qwen2.5:3b" in str(offline.render())
        assert "LLM offline" in app.status_text

        await say(pilot, app, "What do I like to drink?")
        assert "no reply" in texts(app, ".message.assistant")[0]
        assert app.screen.recalled  # recall works without the model
        await pilot.press("f3")
        await settle(pilot)
        assert app.screen.query_one("#memories", DataTable).row_count >= 4


async def test_at_80x24_the_offline_banner_leaves_the_message_field_in_view(
    store_path: Path, clock: FakeClock, seeded: dict[str, str]
) -> None:
    """The default terminal size: the banner is a few lines and the field to type in is
    wholly on screen (issue 16 item 6)."""
    llm = OllamaLLM(host=unused_port_host(), timeout_s=1.0)
    app = make_app(store_path, clock, llm=llm)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        offline, field = app.screen.query_one("#offline"), app.screen.query_one("#message")
        assert offline.display and offline.region.height <= 6
        assert field.region.height == 3 and field.region.bottom <= 24 - 2  # status, footer
        assert "then fetch the model once with `ollama pull qwen2.5:3b`." in words(screen_text(app))
        await say(pilot, app, "What do I like to drink?")
        assert "no reply" in texts(app, ".message.assistant")[0]
        recalled = app.screen.query_one("#recalled", DataTable)
        assert [str(key.value) for key in recalled.columns] == ["content", "score", "conf"]
        assert "I prefer green tea" in screen_text(app)  # the figures are in the score line


async def test_a_secret_told_in_the_chat_is_said_to_stay_out_of_the_models_prompt(
    store_path: Path, clock: FakeClock, seeded: dict[str, str], ollama_server: FakeOllama
) -> None:
    secret = "The user's wifi password is sunflower77"
    ollama_server.when_schema_has("facts", {"facts": [{"content": secret, "type": "semantic"}]})
    ollama_server.when_schema_has("relation", {"relation": "compatible", "reason": "both true"})
    ollama_server.default_reply = REPLY
    app = make_app(store_path, clock, llm=OllamaLLM(host=ollama_server.host, timeout_s=5.0))
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        await say(pilot, app, "Remember my wifi password, it is sunflower77")
        remembered = str(app.screen.query_one("#remembered").render())
        assert "looks like a secret" in remembered and "never sent to an assistant" in remembered
        # the message was not sent to the model, and the page says so (secret10)
        assert texts(app, ".message.withheld") == [WITHHELD_NOTE]

        await say(pilot, app, "What is the wifi password at home?")
        # recalled for the person, but hidden in the sidebar as on the Memories page
        screen = app.screen
        assert isinstance(screen, ChatScreen)
        secret = next(r.memory for r in screen.recalled.values() if r.memory.secret)
        table = screen.query_one("#recalled", DataTable)
        table.move_cursor(row=table.get_row_index(secret.id))
        await settle(pilot)
        assert "🔒" in str(table.get_cell(secret.id, "content"))
        sidebar = str(table.get_row(secret.id)) + str(screen.query_one("#breakdown").render())
        assert "sunflower77" not in sidebar and "🔒" in sidebar
    replies = [r.body for r in ollama_server.requests if r.path == "/api/chat" and r.body["stream"]]
    system = replies[-1]["messages"][0]
    assert system["role"] == "system" and "sunflower77" not in system["content"]
    assert not any("sunflower77" in json.dumps(r.body) for r in ollama_server.requests)


@pytest.mark.slow
async def test_the_status_bar_counts_the_stored_memories_and_this_sessions_apart(
    store_path: Path, clock: FakeClock, seeded: dict[str, str]
) -> None:
    """Without a model a message lives only in the session's short-term buffer: `localmind
    stats` (another program) does not count it, so the status bar says it apart."""
    app = make_app(store_path, clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert f"· {len(seeded)} memories ·" in app.status_text
        await say(pilot, app, "I moved to Porto last week")
        assert app.memory is not None
        assert len(app.memory.short_term()) == 1
        assert app.memory.stats()["active"] == len(seeded) + 1  # this app's own count
        assert f"· {len(seeded)} memories + 1 this session ·" in app.status_text
        # on screen too: the long temporary store path gives way to the counts
        assert f"memory.db · {len(seeded)} memories + 1 this session" in screen_text(app)
    with Memory.open(store_path, PASSPHRASE, kdf=FAST_KDF, clock=clock) as memory:
        assert memory.stats()["active"] == len(seeded)  # what `localmind stats` says

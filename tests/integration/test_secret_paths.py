"""secret10 item 3: no log line, at any level and from any library (the model client's, the MCP
SDK's), holds a secret's text, whichever way it was told (the app's chat, MCP) or asked about.
The real store, the real model client against tests/ollama_server.py and the real MCP client."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable

import pytest
from mcp import Client

from localmind import Memory
from localmind.chat import Session
from localmind.llm.ollama import OllamaLLM
from localmind.mcp.server import build_server
from tests.integration.test_mcp import call
from tests.ollama_server import FakeOllama

SECRETS = ("zqxwvplor", "4821", "Tr0ub4dor&3")


@pytest.mark.slow  # a guard over every path at once; each path has its own quick test
async def test_no_log_line_at_any_level_holds_a_secrets_text(
    open_memory: Callable[..., Memory],
    llm: OllamaLLM,
    ollama_server: FakeOllama,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)  # every logger, every level: the model client's, the SDK's
    ollama_server.when_schema_has("facts", {"facts": []})
    ollama_server.when_schema_has("relation", {"relation": "compatible", "reason": "both"})
    memory = open_memory(llm=llm)
    memory.remember("My bank PIN is 4821", "semantic")
    session = Session(memory, llm)
    session.turn("I'm at the gym. My locker code word is zqxwvplor. Any stretches?")
    session.turn("What did I tell you?")
    async with Client(build_server(memory)) as client:
        await call(client, "remember", content="email password: Tr0ub4dor&3")
        await call(client, "recall", query="what is my bank PIN?")
        await call(client, "context", query="my gym locker")
    assert caplog.records  # the model client and the MCP SDK did log
    for secret in SECRETS:
        assert secret not in caplog.text
    assert not any(s in json.dumps([r.body for r in ollama_server.requests]) for s in SECRETS)

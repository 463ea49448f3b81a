"""``localmind mcp`` as an assistant meets it: the real server in a subprocess, spoken to over
stdio by the MCP SDK's own client, on a real encrypted store with the bundled embedding model.
Ollama is a closed port, so the server runs as it does when no local model is up.

The bad-input table also runs in-process (the SDK's in-memory client against ``build_server``)
so the quick loop (``-m "not slow"``) covers every message without starting a server.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, ClientSession, StdioServerParameters, stdio_client
from mcp.types import CallToolResult, TextContent

from localmind import Memory
from localmind.keys import UNSAFE_TEST_KDF_ENV
from localmind.mcp.server import build_server
from tests.cli_support import files_of
from tests.conftest import PASSPHRASE
from tests.ollama_server import unused_port_host

TEA = "I prefer green tea over coffee"
RUST = "用户喜欢 Rust 编程语言"
SERVER = [sys.executable, "-m", "localmind", "mcp"]
REQUIRED = {
    "remember": ["content"],
    "recall": ["query"],
    "context": ["query"],
    "feedback": ["id", "verdict"],
    "forget": ["id"],
    "profile": [],
    "update": ["id", "content"],
    "conflicts": [],
    "resolve": ["conflict", "resolution"],
}
# (tool, arguments, what the library says): each must come back as a tool error.
BAD_INPUT = [
    ("remember", {"content": "   "}, "Memory content is empty."),
    ("remember", {"content": TEA, "type": "gossip"}, "Unknown memory type 'gossip'"),
    ("remember", {"content": TEA, "importance": 3}, "importance must be between 0 and 1"),
    ("recall", {"query": "tea", "limit": 0}, "limit must be at least 1, not 0."),
    ("recall", {"query": "tea", "types": ["gossip"]}, "Unknown memory type 'gossip'"),
    ("forget", {"id": "01NOSUCHMEMORY"}, "No memory with id '01NOSUCHMEMORY'."),
    ("feedback", {"id": "01NOSUCHMEMORY", "verdict": "confirm"}, "No memory with id"),
    ("feedback", {"id": "01NOSUCHMEMORY", "verdict": "meh"}, "Unknown feedback 'meh'"),
    ("remember", {}, "content"),  # missing argument: the SDK's schema check names it
]


def server_env(db: Path, passphrase: str | None = PASSPHRASE) -> dict[str, str]:
    """What an MCP client's configuration would pass; never the developer's own Ollama."""
    env = {"LOCALMIND_DB": str(db), "OLLAMA_HOST": unused_port_host()}
    env[UNSAFE_TEST_KDF_ENV] = "1"  # the test store's cheap key derivation (conftest.py)
    if passphrase is not None:
        env["LOCALMIND_PASSPHRASE"] = passphrase
    return env


@asynccontextmanager
async def served(db: Path, log_name: str = "server.log") -> AsyncIterator[ClientSession]:
    """A session with ``localmind mcp`` started as an MCP client starts it (its stderr, the
    client's log, goes next to the store as ``log_name``: one each for two servers). Anything on
    the server's stdout that is not protocol reaches the client as an exception, which fails
    the test."""
    params = StdioServerParameters(command=SERVER[0], args=SERVER[1:], env=server_env(db))
    not_protocol: list[Exception] = []

    async def watch(message: object) -> None:
        if isinstance(message, Exception):
            not_protocol.append(message)

    with (db.parent / log_name).open("w", encoding="utf-8") as log:
        async with (
            stdio_client(params, errlog=log) as (read, write),
            ClientSession(read, write, message_handler=watch) as session,
        ):
            await session.initialize()
            yield session
            await session.send_ping()  # a last round trip, so stray output has been read
    assert not_protocol == []


def text_of(result: CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if isinstance(block, TextContent))


async def call(session: ClientSession | Client, tool: str, **arguments: Any) -> Any:
    """The tool's result: its one text block, JSON read back (``context`` answers plain text)."""
    result = await session.call_tool(tool, arguments)
    assert isinstance(result, CallToolResult)
    assert not result.is_error, text_of(result)
    assert len(result.content) == 1
    return text_of(result) if tool == "context" else json.loads(text_of(result))


async def refused(session: ClientSession | Client, tool: str, **arguments: Any) -> str:
    """The message of a call that must fail as a tool error (not a protocol error)."""
    result = await session.call_tool(tool, arguments)
    assert isinstance(result, CallToolResult)
    assert result.is_error, result
    return text_of(result)


# --- over stdio, as an assistant runs it --------------------------------------------------------


@pytest.mark.slow
async def test_it_offers_its_tools_with_their_required_arguments(store: Path):
    async with served(store) as session:
        listed = await session.list_tools()

    tools = {tool.name: tool.input_schema for tool in listed.tools}
    assert set(tools) == set(REQUIRED)
    for name, required in REQUIRED.items():
        assert sorted(tools[name].get("required", [])) == sorted(required), name
    assert {"content", "type", "importance"} <= set(tools["remember"]["properties"])
    assert {"query", "limit", "types"} <= set(tools["recall"]["properties"])
    assert {"id", "verdict", "new_content"} <= set(tools["feedback"]["properties"])


@pytest.mark.slow
async def test_what_is_remembered_is_recalled_in_english_and_chinese(store: Path):
    async with served(store) as session:
        tea = await call(session, "remember", content=TEA, type="semantic", importance=0.8)
        rust = await call(session, "remember", content=RUST, type="semantic")
        drinks = await call(session, "recall", query="what do I like to drink?")
        coding = await call(session, "recall", query="编程", limit=1)
        again = await call(session, "remember", content=TEA.upper())

    assert tea["decision"] == "inserted" and tea["reason"]
    assert (tea["type"], tea["content"]) == ("semantic", TEA)
    assert drinks[0]["id"] == tea["id"]
    assert drinks[0]["content"] == TEA
    assert drinks[0]["type"] == "semantic"
    assert drinks[0]["score"] > 0
    assert 0 < drinks[0]["relevance"] <= 1
    # said once, beside it; one name for one thing (the breakdown's cosine is the embeddings')
    assert not {"score", "relevance", "similarity"} & set(drinks[0]["breakdown"])
    assert {"cosine", "importance", "recency", "frequency", "confidence"} <= set(
        drinks[0]["breakdown"]
    )
    assert [(hit["id"], hit["content"]) for hit in coding] == [(rust["id"], RUST)]
    # The same fact again strengthens the memory instead of duplicating it.
    assert (again["decision"], again["id"]) == ("reinforced", tea["id"])
    assert again["confidence"] > tea["confidence"]


@pytest.mark.slow
async def test_feedback_moves_confidence_and_a_correction_replaces_the_text(store: Path):
    async with served(store) as session:
        tea = await call(session, "remember", content=TEA)
        confirmed = await call(session, "feedback", id=tea["id"], verdict="confirm")
        after_confirm = await call(session, "recall", query="green tea", limit=1)
        denied = await call(session, "feedback", id=tea["id"], verdict="deny")
        corrected = await call(
            session, "feedback", id=tea["id"], verdict="correct", new_content="I prefer oolong"
        )
        after_correct = await call(session, "recall", query="oolong", limit=1)

    assert confirmed["confidence"] == pytest.approx(tea["confidence"] + 0.1)
    assert after_confirm[0]["breakdown"]["confidence"] == pytest.approx(confirmed["confidence"])
    assert denied["confidence"] == pytest.approx(confirmed["confidence"] - 0.2)
    assert corrected["version"] == 2
    assert corrected["confidence"] == pytest.approx(0.9)
    assert (after_correct[0]["id"], after_correct[0]["content"]) == (tea["id"], "I prefer oolong")


@pytest.mark.slow
async def test_a_forgotten_memory_is_no_longer_recalled(store: Path):
    async with served(store) as session:
        tea = await call(session, "remember", content=TEA)
        rust = await call(session, "remember", content=RUST)
        forgotten = await call(session, "forget", id=tea["id"])
        hits = await call(session, "recall", query="green tea coffee")

    assert forgotten == {"id": tea["id"], "forgotten": True, "content": TEA}
    # nothing about tea is left, and the unrelated memory is not offered as filler
    assert tea["id"] not in [hit["id"] for hit in hits]
    assert rust["id"] not in [hit["id"] for hit in hits]


@pytest.mark.slow
async def test_bad_input_is_a_tool_error_and_the_server_keeps_serving(store: Path):
    async with served(store) as session:
        for tool, arguments, message in BAD_INPUT:
            assert message in await refused(session, tool, **arguments), (tool, arguments)
            # The same session still works after every refusal.
            assert await call(session, "recall", query="anything") == []
        tea = await call(session, "remember", content=TEA)
        hits = await call(session, "recall", query="tea")

    assert [hit["id"] for hit in hits] == [tea["id"]]
    assert "Traceback" not in (store.parent / "server.log").read_text(encoding="utf-8")


@pytest.mark.slow
async def test_context_and_profile_describe_the_user(store: Path):
    async with served(store) as session:
        empty = await call(session, "profile")
        await call(session, "remember", content=TEA, type="semantic", importance=0.9)
        await call(session, "remember", content="I work as a data engineer", type="semantic")
        context = await call(session, "context", query="what should I drink?")
        built = await call(session, "profile", rebuild=True)
        again = await call(session, "profile")

    assert empty == {"text": None, "version": None, "method": None}
    assert isinstance(context, str)
    assert TEA in context
    assert built["text"] and built["version"] >= 1
    assert built["method"] == "extractive"  # Ollama is down
    assert again["version"] == built["version"]


@pytest.mark.slow
def test_a_wrong_passphrase_exits_1_with_one_line_and_changes_nothing(store: Path):
    before = files_of(store)

    result = subprocess.run(
        SERVER,
        env=server_env(store, passphrase="not the passphrase"),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )

    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == ["Error: Wrong passphrase: it does not unlock this store."]
    assert files_of(store) == before


@pytest.mark.slow
def test_without_a_passphrase_it_exits_1_and_creates_nothing(tmp_path: Path):
    result = subprocess.run(
        SERVER,
        env=server_env(tmp_path / "memory.db", passphrase=None),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )

    assert result.returncode == 1
    assert result.stdout == ""
    [line] = result.stderr.splitlines()
    assert line.startswith("Error: No passphrase: set LOCALMIND_PASSPHRASE")
    assert list(tmp_path.iterdir()) == []


# --- in-process: the same tools, no subprocess --------------------------------------------------


@pytest.mark.parametrize(("tool", "arguments", "message"), BAD_INPUT)
async def test_each_bad_input_comes_back_with_the_librarys_message(
    memory: Memory, tool: str, arguments: dict[str, Any], message: str
):
    async with Client(build_server(memory)) as client:
        assert message in await refused(client, tool, **arguments)
        assert await call(client, "recall", query="anything") == []


def test_importing_the_core_and_the_cli_does_not_import_mcp():
    code = (
        "import sys, localmind, localmind.cli\n"
        "print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'mcp', 'mcp_types'})))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == ""

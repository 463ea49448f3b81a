"""MCP tool arguments, hostile: any JSON value for any argument. Each call answers, or fails
with a tool error carrying localmind's message (never another exception, which the SDK would
report as an internal error), and a refused call leaves the store as it was.

The tool functions are called directly (no schema check in front: stricter than a client can
be), then through the SDK's in-memory client, as an assistant would call them.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import assume, event, example, given
from hypothesis import strategies as st
from mcp import Client
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult

from localmind import Memory
from localmind.mcp.server import MemoryTools, build_server
from tests.conftest import FAST_KDF, PASSPHRASE
from tests.fuzz.support import (
    INJECTION,
    budget,
    fingerprint,
    hostile_text,
    json_values,
    still_usable,
)

PARAMETERS = {
    "remember": ["content", "type", "importance"],
    "recall": ["query", "limit", "types"],
    "context": ["query"],
    "feedback": ["id", "verdict", "new_content"],
    "forget": ["id"],
    "profile": ["rebuild"],
}
REQUIRED = {"remember": 1, "recall": 1, "context": 1, "feedback": 2, "forget": 1, "profile": 0}
#: Values that are right for each argument, so that hostile ones meet valid neighbours.
PLAUSIBLE: dict[str, list[Any]] = {
    "content": ["I walk to work every day", "用户喜欢 Rust 编程语言", INJECTION],
    "type": ["semantic", "episodic", "long_term", "short_term"],
    "importance": [0.0, 0.5, 1.0, None],
    "query": ["work", "编程", INJECTION],
    "limit": [1, 5, 1000],
    "types": [None, ["semantic"], ["short_term", "episodic"]],
    "verdict": ["confirm", "deny", "correct"],
    "new_content": [None, "I cycle to work"],
    "rebuild": [False, True],
}


@pytest.fixture(scope="module")
def memory(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    path = tmp_path_factory.mktemp("fuzz-mcp") / "memory.db"
    with Memory.open(path, PASSPHRASE, kdf=FAST_KDF) as opened:
        opened.remember("I walk to work every day", "semantic")
        opened.remember("用户喜欢 Rust 编程语言", "semantic")
        yield opened


REAL_ID = object()  # stands for the id of a memory in the store, looked up when called


@st.composite
def arguments(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    """A tool and its arguments: each one left out, plausible, a real id, or any JSON value."""
    tool = draw(st.sampled_from(sorted(PARAMETERS)))
    chosen: dict[str, Any] = {}
    for position, name in enumerate(PARAMETERS[tool]):
        if position >= REQUIRED[tool] and draw(st.booleans()):
            continue  # an optional argument left out
        plausible = [REAL_ID] if name == "id" else PLAUSIBLE[name]
        chosen[name] = draw(st.one_of(st.sampled_from(plausible), json_values, hostile_text))
    return tool, chosen


def with_real_ids(memory: Memory, chosen: dict[str, Any]) -> dict[str, Any]:
    ids = [record.id for record in memory.list_memories(limit=3)] or ["01NOSUCHMEMORY"]
    return {name: ids[0] if value is REAL_ID else value for name, value in chosen.items()}


@budget(250)
@given(call=arguments())
# each was a UnicodeEncodeError (lone surrogates) or an OverflowError (a huge int) before
@example(call=("remember", {"content": "tea \ud800"}))
@example(call=("forget", {"id": "\udcff"}))
@example(call=("remember", {"content": "tea", "importance": 10**400}))
@example(call=("recall", {"query": "tea", "types": [{"nested": ["x"]}]}))
@example(call=("feedback", {"id": REAL_ID, "verdict": "correct", "new_content": "\ud800"}))
def test_any_arguments_to_the_tool_functions(memory: Memory, call: tuple[str, dict[str, Any]]):
    tool, chosen = call[0], with_real_ids(memory, call[1])
    tools = MemoryTools(memory)
    before = fingerprint(memory)
    try:
        answer = getattr(tools, tool)(**chosen)
    except ToolError as error:
        event(f"{tool}: tool error")
        assert str(error).strip()
        assert fingerprint(memory) == before, f"{tool}({chosen!r:.300}) was refused but wrote"
        return
    event(f"{tool}: answered")
    assert isinstance(answer, (dict, list, str))
    if tool == "forget":
        gone = [r for r in memory.list_memories() if r.id == chosen["id"].strip()]
        assert not gone
    still_usable(memory)


@budget(60)
@given(call=arguments(), extra=st.none() | st.tuples(hostile_text, json_values))
def test_any_arguments_through_the_sdk_client(
    memory: Memory, call: tuple[str, dict[str, Any]], extra: tuple[str, Any] | None
):
    tool, chosen = call[0], with_real_ids(memory, call[1])
    if extra is not None:  # an argument the tool does not have
        chosen[extra[0]] = extra[1]
    assume(_sendable(chosen))
    before = fingerprint(memory)

    async def call_it() -> CallToolResult:
        async with Client(build_server(memory)) as client:
            result = await client.call_tool(tool, chosen)
            await client.list_tools()  # and the server still serves
            return result

    result = asyncio.run(call_it())

    assert isinstance(result, CallToolResult)
    event(f"{tool}: {'error' if result.is_error else 'answered'}")
    if result.is_error:
        assert fingerprint(memory) == before


def _sendable(arguments: dict[str, Any]) -> bool:
    """Whether a client can send these at all: JSON text in UTF-8 has no lone surrogates and no
    NaN (the direct calls above cover those)."""
    try:
        json.dumps(arguments, allow_nan=False).encode("utf-8")
        json.dumps(arguments, ensure_ascii=False).encode("utf-8")
    except (ValueError, UnicodeEncodeError, RecursionError):
        return False
    return True

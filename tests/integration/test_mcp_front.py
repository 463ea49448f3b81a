"""``localmind mcp`` answers ``initialize`` before it imports the MCP SDK (localmind.mcp.front),
then hands the conversation to the SDK. The front's answer must be the SDK's, for every
protocol version a client may ask for, with and without a local model; after the hand-over
each request is answered exactly once. Over stdio with the real server in a subprocess, and
in-process against ``build_server`` for the comparison."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.shared.message import SessionMessage
from mcp_types import jsonrpc_message_adapter
from mcp_types.version import KNOWN_PROTOCOL_VERSIONS

from localmind import Memory
from localmind.mcp.front import answer_first_message
from localmind.mcp.server import build_server
from tests.fakes import FakeLLM
from tests.integration.test_mcp import SERVER, server_env


def initialize(version: str, request_id: int | str = 1) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "initialize",
        "params": {
            "protocolVersion": version,
            "capabilities": {"sampling": {}},
            "clientInfo": {"name": "a client", "version": "1.0"},
        },
    }


def front_answer(request: dict[str, Any], with_model: bool) -> dict[str, Any]:
    """What the front writes for ``request``, read back."""
    client_to_front, front_out = os.pipe(), os.pipe()
    try:
        os.write(client_to_front[1], json.dumps(request).encode() + b"\n")
        first = answer_first_message(with_model, stdin=client_to_front[0], stdout=front_out[1])
        assert first.answered_id == request["id"]
        os.close(front_out[1])
        with os.fdopen(front_out[0], "rb") as answer:
            [line] = answer.read().splitlines()
    finally:
        os.close(client_to_front[0])
        os.close(client_to_front[1])
    answer_json: dict[str, Any] = json.loads(line)
    return answer_json


async def sdk_answer(memory: Memory, request: dict[str, Any]) -> dict[str, Any]:
    """What the SDK's session answers to ``request`` on the server ``localmind mcp`` serves, as
    its stdio transport writes it."""
    server = build_server(memory)._lowlevel_server
    to_server, server_reads = anyio.create_memory_object_stream[SessionMessage | Exception](1)
    server_writes, from_server = anyio.create_memory_object_stream[SessionMessage](1)
    async with anyio.create_task_group() as tasks:
        tasks.start_soon(
            server.run, server_reads, server_writes, server.create_initialization_options()
        )
        await to_server.send(SessionMessage(jsonrpc_message_adapter.validate_python(request)))
        reply = await from_server.receive()
        await to_server.aclose()
    wire = reply.message.model_dump_json(by_alias=True, exclude_unset=True)
    answer_json: dict[str, Any] = json.loads(wire)
    return answer_json


@pytest.mark.parametrize("with_model", [False, True])
@pytest.mark.parametrize("version", [*KNOWN_PROTOCOL_VERSIONS, "1999-01-01"])
async def test_the_fronts_answer_to_initialize_is_the_sdks(
    open_memory: Callable[..., Memory], with_model: bool, version: str
):
    memory = open_memory(llm=FakeLLM() if with_model else None)
    for request_id in (1, "first"):
        request = initialize(version, request_id)
        assert front_answer(request, with_model) == await sdk_answer(memory, request)


def converse(store: Path, messages: list[dict[str, Any]], answers: int) -> list[dict[str, Any]]:
    """Everything ``localmind mcp`` writes to its standard output when sent ``messages``: the
    input is closed once ``answers`` lines came (the SDK drops requests still running when the
    input closes), then the rest is read to the end."""
    process = subprocess.Popen(
        SERVER,
        env=server_env(store),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert process.stdin is not None and process.stdout is not None
    with process:
        process.stdin.write(b"".join(json.dumps(m).encode() + b"\n" for m in messages))
        process.stdin.flush()
        lines = [process.stdout.readline() for _ in range(answers)]
        process.stdin.close()
        lines += process.stdout.read().splitlines()
    assert process.returncode == 0
    return [json.loads(line) for line in lines]


@pytest.mark.slow
def test_after_the_hand_over_every_request_is_answered_once(store: Path):
    conversation = [
        initialize("2025-06-18"),
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 3, "method": "ping"},
    ]
    answers = converse(store, conversation, answers=3)

    assert sorted(answer["id"] for answer in answers) == [1, 2, 3]  # (in any order)
    by_id = {answer["id"]: answer for answer in answers}
    assert by_id[1]["result"]["serverInfo"]["name"] == "localmind"
    assert {"recall", "remember"} <= {tool["name"] for tool in by_id[2]["result"]["tools"]}
    assert by_id[3]["result"] == {}


@pytest.mark.slow
def test_a_first_message_that_is_not_initialize_is_left_to_the_sdk(store: Path):
    conversation = [
        {"jsonrpc": "2.0", "id": 7, "method": "ping"},  # allowed before initialize
        {"jsonrpc": "2.0", "id": 8, "method": "tools/list"},  # not allowed: an error
        initialize("2025-03-26", request_id=9),
    ]
    answers = {answer["id"]: answer for answer in converse(store, conversation, answers=3)}

    ping, tools, started = answers[7], answers[8], answers[9]
    assert (ping["id"], ping["result"]) == (7, {})
    assert tools["id"] == 8 and "error" in tools
    assert (started["id"], started["result"]["protocolVersion"]) == (9, "2025-03-26")

"""What an assistant reads back from ``localmind mcp`` (issue 16): results with their dates, in
one compact JSON text and nothing repeated beside it, and arguments it got wrong explained in one
line. The SDK's in-memory client against ``build_server`` on a real store and the bundled model
(``test_mcp.py`` runs the same tools over stdio)."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

import pytest
from mcp import Client
from mcp.types import CallToolResult, TextContent

from localmind import Memory
from localmind.mcp.server import build_server
from tests.integration.test_mcp import call, refused

FACTS = [
    "I prefer green tea over coffee",
    "I drink a cup of jasmine tea every afternoon",
    "My favourite tea shop is in Porto",
    "I stopped drinking coffee after lunch",
    "I brew oolong tea at weekends",
]


def the_text(result: CallToolResult) -> str:
    [block] = result.content
    assert isinstance(block, TextContent)
    return block.text


def is_a_date(value: Any) -> bool:
    return isinstance(value, str) and datetime.fromisoformat(value).tzinfo is not None


async def test_results_are_one_compact_json_text_with_dates(memory: Memory):
    async with Client(build_server(memory)) as client:
        for fact in FACTS:
            remembered = await call(client, "remember", content=fact)
        recalled = await client.call_tool("recall", {"query": "tea", "limit": 5})
        confirmed = await call(client, "feedback", id=remembered["id"], verdict="confirm")

    text = the_text(recalled)  # one block, not one per result
    results = json.loads(text)
    assert len(results) == 5
    assert text == json.dumps(results, ensure_ascii=False, separators=(",", ":"))  # no indent
    assert recalled.structured_content is None  # … and not a second copy beside it
    for result in results:
        assert is_a_date(result["created_at"]) and is_a_date(result["updated_at"])
        assert result["score"] == round(result["score"], 3)
        assert "score" not in result["breakdown"]  # said once
    for answer in (remembered, confirmed):
        assert is_a_date(answer["created_at"]) and is_a_date(answer["updated_at"])


@pytest.mark.parametrize(
    ("tool", "arguments", "message"),
    [
        (
            "recall",
            {"query": "tea", "limit": "five"},
            "Bad arguments for recall: limit must be a whole number, not a string",
        ),
        ("recall", {"query": 5}, "query must be a string, not a number"),
        ("recall", {"query": "tea", "types": "semantic"}, "types must be a list, not a string"),
        ("remember", {"content": "x", "importance": "high"}, "importance must be a number"),
        (
            "resolve",
            {"conflict": [1], "resolution": "keep_both"},
            "conflict must be a string or a whole number, not a list",
        ),
    ],
)
async def test_a_bad_argument_type_is_one_line_saying_what_is_wrong(
    memory: Memory, tool: str, arguments: dict[str, Any], message: str
):
    async with Client(build_server(memory)) as client:
        said = await refused(client, tool, **arguments)

    assert message in said
    assert "\n" not in said and "pydantic" not in said and "http" not in said


@pytest.mark.parametrize(
    ("tool", "arguments", "message"),
    [
        ("remember", {"content": FACTS[0], "imortance": 0.9}, "did you mean 'importance'?"),
        ("recall", {"query": "tea", "limt": 3}, "'limt' (did you mean 'limit'?)"),
        ("profile", {"rebuilt": True}, "It takes: rebuild."),
    ],
)
async def test_an_unknown_argument_is_refused_naming_the_right_one(
    memory: Memory, tool: str, arguments: dict[str, Any], message: str
):
    async with Client(build_server(memory)) as client:
        said = await refused(client, tool, **arguments)

    assert f"{tool} does not take" in said and message in said
    assert memory.count() == 0  # nothing was remembered with the argument left out

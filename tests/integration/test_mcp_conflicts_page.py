"""MCP ``conflicts`` a page at a time (review12 R9): a queue of 1,531 pending conflicts came back
as one 857 KB answer no assistant could take. It now gives ``limit`` of them from ``offset``,
oldest first, with the total and where the next page starts. The real encrypted store, the
bundled embedder and the official MCP client against the server."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from mcp import Client

from localmind import Memory
from localmind.mcp.server import build_server
from tests.integration.test_import_judgment import dated
from tests.integration.test_mcp import call, refused

RENTS = [f"My rent is {euros} euros" for euros in (950, 1100, 1400, 1700, 2000)]


@pytest.mark.slow
async def test_a_long_queue_comes_a_page_at_a_time_with_its_total(
    open_memory: Callable[..., Memory],
) -> None:
    memory = open_memory(llm=None)
    memory.remember_many(dated(*RENTS))  # each rent queued against the one before: 4 conflicts
    queued = [conflict.id for conflict in memory.conflicts()]
    assert len(queued) == 4

    async with Client(build_server(memory)) as client:
        first = await call(client, "conflicts", limit=3)
        rest = await call(client, "conflicts", limit=3, offset=first["next_offset"])
        whole = await call(client, "conflicts")
        too_many = await refused(client, "conflicts", limit=500)
        before_start = await refused(client, "conflicts", offset=-1)
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}

    assert (first["total"], first["offset"], first["next_offset"]) == (4, 0, 3)
    assert [c["conflict_id"] for c in first["conflicts"]] == queued[:3]  # oldest first
    assert (rest["total"], rest["offset"], rest["next_offset"]) == (4, 3, None)
    assert [c["conflict_id"] for c in rest["conflicts"]] == queued[3:]
    assert [c["conflict_id"] for c in whole["conflicts"]] == queued  # 20 by default
    assert "limit must be between 1 and 100, not 500" in too_many
    assert "offset must be 0 or more, not -1" in before_start
    description = tools["conflicts"].description or ""
    assert "oldest first" in description and "`total`" in description
    assert [conflict.id for conflict in memory.conflicts()] == queued  # reading settles nothing

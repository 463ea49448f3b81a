"""What an assistant reads over MCP says which fact is current (review7 findings 5, 6, 9): the
real server in a subprocess, spoken to by the MCP SDK's own client, on a real encrypted store
with the bundled embedding model; Ollama is a closed port, so no local model judges anything."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from tests.integration.test_mcp import call, served

BERLIN = "I live in Berlin"
LISBON = "I moved to Lisbon last month"


@pytest.mark.slow
async def test_a_pending_move_reads_right_in_recall_context_and_remember(store: Path):
    async with served(store) as session:
        tools = {tool.name: tool.description or "" for tool in (await session.list_tools()).tools}
        berlin = await call(session, "remember", content=BERLIN, type="semantic")
        await call(session, "remember", content="My sister Anna has two cats", type="semantic")
        lisbon = await call(session, "remember", content=LISBON, type="semantic")
        pending = (await call(session, "conflicts"))["conflicts"]
        hits = await call(session, "recall", query="where do I live?")
        context = await call(session, "context", query="where do I live now?")
        again = await call(session, "remember", content="I live in Berlin.")

    # queued, and said once that no local model judged it: no setup commands to act on
    assert lisbon["decision"] == "queued"
    assert lisbon["reason"].endswith("no local model judged it")
    for text in [lisbon["reason"], lisbon["question"], *(c["reason"] for c in pending)]:
        assert "ollama" not in text.lower(), text
    [candidate] = lisbon["candidates"]
    assert candidate["id"] == berlin["id"]
    assert {"created_at", "updated_at", "cosine"} <= set(candidate)
    assert "similarity" not in candidate
    assert datetime.fromisoformat(candidate["created_at"])
    [conflict] = pending
    assert 0.3 < conflict["cosine"] < 1 and "similarity" not in conflict

    # recall: the newer memory first, saying whom it was moved above; the older names it
    by_id = {hit["id"]: hit for hit in hits}
    order = [hit["id"] for hit in hits]
    assert order.index(lisbon["id"]) < order.index(berlin["id"])
    assert by_id[lisbon["id"]]["moved_above"] == berlin["id"]
    assert by_id[berlin["id"]]["superseded_by"] == lisbon["id"]
    # relevance is the calibrated probability: Berlin matches the words better, and the
    # description says why the lower one is first
    assert by_id[berlin["id"]]["relevance"] > by_id[lisbon["id"]]["relevance"]
    for word in ["moved_above", "superseded_by", "relevance", "newer", "cosine"]:
        assert word in tools["recall"], word

    # context: Lisbon before Berlin, Berlin marked as maybe outdated, naming Lisbon
    lines = context.splitlines()
    [lisbon_line] = [line for line in lines if line.startswith(f'- "{LISBON}"')]
    [berlin_line] = [line for line in lines if line.startswith(f'- "{BERLIN}"')]
    assert lines.index(lisbon_line) < lines.index(berlin_line)
    assert f'may be outdated: "{LISBON}"' in berlin_line and "is newer" in berlin_line
    assert "may be outdated" not in lisbon_line
    # not about where the user lives: in the profile, not listed as relevant filler
    assert "Anna" not in context.split("Relevant memories:")[1]

    # telling the old fact again while the change waits names the pending conflict
    assert again["decision"] == "reinforced" and again["id"] == berlin["id"]
    assert f"pending conflict #{conflict['conflict_id']}" in again["reason"]
    assert again["conflict_id"] == conflict["conflict_id"]
    assert lisbon["id"] in [c["id"] for c in again["candidates"]]
    assert "resolve" in again["question"]


@pytest.mark.slow
async def test_ids_may_be_a_unique_beginning_in_any_case(store: Path):
    async with served(store) as session:
        tea = await call(session, "remember", content="I prefer green tea over coffee")
        short = tea["id"][:10].lower()
        confirmed = await call(session, "feedback", id=short, verdict="confirm")
        updated = await call(session, "update", id=short, content="I prefer oolong tea")
        forgotten = await call(session, "forget", id=short)
        left = await call(session, "recall", query="tea")

    assert confirmed["id"] == updated["id"] == tea["id"]
    assert updated["content"] == "I prefer oolong tea"
    assert forgotten == {"id": tea["id"], "forgotten": True, "content": "I prefer oolong tea"}
    assert left == []

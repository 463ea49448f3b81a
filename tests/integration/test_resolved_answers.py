"""What resolving a change leaves behind answers right (issue 13, resolve7; review7's findings
2, 3 and 8): the kept memory is dated by the newer fact, the question asked in the old fact's
words still finds it, and settling with ``update`` settles the conflict. The real encrypted
store, the bundled USE-m3 embedder, the MCP server in process."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
from mcp import Client

from localmind import Memory, NewMemory
from localmind.lifecycle import Decision
from localmind.llm.ollama import OllamaLLM
from localmind.mcp.server import build_server
from localmind.records import replaced
from tests.cli_support import Cli
from tests.integration.test_mcp import call
from tests.ollama_server import FakeOllama

BERLIN = datetime(2025, 1, 10, 9, tzinfo=UTC).timestamp()
LISBON = datetime(2026, 3, 20, 9, tzinfo=UTC).timestamp()

# (old fact, the move, the question asked in the old fact's words, a sister's home)
MOVES = [
    ("I live in Berlin", "I moved to Lisbon", "Where do I live?", "My sister Anna lives in Munich"),
    ("我住在柏林", "我搬到了里斯本", "我住在哪里？", "我姐姐安娜住在慕尼黑"),
]
OLD_VALUE = {"I live in Berlin": "Berlin", "我住在柏林": "柏林"}
ASKED_NOW = {"I live in Berlin": "Where do I live now?", "我住在柏林": "我现在住在哪里？"}
QUESTION = {move[0]: move[2] for move in MOVES}


def moved(memory: Memory, old: str, new: str, sister: str) -> int:
    """The old fact and the sister's home (2025-01-10), the move (2026-03-20): one conflict."""
    memory.remember_many(
        [
            NewMemory(old, created_at=BERLIN),
            NewMemory(sister, created_at=BERLIN + 60),
            NewMemory(new, created_at=LISBON),
        ]
    )
    [conflict] = memory.conflicts()
    assert (conflict.existing.content, conflict.candidate.content) == (old, new)
    return conflict.id


@pytest.mark.parametrize(("old", "new", "question", "sister"), MOVES, ids=["en", "zh"])
def test_take_new_dates_the_memory_by_the_move_and_the_question_still_finds_it(
    open_memory: Callable[..., Memory], old: str, new: str, question: str, sister: str
) -> None:
    memory = open_memory(llm=None)
    conflict = moved(memory, old, new, sister)

    kept = memory.resolve_conflict(conflict, "take-new")

    # dated by the move, not by the fact it replaced; the old text keeps its place in history
    assert (kept.content, kept.created_at) == (new, LISBON)
    assert memory.get(kept.id).created_at == LISBON
    [earlier] = memory.history(kept.id)
    assert earlier.content == old
    assert replaced(memory.get(kept.id).metadata) == [(old, BERLIN)]  # told 2025-01-10
    [exported] = [r for r, _ in memory.export() if r.id == kept.id]
    assert exported.created_at == LISBON
    # the question asked as the old fact was worded finds the move first, shown as it is now
    found = memory.recall(question, 3)
    assert found, f"nothing found for {question!r}"
    assert found[0].memory.id == kept.id
    assert found[0].memory.content == new
    # asked about now (the review's MCP case: the sister's "lives in Munich" came first)
    assert memory.recall(ASKED_NOW[old], 3)[0].memory.id == kept.id
    # the old value itself finds it first too, answered with what holds now (Berlin is history)
    by_old_value = memory.recall(OLD_VALUE[old], 3)[0]
    assert (by_old_value.memory.id, by_old_value.memory.content) == (kept.id, new)


def test_another_device_gets_the_newer_date_and_finds_it_by_the_old_words(
    open_memory: Callable[..., Memory], tmp_path: Path
) -> None:
    old, new, question, sister = MOVES[0]
    here = open_memory(llm=None)
    kept = here.resolve_conflict(moved(here, old, new, sister), "take-new")
    there = open_memory(llm=None, path=tmp_path / "laptop.db")

    there.apply_remote(here.events_since(0))

    copy = there.get(kept.id)
    assert (copy.content, copy.created_at) == (new, LISBON)
    assert [v.content for v in there.history(kept.id)] == [old]
    assert there.recall(question, 1)[0].memory.id == kept.id


def test_a_merge_is_dated_by_the_later_of_the_two(open_memory: Callable[..., Memory]) -> None:
    old, new, _, sister = MOVES[0]
    memory = open_memory(llm=None)
    conflict = moved(memory, old, new, sister)

    kept = memory.resolve_conflict(conflict, "merge", "I moved from Berlin to Lisbon")

    assert (kept.content, kept.created_at) == ("I moved from Berlin to Lisbon", LISBON)


def test_a_models_overwrite_is_dated_by_the_new_text_and_found_by_the_old_words(
    open_memory: Callable[..., Memory], llm: OllamaLLM, ollama_server: FakeOllama
) -> None:
    ollama_server.when_schema_has("relation", {"relation": "contradicts", "reason": "moved"})
    old, new, question, _ = MOVES[0]
    memory = open_memory(llm=llm)
    first = memory.remember(old, created_at=BERLIN)

    outcome = memory.remember_explained(new, created_at=LISBON)

    assert (outcome.decision, outcome.record.id) == (Decision.OVERWRITTEN, first.id)
    assert memory.get(first.id).created_at == LISBON
    assert memory.recall(question, 1)[0].memory.content == new


# --- review7 finding 8: settling with update settles the question -----------------------------

SETTLED_BY = [
    ("I live in Berlin", "I moved to Lisbon", "I live in Lisbon"),
    ("我住在柏林", "我搬到了里斯本", "我住在里斯本"),
]


@pytest.mark.parametrize(("old", "new", "settled_text"), SETTLED_BY, ids=["en", "zh"])
def test_updating_the_old_memory_to_the_change_settles_the_conflict(
    open_memory: Callable[..., Memory], old: str, new: str, settled_text: str
) -> None:
    memory = open_memory(llm=None)
    conflict = moved(memory, old, new, MOVES[0][3])
    old_id = memory.conflicts()[0].existing.id

    settlement = memory.update_explained(old_id, content=settled_text)

    assert settlement.settled == (conflict,)
    assert memory.conflicts() == []
    record = memory.get(old_id)
    assert (record.content, record.created_at) == (settled_text, LISBON)
    # one memory says where the person lives; the move is set aside for it, nothing supersedes it
    assert [r.content for r in memory.list_memories() if r.content in (old, new)] == []
    found = memory.recall(QUESTION[old], 3)[0]
    assert (found.memory.id, found.breakdown.superseded_by) == (old_id, None)


def test_an_update_that_does_not_take_the_change_leaves_the_conflict_pending(
    open_memory: Callable[..., Memory],
) -> None:
    old, new, _, sister = MOVES[0]
    memory = open_memory(llm=None)
    conflict = moved(memory, old, new, sister)
    old_id = memory.conflicts()[0].existing.id

    settlement = memory.update_explained(old_id, content="I live in Berlin-Mitte")

    assert settlement.settled == ()
    [still] = memory.conflicts()
    assert (still.id, still.existing.content, still.candidate.content) == (
        conflict,
        "I live in Berlin-Mitte",
        new,
    )


def test_an_update_that_only_names_the_changes_place_leaves_the_conflict_pending(
    open_memory: Callable[..., Memory],
) -> None:
    """Holding the other side's name is not saying what it says: "Flights to Lisbon are cheap
    this month" settles nothing (it is far from "I moved to Lisbon": SETTLE_COSINE)."""
    old, new, _, sister = MOVES[0]
    memory = open_memory(llm=None)
    conflict = moved(memory, old, new, sister)
    old_id = memory.conflicts()[0].existing.id

    settlement = memory.update_explained(old_id, content="Flights to Lisbon are cheap this month")

    assert settlement.settled == ()
    assert [c.id for c in memory.conflicts()] == [conflict]
    assert memory.get(memory.conflicts()[0].candidate.id).content == new


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("update", {"content": "I live in Lisbon"}),
        ("feedback", {"verdict": "correct", "new_content": "I live in Lisbon"}),
    ],
)
async def test_mcp_update_settles_the_conflict_and_says_so(
    open_memory: Callable[..., Memory], tool: str, arguments: dict[str, str]
) -> None:
    old, new, question, sister = MOVES[0]
    memory = open_memory(llm=None)
    conflict = moved(memory, old, new, sister)
    old_id = memory.conflicts()[0].existing.id

    async with Client(build_server(memory)) as client:
        updated = await call(client, tool, id=old_id, **arguments)
        pending = (await call(client, "conflicts"))["conflicts"]
        found = await call(client, "recall", query=question)

    assert (updated["settled_conflicts"], updated["repointed"], updated["also_closed"]) == (
        [conflict],
        [],
        [],
    )
    assert updated["created_at"].startswith("2026-03-20")
    assert pending == []
    assert found[0]["id"] == old_id and found[0]["superseded_by"] is None


def test_cli_correct_settles_the_conflict_and_says_so(cli: Cli, tmp_path: Path) -> None:
    old, new, _, _ = MOVES[0]
    notes = tmp_path / "home.txt"
    notes.write_text(f"{old}\n{new}\n", encoding="utf-8")
    cli.ok("import", str(notes))
    [pending] = cli.json("conflicts")
    old_id = pending["existing"]["id"]

    result = cli.ok("feedback", old_id, "correct", "I live in Lisbon")

    assert f"Settled conflict #{pending['id']}: " in result.stdout
    assert cli.json("conflicts") == []
    # show gives the earlier fact with the day it was told and the day it was replaced
    shown = cli.ok("show", old_id).stdout
    heading = next(line for line in shown.splitlines() if line.startswith("--- version 1"))
    assert "(correct, told " in heading and ", replaced " in heading

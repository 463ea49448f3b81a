"""Questions about the past after a change was resolved (issue 12, fix9 item 1): once
"I live in Berlin" became "I moved to Lisbon" (take-new, a model's overwrite, a chain of
moves), "where did I live last year?" finds the memory and says what it said then, with the
days it held, in the recall result and in the context block. A question about now is not
changed. The real encrypted store, the bundled USE-m3 embedder; the model's overwrite through
the Ollama-speaking test server."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from mcp import Client

from localmind import Memory, NewMemory
from localmind.lifecycle import Decision
from localmind.llm.ollama import OllamaLLM
from localmind.mcp.server import build_server
from localmind.records import EarlierText, RecallResult
from tests.cli_support import Cli
from tests.integration.test_mcp import call
from tests.integration.test_resolved_answers import BERLIN, LISBON, MOVES, moved
from tests.ollama_server import FakeOllama

# The test clock stands at 2026-05-28: "last year" is 2025, when the person lived in Berlin
# (told 2025-01-10) until the move (told 2026-03-20).
ASKED_THEN = {
    "I live in Berlin": ["Where did I live in 2025?", "Where did I live last year?"],
    "我住在柏林": ["去年我住在哪里？", "2025年我住在哪里？"],
}
# what the context block says of it: the earlier text first, with its days, then the current one
CONTEXT_LINE = {
    "I live in Berlin": (
        '- earlier (told 2025-01-10, until 2026-03-20): "I live in Berlin"; '
        'now: "I moved to Lisbon" (told 2026-03-20'
    ),
    "我住在柏林": (
        '- 之前（2025-01-10 记录，到 2026-03-20 为止）："我住在柏林"；'
        '现在："我搬到了里斯本"（2026-03-20'
    ),
}


def at(year: int, month: int, day: int) -> float:
    return datetime(year, month, day, 9, tzinfo=UTC).timestamp()


def first_with_earlier(results: list[RecallResult]) -> RecallResult:
    with_earlier = [r for r in results if r.earlier]
    assert with_earlier, [r.memory.content for r in results]
    return with_earlier[0]


@pytest.mark.slow
@pytest.mark.parametrize(("old", "new", "question", "sister"), MOVES, ids=["en", "zh"])
def test_after_take_new_a_question_about_last_year_gets_the_old_city(
    open_memory: Callable[..., Memory], old: str, new: str, question: str, sister: str
) -> None:
    memory = open_memory(llm=None)
    kept = memory.resolve_conflict(moved(memory, old, new, sister), "take-new")

    for asked in ASKED_THEN[old]:
        found = memory.recall(asked, 3)
        assert found and found[0].memory.id == kept.id, (asked, [r.memory.content for r in found])
        # the memory as it is now, and what it said then with the days it held
        assert found[0].memory.content == new
        assert found[0].earlier == (EarlierText(old, BERLIN, LISBON),)
        context = memory.context(asked)
        assert CONTEXT_LINE[old] in context, context
    # a question about now is answered as before: the new city, nothing earlier
    now = memory.recall(question, 3)
    assert now[0].memory.id == kept.id and now[0].earlier == ()
    assert "earlier (" not in memory.context(question) and "之前（" not in memory.context(question)


def test_the_rent_of_a_past_year_is_the_old_rent(open_memory: Callable[..., Memory]) -> None:
    memory = open_memory(llm=None)
    memory.remember_many(
        [
            NewMemory("My rent is 900 euros a month", created_at=at(2024, 3, 2)),
            NewMemory("I work as a nurse at the city hospital", created_at=at(2024, 3, 4)),
            NewMemory("My rent went up to 1400 euros a month", created_at=at(2026, 3, 21)),
        ]
    )
    [conflict] = memory.conflicts()
    kept = memory.resolve_conflict(conflict.id, "take-new")

    found = first_with_earlier(memory.recall("How much was my rent in 2024?", 3))

    assert found.memory.id == kept.id
    assert [e.text for e in found.earlier] == ["My rent is 900 euros a month"]
    context = memory.context("How much was my rent in 2024?")
    assert '"My rent is 900 euros a month"; now: "My rent went up to 1400' in context
    # the present rent is asked about as before
    assert memory.recall("How much is my rent now?", 1)[0].earlier == ()


def test_a_chain_of_moves_answers_each_year_with_the_city_of_that_year(
    open_memory: Callable[..., Memory],
) -> None:
    """Berlin (2023) → Lisbon (2024-06) → Porto (2026-02), each settled with take-new."""
    memory = open_memory(llm=None)
    memory.remember_many(
        [
            NewMemory("I live in Berlin", created_at=at(2023, 2, 1)),
            NewMemory("My sister Anna lives in Munich", created_at=at(2023, 2, 2)),
            NewMemory("I moved to Lisbon", created_at=at(2024, 6, 1)),
        ]
    )
    memory.resolve_conflict(memory.conflicts()[0].id, "take-new")
    outcome = memory.remember_explained("I moved to Porto", created_at=at(2026, 2, 1))
    assert outcome.decision is Decision.QUEUED, outcome.reason
    kept = memory.resolve_conflict(memory.conflicts()[0].id, "take-new")
    assert kept.content == "I moved to Porto"

    in_2025 = first_with_earlier(memory.recall("Where did I live in 2025?", 3))
    assert in_2025.memory.id == kept.id
    assert in_2025.earlier == (EarlierText("I moved to Lisbon", at(2024, 6, 1), at(2026, 2, 1)),)
    in_2023 = first_with_earlier(memory.recall("Where did I live in 2023?", 3))
    assert [e.text for e in in_2023.earlier] == ["I live in Berlin"]
    assert memory.recall("Where do I live now?", 1)[0].memory.content == "I moved to Porto"


def test_keep_old_after_take_new_keeps_the_earlier_city_for_the_past(
    open_memory: Callable[..., Memory],
) -> None:
    old, new, question, sister = MOVES[0]
    memory = open_memory(llm=None)
    kept = memory.resolve_conflict(moved(memory, old, new, sister), "take-new")
    outcome = memory.remember_explained("I moved to Porto", created_at=at(2026, 4, 1))
    assert outcome.decision is Decision.QUEUED, outcome.reason

    memory.resolve_conflict(memory.conflicts()[0].id, "keep-old")

    found = memory.recall("Where did I live last year?", 3)
    assert found[0].memory.id == kept.id
    assert found[0].earlier == (EarlierText(old, BERLIN, LISBON),)
    assert memory.recall(question, 1)[0].memory.content == new


@pytest.mark.slow
def test_a_models_overwrite_answers_the_past_the_same_way(
    open_memory: Callable[..., Memory], llm: OllamaLLM, ollama_server: FakeOllama
) -> None:
    ollama_server.when_schema_has("relation", {"relation": "contradicts", "reason": "moved"})
    old, new, _, _ = MOVES[0]
    memory = open_memory(llm=llm)
    memory.remember(old, created_at=BERLIN)
    outcome = memory.remember_explained(new, created_at=LISBON)
    assert outcome.decision is Decision.OVERWRITTEN

    found = memory.recall("Where did I live last year?", 3)

    assert found[0].memory.content == new
    assert found[0].earlier == (EarlierText(old, BERLIN, LISBON),)
    assert CONTEXT_LINE[old] in memory.context("Where did I live last year?")


def test_cli_recall_shows_the_earlier_text(open_memory: Callable[..., Memory], cli: Cli) -> None:
    old, new, _, sister = MOVES[0]
    memory = open_memory(llm=None)  # the CLI's store
    memory.resolve_conflict(moved(memory, old, new, sister), "take-new")
    memory.close()

    shown = cli.ok("recall", "Where did I live last year?").stdout
    [recalled] = cli.json("recall", "Where did I live last year?", "--limit", "1")

    assert "earlier (told 2025-01-10, until 2026-03-20): I live in Berlin" in shown
    assert recalled["earlier"] == [{"text": old, "told_at": BERLIN, "until": LISBON}]


async def test_mcp_recall_gives_the_earlier_text_with_its_days(
    open_memory: Callable[..., Memory],
) -> None:
    old, new, _, sister = MOVES[0]
    memory = open_memory(llm=None)
    memory.resolve_conflict(moved(memory, old, new, sister), "take-new")

    async with Client(build_server(memory)) as client:
        found = await call(client, "recall", query="Where did I live last year?", limit=1)

    assert found[0]["content"] == new
    assert found[0]["earlier"] == [
        {"text": old, "told_at": "2025-01-10T09:00:00+00:00", "until": "2026-03-20T09:00:00+00:00"}
    ]


# --- fix9 item 3: "may be outdated" names the newer memory and its day ---------------------------


def test_cli_recall_says_which_memory_is_newer_and_from_when(
    open_memory: Callable[..., Memory], cli: Cli
) -> None:
    old, new, question, sister = MOVES[0]
    memory = open_memory(llm=None)  # the CLI's store
    moved(memory, old, new, sister)  # pending: the move may replace Berlin
    newer = next(r.id for r in memory.list_memories() if r.content == new)
    memory.close()

    shown = cli.ok("recall", question, "--threshold", "0").stdout

    assert f"may be outdated: #{newer} from 2026-03-20 is newer" in shown, shown

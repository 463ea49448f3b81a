"""Questions about the past that name no period, and periods named by a word other memories
hold (review10 F24, F27; past10). After take-new replaced "My manager at Otto is Stefan",
"Who was my manager at Otto?" and "我以前住在哪里？" get the earlier text with its days; a
question about now is unchanged. "Where did I go this spring?" ranks a trip of that spring above
"I have a mild pollen allergy in spring." told that spring. The real encrypted store and the
bundled USE-m3 embedder; the test clock stands at 2026-05-28."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest

from localmind import Memory, NewMemory
from localmind.records import RecallResult
from tests.integration.test_resolved_answers import BERLIN, LISBON, MOVES, moved


def at(year: int, month: int, day: int) -> float:
    return datetime(year, month, day, 9, tzinfo=UTC).timestamp()


def first_with_earlier(results: list[RecallResult]) -> RecallResult:
    with_earlier = [r for r in results if r.earlier]
    assert with_earlier, [r.memory.content for r in results]
    return with_earlier[0]


FILLER = [
    NewMemory("I go climbing every Wednesday evening", created_at=at(2024, 5, 2)),
    NewMemory("My sister Anna lives in Munich", created_at=at(2024, 5, 3)),
    NewMemory("I drink green tea in the morning", created_at=at(2024, 5, 4)),
]


@pytest.mark.slow
def test_who_was_my_manager_at_the_old_job_gets_the_replaced_text(
    open_memory: Callable[..., Memory],
) -> None:
    memory = open_memory(llm=None)
    memory.remember_many(
        [
            *FILLER,
            NewMemory("My manager at Otto is Stefan", created_at=at(2025, 1, 10)),
            NewMemory("My manager at Zalando is Priya", created_at=at(2026, 3, 20)),
        ]
    )
    [conflict] = memory.conflicts()
    kept = memory.resolve_conflict(conflict.id, "take-new")
    assert kept.content == "My manager at Zalando is Priya"

    for asked in ["Who was my manager at Otto?", "Who was my manager before?"]:
        found = first_with_earlier(memory.recall(asked, 3))
        assert found.memory.id == kept.id
        assert [e.text for e in found.earlier] == ["My manager at Otto is Stefan"]
        assert 'earlier (told 2025-01-10, until 2026-03-20): "My manager at Otto is Stefan"' in (
            memory.context(asked)
        )
    # a question about now is answered as before: no earlier text
    now = memory.recall("Who is my manager?", 3)
    assert now[0].memory.id == kept.id and now[0].earlier == ()
    assert "earlier (" not in memory.context("Who is my manager now?")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("move", "asked_before", "asked_now"),
    [
        (MOVES[0], "Where did I use to live?", "Where do I live?"),
        (MOVES[1], "我以前住在哪里？", "我住在哪里？"),
    ],
    ids=["en", "zh"],
)
def test_where_did_i_live_before_gets_the_old_city(
    open_memory: Callable[..., Memory],
    move: tuple[str, str, str, str],
    asked_before: str,
    asked_now: str,
) -> None:
    old, new, _, sister = move
    memory = open_memory(llm=None)
    kept = memory.resolve_conflict(moved(memory, old, new, sister), "take-new")

    found = first_with_earlier(memory.recall(asked_before, 3))
    assert found.memory.id == kept.id
    assert [(e.text, e.told_at, e.until) for e in found.earlier] == [(old, BERLIN, LISBON)]
    assert old in memory.context(asked_before)
    now = memory.recall(asked_now, 3)
    assert now[0].memory.id == kept.id and now[0].earlier == ()


SPRING = [
    NewMemory("I have a mild pollen allergy in spring.", created_at=at(2026, 4, 20)),
    NewMemory("I go climbing every Wednesday evening.", created_at=at(2025, 11, 3)),
    NewMemory("Spent a week in Kyoto with Mei.", created_at=at(2026, 4, 12)),
    NewMemory("Took the train to Amsterdam for a long weekend.", created_at=at(2026, 5, 9)),
    NewMemory("我对春天的花粉有点过敏。", created_at=at(2026, 4, 21)),
    NewMemory("我和美去京都玩了一个星期。", created_at=at(2026, 4, 13)),
]


TRIPS = {"Spent a week in Kyoto with Mei.", "Took the train to Amsterdam for a long weekend."}
TRIPS |= {"我和美去京都玩了一个星期。"}


@pytest.mark.slow
@pytest.mark.parametrize(
    "asked", ["Where did I go this spring?", "今年春天我去哪儿旅行了？"], ids=["en", "zh"]
)
def test_a_season_asked_about_ranks_a_trip_of_it_above_the_word(
    open_memory: Callable[..., Memory], asked: str
) -> None:
    memory = open_memory(llm=None)
    memory.remember_many(SPRING, check=False)

    found = [r.memory.content for r in memory.recall(asked, 5)]

    # the allergy, told that spring too, shares only the season's word: a trip comes first
    assert found and found[0] in TRIPS, found

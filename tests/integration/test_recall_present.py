"""A question about how things stand now prefers the later of two memories about it, even when
nothing linked them (told in two languages, no change word). Real encrypted store, sqlite-vec,
FTS5 and the bundled USE-m3 model."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from localmind import Memory, NewMemory
from tests.conftest import FakeClock

FIRST_CAR = "I drive a white 2019 BYD Qin, my first car."
NEW_CAR = "Got a new car: a dark grey 2024 Honda CR-V hybrid."


def _told(memory: Memory, clock: FakeClock) -> None:
    start = clock()
    clock.advance(days=310)  # imported once all of it happened (a date after now is refused)
    memory.remember_many(
        [
            NewMemory(content=FIRST_CAR, created_at=start),
            NewMemory(content="My sister Anna lives in Munich", created_at=start + 5 * 86_400),
            NewMemory(content=NEW_CAR, created_at=start + 300 * 86_400),
            NewMemory(content="我每周三晚上去游泳", created_at=start + 310 * 86_400),
        ],
        # unjudged, so that nothing links the two cars (a judged import notes the new car as
        # a later version of the first: test_import_judgment)
        check=False,
    )
    clock.advance(days=90)


def test_asked_about_now_the_later_memory_comes_first(
    open_memory: Callable[..., Memory], clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory = open_memory()
    _told(memory, clock)
    # recall itself judges the two cars versions of one thing ("Got a new car", docs/design.md
    # "Recall, round 9"): the new one leads even without a word about the present
    assert memory.recall("我开什么车？", 3)[0].memory.content == NEW_CAR
    # with that judgement off, a question about now still puts the later one first
    monkeypatch.setattr("localmind.recall.UNLINKED_CANDIDATES", 0)
    now = memory.recall("我现在开什么车？", 3)
    assert now[0].memory.content == NEW_CAR
    assert now[0].breakdown.recency > 0  # the breakdown shows what lifted it
    # the question without a word about the present ranks by relevance: the first car leads
    assert memory.recall("我开什么车？", 3)[0].memory.content == FIRST_CAR
    # ... and so does the same question when recency keeps its everyday weight
    monkeypatch.setattr("localmind.recall.PRESENT_RECENCY", 0.1)
    assert memory.recall("我现在开什么车？", 3)[0].memory.content == FIRST_CAR


def test_feedback_rescores_a_question_about_now_as_a_new_recall_would(
    open_memory: Callable[..., Memory], clock: FakeClock
) -> None:
    # the chat page rescores a recalled memory after feedback: its score must be the one the
    # same question gives now, not one with the everyday recency weight
    memory = open_memory()
    _told(memory, clock)
    question = "我现在开什么车？"
    first = memory.recall(question, 3)[0]
    assert first.memory.content == NEW_CAR
    unchanged = memory.rescored(first, memory.get(first.memory.id))
    assert unchanged.score == pytest.approx(first.score)
    confirmed = memory.feedback(first.memory.id, "confirm")
    rescored = memory.rescored(first, confirmed)
    again = next(r for r in memory.recall(question, 3) if r.memory.id == first.memory.id)
    assert rescored.score > first.score  # the confirmation shows
    assert rescored.score == pytest.approx(again.score)
    assert rescored.breakdown.frequency == pytest.approx(again.breakdown.frequency)

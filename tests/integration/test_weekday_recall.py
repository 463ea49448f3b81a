"""Questions that name a weekday or "two weeks ago" find what happened that day or week, not the
days after it (review9 M5). Real encrypted store, sqlite-vec, FTS5 and the bundled USE-m3 model;
the clock is fixed at Tuesday 1 December 2026."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pytest

from localmind import Memory
from tests.conftest import FakeClock

pytestmark = pytest.mark.slow  # about 2 s a question: the model and a store of seven events

#: A week of events as a new user imported them (text, when it happened, UTC).
EVENTS = {
    "Watched Dune with Jonas at the cinema": "2026-11-27T20:00",  # Friday
    "Went to Copenhagen for a data conference": "2026-11-28T10:00",  # Saturday
    "Ran a half marathon in 2:05": "2026-11-29T09:00",  # Sunday
    "和 Jonas 去吃了火锅": "2026-11-20T19:00",  # the Friday before
    "Dentist appointment, one filling": "2026-11-10T08:00",
    "Had a job interview at SAP": "2026-10-14T13:00",
    "Started pottery classes on Wednesday evenings": "2026-09-02T18:00",
}
TUESDAY = dt.datetime(2026, 12, 1, 10, tzinfo=dt.UTC).timestamp()


def _at(moment: str) -> float:
    return dt.datetime.fromisoformat(moment).replace(tzinfo=dt.UTC).timestamp()


@pytest.fixture
def week(open_memory: Callable[..., Memory], clock: FakeClock) -> Memory:
    clock.now = TUESDAY
    memory = open_memory()
    for text, moment in EVENTS.items():
        memory.remember(text, created_at=_at(moment), type="episodic")
    return memory


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("What did I do last Friday?", "Watched Dune with Jonas at the cinema"),
        ("上周五我做了什么？", "Watched Dune with Jonas at the cinema"),
        ("What did I do on Saturday?", "Went to Copenhagen for a data conference"),
    ],
)
def test_a_named_day_brings_that_days_event_first(week: Memory, question: str, answer: str) -> None:
    results = week.recall(question, 3)
    assert results and results[0].memory.content == answer, [r.memory.content for r in results]
    assert results[0].breakdown.in_period
    # the days after it are other days, not its retelling: Sunday's marathon is no answer
    later = [r for r in results if r.memory.content != answer]
    assert not any(r.breakdown.in_period for r in later), [r.memory.content for r in later]


@pytest.mark.parametrize(
    "question", ["What did I do two weeks ago?", "两周前我做了什么？", "上上周五我做了什么？"]
)
def test_two_weeks_ago_is_not_last_weekend(week: Memory, question: str) -> None:
    """The hotpot of 20 November is in the period; last Friday's and Saturday's events, which a
    week's slack after it used to take in, are not, and rank below it."""
    results = week.recall(question, 5)
    ranked = [r.memory.content for r in results]
    hotpot = next(r for r in results if r.memory.content == "和 Jonas 去吃了火锅")
    assert hotpot.breakdown.in_period
    last_week = [r for r in results if r.memory.content.startswith(("Watched Dune", "Went to"))]
    assert not any(r.breakdown.in_period for r in last_week)
    assert all(
        ranked.index(hotpot.memory.content) < ranked.index(r.memory.content) for r in last_week
    )

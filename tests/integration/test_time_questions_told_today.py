"""Questions about a past period, asked of a new user's memories all told on one day (review9
M3, M3b): what a memory's own words say decides whether it tells of the period ("last
weekend", 上周五), a weekly habit or a plan tells of none, and a period not over yet ("for
tonight") asked in the present names none. Real encrypted store, sqlite-vec, FTS5 and the
bundled USE-m3 model; the clock is fixed at Tuesday 1 December 2026, 10:00 UTC."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pytest

from localmind import Memory
from tests.conftest import FakeClock

pytestmark = pytest.mark.slow  # the model and a store of ten memories, about 1 s a question

TUESDAY = dt.datetime(2026, 12, 1, 10, tzinfo=dt.UTC).timestamp()
DUNE = "上周五用户和 Jonas 去看了电影《沙丘》"
COPENHAGEN = "The user went to Copenhagen for a data conference last weekend"
POTTERY = "用户每周三晚上上陶艺课"
LANDLORD = "The user has a meeting with the landlord on Friday"
KYOTO = "The user plans a trip to Kyoto in April 2027"
TOLD_TODAY = [
    ("The user is vegetarian", "semantic"),
    ("用户的女儿叫米娅，今年六岁", "semantic"),
    (COPENHAGEN, "episodic"),
    ("The user ran a half marathon on Sunday in 2:05", "episodic"),
    (POTTERY, "semantic"),
    ("The user drives a 2019 VW Golf", "semantic"),
    (DUNE, "episodic"),
    (LANDLORD, "episodic"),
    ("用户的猫叫豆豆", "semantic"),
    (KYOTO, "semantic"),
]


@pytest.fixture
def today(open_memory: Callable[..., Memory], clock: FakeClock) -> Memory:
    clock.now = TUESDAY
    memory = open_memory()
    for text, kind in TOLD_TODAY:
        memory.remember(text, type=kind)
        clock.advance(seconds=30)
    return memory


def _in_period(memory: Memory, question: str) -> set[str]:
    return {
        r.memory.content for r in memory.recall(question, 10, threshold=0) if r.breakdown.in_period
    }


@pytest.mark.parametrize(
    ("question", "answer"),
    [("上周五我做了什么？", DUNE), ("What did I do last weekend?", COPENHAGEN)],
)
def test_what_it_says_of_its_own_time_decides_the_period(
    today: Memory, question: str, answer: str
) -> None:
    found = today.recall(question, 3)
    assert found and found[0].memory.content == answer, [r.memory.content for r in found]
    # a weekly class, a meeting still to come and a trip planned are no answer, though told
    # within the week after the period
    assert not {POTTERY, LANDLORD, KYOTO} & _in_period(today, question)


def test_a_time_word_alone_makes_nothing_relevant(today: Memory) -> None:
    question = "Hi! Can you suggest a dinner recipe for tonight?"
    assert not _in_period(today, question)
    assert POTTERY not in [r.memory.content for r in today.recall(question, 5)]
    # ... while a question about what was done today still asks about today
    assert _in_period(today, "What did I do today?")

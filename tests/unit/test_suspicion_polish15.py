"""What a new user trips over, round 14 (polish15): an occasion moved to another day is no move
of home, in either language; "a Sunday in March" is the month, and 我在上海的时候 a time that is
over (docs/design.md, "What a user trips over, round 14")."""

from __future__ import annotations

import datetime as dt

import pytest

from localmind.statement import read
from localmind.suspicion import suspect
from localmind.timeframe import time_frame, told_in_the_past


@pytest.mark.parametrize(
    "moved",
    [
        "The meeting got moved to Thursday.",
        "Our weekly meeting has been moved to Thursday afternoon.",
        "The call moved to 3pm.",
        "Dinner with Anna got moved to Friday.",
        "The meeting with our landlord was moved to next week.",
        "My piano lesson moved to Wednesdays.",
    ],
)
def test_an_occasion_moved_is_no_home_move(moved: str) -> None:
    assert "residence" not in read(moved).single_slots
    assert not suspect("I live in Berlin.", moved).contradicts
    assert not suspect("我住在柏林。", moved).contradicts


@pytest.mark.parametrize(
    "moved",
    ["会议改到周四了。", "那个会挪到明天了。", "周五的饭局挪到下周了。", "瑜伽课改到周三了。"],
)
def test_an_occasion_moved_is_no_home_move_in_chinese(moved: str) -> None:
    assert "residence" not in read(moved).single_slots
    assert not suspect("我住在柏林。", moved).contradicts
    assert not suspect("I live in Berlin.", moved).contradicts


@pytest.mark.parametrize(
    "moved",
    [
        "We moved to Lisbon.",
        "After the trip we moved to Lisbon.",
        "I moved to Lisbon after the wedding.",
        "After the meeting my wife and I moved to Porto.",
    ],
)
def test_a_home_move_beside_an_occasion_is_still_one(moved: str) -> None:
    assert "residence" in read(moved).single_slots
    assert suspect("I live in Berlin.", moved).contradicts


def _period(question: str) -> tuple[dt.date, dt.date] | None:
    now = dt.datetime(2026, 12, 2, 12, tzinfo=dt.UTC).timestamp()
    frame = time_frame(question, now, dt.UTC)
    if frame is None:
        return None
    return (
        dt.datetime.fromtimestamp(frame.start, dt.UTC).date(),
        dt.datetime.fromtimestamp(frame.end, dt.UTC).date(),
    )


@pytest.mark.parametrize(
    ("question", "month"),
    [
        ("What did I do on a Sunday in March?", (dt.date(2026, 3, 1), dt.date(2026, 4, 1))),
        ("We met one Friday in June 2025.", (dt.date(2025, 6, 1), dt.date(2025, 7, 1))),
        ("三月的一个周日我做了什么？", (dt.date(2026, 3, 1), dt.date(2026, 4, 1))),
        ("2025年6月的某个星期五", (dt.date(2025, 6, 1), dt.date(2025, 7, 1))),
    ],
)
def test_a_weekday_in_a_month_is_the_month_not_its_first(
    question: str, month: tuple[dt.date, dt.date]
) -> None:
    """Which Sunday is not said: the whole month, not March 1 (the first Sunday of 2026's)."""
    assert _period(question) == month


def test_a_named_weekday_is_still_its_day() -> None:
    assert _period("What did I do last Sunday?") == (dt.date(2026, 11, 29), dt.date(2026, 11, 30))
    assert _period("the first week of March") == (dt.date(2026, 3, 1), dt.date(2026, 3, 8))


@pytest.mark.parametrize(
    "text",
    [
        "我在上海的时候在银行工作。",
        "我在北京读书的时候住在海淀。",
        "小时候我住在成都。",
        "年轻的时候我很瘦。",
    ],
)
def test_a_when_of_a_time_that_is_over_is_told_in_the_past(text: str) -> None:
    assert told_in_the_past(text)
    assert told_in_the_past("When I lived in Shanghai I worked at a bank.")  # as English has it


@pytest.mark.parametrize(
    "text",
    [
        "我累的时候喜欢听音乐。",
        "我在开车的时候听播客。",
        "下次我去上海的时候告诉你。",
        "有时候我去跑步。",
    ],
)
def test_a_when_of_a_habit_or_a_plan_is_not(text: str) -> None:
    assert not told_in_the_past(text)

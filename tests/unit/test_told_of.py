"""What a memory's own words say of when what it tells happened (review9 M3; docs/design.md,
"Wrong answers, round 10"): pure functions of localmind.timeframe, the clock fixed at Tuesday
1 December 2026, UTC."""

from __future__ import annotations

import datetime as dt

import pytest

from localmind.timeframe import is_a_question, period_told_of, tells_no_doing, told_in_the_past

TUESDAY = dt.datetime(2026, 12, 1, 10, tzinfo=dt.UTC).timestamp()


def _days(text: str) -> tuple[str, str] | None:
    frame = period_told_of(text, TUESDAY, dt.UTC)
    if frame is None:
        return None
    first = dt.datetime.fromtimestamp(frame.start, dt.UTC).date()
    last = dt.datetime.fromtimestamp(frame.end, dt.UTC).date() - dt.timedelta(days=1)
    return first.isoformat(), last.isoformat()


@pytest.mark.parametrize(
    ("text", "days"),
    [
        (
            "The user went to Copenhagen for a data conference last weekend",
            ("2026-11-28", "2026-11-29"),
        ),
        ("上周五用户和 Jonas 去看了电影《沙丘》", ("2026-11-27", "2026-11-27")),
        ("I ran a half marathon on Sunday", ("2026-11-29", "2026-11-29")),
        ("The user ran a half marathon on Sunday in 2:05", ("2026-11-29", "2026-11-29")),
        # not told in the past: a weekday alone is the coming one
        ("The user has a meeting with the landlord on Friday", ("2026-12-04", "2026-12-04")),
        ("周五要和房东见面", ("2026-12-04", "2026-12-04")),
        ("The user plans a trip to Kyoto in April 2027", ("2027-04-01", "2027-04-30")),
        # ... and in a plan a month or a holiday named without a year is the next one
        ("I will start the new job in March", ("2027-03-01", "2027-03-31")),
        # but a word that makes it past keeps it past, whatever the tense
        ("I'm still tired from last weekend", ("2026-11-28", "2026-11-29")),
        # told in the past on the weekday it names: that day, not the week before (when11)
        ("I went bouldering with Mei on Tuesday", ("2026-12-01", "2026-12-01")),
        ("Tuesday evening I watched the new Dune movie", ("2026-12-01", "2026-12-01")),
        ("周二和Mei的父母一起吃了火锅", ("2026-12-01", "2026-12-01")),
        # ... unless its words say the week before
        ("上周二和Mei的父母一起吃了火锅", ("2026-11-24", "2026-11-24")),
    ],
)
def test_a_memorys_own_words_place_it_in_a_period(text: str, days: tuple[str, str]) -> None:
    assert _days(text) == days


@pytest.mark.parametrize(
    "text",
    [
        "用户的猫叫豆豆",  # names no period
        "用户每周三晚上上陶艺课",  # a habit names none either
        # told in the past of a period after the day it was told: the phrase is misread
        # (the weekend just gone), so it is not trusted
        "这个周末带Pepper去上了服从训练课",
    ],
)
def test_no_period_is_read_where_none_can_be_trusted(text: str) -> None:
    assert _days(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "用户每周三晚上上陶艺课",
        "I go swimming every Monday morning",
        "On Fridays I usually work from home",
        "The user plans a trip to Kyoto in April 2027",
        "I will fly to Paris next week",
        "我打算下个月去北京",
        # habits said with a weekday's part of the day, or of weekends (when11)
        "I play padel on Thursday evenings",
        "Weekends are for sleeping in, as far as I'm concerned",
        # a condition or a habit of every such season (review10 F27)
        "I have a mild pollen allergy in spring.",
        "我冬天手脚总是冰凉的",
        "I love skiing in winter",
    ],
)
def test_habits_and_plans_tell_no_doing(text: str) -> None:
    assert tells_no_doing(text)


@pytest.mark.parametrize(
    "text",
    [
        "The user went to Copenhagen for a data conference last weekend",
        "上周五用户和 Jonas 去看了电影《沙丘》",
        "The user is vegetarian",
        # a plan told as done is a doing
        "We went on the trip we had planned to Kyoto",
        # a season that names an occasion, or one of a year, or one told as done
        "Summer holiday in Sardinia with Mei, two weeks of beaches",
        "Winter trip to Lapland",
        "The garden was lovely in the summer of 2025",
        "We went to Kyoto in spring",
        "去年冬天我们去了哈尔滨",
        "学校秋季运动会上，Eddie不断嘲笑Lisa的跑步姿势",  # an autumn sports day: an occasion
        "Thursday evening I played padel with Jonas",
    ],
)
def test_what_was_done_and_plain_facts_are_not_habits_or_plans(text: str) -> None:
    assert not tells_no_doing(text)


def test_the_past_tense_is_read_in_both_languages() -> None:
    assert told_in_the_past("What did I do today?")
    assert told_in_the_past("我今天做了什么？")
    assert told_in_the_past("The user ran a half marathon on Sunday in 2:05")
    assert told_in_the_past("The user visited Lisbon")
    assert told_in_the_past("Lily's recital on Saturday went great")
    assert not told_in_the_past("Can you suggest a dinner recipe for tonight?")
    assert not told_in_the_past("这周有什么安排？")


def test_a_question_is_told_from_a_chat_turn_that_tells() -> None:
    """A habit is evidence against only for a question ("what did I do last weekend"), not for
    a chat turn that tells of a period, which one may answer (MADial)."""
    for asked in ["What did I do last weekend?", "what did I do last weekend", "上周末我做了什么"]:
        assert is_a_question(asked)
    assert not is_a_question("他今天又在课上捉弄人了。")
    assert not is_a_question("I went climbing yesterday.")

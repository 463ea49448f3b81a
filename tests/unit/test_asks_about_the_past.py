"""Which questions ask about an earlier time without naming a period (past10, review10 F24):
those get what a change replaced; a question about now does not."""

from __future__ import annotations

import pytest

from localmind.timeframe import asks_about_the_past, names_a_season


@pytest.mark.parametrize(
    "question",
    [
        "Who was my manager at Otto?",
        "Where did I live before?",
        "What car did I have when I lived in Munich?",
        "Where did I use to work?",
        "Which gym was I previously at?",
        "我以前住在哪里？",
        "我之前在哪家公司工作？",
        "我原来的老板是谁？",
        "我曾经养过什么宠物？",
    ],
)
def test_a_question_about_an_earlier_time(question: str) -> None:
    assert asks_about_the_past(question)


@pytest.mark.parametrize(
    "question",
    [
        "Who is my manager?",
        "Where do I live?",
        "What was my job and what is it now?",
        "What car do I drive these days?",
        "我住在哪里？",
        "我现在的老板是谁？",
        "Wasabi or ginger with sushi?",
    ],
)
def test_a_question_about_now(question: str) -> None:
    assert not asks_about_the_past(question)


@pytest.mark.parametrize(
    ("phrase", "season"),
    [
        ("last spring", True),
        ("this summer", True),
        ("今年春天", True),
        ("去年冬季", True),
        ("last Easter", False),
        ("上周末", False),
        ("in March", False),
        ("春节", False),
    ],
)
def test_a_season_is_told_from_a_holiday_or_a_date(phrase: str, season: bool) -> None:
    assert names_a_season(phrase) is season

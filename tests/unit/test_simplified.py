"""Traditional Chinese read as Simplified (review15a TW3, TW4): the fold itself, the periods it
lets the time-phrase reader see, and the keyword terms a question shares with a memory in the
other script."""

from datetime import UTC, date, datetime

import pytest

from localmind.fts_terms import index_text, query_terms
from localmind.secrets_check import looks_secret
from localmind.simplified import simplified
from localmind.timeframe import time_frame

# Tuesday 1 December 2026, 10:00 UTC.
NOW = datetime(2026, 12, 1, 10, 0, tzinfo=UTC).timestamp()


@pytest.mark.parametrize(
    ("traditional", "simplified_form"),
    [
        ("上個月發生了什麼事？", "上个月发生了什么事？"),
        ("志明現在吃什麼血壓藥？", "志明现在吃什么血压药？"),
        ("去年聖誕節我們做了什麼？", "去年圣诞节我们做了什么？"),
        ("我騎一台光陽125機車", "我骑一台光阳125机车"),
        ("乾燥的天氣", "干燥的天气"),  # a phrase: 乾 is 干 here ...
        ("乾隆皇帝", "乾隆皇帝"),  # ... and stays in 乾隆
    ],
)
def test_traditional_text_reads_as_simplified(traditional: str, simplified_form: str) -> None:
    assert simplified(traditional) == simplified_form


@pytest.mark.parametrize(
    "text",
    ["我现在不再吃脉优了", "著名的作家", "I moved to Taichung in 2023.", "", "Pepper现在还是小狗"],
)
def test_simplified_and_other_text_is_read_as_written(text: str) -> None:
    assert simplified(text) is text


@pytest.mark.parametrize(
    ("query", "first", "after"),
    [
        ("上個月發生了什麼事？", "2026-11-01", "2026-12-01"),
        ("兩個月前發生什麼事？", "2026-09-16", "2026-10-16"),
        ("去年聖誕節我們做了什麼？", "2025-12-24", "2025-12-27"),
        ("民國114年12月發生什麼事？", "2025-12-01", "2026-01-01"),
        ("民国114年发生了什么？", "2025-01-01", "2026-01-01"),
    ],
)
def test_periods_written_in_traditional_or_in_republic_years_are_read(
    query: str, first: str, after: str
) -> None:
    frame = time_frame(query, NOW, UTC)
    assert frame is not None, query
    days = (
        datetime.fromtimestamp(frame.start, UTC).date(),
        datetime.fromtimestamp(frame.end, UTC).date(),
    )
    assert days == (date.fromisoformat(first), date.fromisoformat(after))


def test_a_question_shares_its_keyword_terms_with_a_memory_in_the_other_script() -> None:
    traditional = "李醫師說志明的得安穩改成每天早晚各一顆。"
    simplified_form = "李医师说志明的得安稳改成每天早晚各一颗。"
    assert index_text(traditional) == index_text(simplified_form)
    assert {"医师", "安稳", "一颗"} <= set(index_text(traditional).split())
    assert query_terms("李醫師說得安穩") == query_terms("李医师说得安稳")


@pytest.mark.parametrize("text", ["大門密碼：芝麻開門", "門禁密碼是4821"])
def test_a_password_told_in_traditional_looks_secret(text: str) -> None:
    # 密碼 was no telltale word (密码 was): the PIN would have reached an assistant
    assert looks_secret(text)
    assert not looks_secret("密碼是什麼？")

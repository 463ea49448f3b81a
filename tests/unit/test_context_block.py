"""The context block's marks (pure logic; the real store's scenarios are in
tests/integration/test_context_current.py): a day on every memory, "may be outdated" naming the
newer memory, and never a secret's text, even as the newer one."""

from __future__ import annotations

import datetime as dt

from localmind.currency import Given
from localmind.profile import context_block, nothing_remembered
from localmind.records import MemoryRecord, MemoryType

MARCH = dt.datetime(2026, 3, 20, 12).timestamp()
JANUARY = dt.datetime(2025, 1, 10, 12).timestamp()


def record(content: str, at: float, *, secret: bool = False) -> MemoryRecord:
    return MemoryRecord(
        id=f"id-{abs(hash(content))}",
        content=content,
        type=MemoryType.SEMANTIC,
        created_at=at,
        updated_at=at,
        secret=secret,
    )


def block(memories: list[Given]) -> list[str]:
    text = context_block(None, memories, profile_tokens=200, memory_tokens=300)
    return [line for line in text.splitlines() if line.startswith('- "')]


def test_the_older_memory_names_the_newer_with_both_days() -> None:
    lisbon = record("I moved to Lisbon", MARCH)
    berlin = record("I live in Berlin", JANUARY)
    assert block([Given(lisbon), Given(berlin, lisbon)]) == [
        '- "I moved to Lisbon" (told 2026-03-20)',
        '- "I live in Berlin" (told 2025-01-10; may be outdated: "I moved to Lisbon", told '
        "2026-03-20, is newer)",
    ]


def test_a_secret_newer_memory_is_named_but_never_quoted() -> None:
    new_pin = record("My bank PIN is now 4821", MARCH, secret=True)
    hint = record("My bank PIN is my birth year", JANUARY)
    [line] = block([Given(new_pin), Given(hint, new_pin)])
    assert "4821" not in line
    assert line.endswith("may be outdated: a memory kept secret, told 2026-03-20, is newer)")


def test_the_block_speaks_the_language_of_the_question() -> None:
    """An English question over Chinese memories gets English headings and days (the
    assistant is talking English), a Chinese one Chinese; without a question, the memories'."""
    flight = [Given(record("我的航班号是 CA1234，3月5日出发", MARCH))]
    english = context_block(None, flight, profile_tokens=200, memory_tokens=300, asked="When?")
    chinese = context_block(None, flight, profile_tokens=200, memory_tokens=300, asked="什么时候？")
    unasked = context_block(None, flight, profile_tokens=200, memory_tokens=300)
    assert "Relevant memories:" in english and "(told 2026-03-20)" in english
    assert "相关记忆：" in chinese and "相关记忆：" in unasked


def test_traditional_words_for_a_traditional_question_and_the_memory_as_told() -> None:
    """review15a TW11: the block's own Chinese follows the script of the question (or, asked
    nothing, of most memories); a memory is never converted."""
    told = [Given(record("我的郵局提款卡在抽屜裡", MARCH)), Given(record("我妈妈住在成都", MARCH))]
    asked = context_block(None, told, profile_tokens=200, memory_tokens=300, asked="卡在哪裡？")
    assert "相關記憶：" in asked and "（2026-03-20）" in asked
    assert '"我妈妈住在成都"' in asked and '"我的郵局提款卡在抽屜裡"' in asked
    simplified = context_block(
        None, told, profile_tokens=200, memory_tokens=300, asked="卡在哪里？"
    )
    assert "相关记忆：" in simplified
    assert nothing_remembered("我的卡在哪裡？") == "（記憶庫中沒有與此相關的用戶信息。）"
    assert nothing_remembered("我的卡在哪里？") == "（记忆库中没有与此相关的用户信息。）"

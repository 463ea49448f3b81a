"""A question about one attribute of the user ("What's my partner's name?") finds the memories
that set it, though they share no word with it and are not near it in meaning (review10 F11,
F17: after the person reviewed the queue, recall and context answered nothing). Real encrypted
store, sqlite-vec, FTS5 and the bundled USE-m3 model."""

from __future__ import annotations

from localmind import Memory, NewMemory
from tests.conftest import FakeClock

DAY = 86_400
TOLD = [
    "My girlfriend is called Laura.",
    "I have a cat called Pixel.",
    "I'm learning Mandarin with a tutor every Monday evening.",
    "Laura and I broke up.",
    "每周日早上我给父母打电话。",
    "I'm dating Mei now; we met at a climbing gym.",
    "My laptop is a ThinkPad X1 Carbon.",
    "I'm engaged to Mei.",
]


def _told(memory: Memory, clock: FakeClock) -> dict[str, str]:
    start = clock()
    clock.advance(days=len(TOLD) * 30)
    records = memory.remember_many(
        [NewMemory(content=text, created_at=start + i * 30 * DAY) for i, text in enumerate(TOLD)],
        check=False,
    )
    return {record.content: record.id for record in records}


def test_a_question_about_the_partner_finds_who_it_is_now(memory: Memory, clock: FakeClock):
    ids = _told(memory, clock)

    found = [r.memory.id for r in memory.recall("What's my partner's name?", limit=5)]
    asked_in_chinese = [r.memory.id for r in memory.recall("我的未婚妻叫什么名字？", limit=5)]

    assert ids["I'm engaged to Mei."] in found
    assert ids["I'm engaged to Mei."] in asked_in_chinese


def test_a_question_about_nothing_stored_still_returns_nothing(memory: Memory, clock: FakeClock):
    _told(memory, clock)
    assert memory.recall("Where do I live?") == []

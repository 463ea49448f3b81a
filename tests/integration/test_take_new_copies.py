"""A take-new asks again only about copies of the fact it replaced: memories the change was
loosely noted to supersede (the choir's concert, its year-end dinner, its chat group, all about
the choir) are no copies of "the choir practises on Tuesdays" and are not queued against the
new practice day (review15a TW6: settling four conflicts left five new ones). Real encrypted
store, sqlite-vec, FTS5 and the bundled USE-m3 model."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from localmind import Memory
from tests.conftest import FakeClock

CHOIR = "我参加松柏合唱团，每周二下午两点在文化中心练唱。"
NEIGHBOURS = (
    ("episodic", "合唱团在中山堂办圣诞音乐会，我唱女中音，小宇来看。"),
    ("episodic", "合唱团尾牙在新天地餐厅，黄老师送每人一条围巾。"),
    ("semantic", "我用LINE和合唱团的群组联络，群组叫松柏之声。"),
)
MOVED = "合唱团练唱改到每周四晚上七点，因为文化中心周二要整修。"

# as she wrote them, in Traditional characters (review15a's own texts)
CHOIR_TW = "我參加台中市松柏合唱團，每週二下午兩點在文化中心練唱。"
NEIGHBOURS_TW = (
    ("episodic", "合唱團在中山堂辦聖誕音樂會，我唱女中音，小宇來看。"),
    ("episodic", "合唱團尾牙在新天地餐廳，黃老師送每人一條圍巾。"),
    ("semantic", "我用LINE和合唱團的群組聯絡，群組叫松柏之聲。"),
)
MOVED_TW = "合唱團練唱改到每週四晚上七點，因為文化中心週二要整修。"

CHOIR_EN = "I sing in the Pine Choir; we practise on Tuesdays at 2 pm at the cultural centre."
NEIGHBOURS_EN = (
    ("episodic", "The choir gave its Christmas concert at Zhongshan Hall; I sang alto."),
    ("episodic", "The choir's year-end dinner was at Xintiandi; Ms. Huang gave everyone a scarf."),
    ("semantic", "I keep in touch with the choir through its LINE group, Voices of Pine."),
)
MOVED_EN = "Choir practice moved to Thursdays at 7 pm: the cultural centre is being renovated."


@pytest.mark.parametrize(
    ("fact", "neighbours", "change"),
    [
        (CHOIR, NEIGHBOURS, MOVED),
        (CHOIR_TW, NEIGHBOURS_TW, MOVED_TW),
        (CHOIR_EN, NEIGHBOURS_EN, MOVED_EN),
    ],
    ids=["zh", "zh-hant", "en"],
)
def test_taking_the_new_practice_day_asks_nothing_about_the_choirs_other_memories(
    open_memory: Callable[..., Memory],
    clock: FakeClock,
    fact: str,
    neighbours: tuple[tuple[str, str], ...],
    change: str,
) -> None:
    memory = open_memory()
    memory.remember(fact, type="semantic")
    for kind, text in neighbours:
        clock.advance(days=12)
        memory.remember(text, type=kind)
    clock.advance(days=30)
    memory.remember(change, type="semantic")
    asked = [c for c in memory.conflicts() if c.candidate.content == change]
    [practice] = [c for c in asked if c.existing.content == fact]
    for other in memory.conflicts():
        if other.id != practice.id:
            memory.resolve_conflict(other.id, "keep_both")
    memory.resolve_conflict(practice.id, "take_new")
    # settling the one change asks nothing new about the choir's concert or dinner: what
    # happened one day is no copy of the practice day (the chat group, a fact about the choir,
    # is still asked in Chinese: the cue 改到 and the shared 合唱团 — the suspicion rules')
    events = {text for kind, text in neighbours if kind == "episodic"}
    asked_now = {c.existing.content for c in memory.conflicts()} | {
        c.candidate.content for c in memory.conflicts()
    }
    assert not asked_now & events
    assert change in [r.content for r in memory.list_memories()]

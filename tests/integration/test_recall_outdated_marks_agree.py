"""Which memories recall and ``context`` call outdated, and which pairs are versions of one
thing at all (docs/design.md, "Current facts first, round 16"; review15a TW1, TW2, TW15). Real
encrypted store, sqlite-vec, FTS5 and the bundled USE-m3 model."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from localmind import Memory
from tests.conftest import FakeClock
from tests.integration.test_profile_pending import _told
from tests.integration.test_recall_lift_needs_relevance import BARN, MATCHA, SILO

pytestmark = pytest.mark.slow  # the model


@pytest.mark.parametrize(
    ("home", "move", "question"),
    [
        (
            "I live in Berlin, in a flat in Kreuzberg",
            "We moved to Lisbon last month",
            "Tell me about Kreuzberg",
        ),
        (
            "我住在柏林，在Kreuzberg租了一套公寓",
            "我们上个月搬到里斯本了",
            "Kreuzberg的公寓怎么样？",
        ),
    ],
)
def test_a_pending_move_marks_the_old_home_in_recall_as_in_context(
    open_memory: Callable[..., Memory], clock: FakeClock, home: str, move: str, question: str
) -> None:
    # TW1: recall marked the old home only when the move was among its results; context always
    memory = open_memory()
    old, new = _told(memory, clock, home, move)
    assert [(c.existing.id, c.candidate.id) for c in memory.conflicts()] == [(old, new)]
    found = memory.recall(question, 3)
    assert [r.memory.id for r in found] == [old]  # the move is no result of this question
    assert found[0].breakdown.superseded_by == new
    assert found[0].breakdown.superseded_at is not None
    block = memory.context(question, limit=3)
    assert move in block
    assert ("may be outdated" in block) or ("可能已过时" in block)


def test_context_does_not_call_a_cafe_outdated_by_a_habit_recall_does_not(
    open_memory: Callable[..., Memory], clock: FakeClock
) -> None:
    # J3's false pending (a habit queued against a café on a bare 现在): recall never marked the
    # café outdated by it, context did
    memory = open_memory()
    _told(memory, clock, BARN, SILO, MATCHA)
    question = "我最喜欢的咖啡店是哪家？"
    found = memory.recall(question, 3)
    assert found[0].memory.content == SILO
    assert found[0].breakdown.superseded_by is None
    block = memory.context(question, limit=3)
    silo_line = next(line for line in block.splitlines() if "Silo Coffee" in line)
    assert "可能已过时" not in silo_line, block


@pytest.mark.parametrize(
    ("own", "husbands", "question"),
    [
        (
            "My birthday is July 9",
            "My husband's birthday is November 2",
            "When is my husband's birthday?",
        ),
        ("我的生日是7月9日", "我先生的生日是11月2日", "我先生的生日是哪天？"),
    ],
)
def test_a_husbands_birthday_is_no_older_version_of_the_users(
    open_memory: Callable[..., Memory], clock: FakeClock, own: str, husbands: str, question: str
) -> None:
    # TW15: the two birthdays were noted as versions of one fact (here as an earlier version of
    # the rules noted them), and with --limit 2 the user's own came first, the husband's marked
    # "may be outdated"
    memory = open_memory()
    theirs, mine = _told(memory, clock, husbands, own)
    memory._lifecycle.link_successor(memory.get(mine), [(memory._store.get(theirs), 0.8)])
    for limit in (1, 2):
        found = memory.recall(question, limit)
        assert found[0].memory.id == theirs, [r.memory.content for r in found]
        assert found[0].breakdown.superseded_by is None
        assert all(r.breakdown.moved_above is None for r in found)


DOSE = "我先生陳志明的血壓藥是脈優，每天早上吃5毫克，是心臟科王醫師開的。"


@pytest.mark.parametrize(
    "other_drug",
    [
        "志明血糖偏高，王醫師現在開了庫魯化，每天500毫克。",
        "王醫師說志明要開始吃降血糖的藥，庫魯化500毫克早晚各一顆。",
    ],
)
def test_a_second_drug_from_the_same_doctor_is_no_later_version_of_the_first(
    open_memory: Callable[..., Memory], clock: FakeClock, other_drug: str
) -> None:
    # TW2: shared 王醫師 and 毫克 made the diabetes drug a later version of the BP drug
    memory = open_memory()
    dose, _ = _told(memory, clock, DOSE, other_drug)
    assert memory._store.later_versions(memory.namespace, [dose]) == []


def test_a_drug_replaced_by_another_is_still_a_later_version(
    open_memory: Callable[..., Memory], clock: FakeClock
) -> None:
    # ... while 脈優 stopped for 得安穩 is one (jieba splits the brand: 脉 优停)
    memory = open_memory()
    dose, change = _told(memory, clock, DOSE, "王醫師把志明的脈優停了，改成得安穩160毫克每天一顆。")
    assert [
        (old, new) for old, new, _ in memory._store.later_versions(memory.namespace, [dose])
    ] == [(dose, change)]

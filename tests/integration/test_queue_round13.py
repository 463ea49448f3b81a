"""The review queue, rounds 12 and 13 (queue12, queue13e), through Memory.remember on the real
encrypted store with the bundled USE-m3 embedder and no model: a child called by a Chinese name
in one language and by an English name in the other is one person when the store declares it —
"英文名叫Mia" (queue12) or the English name in brackets after the Chinese one, 女儿何以宁（Chloe）,
found by the name itself since that declaration holds no word such as 英文名 (queue13e;
docs/design.md, "The review queue, round 12" and "round 13")."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from localmind import Memory
from localmind.lifecycle import Decision

# (the declaration, a fact told under the Chinese name, its change told under the English
# name, what is told instead of the declaration when it names no English name)
CHILD_NAMED = [
    pytest.param(
        "我女儿叫陈思琪，今年七岁，英文名叫Mia。",
        "思琪每周日下午去上游泳课。",
        "Mia quit swimming; she does ballet on Sunday afternoons now.",
        [],
        id="declared-english-name",
    ),
    pytest.param(
        "我们有两个孩子：儿子何以恒（Ethan），2013年生；女儿何以宁（Chloe），2020年生。",
        "以宁每周三下午跟唐老师学钢琴，一节课45分钟。",
        "Chloe switched piano teachers - now it's Mr. Li on Mondays at 4.",
        ["我们有两个孩子：儿子何以恒，2013年生；女儿何以宁，2020年生。"],
        id="english-name-in-brackets",
    ),
]


@pytest.mark.parametrize(("declared", "chinese_fact", "english_change", "_"), CHILD_NAMED)
def test_a_change_told_under_the_declared_english_name_waits_for_review(
    open_memory: Callable[..., Memory],
    declared: str,
    chinese_fact: str,
    english_change: str,
    _: list[str],
) -> None:
    memory = open_memory(llm=None)
    memory.remember(declared)
    fact = memory.remember(chinese_fact)
    outcome = memory.remember_explained(english_change)
    assert outcome.decision is Decision.QUEUED, outcome.reason
    [conflict] = memory.conflicts()
    assert (conflict.existing.id, conflict.candidate.content) == (fact.id, english_change)


@pytest.mark.parametrize(("_", "chinese_fact", "english_change", "undeclared"), CHILD_NAMED)
def test_without_the_declaration_the_english_name_is_someone_else(
    open_memory: Callable[..., Memory],
    _: str,
    chinese_fact: str,
    english_change: str,
    undeclared: list[str],
) -> None:
    memory = open_memory(llm=None)
    for text in undeclared:
        memory.remember(text)
    memory.remember(chinese_fact)
    outcome = memory.remember_explained(english_change)
    assert outcome.decision is not Decision.QUEUED, outcome.reason
    assert memory.conflicts() == []


def test_a_change_told_again_in_the_other_language_waits_once(
    open_memory: Callable[..., Memory],
) -> None:
    # the Chinese change is paired with the Chinese booking; its English retelling is nearer
    # the English booking, which waits on nothing: without the join it was a second question
    memory = open_memory(llm=None)
    memory.remember("Mom's knee replacement is booked for March 10 at Burnaby Hospital.")
    memory.remember("妈妈的膝关节手术定在3月10日，在本拿比医院。")
    change = memory.remember_explained("妈妈的膝关节手术推迟了，医院改成5月12日。")
    assert change.decision is Decision.QUEUED, change.reason
    again = memory.remember_explained("My mom's knee surgery got pushed to May 12.")
    assert again.decision is Decision.MERGED, again.reason
    [conflict] = memory.conflicts()
    assert conflict.candidate.id == change.record.id


def test_a_move_is_paired_with_the_home_not_the_house_hunt(
    open_memory: Callable[..., Memory],
) -> None:
    # review12 R1: queued against the house hunt, and only it was offered
    memory = open_memory(llm=None)
    home = memory.remember("我们住在温哥华的Kitsilano。")
    memory.remember("我们在看Burnaby的房子。")
    outcome = memory.remember_explained("We moved to Burnaby, near Metrotown.")
    assert outcome.decision is Decision.QUEUED, outcome.reason
    assert outcome.related is not None and outcome.related.id == home.id


def test_a_new_manager_with_a_past_is_still_a_change(open_memory: Callable[..., Memory]) -> None:
    # review13 J2: the 以前 clause pulls the text below the similarity floor and read the
    # change as history; 新 before "manager" now lowers the floor as "new" does in English
    memory = open_memory(llm=None)
    old = memory.remember("我的manager是Tobias Weber，德国人，很nice，每周四和我1:1")
    outcome = memory.remember_explained(
        "我的新manager是Sarah Klein，英国人，以前在Spotify做design lead"
    )
    assert outcome.decision is Decision.QUEUED, outcome.reason
    assert outcome.related is not None and outcome.related.id == old.id


def test_a_move_is_paired_with_the_temporary_home_not_the_plan(
    open_memory: Callable[..., Memory],
) -> None:
    # review13 J4: the move was queued only against the plan it fulfils
    memory = open_memory(llm=None)
    airbnb = memory.remember("我现在暂时住在Mitte的一个Airbnb。")
    memory.remember(
        "The Boxhagener Platz flat: the landlord said yes! Move-in date is November 15."
    )
    outcome = memory.remember_explained("我搬进了Boxhagener Platz的新家，一居室，55平米。")
    assert outcome.decision is Decision.QUEUED, outcome.reason
    assert outcome.related is not None and outcome.related.id == airbnb.id

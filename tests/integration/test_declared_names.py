"""A retelling in the other language under the name the user declared in brackets (儿子何以恒
（Ethan）) merges with the memory it retells, and a merged retelling of a change still marks what
it changes, through the real store, its keyword index and the bundled embedder (docs/design.md,
"Remember's judgment, round 7")."""

from __future__ import annotations

from collections.abc import Callable

from localmind import Memory
from localmind.lifecycle import Decision
from tests.conftest import FakeClock

DECLARED = "我们有两个孩子：儿子何以恒（Ethan），女儿何以宁（Chloe）。"
CHINESE = "以恒的生日是6月21日。"
ENGLISH = "Ethan's birthday is June 21."


def test_a_retelling_under_the_declared_name_merges(
    open_memory: Callable[..., Memory],
) -> None:
    memory = open_memory(llm=None)
    memory.remember(DECLARED)
    fact = memory.remember(CHINESE)
    outcome = memory.remember_explained(ENGLISH)
    assert outcome.decision is Decision.MERGED, outcome.reason
    assert outcome.record.id == fact.id
    assert memory.get(fact.id).content == CHINESE
    assert memory.conflicts() == []


def test_without_the_declaration_or_under_another_name_it_is_stored_apart(
    open_memory: Callable[..., Memory],
) -> None:
    undeclared = open_memory(llm=None)
    undeclared.remember(CHINESE)
    outcome = undeclared.remember_explained(ENGLISH)
    assert outcome.decision is not Decision.MERGED, outcome.reason
    undeclared.close()
    declared = open_memory(llm=None, path=undeclared.path.with_name("declared.db"))
    declared.remember(DECLARED)
    declared.remember(CHINESE)
    other = declared.remember_explained("Chloe's birthday is June 21.")
    assert other.decision is not Decision.MERGED, other.reason


def test_a_merged_retelling_of_a_change_still_makes_the_old_one_outdated(
    open_memory: Callable[..., Memory], clock: FakeClock
) -> None:
    """A change told in both languages merges into one memory; the older fact told only in
    Chinese is reached by the Chinese retelling's words alone, and is still the earlier
    version of the merged memory (hyg13f: merging it had lost that link)."""
    memory = open_memory(llm=None)
    memory.remember("I left Northwind; today was my first day as a staff engineer at Lumen.")
    old_zh = memory.remember("我从Northwind离职了，现在在Lumen当主任工程师，做理赔平台。")
    clock.advance(days=300)
    change = memory.remember(
        "I'm now the tech lead for the claims platform team at Lumen, five engineers."
    )
    clock.advance(days=1)
    outcome = memory.remember_explained("我现在是Lumen理赔平台组的技术负责人，带五个工程师。")
    assert outcome.decision is Decision.MERGED and outcome.record.id == change.id
    found = memory.recall("我现在在Lumen做什么工作？", 5)
    assert found[0].memory.id == change.id  # the current role first
    assert found[0].breakdown.moved_above == old_zh.id

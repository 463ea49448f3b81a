"""A retelling in the other language under the name the user declared in brackets (儿子何以恒
（Ethan）) merges with the memory it retells, through the real store, its keyword index and the
bundled embedder (docs/design.md, "Remember's judgment, round 7")."""

from __future__ import annotations

from collections.abc import Callable

from localmind import Memory
from localmind.lifecycle import Decision

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

"""The review queue, round 12 (queue12), through Memory.remember on the real encrypted store
with the bundled USE-m3 embedder and no model: a child called by a Chinese name in one
language and by the English name the user declared in the other is one person (docs/design.md,
"The review queue, round 12")."""

from __future__ import annotations

from collections.abc import Callable

from localmind import Memory
from localmind.lifecycle import Decision

DECLARED = "我女儿叫陈思琪，今年七岁，英文名叫Mia。"
CHINESE_FACT = "思琪每周日下午去上游泳课。"
ENGLISH_CHANGE = "Mia quit swimming; she does ballet on Sunday afternoons now."


def test_a_change_told_under_the_declared_english_name_waits_for_review(
    open_memory: Callable[..., Memory],
) -> None:
    memory = open_memory(llm=None)
    memory.remember(DECLARED)
    fact = memory.remember(CHINESE_FACT)
    outcome = memory.remember_explained(ENGLISH_CHANGE)
    assert outcome.decision is Decision.QUEUED, outcome.reason
    [conflict] = memory.conflicts()
    assert (conflict.existing.id, conflict.candidate.content) == (fact.id, ENGLISH_CHANGE)


def test_without_the_declaration_the_english_name_is_someone_else(
    open_memory: Callable[..., Memory],
) -> None:
    memory = open_memory(llm=None)
    memory.remember(CHINESE_FACT)
    outcome = memory.remember_explained(ENGLISH_CHANGE)
    assert outcome.decision is not Decision.QUEUED, outcome.reason
    assert memory.conflicts() == []

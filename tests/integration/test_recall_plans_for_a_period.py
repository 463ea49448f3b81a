"""A plan for a period replaced before the period began is not what happened then: asked
"where did we spend Christmas 2025?", the first idea (Maui, "this year") does not rank above
the plan that replaced it in October (docs/design.md, "Recall, round 12b"). Real encrypted
store, sqlite-vec, FTS5 and the bundled USE-m3 model."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pytest

from localmind import Memory
from tests.conftest import FakeClock

MAUI = "We're thinking about Maui for Christmas this year."
PORTLAND = (
    "Scratch Maui — we'll spend Christmas in Portland with Tom's parents, since we just bought "
    "a house."
)


def _day(text: str) -> float:
    return dt.datetime.fromisoformat(text).replace(tzinfo=dt.UTC).timestamp()


@pytest.mark.slow
def test_a_plan_replaced_before_the_period_is_not_its_answer(
    open_memory: Callable[..., Memory], clock: FakeClock
) -> None:
    clock.now = _day("2025-09-01T12:00:00")
    memory = open_memory()
    for text in (
        "I work as a software engineer at a logistics company",
        "Christmas 2024 we stayed home in Seattle and it snowed on Christmas Eve.",
        "My daughter Lily starts violin lessons in September",
    ):
        memory.remember(text)
    clock.now = _day("2025-10-05T12:00:00")
    maui = memory.remember(MAUI).id
    clock.now = _day("2025-10-22T12:00:00")
    portland = memory.remember(PORTLAND).id
    clock.now = _day("2026-03-01T12:00:00")
    found = [r.memory.id for r in memory.recall("Where did we decide to spend Christmas 2025?", 5)]
    assert portland in found
    assert maui not in found[: found.index(portland)]
    # ... while what held in a period still answers for it when it changed only after: asked
    # about the year before, Christmas 2024 at home comes first
    found = [r.memory.content for r in memory.recall("Where were we for Christmas 2024?", 3)]
    assert found[0].startswith("Christmas 2024")

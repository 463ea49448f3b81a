"""The review queue, round 9 (issue 13 item 2, queue9), through Memory.remember on the real
encrypted store with the bundled USE-m3 embedder and no model: changes the earlier rounds missed
on the dev sets wait for review; what only looks like them does not (docs/design.md, "The
review queue, round 9")."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from localmind import Memory
from localmind.lifecycle import Decision
from tests.integration.test_hygiene import told_after


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("夜班太累，现在每天喝一杯拿铁，加两份糖。", "糖吃太多了，改成喝美式，不加糖了。"),
        (
            "医生说我血压偏高，140/90，让我少吃盐。",
            "My blood pressure was 125/82 this week, much better than the 140/90 in spring.",
        ),
        ("I go to bed around 11 pm.", "I go to bed around midnight these days."),
    ],
    ids=["change-and-negation", "older-value-cited", "clock-in-words"],
)
def test_a_change_the_earlier_rules_missed_waits_for_review(
    open_memory: Callable[..., Memory], old: str, new: str
) -> None:
    memory, first, outcome = told_after(open_memory, old, new)
    assert outcome.decision is Decision.QUEUED, outcome.reason
    [conflict] = memory.conflicts()
    assert (conflict.existing.id, conflict.candidate.content) == (first.id, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "I drink coffee with milk every morning.",
            "I switched to a new café; they don't have oat milk.",
        ),
        ("我女儿今年12岁。", "My daughter's team won 12 to 9, better than last week."),
    ],
    ids=["negation-of-something-else", "number-by-chance"],
)
def test_what_only_looks_like_such_a_change_is_not_queued(
    open_memory: Callable[..., Memory], old: str, new: str
) -> None:
    memory, _, outcome = told_after(open_memory, old, new)
    assert outcome.decision is not Decision.QUEUED, outcome.reason
    assert memory.conflicts() == []

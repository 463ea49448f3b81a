"""A change told to a store is queued against the memory of what it changes, not a nearer one
that only shares a word or a name (review12 R1: the assistant, offered only the wrong memory
and asked "take_new if the new one replaces the old", replaced an event and lost facts)."""

from __future__ import annotations

import pytest

from localmind import Memory
from localmind.lifecycle import Decision

CASES = [
    pytest.param(
        [
            "Went to Emma's school concert on Thursday",
            "Emma goes to Carnarvon Elementary, grade 4",
        ],
        "Emma now goes to Marlborough Elementary in Burnaby",
        "Emma goes to Carnarvon Elementary, grade 4",
        id="school",
    ),
    pytest.param(
        ["My dad's doctor changed his medication to losartan", "My dad plays chess on Sundays"],
        "Dad stopped losartan; the doctor put him back on amlodipine",
        "My dad's doctor changed his medication to losartan",
        id="dad-is-the-father",
    ),
    pytest.param(
        ["Fang does yoga on Sunday mornings", "王芳不喝咖啡，只喝乌龙茶"],
        "Fang started drinking coffee again — a flat white every morning",
        "王芳不喝咖啡，只喝乌龙茶",
        id="pinyin-name",
    ),
]


@pytest.mark.parametrize(("told", "change", "changed"), CASES)
def test_a_change_is_queued_against_the_memory_of_what_it_changes(
    memory: Memory, told: list[str], change: str, changed: str
) -> None:
    for text in told:
        memory.remember(text)

    outcome = memory.remember_explained(change)

    assert outcome.decision is Decision.QUEUED
    assert outcome.related is not None and outcome.related.content == changed
    assert [(c.existing.content, c.candidate.content) for c in memory.conflicts()] == [
        (changed, change)
    ]

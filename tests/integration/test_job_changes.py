"""A job change is a change (issue 13 item 2, review9 M1 and Q1), through Memory.remember on
the real encrypted store with the bundled USE-m3 embedder and no model: a new employer told
with role words waits for review against the old job, and a job change is paired with the
memory of the job, not with a nearer memory its "now" and a shared place name also fit."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from localmind import Memory
from localmind.lifecycle import Decision
from tests.unit.test_suspicion_round10 import ANOTHER_CHANGE_OF_THE_OLDER

SIEMENS = (
    "I work at Siemens as a software engineer in the Munich office, on the industrial "
    "automation team"
)
GOOGLE = "I now work at Google Lisbon as a staff engineer on the Cloud team since April"


def test_a_new_employer_told_with_role_words_waits_for_review(
    open_memory: Callable[..., Memory],
) -> None:
    memory = open_memory(llm=None)
    memory.remember("The user works as a data engineer at Zalando")
    outcome = memory.remember_explained("The user now works at SAP as a tech lead")
    assert outcome.decision is Decision.QUEUED, outcome.reason
    [conflict] = memory.conflicts()
    assert conflict.existing.content == "The user works as a data engineer at Zalando"


def test_a_job_change_is_paired_with_the_job_not_with_the_move(
    open_memory: Callable[..., Memory],
) -> None:
    memory = open_memory(llm=None)
    memory.remember(SIEMENS)
    memory.remember("I moved to Lisbon")
    outcome = memory.remember_explained(GOOGLE)
    assert outcome.decision is Decision.QUEUED, outcome.reason
    [conflict] = memory.conflicts()
    assert (conflict.existing.content, conflict.candidate.content) == (SIEMENS, GOOGLE)
    assert "job" in outcome.reason


# A value changed twice: the third telling is paired with the second, the current value, not
# with the first, which may be the nearer in words (queue10 item 2).
CHANGED_TWICE = [
    (
        SIEMENS,
        GOOGLE,
        "I now work at SAP in Walldorf as a principal engineer",
    ),
    ("My partner is Tom.", "My partner is now Alex.", "My partner is now Sam."),
    (
        "My boyfriend is Tom, we met at university.",
        "Tom and I broke up; I'm dating Alex now.",
        "My boyfriend is Sam now, we met at work.",
    ),
    ("我的领导是王磊。", "我的领导现在是李娜。", "我的领导现在是张伟。"),
]


def queued_in_turn(memory: Memory, first: str, second: str, third: str) -> set[tuple[str, str]]:
    """The three told in turn, the third queued: every (existing, candidate) pair waiting."""
    memory.remember(first)
    memory.remember(second)
    outcome = memory.remember_explained(third)
    assert outcome.decision is Decision.QUEUED, outcome.reason
    return {(c.existing.content, c.candidate.content) for c in memory.conflicts()}


@pytest.mark.parametrize(
    ("first", "second", "third"),
    CHANGED_TWICE,
    ids=["employer", "partner", "boyfriend", "manager-zh"],
)
def test_a_value_changed_twice_is_paired_with_the_current_one(
    open_memory: Callable[..., Memory], first: str, second: str, third: str
) -> None:
    pairs = queued_in_turn(open_memory(llm=None), first, second, third)
    assert pairs == {(first, second), (second, third)}


@pytest.mark.parametrize(
    ("older", "waiting", "newer"), ANOTHER_CHANGE_OF_THE_OLDER[:2], ids=["zh", "en"]
)
def test_another_change_of_a_memory_with_a_change_waiting_is_queued_too(
    open_memory: Callable[..., Memory], older: str, waiting: str, newer: str
) -> None:
    # the shift change waits for review against the older memory; stopping the melatonin is
    # another change of it, not the shift change told again (which would be stored unqueued)
    pairs = queued_in_turn(open_memory(llm=None), older, waiting, newer)
    assert pairs == {(older, waiting), (older, newer)}

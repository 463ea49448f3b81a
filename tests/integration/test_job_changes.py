"""A job change is a change (issue 13 item 2, review9 M1 and Q1), through Memory.remember on
the real encrypted store with the bundled USE-m3 embedder and no model: a new employer told
with role words waits for review against the old job, and a job change is paired with the
memory of the job, not with a nearer memory its "now" and a shared place name also fit."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from localmind import Memory
from localmind.lifecycle import Decision

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
    ("我的领导是王磊。", "我的领导现在是李娜。", "我的领导现在是张伟。"),
]


@pytest.mark.parametrize(
    ("first", "second", "third"), CHANGED_TWICE, ids=["employer", "partner", "manager-zh"]
)
def test_a_value_changed_twice_is_paired_with_the_current_one(
    open_memory: Callable[..., Memory], first: str, second: str, third: str
) -> None:
    memory = open_memory(llm=None)
    memory.remember(first)
    memory.remember(second)
    outcome = memory.remember_explained(third)
    assert outcome.decision is Decision.QUEUED, outcome.reason
    pairs = {(c.existing.content, c.candidate.content) for c in memory.conflicts()}
    assert pairs == {(first, second), (second, third)}

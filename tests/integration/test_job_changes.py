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


@pytest.mark.parametrize(
    ("older", "waiting", "newer"),
    [
        (
            "上夜班白天睡不着，现在每天吃3毫克褪黑素。",
            "终于从夜班换成了白班，早上7点到晚上7点。",
            "换了白班以后褪黑素停了，晚上倒头就睡。",
        ),
        (
            "I work night shifts and take 3 mg of melatonin every evening to sleep during the day.",
            "I finally switched from night shifts to day shifts, 7 am to 7 pm.",
            "Since switching to day shifts I stopped the melatonin; I sleep fine now.",
        ),
    ],
    ids=["zh", "en"],
)
def test_another_change_of_a_memory_with_a_change_waiting_is_queued_too(
    open_memory: Callable[..., Memory], older: str, waiting: str, newer: str
) -> None:
    # the shift change waits for review against the older memory; stopping the melatonin is
    # another change of it, not the shift change told again (which would be stored unqueued)
    memory = open_memory(llm=None)
    memory.remember(older)
    memory.remember(waiting)
    outcome = memory.remember_explained(newer)
    assert outcome.decision is Decision.QUEUED, outcome.reason
    pairs = {(c.existing.content, c.candidate.content) for c in memory.conflicts()}
    assert pairs == {(older, waiting), (older, newer)}

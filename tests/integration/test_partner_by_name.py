"""A change told by the partner's name replaces what was told of "my wife" (review12 R4): the
store says "My wife, Sarah, …", so "Sarah now teaches at Burnaby South" is the wife's new job.
Real encrypted store, sqlite-vec, FTS5 and the bundled USE-m3 model; docs/design.md, "Recall,
round 12b"."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from localmind import Memory
from tests.conftest import FakeClock
from tests.integration.test_recall_judgment import _filled

OLD_JOB = "My wife teaches math at Kitsilano Secondary."
NEW_JOB = "Sarah now teaches at Burnaby South."


def _told(memory: Memory, clock: FakeClock) -> None:
    _filled(memory)
    for text in ("My wife, Sarah, loves hiking.", OLD_JOB, NEW_JOB):
        memory.remember(text)
        clock.advance(days=30)


@pytest.mark.slow
def test_a_change_told_by_the_partners_name_replaces_the_wifes_job(
    open_memory: Callable[..., Memory], clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory = open_memory()
    _told(memory, clock)
    [conflict] = [c for c in memory.conflicts() if c.candidate.content == NEW_JOB]
    assert conflict.existing.content == OLD_JOB
    found = memory.recall("Where does my wife work now?", 5)
    contents = [r.memory.content for r in found]
    assert contents.index(NEW_JOB) < contents.index(OLD_JOB)
    [old] = [r for r in found if r.memory.content == OLD_JOB]
    assert old.breakdown.superseded_by == conflict.candidate.id


@pytest.mark.slow
@pytest.mark.parametrize(
    "new_job", ["Li Na now teaches math at Burnaby South.", "李娜现在在Burnaby South教数学。"]
)
def test_a_wife_named_with_is_and_her_characters_is_the_wife(
    open_memory: Callable[..., Memory], clock: FakeClock, new_job: str
) -> None:
    """ "My wife is Li Na (李娜)." was not read as the partner's name (polish14): told by
    either name, her new job is a change of what was told of "my wife"."""
    memory = open_memory()
    _filled(memory)
    for text in ("My wife is Li Na (李娜).", OLD_JOB, new_job):
        memory.remember(text)
        clock.advance(days=30)
    [conflict] = [c for c in memory.conflicts() if c.candidate.content == new_job]
    assert conflict.existing.content == OLD_JOB


@pytest.mark.slow
def test_without_the_name_the_two_are_two_people(
    open_memory: Callable[..., Memory], clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rule that decides: without the declared name nothing pairs the two."""
    monkeypatch.setattr("localmind.aliases.partners_named", lambda text: frozenset())
    memory = open_memory()
    _told(memory, clock)
    assert not [c for c in memory.conflicts() if c.candidate.content == NEW_JOB]


@pytest.mark.slow
def test_the_partners_new_job_does_not_outdate_a_childs_school(
    open_memory: Callable[..., Memory], clock: FakeClock
) -> None:
    """Emma's school and 王芳's new job at a school: two people, once the store names 王芳 the
    wife (review12 R3: the wife's job had marked the daughter's school "may be outdated")."""
    memory = open_memory()
    _filled(memory)
    memory.remember("我太太叫王芳，在 Kitsilano 中学教数学。")
    school = memory.remember("Emma now goes to Burnaby South Secondary, grade 8.")
    clock.advance(days=30)
    job = memory.remember("王芳现在在 Burnaby South 中学教数学。")
    clock.advance(days=1)
    assert not [
        c for c in memory.conflicts() if c.candidate.id == job.id and c.existing.id == school.id
    ]
    question = "Which school does Emma go to now?"
    found = memory.recall(question, 5)
    assert all(r.breakdown.moved_above != school.id for r in found)
    [emma] = [r for r in found if r.memory.id == school.id]
    assert emma.breakdown.superseded_by is None
    # the wife's own earlier job is outdated by it; Emma's school is not
    told = memory.context(question)
    [line] = [line for line in told.splitlines() if "Emma now goes to Burnaby South" in line]
    assert not any(mark in line for mark in ("may be outdated", "可能已过时"))

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
def test_without_the_name_the_two_are_two_people(
    open_memory: Callable[..., Memory], clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rule that decides: without the declared name nothing pairs the two."""
    monkeypatch.setattr("localmind.aliases.partners_named", lambda text: frozenset())
    memory = open_memory()
    _told(memory, clock)
    assert not [c for c in memory.conflicts() if c.candidate.content == NEW_JOB]

"""Recall keeps the partner's name it read (``Recaller._partners``) only while the memories stay
as they were: a name declared after a recall is read at the next one, in the same process, with
the in-memory keyword index built (docs/design.md, "Search near the limit, round 11"). Real
encrypted store, sqlite-vec, FTS5 and the bundled USE-m3 model."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from localmind import Memory, NewMemory
from localmind.store.vectors import INDEX_AFTER_SEARCHES
from tests.conftest import FakeClock
from tests.integration.test_recall_judgment import _filled

SCHOOL = "Emma now goes to Burnaby South Secondary, grade 8."
JOB = "王芳现在在 Burnaby South 中学教数学。"
QUESTION = "Which school does Emma go to now?"


def _school_outdated(memory: Memory) -> bool:
    found = memory.recall(QUESTION, 5, threshold=0)
    [school] = [r for r in found if r.memory.content == SCHOOL]
    moved = any(r.breakdown.moved_above == school.memory.id for r in found)
    return moved or school.breakdown.superseded_by is not None


@pytest.mark.slow
def test_a_partners_name_told_after_a_recall_is_read_at_the_next(
    open_memory: Callable[..., Memory], clock: FakeClock
) -> None:
    memory = open_memory()
    _filled(memory)
    memory.remember(SCHOOL)
    clock.advance(days=30)
    memory.remember_many([NewMemory(JOB)], check=False)  # nothing links the two
    clock.advance(days=1)
    for _ in range(INDEX_AFTER_SEARCHES + 2):  # the keyword index is built, its answer kept
        assert _school_outdated(memory)  # without the name: read as Emma's next school (R3)
    assert memory._store.words_version() is not None
    memory.remember("我太太叫王芳。")  # now 王芳 is the wife: her job is no later school of Emma's
    clock.advance(days=1)
    assert not _school_outdated(memory)

"""Only a change marks an older memory "may be outdated" (review9 M2): a newer memory about
another attribute of the same person ("Mia started school in September" after her name and
age) is compatible, and neither lifts itself above the older one nor marks it in ``context``.
Real encrypted store, sqlite-vec, FTS5 and the bundled USE-m3 model; see docs/design.md,
"Wrong answers, round 10"."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from localmind import Memory
from localmind.lifecycle import Decision
from tests.conftest import FakeClock


@pytest.mark.parametrize(
    ("about_her", "started_school", "question"),
    [
        (
            "用户的女儿叫米娅，今年六岁",
            "The user's daughter Mia started school in September",
            "我女儿叫什么名字？",
        ),
        (
            "My daughter Emma is six years old",
            "Emma started school in September",
            "How old is Emma?",
        ),
    ],
)
def test_a_compatible_newer_memory_marks_nothing_outdated(
    open_memory: Callable[..., Memory],
    clock: FakeClock,
    about_her: str,
    started_school: str,
    question: str,
) -> None:
    memory = open_memory()
    memory.remember("The user's name is Lena Fischer", type="semantic")
    older = memory.remember(about_her, type="semantic")
    clock.advance(days=1)
    outcome = memory.remember_explained(started_school, type="episodic")
    assert outcome.decision is Decision.INSERTED
    clock.advance(seconds=60)
    found = memory.recall(question, 5)
    assert found[0].memory.id == older.id
    assert started_school in [r.memory.content for r in found]
    assert all(r.breakdown.moved_above is None for r in found)
    assert all(r.breakdown.superseded_by is None for r in found)
    told = memory.context(question)
    assert about_her in told
    assert "may be outdated:" not in told and "可能已过时：" not in told


def test_a_change_of_the_same_attribute_still_goes_first(
    open_memory: Callable[..., Memory], clock: FakeClock
) -> None:
    """Told in the other language, a first school day after "in kindergarten" is a change of
    where she goes to school: it still ranks above the older memory, which says so."""
    memory = open_memory()
    older = memory.remember("我女儿米娅在读幼儿园", type="semantic")
    clock.advance(days=100)
    newer = memory.remember("My daughter Mia started school in September", type="semantic")
    clock.advance(seconds=60)
    found = [
        r for r in memory.recall("我女儿在哪里上学？", 5) if r.memory.id in (older.id, newer.id)
    ]
    assert [r.memory.id for r in found] == [newer.id, older.id]
    assert "可能已过时" in memory.context("我女儿在哪里上学？")

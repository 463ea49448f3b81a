"""Recall marks an older memory "may be outdated" by a newer one nothing links only when the
newer tells of the same person and the same thing (review12 R3-R5): the wife's new job does not
replace the son's school, the son's new friend not his teacher, the mother's blood pressure not
her medication, the user's own tea not the wife's. A real change of the same thing still goes
first and marks the older. Real encrypted store, sqlite-vec, FTS5 and the bundled model; see
docs/design.md, "Outdated marks, round 12"."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from localmind import Memory
from tests.conftest import FakeClock

OUTDATED = ("may be outdated:", "可能已过时：")


@pytest.mark.parametrize(
    ("older", "newer", "question"),
    [
        (  # another person, another attribute (the wife's job after the son's school)
            "Noah now goes to Lakeview Elementary in Richmond",
            "李娜现在在 Richmond 中学教英语",
            "Which school does Noah go to?",
        ),
        (  # the same person, another attribute
            "Noah's teacher this year is Ms. Delgado",
            "Noah's new best friend at Lakeview is Tariq",
            "Who is Noah's teacher this year?",
        ),
        (
            "My mom's doctor switched her medication to ramipril",
            "My mom's blood pressure is fine now",
            "What medication does my mom take?",
        ),
        (  # the same attribute of another person
            "Li Na started drinking tea again, a chai every afternoon",
            "I'm back to drinking tea, one chai a day",
            "Does Li Na drink tea?",
        ),
    ],
)
def test_a_newer_memory_about_something_else_marks_nothing(
    open_memory: Callable[..., Memory],
    clock: FakeClock,
    older: str,
    newer: str,
    question: str,
) -> None:
    memory = open_memory()
    memory.remember("My wife is Li Na (李娜); our son is Noah", type="semantic")
    first = memory.remember(older, type="semantic")
    clock.advance(days=30)
    memory.remember(newer, type="semantic")
    clock.advance(seconds=60)
    found = memory.recall(question, 5)
    assert found[0].memory.id == first.id
    assert all(r.breakdown.moved_above is None for r in found)
    assert all(r.breakdown.superseded_by is None for r in found)
    told = memory.context(question)
    assert older in told
    assert not any(mark in told for mark in OUTDATED)


@pytest.mark.parametrize(
    ("older", "newer", "question"),
    [
        (
            "Noah goes to Brookfield Elementary, grade 3",
            "Noah now goes to Lakeview Elementary in Richmond",
            "Which school does Noah go to?",
        ),
        (
            "My mom's doctor switched her medication to ramipril",
            "Mom stopped ramipril; the doctor put her back on amlodipine",
            "What medication does my mom take?",
        ),
    ],
)
def test_a_change_of_the_same_thing_still_goes_first_and_marks_the_older(
    open_memory: Callable[..., Memory],
    clock: FakeClock,
    older: str,
    newer: str,
    question: str,
) -> None:
    memory = open_memory()
    first = memory.remember(older, type="semantic")
    clock.advance(days=30)
    second = memory.remember(newer, type="semantic")
    clock.advance(seconds=60)
    ids = [r.memory.id for r in memory.recall(question, 5)]
    assert ids.index(second.id) < ids.index(first.id)
    told = memory.context(question)
    assert told.index(newer) < told.index(older)
    assert any(mark in told for mark in OUTDATED)

"""The vectors of the memories an import plans to add, searched as the store's index would
find them once written (``writing._PlannedVectors``): by cosine at or above each line's
floor, facts only for an event, a fuller text's vector in place of the old one."""

from __future__ import annotations

import numpy as np

from localmind.records import MemoryType
from localmind.writing import _PlannedVectors

FACT, EVENT = MemoryType.SEMANTIC.value, MemoryType.EPISODIC.value


def _unit(*values: float) -> np.ndarray:
    vector = np.zeros(8, dtype=np.float32)
    vector[: len(values)] = values
    return vector


def test_each_line_finds_the_planned_memories_at_or_above_its_own_floor() -> None:
    planned = _PlannedVectors()
    planned.add("berlin", FACT, _unit(1, 0))
    planned.add("diagonal", FACT, _unit(1, 1))  # cosine 0.71 with both axes
    planned.add("other", FACT, _unit(0, 0, 1))
    near = planned.near([_unit(2, 0), _unit(1, 0)], [0.9, 0.5], [False, False])
    assert near[0] == [("berlin", 1.0)]
    assert sorted(memory_id for memory_id, _ in near[1]) == ["berlin", "diagonal"]
    assert abs(dict(near[1])["diagonal"] - 0.7071) < 1e-3


def test_an_event_meets_planned_facts_only() -> None:
    planned = _PlannedVectors()
    planned.add("a run", EVENT, _unit(1, 0))
    planned.add("lives in Berlin", FACT, _unit(1, 0.1))
    [found] = planned.near([_unit(1, 0)], [0.5], [True])
    assert [memory_id for memory_id, _ in found] == ["lives in Berlin"]


def test_a_fuller_text_takes_the_place_of_the_old_vector_and_many_rows_fit() -> None:
    planned = _PlannedVectors()
    for n in range(200):  # past the first allocation of 64 rows
        planned.add(f"m{n}", FACT, _unit(0, 0, 0, 1, n / 200))
    planned.add("m7", FACT, _unit(1, 0))  # merged: now says something else
    [found] = planned.near([_unit(1, 0)], [0.9], [False])
    assert found == [("m7", 1.0)]
    [found] = planned.near([_unit(0, 0, 0, 1)], [0.99], [False])
    assert "m7" not in dict(found) and "m0" in dict(found) and len(found) > 20
    assert planned.near([_unit(1, 0)], [0.5], [False]) != [[]]
    assert _PlannedVectors().near([_unit(1, 0)], [0.1], [False]) == [[]]

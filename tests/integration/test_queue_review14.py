"""A second new user's review queue (review14 K2): a trip that "moved" to another time is a
change of the trip, not of where one lives. The real encrypted store and the bundled
embedder, no model."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from localmind import Memory
from localmind.lifecycle import Decision


def _on(day: str) -> float:
    return dt.datetime.fromisoformat(day).replace(hour=12, tzinfo=dt.UTC).timestamp()


def test_a_trip_moved_is_asked_against_the_trip_not_the_new_home(
    open_memory: Callable[..., Memory],
) -> None:
    memory = open_memory(llm=None)
    plan = memory.remember(
        "We plan to visit my in-laws in Kunming over Chinese New Year 2027.",
        "semantic",
        created_at=_on("2025-10-12"),
    )
    memory.remember(
        "We bought a 3-bedroom condo at Parc Central Residences; we move in mid-November.",
        "semantic",
        created_at=_on("2025-11-05"),
    )
    moved = memory.remember_explained(
        "The Kunming trip moved: we'll go after CNY, in the March school holidays.",
        "semantic",
        created_at=_on("2025-11-12"),
    )
    assert moved.decision is Decision.QUEUED
    assert moved.related is not None and moved.related.id == plan.id

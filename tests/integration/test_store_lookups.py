"""Lookups that run once per remembered item must not read the whole namespace: measured in
SQLite's own virtual-machine steps on a real encrypted store, a lookup by text costs about the
same in a store of 30 memories and of 300 (an import of events into a big store was
quadratic: each line walked every active memory, and a 100k build did not finish)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from localmind import Memory
from localmind.records import MemoryRecord, MemoryType, content_hash

CLOCK_START = 1_780_000_000.0


def _fill(memory: Memory, first: int, count: int) -> None:
    """Events ``first`` to ``count`` - 1, with texts of their own (and vectors of no meaning:
    nothing is searched here)."""
    store, rng = memory._store, np.random.default_rng(7)
    with store.db:
        for n in range(first, count):
            text = f"Went for run number {n} along the river"
            vector = rng.standard_normal(memory.embedder.dim).astype(np.float32)
            store.insert(
                MemoryRecord(
                    id=f"{n:026d}",
                    content=text,
                    type=MemoryType.EPISODIC,
                    namespace=memory.namespace,
                    created_at=CLOCK_START + n,
                    updated_at=CLOCK_START + n,
                    content_hash=content_hash(text),
                ),
                vector / np.linalg.norm(vector),
            )


def _steps(memory: Memory, hashed: str) -> int:
    """SQLite virtual-machine instructions the lookup of the active memories with the text
    hashed ``hashed`` runs (counted in batches of 10)."""
    counted = [0]

    def tick() -> bool:
        counted[0] += 1
        return False  # go on

    memory._store.db.set_progress_handler(tick, 10)
    try:
        memory._store.active_by_hash(memory.namespace, hashed)
    finally:
        memory._store.db.set_progress_handler(None)
    return counted[0] * 10


def test_finding_a_text_among_many_events_reads_only_that_text(
    open_memory: Callable[..., Memory],
) -> None:
    costs: list[int] = []
    for count in (30, 300):
        memory = open_memory()
        _fill(memory, 30 if costs else 0, count)
        store, wanted = memory._store, content_hash("Went for run number 3 along the river")
        found = store.active_by_hash(memory.namespace, wanted)
        assert [stored.record.content for stored in found] == [
            "Went for run number 3 along the river"
        ]
        costs.append(_steps(memory, wanted))
        memory.close()
    small, large = costs
    assert large <= 1.5 * small, f"{small} steps at 30 memories, {large} at 300"

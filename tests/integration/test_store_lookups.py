"""Lookups that run once per remembered item must not read the whole namespace: measured in
SQLite's own virtual-machine steps on a real encrypted store, a lookup by text costs about the
same in a store of 20 memories and of 200 (an import of events into a big store was
quadratic: each line walked every active memory, and a 100k build did not finish; each checked
remember did the same to learn whether its text had been replaced)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from localmind import Memory
from localmind.records import MemoryRecord, MemoryType, content_hash
from localmind.store import SqliteStore

CLOCK_START = 1_780_000_000.0
RUN_3 = "Went for run number 3 along the river"


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


def _steps(memory: Memory, lookup: Callable[[SqliteStore, str, str], object]) -> int:
    """SQLite virtual-machine instructions ``lookup(store, namespace, hash)`` runs for the text
    of run number 3 (counted in batches of 10)."""
    counted = [0]

    def tick() -> bool:
        counted[0] += 1
        return False  # go on

    store = memory._store
    store.db.set_progress_handler(tick, 10)
    try:
        lookup(store, memory.namespace, content_hash(RUN_3))
    finally:
        store.db.set_progress_handler(None)
    return counted[0] * 10


def _costs(
    open_memory: Callable[..., Memory], lookup: Callable[[SqliteStore, str, str], object]
) -> tuple[int, int]:
    """``_steps`` of ``lookup`` in a store of 20 events, then of 200."""
    costs: list[int] = []
    for count in (20, 200):
        memory = open_memory()
        _fill(memory, 20 if costs else 0, count)
        costs.append(_steps(memory, lookup))
        memory.close()
    return costs[0], costs[1]


def test_finding_a_text_among_many_events_reads_only_that_text(
    open_memory: Callable[..., Memory], tmp_path: Path
) -> None:
    memory = open_memory(path=tmp_path / "small.db")
    _fill(memory, 0, 5)
    found = memory._store.active_by_hash(memory.namespace, content_hash(RUN_3))
    assert [stored.record.content for stored in found] == [RUN_3]

    small, large = _costs(open_memory, SqliteStore.active_by_hash)
    assert large <= 1.5 * small, f"{small} steps at 20 memories, {large} at 200"


def test_whether_a_text_was_replaced_is_found_without_reading_the_namespace(
    open_memory: Callable[..., Memory], tmp_path: Path
) -> None:
    """remember() asks, for every text told, whether a memory replaced it (an earlier version,
    or a text a person set aside): in a big store this read every active memory."""
    memory = open_memory(path=tmp_path / "small.db")
    _fill(memory, 0, 5)
    kept = memory._store.active_by_hash(memory.namespace, content_hash(RUN_3))[0].record
    with memory._store.db:
        memory._store.set_aside(kept.id, content_hash("Went running"), "keep_old", CLOCK_START)
    replaced = memory._store.replaced_by(memory.namespace, content_hash("Went running"))
    assert replaced is not None and replaced.memory_id == kept.id
    memory.close()

    small, large = _costs(open_memory, SqliteStore.replaced_by)
    assert large <= 1.5 * small, f"{small} steps at 20 memories, {large} at 200"

"""Recall's caches of candidate rows and of their links (localmind.store.row_cache) on a real
encrypted store with the real model: what recall returns is what the store holds now, whoever
changed it (this process, another connection, a write rolled back), and the caller's own copy."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from localmind import Memory
from localmind.records import MemoryRecord
from localmind.store import LATER_VERSION
from tests.conftest import FakeClock

TEXTS = (
    "My favourite tea is green tea from Shizuoka",
    "Green tea tastes grassy; I drink tea every morning",
    "I play the cello every Sunday morning",
    "我每天早上喝绿茶",
)


def _recalled(memory: Memory, query: str = "green tea") -> MemoryRecord:
    """The best memory for ``query``, checked against a fresh read of its row."""
    record = memory.recall(query, 3, touch=False)[0].memory
    stored = memory._store.get(record.id)
    assert stored is not None
    assert record == stored.record  # every field as the store holds it now
    return record


@pytest.fixture
def cached(open_memory: Callable[..., Memory]) -> Memory:
    """A store whose process has recalled, so its candidates' rows are cached."""
    memory = open_memory()
    for text in TEXTS:
        memory.remember(text)
    _recalled(memory)
    return memory


def test_a_change_made_here_is_what_recall_returns(cached: Memory) -> None:
    tea = _recalled(cached)
    cached.update(tea.id, importance=0.95, metadata={"note": "from Shizuoka"})
    cached.feedback(tea.id, "confirm")

    again = _recalled(cached)
    assert (again.importance, again.metadata) == (0.95, {"note": "from Shizuoka"})
    assert again.confidence == pytest.approx(tea.confidence + 0.1)


def test_a_change_by_another_connection_is_what_recall_returns(
    cached: Memory, open_memory: Callable[..., Memory]
) -> None:
    tea = _recalled(cached)
    open_memory().update(tea.id, importance=0.05, content="My favourite tea is green sencha")

    again = _recalled(cached, "green sencha tea")
    assert (again.id, again.importance) == (tea.id, 0.05)
    assert again.content == "My favourite tea is green sencha"


def test_a_recall_noted_is_seen_by_the_next(cached: Memory) -> None:
    assert cached.recall("green tea", 3)[0].memory.last_accessed is None  # read, then noted

    assert _recalled(cached).last_accessed == cached._clock()


def test_a_change_rolled_back_is_not_returned(cached: Memory) -> None:
    tea = _recalled(cached)
    store = cached._store

    with pytest.raises(RuntimeError), store.db:
        stored = store.get(tea.id)
        assert stored is not None
        store.update_fields(stored, "test", importance=0.01)
        inside = {r.memory.id: r.memory for r in cached.recall("green tea", 3, touch=False)}
        assert inside[tea.id].importance == 0.01
        raise RuntimeError("the write fails after it")

    assert _recalled(cached).importance == tea.importance


def test_the_caller_gets_its_own_copy(cached: Memory) -> None:
    tea = _recalled(cached)
    told = tea.content
    tea.content = "changed by the caller"
    tea.metadata["mine"] = True

    again = _recalled(cached)
    assert (again.id, again.content, again.metadata) == (tea.id, told, {})


def test_a_forgotten_memory_s_text_leaves_the_cache(
    cached: Memory, open_memory: Callable[..., Memory]
) -> None:
    tea, cello = _recalled(cached), _recalled(cached, "cello on Sunday")
    _recalled(cached, "tea every morning")

    def held() -> set[str]:
        return {row.record.content for row in cached._store._row_cache._rows.values()}

    assert {tea.content, cello.content} <= held()
    cached.forget(tea.id)
    assert tea.content not in held()  # at once, in this process

    open_memory().forget(cello.id)
    cached.recall("tea", 3, touch=False)
    assert cello.content not in held()  # at the next recall, forgotten by another connection


def _a_day_apart(memory: Memory, clock: FakeClock) -> tuple[MemoryRecord, MemoryRecord]:
    """The two green-tea memories, told a day apart: (older, newer)."""
    old = memory.remember(TEXTS[0])
    clock.advance(days=1)
    return old, memory.remember(TEXTS[1])


def _superseded(memory: Memory) -> dict[str, str | None]:
    """Each of the best three for "green tea": the newer memory said to replace it, if any."""
    return {r.memory.id: r.breakdown.superseded_by for r in memory.recall("green tea", 3)}


def test_a_conflict_queued_elsewhere_or_settled_here_is_what_recall_ranks_by(
    open_memory: Callable[..., Memory], clock: FakeClock
) -> None:
    memory = open_memory()
    old, new = _a_day_apart(memory, clock)
    memory.remember(TEXTS[2])
    assert _superseded(memory)[old.id] is None  # none queued: the lookup is cached now

    other = open_memory()
    with other._store.db:
        queued = other._store.add_conflict(memory.namespace, old.id, new.id, 0.8, "test", clock())
    assert _superseded(memory)[old.id] == new.id  # another connection's commit

    memory.resolve_conflict(queued, "keep_both")
    assert _superseded(memory)[old.id] is None  # this connection's own change


def test_a_later_version_noted_here_is_what_recall_ranks_by(
    open_memory: Callable[..., Memory], clock: FakeClock
) -> None:
    memory = open_memory()
    old, new = _a_day_apart(memory, clock)
    query = "my favourite green tea from Shizuoka"
    before = [r.memory.id for r in memory.recall(query, 2, threshold=0)]
    assert before == [old.id, new.id]  # the older one first, and the lookup cached

    store = memory._store
    with store.db:
        store.record_event(memory.namespace, old.id, LATER_VERSION, {"later": new.id})
    after = memory.recall(query, 2, threshold=0)
    assert [r.memory.id for r in after] == [new.id, old.id]
    assert after[0].breakdown.moved_above == old.id

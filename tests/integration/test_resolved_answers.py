"""What resolving a change leaves behind answers right (issue 13, resolve7; review7's findings
2, 3 and 8): the kept memory is dated by the newer fact, the question asked in the old fact's
words still finds it, and settling with ``update`` settles the conflict. The real encrypted
store, the bundled USE-m3 embedder, the MCP server in process."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest

from localmind import Memory, NewMemory

BERLIN = datetime(2025, 1, 10, 9, tzinfo=UTC).timestamp()
LISBON = datetime(2026, 3, 20, 9, tzinfo=UTC).timestamp()

# (old fact, the move, the question asked in the old fact's words, a sister's home)
MOVES = [
    ("I live in Berlin", "I moved to Lisbon", "Where do I live?", "My sister Anna lives in Munich"),
    ("我住在柏林", "我搬到了里斯本", "我住在哪里？", "我姐姐安娜住在慕尼黑"),
]


def moved(memory: Memory, old: str, new: str, sister: str) -> int:
    """The old fact and the sister's home (2025-01-10), the move (2026-03-20): one conflict."""
    memory.remember_many(
        [
            NewMemory(old, created_at=BERLIN),
            NewMemory(sister, created_at=BERLIN + 60),
            NewMemory(new, created_at=LISBON),
        ]
    )
    [conflict] = memory.conflicts()
    assert (conflict.existing.content, conflict.candidate.content) == (old, new)
    return conflict.id


@pytest.mark.parametrize(("old", "new", "question", "sister"), MOVES, ids=["en", "zh"])
def test_take_new_dates_the_memory_by_the_move_and_the_question_still_finds_it(
    open_memory: Callable[..., Memory], old: str, new: str, question: str, sister: str
) -> None:
    memory = open_memory(llm=None)
    conflict = moved(memory, old, new, sister)

    kept = memory.resolve_conflict(conflict, "take-new")

    # dated by the move, not by the fact it replaced; the old text keeps its place in history
    assert (kept.content, kept.created_at) == (new, LISBON)
    assert memory.get(kept.id).created_at == LISBON
    [earlier] = memory.history(kept.id)
    assert earlier.content == old
    # the question asked as the old fact was worded finds the move first, shown as it is now
    found = memory.recall(question, 3)
    assert found, f"nothing found for {question!r}"
    assert found[0].memory.id == kept.id
    assert found[0].memory.content == new

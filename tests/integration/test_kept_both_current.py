"""A pair the person kept both of marks neither "may be outdated" (review11 K1): both hold, so
recall does not move the newer one above the older nor mark the older, and ``context`` gives
both as current. Real encrypted store, sqlite-vec, FTS5 and the bundled USE-m3 model; see
docs/design.md, "Kept both means both hold"."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from localmind import Memory
from tests.conftest import FakeClock

WEEKENDS = "我周末常去爸妈家吃饭，他们住在上海闵行。"
POTTERY = "开始周末去上陶艺课。"
QUESTION = "我周末一般做什么？"


@pytest.mark.slow
def test_a_pair_kept_both_marks_neither_outdated(
    open_memory: Callable[..., Memory], clock: FakeClock
) -> None:
    memory = open_memory()
    older = memory.remember(WEEKENDS, type="semantic")
    clock.advance(days=500)
    newer = memory.remember(POTTERY, type="semantic")
    clock.advance(seconds=60)
    [conflict] = memory.conflicts()  # "开始" announces a change: the person is asked
    assert "可能已过时：" in memory.context(QUESTION)  # until they answer, the newer one goes

    memory.resolve_conflict(conflict.id, "keep_both")

    found = {r.memory.id: r.breakdown for r in memory.recall(QUESTION, 5, threshold=0)}
    assert {older.id, newer.id} <= set(found)
    assert all(b.moved_above is None and b.superseded_by is None for b in found.values())
    told = memory.context(QUESTION)
    assert WEEKENDS in told and POTTERY in told
    assert "可能已过时：" not in told and "may be outdated:" not in told


@pytest.mark.slow
def test_a_keep_both_told_in_another_program_holds_at_its_next_recall(
    open_memory: Callable[..., Memory], clock: FakeClock
) -> None:
    """The app asked before the person answered elsewhere (the CLI, another laptop's sync): what
    it learnt then of kept pairs (none) must not outlive the answer."""
    cli = open_memory()
    older = cli.remember(WEEKENDS, type="semantic")
    clock.advance(days=500)
    newer = cli.remember(POTTERY, type="semantic")
    clock.advance(seconds=60)
    [conflict] = cli.conflicts()
    app = open_memory()  # another connection, as another process has
    for _ in range(3):  # past the searches answered through SQL: the in-memory indexes too
        assert "可能已过时：" in app.context(QUESTION)

    cli.resolve_conflict(conflict.id, "keep_both")

    found = {r.memory.id: r.breakdown for r in app.recall(QUESTION, 5, threshold=0)}
    assert {older.id, newer.id} <= set(found)
    assert all(b.moved_above is None and b.superseded_by is None for b in found.values())
    assert "可能已过时：" not in app.context(QUESTION)

"""`bench retrieval --without-links`: recall as if the review queue had linked no update (a set
whose updates remember() missed). Real encrypted store and the bundled model."""

from __future__ import annotations

from bench.recall_sets import unlinked
from localmind import Memory
from tests.conftest import FakeClock


def test_without_links_recall_sees_no_pending_conflict_and_links_come_back_after(
    memory: Memory, clock: FakeClock
) -> None:
    old = memory.remember("I live in Berlin.").id
    clock.advance(days=200)
    new = memory.remember("We moved to Lisbon; I live there now.").id
    assert [(c.existing.id, c.candidate.id) for c in memory.conflicts()] == [(old, new)]

    def superseded() -> dict[str, str | None]:
        return {r.memory.id: r.breakdown.superseded_by for r in memory.recall("Where do I live?")}

    assert superseded()[old] == new
    with unlinked():
        assert superseded()[old] is None
    assert superseded()[old] == new

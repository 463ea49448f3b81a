"""The review queue, round 11 (issue 13, queue11), through Memory with the bundled embedder:
what review10 found queued at low similarity is stored without a conflict, and a partner
change told with "dating" waits for review. See docs/design.md, "The review queue, round 11"."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from localmind import Memory
from localmind.lifecycle import Decision
from tests.integration.test_hygiene import told_after

pytestmark = pytest.mark.slow


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # found by the residence words far below the floor, and queued as "both set the
        # residence" (review10 F7: a door code, at 0.13)
        (
            "The user moved to Berlin last month and now lives in a flat in Kreuzberg.",
            "The heating bill of the user's new flat is 95 euros a month.",
        ),
        # 0.32: "started" read as a change of the Mandarin lessons
        (
            "I'm learning Mandarin with a tutor every Monday evening.",
            "I started learning the cello.",
        ),
    ],
    ids=["detail-of-the-flat", "cello"],
)
def test_a_detail_or_another_activity_is_stored_without_a_conflict(
    open_memory: Callable[..., Memory], old: str, new: str
) -> None:
    memory, _, outcome = told_after(open_memory, old, new)
    assert outcome.decision is Decision.INSERTED
    assert memory.conflicts() == []
    assert memory.count() == 2


def test_dating_someone_else_waits_for_review_as_the_partner(
    open_memory: Callable[..., Memory],
) -> None:
    memory, first, outcome = told_after(open_memory, "My boyfriend is Jonas.", "I'm dating Alex.")
    assert outcome.decision is Decision.QUEUED
    [conflict] = memory.conflicts()
    assert (conflict.existing.id, conflict.candidate.content) == (first.id, "I'm dating Alex.")
    assert "partner" in conflict.reason

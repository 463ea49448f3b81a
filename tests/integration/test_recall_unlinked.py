"""Current facts first even when nothing links the two versions: the review queue missed the
update when it was told (an import without judgement here), and recall judges the pair itself
(docs/design.md, "Recall, round 9"). Real encrypted store, sqlite-vec, FTS5 and the bundled
USE-m3 model."""

from __future__ import annotations

import pytest

from localmind import Memory, NewMemory
from tests.conftest import FakeClock
from tests.integration.test_recall_judgment import FILLER

DAY = 86_400.0
BERLIN = "I live in Berlin."
LISBON = "We moved to Lisbon; I live in Alfama now."
WHERE = "Where do I live?"


def _told_apart(memory: Memory, clock: FakeClock, earlier: str, later: str, kind: str) -> None:
    """``earlier`` told 200 days before ``later``, both stored as they are (no judgement, so
    no conflict and no later-version note links them), among unrelated memories."""
    now = clock()
    memory.remember_many(
        [NewMemory(content=text, created_at=now - 300 * DAY) for text in FILLER]
        + [
            NewMemory(content=earlier, type=kind, created_at=now - 250 * DAY),
            NewMemory(content=later, type=kind, created_at=now - 50 * DAY),
        ],
        check=False,
    )


def test_an_update_nothing_linked_still_ranks_above_what_it_replaced(
    memory: Memory, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    _told_apart(memory, clock, BERLIN, LISBON, "semantic")
    assert memory.conflicts() == []
    found = memory.recall(WHERE, 5)
    texts = [r.memory.content for r in found]
    assert texts.index(LISBON) < texts.index(BERLIN)
    [newer] = [r for r in found if r.memory.content == LISBON]
    assert newer.breakdown.moved_above == next(
        r.memory.id for r in found if r.memory.content == BERLIN
    )
    # it is the judgement at recall time that orders them: without it the older one leads
    monkeypatch.setattr("localmind.recall.UNLINKED_CANDIDATES", 0)
    texts = [r.memory.content for r in memory.recall(WHERE, 5)]
    assert texts.index(BERLIN) < texts.index(LISBON)


def test_a_secret_and_a_plain_memory_are_not_ordered_as_versions(
    memory: Memory, clock: FakeClock
) -> None:
    # as remember() never pairs them as a change: the secret one does not move up
    _told_apart(memory, clock, BERLIN, LISBON, "semantic")
    [lisbon] = [r for r in memory.list_memories() if r.content == LISBON]
    memory.mark_secret(lisbon.id, True)
    texts = [r.memory.content for r in memory.recall(WHERE, 5)]
    assert texts.index(BERLIN) < texts.index(LISBON)


def test_events_are_not_ordered_as_versions(memory: Memory, clock: FakeClock) -> None:
    # two occasions, each as true as the other: a later one replaces nothing
    _told_apart(memory, clock, BERLIN, LISBON, "episodic")
    texts = [r.memory.content for r in memory.recall(WHERE, 5)]
    assert texts.index(BERLIN) < texts.index(LISBON)


INTERVIEWS = "I did five rounds of interviews at Lumen Health; system design went best."
#: a change ("moved … now") to what the interview memory names, Lumen Health: suspicion's rules
#: take the two for versions of one thing, but it says nothing of the interviews
OFFICE = "Lumen Health moved its office to Fremont now."
ROUNDS = "How many rounds of interviews did I do at Lumen Health?"


def test_a_barely_relevant_newer_memory_does_not_jump_over_the_answer(
    memory: Memory, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    _told_apart(memory, clock, INTERVIEWS, OFFICE, "semantic")
    assert memory.recall(ROUNDS, 5)[0].memory.content == INTERVIEWS
    # the gate decides: with none, the office move (a fourteenth as relevant) jumps the answer
    monkeypatch.setattr("localmind.recall.UNLINKED_SHARE", 0.0)
    assert memory.recall(ROUNDS, 5)[0].memory.content == OFFICE

"""An assistant's note about "the user" is judged against the person's own first-person
memories (a new-user review: "The user moved to Lisbon" after "I live in Berlin" was neither
queued nor linked, so recall answered Berlin). Real encrypted store, sqlite-vec, FTS5 and the
bundled USE-m3 model, no LLM."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from localmind import Memory
from localmind.lifecycle import Decision
from tests.conftest import FakeClock
from tests.integration.test_recall_judgment import _filled


@pytest.mark.parametrize(
    ("own", "note"),
    [
        ("I live in Berlin", "The user moved to Lisbon"),
        ("I work at Siemens", "User now works at Google"),
        ("我住在柏林", "用户搬到了里斯本"),
    ],
)
def test_an_assistants_update_of_the_persons_fact_is_queued(
    open_memory: Callable[..., Memory], clock: FakeClock, own: str, note: str
) -> None:
    memory = open_memory()
    kept = memory.remember(own).id
    clock.advance(days=30)
    outcome = memory.remember_explained(note)
    assert outcome.decision is Decision.QUEUED
    [conflict] = memory.conflicts()
    assert (conflict.existing.id, conflict.candidate.content) == (kept, note)


def test_the_note_answers_a_question_in_the_first_person_above_the_old_fact(
    open_memory: Callable[..., Memory], clock: FakeClock
) -> None:
    memory = open_memory()
    memory.remember("I live in Berlin")
    memory.remember("My sister Anna lives in Munich")
    clock.advance(days=30)
    note = memory.remember("The user moved to Lisbon").id
    found = [r.memory.id for r in memory.recall("where do I live now?")]
    assert found and found[0] == note


def test_the_note_is_stored_as_told(open_memory: Callable[..., Memory]) -> None:
    memory = open_memory()
    stored = memory.remember("The user's sister lives in Munich")
    assert memory.get(stored.id).content == "The user's sister lives in Munich"


def test_an_assistants_question_about_the_user_finds_the_persons_own_memory(
    open_memory: Callable[..., Memory],
) -> None:
    """Asked about "the user", recall answers with what the person said about themselves, as
    for the question in their own words: without the first-person reading "What is the user's
    job?" met every memory under the relevance threshold and got nothing."""
    memory = open_memory()
    _filled(memory)
    job = next(r.id for r in memory.list_memories() if r.content.startswith("I work as"))
    assert job in [r.memory.id for r in memory.recall("What is the user's job?", 3)]
    assert job in [r.memory.id for r in memory.recall("What is my job?", 3)]

"""The review queue, round 7 (issue 13, queue13d), through Memory.remember on the real
encrypted store with the bundled USE-m3 embedder and no model: the kinds of change a new user
saw missed — a new value of a one-value attribute without a change word, a time or distance
that moved, a habit told as over, a brand acting on the user's plan — wait for review; a value
told with when it began, another holder's number, an event and numbered notes do not."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from localmind import Memory, NewMemory
from localmind.lifecycle import Decision
from tests.integration.test_hygiene import told_after


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("My manager is Tom.", "Since June my manager is Priya."),
        ("I get up at 6:30 on weekdays.", "I get up at 7:30 on weekdays."),
        ("I take the 8:10 train to work.", "I take the 8:40 train to work."),
        ("I run 5 km every morning.", "I run 10 km every morning."),
        ("I live in Berlin.", "I used to live in Berlin."),
        ("I pay 9.99 a month for Netflix.", "Netflix raised my subscription to 13.99 a month."),
    ],
    ids=["since-new-manager", "get-up", "train", "distance", "used-to", "brand"],
)
def test_a_change_told_without_a_change_word_waits_for_review(
    open_memory: Callable[..., Memory], old: str, new: str
) -> None:
    memory, _, outcome = told_after(open_memory, old, new)
    assert outcome.decision is Decision.QUEUED, outcome.reason
    [conflict] = memory.conflicts()
    assert (conflict.existing.content, conflict.candidate.content) == (old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I am vegetarian.", "I have been vegetarian since 2015."),
        ("I have 2 cats.", "My sister has 3 cats."),
        ("I run 5 km every morning.", "I ran 10 km on Sunday."),
        ("Routine note number 5", "Routine note number 6"),
    ],
    ids=["since-same-value", "another-holder", "an-event", "numbered-note"],
)
def test_no_replaced_value_of_the_same_holder_leaves_the_queue_empty(
    open_memory: Callable[..., Memory], old: str, new: str
) -> None:
    memory, _, outcome = told_after(open_memory, old, new)
    assert outcome.decision is not Decision.QUEUED, outcome.reason
    assert memory.conflicts() == []
    assert memory.count() == 2


def test_an_imported_notes_file_with_numbered_entries_queues_nothing(
    open_memory: Callable[..., Memory],
) -> None:
    memory = open_memory(llm=None)
    notes = [
        f"Routine note number {n}: check the {thing}."
        for n, thing in enumerate(
            ["plants", "bins", "post", "boiler", "smoke alarm", "bike tyres"], start=1
        )
    ]
    memory.remember_many([NewMemory(note) for note in notes])
    assert memory.count() == len(notes)
    assert memory.conflicts() == []


def test_a_short_update_finds_the_long_memory_that_sets_the_same_attribute(
    open_memory: Callable[..., Memory],
) -> None:
    # USE-m3 puts the two at cosine ~0.2, below any floor: the keyword index finds the older
    # memory by the attribute's words ("live", "flat") that the update's "moved" sets.
    memory = open_memory(llm=None)
    long = (
        "We live in Berlin, Kreuzberg, in a flat on the 3rd floor with a balcony, two cats "
        "and a view of the canal."
    )
    first = memory.remember(long)
    for other in ("I like green tea.", "My sister works as a nurse in Munich."):
        memory.remember(other)
    outcome = memory.remember_explained("Update: we moved to Lisbon in March 2026.")
    assert outcome.decision is Decision.QUEUED, outcome.reason
    [conflict] = memory.conflicts()
    assert conflict.existing.id == first.id
    assert conflict.similarity < 0.3  # found by its words, not by its vector


def test_a_change_to_another_attribute_is_not_queued_against_the_long_memory(
    open_memory: Callable[..., Memory],
) -> None:
    memory = open_memory(llm=None)
    memory.remember(
        "We live in Berlin, Kreuzberg, in a flat on the 3rd floor with a balcony, two cats "
        "and a view of the canal."
    )
    outcome = memory.remember_explained("My sister moved to Munich last year.")
    assert outcome.decision is not Decision.QUEUED, outcome.reason
    assert memory.conflicts() == []

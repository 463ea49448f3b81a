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
        ("My Spotify plan costs 10 € a month.", "Spotify raised my plan to 12 €."),
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

"""The review queue, round 15 (queue15), through Memory.remember on the real encrypted store
with the bundled USE-m3 embedder and no model: changes told in other words than the dev
sets' are queued against the memory they change, and their compatible twins are not
(docs/design.md, "The review queue, round 15")."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from localmind import Memory
from localmind.lifecycle import Decision


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a thing capitalised as the first word was read as someone: "about someone else"
        ("I take 50 mg of sertraline.", "Sertraline went up to 100 mg."),
        ("My yoga class is on Tuesdays.", "Yoga moved to Wednesdays."),
        # jieba's 课改 ("curriculum reform") hid the change 改到
        ("瑜伽课在每周二晚上。", "瑜伽课改到周三了。"),
        # a doctor's change to the user's dose, no change word before "lowered"
        ("I take 20 mg of citalopram every morning.", "Doctor lowered my citalopram to 10 mg."),
    ],
)
def test_a_change_told_in_other_words_is_queued_against_what_it_changes(
    open_memory: Callable[..., Memory], old: str, new: str
) -> None:
    memory = open_memory(llm=None)
    older = memory.remember(old)
    change = memory.remember_explained(new)
    assert change.decision is Decision.QUEUED, change.reason
    [conflict] = memory.conflicts()
    assert conflict.existing.id == older.id


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("We live in Kreuzberg.", "We moved the sofa into the living room."),
        ("I'm vegan.", "Tried a great vegan ramen place downtown."),
    ],
)
def test_a_compatible_twin_is_not_queued(
    open_memory: Callable[..., Memory], old: str, new: str
) -> None:
    memory = open_memory(llm=None)
    memory.remember(old)
    outcome = memory.remember_explained(new)
    assert outcome.decision is Decision.INSERTED, outcome.reason
    assert memory.conflicts() == []

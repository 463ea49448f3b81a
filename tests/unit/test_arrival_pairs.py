"""The pair a memory told on another laptop makes with one told here is judged the same way
on both laptops, whichever of the two arrived (sync10, review9 S2): pure logic, no store."""

from __future__ import annotations

import pytest

from localmind.arrivals import rewording_of
from localmind.config import LifecycleConfig
from localmind.records import MemoryRecord
from localmind.store import StoredMemory

CONFIG = LifecycleConfig()


def memory(rowid: int, memory_id: str, content: str) -> StoredMemory:
    return StoredMemory(rowid, MemoryRecord(id=memory_id, content=content))


PAIRS = [
    # (text told on laptop a, text told on laptop b, cosine, what both laptops do)
    ("I have a dog named Rex", "My dog is called Rex", 0.94, "merge"),
    ("I have a dog named Rex", "I have a dog named Rex, a beagle", 0.9, "merge"),
    ("I drink coffee every morning", "Every morning I have a cup of coffee", 0.91, "ask"),
    ("I like jazz", "Jazz is my favourite music", 0.84, "ask"),
    ("I have a dog named Rex", "I have a dog named Max", 0.9, None),  # another dog
    ("I live in Berlin", "I moved to Lisbon", 0.7, None),  # a change: queued as one elsewhere
    ("I drink coffee every morning", "Every morning I have a cup of coffee", 0.5, None),
]


@pytest.mark.parametrize(("told_a", "told_b", "similarity", "verdict"), PAIRS)
def test_both_laptops_reach_one_verdict_and_keep_one_id(
    told_a: str, told_b: str, similarity: float, verdict: str | None
) -> None:
    on_a = memory(1, "01A", told_a)
    on_b = memory(2, "01B", told_b)
    # laptop a: b's memory arrives; laptop b: a's memory arrives
    heard_on_a = rewording_of(CONFIG, on_b, [(on_a, similarity)])
    heard_on_b = rewording_of(CONFIG, on_a, [(on_b, similarity)])
    for heard in (heard_on_a, heard_on_b):
        if verdict is None:
            assert heard is None
            continue
        assert heard is not None
        assert ("merge" if heard.sameness.same else "ask") == verdict
    if heard_on_a is not None and heard_on_b is not None:
        assert heard_on_a.kept.record.id == heard_on_b.kept.record.id
        assert heard_on_a.sameness == heard_on_b.sameness


@pytest.mark.parametrize("short_id", ["01A", "01B"])
def test_the_fuller_telling_is_kept_whichever_id_it_has(short_id: str) -> None:
    fuller_id = "01B" if short_id == "01A" else "01A"
    short = memory(1, short_id, "I live in a flat.")
    fuller = memory(2, fuller_id, "I live in a flat with a balcony.")
    for arrived, here in ((fuller, short), (short, fuller)):
        # (at 0.7 the words decide; closer, a one-word addition is a rewording, same on both)
        heard = rewording_of(CONFIG, arrived, [(here, 0.7)])
        assert heard is not None and heard.sameness.same
        assert heard.kept.record.id == fuller_id
        assert heard.dropped.record.id == short_id

"""The fold of a memory's events (``localmind.replica._fold``) and the verdicts in them:
a confidence verdict lands only on the text it judged (sync9, review9 L1b)."""

from __future__ import annotations

import json

from localmind.records import content_hash
from localmind.replica import _fold


def event(op: str, stamp: int, **payload: object) -> tuple[str, str, str, str | None, float]:
    return (op, json.dumps(payload), f"{stamp:013d}.000000.D", None, float(stamp))


ADD = event("add", 1, content="I like jazz", confidence=0.8)


def test_a_verdict_on_the_text_it_judged_lands() -> None:
    deny = event("update", 3, confidence=0.6, judged=content_hash("I like jazz"))
    state = _fold([ADD, deny], content_hash)
    assert state is not None and state.fields["confidence"] == 0.6


def test_a_verdict_on_a_text_corrected_before_it_in_stamp_order_does_not_land() -> None:
    correct = event("update", 2, content="I like jazz, especially Coltrane", confidence=0.9)
    deny = event("update", 3, confidence=0.6, judged=content_hash("I like jazz"))
    state = _fold([ADD, correct, deny], content_hash)
    assert state is not None
    assert (state.content, state.fields["confidence"]) == ("I like jazz, especially Coltrane", 0.9)


def test_a_verdict_without_the_judged_text_lands_as_before() -> None:
    correct = event("update", 2, content="I like jazz, especially Coltrane", confidence=0.9)
    older_device = event("update", 3, confidence=0.6)  # written by a build without the key
    state = _fold([ADD, correct, older_device], content_hash)
    assert state is not None and state.fields["confidence"] == 0.6


def test_another_devices_capacity_eviction_does_not_archive_here() -> None:
    """sync10b F30: capacity is each laptop's own; the laptop that evicted keeps it archived."""
    evicted = (
        "update",
        json.dumps({"status": "expired", "updated_at": 5.0}),
        "0000000000005.000000.A",
        "evicted: over capacity 8, value 0.800",
        5.0,
    )
    on_b = _fold([ADD, evicted], content_hash, "B")
    on_a = _fold([ADD, evicted], content_hash, "A")
    assert on_b is not None and on_b.fields.get("status", "active") == "active"
    assert on_a is not None and on_a.fields["status"] == "expired"

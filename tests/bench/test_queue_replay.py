"""bench/queue_replay.py decides as Lifecycle.propose does without a model, and names the rule
that stops each missed update (it is how the queue's rules were fitted on every dev set)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import queue_replay


def test_it_queues_an_update_merges_a_repeat_and_inserts_the_rest() -> None:
    near = [("a", "I live in Berlin", 0.6)]
    assert queue_replay.decide("We moved to Lisbon", near, set()).decision == "queued"
    assert queue_replay.decide("I live in Berlin", near, set()).decision == "merged"
    assert queue_replay.decide("My sister lives in Munich", near, set()).decision == "inserted"


def test_a_change_already_waiting_is_not_queued_twice() -> None:
    near = [("old", "My manager is Tom", 0.6), ("change", "My manager is now Priya", 0.8)]
    told_again = "My manager is now Priya. She started on Monday."
    assert queue_replay.decide(told_again, near, set()).decision == "queued"
    assert queue_replay.decide(told_again, near, {("old", "change")}).decision == "inserted"


def _item(memory_id: str, text: str, near: list[list[object]], updates: str | None = None) -> dict:
    return {
        "id": memory_id,
        "lang": "en",
        "text": text,
        "updates": updates,
        "restates": None,
        "near": near,
    }


def test_the_replay_scores_a_set_and_names_why_an_update_was_missed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    items = [
        _item("m1", "I live in Berlin", []),
        _item("m2", "We moved to Lisbon", [["m1", 0.6]], updates="m1"),
        _item("m3", "My knee hurts", []),
        _item("m4", "I started pottery classes", [], updates="m3"),
    ]
    dump = tmp_path / "dump.json"
    dump.write_text(json.dumps({"pairs": {}, "personal": {"tiny": items}}), encoding="utf-8")
    assert queue_replay.main(["replay", str(dump), "--misses"]) == 0
    out = capsys.readouterr().out
    assert "MISS tiny m4 (cosine below 0.35, –)" in out
    assert "| tiny | 0 | – | 1/2 (50 %) | 0.50 | 0/2 (0 %) | – |" in out

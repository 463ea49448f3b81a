"""The lines of an export (format 2) as import reads them: memories, and what they wait for;
a format 1 line still reads, and a damaged carried line is a numbered bad line."""

from __future__ import annotations

import json

import pytest

from localmind.importing import BadLine, read_lines
from localmind.transfer import (
    EXPORT_FORMAT,
    CarriedConflict,
    CarriedNote,
    Restorable,
    carried_document,
)

MEMORY = {
    "id": "01JB0000000000000000000000",
    "content": "I live in Berlin",
    "type": "semantic",
    "created_at": 1_700_000_000.0,
    "updated_at": 1_700_000_000.0,
}
CONFLICT = CarriedConflict(
    "01JB0000000000000000000000",
    "01JB0000000000000000000001",
    0.47,
    "both set the residence",
    1_700_000_100.0,
)
NOTE = CarriedNote("01JB0000000000000000000000", "01JB0000000000000000000001", 0.4731)


def _read(*documents: dict[str, object]) -> list[object]:
    lines = [json.dumps(document) + "\n" for document in documents]
    return [item for _, item in read_lines(lines, jsonl=True, default_type="semantic")]


def test_what_an_export_carries_reads_back_as_it_was_written() -> None:
    assert _read(carried_document(CONFLICT), carried_document(NOTE)) == [CONFLICT, NOTE]


def test_a_memory_of_a_format_2_export_carries_its_queue_and_one_of_format_1_does_not() -> None:
    new, old = _read(
        {**MEMORY, "format": EXPORT_FORMAT}, {**MEMORY, "format": "localmind-export/1"}
    )
    assert isinstance(new, Restorable) and new.carries_queue
    assert isinstance(old, Restorable) and not old.carries_queue


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"similarity": "high"}, "'similarity' must be a number from -1 to 1"),
        ({"similarity": float("nan")}, "'similarity' must be a number from -1 to 1"),
        ({"existing_id": ""}, "'existing_id' must be a non-empty id"),
        ({"queued_at": None}, "'queued_at' is missing"),
    ],
)
def test_a_damaged_pending_conflict_line_is_a_bad_line_saying_why(
    change: dict[str, object], said: str
) -> None:
    document = carried_document(CONFLICT)
    document["pending_conflict"] = {**document["pending_conflict"], **change}
    document["pending_conflict"].pop("queued_at_iso")
    (item,) = _read(document)
    assert isinstance(item, BadLine) and said in item.reason

"""A generated notes file (what a person load-testing localmind, or a diary export, imports):
numbered entries that fill the same template again are other items, not changes of each
other (issue 13; docs/design.md, "The review queue, round 9"). Read as `localmind import`
reads a text file, added through Memory.remember_many on the real encrypted store with the
bundled USE-m3 embedder and no model."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest

from bench.numbered_notes import generated_notes, notes_with_ids
from localmind import Memory, NewMemory
from localmind.importing import read_lines
from localmind.lifecycle import Decision


def imported(memory: Memory, lines: list[str]) -> list[Decision]:
    items = [
        item
        for _, item in read_lines(
            io.StringIO("\n".join(lines)), jsonl=False, default_type="long_term"
        )
        if isinstance(item, NewMemory)
    ]
    assert len(items) == len(lines)
    return memory.remember_many_explained(items).decisions


def test_a_generated_notes_file_fills_no_queue(open_memory: Callable[..., Memory]) -> None:
    memory = open_memory(llm=None)
    lines = generated_notes(80)
    decisions = imported(memory, lines)
    # (most of these 80 lines were queued before: each entry "changed" an earlier one)
    assert memory.conflicts() == []
    assert Decision.QUEUED not in decisions
    assert Decision.MERGED not in decisions  # other entries, never one
    assert memory.count() == len(set(lines))


@pytest.mark.slow
def test_entries_whose_heading_holds_an_id_fill_no_queue(
    open_memory: Callable[..., Memory],
) -> None:
    # "cli0 item 17: note about topic 4 and thing 17", "batch 2 item 17: …", 批次2条目17：…
    # from three writers: the 1,000-line file queued 992 before queue10
    memory = open_memory(llm=None)
    lines = notes_with_ids(40)
    decisions = imported(memory, lines)
    assert memory.conflicts() == []
    assert Decision.QUEUED not in decisions
    assert Decision.MERGED not in decisions
    assert memory.count() == len(set(lines))


def test_a_real_change_told_in_numbered_entries_is_still_queued(
    open_memory: Callable[..., Memory],
) -> None:
    memory = open_memory(llm=None)
    lines = [
        "Diary 3: I live in Berlin with my partner",
        *generated_notes(24, seed=5)[4:],
        "Diary 41: we moved to Lisbon last week",
        "note 42: my rent is 1400 euros",
        "note 43: my rent is 1550 euros",
    ]
    decisions = imported(memory, lines)
    queued = {
        (conflict.existing.content, conflict.candidate.content) for conflict in memory.conflicts()
    }
    assert queued == {
        ("Diary 3: I live in Berlin with my partner", "Diary 41: we moved to Lisbon last week"),
        ("note 42: my rent is 1400 euros", "note 43: my rent is 1550 euros"),
    }
    assert decisions.count(Decision.QUEUED) == 2

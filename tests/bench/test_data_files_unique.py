"""No labelled file under tests/data holds the same example twice (polish15 item 7): a pair or a
text counted twice weighs double in what the benches and tests measure on it, and a copy with
another label would contradict itself."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[1] / "data"
LABELLED = [*sorted(DATA.glob("*pairs*.jsonl")), DATA / "secret_texts.jsonl"]


def _example(row: dict[str, object]) -> tuple[object, ...]:
    """What an example is, whatever its label: the pair's two texts, or the text."""
    if "text" in row:
        return (row["text"],)
    if "old" in row:
        return (row["old"], row["new"])
    return (row["a"], row["b"])


@pytest.mark.parametrize("path", LABELLED, ids=lambda p: p.name)
def test_no_example_is_there_twice(path: Path) -> None:
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    twice = [line for line, count in Counter(lines).items() if count > 1]
    assert not twice, f"{path.name} holds these lines more than once: {twice}"
    examples = Counter(_example(json.loads(line)) for line in lines)
    again = [example for example, count in examples.items() if count > 1]
    assert not again, f"{path.name} holds these examples more than once: {again}"


def test_every_labelled_file_is_checked() -> None:
    names = {path.name for path in LABELLED}
    assert {"memory_pairs.jsonl", "hygiene_pairs.jsonl", "secret_texts.jsonl"} <= names
    assert {"queue_pairs.jsonl", "hygiene_pairs_cross.jsonl"} <= names

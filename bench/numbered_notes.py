"""A generated notes file through the review queue: ``python -m bench.numbered_notes [--lines N]``.

A person load-testing localmind (or importing a diary export) adds lines that fill the same
template again: "Diary 17: … topic 4", "note 18: about …, number 412", "shared fact number 3",
"Entry 19: I practised … for 41 minutes", "Test memory 20 about topic 6", "[21] about …, score
4", "22. Walked 5 km", "Memory 23: I like topic 2". Each is another item, not a change of the
one before; none should wait for review. ``--ids``: headings with an id before the number
instead ("cli0 item 17: note about topic 4 and thing 17", "batch 2 item 17: …", 批次2条目17：…,
as a load test's writers label their lines). Adds them as ``localmind import`` does
(``Memory.remember_many``, no model, no capacity limit) into a fresh encrypted store and prints
what was decided, how many conflicts are pending and the CPU time. The lines hold no change of
the user's, so every queued line is a false one.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from collections import Counter
from pathlib import Path

from bench.perf import settings_without_capacity
from bench.stores import BENCH_KDF
from localmind import Memory, NewMemory

TOPICS = ["cooking", "gardening", "the weather", "work", "music", "travel", "books"]
DOINGS = [
    "went for a walk",
    "read a chapter",
    "cooked dinner",
    "wrote some code",
    "called a friend",
]


def generated_notes(count: int, seed: int = 13) -> list[str]:
    """``count`` lines of eight numbered shapes, in turn (seeded: the same lines every run)."""
    rng = random.Random(seed)
    lines = []
    for n in range(count):
        topic, amount = rng.choice(TOPICS), rng.randrange(10, 1000)
        lines.append(
            [
                f"Diary {n}: {rng.choice(DOINGS)} and thought about topic {n % 9}",
                f"note {n}: about {topic}, number {amount}",
                f"shared fact number {n // 8}",
                f"Entry {n}: I practised {topic} for {amount % 80 + 10} minutes",
                f"Test memory {n} about topic {n % 7}",
                f"[{n}] about {topic}, score {amount % 10}",
                f"{n}. Walked {amount % 12 + 1} km",
                f"Memory {n}: I like topic {amount % 5}",
            ][n % 8]
        )
    return lines


def notes_with_ids(count: int, seed: int = 13) -> list[str]:
    """``count`` lines whose heading holds an id before the entry's number (four shapes, one in
    Chinese, in turn; seeded). The entry's number is told again as a value ("thing 17")."""
    rng = random.Random(seed)
    lines = []
    for n in range(count):
        topic, writer = rng.choice(TOPICS), n % 3
        lines.append(
            [
                f"cli{writer} item {n}: note about topic {n % 9} and thing {n}",
                f"batch {writer} item {n}: a note about {topic}, number {rng.randrange(10, 1000)}",
                f"writer-{writer} entry {n}: {rng.choice(DOINGS)}, score {n % 10}",
                f"批次{writer}条目{n}：关于话题{n % 9}的笔记，编号{n}",
            ][n % 4]
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.numbered_notes", description=__doc__)
    parser.add_argument("--lines", type=int, default=2500, help="how many lines (2500)")
    parser.add_argument(
        "--ids", action="store_true", help="headings with an id before the number (cli0 item 17:)"
    )
    args = parser.parse_args()
    lines = notes_with_ids(args.lines) if args.ids else generated_notes(args.lines)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "notes.db"
        settings = settings_without_capacity()
        with Memory.open(path, "numbered-notes", kdf=BENCH_KDF, settings=settings) as memory:
            started = time.process_time()
            batch = memory.remember_many_explained([NewMemory(line) for line in lines])
            cpu = time.process_time() - started
            decided = Counter(decision.value for decision in batch.decisions)
            pending = memory.pending_conflicts()
    print(f"{len(lines)} lines: {dict(sorted(decided.items()))}")
    print(f"pending conflicts: {pending}; CPU {cpu:.1f} s")


if __name__ == "__main__":
    main()

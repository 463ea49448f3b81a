"""A generated notes file through the review queue: ``python -m bench.numbered_notes [--lines N]``.

A person load-testing localmind (or importing a diary export) adds lines that fill the same
template again: "Diary 17: … topic 4", "note 18: about …, number 412", "shared fact number 3",
"Entry 19: I practised … for 41 minutes", "Test memory 20 about topic 6", "[21] about …, score
4", "22. Walked 5 km", "Memory 23: I like topic 2". Each is another item, not a change of the
one before; none should wait for review. Adds them as ``localmind import`` does
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


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.numbered_notes", description=__doc__)
    parser.add_argument("--lines", type=int, default=2500, help="how many lines (2500)")
    args = parser.parse_args()
    lines = generated_notes(args.lines)
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

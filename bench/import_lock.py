"""How long an import holds the store's write lock: ``python -m bench import-lock``.

The dev personal set ``personal2`` (another person, en + zh; never a held-out set) is imported
onto a store holding ``personal``, in one ``all_or_nothing`` as ``localmind import`` does,
``--rounds`` times each way, alternately (on a shared machine they meet the same load): as
before import9 (embedding and reading each text under the lock), prepared
(``Memory.prepare`` first, outside the lock; judged under it) and decided (import11:
``Memory.decide`` too, outside the lock; only the writes under it, ``apply_decided``).
``--synthetic N``: N generated facts (:mod:`bench.synthetic`, most queued: the worst case for
judging) onto a store of one memory, instead of the dev sets. Each round starts with
statement.read's cache empty and the embedding cache holding only the stored texts, as a new
``localmind import`` process would. Reported per way: wall and CPU seconds with the lock held
(the best round), seconds preparing (and deciding), and what was decided (the same each way).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections import Counter
from pathlib import Path

from bench import synthetic
from bench.perf import settings_without_capacity
from bench.stores import BENCH_KDF
from localmind import Memory, NewMemory
from localmind.statement import read

DATA = Path(__file__).resolve().parent / "data"


def _items(name: str) -> list[NewMemory]:
    with open(DATA / name / "memories.jsonl", encoding="utf-8") as lines:
        return [NewMemory(json.loads(line)["text"]) for line in lines if line.strip()]


#: The ways an import is run, in the order reported.
WAYS = ("as before", "prepared first", "decided first")


def _sources(synthetic_lines: int) -> tuple[list[NewMemory], list[NewMemory]]:
    """What the store holds first and what is imported onto it."""
    if synthetic_lines:
        made = synthetic.memories(synthetic_lines)
        return [NewMemory("I live in Berlin")], [NewMemory(m.content, "semantic") for m in made]
    return _items("personal"), _items("personal2")


def _round(directory: Path, number: int, way: str, synthetic_lines: int) -> dict[str, float | str]:
    path = directory / f"{way.replace(' ', '-')}-{number}.db"
    options = {"settings": settings_without_capacity(), "kdf": BENCH_KDF, "llm": None}
    stored, items = _sources(synthetic_lines)
    with Memory.open(path, "import-lock", maintain=False, **options) as memory:
        memory.remember_many(stored)
    read.cache_clear()
    with Memory.open(path, "import-lock", maintain=False, **options) as memory:
        batches = [items[at : at + 1024] for at in range(0, len(items), 1024)]  # as the CLI
        started = time.perf_counter()
        if way != "as before":
            for part in batches:
                memory.prepare(part)
        decided = memory.decide(batches) if way == "decided first" else None
        preparing = time.perf_counter() - started
        wall, cpu = time.perf_counter(), time.process_time()
        with memory.all_or_nothing():
            if decided is not None:
                written = memory.apply_decided(decided)
            else:
                written = [memory.remember_many_explained(part) for part in batches]
        cpu = time.process_time() - cpu
        wall = time.perf_counter() - wall
    decided_counts = Counter(str(d) for batch in written for d in batch.decisions)
    return {
        "locked_wall": wall,
        "locked_cpu": cpu,
        "preparing": preparing,
        "decided": ", ".join(f"{k} {v}" for k, v in sorted(decided_counts.items())),
    }


def run(args: argparse.Namespace) -> int:
    results: dict[str, list[dict[str, float | str]]] = {way: [] for way in WAYS}
    synthetic_lines = args.synthetic
    with tempfile.TemporaryDirectory(prefix="bench-import-lock-") as folder:
        # (loads the model, jieba and the dictionaries once, before any round)
        _round(Path(folder), -1, "prepared first", min(synthetic_lines, 64))
        for number in range(args.rounds):
            for way in WAYS:
                results[way].append(_round(Path(folder), number, way, synthetic_lines))
    for way, rounds in results.items():
        best = min(rounds, key=lambda r: float(r["locked_cpu"]))
        print(
            f"{way:<14}: lock held "
            f"{float(best['locked_wall']):.2f} s wall, {float(best['locked_cpu']):.2f} s CPU; "
            f"preparing {float(best['preparing']):.2f} s; {best['decided']}"
        )
    return 0

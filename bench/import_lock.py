"""How long an import holds the store's write lock: ``python -m bench import-lock``.

The dev personal set ``personal2`` (another person, en + zh; never a held-out set) is imported
onto a store holding ``personal``, in one ``all_or_nothing`` as ``localmind import`` does,
``--rounds`` times each way, alternately (on a shared machine both meet the same load): as
before import9 (embedding and reading each text under the lock) and prepared
(``Memory.prepare`` first, outside the lock). Each round starts with statement.read's cache
empty and the embedding cache holding only the stored texts, as a new ``localmind import``
process would. Reported per way: wall and CPU seconds with the lock held (the best round),
seconds preparing, and what was decided (the same both ways).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections import Counter
from pathlib import Path

from bench.perf import settings_without_capacity
from bench.stores import BENCH_KDF
from localmind import Memory, NewMemory
from localmind.statement import read

DATA = Path(__file__).resolve().parent / "data"


def _items(name: str) -> list[NewMemory]:
    with open(DATA / name / "memories.jsonl", encoding="utf-8") as lines:
        return [NewMemory(json.loads(line)["text"]) for line in lines if line.strip()]


def _round(directory: Path, number: int, prepared: bool) -> dict[str, float | str]:
    path = directory / f"{'prepared' if prepared else 'plain'}-{number}.db"
    options = {"settings": settings_without_capacity(), "kdf": BENCH_KDF, "llm": None}
    with Memory.open(path, "import-lock", maintain=False, **options) as memory:
        memory.remember_many(_items("personal"))
    read.cache_clear()
    with Memory.open(path, "import-lock", maintain=False, **options) as memory:
        items = _items("personal2")
        started = time.perf_counter()
        if prepared:
            memory.prepare(items)
        preparing = time.perf_counter() - started
        wall, cpu = time.perf_counter(), time.process_time()
        with memory.all_or_nothing():
            batch = memory.remember_many_explained(items)
        cpu = time.process_time() - cpu
        wall = time.perf_counter() - wall
    decided = Counter(str(decision) for decision in batch.decisions)
    return {
        "locked_wall": wall,
        "locked_cpu": cpu,
        "preparing": preparing,
        "decided": ", ".join(f"{k} {v}" for k, v in sorted(decided.items())),
    }


def run(args: argparse.Namespace) -> int:
    results: dict[bool, list[dict[str, float | str]]] = {False: [], True: []}
    with tempfile.TemporaryDirectory(prefix="bench-import-lock-") as folder:
        # (loads the model, jieba and the dictionaries once, before any round)
        _round(Path(folder), -1, prepared=True)
        for number in range(args.rounds):
            for prepared in (False, True):
                results[prepared].append(_round(Path(folder), number, prepared))
    for prepared, rounds in results.items():
        best = min(rounds, key=lambda r: float(r["locked_cpu"]))
        print(
            f"{'prepared first' if prepared else 'as before    '}: lock held "
            f"{float(best['locked_wall']):.2f} s wall, {float(best['locked_cpu']):.2f} s CPU; "
            f"preparing {float(best['preparing']):.2f} s; {best['decided']}"
        )
    return 0

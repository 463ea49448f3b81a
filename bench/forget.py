"""What a final forget costs: ``python -m bench.forget [--memories 10000]``.

A real encrypted store of synthetic memories; vectors come from a hashing embedder (a forget's
cost does not depend on the model, and building 10k memories with it takes seconds). Times 20
forgets, with a write before every other one as in use, and the two steps that make a forget
final: the keyword index's ``optimize`` and the write-ahead log's truncating checkpoint.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from bench import synthetic
from localmind import KdfParams, Memory, NewMemory, Settings
from localmind.embedders.base import Vectors, normalise
from localmind.store import SqliteStore

DIM = 512


class HashingEmbedder:
    """Deterministic unit vectors from a text's hash: no model, same shapes as USE."""

    identity = f"hashing:{DIM}"
    dim = DIM

    def embed_documents(self, texts: list[str]) -> Vectors:
        if not texts:
            return np.zeros((0, DIM), np.float32)
        rows = [
            np.frombuffer(hashlib.sha512(t.encode()).digest() * 8, np.uint8).astype(np.float32)
            for t in texts
        ]
        return normalise(np.stack(rows) - 127.5)

    def embed_query(self, texts: list[str]) -> Vectors:
        return self.embed_documents(texts)


def _timed(times: list[float], step: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any) -> Any:
        started = time.perf_counter()
        try:
            return step(*args)
        finally:
            times.append((time.perf_counter() - started) * 1000)

    return wrapper


def run(memories: int, forgets: int = 20) -> dict[str, list[float]]:
    settings = Settings()
    settings = dataclasses.replace(
        settings, governance=dataclasses.replace(settings.governance, capacity=None)
    )
    times: dict[str, list[float]] = {"forget": [], "optimize": [], "checkpoint": []}
    optimize, checkpoint = SqliteStore.purge_forgotten, SqliteStore.truncate_log
    with tempfile.TemporaryDirectory() as folder:
        memory = Memory.open(
            Path(folder) / "forget.db",
            "bench forget passphrase",
            kdf=KdfParams(memory_cost_kib=8192, iterations=1, lanes=1),
            embedder=HashingEmbedder(),
            settings=settings,
        )
        try:
            memory.remember_many(
                [NewMemory(m.content) for m in synthetic.memories(memories)], check=False
            )
            SqliteStore.purge_forgotten = _timed(times["optimize"], optimize)  # type: ignore[method-assign]
            SqliteStore.truncate_log = _timed(times["checkpoint"], checkpoint)  # type: ignore[method-assign]
            for number, record in enumerate(memory.list_memories(limit=forgets)):
                if number % 2 == 0:
                    memory.remember(f"a new memory, number {number}, about something else")
                _timed(times["forget"], memory.forget)(record.id)
        finally:
            SqliteStore.purge_forgotten = optimize  # type: ignore[method-assign]
            SqliteStore.truncate_log = checkpoint  # type: ignore[method-assign]
            memory.close()
    return times


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.forget", description=__doc__)
    parser.add_argument("--memories", type=int, default=10_000)
    args = parser.parse_args(argv)
    for step, values in run(args.memories).items():
        print(f"{step:<11} median {statistics.median(values):6.1f} ms   max {max(values):6.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

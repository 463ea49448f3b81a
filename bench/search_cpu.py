"""``python -m bench.search_cpu STORE``: the search part of recall, in CPU time, at 10k memories.

Builds STORE (if absent) from 10,000 synthetic memories of ``bench.synthetic`` through
``remember_many``, asks 150 synthetic queries once to cache their vectors, then times 3 rounds
of ``recall(query, 10)`` by the calling thread's CPU time (``time.thread_time``), which a busy
shared machine disturbs far less than the wall clock. To compare two versions, run each from
its own checkout on its own STORE, alternately, several times (docs/benchmarks.md).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

os.environ.setdefault("LOCALMIND_UNSAFE_TEST_KDF", "1")  # a throwaway store, as the tests do

from bench import synthetic
from bench.perf import CachedEmbedder, _open_localmind, _use_embedder

SIZE, QUERIES, ROUNDS = 10_000, 150, 3


def main(path: Path) -> float:
    from localmind import NewMemory

    embedder = CachedEmbedder(_use_embedder())
    embedder.live = True
    create = not path.exists()
    memory = _open_localmind(path, True, embedder, create=create)
    if create:
        memory.remember_many(
            [
                NewMemory(m.content, m.type, m.importance, None, m.created_at)
                for m in synthetic.memories(SIZE)
            ]
        )
    queries = [q.text for q in synthetic.queries(QUERIES, SIZE)]
    for query in queries:  # query vectors cached: what is left is the search
        memory.recall(query, 10, touch=False)
    started = time.thread_time()
    for _ in range(ROUNDS):
        for query in queries:
            memory.recall(query, 10, touch=False)
    memory.close()
    return (time.thread_time() - started) * 1000 / (ROUNDS * len(queries))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: python -m bench.search_cpu STORE.db")
    print(f"search CPU per recall: {main(Path(sys.argv[1])):.2f} ms")

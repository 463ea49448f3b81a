"""``python -m bench.search_cpu STORE``: the search part of recall, in CPU time, at 10k memories.

Builds STORE (if absent) from 10,000 synthetic memories of ``bench.synthetic`` through
``remember_many``, asks 150 synthetic queries once to cache their vectors, then times 3 rounds
of ``recall(query, 10)`` by the calling thread's CPU time (``time.thread_time``), which a busy
shared machine disturbs far less than the wall clock. To compare two versions, run each from
its own checkout on its own STORE, alternately, several times (docs/benchmarks.md).

``--sessions N``: the memories are told in conversations of N imported at once (each
conversation's memories share one moment), so that every recall finds memories told together
(``recall.CONTEXT_TURNS``): the dearest case for the context term.
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


def main(path: Path, sessions: int = 0) -> float:
    from localmind import NewMemory

    embedder = CachedEmbedder(_use_embedder())
    embedder.live = True
    create = not path.exists()
    memory = _open_localmind(path, True, embedder, create=create)
    if create:
        made = list(synthetic.memories(SIZE))
        memory.remember_many(
            [
                NewMemory(
                    m.content,
                    m.type,
                    m.importance,
                    None,
                    made[n - n % sessions].created_at if sessions else m.created_at,
                )
                for n, m in enumerate(made)
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
    args = sys.argv[1:]
    sessions = 0
    if len(args) == 3 and args[1] == "--sessions":
        sessions = int(args[2])
    elif len(args) != 1:
        raise SystemExit("usage: python -m bench.search_cpu STORE.db [--sessions N]")
    print(f"search CPU per recall: {main(Path(args[0]), sessions):.2f} ms")

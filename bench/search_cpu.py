"""``python -m bench.search_cpu STORE``: the search part of recall, in CPU time.

Builds STORE (if absent) from ``--size`` synthetic memories of ``bench.synthetic`` through
``remember_many`` — with the vectors ``bench perf`` cached in ``--cache-dir`` when it holds them
(seed 7, 100,640 texts: the 100k run's), else embedding them — asks 150 synthetic queries once to
cache their vectors (and build the in-memory index), then times 3 rounds of ``recall(query,
--limit)`` by the calling thread's CPU time (``time.thread_time``), which a busy shared machine
disturbs far less than the wall clock. ``--touch`` notes the results as recalled, as in use (a
write per recall); ``--knn`` times the vector search alone. ``--dump FILE`` writes every query's
results (ids, score breakdowns) and its 50 nearest (rowid, distance) at a fixed clock instead:
two versions that print the same file return the same results. To compare two versions, run
each from its own checkout on a copy of the same STORE, alternately, several times
(docs/benchmarks.md).

``--phases``: also the CPU time of each phase of recall (the store's vector and keyword
searches, reading candidate rows and vectors, coverage, newer-first), by thread-CPU timers
around those methods, in ms per recall (``get_by_rowids`` within ``recall_rows``: the rows it
had to read).

``--sessions N``: the memories are told in conversations of N imported at once (each
conversation's memories share one moment), so that every recall finds memories told together
(``recall.CONTEXT_TURNS``): the dearest case for the context term.
"""

from __future__ import annotations

import argparse
import collections
import functools
import json
import os
import statistics
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

os.environ.setdefault("LOCALMIND_UNSAFE_TEST_KDF", "1")  # a throwaway store, as the tests do

from bench import synthetic
from bench.perf import (
    CachedEmbedder,
    _new_memories,
    _open_localmind,
    _read_vectors,
    _use_embedder,
)

QUERIES, ROUNDS, CACHED_TEXTS, SEED = 150, 3, 100_640, 7
FIXED_NOW = 1.8e9  # --dump: recency computed at one moment, whenever it runs


def _told_in_sessions(items: list[dict[str, Any]], sessions: int) -> list[dict[str, Any]]:
    """Each run of ``sessions`` items made at the moment of its first (0: as they are)."""
    if not sessions:
        return items
    return [
        {**item, "created_at": items[n - n % sessions]["created_at"]}
        for n, item in enumerate(items)
    ]


def _build(memory: Any, embedder: CachedEmbedder, args: argparse.Namespace) -> None:
    size, sessions = args.size, args.sessions
    cache_dir = Path(args.cache_dir) if args.cache_dir else None
    cached = sorted(cache_dir.glob(f"use-{CACHED_TEXTS}-{SEED}-*.f32")) if cache_dir else []
    if not cached:
        embedder.live = True
        made = [asdict(m) for m in synthetic.memories(size)]
        memory.remember_many(_new_memories(_told_in_sessions(made, sessions)), check=False)
        return
    items = [asdict(m) for m in synthetic.memories(CACHED_TEXTS, SEED)][:size]
    items = _told_in_sessions(items, sessions)
    for start in range(0, size, 4096):
        stop = min(size, start + 4096)
        vectors = _read_vectors(cached[0], start, stop)
        embedder.vectors = {items[i]["content"]: vectors[i - start] for i in range(start, stop)}
        memory.remember_many(_new_memories(items[start:stop]), check=False)


def main(args: argparse.Namespace) -> str:
    path = Path(args.store)
    embedder = CachedEmbedder(_use_embedder())
    create = not path.exists()
    memory = _open_localmind(path, True, embedder, create=create)
    try:
        if create:
            _build(memory, embedder, args)
        embedder.live = True
        queries = [q.text for q in synthetic.queries(QUERIES, args.size)]
        for query in queries:  # query vectors cached: what is left is the search
            memory.recall(query, args.limit, touch=False)
        if args.dump:
            return _dump(memory, queries, args)
        if args.knn:
            vectors = [memory.query_vector(query) for query in queries]

            def one(_: str, v: Any) -> None:
                memory._store.nearest(v, 50, memory.namespace, None)
        else:
            vectors = [None] * len(queries)

            def one(query: str, _: Any) -> None:
                memory.recall(query, args.limit, touch=args.touch)

        spent = _timed_phases(memory) if args.phases else collections.Counter()
        rounds = []
        for _ in range(ROUNDS):
            started = time.thread_time()
            for query, vector in zip(queries, vectors, strict=True):
                one(query, vector)
            rounds.append((time.thread_time() - started) * 1000 / len(queries))
    finally:
        memory.close()
    what = "vector search" if args.knn else "recall"
    line = f"search CPU per {what}: {statistics.median(rounds):.2f} ms (median of {ROUNDS} rounds)"
    calls = ROUNDS * len(queries)
    phases = [f"  {name}: {1000 * cpu / calls:.2f} ms" for name, cpu in spent.most_common()]
    return "\n".join([line, *phases])


# The phases of recall --phases times: (object, method) as in Memory's parts.
_STORE_PHASES = (
    "nearest",
    "keyword",
    "recall_rows",
    "get_by_rowids",
    "documents_with",
    "vectors_for",
)
_RECALL_PHASES = ("_coverage", "_newer_first")


def _timed_phases(memory: Any) -> collections.Counter[str]:
    """Wrap each phase's method in a thread-CPU timer; the returned counter sums seconds."""
    spent: collections.Counter[str] = collections.Counter()

    def timed(owner: Any, name: str) -> None:
        original = getattr(owner, name, None)
        if original is None:  # an older version without this phase
            return

        @functools.wraps(original)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            started = time.thread_time()
            try:
                return original(*args, **kwargs)
            finally:
                spent[name] += time.thread_time() - started

        setattr(owner, name, wrapper)

    for name in _STORE_PHASES:
        timed(memory._store, name)
    for name in _RECALL_PHASES:
        timed(memory._recaller, name)
    return spent


def _dump(memory: Any, queries: list[str], args: argparse.Namespace) -> str:
    memory._clock = memory._recaller._clock = lambda: FIXED_NOW
    found = []
    for query in queries:
        results = memory.recall(query, args.limit, touch=False)
        nearest = memory._store.nearest(memory.query_vector(query), 50, memory.namespace, None)
        found.append(
            {
                "query": query,
                "results": [[r.memory.id, repr(r.breakdown)] for r in results],
                "nearest": nearest,
            }
        )
    Path(args.dump).write_text(json.dumps(found), encoding="utf-8")
    return f"wrote {len(found)} queries' results to {args.dump}"


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.search_cpu", description=__doc__)
    parser.add_argument("store", help="the store to search (built first when absent)")
    parser.add_argument("--size", type=int, default=10_000, help="memories (default 10,000)")
    parser.add_argument("--cache-dir", help="bench perf's --cache-dir: its vectors, if there")
    parser.add_argument("--limit", type=int, default=10)
    parser.add_argument("--touch", action="store_true", help="note results as recalled")
    parser.add_argument("--knn", action="store_true", help="time the vector search alone")
    parser.add_argument("--dump", help="write every query's results here instead of timing")
    parser.add_argument("--phases", action="store_true", help="also CPU per phase of recall")
    parser.add_argument("--sessions", type=int, default=0, help="memories told N at a time")
    return parser.parse_args(argv)


if __name__ == "__main__":
    print(main(parse()))

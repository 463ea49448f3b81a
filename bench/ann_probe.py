"""``python -m bench.ann_probe``: would an in-memory ANN graph (HNSW) search faster than the sign
index at the recall it keeps? Measures, on the first ``--size`` vectors of ``bench perf``'s
cache and 150 synthetic queries (the ones ``bench.search_cpu`` asks):

- ``sign``: :class:`localmind.sign_index.SignIndex` as the store uses it (Hamming pool, int8
  ranking, then the exact stage over its float32 copy held in memory here), and its first two
  stages alone (what a search costs before the exact stage reads its float vectors);
- ``hnswlib:M:EFC`` and ``usearch:DTYPE:M:EFC``: a graph of connectivity M built with
  expansion EFC, searched for the 50 nearest at each ``--ef``.

Each line: CPU per query (``time.thread_time``, one thread, median of rounds) and recall@10 /
@50 against exact cosine. Builds report their CPU and wall time and how much the process's RSS
grew. Neither library is a dependency of localmind: ``pip install hnswlib usearch`` first.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from bench import synthetic
from bench.perf import _read_vectors, _use_embedder
from localmind import blas
from localmind.sign_index import IndexRows, SignIndex, exact_nearest

K, QUERIES, CACHED_TEXTS, SEED = 50, 150, 100_640, 7


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _rss_mb() -> float:
    """The process's resident memory now (Linux), MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _truth(vectors: np.ndarray, queries: np.ndarray) -> list[np.ndarray]:
    """The exact 50 nearest of each query by cosine, nearest first."""
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    found = []
    for query in queries:
        scores = unit @ (query / np.linalg.norm(query))
        top = np.argpartition(-scores, K - 1)[:K]
        found.append(top[np.argsort(-scores[top])])
    return found


def _recall(found: Sequence[Sequence[int]], truth: Sequence[np.ndarray], k: int) -> float:
    return statistics.mean(
        len(set(np.asarray(f)[:k].tolist()) & set(t[:k].tolist())) / k
        for f, t in zip(found, truth, strict=True)
    )


def _timed(
    search: Callable[[np.ndarray], Any], queries: np.ndarray, rounds: int
) -> tuple[float, list[Any]]:
    """CPU ms per query (median of ``rounds``) and the last round's answers."""
    spent, answers = [], []
    for _ in range(rounds):
        started = time.thread_time()
        answers = [search(query) for query in queries]
        spent.append((time.thread_time() - started) * 1000 / len(queries))
    return statistics.median(spent), answers


def _sign(vectors: np.ndarray, queries: np.ndarray, truth: list[np.ndarray], rounds: int) -> None:
    size = len(vectors)
    before, started = _rss_mb(), time.process_time()
    index = SignIndex("probe", max_float_bytes=None)
    index.add(IndexRows(np.arange(size, dtype=np.int64), ["semantic"] * size, vectors))
    print(
        f"sign index: build {time.process_time() - started:.1f} s CPU, RSS +"
        f"{_rss_mb() - before:.0f} MB (float32 copy included)"
    )
    pool = max(400, min(size // 50, 2000))  # the store's _index_pool(50, size)

    def whole(query: np.ndarray) -> list[int]:
        with blas.one_thread():
            rowids, held = index.search_exact(query, pool, 2 * K + 20, None, [], best=K)
            assert held is not None
            return [rowid for rowid, _ in exact_nearest(query, rowids, held, K)]

    def stages(query: np.ndarray) -> int:
        with blas.one_thread():
            return len(index.search(query, pool, 2 * K + 20, None, [], best=K)[0])

    cpu, found = _timed(whole, queries, rounds)
    print(f"  Hamming + int8 + exact: {cpu:.3f} ms  recall@10 {_recall(found, truth, 10):.4f}")
    cpu, kept = _timed(stages, queries, rounds)
    print(
        f"  Hamming + int8 alone: {cpu:.3f} ms, exact-stage rows median "
        f"{statistics.median(kept):.0f}"
    )


def _graph(
    spec: str, vectors: np.ndarray, queries: np.ndarray, truth: list[np.ndarray], args: Any
) -> None:
    name, *params = spec.split(":")
    keys = np.arange(len(vectors), dtype=np.int64)
    before, started, wall = _rss_mb(), time.process_time(), time.perf_counter()
    search: Callable[[np.ndarray], Any]
    if name == "hnswlib":
        import hnswlib

        connectivity, expansion = int(params[0]), int(params[1])
        graph = hnswlib.Index(space="cosine", dim=vectors.shape[1])
        graph.init_index(len(vectors), ef_construction=expansion, M=connectivity)
        graph.set_num_threads(1)
        graph.add_items(vectors, keys)

        def tune(ef: int) -> None:
            graph.set_ef(ef)

        def search(query: np.ndarray) -> Any:
            return graph.knn_query(query, K)[0][0]
    elif name == "usearch":
        from usearch.index import Index

        dtype, connectivity, expansion = params[0], int(params[1]), int(params[2])
        graph = Index(
            ndim=vectors.shape[1],
            metric="cos",
            dtype=dtype,
            connectivity=connectivity,
            expansion_add=expansion,
        )
        graph.add(keys, vectors, threads=1)

        def tune(ef: int) -> None:
            setattr(graph, "expansion_search", ef)  # noqa: B010 (a property its stubs call read-only)

        def search(query: np.ndarray) -> Any:
            return graph.search(query, K, threads=1).keys
    else:
        raise SystemExit(f"unknown graph {spec!r}: hnswlib:M:EFC or usearch:DTYPE:M:EFC")
    print(
        f"{spec}: build {time.process_time() - started:.1f} s CPU "
        f"({time.perf_counter() - wall:.0f} s wall), RSS +{_rss_mb() - before:.0f} MB"
    )
    for ef in args.ef:
        tune(ef)
        cpu, found = _timed(search, queries, args.rounds)
        print(
            f"  ef={ef}: {cpu:.3f} ms  recall@10 {_recall(found, truth, 10):.4f}  "
            f"recall@50 {_recall(found, truth, 50):.4f}",
            flush=True,
        )


def main(args: argparse.Namespace) -> None:
    cached = sorted(Path(args.cache_dir).glob(f"use-{CACHED_TEXTS}-{SEED}-*.f32"))
    if not cached:
        raise SystemExit(f"no cached vectors in {args.cache_dir}: see bench.search_cpu --help")
    vectors = _read_vectors(cached[0], 0, args.size).copy()
    embedder = _use_embedder()
    texts = [q.text for q in synthetic.queries(QUERIES, args.size)]
    queries = np.asarray(embedder.embed_query(texts), np.float32)
    truth = _truth(vectors, queries)
    print(f"{args.size} vectors, {len(queries)} queries, peak RSS {_peak_mb():.0f} MB")
    for spec in args.systems:
        if spec == "sign":
            _sign(vectors, queries, truth, args.rounds)
        else:
            _graph(spec, vectors, queries, truth, args)


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.ann_probe", description=__doc__)
    parser.add_argument("--cache-dir", required=True, help="bench perf's --cache-dir")
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument(
        "--systems",
        type=lambda text: text.split(","),
        default=["sign", "hnswlib:16:128"],
        help="sign, hnswlib:M:EFC, usearch:DTYPE:M:EFC (DTYPE f32, f16, i8), comma-separated",
    )
    parser.add_argument(
        "--ef",
        type=lambda text: [int(x) for x in text.split(",")],
        default=[64, 128, 256, 512],
        help="search expansions to try (comma-separated)",
    )
    parser.add_argument("--rounds", type=int, default=3)
    return parser.parse_args(argv)


if __name__ == "__main__":
    main(parse())

"""Speed and scale: ``python -m bench perf [--quick] [--sizes 1000,10000,100000]``.

Synthetic memories (:mod:`bench.synthetic`, mixed English and Chinese) are embedded once with the
bundled USE model (cached on disk, see ``--cache-dir``), then, at each store size:

1. **Build**, each system in its own fresh process (so its peak RSS is its own): localmind
   encrypted (sqlite3mc, as :meth:`Memory.open` makes it), localmind on a plain SQLite file (same
   code, no key), ChromaDB (persistent collection, HNSW cosine) and a numpy matrix. All get the
   same precomputed vectors; localmind then also imports the last few hundred memories with live
   embedding, one by one (``remember``) and in a batch (``remember_many``).
2. **Read**, one process, all systems open side by side, queries round-robin (the order rotates)
   so that a busy neighbour on this shared machine slows every system alike: localmind ``recall``
   end to end (query embedding included) and search only (query vector already cached); Chroma
   and numpy top-k search with the same query vector (their "end to end" adds the same query's
   embedding time). Also the recall@10 of each system's vector search against exact search.
3. **Write**, encrypted and plain localmind alternately, batches of new memories with precomputed
   vectors: what the cipher costs on writes.

Results: a Markdown table on stdout, ``bench/results/perf-<timestamp>.json`` and ``.md``, and
``assets/perf-latency.png``. ``--compare OLD.json`` adds a before/after table.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import datetime as dt
import hashlib
import json
import multiprocessing
import os
import platform
import resource
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bench import coldstart, synthetic

SYSTEMS = ("localmind-enc", "localmind-plain", "chroma", "numpy")
K = 50  # candidates recall(limit=5) asks of each index (FusionConfig.min_candidates)
LIMIT = 5
DIM = 512
PASSPHRASE = "benchmark passphrase"
NAMESPACE = "me"
RESULTS_DIR = Path(__file__).resolve().parent / "results"
ASSETS_DIR = Path(__file__).resolve().parents[1] / "assets"

TARGETS = {
    "search_p95_10k_ms": 10.0,
    "search_p95_100k_ms": 50.0,
    "e2e_p95_10k_ms": 25.0,
    "batch_import_per_s": 300.0,
    "encryption_overhead": 0.15,
}


@dataclass
class Plan:
    sizes: list[int]
    queries: int
    rounds: int  # passes over the queries in the read phase (search only; e2e once)
    child_queries: int  # queries each build process runs (for its RSS, and an isolated view)
    single: int  # remember() one by one with live embedding
    batch: int  # remember_many() with live embedding
    writes: int  # memories per store in the interleaved write phase
    write_batch: int
    throughput_sample: int  # texts embedded to measure the model's throughput
    systems: list[str] = field(default_factory=lambda: list(SYSTEMS))
    seed: int = 7

    @property
    def live(self) -> int:
        return self.single + self.batch


# --- the embedding wrapper ------------------------------------------------------------------


class CachedEmbedder:
    """Wraps the real embedder: documents whose vector was precomputed come from ``vectors``
    (by text); the rest, and every query, go to the model. ``live`` sends every document to the
    model. Benchmark-only: it makes 100k inserts cost storage time, not embedding time."""

    def __init__(self, inner: Any, vectors: dict[str, np.ndarray] | None = None) -> None:
        self.inner = inner
        self.vectors: dict[str, np.ndarray] = vectors or {}
        self.live = False

    @property
    def identity(self) -> str:
        return str(self.inner.identity)

    @property
    def dim(self) -> int:
        return int(self.inner.dim)

    @property
    def spec(self) -> str | None:
        return getattr(self.inner, "spec", None)

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        if self.live:
            return np.asarray(self.inner.embed_documents(texts), dtype=np.float32)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        missing = [i for i, text in enumerate(texts) if text not in self.vectors]
        for i, text in enumerate(texts):
            if text in self.vectors:
                out[i] = self.vectors[text]
        if missing:
            out[missing] = self.inner.embed_documents([texts[i] for i in missing])
        return out

    def embed_query(self, texts: list[str]) -> np.ndarray:
        return np.asarray(self.inner.embed_query(texts), dtype=np.float32)


# --- small helpers --------------------------------------------------------------------------


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def _pct(values: Sequence[float], q: float) -> float:
    if not values:
        return float("nan")
    return float(np.percentile(np.asarray(values, dtype=np.float64), q))


def _summary(ms: Sequence[float]) -> dict[str, float]:
    return {"p50": _pct(ms, 50), "p95": _pct(ms, 95), "mean": float(np.mean(ms)), "n": len(ms)}


def _dir_size(path: Path) -> int:
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def _store_size(db_path: Path) -> int:
    return sum(
        p.stat().st_size
        for p in (db_path, *(db_path.with_name(db_path.name + s) for s in ("-wal", "-shm")))
        if p.exists()
    )


def _timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    value = fn()
    return (time.perf_counter() - start) * 1000.0, value


def _wall_cpu(fn: Callable[[], Any]) -> tuple[float, float]:
    """(wall ms, CPU ms of the calling thread) of one call. On a shared machine the CPU time is
    what the call itself cost; the wall time adds whatever the neighbours took. (Work done in
    other threads, BLAS's or chroma's, is not in the CPU figure.)"""
    wall, cpu = time.perf_counter(), time.thread_time()
    fn()
    return (time.perf_counter() - wall) * 1000.0, (time.thread_time() - cpu) * 1000.0


def _new_memories(items: Iterable[dict[str, Any]]) -> list[Any]:
    from localmind import NewMemory

    return [
        NewMemory(x["content"], x["type"], x["importance"], None, x["created_at"]) for x in items
    ]


def _read_vectors(path: Path, start: int, stop: int) -> np.ndarray:
    count = max(0, stop - start)
    data = np.fromfile(path, dtype=np.float32, count=count * DIM, offset=start * DIM * 4)
    return data.reshape(count, DIM)


def _load_items(path: Path) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return rows


def _use_embedder() -> Any:
    from localmind.embedders.use import UseEmbedder

    embedder = UseEmbedder()
    embedder.embed_query(["warm up the model"])
    return embedder


def _forget_query(memory: Any, text: str) -> None:
    """Drop ``text`` from the memory's query-vector cache (where it lives varies by version)."""
    holder = getattr(memory, "_recaller", memory)
    holder._query_vectors.pop(text, None)


def settings_without_capacity() -> Any:
    """Default settings without the per-namespace capacity (it would evict down to 500)."""
    import dataclasses

    from localmind import Settings

    settings = Settings()
    if hasattr(settings, "governance"):
        governance = dataclasses.replace(settings.governance, capacity=None)
        settings = dataclasses.replace(settings, governance=governance)
    return settings


def _open_localmind(path: Path, encrypted: bool, embedder: Any, *, create: bool) -> Any:
    """Encrypted: :meth:`Memory.open`. Plain: the same steps on a connection without a key."""
    from localmind import KdfParams, Memory
    from localmind.keys import UNSAFE_TEST_KDF_ENV
    from localmind.store.connection import connect
    from localmind.store.migrations import migrate

    if encrypted:
        # A cheap KDF: the benchmark measures the store, not Argon2id at open (localmind refuses
        # such a key file unless told it is a test's).
        os.environ.setdefault(UNSAFE_TEST_KDF_ENV, "1")
        kdf = KdfParams(memory_cost_kib=8, iterations=1, lanes=1)
        return Memory.open(
            path,
            PASSPHRASE,
            embedder=embedder,
            kdf=kdf,
            create=create,
            settings=settings_without_capacity(),
        )
    db = connect(path, None, create=create)
    try:
        migrate(db)
        return Memory._attach(
            db, path, embedder, NAMESPACE, settings_without_capacity(), time.time, False
        )
    except BaseException:
        db.close()
        raise


# --- build phase (one fresh process per system and size) ------------------------------------


def _child(task: dict[str, Any]) -> dict[str, Any]:
    system = task["system"]
    if system == "blas":
        return _embedding_threads(task)
    if system.startswith("localmind"):
        return _build_localmind(task)
    if system == "chroma":
        return _build_chroma(task)
    return _build_numpy(task)


def _build_localmind(task: dict[str, Any]) -> dict[str, Any]:
    size, live, chunk = task["size"], task["single"] + task["batch"], 4096
    items = _load_items(Path(task["items"]))[:size]
    vectors_path = Path(task["vectors"])
    embedder = CachedEmbedder(_use_embedder())
    rss_base = _rss_mb()
    path = Path(task["path"])
    memory = _open_localmind(path, task["system"] == "localmind-enc", embedder, create=True)
    bulk = size - live
    bulk_ms = 0.0
    for start in range(0, bulk, chunk):
        stop = min(bulk, start + chunk)
        vectors = _read_vectors(vectors_path, start, stop)
        embedder.vectors = {items[i]["content"]: vectors[i - start] for i in range(start, stop)}
        batch = _new_memories(items[start:stop])
        elapsed, _ = _timed(lambda batch=batch: memory.remember_many(batch, check=False))
        bulk_ms += elapsed
    embedder.vectors = {}
    embedder.live = True
    single_ms = []
    for item in _new_memories(items[bulk : bulk + task["single"]]):
        elapsed, _ = _timed(
            lambda item=item: memory.remember(
                item.content, item.type, item.importance, created_at=item.created_at
            )
        )
        single_ms.append(elapsed)
    batch_items = _new_memories(items[bulk + task["single"] : size])
    batch_ms, batch_cpu = _wall_cpu(lambda: memory.remember_many(batch_items))
    embedder.live = False
    count = memory.count()
    rss_built = _rss_mb()
    e2e, search = [], []
    for text in task["queries"]:
        _forget_query(memory, text)
        e2e.append(_timed(lambda text=text: memory.recall(text, LIMIT))[0])
        search.append(_timed(lambda text=text: memory.recall(text, LIMIT))[0])
    memory.close()
    return {
        "count": count,
        "bulk_per_s": bulk / (bulk_ms / 1000.0) if bulk else float("nan"),
        "single_per_s": len(single_ms) / (sum(single_ms) / 1000.0),
        "single_ms": _summary(single_ms),
        "batch_per_s": len(batch_items) / (batch_ms / 1000.0),
        "batch_cpu_per_s": len(batch_items) / (batch_cpu / 1000.0),
        "isolated_search_ms": _summary(search),
        "isolated_e2e_ms": _summary(e2e),
        "rss_base_mb": rss_base,
        "rss_built_mb": rss_built,
        "rss_peak_mb": _rss_mb(),
        "disk_bytes": _store_size(path),
    }


def _chroma_client(path: Path) -> Any:
    import chromadb
    from chromadb.config import Settings as ChromaSettings

    return chromadb.PersistentClient(
        path=str(path), settings=ChromaSettings(anonymized_telemetry=False)
    )


def _build_chroma(task: dict[str, Any]) -> dict[str, Any]:
    size = task["size"]
    items = _load_items(Path(task["items"]))[:size]
    inner = _use_embedder()
    rss_base = _rss_mb()
    client = _chroma_client(Path(task["path"]))
    collection = client.create_collection(
        "bench", metadata={"hnsw:space": "cosine"}, embedding_function=None
    )
    step = min(4096, client.get_max_batch_size())
    add_ms = 0.0
    for start in range(0, size, step):
        stop = min(size, start + step)
        vectors = _read_vectors(Path(task["vectors"]), start, stop)
        ids = [str(i) for i in range(start, stop)]
        docs = [items[i]["content"] for i in range(start, stop)]
        metas = [{"type": items[i]["type"]} for i in range(start, stop)]
        elapsed, _ = _timed(
            lambda ids=ids, vectors=vectors, docs=docs, metas=metas: collection.add(
                ids=ids, embeddings=vectors, documents=docs, metadatas=metas
            )
        )
        add_ms += elapsed
    count = collection.count()
    rss_built = _rss_mb()
    search, e2e = [], []
    for text in task["queries"]:
        embed_ms, qv = _timed(lambda text=text: inner.embed_query([text]))
        ms, _ = _timed(lambda qv=qv: collection.query(query_embeddings=qv, n_results=K))
        search.append(ms)
        e2e.append(ms + embed_ms)
    del client
    return {
        "count": count,
        "bulk_per_s": size / (add_ms / 1000.0),
        "isolated_search_ms": _summary(search),
        "isolated_e2e_ms": _summary(e2e),
        "rss_base_mb": rss_base,
        "rss_built_mb": rss_built,
        "rss_peak_mb": _rss_mb(),
        "disk_bytes": _dir_size(Path(task["path"])),
    }


def _numpy_topk(matrix: np.ndarray, query: np.ndarray, k: int) -> np.ndarray:
    scores = matrix @ query
    k = min(k, len(scores))
    top = np.argpartition(-scores, k - 1)[:k]
    return top[np.argsort(-scores[top])]


def _build_numpy(task: dict[str, Any]) -> dict[str, Any]:
    size = task["size"]
    inner = _use_embedder()
    rss_base = _rss_mb()
    load_ms, matrix = _timed(lambda: _read_vectors(Path(task["vectors"]), 0, size).copy())
    np.save(task["path"], matrix)
    rss_built = _rss_mb()
    search, e2e = [], []
    for text in task["queries"]:
        embed_ms, qv = _timed(lambda text=text: inner.embed_query([text])[0])
        ms, _ = _timed(lambda qv=qv: _numpy_topk(matrix, qv, K))
        search.append(ms)
        e2e.append(ms + embed_ms)
    return {
        "count": int(matrix.shape[0]),
        "bulk_per_s": size / (load_ms / 1000.0),
        "isolated_search_ms": _summary(search),
        "isolated_e2e_ms": _summary(e2e),
        "rss_base_mb": rss_base,
        "rss_built_mb": rss_built,
        "rss_peak_mb": _rss_mb(),
        "disk_bytes": _dir_size(Path(task["path"])),
    }


def _run_child(task: dict[str, Any], env: dict[str, str] | None = None) -> dict[str, Any]:
    """Run ``_child(task)`` in a fresh process (with ``env`` added to its environment)."""
    context = multiprocessing.get_context("spawn")
    saved = {key: os.environ.get(key) for key in env or {}}
    os.environ.update(env or {})
    try:
        with concurrent.futures.ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
            return pool.submit(_child, task).result()
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def _embedding_threads(task: dict[str, Any]) -> dict[str, Any]:
    """Query embedding latency and batch throughput of the USE model in this process (whose
    BLAS thread count the parent chose through the environment)."""
    inner = _use_embedder()
    walls, cpus = [], []
    for text in task["queries"]:
        wall, cpu = _wall_cpu(lambda text=text: inner.embed_query([text]))
        walls.append(wall)
        cpus.append(cpu)
    texts = task["texts"]
    start = time.perf_counter()
    for i in range(0, len(texts), 64):
        inner.embed_documents(texts[i : i + 64])
    return {
        "query_ms": _summary(walls),
        "query_cpu_ms": _summary(cpus),
        "docs_per_s": len(texts) / (time.perf_counter() - start),
    }


def blas_threads_experiment(queries: list[str], texts: list[str]) -> dict[str, dict[str, Any]]:
    """The USE model with OpenBLAS's default threads (one per core) and with one thread, in
    alternating fresh processes. On a busy machine, multi-threaded BLAS spin-waits for threads
    that are not scheduled: the single-thread runs show what that costs."""
    runs: dict[str, list[dict[str, Any]]] = {"default": [], "1 thread": []}
    task = {"system": "blas", "queries": queries, "texts": texts}
    for _ in range(2):
        runs["default"].append(_run_child(task))
        runs["1 thread"].append(_run_child(task, {"OPENBLAS_NUM_THREADS": "1"}))
    return {
        name: {
            "query_p50_ms": statistics.median(r["query_ms"]["p50"] for r in rs),
            "query_p95_ms": statistics.median(r["query_ms"]["p95"] for r in rs),
            "docs_per_s": statistics.median(r["docs_per_s"] for r in rs),
            "runs": rs,
        }
        for name, rs in runs.items()
    }


def _localmind_vectors(memory: Any) -> tuple[np.ndarray, np.ndarray]:
    """(rowids, vectors) of the active memories of a localmind store, read through the store."""
    store = memory._store
    rowids = [
        r
        for (r,) in store.db.execute(
            "SELECT rowid FROM memories WHERE status = 'active' AND namespace = ?", (NAMESPACE,)
        )
    ]
    blobs: dict[int, bytes] = {}
    for start in range(0, len(rowids), 20_000):
        blobs.update(store.vectors_for(rowids[start : start + 20_000]))
    keys = np.array(sorted(blobs), dtype=np.int64)
    matrix = np.stack([np.frombuffer(blobs[int(k)], dtype=np.float32) for k in keys])
    return keys, matrix


# --- read and write phases (one process, systems side by side) -------------------------------


def _side_by_side(
    plan: Plan,
    size: int,
    paths: dict[str, Path],
    queries: list[synthetic.SyntheticQuery],
    inner: Any,
    items: list[dict[str, Any]],
    vectors_path: Path,
    extra_start: int,
) -> dict[str, dict[str, Any]]:
    systems = [s for s in plan.systems if s in paths]
    opened: dict[str, Any] = {}
    embedders: dict[str, CachedEmbedder] = {}
    for system in systems:
        if system.startswith("localmind"):
            embedders[system] = CachedEmbedder(inner)
            opened[system] = _open_localmind(
                paths[system], system == "localmind-enc", embedders[system], create=False
            )
        elif system == "chroma":
            opened[system] = _chroma_client(paths[system]).get_collection("bench")
        else:
            opened[system] = np.load(paths[system])
    # Ground truth for recall@10: exact search over the very vectors each system holds
    # (remember() may merge near-duplicates, so a store need not hold all ``size`` inputs).
    exact = _read_vectors(vectors_path, 0, size)
    truth_sets: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for system in systems:
        if system.startswith("localmind"):
            truth_sets[system] = _localmind_vectors(opened[system])
        else:
            truth_sets[system] = (np.arange(size), exact)
    out: dict[str, dict[str, list[float]]] = {s: {} for s in systems}

    def record(row: dict[str, list[float]], key: str, fn: Callable[[], Any]) -> float:
        wall, cpu = _wall_cpu(fn)
        row.setdefault(key, []).append(wall)
        row.setdefault(key + "_cpu", []).append(cpu)
        return wall

    embed_ms: dict[str, float] = {}
    embed_cpu: dict[str, float] = {}
    qvecs = {q.text: inner.embed_query([q.text])[0] for q in queries}
    from localmind.fts_terms import match_expression

    # Query embedding alone, in its own pass: BLAS threads spin for a while after a call, which
    # would slow whatever runs next (localmind's e2e numbers include that effect, as in use).
    for _ in range(2):
        for query in queries:
            text = query.text
            wall, cpu = _wall_cpu(lambda text=text: inner.embed_query([text]))
            embed_ms[text] = min(wall, embed_ms.get(text, float("inf")))
            embed_cpu[text] = min(cpu, embed_cpu.get(text, float("inf")))
    # Search only, side by side. numpy runs in a pass of its own: a multi-threaded BLAS call
    # leaves its threads spinning for a while, which would slow whatever ran next.
    interleaved = [system for system in systems if system != "numpy"]
    for round_ in range(plan.rounds):
        for qi, query in enumerate(queries):
            text, vector = query.text, qvecs[query.text]
            shift = (qi + round_) % max(1, len(interleaved))
            for system in interleaved[shift:] + interleaved[:shift]:
                target, row = opened[system], out[system]
                if system.startswith("localmind"):
                    if round_ == 0:
                        store = target._store
                        record(
                            row, "knn", lambda s=store, v=vector: s.nearest(v, K, NAMESPACE, None)
                        )
                        match = match_expression(text)
                        if match:
                            record(
                                row,
                                "fts",
                                lambda s=store, m=match: s.keyword(m, K, NAMESPACE, None),
                            )
                    target.query_vector(text)  # cached (normally it already is)
                    record(row, "search", lambda t=target, x=text: t.recall(x, LIMIT))
                else:
                    record(
                        row,
                        "search",
                        lambda t=target, v=vector: t.query(query_embeddings=[v], n_results=K),
                    )
    if "numpy" in systems:
        for _ in range(plan.rounds):
            for query in queries:
                target, vector = opened["numpy"], qvecs[query.text]
                record(out["numpy"], "search", lambda t=target, v=vector: _numpy_topk(t, v, K))
    # End to end (the query embedded by recall itself, as in use), localmind side by side.
    lm = [system for system in systems if system.startswith("localmind")]
    for qi, query in enumerate(queries):
        for system in lm if qi % 2 == 0 else lm[::-1]:
            target = opened[system]
            _forget_query(target, query.text)
            record(out[system], "e2e", lambda t=target, x=query.text: t.recall(x, LIMIT))
    # Vector-search quality against exact search over the same vectors.
    for query in queries:
        vector = qvecs[query.text]
        for system in systems:
            target = opened[system]
            keys, matrix = truth_sets[system]
            truth = set(keys[_numpy_topk(matrix, vector, 10)].tolist())
            # The top 10 of the k=K search recall() itself runs.
            if system.startswith("localmind"):
                hits = target._store.nearest(vector, K, NAMESPACE, None)
                got = [rowid for rowid, _ in hits[:10]]
            elif system == "chroma":
                result = target.query(query_embeddings=[vector], n_results=K)
                got = [int(i) for i in result["ids"][0][:10]]
            else:
                got = _numpy_topk(target, vector, K)[:10].tolist()
            out[system].setdefault("recall10", []).append(len(truth & set(got)) / 10.0)
    results: dict[str, dict[str, Any]] = {}
    for system in systems:
        row = out[system]
        if not system.startswith("localmind"):  # this query's embedding + its first search
            row["e2e"] = [embed_ms[q.text] + row["search"][i] for i, q in enumerate(queries)]
            row["e2e_cpu"] = [
                embed_cpu[q.text] + row["search_cpu"][i] for i, q in enumerate(queries)
            ]
        results[system] = {"recall_at_10": float(np.mean(row.pop("recall10")))}
        for key, values in row.items():
            results[system][f"{key}_ms"] = _summary(values)
    results["embed"] = {
        "query_ms": _summary(list(embed_ms.values())),
        "query_cpu_ms": _summary(list(embed_cpu.values())),
    }

    # Write phase: encrypted and plain alternately, same batches, precomputed vectors.
    writers = [s for s in ("localmind-enc", "localmind-plain") if s in opened]
    if writers and plan.writes:
        extra = items[extra_start : extra_start + plan.writes]
        vectors = _read_vectors(vectors_path, extra_start, extra_start + len(extra))
        cache = {x["content"]: vectors[i] for i, x in enumerate(extra)}
        times: dict[str, list[float]] = {s: [] for s in writers}
        cpu_times: dict[str, list[float]] = {s: [] for s in writers}
        for system in writers:
            embedders[system].vectors = cache
        for b, start in enumerate(range(0, len(extra), plan.write_batch)):
            batch = _new_memories(extra[start : start + plan.write_batch])
            order = writers if b % 2 == 0 else writers[::-1]
            for system in order:
                target = opened[system]
                wall, cpu = _wall_cpu(
                    lambda t=target, batch=batch: t.remember_many(batch, check=False)
                )
                times[system].append(wall / len(batch))
                cpu_times[system].append(cpu / len(batch))
        for system in writers:
            results[system]["write_ms_per_item"] = _summary(times[system])
            results[system]["write_cpu_ms_per_item"] = _summary(cpu_times[system])
    for system in systems:
        if system.startswith("localmind"):
            opened[system].close()
    return results


# --- the run --------------------------------------------------------------------------------


def _embed_all(
    texts: list[str], inner: Any, cache_dir: Path, seed: int
) -> tuple[Path, float | None]:
    """Vectors of ``texts`` in a raw float32 file, reused when the same texts were embedded
    before. Returns the file and the embedding throughput (None when it came from the cache)."""
    digest = hashlib.sha256("\n".join(texts).encode("utf-8")).hexdigest()[:16]
    path = cache_dir / f"use-{len(texts)}-{seed}-{digest}.f32"
    if path.exists() and path.stat().st_size == len(texts) * DIM * 4:
        return path, None
    cache_dir.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    start = time.perf_counter()
    with tmp.open("wb") as handle:
        for i in range(0, len(texts), 512):
            vectors = np.asarray(inner.embed_documents(texts[i : i + 512]), dtype=np.float32)
            handle.write(vectors.tobytes())
            if len(texts) > 5000 and (i // 512) % 40 == 0:
                print(f"  embedded {i + len(vectors)}/{len(texts)}", file=sys.stderr, flush=True)
    rate = len(texts) / (time.perf_counter() - start)
    tmp.replace(path)
    return path, rate


def _plan(args: argparse.Namespace) -> Plan:
    if args.quick:
        plan = Plan(
            sizes=[1000],
            queries=40,
            rounds=2,
            child_queries=20,
            single=50,
            batch=300,
            writes=256,
            write_batch=64,
            throughput_sample=500,
        )
    else:
        plan = Plan(
            sizes=[1000, 10_000, 100_000],
            queries=150,
            rounds=3,
            child_queries=40,
            single=100,
            batch=500,
            writes=640,
            write_batch=64,
            throughput_sample=2000,
        )
    if args.sizes:
        plan.sizes = sorted({int(s.replace("_", "")) for s in args.sizes.split(",") if s})
    if args.queries:
        plan.queries = args.queries
    if args.rounds:
        plan.rounds = args.rounds
    plan.seed = args.seed
    wanted = [s.strip() for s in args.systems.split(",")] if args.systems else list(SYSTEMS)
    if "chroma" in wanted:
        try:
            import chromadb  # noqa: F401
        except ImportError:
            if not args.quick and args.systems:
                raise SystemExit("chromadb is not installed: pip install chromadb") from None
            print("chromadb not installed: skipping it", file=sys.stderr)
            wanted.remove("chroma")
    plan.systems = [s for s in SYSTEMS if s in wanted]
    if min(plan.sizes) <= plan.live:
        raise SystemExit(f"sizes must exceed {plan.live} (the live-embedded imports)")
    return plan


def run(args: argparse.Namespace) -> dict[str, Any]:
    plan = _plan(args)
    started = time.time()
    load_start = os.getloadavg()
    total = max(plan.sizes) + plan.writes
    print(f"plan: {asdict(plan)}", file=sys.stderr)
    print(f"generating {total} synthetic memories", file=sys.stderr, flush=True)
    memories = synthetic.memories(total, plan.seed)
    items = [asdict(m) for m in memories]
    queries = synthetic.queries(plan.queries, min(plan.sizes) - plan.live, memory_seed=plan.seed)
    inner = _use_embedder()

    # The model's own throughput, measured on fresh texts (not from the cache).
    sample = [m.content for m in synthetic.memories(plan.throughput_sample, plan.seed + 1000)]
    elapsed, _ = _timed(lambda: inner.embed_documents(sample))
    embed_docs_per_s = len(sample) / (elapsed / 1000.0)
    cache_dir = Path(args.cache_dir).expanduser()
    print(f"embedding {total} memories (cache: {cache_dir})", file=sys.stderr, flush=True)
    vectors_path, full_rate = _embed_all([m.content for m in memories], inner, cache_dir, plan.seed)

    work = Path(tempfile.mkdtemp(prefix="localmind-perf-", dir=args.workdir))
    child_queries = [q.text for q in queries[: plan.child_queries]]
    per_size: dict[str, Any] = {}
    try:
        for size in plan.sizes:
            folder = work / f"n{size}"
            folder.mkdir()
            paths = {
                "localmind-enc": folder / "enc.db",
                "localmind-plain": folder / "plain.db",
                "chroma": folder / "chroma",
                "numpy": folder / "matrix.npy",
            }
            paths = {s: p for s, p in paths.items() if s in plan.systems}
            # Only this size's memories: the build processes' peak RSS should be the store's.
            items_path = folder / "items.json"
            items_path.write_text(json.dumps(items[:size], ensure_ascii=False), encoding="utf-8")
            built: dict[str, Any] = {}
            for system, path in paths.items():
                print(f"[{size}] building {system}", file=sys.stderr, flush=True)
                task = {
                    "system": system,
                    "size": size,
                    "path": str(path),
                    "items": str(items_path),
                    "vectors": str(vectors_path),
                    "single": plan.single,
                    "batch": plan.batch,
                    "queries": child_queries,
                }
                elapsed, built[system] = _timed(lambda task=task: _run_child(task))
                built[system]["build_s"] = elapsed / 1000.0
            print(f"[{size}] side by side", file=sys.stderr, flush=True)
            measured = _side_by_side(
                plan, size, paths, queries, inner, items, vectors_path, max(plan.sizes)
            )
            per_size[str(size)] = {
                "embed": measured.pop("embed"),
                "systems": {s: {**built[s], **measured[s]} for s in paths},
            }
            if not args.keep:
                shutil.rmtree(folder, ignore_errors=True)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
        else:
            print(f"stores kept in {work}", file=sys.stderr)

    print("embedding: BLAS threads experiment", file=sys.stderr, flush=True)
    blas = blas_threads_experiment(
        [q.text for q in queries[:40]],
        [m.content for m in synthetic.memories(plan.throughput_sample, plan.seed + 2000)],
    )
    result = {
        "meta": {
            "label": args.label,
            "started": dt.datetime.fromtimestamp(started).isoformat(timespec="seconds"),
            "duration_s": round(time.time() - started, 1),
            "quick": bool(args.quick),
            "plan": asdict(plan),
            "cpus": os.cpu_count(),
            "loadavg_start": load_start,
            "loadavg_end": os.getloadavg(),
            "python": platform.python_version(),
            "versions": _versions(),
            "queries": {"count": len(queries), "kinds": _kinds(queries)},
        },
        "embedding": {
            "docs_per_s": embed_docs_per_s,
            "docs_per_s_full_set": full_rate,
            "blas_threads": blas,
        },
        "sizes": per_size,
    }
    result["targets"] = _targets(result)
    return result


def _kinds(queries: list[synthetic.SyntheticQuery]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for query in queries:
        key = f"{query.kind}-{query.lang}"
        counts[key] = counts.get(key, 0) + 1
    return counts


def _versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    found = {}
    for name in ("apsw-sqlite3mc", "sqlite-vec", "chromadb", "numpy", "localmind"):
        with contextlib.suppress(PackageNotFoundError):
            found[name] = version(name)
    return found


# --- targets, tables, plots -----------------------------------------------------------------


def _targets(result: dict[str, Any]) -> list[dict[str, Any]]:
    """Each target with its wall-clock value (the verdict) and its CPU-time value (what the
    verdict would be without the neighbours' load)."""
    sizes = result["sizes"]
    checks: list[dict[str, Any]] = []

    def enc(size: int) -> dict[str, Any] | None:
        value: dict[str, Any] | None = (
            sizes.get(str(size), {}).get("systems", {}).get("localmind-enc")
        )
        return value

    def add(name: str, wall: float | None, cpu: float | None, limit: float, higher: bool) -> None:
        checks.append(_check(name, wall, cpu, limit, higher))

    for size, limit, key, label in (
        (10_000, 10.0, "search", "recall p95, search only, 10k (ms)"),
        (100_000, 50.0, "search", "recall p95, search only, 100k (ms)"),
        (10_000, 25.0, "e2e", "recall p95, end to end, 10k (ms)"),
    ):
        row = enc(size)
        add(
            label,
            row[f"{key}_ms"]["p95"] if row else None,
            row[f"{key}_cpu_ms"]["p95"] if row else None,
            limit,
            False,
        )
    rows = [
        r["systems"]["localmind-enc"] for r in sizes.values() if "localmind-enc" in r["systems"]
    ]
    add(
        "batch import with live embedding, worst size (memories/s)",
        min(r["batch_per_s"] for r in rows) if rows else None,
        min(r["batch_cpu_per_s"] for r in rows) if rows else None,
        300.0,
        True,
    )
    wall_over, cpu_over = [], []
    for row in sizes.values():
        systems = row["systems"]
        if "localmind-enc" in systems and "localmind-plain" in systems:
            e, p = systems["localmind-enc"], systems["localmind-plain"]
            for key in ("search", "write"):
                wall_key = "search_ms" if key == "search" else "write_ms_per_item"
                cpu_key = "search_cpu_ms" if key == "search" else "write_cpu_ms_per_item"
                if wall_key in e and wall_key in p:
                    wall_over.append(e[wall_key]["p50"] / p[wall_key]["p50"] - 1.0)
                    cpu_over.append(e[cpu_key]["p50"] / p[cpu_key]["p50"] - 1.0)
    add(
        "encryption overhead, worst of search and write p50 (fraction)",
        max(wall_over) if wall_over else None,
        max(cpu_over) if cpu_over else None,
        0.15,
        False,
    )
    return checks + _index_targets(sizes)


def _check(
    name: str, wall: float | None, cpu: float | None, limit: float, higher: bool
) -> dict[str, Any]:
    """One target's row: its wall-clock and CPU-time values and their verdicts."""

    def verdict(value: float | None) -> str:
        if value is None:
            return "not run"
        return "met" if (value >= limit if higher else value <= limit) else "missed"

    return {
        "target": name,
        "limit": limit,
        "value": wall,
        "cpu_value": cpu,
        "status": verdict(wall),
        "cpu_status": verdict(cpu),
    }


#: Peak RSS of the encrypted store's build at 100k before the in-memory index (issue 15).
RSS_100K_BEFORE_MB = 529.0


def _index_targets(sizes: dict[str, Any]) -> list[dict[str, Any]]:
    """Issue 15's search targets, from the side-by-side figures of one run: hybrid recall
    (search only) against numpy's exact search and ChromaDB, vector recall@10, single
    ``remember`` at 100k against 1k, peak RSS at 100k."""
    checks: list[dict[str, Any]] = []

    def system(size: int, name: str) -> dict[str, Any] | None:
        found: dict[str, Any] | None = sizes.get(str(size), {}).get("systems", {}).get(name)
        return found

    def ratio(a: dict[str, Any] | None, b: dict[str, Any] | None, key: str) -> float | None:
        if not a or not b or key not in a or key not in b:
            return None
        return float(a[key]["p50"] / b[key]["p50"])

    for size in (10_000, 100_000):
        enc, label = system(size, "localmind-enc"), _size_label(size)
        wall = ratio(enc, system(size, "numpy"), "search_ms")
        cpu = ratio(enc, system(size, "numpy"), "search_cpu_ms")
        checks.append(_check(f"recall p50 ÷ numpy exact p50, {label}", wall, cpu, 2.0, False))
        recall = enc["recall_at_10"] if enc else None
        checks.append(_check(f"vector recall@10, {label}", recall, recall, 0.98, True))
    enc, chroma = system(100_000, "localmind-enc"), system(100_000, "chroma")
    wall, cpu = ratio(enc, chroma, "search_ms"), ratio(enc, chroma, "search_cpu_ms")
    checks.append(_check("recall p50 ÷ ChromaDB p50, 100k", wall, cpu, 1.0, False))
    small, big = system(1000, "localmind-enc"), system(100_000, "localmind-enc")
    single = big["single_per_s"] / small["single_per_s"] if small and big else None
    checks.append(_check("single remember/s, 100k ÷ 1k", single, None, 0.5, True))
    rss = big["rss_peak_mb"] if big else None
    checks.append(_check("peak RSS, 100k (MB)", rss, None, 1.25 * RSS_100K_BEFORE_MB, False))
    return checks


def _fmt(value: Any, digits: int = 1) -> str:
    if value is None or (isinstance(value, float) and not np.isfinite(value)):
        return "—"
    if isinstance(value, float):
        return f"{value:,.{digits}f}"
    return str(value)


def _size_label(size: str | int) -> str:
    n = int(size)
    return f"{n // 1000}k" if n % 1000 == 0 else str(n)


def _get(row: dict[str, Any], key: str, stat: str = "p50") -> float | None:
    value = row.get(key)
    if isinstance(value, dict):
        found = value.get(stat)
        return None if found is None else float(found)
    return None if value is None else float(value)


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    return [
        "| " + " | ".join(header) + " |",
        "|" + "---|" * len(header),
        *("| " + " | ".join(row) + " |" for row in rows),
    ]


def markdown(result: dict[str, Any]) -> str:
    meta = result["meta"]
    emb = result["embedding"]
    lines = [
        f"# localmind perf — {meta['started']}" + (f" ({meta['label']})" if meta["label"] else ""),
        "",
        f"{meta['cpus']} CPUs, shared: load average {meta['loadavg_start'][0]:.2f} at start, "
        f"{meta['loadavg_end'][0]:.2f} at end. {meta['queries']['count']} queries "
        f"({', '.join(f'{k} {v}' for k, v in meta['queries']['kinds'].items())}), "
        f"{meta['plan']['rounds']} rounds; the run took {meta['duration_s']:.0f} s. "
        f"USE embedding: {emb['docs_per_s']:,.0f} docs/s in batches"
        + (
            f" ({emb['docs_per_s_full_set']:,.0f} docs/s over the whole set)"
            if emb.get("docs_per_s_full_set")
            else ""
        )
        + ".",
        "",
        "Latencies in ms, p50 and p95 over all queries and rounds. *search*: measured side by "
        "side (localmind and chroma interleaved per query, order rotating; numpy in its own pass, "
        "as its BLAS threads would slow the others), recall with the query vector cached "
        f"(localmind: the full hybrid recall, limit {LIMIT}; chroma, numpy: top-{K} vector "
        "search); *e2e*: localmind's recall embedding the query itself (encrypted and plain "
        "interleaved), chroma and numpy: the same query's embedding time plus their search. "
        "*CPU* columns: the calling thread's CPU time for the same calls, i.e. without the time "
        "the machine's other tenants (or BLAS threads) took. *knn*, *fts*: "
        "localmind's two candidate searches alone. *recall@10*: the top 10 of each system's "
        f"top-{K} vector search against exact search over the same vectors.",
        "",
    ]
    latency_rows, import_rows = [], []
    for size, row in result["sizes"].items():
        for system, r in row["systems"].items():
            latency_rows.append(
                [
                    _size_label(size),
                    system,
                    _fmt(_get(r, "search_ms"), 2),
                    _fmt(_get(r, "search_ms", "p95"), 2),
                    _fmt(_get(r, "search_cpu_ms"), 2),
                    _fmt(_get(r, "search_cpu_ms", "p95"), 2),
                    _fmt(_get(r, "e2e_ms"), 2),
                    _fmt(_get(r, "e2e_ms", "p95"), 2),
                    _fmt(_get(r, "e2e_cpu_ms", "p95"), 2),
                    _fmt(_get(r, "knn_ms"), 2),
                    _fmt(_get(r, "fts_ms"), 2),
                    _fmt(r["recall_at_10"], 3),
                ]
            )
            import_rows.append(
                [
                    _size_label(size),
                    system,
                    _fmt(r["bulk_per_s"], 0),
                    _fmt(r.get("batch_per_s"), 0),
                    _fmt(r.get("single_per_s"), 0),
                    _fmt(_get(r, "write_ms_per_item"), 2),
                    _fmt(_get(r, "write_cpu_ms_per_item"), 2),
                    f"{r['rss_peak_mb']:.0f}",
                    f"{r['rss_peak_mb'] - r['rss_base_mb']:.0f}",
                    _fmt(r["disk_bytes"] / 1e6, 1),
                    _fmt(r.get("build_s"), 0),
                ]
            )
    lines += _table(
        [
            "size",
            "system",
            "search p50",
            "search p95",
            "CPU p50",
            "CPU p95",
            "e2e p50",
            "e2e p95",
            "e2e CPU p95",
            "knn p50",
            "fts p50",
            "recall@10",
        ],
        latency_rows,
    )
    lines += [
        "",
        "Imports in memories/s: *precomputed* = vectors given (chroma: `add`, numpy: load); "
        "*batch* = `remember_many` with live USE embedding; *single* = `remember` one by one "
        "(live embedding, with its neighbour check). *write/item*: ms per memory of "
        f"`remember_many` batches of {meta['plan']['write_batch']} with precomputed vectors, "
        "encrypted and plain interleaved. Peak RSS of the process that built the store and ran "
        f"{meta['plan']['child_queries']} queries, with the USE model loaded (*+data*: over its "
        "RSS before the store was opened).",
        "",
    ]
    lines += _table(
        [
            "size",
            "system",
            "precomputed",
            "batch",
            "single",
            "write/item p50",
            "write/item CPU p50",
            "peak RSS MB",
            "+data MB",
            "disk MB",
            "build s",
        ],
        import_rows,
    )
    ratio_rows = []
    for size, row in result["sizes"].items():
        systems = row["systems"]
        if "localmind-enc" in systems and "localmind-plain" in systems:
            e, p = systems["localmind-enc"], systems["localmind-plain"]

            def ratio(key: str, e: dict[str, Any] = e, p: dict[str, Any] = p) -> str:
                a, b = _get(e, key), _get(p, key)
                return _fmt(a / b, 2) if a is not None and b else "—"

            ratio_rows.append(
                [
                    _size_label(size),
                    ratio("search_ms"),
                    ratio("search_cpu_ms"),
                    ratio("write_ms_per_item"),
                    ratio("write_cpu_ms_per_item"),
                    _fmt(e["disk_bytes"] / p["disk_bytes"], 2),
                ]
            )
    if ratio_rows:
        lines += ["", "Encrypted ÷ plain (p50):", ""]
        lines += _table(["size", "search", "search CPU", "write", "write CPU", "disk"], ratio_rows)
    blas = emb.get("blas_threads")
    if blas:
        lines += [
            "",
            "USE embedding by OpenBLAS thread count (fresh processes, alternating, medians of 2; "
            "the stores above ran with the default):",
            "",
        ]
        lines += _table(
            ["BLAS threads", "query embed p50 ms", "query embed p95 ms", "batch docs/s"],
            [
                [
                    name,
                    _fmt(row["query_p50_ms"], 2),
                    _fmt(row["query_p95_ms"], 2),
                    _fmt(row["docs_per_s"], 0),
                ]
                for name, row in blas.items()
            ],
        )
    lines += ["", "Targets (verdict on wall-clock time; the CPU-time verdict beside it):", ""]
    lines += _table(
        ["target", "limit", "measured", "status", "on CPU time", "status (CPU)"],
        [
            [
                c["target"],
                _fmt(c["limit"], 2),
                _fmt(c["value"], 2),
                c["status"],
                _fmt(c["cpu_value"], 2),
                c["cpu_status"],
            ]
            for c in result["targets"]
        ],
    )
    return "\n".join(lines) + "\n"


def compare(old: dict[str, Any], new: dict[str, Any]) -> str:
    """Before/after table of the headline numbers."""
    metrics: list[tuple[str, str, Callable[[dict[str, Any]], float | None]]] = [
        ("localmind-enc", "search p50", lambda r: _get(r, "search_ms")),
        ("localmind-enc", "search p95", lambda r: _get(r, "search_ms", "p95")),
        ("localmind-enc", "search CPU p95", lambda r: _get(r, "search_cpu_ms", "p95")),
        ("localmind-enc", "e2e p95", lambda r: _get(r, "e2e_ms", "p95")),
        ("localmind-enc", "knn p50", lambda r: _get(r, "knn_ms")),
        ("localmind-enc", "fts p50", lambda r: _get(r, "fts_ms")),
        ("localmind-enc", "recall@10", lambda r: r["recall_at_10"]),
        ("localmind-enc", "import batch /s", lambda r: r.get("batch_per_s")),
        ("localmind-enc", "import single /s", lambda r: r.get("single_per_s")),
        ("localmind-enc", "import precomputed /s", lambda r: r["bulk_per_s"]),
        ("localmind-enc", "peak RSS MB", lambda r: r["rss_peak_mb"]),
        ("localmind-enc", "disk MB", lambda r: r["disk_bytes"] / 1e6),
        ("localmind-plain", "search p95", lambda r: _get(r, "search_ms", "p95")),
        ("chroma", "search p95", lambda r: _get(r, "search_ms", "p95")),
        ("numpy", "search p95", lambda r: _get(r, "search_ms", "p95")),
    ]
    rows = []
    for size in new["sizes"]:
        if size not in old["sizes"]:
            continue
        for system, name, get in metrics:
            a = old["sizes"][size]["systems"].get(system)
            b = new["sizes"][size]["systems"].get(system)
            if a is None or b is None:
                continue
            va, vb = get(a), get(b)
            ratio = vb / va if va and vb is not None else None
            rows.append([_size_label(size), system, name, _fmt(va, 2), _fmt(vb, 2), _fmt(ratio, 2)])
    lines = _table(["size", "system", "metric", "before", "after", "after ÷ before"], rows)
    before = {c["target"]: c for c in old.get("targets", [])}
    lines += [""]
    lines += _table(
        ["target", "before", "after"],
        [
            [
                c["target"],
                f"{_fmt(before.get(c['target'], {}).get('value'), 2)} "
                f"{before.get(c['target'], {}).get('status', '')}",
                f"{_fmt(c['value'], 2)} {c['status']}",
            ]
            for c in new["targets"]
        ],
    )
    return "\n".join(lines) + "\n"


def plot(result: dict[str, Any], path: Path) -> Path | None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not installed: no plot", file=sys.stderr)
        return None
    sizes = sorted(int(s) for s in result["sizes"])
    figure, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=False)
    styles = {
        "localmind-enc": ("tab:blue", "o"),
        "localmind-plain": ("tab:cyan", "s"),
        "chroma": ("tab:orange", "^"),
        "numpy": ("tab:green", "D"),
    }
    for axis, key, title in (
        (axes[0], "search_ms", "search (query vector cached)"),
        (axes[1], "e2e_ms", "end to end (query embedding included)"),
    ):
        for system, (color, marker) in styles.items():
            xs = [n for n in sizes if system in result["sizes"][str(n)]["systems"]]
            if not xs:
                continue
            rows = [result["sizes"][str(n)]["systems"][system][key] for n in xs]
            axis.plot(
                xs, [r["p50"] for r in rows], color=color, marker=marker, label=f"{system} p50"
            )
            axis.plot(
                xs,
                [r["p95"] for r in rows],
                color=color,
                marker=marker,
                linestyle="--",
                alpha=0.6,
                label=f"{system} p95",
            )
        axis.set_xscale("log")
        axis.set_yscale("log")
        axis.set_xlabel("memories in the store")
        axis.set_ylabel("latency (ms)")
        axis.set_title(title)
        axis.grid(True, which="both", alpha=0.3)
    axes[0].legend(fontsize=7, ncol=2)
    label = result["meta"]["label"]
    figure.suptitle(
        "localmind recall latency vs store size"
        + (f" ({label})" if label else "")
        + f" — {result['meta']['cpus']}-core machine"
    )
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return path


# --- command line ---------------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quick", action="store_true", help="1k only, fewer queries (< 2 min)")
    parser.add_argument("--sizes", help="comma-separated store sizes, e.g. 1000,10000,100000")
    parser.add_argument("--queries", type=int, help="number of distinct queries")
    parser.add_argument("--rounds", type=int, help="passes over the queries (search only)")
    parser.add_argument("--systems", help=f"comma-separated subset of {','.join(SYSTEMS)}")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--label", default="", help="a label for this run (e.g. before, after)")
    parser.add_argument(
        "--cache-dir",
        default=str(
            Path(os.environ.get("XDG_CACHE_HOME", "~/.cache")).expanduser() / "localmind-bench"
        ),
        help="where precomputed document vectors are kept between runs",
    )
    parser.add_argument("--workdir", default=None, help="where the stores are built (temp dir)")
    parser.add_argument("--keep", action="store_true", help="keep the stores built")
    parser.add_argument("--compare", help="a previous perf-*.json: add a before/after table")
    parser.add_argument("--out", default=str(RESULTS_DIR), help="results directory")
    parser.add_argument("--plot", default=str(ASSETS_DIR / "perf-latency.png"))
    parser.add_argument(
        "--coldstart-rounds",
        type=int,
        default=7,
        help="rounds (at least 5) of whole-process cold starts (recall, add, MCP initialize beside "
        "--version); 0 skips them",
    )
    parser.add_argument(
        "--coldstart-only", action="store_true", help="only the cold starts (~1 min)"
    )


def main(args: argparse.Namespace) -> int:
    if args.coldstart_only:
        return _coldstart_only(args)
    result = run(args)
    if args.coldstart_rounds > 0:
        print("cold starts of whole processes", file=sys.stderr, flush=True)
        result["coldstart"] = coldstart.measure(max(5, args.coldstart_rounds))
    text = markdown(result)
    if "coldstart" in result:
        text += "\n" + "\n".join(coldstart.markdown(result["coldstart"]))
    if args.compare:
        old = json.loads(Path(args.compare).read_text(encoding="utf-8"))
        text += "\n## Before → after\n\n" + compare(old, result)
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    json_path = out / f"perf-{stamp}.json"
    json_path.write_text(json.dumps(result, indent=1, ensure_ascii=False), encoding="utf-8")
    json_path.with_suffix(".md").write_text(text, encoding="utf-8")
    plotted = plot(result, Path(args.plot)) if args.plot and not args.quick else None
    print(text)
    print(f"wrote {json_path} and .md" + (f", plot {plotted}" if plotted else ""))
    return 0


def _coldstart_only(args: argparse.Namespace) -> int:
    result = {"label": args.label, "coldstart": coldstart.measure(max(5, args.coldstart_rounds))}
    text = "\n".join(coldstart.markdown(result["coldstart"]))
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    json_path = out / f"coldstart-{stamp}.json"
    json_path.write_text(json.dumps(result, indent=1), encoding="utf-8")
    json_path.with_suffix(".md").write_text(text, encoding="utf-8")
    print(text)
    print(f"wrote {json_path} and .md")
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m bench.perf")
    add_arguments(parser)
    raise SystemExit(main(parser.parse_args()))

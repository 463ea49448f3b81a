"""Import speed with and without remember's judgment: ``python -m bench import-rate``.

Synthetic memories (:mod:`bench.synthetic`, mixed English and Chinese) are embedded once with the
bundled USE model (cached on disk like ``bench perf``'s), then imported through
``remember_many`` into fresh encrypted stores, ``check=False`` (every item stored as it is) and
``check=True`` (each judged as ``remember`` judges it) alternately, ``--rounds`` times each: on a
machine shared with others both runs meet the same load. The vectors come precomputed, so the
figures are the store's and the judgment's cost, not the model's (``--live`` embeds them for real
instead, the rate a person sees). Reported: CPU seconds of the process and memories per CPU
second (the best round of each), wall seconds, and what the check decided.
"""

from __future__ import annotations

import argparse
import datetime as dt
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from bench import synthetic
from bench.perf import CachedEmbedder, _embed_all, _use_embedder, settings_without_capacity
from bench.stores import BENCH_KDF
from localmind import Memory, NewMemory

DIM = 512


def _import(
    directory: Path, name: str, embedder: Any, items: list[NewMemory], check: bool
) -> tuple[float, float, Counter[str]]:
    memory = Memory.open(
        directory / f"{name}.db",
        "import-rate",
        embedder=embedder,
        settings=settings_without_capacity(),
        kdf=BENCH_KDF,
        llm=None,
        maintain=False,
    )
    try:
        wall, cpu = time.perf_counter(), time.process_time()
        batch = memory.remember_many_explained(items, check=check)
        cpu = time.process_time() - cpu
        wall = time.perf_counter() - wall
        return cpu, wall, Counter(str(decision) for decision in batch.decisions)
    finally:
        memory.close()


def _pool(args: argparse.Namespace) -> tuple[list[int], list[NewMemory]]:
    """The sizes to import and the memories they are prefixes of: synthetic ones, or the dev
    personal sets (``--personal``: one person's realistic notes after another's, in date order;
    never the held-out set)."""
    if not args.personal:
        sizes = [int(size) for size in args.sizes.split(",")]
        made = synthetic.memories(max(sizes))
        return sizes, [NewMemory(m.content, created_at=m.created_at) for m in made]
    from bench.personal import SETS

    told = []
    for chosen in (SETS["personal"], SETS["personal2"]):  # personal2 is a dev set now
        for item in sorted(chosen.memories(), key=lambda item: item.date):
            noon = dt.datetime.combine(item.date, dt.time(12), dt.UTC).timestamp()
            told.append(NewMemory(item.text, created_at=noon))
    return [len(told)], told


def run(args: argparse.Namespace) -> int:
    sizes, pool = _pool(args)
    texts = [m.content for m in pool]
    inner = _use_embedder()
    embedder = CachedEmbedder(inner)
    if args.live:
        embedder.live = True
    else:
        path, _ = _embed_all(texts, inner, Path(args.cache_dir).expanduser(), 7 + args.personal)
        vectors = np.fromfile(path, dtype=np.float32).reshape(len(texts), DIM)
        embedder.vectors = dict(zip(texts, vectors, strict=True))
    lines = [
        "| memories | check | CPU s (best) | memories / CPU s | wall s (best) | merged | queued |",
        "|---:|---|---:|---:|---:|---:|---:|",
    ]
    for size in sizes:
        items = pool[:size]
        best: dict[bool, tuple[float, float, Counter[str]]] = {}
        with tempfile.TemporaryDirectory(prefix="import-rate-") as tmp:
            for round_ in range(args.rounds):
                for check in (False, True):
                    cpu, wall, decided = _import(
                        Path(tmp), f"{size}-{check}-{round_}", embedder, items, check
                    )
                    if check not in best or cpu < best[check][0]:
                        best[check] = (cpu, wall, decided)
        for check in (False, True):
            cpu, wall, decided = best[check]
            lines.append(
                f"| {size:,} | {'on' if check else 'off'} | {cpu:.2f} | {size / cpu:,.0f} | "
                f"{wall:.2f} | {decided['merged']} | {decided['queued']} |"
            )
        ratio = best[True][0] / best[False][0]
        lines.append(f"| {size:,} | on ÷ off | {ratio:.2f}× | | | | |")
    how = "live embedding" if args.live else "vectors precomputed"
    data = "the dev personal sets" if args.personal else "synthetic memories"
    print(f"remember_many of {data}, {how}, best of {args.rounds} rounds, alternating:\n")
    print("\n".join(lines))
    return 0

"""Sync throughput: export and import of N events through a sync folder, and compaction.

Device A remembers N synthetic memories (en + zh, one ``add`` event each), then:

- *export*: ``export_pending`` seals A's events into segments (1,000 events a file);
- *import*: a fresh device B applies them all with ``import_new`` — each new memory is embedded
  on B (embeddings never travel), so this is bound by the embedding model;
- *compaction*: B publishes its read cursors, then A's ``sync_once`` folds its segments into a
  snapshot and deletes them (every other device has read them).

Encrypted stores (``Memory.open``) with a cheap KDF and no capacity limit; the folder on local
disk.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from localmind import Memory

PASSPHRASE = "bench sync passphrase"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--events", type=int, default=10_000, help="events to carry (10,000)")
    parser.add_argument("--rounds", type=int, default=3, help="export/import rounds (median)")
    parser.add_argument(
        "--out", help="Markdown report path (default: bench/results/sync-<time>.md)"
    )


def _open(path: Path) -> Memory:
    from bench.perf import settings_without_capacity  # capacity would evict down to 500
    from localmind import KdfParams, Memory

    kdf = KdfParams(memory_cost_kib=8, iterations=1, lanes=1)
    return Memory.open(path, PASSPHRASE, kdf=kdf, settings=settings_without_capacity())


def _round(folder: Path, count: int, texts: list[str], workdir: Path) -> dict[str, float]:
    from localmind import NewMemory
    from sync.folder import export_pending, import_new, init_folder, join_folder, sync_once

    a, b = _open(workdir / "a.db"), _open(workdir / "b.db")
    try:
        a.remember_many([NewMemory(text) for text in texts[:count]])
        init_folder(a, folder, PASSPHRASE)
        join_folder(b, folder, PASSPHRASE)
        start = time.perf_counter()
        exported = export_pending(a, folder)
        export_s = time.perf_counter() - start
        start = time.perf_counter()
        report = import_new(b, folder)
        import_s = time.perf_counter() - start
        assert exported == count and report.events == count, (exported, report)
        sync_once(b, folder)  # B publishes how far it has read
        start = time.perf_counter()
        _, last = sync_once(a, folder)
        compact_s = time.perf_counter() - start
        return {
            "export_per_s": count / export_s,
            "import_per_s": count / import_s,
            "compact_s": compact_s,
            "compacted": float(last.compacted),
        }
    finally:
        a.close()
        b.close()


def run(args: argparse.Namespace) -> int:
    from bench.synthetic import memories

    count = int(args.events)
    texts = list(dict.fromkeys(m.content for m in memories(count * 2)))[:count]
    if len(texts) < count:
        print(f"only {len(texts)} distinct synthetic texts", file=sys.stderr)
        return 1
    rows: list[dict[str, float]] = []
    for index in range(int(args.rounds)):
        with tempfile.TemporaryDirectory(prefix="localmind-bench-sync-") as tmp:
            work = Path(tmp)
            rows.append(_round(work / "Sync", count, texts, work))
        print(f"round {index + 1}: {rows[-1]}", file=sys.stderr, flush=True)

    def median(key: str) -> float:
        return statistics.median(row[key] for row in rows)

    now = dt.datetime.now().replace(microsecond=0)
    lines = [
        f"# localmind sync throughput — {now.isoformat()}",
        "",
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} at the end; "
        f"{count:,} `add` events (synthetic en + zh memories), medians of {len(rows)} rounds.",
        "",
        "| step | figure |",
        "|---|---|",
        f"| export (seal into segments) | {median('export_per_s'):,.0f} events/s |",
        f"| import on a fresh device (each memory embedded there) | "
        f"{median('import_per_s'):,.0f} events/s |",
        f"| compaction (snapshot + delete, {median('compacted'):.0f} segments) | "
        f"{median('compact_s'):.2f} s |",
        "",
    ]
    report = "\n".join(lines)
    print(report)
    out = (
        Path(args.out)
        if args.out
        else Path(__file__).parent / "results" / f"sync-{now:%Y%m%d-%H%M%S}.md"
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(report, encoding="utf-8")
    print(f"wrote {out}", file=sys.stderr)
    return 0

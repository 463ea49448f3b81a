"""Sync throughput: export and import of N events through a sync folder, and compaction.

Device A remembers N synthetic memories (en + zh, one ``add`` event each), then:

- *export*: ``export_pending`` seals A's events into segments (1,000 events a file);
- *import*: a fresh device B applies them all with ``import_new`` — each new memory is embedded
  on B (embeddings never travel), so this is bound by the embedding model;
- *compaction*: B publishes its read cursors, then A's ``sync_once`` folds its segments into a
  snapshot and deletes them (every other device has read them).

Encrypted stores (``Memory.open``) with a cheap KDF and no capacity limit; the folder on local
disk.

Then the cost of a stranger's files (issue 17, item 6): ``--fake-devices`` directories named like
devices, ``--garbage`` files spread over them, each named like a segment and starting like one
(so each is opened, read and fails its tag: the worst case), and B's ``sync_once`` timed on the
first sync that meets them and on the next one (unchanged files are not read again), with the
growth of the process's peak memory.
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
    parser.add_argument("--garbage", type=int, default=20_000, help="planted files (20,000)")
    parser.add_argument(
        "--fake-devices", type=int, default=2_000, help="planted device directories (2,000)"
    )
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
        a.remember_many([NewMemory(text) for text in texts[:count]], check=False)
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


def _hostile(folder: Path, files: int, devices: int, workdir: Path) -> dict[str, float]:
    import logging
    import resource

    from ulid import ULID

    from sync.codec import MAGIC, segment_name
    from sync.folder import init_folder, join_folder, sync_once

    a, b = _open(workdir / "ha.db"), _open(workdir / "hb.db")
    try:
        a.remember("My favourite tea is green tea")
        init_folder(a, folder, PASSPHRASE)
        join_folder(b, folder, PASSPHRASE)
        sync_once(a, folder)
        sync_once(b, folder)
        logging.getLogger("localmind.sync").setLevel(logging.ERROR)  # a line per planted file
        fakes = [folder / str(ULID()) for _ in range(devices)]
        for directory in fakes:
            directory.mkdir()
        for index in range(files):
            path = fakes[index % devices] / segment_name(index // devices + 1)
            path.write_bytes(MAGIC + os.urandom(200))
        a.remember("I play the cello on Sundays")
        sync_once(a, folder)
        peak_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        start = time.perf_counter()
        _, first = sync_once(b, folder)
        first_s = time.perf_counter() - start
        start = time.perf_counter()
        _, second = sync_once(b, folder)
        second_s = time.perf_counter() - start
        peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak_before
        assert first.events == 1 and len(first.skipped) == files, (first.events, files)
        assert len(second.repeated) == files
        return {"first_s": first_s, "second_s": second_s, "peak_mib": peak_kib / 1024}
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

    files, devices = int(args.garbage), int(args.fake_devices)
    with tempfile.TemporaryDirectory(prefix="localmind-bench-sync-hostile-") as tmp:
        hostile = _hostile(Path(tmp) / "Sync", files, devices, Path(tmp))
    print(f"hostile folder: {hostile}", file=sys.stderr, flush=True)

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
        f"| one sync meeting {files:,} garbage files in {devices:,} fake device directories | "
        f"{hostile['first_s']:.2f} s |",
        f"| the next sync (nothing changed: a `stat` per file) | {hostile['second_s']:.2f} s |",
        f"| peak memory growth over both | {hostile['peak_mib']:.0f} MiB |",
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

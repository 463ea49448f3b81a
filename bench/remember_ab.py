"""remember() at 10,000 memories, before and after a change, run alternately on one store.

On a loaded machine two timing runs minutes apart differ more than most changes do, so the
store is built once and each run times ``remember`` of the same 150 new memories on a fresh
copy of it (their vectors cached, as :func:`bench.hygiene.time_remember` does: the search and
the decision, not the model). Runs of the two versions alternate; compare the medians.

    python -m bench.remember_ab build DIR            # once: 10,000 synthetic memories
    python -m bench.remember_ab run DIR LABEL        # one JSON line: wall and CPU ms
    python -m bench.remember_ab summary FILE         # medians per label prefix

The version timed is whichever ``localmind`` Python imports (see docs/benchmarks.md, "Remember's
judgment, round 3", for running the version before a change from ``git archive``).
"""

from __future__ import annotations

import json
import shutil
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

import localmind
from bench import synthetic
from bench.hygiene import TIMING_SAMPLES, TIMING_STORE_SIZE, fresh_memory
from localmind import NewMemory

STORE = "base"


def build(directory: Path) -> None:
    pool = synthetic.memories(TIMING_STORE_SIZE + TIMING_SAMPLES)
    stored, new = pool[:TIMING_STORE_SIZE], pool[TIMING_STORE_SIZE:]
    directory.mkdir(parents=True, exist_ok=True)
    with fresh_memory(directory, STORE, namespace="warm-up") as warm_up:
        warm_up.remember_many(
            (NewMemory(m.content) for m in new), check=False
        )  # caches their vectors
    with fresh_memory(directory, STORE) as memory:
        memory.remember_many(  # a store to time remember in: loaded as before, unjudged
            (
                NewMemory(m.content, importance=m.importance, created_at=m.created_at)
                for m in stored
            ),
            check=False,
        )


def run(directory: Path, label: str) -> dict[str, object]:
    new = synthetic.memories(TIMING_STORE_SIZE + TIMING_SAMPLES)[TIMING_STORE_SIZE:]
    copy = directory / f"run-{label}"
    shutil.rmtree(copy, ignore_errors=True)
    copy.mkdir()
    for path in directory.glob(f"{STORE}.db*"):
        shutil.copy(path, copy / path.name)
    wall: list[float] = []
    cpu: list[float] = []
    try:
        with fresh_memory(copy, STORE) as memory:
            for item in new:
                started, used = time.perf_counter(), time.process_time()
                memory.remember(item.content, created_at=item.created_at)
                wall.append((time.perf_counter() - started) * 1000)
                cpu.append((time.process_time() - used) * 1000)
    finally:
        shutil.rmtree(copy)
    return {
        "label": label,
        "code": str(Path(localmind.__file__).parent),
        "median_ms": round(statistics.median(wall), 2),
        "p95_ms": round(sorted(wall)[int(0.95 * len(wall)) - 1], 2),
        "cpu_median_ms": round(statistics.median(cpu), 2),
    }


def summary(path: Path) -> str:
    """Per label prefix (``before-3`` → ``before``): runs, median of the wall medians and of
    the CPU medians."""
    runs: dict[str, list[dict[str, float]]] = defaultdict(list)
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("{"):
            row = json.loads(line)
            runs[str(row["label"]).split("-")[0]].append(row)
    return "\n".join(
        f"{name}: {len(rows)} runs, wall median {statistics.median(r['median_ms'] for r in rows)}"
        f" ms, CPU median {statistics.median(r['cpu_median_ms'] for r in rows)} ms"
        for name, rows in runs.items()
    )


def main(argv: list[str]) -> int:
    if len(argv) >= 2 and argv[0] == "build":
        build(Path(argv[1]))
    elif len(argv) >= 3 and argv[0] == "run":
        print(json.dumps(run(Path(argv[1]), argv[2])))
    elif len(argv) >= 2 and argv[0] == "summary":
        print(summary(Path(argv[1])))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""``python -m bench.embedder_speed [KEY ...]``: what each offline embedder costs, in CPU time.

Each embedder (``bench.embedders.CHOICES``: use, e5, wordllama, minilm) runs in a fresh process:
the model's load time and the memory it adds (peak RSS after loading and embedding, minus the
process before), the personal set's 343 memories embedded in batches of 64 (texts per
CPU-second), and one query at a time, a short question and a ~700-character chat query (CPU-ms
each, median of many). CPU time (``time.process_time``, every thread of the process) because the
machine is shared: a busy neighbour stretches the wall clock, not the CPU a text needs.
"""

from __future__ import annotations

import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEFAULT_KEYS = ("use", "wordllama", "e5")
REPEATS = 30


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure(key: str) -> dict[str, float | str]:
    """In this process: ``key``'s costs (run it in a fresh one, as ``main`` does)."""
    from bench import personal
    from bench.embedders import CHOICES

    memories = [m.text for m in personal.load_memories()]
    questions = [q.question for q in personal.load_questions()][:REPEATS]
    chat = " ".join(memories[:12])[:700]
    before = _rss_mb()
    with tempfile.TemporaryDirectory() as scratch:
        wall, cpu = time.perf_counter(), time.process_time()
        embedder = CHOICES[key].make(Path(scratch))
        embedder.embed_query(["warm-up"])
        load = {"load_s": time.perf_counter() - wall, "load_cpu_s": time.process_time() - cpu}
        cpu = time.process_time()
        for start in range(0, len(memories), 64):
            embedder.embed_documents(memories[start : start + 64])
        batch_cpu = time.process_time() - cpu
        short, long = [], []
        for question in questions:
            cpu = time.process_time()
            embedder.embed_query([question])
            short.append(1000 * (time.process_time() - cpu))
            cpu = time.process_time()
            embedder.embed_query([chat])
            long.append(1000 * (time.process_time() - cpu))
    return {
        "embedder": CHOICES[key].label,
        **load,
        "texts_per_cpu_s": len(memories) / batch_cpu,
        "short_query_cpu_ms": statistics.median(short),
        "chat_query_cpu_ms": statistics.median(long),
        "rss_added_mb": _rss_mb() - before,
    }


def main(keys: list[str]) -> int:
    rows = []
    for key in keys or DEFAULT_KEYS:
        done = subprocess.run(
            [sys.executable, "-m", "bench.embedder_speed", "--one", key],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode:
            print(f"{key}: not measured ({done.stderr.strip().splitlines()[-1:]})")
            continue
        rows.append(json.loads(done.stdout.strip().splitlines()[-1]))
    print(
        "| embedder | load s (CPU s) | memories per CPU-second | short query CPU-ms | "
        "chat query CPU-ms | RSS added MB |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r['embedder']} | {r['load_s']:.2f} ({r['load_cpu_s']:.2f}) | "
            f"{r['texts_per_cpu_s']:,.0f} | {r['short_query_cpu_ms']:.2f} | "
            f"{r['chat_query_cpu_ms']:.2f} | {r['rss_added_mb']:.0f} |"
        )
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--one"]:
        print(json.dumps(measure(sys.argv[2])))
        sys.exit(0)
    sys.exit(main(sys.argv[1:]))

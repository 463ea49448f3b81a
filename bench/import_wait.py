"""How long another program's ``localmind add`` waits while ``localmind import`` runs:
``python -m bench import-wait --lines 5000``.

Synthetic memories (:mod:`bench.synthetic`, as facts, so every line is judged) are written to
a JSON-lines file and imported by a real ``localmind import`` process into a store of one
memory; meanwhile this process runs ``localmind add`` after ``localmind add``, each a new
process, until the import ends. Reported: the import's own summary and time, and each add's
start (seconds after the import started), wall time and outcome. An add that waits for the
write lock longer than the busy timeout (10 s) fails as busy. The synthetic lines are built
from templates, so they are much alike: most are queued for review (the worst case).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import synthetic

PASSPHRASE = "import-wait-bench"


def _localmind(db: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "localmind", "--db", str(db), *args]
    return subprocess.run(command, env=env, capture_output=True, text=True, check=False)


def run(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="bench-import-wait-") as folder:
        directory = Path(folder)
        env = dict(
            os.environ,
            LOCALMIND_PASSPHRASE=PASSPHRASE,
            LOCALMIND_UNSAFE_TEST_KDF="1",  # a cheap KDF: the bench measures the lock
            LOCALMIND_NO_LLM="1",
            LOCALMIND_CONFIG=str(directory / "localmind.toml"),
        )
        db = directory / "memory.db"
        _localmind(db, env, "add", "I live in Berlin")
        _localmind(db, env, "config", "capacity", str(args.lines + 1000))
        source = directory / "lines.jsonl"
        lines = [
            json.dumps({"content": m.content, "type": "semantic"}, ensure_ascii=False) + "\n"
            for m in synthetic.memories(args.lines)
        ]
        source.write_text("".join(lines), encoding="utf-8")
        started = time.perf_counter()
        command = [sys.executable, "-m", "localmind", "--db", str(db), "import", str(source)]
        importing = subprocess.Popen(
            command, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
        )
        adds: list[tuple[float, float, bool]] = []
        while importing.poll() is None:
            at = time.perf_counter()
            told = _localmind(db, env, "add", f"I watered the plants ({len(adds) + 1})")
            adds.append((at - started, time.perf_counter() - at, told.returncode == 0))
        summary = (importing.communicate()[0] or "").strip()
        print(f"import of {args.lines} lines: {time.perf_counter() - started:.1f} s wall")
        print(f"  {summary}")
        for at, wall, ok in adds:
            print(f"  add at {at:6.1f} s: {wall:5.1f} s, {'ok' if ok else 'failed (busy)'}")
        failed = sum(not ok for _, _, ok in adds)
        print(f"{len(adds)} adds meanwhile, {failed} failed as busy")
        if adds:
            walls = sorted(wall for _, wall, _ in adds)
            print(
                f"add wall (each a new process, start-up included): median "
                f"{statistics.median(walls):.1f} s, worst {walls[-1]:.1f} s"
            )
    return 0

"""Child processes the reliability tests start (``python -m tests.workers.<name>``), and the
store invariants they check afterwards."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def start_worker(name: str, *args: str) -> subprocess.Popen[str]:
    """``python -m tests.workers.<name> ARGS`` from the repository, pipes open, text mode."""
    return subprocess.Popen(
        [sys.executable, "-m", f"tests.workers.{name}", *args],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )

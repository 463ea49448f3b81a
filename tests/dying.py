"""Child processes for crash tests: scripts that die at a chosen rename, and holders that keep
a store busy until the test lets go."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: A child script's first lines: every ``os.replace`` counts as a rename, and the process
#: SIGKILLs itself right after rename number ``sys.argv[KILL_AT_ARG]`` (the test passes that
#: number where the script's own text says). ``renames`` tells how many it made.
KILL_AFTER_RENAME = """
import os, signal, sys
from pathlib import Path

kill_at, renames, real_replace = int(sys.argv[{kill_at_arg}]), 0, os.replace

def replace(source, destination):
    global renames
    real_replace(source, destination)
    renames += 1
    if renames == kill_at:
        os.kill(os.getpid(), signal.SIGKILL)

os.replace = replace
"""


def dying_script(body: str, kill_at_arg: int) -> str:
    """``body`` run after the rename-counting prelude (its kill number in argv[kill_at_arg])."""
    return KILL_AFTER_RENAME.format(kill_at_arg=kill_at_arg) + body


@contextmanager
def holding(script: str, *args: str, ready: str) -> Iterator[subprocess.Popen[str]]:
    """A child running ``script`` that prints ``ready`` once it holds what it holds, and lets
    go when its standard input closes."""
    holder = subprocess.Popen(
        [sys.executable, "-c", script, *args],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == ready
        yield holder
    finally:
        holder.communicate("")

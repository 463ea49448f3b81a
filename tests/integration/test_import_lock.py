"""Reading while another program writes for long (an import holds the write lock until it
ends): the commands that only read (`check`, `list`, `stats`, `recall`, `context`,
`profile`, `show`, `conflicts`) answer at once instead of failing as "busy" after 10 s.
`check` ran FTS5's integrity command (a write); a profile due for a rebuild was saved before
it was shown. Two processes: the writer is a real one (tests/workers/hold_write.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli_support import Cli
from tests.workers.hold_write import HELD_TEXT

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def berlin(cli: Cli) -> str:
    """A memory the user added before the other program began to write."""
    return cli.add("I live in Berlin")


@pytest.fixture
def writer_holding_the_lock(cli: Cli, berlin: str) -> Iterator[subprocess.Popen[str]]:
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.workers.hold_write", str(cli.db)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.strip() == "held", process.communicate()[1]
        yield process
    finally:
        process.communicate(input="\n", timeout=60)


def test_reading_commands_answer_while_another_program_holds_the_write_lock(
    cli: Cli, berlin: str, writer_holding_the_lock: subprocess.Popen[str]
) -> None:
    # (a profile is due: none was built yet, so `profile` and `context` build one)
    reads = [
        ("check",),
        ("list",),
        ("stats",),
        ("recall", "Berlin"),
        ("context", "where do I live?"),
        ("profile",),
        ("show", berlin),
        ("conflicts",),
    ]
    for args in reads:
        started = time.monotonic()
        result = cli(*args)
        took = time.monotonic() - started
        assert result.exit_code == 0, f"{args}: {result.output}"
        assert "busy" not in result.output
        assert took < 8, f"{args} waited {took:.1f} s for the writer"
        assert HELD_TEXT not in result.output  # the uncommitted write is not seen
    assert "Berlin" in cli.ok("context", "where do I live?").stdout
    assert "Berlin" in cli.ok("profile").stdout

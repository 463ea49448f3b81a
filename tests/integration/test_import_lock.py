"""Reading while another program writes for long (an import holds the write lock until it
ends): the commands that only read (`check`, `list`, `stats`, `recall`, `context`,
`profile`, `show`, `conflicts`) answer at once instead of failing as "busy" after 10 s.
`check` ran FTS5's integrity command (a write); a profile due for a rebuild was saved before
it was shown. Two processes: the writer is a real one (tests/workers/hold_write.py)."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from localmind import Memory
from localmind.governance import LAST_MAINTENANCE
from tests.cli_support import Cli
from tests.conftest import DAY, FAST_KDF, PASSPHRASE
from tests.integration.test_import_all_or_nothing import _import_process, fillers
from tests.workers import start_worker
from tests.workers.hold_write import HELD_TEXT

pytestmark = pytest.mark.slow


@pytest.fixture
def berlin(cli: Cli) -> str:
    """A memory the user added before the other program began to write."""
    return cli.add("I live in Berlin")


@pytest.fixture
def writer_holding_the_lock(cli: Cli, berlin: str) -> Iterator[subprocess.Popen[str]]:
    process = start_worker("hold_write", str(cli.db))
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.strip() == "held", process.communicate()[1]
        yield process
    finally:
        if process.poll() is None:
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


@pytest.fixture
def maintenance_due(cli: Cli) -> None:
    """The daily maintenance is due: the last ran two days ago."""
    with Memory.open(cli.db, PASSPHRASE, kdf=FAST_KDF, maintain=False) as memory:
        memory.set_meta(LAST_MAINTENANCE, repr(time.time() - 2 * DAY))


def test_a_daily_maintenance_due_is_put_off_while_another_program_writes(
    cli: Cli, berlin: str, maintenance_due: None, writer_holding_the_lock: subprocess.Popen[str]
) -> None:
    """Every command runs the daily maintenance when it opens a store where it is due: that
    write waited 10 s behind an import and failed `list` and `stats` as busy."""
    for args in (("list",), ("stats",)):
        started = time.monotonic()
        result = cli(*args)
        assert result.exit_code == 0, f"{args}: {result.output}"
        assert time.monotonic() - started < 8
    assert cli.json("stats")["last_maintenance"] < time.time() - DAY  # put off, not run
    writer_holding_the_lock.communicate(input="\n", timeout=60)  # the writer ends
    cli.ok("list")  # the next command runs it
    assert cli.json("stats")["last_maintenance"] > time.time() - 60


def test_an_import_prepares_before_it_takes_the_write_lock_so_writes_meanwhile_go_through(
    cli: Cli, store: Path, tmp_path: Path
) -> None:
    """Embedding (and reading what each line says) is the slow part of an import; done before
    the write lock is taken, another program's `add` meanwhile is written at once instead of
    waiting behind it (and failing as busy after 10 s)."""
    cli.ok("config", "capacity", "5000")
    cli.add("I live in Berlin")  # (the model is loaded: an add takes well under a second)
    source = tmp_path / "notes.txt"
    source.write_text("\n".join(fillers(2000)) + "\n", encoding="utf-8")
    child = _import_process(store, source)
    assert child.stderr is not None
    # The progress bar's label: the import has opened the store and begun.
    assert child.stderr.read(len("Importing")) == "Importing", child.communicate()[1]
    added = []
    for text in ("I play the cello", "My sister lives in Munich", "I run on Sundays"):
        started = time.monotonic()
        result = cli("add", text)
        took = time.monotonic() - started
        assert result.exit_code == 0, result.output
        assert took < 5, f"an add waited {took:.1f} s behind the import"
        added.append(text)
    stdout, stderr = child.communicate(timeout=300)
    assert child.returncode == 0, stderr
    assert stdout.startswith("Imported 2000 memories"), stdout
    assert cli.json("stats")["active"] == 2004
    assert set(cli.contents("--source", "cli")) == {"I live in Berlin", *added}

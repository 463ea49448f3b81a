"""`localmind` with no arguments: the TUI in a terminal, the command line otherwise."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from localmind.keys import UNSAFE_TEST_KDF_ENV
from tests.conftest import FAST_KDF, PASSPHRASE
from tui import launcher


def test_the_tui_needs_no_arguments_and_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert launcher.wants_tui([])
    assert not launcher.wants_tui(["list"])
    monkeypatch.setattr(sys.stdout, "isatty", lambda: False)
    assert not launcher.wants_tui([])


def test_without_a_terminal_the_entry_point_keeps_the_command_line(tmp_path: Path) -> None:
    from localmind import Memory

    db = tmp_path / "memory.db"
    Memory.open(db, PASSPHRASE, kdf=FAST_KDF).close()
    result = subprocess.run(
        [sys.executable, "-c", "from tui.launcher import main; main()"],
        env={
            "LOCALMIND_DB": str(db),
            "LOCALMIND_PASSPHRASE": PASSPHRASE,
            "PATH": "",
            UNSAFE_TEST_KDF_ENV: "1",  # the store's cheap test key derivation
        },
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "0 memories" in result.stdout
    assert "textual" not in result.stderr


def test_global_options_open_the_tui_with_them() -> None:
    assert launcher.tui_options([]) == {}
    assert launcher.tui_options(["--db", "/tmp/x.db", "--user=alice", "--no-llm"]) == {
        "store": "/tmp/x.db",
        "user": "alice",
        "llm.enabled": False,
    }
    assert launcher.tui_options(["--db", "/tmp/x.db", "list"]) is None
    assert launcher.tui_options(["--db"]) is None
    assert launcher.tui_options(["--help"]) is None
    assert launcher.tui_options(["--version"]) is None


# Ctrl-C while the entry point imports the core (the first second of every command): an
# import hook raises KeyboardInterrupt there, as the terminal's SIGINT would, deterministically.
CTRL_C_WHILE_IMPORTING = """
import sys

class CtrlC:
    def find_spec(self, name, path=None, target=None):
        if name == "localmind.recall":
            raise KeyboardInterrupt
        return None

sys.meta_path.insert(0, CtrlC())
from tui.launcher import main
sys.argv = ["localmind", "recall", "where do I swim"]
main()
"""


def test_ctrl_c_in_the_first_second_says_interrupted_without_a_traceback() -> None:
    """review15b DV8: a Ctrl-C while the core was being imported printed a page of traceback."""
    result = subprocess.run(
        [sys.executable, "-c", CTRL_C_WHILE_IMPORTING],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=120,
    )
    assert (result.returncode, result.stderr) == (130, "\nInterrupted.\n")

"""Running the ``localmind`` command line in-process in tests."""

from __future__ import annotations

import json
import re
import signal
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

from localmind.cli import cli as localmind_cli
from tests.conftest import PASSPHRASE
from tests.ollama_server import unused_port_host

REMEMBERED = re.compile(r"^Remembered (\w{26}) \((\w+)\)$")


@dataclass
class Cli:
    """``localmind`` run in-process against one store, with the passphrase in the environment."""

    db: Path
    passphrase: str | None = PASSPHRASE

    def __call__(self, *args: str, input: str | bytes | None = None, **env: str | None) -> Result:
        environment: dict[str, str | None] = {
            "LOCALMIND_DB": str(self.db),
            "LOCALMIND_PASSPHRASE": self.passphrase,
            "LOCALMIND_USER": None,
            "LOCALMIND_EMBEDDER": None,
            "LOCALMIND_NEW_PASSPHRASE": None,
            "LOCALMIND_MODEL": None,
            "LOCALMIND_NO_LLM": None,
            "LOCALMIND_LLM": None,
            "LOCALMIND_LLM_URL": None,
            "LOCALMIND_LLM_API_KEY": None,
            # a configuration file of the test's own, beside its store (none until a test sets)
            "LOCALMIND_CONFIG": str(self.db.parent / "localmind.toml"),
            # Never the developer's own Ollama: a server that is down, unless a test says.
            "OLLAMA_HOST": unused_port_host(),
        }
        environment.update(env)
        return CliRunner().invoke(
            localmind_cli, list(args), input=input, env=environment, catch_exceptions=False
        )

    def ok(self, *args: str, input: str | bytes | None = None, **env: str | None) -> Result:
        result = self(*args, input=input, **env)
        assert result.exit_code == 0, result.output
        return result

    def skipping(self, *args: str, input: str | bytes | None = None, **env: str | None) -> Result:
        """An import that kept the good lines and skipped bad ones: exit status 3."""
        result = self(*args, input=input, **env)
        assert result.exit_code == 3, result.output
        return result

    def json(self, *args: str, **env: str | None) -> Any:
        return json.loads(self.ok(*args, "--json", **env).stdout)

    def add(self, text: str, *options: str, **env: str | None) -> str:
        """Add a memory; return its id, read from what the CLI printed first (a note of what
        the capacity limit archived may follow)."""
        output = self.ok("add", text, *options, **env).stdout.strip()
        match = REMEMBERED.match(output.splitlines()[0] if output else "")
        assert match, "add did not say what it remembered"
        return match.group(1)

    def contents(self, *options: str, **env: str | None) -> list[str]:
        return [item["content"] for item in self.json("list", *options, **env)]


def files_of(db: Path) -> dict[str, bytes]:
    """Every file of the store (database, key file, WAL and other sidecars) with its bytes;
    not the empty lock files (the key file's, which the first program to open the store
    makes, and the sync lock, sync/lock.py)."""
    return {
        p.name: p.read_bytes()
        for p in sorted(db.parent.glob(db.name + "*"))
        if p.name not in (db.name + ".lock", db.name + ".sync.lock")
    }


def assert_error(result: Result, fragment: str, exit_code: int = 1) -> None:
    """A failed command: the given exit code, nothing on stdout, and the error on stderr as one
    line starting with ``Error:`` (usage errors put click's usage hint before that line)."""
    assert result.exit_code == exit_code, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    if exit_code == 1:
        assert len(lines) == 1, result.stderr
    assert lines[-1].startswith("Error: "), result.stderr
    assert fragment in lines[-1]


def ctrl_c_as_at_a_terminal() -> None:
    """``preexec_fn`` of a program a test stops with SIGINT as Ctrl+C stops it at a terminal,
    where SIGINT is at its default. A test run started in the background by a non-interactive
    shell (``.ci/run > log &``, nohup) has SIGINT ignored, every program it starts inherits
    that (exec keeps an ignored signal ignored), and Python then never turns SIGINT into
    KeyboardInterrupt: ``sync watch`` ran on past the test's 60 s (CI, ci9a)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)

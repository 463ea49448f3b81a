"""Issue 18 item 10: `restore --force` killed (SIGKILL) at any point while it puts the backup
in place. The next ordinary command finishes the restore (or, killed before it began to touch
the store, finds the store as it was); it never creates a new empty store, and the store that
was replaced is kept aside, whole."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from localmind import Memory
from localmind.backup import backup_store
from tests.cli_support import Cli
from tests.conftest import FAST_KDF, PASSPHRASE
from tests.dying import dying_script

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]

#: Restores the backup over the store, SIGKILLing itself right after rename number KILL_AT
#: (every rename of the restore goes through os.replace); says how many it made otherwise.
RESTORE_AND_DIE = dying_script(
    """
from localmind.backup import restore_backup

restore_backup(Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[4], replace=True)
print(renames)
""",
    kill_at_arg=3,
)


def _restore(backup: Path, target: Path, kill_at: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", RESTORE_AND_DIE, str(backup), str(target), str(kill_at), PASSPHRASE],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )


def _contents(cli: Cli) -> list[str]:
    return sorted(cli.contents())


def test_a_restore_killed_at_any_rename_is_finished_by_the_next_command(
    tmp_path: Path,
) -> None:
    source, backup = tmp_path / "source.db", tmp_path / "backup.db"
    with Memory.open(source, PASSPHRASE, kdf=FAST_KDF) as memory:
        memory.remember("The backed-up memory: my bike lock code is 4921")
    backup_store(source, backup, PASSPHRASE)

    template = tmp_path / "template"
    template.mkdir()
    with Memory.open(template / "memory.db", PASSPHRASE, kdf=FAST_KDF) as memory:
        memory.remember("The store's own memory: I moved to Porto")

    kill_at, finished = 1, False
    while not finished:
        run = tmp_path / f"kill-{kill_at}"
        run.mkdir()
        target = run / "memory.db"
        for name in ("memory.db", "memory.db.key"):
            (run / name).write_bytes((template / name).read_bytes())
            os.chmod(run / name, 0o600)

        restored = _restore(backup, target, kill_at)
        finished = restored.returncode == 0
        if not finished:
            assert restored.returncode == -signal.SIGKILL, restored.stderr

        # The next ordinary command: the store is there, never a new empty one.
        cli = Cli(target)
        result = cli.ok("list", "--json")
        assert "Created a new" not in result.stderr
        contents = _contents(cli)
        if contents == ["The store's own memory: I moved to Porto"]:
            assert kill_at == 1, f"killed after rename {kill_at}: the restore was lost"
        else:
            assert contents == ["The backed-up memory: my bike lock code is 4921"], kill_at
            # ... and the store it replaced is kept aside, whole, with its key file.
            with Memory.open(run / "memory.db.before-restore", PASSPHRASE) as aside:
                assert [m.content for m in aside.list_memories()] == [
                    "The store's own memory: I moved to Porto"
                ]
        leftovers = sorted(p.name for p in run.iterdir() if ".swap" in p.name or p.suffix == ".tmp")
        assert leftovers == [], kill_at
        kill_at += 1
    assert kill_at > 4  # it was killed at every rename of the restore before it ran through

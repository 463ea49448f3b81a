"""Issue 18 items 5 and 6: `passwd --rotate` gives the store a new data key, so an old key file
and the old passphrase no longer open it; plain `passwd` says that they still do; two `passwd`
at once cannot both report success."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from localmind import Memory, NewMemory
from localmind.errors import NotAStore, WrongPassphrase
from localmind.keys import key_file_for
from localmind.rotation import rotate_data_key
from tests.cli_support import Cli, assert_error, files_of
from tests.conftest import PASSPHRASE
from tests.dying import dying_script, holding

ROOT = Path(__file__).resolve().parents[2]
NEW = "a brand new passphrase"


def _thief_opens(db: Path, old_key_file: bytes, where: Path) -> list[str]:
    """What someone holding an old copy of the key file and the old passphrase reads from the
    store as it is now (a copy of the current database beside the old key file)."""
    where.mkdir()
    stolen = where / "memory.db"
    shutil.copyfile(db, stolen)
    key_file_for(stolen).write_bytes(old_key_file)
    with Memory.open(stolen, PASSPHRASE) as memory:
        return [m.content for m in memory.list_memories()]


def test_without_rotate_an_old_key_file_still_opens_the_store_and_passwd_says_so(
    cli: Cli, tmp_path: Path
) -> None:
    cli.add("My bank PIN is 4921")
    old_key_file = key_file_for(cli.db).read_bytes()
    changed = cli.ok("passwd", LOCALMIND_NEW_PASSPHRASE=NEW)
    assert "still opens old copies of this store" in changed.stdout
    assert "localmind passwd --rotate" in changed.stdout
    assert _thief_opens(cli.db, old_key_file, tmp_path / "thief") == ["My bank PIN is 4921"]


def test_rotate_re_encrypts_so_an_old_key_file_opens_nothing(cli: Cli, tmp_path: Path) -> None:
    cli.add("My bank PIN is 4921")
    cli.add("用户喜欢 Rust 编程语言")
    old_key_file = key_file_for(cli.db).read_bytes()
    old_database = cli.db.read_bytes()

    rotated = cli.ok("passwd", "--rotate", LOCALMIND_NEW_PASSPHRASE=NEW)
    assert "re-encrypted under a new key (2 memories)" in rotated.stdout

    with pytest.raises(NotAStore):
        _thief_opens(cli.db, old_key_file, tmp_path / "thief")
    assert cli.db.read_bytes() != old_database
    cli.passphrase = NEW
    assert sorted(cli.contents()) == ["My bank PIN is 4921", "用户喜欢 Rust 编程语言"]
    assert "Rust" in cli.ok("recall", "编程").stdout  # vectors and keyword index came along
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "memory.db",
        "memory.db.key",
        "memory.db.lock",
        "thief",
    ]


# the progress lines only: rotation itself is checked by this file's other tests
@pytest.mark.slow
def test_rotation_reports_progress_page_by_page(store: Path) -> None:
    topics = ["tea", "cello", "Rust", "Porto", "chess", "bread"]
    with Memory.open(store, PASSPHRASE) as memory:
        memory.remember_many(
            NewMemory(f"Note {n} about {topics[n % 6]}: " + f"{n * 7919} " * 300) for n in range(30)
        )
    steps: list[tuple[int, int]] = []
    report = rotate_data_key(
        store, PASSPHRASE, NEW, progress=lambda d, t: steps.append((d, t)), pages_per_step=2
    )
    assert report.memories == 30
    assert len(steps) > 3 and steps[-1][0] == steps[-1][1] == report.pages
    assert [done for done, _ in steps] == sorted(done for done, _ in steps)
    with Memory.open(store, NEW) as memory:
        assert len(memory.list_memories(limit=100)) == 30


def test_a_wrong_passphrase_rotates_nothing(cli: Cli) -> None:
    cli.add("My bank PIN is 4921")
    before = files_of(cli.db)
    result = cli(
        "passwd", "--rotate", LOCALMIND_PASSPHRASE="a wrong guess", LOCALMIND_NEW_PASSPHRASE=NEW
    )
    assert_error(result, "Wrong passphrase")
    assert files_of(cli.db) == before


# --- two passwd at once ---------------------------------------------------------------------

#: ``localmind passwd`` started at the same instant (argv[1], a wall-clock time) in each child.
PASSWD_AT = """
import sys, time
from localmind.cli import main
time.sleep(max(0.0, float(sys.argv[1]) - time.time()))
sys.argv = ["localmind", "passwd"]
main()
"""


def _passwd(db: Path, new: str, at: float) -> subprocess.Popen[str]:
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "LOCALMIND_DB": str(db),
        "LOCALMIND_PASSPHRASE": PASSPHRASE,
        "LOCALMIND_NEW_PASSPHRASE": new,
    }
    return subprocess.Popen(
        [sys.executable, "-c", PASSWD_AT, repr(at)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.slow
def test_two_passwd_at_once_one_is_refused_and_the_reported_passphrase_works(
    store: Path,
) -> None:
    at = time.time() + 4.0  # both are loaded by then and start together
    children = {new: _passwd(store, new, at) for new in ("first new passphrase", "second one")}
    results = {
        new: (child.communicate(timeout=120), child.returncode) for new, child in children.items()
    }
    succeeded = [new for new, (_, code) in results.items() if code == 0]
    assert len(succeeded) == 1, results
    (winner,) = succeeded
    (loser,) = set(results) - {winner}
    (_, err), _ = results[loser]
    assert "Another localmind program is changing the key" in err or "Wrong passphrase" in err
    assert "Passphrase changed." in results[winner][0][0]
    with Memory.open(store, winner) as memory:
        assert memory.list_memories() == []


HOLD_THE_LOCK = """
import sys
from pathlib import Path
from localmind.locks import key_file_lock
with key_file_lock(Path(sys.argv[1])):
    print("held", flush=True)
    sys.stdin.read()
"""


def test_passwd_is_refused_while_another_holds_the_key_file(cli: Cli) -> None:
    before = files_of(cli.db)
    with holding(HOLD_THE_LOCK, str(cli.db), ready="held"):
        result = cli("passwd", LOCALMIND_NEW_PASSPHRASE=NEW)
        assert_error(result, "the passphrase was not changed")
        assert files_of(cli.db) == before


# --- crashes and other programs -------------------------------------------------------------

#: Rotates the store's key, SIGKILLing itself right after rename number KILL_AT.
ROTATE_AND_DIE = dying_script(
    """
from localmind.rotation import rotate_data_key

rotate_data_key(Path(sys.argv[1]), sys.argv[3], sys.argv[4])
""",
    kill_at_arg=2,
)


@pytest.mark.slow
def test_a_rotation_killed_at_any_rename_leaves_one_whole_store(store: Path) -> None:
    with Memory.open(store, PASSPHRASE) as memory:
        memory.remember("My bank PIN is 4921")
    passphrase, kill_at, finished = PASSPHRASE, 1, False
    while not finished:
        new = f"passphrase number {kill_at}"
        run = subprocess.run(
            [sys.executable, "-c", ROTATE_AND_DIE, str(store), str(kill_at), passphrase, new],
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            capture_output=True,
            text=True,
            timeout=120,
        )
        finished = run.returncode == 0
        assert finished or run.returncode == -9, run.stderr
        # The next open finds either the old store or the rotated one, whole.
        try:
            memory = Memory.open(store, new)
            passphrase = new
        except WrongPassphrase:
            assert kill_at == 1, f"killed after rename {kill_at}: the rotation was lost"
            memory = Memory.open(store, passphrase)
        with memory:
            assert [m.content for m in memory.list_memories()] == ["My bank PIN is 4921"]
        assert not [p for p in store.parent.iterdir() if ".swap" in p.name]
        kill_at += 1
    assert kill_at > 3


HOLD_THE_STORE_OPEN = """
import sys
from localmind import Memory
with Memory.open(sys.argv[1], sys.argv[2]):
    print("open", flush=True)
    sys.stdin.read()
"""


def test_rotation_is_refused_while_another_program_has_the_store_open(cli: Cli) -> None:
    cli.add("My bank PIN is 4921")
    with holding(HOLD_THE_STORE_OPEN, str(cli.db), PASSPHRASE, ready="open"):
        before = files_of(cli.db)
        result = cli("passwd", "--rotate", LOCALMIND_NEW_PASSPHRASE=NEW)
        assert_error(result, "is open in another program")
        assert files_of(cli.db) == before
    assert cli.contents() == ["My bank PIN is 4921"]  # the old passphrase still opens it

"""The corruption drill: bytes flipped in the database (a page in the middle, page 1) and in
its write-ahead log. Opening or reading says the store is damaged and how to restore it; nothing
wrong is ever shown, and the damaged files are left as they were."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from localmind import Memory, NewMemory
from localmind.backup import check_store
from localmind.errors import LocalmindError, StoreDamaged
from localmind.keys import key_file_for
from localmind.store.wal import wal_path
from tests.cli_support import Cli, assert_error, files_of
from tests.conftest import PASSPHRASE, FakeClock
from tests.workers.invariants import raw_store as raw

RESTORE_HINT = "Restore from a backup: localmind restore FILE"
TOPICS = ["tea", "hiking", "Rust", "piano", "the garden", "Lisbon", "birds", "chess"]
NOTES = [f"Note {n}: I spent the evening on {TOPICS[n % len(TOPICS)]}" for n in range(80)]


def pages_of(path: Path, table: str) -> list[int]:
    """The pages holding ``table``'s rows (its b-tree's leaves), in file order."""
    with raw(path) as db:
        rows = db.execute(
            "SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY pageno",
            (table,),
        ).fetchall()
        return [row[0] for row in rows]


def flip(path: Path, offset: int) -> None:
    data = bytearray(path.read_bytes())
    data[offset] ^= 0x01
    path.write_bytes(bytes(data))


def flip_in_page(path: Path, page: int, page_size: int = 8192) -> None:
    """Flip one bit in the middle of a (1-based) page."""
    flip(path, (page - 1) * page_size + page_size // 2)


@pytest.fixture
def filled(open_memory: Callable[..., Memory], store_path: Path) -> Path:
    """A closed store of 80 memories (all in the database file, none in a log)."""
    with open_memory() as memory:
        memory.remember_many(NewMemory(note) for note in NOTES)
    return store_path


def unchanged(db: Path) -> dict[str, bytes]:
    """The database and key file; and a log, if one is left, holds nothing (a connection that
    met damage cannot checkpoint on close, so it may leave an empty log and index behind)."""
    if wal_path(db).exists():
        assert wal_path(db).stat().st_size == 0
    return {p.name: p.read_bytes() for p in (db, key_file_for(db))}


def assert_damage_reported(cli: Cli, *command: str) -> None:
    result = cli(*command)
    assert_error(result, "is damaged")
    assert RESTORE_HINT in result.stderr
    assert str(cli.db) in result.stderr


def test_a_damaged_page_of_memories_is_reported_never_shown(filled: Path) -> None:
    cli = Cli(filled)
    leaves = pages_of(filled, "memories")
    assert len(leaves) >= 2
    with raw(filled) as db:
        rows = db.execute("SELECT id FROM memories ORDER BY rowid").fetchall()
    flip_in_page(filled, leaves[len(leaves) // 2])
    damaged = unchanged(filled)

    assert_damage_reported(cli, "list", "--limit", "500")
    # every memory a candidate (threshold 0), so recall reads the damaged page
    assert_damage_reported(cli, "recall", "an evening of chess", "--threshold", "0", "-n", "100")
    # showing a memory whose row sits on the damaged page reports the damage
    shown = [cli("show", memory_id) for (memory_id,) in rows[:: max(1, len(rows) // 16)]]
    assert any("is damaged" in r.stderr for r in shown)
    assert all(r.exit_code == 0 or "is damaged" in r.stderr for r in shown)
    assert_damage_reported(cli, "check")
    assert_damage_reported(cli, "backup", str(filled.with_name("copy.db")))
    assert [p.name for p in filled.parent.iterdir() if "copy" in p.name] == []
    assert unchanged(filled) == damaged  # reading a damaged store changes nothing


def test_a_damaged_vector_page_stops_recall_and_leaves_list_exact(filled: Path) -> None:
    cli = Cli(filled)
    listed = cli.ok("list", "--limit", "500", "--json").stdout
    vector_pages = pages_of(filled, "memory_vec")
    flip_in_page(filled, vector_pages[len(vector_pages) // 2])

    # Listing never reads a vector: it shows exactly what it showed before.
    assert cli.ok("list", "--limit", "500", "--json").stdout == listed
    # Recall reads them: it stops with the damage, never ranks on a damaged vector.
    # every memory a candidate (threshold 0), so recall reads the damaged page
    assert_damage_reported(cli, "recall", "an evening of chess", "--threshold", "0", "-n", "100")
    assert_damage_reported(cli, "check")
    # A backup copies every page: it stops at the damaged one and leaves no file.
    result = cli("backup", str(filled.with_name("copy.db")))
    assert_error(result, "so no backup was made")
    assert RESTORE_HINT in result.stderr
    assert [p.name for p in filled.parent.iterdir() if "copy" in p.name] == []


def test_a_damaged_first_page_is_reported_on_open(filled: Path, clock: FakeClock) -> None:
    flip(filled, 4000)  # page 1 holds the schema; it fails its tag on the first read
    damaged = unchanged(filled)
    cli = Cli(filled)
    for command in (["list"], ["recall", "tea"], ["stats"], ["backup", str(filled) + ".bak"]):
        assert_damage_reported(cli, *command)
    with pytest.raises(StoreDamaged, match="is damaged") as raised:
        Memory.open(filled, PASSPHRASE, clock=clock)
    assert RESTORE_HINT in str(raised.value)
    assert unchanged(filled) == damaged
    assert not Path(str(filled) + ".bak").exists()


def test_the_library_raises_store_damaged_when_a_read_meets_a_damaged_page(
    filled: Path, clock: FakeClock
) -> None:
    memory = Memory.open(filled, PASSPHRASE, clock=clock)  # opened while still whole
    vector_pages = pages_of(filled, "memory_vec")
    for page in vector_pages:  # every vector page, so no recall can avoid one
        flip_in_page(filled, page)
    try:
        with pytest.raises(StoreDamaged) as raised:
            memory.recall("an evening of chess")
        assert isinstance(raised.value, LocalmindError)  # every front end shows these
        assert str(filled) in str(raised.value) and RESTORE_HINT in str(raised.value)
    finally:
        memory.close()


def crash_image(open_memory: Callable[..., Memory], store_path: Path, into: Path) -> int:
    """Copy a store as a crash would leave it: its latest transactions only in the WAL.
    Returns how many memories the WAL holds, each written in its own transaction."""
    open_memory().close()  # the empty store, checkpointed: the log starts afresh
    memory = open_memory()
    for note in NOTES[:6]:
        memory.remember(note)
    into.mkdir()
    for suffix in ("", ".key", "-wal"):
        shutil.copy(f"{store_path}{suffix}", f"{into / store_path.name}{suffix}")
    memory.close()
    return 6


def wal_frames(db: Path) -> int:
    return (wal_path(db).stat().st_size - 32) // (24 + 8192)


def test_a_crash_image_opens_with_every_committed_memory(
    open_memory: Callable[..., Memory], store_path: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "crash" / store_path.name
    written = crash_image(open_memory, store_path, copy.parent)
    assert wal_frames(copy) > written
    assert len(Cli(copy).contents()) == written


def test_a_write_cut_short_at_the_end_of_the_log_is_a_crash_not_damage(
    open_memory: Callable[..., Memory], store_path: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "crash" / store_path.name
    written = crash_image(open_memory, store_path, copy.parent)
    log = wal_path(copy)
    log.write_bytes(log.read_bytes()[:-5000])  # the last frame only half written
    # SQLite goes back to the last whole transaction, as after any crash mid-write.
    assert len(Cli(copy).contents()) == written - 1


@pytest.mark.parametrize("where", ["header", "first frame", "middle frame"])
def test_a_damaged_write_ahead_log_is_reported_not_silently_dropped(
    open_memory: Callable[..., Memory],
    store_path: Path,
    tmp_path: Path,
    clock: FakeClock,
    where: str,
) -> None:
    copy = tmp_path / "crash" / store_path.name
    crash_image(open_memory, store_path, copy.parent)
    frames = wal_frames(copy)
    offset = {
        "header": 20,  # a salt: SQLite would ignore the whole log
        "first frame": 32 + 24 + 4000,
        "middle frame": 32 + (frames // 2) * (24 + 8192) + 24 + 4000,
    }[where]
    flip(wal_path(copy), offset)
    damaged = files_of(copy)

    cli = Cli(copy)
    result = cli("list")
    assert_error(result, "its write-ahead log")
    assert RESTORE_HINT in result.stderr and "memory.db-wal aside" in result.stderr
    assert_damage_reported(cli, "recall", "tea")
    with pytest.raises(StoreDamaged, match="write-ahead log"):
        Memory.open(copy, PASSPHRASE, clock=clock)
    # The evidence stays: no checkpoint folded the surviving half of the log into the store.
    assert files_of(copy) == damaged


def test_a_damaged_store_is_repaired_by_restoring_its_backup(filled: Path, tmp_path: Path) -> None:
    cli = Cli(filled)
    backup = tmp_path / "backup.db"
    cli.ok("backup", str(backup))
    flip_in_page(filled, pages_of(filled, "memories")[0])
    assert_damage_reported(cli, "list")

    cli.ok("restore", str(backup), "--force")
    assert sorted(cli.contents("--limit", "500")) == sorted(NOTES)
    assert cli.ok("check").stdout.startswith(f"{filled} is whole: 80 memories")
    # The damaged store is kept aside, still damaged, for whoever wants to look at it.
    aside = filled.with_name(filled.name + ".before-restore")
    assert_damage_reported(Cli(aside), "list", "--limit", "500")


def test_check_finds_an_index_out_of_step_with_the_memories(filled: Path) -> None:
    with raw(filled) as db:
        db.execute("DELETE FROM memory_vec WHERE rowid IN (SELECT rowid FROM memory_vec LIMIT 2)")
    report = check_store(filled, PASSPHRASE)
    assert report.problems == [
        "2 active memories are missing from the vector index",
        "2 active memories are missing from the vector sign bits",
    ]
    result = Cli(filled)("check")
    assert_error(result, "2 active memories are missing from the vector index")

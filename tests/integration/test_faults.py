"""Issue 18 items 11 and 12: a full disk is one line of error and the store stays whole; plain
text exports are owner-only even into an existing 0644 file; the sync folder's header is
owner-only; import streams, so its memory use does not grow with the file."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import Result

from localmind import Memory
from localmind.backup import check_store
from localmind.cli import transfer
from localmind.keys import key_file_for
from sync import init_folder
from sync.folder_transport import header_path
from tests.cli_support import Cli
from tests.conftest import FAST_KDF, PASSPHRASE


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


# --- a full disk ------------------------------------------------------------------------------


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A real 4 MB tmpfs (mounting one needs root; the test is skipped without)."""
    mount_point = tmp_path / "disk"
    mount_point.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=4m,mode=0700", "tmpfs", str(mount_point)],
        capture_output=True,
        text=True,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        yield mount_point
    finally:
        subprocess.run(["umount", "--lazy", str(mount_point)], check=True)


def _fill(disk: Path, leave: int = 0) -> Path:
    """Fill ``disk`` up, leaving about ``leave`` bytes free."""
    filler = disk / "filler"
    with open(filler, "wb", buffering=0) as handle:
        try:
            while shutil.disk_usage(disk).free > leave:
                handle.write(b"\0" * min(65536, max(4096, shutil.disk_usage(disk).free - leave)))
        except OSError:
            pass
    return filler


def _says_the_disk_is_full(result: Result) -> None:
    """Exit 1, no traceback, and one error line (after the import's progress label or the
    export's plain-text warning, which come first)."""
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error: ")]
    assert errors == [result.stderr.splitlines()[-1]], result.stderr
    assert errors[0].startswith("Error: The disk holding") and "is full" in errors[0]
    assert errors[0].endswith("Free some space and try again.")


def test_a_full_disk_is_one_line_of_error_and_the_store_stays_whole(
    small_disk: Path, tmp_path: Path
) -> None:
    db = small_disk / "memory.db"
    cli = Cli(db)
    with Memory.open(db, PASSPHRASE, kdf=FAST_KDF) as memory:
        memory.remember("I prefer green tea over coffee")
    key_before = key_file_for(db).read_bytes()
    source = tmp_path / "notes.txt"
    source.write_text("".join(f"Note {n}: {'a long line of words ' * 200}\n" for n in range(12)))
    filler = _fill(small_disk, leave=32 * 1024)

    # A write that runs out of space part-way: SQLite rolls the batch back.
    _says_the_disk_is_full(cli("import", str(source)))
    _fill(small_disk)  # and nothing left at all
    for command in (
        ("add", "I play the cello on Sundays"),
        ("list",),
        ("export", "-o", str(small_disk / "export.jsonl")),
        ("backup", str(small_disk / "backup.db")),
    ):
        _says_the_disk_is_full(cli(*command))
    _says_the_disk_is_full(cli("passwd", LOCALMIND_NEW_PASSPHRASE="another passphrase"))
    assert key_file_for(db).read_bytes() == key_before

    leftovers = sorted(p.name for p in small_disk.iterdir() if p.name.endswith(".tmp"))
    assert leftovers == []
    assert not (small_disk / "export.jsonl").exists()
    assert not (small_disk / "backup.db").exists()

    filler.unlink()
    assert check_store(db, PASSPHRASE).ok
    contents = cli.contents()
    assert "I prefer green tea over coffee" in contents
    assert "I play the cello on Sundays" not in contents


# --- file modes -------------------------------------------------------------------------------


def test_an_export_into_an_existing_readable_file_becomes_owner_only(
    cli: Cli, tmp_path: Path
) -> None:
    cli.add("My bank PIN is 4921")
    output = tmp_path / "export.jsonl"
    output.write_text("an old file anyone could read\n")
    os.chmod(output, 0o644)
    cli.ok("export", "-o", str(output))
    assert _mode(output) == 0o600
    assert "4921" in output.read_text()
    cli.ok("export", "--format", "markdown", "-o", str(output))  # and again over itself
    assert _mode(output) == 0o600


def test_the_sync_folders_header_and_files_are_owner_only(memory: Memory, tmp_path: Path) -> None:
    from sync import export_pending

    shared = tmp_path / "Sync"
    os.umask(0o022)
    memory.remember("I prefer green tea over coffee")
    init_folder(memory, shared, PASSPHRASE, FAST_KDF)
    export_pending(memory, shared)
    assert _mode(header_path(shared)) == 0o600
    segments = list((shared / memory.device_id).iterdir())
    assert segments and all(_mode(p) == 0o600 for p in segments)
    assert json.loads(header_path(shared).read_text())["format"] == "localmind-sync"


# --- import streams ---------------------------------------------------------------------------

TOPICS = ["green tea", "the cello", "Rust", "Porto", "chess", "sourdough", "hiking", "jazz"]


#: What each line carries besides its text: an import that held every line it read (as one
#: once did: a 200 MB file took 4 GB) would show it at a few thousand lines.
NOTE = {"note": "kept with the line, never stored with a repeat " * 40}


def _peak_import(cli: Cli, path: Path, lines: int, tag: str, first_note: int) -> int:
    """Bytes at the peak of Python's allocations while ``localmind import`` reads a file of
    ``lines`` JSON lines (64 distinct texts new to the store, repeated: each repeat
    reinforces its memory; each line with 2 KB of metadata). Each file's notes are numbered
    from ``first_note``: a line with an earlier file's number would tell that line again (a
    retelling joins the change waiting for review), and the count of new memories is the
    check here."""
    with open(path, "w", encoding="utf-8") as handle:
        for n in range(lines):
            note = first_note + n % 64
            line = {"content": f"{tag}: I like {TOPICS[n % 8]}, note {note}", "metadata": NOTE}
            handle.write(json.dumps(line) + "\n")
    tracemalloc.start()
    try:
        result = cli.ok("import", str(path))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    new = min(lines, 64)  # the rest reinforce, and the summary says how many
    assert f"Imported {new} memories" in result.stdout
    assert lines == new or f"{lines - new} already present (same text)" in result.stdout
    return peak


@pytest.mark.slow
def test_import_memory_does_not_grow_with_the_file(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What an import holds is bounded by its batch (IMPORT_BATCH lines) and by what it
    judges before the write lock (PREPARED_AHEAD memories), whatever the file's size. Both
    are made small here, so that files of a few thousand lines are far past them (the real
    ones, 1,024 and 16,384, took files of 4,000 and 16,000 lines: 21 minutes under load)."""
    monkeypatch.setattr(transfer, "IMPORT_BATCH", 64)
    monkeypatch.setattr(transfer, "PREPARED_AHEAD", 128)
    _peak_import(cli, tmp_path / "warm.txt", 10, "warm up", 0)  # loads the model (~120 MB)
    _peak_import(cli, tmp_path / "warm2.txt", 200, "warm up more", 100)  # and every cache
    small = _peak_import(cli, tmp_path / "small.txt", 500, "small", 200)
    large = _peak_import(cli, tmp_path / "large.txt", 2_000, "large", 300)
    # Four times the lines, about the same peak: one batch at a time past the first 128
    # (holding the 1,500 lines more would be ~4 MB more).
    assert large < small * 1.2, (small, large)
    assert len(cli.contents("--limit", "1000")) == 4 * 64 - 54  # (the warm-up made 10)

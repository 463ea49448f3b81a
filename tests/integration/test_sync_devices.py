"""Sync a person can manage (issue 16 items 3, 4, 11): one folder per store, a failed join that
leaves nothing behind, laptops by name, `sync leave`, `sync forget-device`, a stranger's file
reported once."""

from __future__ import annotations

import os
import socket
import time
from datetime import datetime
from pathlib import Path

import pytest

from sync import cli as sync_cli  # registers `localmind sync`
from sync import codec
from sync import folder as sync_folder
from sync.codec import HEADER_NAME
from tests.cli_support import Cli, assert_error
from tests.conftest import PASSPHRASE


@pytest.fixture(autouse=True)
def registered() -> None:
    assert sync_cli.sync_group.name == "sync"


def device_dirs(shared: Path) -> set[str]:
    return {p.name for p in shared.iterdir() if codec.DEVICE_RE.match(p.name)}


def home_and_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str = "work"
) -> tuple[Path, Cli, Cli]:
    """A folder of two laptops, home and another called ``name`` (which has added a memory),
    compacting at every sync."""
    monkeypatch.setattr(sync_folder, "COMPACT_SEGMENTS", 1)
    shared = tmp_path / "Sync"
    home, work = Cli(tmp_path / "home.db"), Cli(tmp_path / f"{name}.db")
    home.ok("sync", "init", str(shared), "--name", "home")
    work.ok("sync", "join", str(shared), "--name", name)
    work.ok("add", "I play the cello on Sundays")
    return shared, home, work


def test_init_on_a_store_that_already_syncs_is_refused_and_names_leave(tmp_path: Path) -> None:
    shared, other = tmp_path / "Sync", tmp_path / "Other"
    home = Cli(tmp_path / "home.db")
    home.ok("add", "My favourite tea is green tea")
    home.ok("sync", "init", str(shared))
    header = (shared / HEADER_NAME).read_bytes()
    result = home("sync", "init", str(other))
    assert_error(result, "already syncs with")
    assert "localmind sync leave" in result.stderr
    assert not other.exists()
    assert (shared / HEADER_NAME).read_bytes() == header
    assert home.json("sync", "status")["folder"] == str(shared.resolve())
    Cli(tmp_path / "elsewhere.db").ok("sync", "init", str(other))  # another laptop's folder
    assert_error(home("sync", "join", str(other)), "localmind sync leave")
    assert home.json("sync", "status")["folder"] == str(shared.resolve())


def test_a_failed_join_leaves_nothing_behind_and_the_retry_works(tmp_path: Path) -> None:
    shared = tmp_path / "Sync"
    Cli(tmp_path / "home.db").ok("add", "My favourite tea is green tea")
    Cli(tmp_path / "home.db").ok("sync", "init", str(shared))
    laptop = tmp_path / "laptop"
    joining = Cli(laptop / "data" / "memory.db", passphrase="a mistyped passphrase")

    assert_error(joining("sync", "join", str(shared)), "does not open the sync folder")
    assert not laptop.exists()  # no store, no key file, not even its folder
    not_a_sync_folder = tmp_path / "Empty"
    not_a_sync_folder.mkdir()
    assert_error(joining("sync", "join", str(not_a_sync_folder)), "is not a sync folder")
    assert not laptop.exists()
    broken = tmp_path / "Broken"
    broken.mkdir()
    (broken / HEADER_NAME).write_text("{ not json")
    assert_error(joining("sync", "join", str(broken)), "not a valid localmind sync header")
    assert not laptop.exists()
    unreadable = tmp_path / "Unreadable"
    (unreadable / HEADER_NAME).mkdir(parents=True)  # not a file: cannot be read as a header
    assert_error(joining("sync", "join", str(unreadable)), "cannot be read as a sync header")
    assert not laptop.exists()

    joining.passphrase = PASSPHRASE
    assert "imported 1 change from 1 file" in joining.ok("sync", "join", str(shared)).stdout
    assert joining.contents() == ["My favourite tea is green tea"]


def test_laptops_are_shown_by_name(tmp_path: Path) -> None:
    shared = tmp_path / "Sync"
    home, work = Cli(tmp_path / "home.db"), Cli(tmp_path / "work.db")
    home.ok("sync", "init", str(shared), "--name", "home-laptop")
    work.ok("sync", "join", str(shared))  # the host name by default
    work.ok("sync", "now")
    home.ok("sync", "now")
    status = home.json("sync", "status")
    assert status["name"] == "home-laptop"
    assert [d["name"] for d in status["devices"]] == [socket.gethostname()]
    shown = home.ok("sync", "status").stdout
    assert f"This device home-laptop ({status['device_id']})" in shown
    assert f"{socket.gethostname()} ({status['devices'][0]['device_id']})" in shown
    assert "0 changes to export" in shown
    assert_error(home("sync", "join", str(shared), "--name", "a\nb"), "printable characters")


@pytest.mark.slow
def test_a_laptop_that_leaves_is_retired_and_its_memories_stay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shared, home, work = home_and_work(tmp_path, monkeypatch)
    work_id = work.json("sync", "status")["device_id"]
    left = work.ok("sync", "leave").stdout  # exports what it has not yet, first
    assert f"no longer syncs with {shared.resolve()}" in left
    assert_error(work("sync", "now"), "No sync folder")
    assert_error(work("sync", "leave"), "there is nothing to leave")
    assert [d["left"] for d in home.json("sync", "status")["devices"]] == [True]

    home.ok("add", "My favourite tea is green tea")
    said = home.ok("sync", "now").stdout
    assert f"Retired the directory of work ({work_id})" in said
    assert work_id not in device_dirs(shared)
    assert "cello" in home.ok("recall", "cello").stdout
    # Nobody is waited for any more: home compacts alone.
    home.ok("add", "The cat is called Miso")
    home.ok("sync", "now")
    home_id = home.json("sync", "status")["device_id"]
    assert any(p.name.startswith("snapshot-") for p in (shared / home_id).iterdir())
    # A laptop that joins later still gets what the one that left wrote.
    late = Cli(tmp_path / "late.db")
    late.ok("sync", "join", str(shared))
    assert "I play the cello on Sundays" in late.contents()
    # The one that left may start over elsewhere.
    work.ok("sync", "init", str(tmp_path / "Elsewhere"))


@pytest.mark.slow
def test_forget_device_stops_a_gone_laptop_from_blocking_compaction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shared, home, gone = home_and_work(tmp_path, monkeypatch, "old-laptop")
    gone.ok("sync", "now")  # ...and is never seen again
    home.ok("add", "My favourite tea is green tea")
    home.ok("sync", "now")
    home.ok("sync", "now")
    home_id = home.json("sync", "status")["device_id"]
    assert not any(p.name.startswith("snapshot-") for p in (shared / home_id).iterdir())

    assert_error(home("sync", "forget-device", "home"), "sync leave")
    unknown = home("sync", "forget-device", "laptop-x")
    assert_error(unknown, "is no device of this folder")
    assert "old-laptop (" in unknown.stderr
    gone_id = home.json("sync", "status")["devices"][0]["device_id"]
    said = home.ok("sync", "forget-device", "OLD-LAPTOP").stdout
    assert f"Forgot old-laptop ({gone_id})" in said
    assert device_dirs(shared) == {home_id}
    home.ok("sync", "now")
    assert any(p.name.startswith("snapshot-") for p in (shared / home_id).iterdir())
    late = Cli(tmp_path / "late.db")
    late.ok("sync", "join", str(shared))
    assert sorted(late.contents()) == sorted(home.contents())
    assert "I play the cello on Sundays" in late.contents()


def test_forget_device_refuses_while_its_files_are_not_applied(tmp_path: Path) -> None:
    shared = tmp_path / "Sync"
    home, gone = Cli(tmp_path / "home.db"), Cli(tmp_path / "gone.db")
    home.ok("sync", "init", str(shared), "--name", "home")
    gone.ok("sync", "join", str(shared), "--name", "old-laptop")
    gone.ok("add", "I play the cello on Sundays")
    gone.ok("sync", "now")
    gone_id = gone.json("sync", "status")["device_id"]
    segment = shared / gone_id / "00000001.seg"
    damaged = bytearray(segment.read_bytes())
    damaged[-1] ^= 1
    segment.write_bytes(bytes(damaged))
    result = home("sync", "forget-device", "old-laptop")
    assert_error(result, "1 file of old-laptop")
    assert segment.exists()


def test_a_strangers_file_is_reported_once_not_at_every_sync(tmp_path: Path) -> None:
    shared = tmp_path / "Sync"
    home = Cli(tmp_path / "home.db")
    home.ok("sync", "init", str(shared))
    (shared / "holiday-photos.txt").write_text("not localmind's")
    first = home.ok("sync", "now")
    assert "Skipped 1 file:" in first.stderr
    assert f"{shared / 'holiday-photos.txt'}: not a device directory" in first.stderr
    again = home.ok("sync", "now")
    assert again.stderr == ""
    os.utime(shared / "holiday-photos.txt", (1, 1))  # it changed: worth a line again
    assert "Skipped 1 file" in home.ok("sync", "now").stderr


def test_sync_options_have_help_and_counts_read_well(tmp_path: Path) -> None:
    home = Cli(tmp_path / "home.db")
    for command in ("now", "watch", "status", "rekey", "forget-device"):
        assert "The sync folder (default" in home.ok("sync", command, "--help").stdout
    for command in ("init", "join"):
        assert "--name" in home.ok("sync", command, "--help").stdout
    home.ok("add", "My favourite tea is green tea")
    said = home.ok("sync", "init", str(tmp_path / "Sync")).stdout
    assert "exported 1 change." in said
    assert "Exported 0 changes; imported 0 from 0 files (0 memories changed)." in (
        home.ok("sync", "now").stdout
    )


def _snapshots(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.startswith("snapshot-"))


@pytest.mark.slow
@pytest.mark.parametrize("departure", ["leave", "forget-device"])
def test_a_laptop_back_after_its_directory_was_retired_stalls_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, departure: str
) -> None:
    """A laptop that joined while work was away never saw work's first segments: work's
    return must not leave it waiting for them, nor hold work's compaction up."""
    shared, home, work = home_and_work(tmp_path, monkeypatch)
    work.ok("sync", "now")
    work.ok("add", "The cat is called Miso")
    work.ok("sync", "now")  # segments 1 and 2
    work_id = work.json("sync", "status")["device_id"]
    if departure == "leave":
        work.ok("sync", "leave")
        home.ok("sync", "now")  # retires work's directory
    else:
        home.ok("sync", "now")
        home.ok("sync", "forget-device", "work")  # work is away, not gone for good
    assert work_id not in device_dirs(shared)
    late = Cli(tmp_path / "late.db")
    late.ok("sync", "join", str(shared), "--name", "late")
    assert "I play the cello on Sundays" in late.contents()  # relayed by home

    if departure == "leave":
        work.ok("sync", "join", str(shared), "--name", "work")
    work.ok("add", "My favourite tea is green tea")
    work.ok("sync", "now")
    for laptop in (home, late, home, work):
        laptop.ok("sync", "now")
    assert sorted(late.contents()) == sorted(home.contents()) == sorted(work.contents())
    assert "My favourite tea is green tea" in late.contents()
    late_status = late.json("sync", "status")
    [seen_work] = [d for d in late_status["devices"] if d["device_id"] == work_id]
    assert seen_work["pending_segments"] == 0
    # Compaction proceeds: every laptop passed work's segments, so work folds them.
    work.ok("add", "I run on Tuesdays")
    for laptop in (work, home, late, work):
        laptop.ok("sync", "now")
    work_files = list((shared / work_id).iterdir())
    assert not [p for p in work_files if codec.SEGMENT_RE.match(p.name)], work_files
    assert _snapshots(shared / work_id)
    newcomer = Cli(tmp_path / "newcomer.db")
    newcomer.ok("sync", "join", str(shared))
    assert sorted(newcomer.contents()) == sorted(work.contents())


def test_status_names_a_laptop_silent_for_weeks_and_the_command_to_forget_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shared, home, gone = home_and_work(tmp_path, monkeypatch, "old-laptop")
    gone.ok("sync", "now")
    home.ok("sync", "now")
    assert home.json("sync", "status")["advice"] == []
    gone_id = home.json("sync", "status")["devices"][0]["device_id"]
    three_weeks_ago = time.time() - 21 * 86400
    for path in (shared / gone_id).iterdir():
        os.utime(path, (three_weeks_ago, three_weeks_ago))
    advice = (
        f"old-laptop ({gone_id}) has not written since "
        f"{datetime.fromtimestamp(three_weeks_ago).strftime('%Y-%m-%d')}; if it was this laptop "
        f"before a restore, run `localmind sync forget-device {gone_id}`"
    )
    report = home.json("sync", "status")
    assert report["advice"] == [advice]
    assert report["devices"][0]["silent"] is True
    assert advice in home.ok("sync", "status").stdout
    home.ok("sync", "forget-device", gone_id)
    assert "has not written" not in home.ok("sync", "status").stdout

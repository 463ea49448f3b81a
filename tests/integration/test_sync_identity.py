"""Ordinary setup steps that used to fork the laptops silently (issue 17, items 7-10): moving to
a new folder, two `sync init`s at once, a second laptop made from a backup, a laptop that
restores its own older backup. Each ends with every laptop holding the same memories."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest

from localmind import Memory
from localmind.backup import backup_store, restore_backup
from sync import codec
from sync import folder as sync_folder
from sync.devices import forget_device, leave_folder
from sync.folder import SyncError, init_folder, join_folder, start_stream, sync_once
from tests.conftest import FAST_KDF, PASSPHRASE, FakeClock


class Laptops:
    """Stores opened by path; every one opened is closed at the end."""

    def __init__(self, base: Path) -> None:
        self.base = base
        self.opened: list[Memory] = []

    def open(self, name: str) -> Memory:
        memory = Memory.open(self.base / f"{name}.db", PASSPHRASE, kdf=FAST_KDF, clock=FakeClock())
        self.opened.append(memory)
        return memory

    def close(self, memory: Memory) -> None:
        self.opened.remove(memory)
        memory.close()


@pytest.fixture
def laptops(tmp_path: Path) -> Iterator[Laptops]:
    group = Laptops(tmp_path)
    yield group
    for memory in group.opened:
        memory.close()


def texts(memory: Memory) -> set[str]:
    return {r.content for r in memory.list_memories()}


def sync_all(folder: Path, *memories: Memory, rounds: int = 2) -> None:
    for _ in range(rounds):
        for memory in memories:
            sync_once(memory, folder)


def test_moving_to_a_new_folder_carries_everything_there(
    laptops: Laptops, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sync_folder, "SEGMENT_EVENTS", 1)
    monkeypatch.setattr(sync_folder, "COMPACT_SEGMENTS", 2)
    old, new = tmp_path / "OldSync", tmp_path / "NewSync"
    a, b = laptops.open("a"), laptops.open("b")
    init_folder(a, old, PASSPHRASE, FAST_KDF)
    join_folder(b, old, PASSPHRASE)
    a.remember("My favourite tea is green tea")
    b.remember("I play the cello on Sundays")
    sync_all(old, a, b)
    leave_folder(a)  # a store syncs with one folder: leave the old one first
    init_folder(a, new, PASSPHRASE, FAST_KDF)
    assert "fresh export stream" in (start_stream(a, new) or "")
    leave_folder(b)
    join_folder(b, new, PASSPHRASE)
    assert "fresh export stream" in (start_stream(b, new) or "")
    assert start_stream(b, new) is None  # once
    b.remember("The cat is called Miso")
    sync_all(new, a, b)
    c = laptops.open("c")  # a laptop that joins the new folder only, later
    join_folder(c, new, PASSPHRASE)
    sync_all(new, c, a, b, c)
    want = {
        "My favourite tea is green tea",
        "I play the cello on Sundays",
        "The cat is called Miso",
    }
    assert texts(a) == texts(b) == texts(c) == want
    snapshots = [p.name for p in new.glob("*/snapshot-*.seg")]
    assert snapshots, "nobody compacted in the new folder"


def test_a_double_init_is_detected_and_the_second_laptop_told_what_to_run(
    laptops: Laptops, tmp_path: Path
) -> None:
    shared = tmp_path / "Sync"  # B's copy of the folder
    a_view = tmp_path / "a-view"  # A's copy, before the engine carried either init across
    a, b = laptops.open("a"), laptops.open("b")
    a.remember("My favourite tea is green tea")
    b.remember("I play the cello on Sundays")
    init_folder(a, a_view, PASSPHRASE, FAST_KDF)
    init_folder(b, shared, PASSPHRASE, FAST_KDF)
    sync_once(a, a_view)
    sync_once(b, shared)
    # The sync engine merges the two: A's header wins, A's directory comes across.
    shutil.copy(a_view / codec.HEADER_NAME, shared / codec.HEADER_NAME)
    shutil.copytree(a_view / a.device_id, shared / a.device_id)
    with pytest.raises(SyncError, match=f"localmind sync join {shared}"):
        sync_once(b, shared)
    sync_once(a, shared)
    assert texts(a) == {"My favourite tea is green tea"}  # B's files open nowhere
    join_folder(b, shared, PASSPHRASE)
    sync_all(shared, b, a)
    assert texts(a) == texts(b) == {"My favourite tea is green tea", "I play the cello on Sundays"}


def test_a_second_laptop_restored_from_a_backup_is_a_device_of_its_own(
    laptops: Laptops, tmp_path: Path
) -> None:
    shared = tmp_path / "Sync"
    a = laptops.open("a")
    a.remember("My favourite tea is green tea")
    init_folder(a, shared, PASSPHRASE, FAST_KDF)
    sync_once(a, shared)
    backup_store(a.path, tmp_path / "a.backup", PASSPHRASE)
    restore_backup(tmp_path / "a.backup", tmp_path / "b.db", PASSPHRASE)
    b = laptops.open("b")
    assert b.device_id != a.device_id
    with pytest.raises(SyncError, match="does not sync"):  # a trial copy, until asked
        sync_once(b, shared)
    join_folder(b, shared, PASSPHRASE, name="second")
    a.remember("I play the cello on Sundays")
    b.remember("The cat is called Miso")
    sync_all(shared, a, b)
    want = {
        "My favourite tea is green tea",
        "I play the cello on Sundays",
        "The cat is called Miso",
    }
    assert texts(a) == texts(b) == want


def test_a_laptop_that_restores_its_own_older_backup_converges(
    laptops: Laptops, tmp_path: Path
) -> None:
    shared = tmp_path / "Sync"
    a, c = laptops.open("a"), laptops.open("c")
    init_folder(a, shared, PASSPHRASE, FAST_KDF)
    join_folder(c, shared, PASSPHRASE)
    a.remember("My favourite tea is green tea")
    sync_all(shared, a, c)
    backup_store(a.path, tmp_path / "a.backup", PASSPHRASE)
    a.remember("I play the cello on Sundays")  # after the backup: only in the folder and on c
    sync_all(shared, a, c)
    laptops.close(a)
    restore_backup(tmp_path / "a.backup", tmp_path / "a.db", PASSPHRASE, replace=True)
    a = laptops.open("a")
    assert texts(a) == {"My favourite tea is green tea"}
    a.remember("The cat is called Miso")
    sync_all(shared, a, c)
    want = {
        "My favourite tea is green tea",
        "I play the cello on Sundays",
        "The cat is called Miso",
    }
    assert texts(a) == texts(c) == want


@pytest.mark.slow
def test_the_commands_say_what_they_did_and_what_to_run(tmp_path: Path) -> None:
    from sync import cli as sync_cli  # noqa: F401  (registers `localmind sync`)
    from tests.cli_support import Cli

    old, new = tmp_path / "OldSync", tmp_path / "NewSync"
    first, second = Cli(tmp_path / "first.db"), Cli(tmp_path / "second.db")
    first.ok("add", "My favourite tea is green tea")
    first.ok("sync", "init", str(old))
    second.ok("sync", "join", str(old))
    second.ok("add", "I play the cello on Sundays")
    second.ok("sync", "now")
    first.ok("sync", "now")
    refused_move = first("sync", "init", str(new))  # a store syncs with one folder
    assert refused_move.exit_code == 1 and "localmind sync leave" in refused_move.output
    assert not new.exists()
    first.ok("sync", "leave")
    moved = first.ok("sync", "init", str(new)).stdout
    assert "Started a fresh export stream" in moved and "exported 2 changes" in moved
    third = Cli(tmp_path / "third.db")  # second never joins the new folder: its memory is there
    assert "imported 2 changes" in third.ok("sync", "join", str(new)).stdout
    second.ok("sync", "now")  # reads first's departure from the old folder, retires its files
    # A double init: the folder's header now wraps another key than second's.
    (old / codec.HEADER_NAME).unlink()
    Cli(tmp_path / "fourth.db").ok("sync", "init", str(old))
    refused = second("sync", "now")
    assert refused.exit_code == 1
    assert f"On this laptop run: localmind sync join {old}" in refused.output


def test_coming_back_to_a_folder_never_reuses_a_number_the_others_passed(
    laptops: Laptops, tmp_path: Path
) -> None:
    first, elsewhere = tmp_path / "Sync", tmp_path / "Elsewhere"
    a, b = laptops.open("a"), laptops.open("b")
    init_folder(a, first, PASSPHRASE, FAST_KDF)
    join_folder(b, first, PASSPHRASE)
    for text in ("My favourite tea is green tea", "I play the cello on Sundays"):
        a.remember(text)
        sync_all(first, a, b)  # a segment each: b's cursor for a passes 2
    leave_folder(a)
    init_folder(a, elsewhere, PASSPHRASE, FAST_KDF)  # a tries another folder...
    sync_once(a, elsewhere)
    leave_folder(a)
    join_folder(a, first, PASSPHRASE)  # ...and comes back
    assert "fresh export stream" in (start_stream(a, first) or "")
    miso = a.remember("The cat is called Miso")
    sync_all(first, a, b)
    assert b.get(miso.id) is not None
    assert texts(a) == texts(b)


def test_a_restored_store_names_its_former_self_until_it_is_forgotten(
    laptops: Laptops, tmp_path: Path
) -> None:
    """Its old directory keeps frozen cursors and holds the other laptops' compaction back:
    status says which command retires it, and nothing retires it on its own (issue 17)."""
    shared = tmp_path / "Sync"
    a, c = laptops.open("a"), laptops.open("c")
    init_folder(a, shared, PASSPHRASE, FAST_KDF, name="desk")
    join_folder(c, shared, PASSPHRASE)
    a.remember("My favourite tea is green tea")
    sync_all(shared, a, c)
    former = a.device_id
    backup_store(a.path, tmp_path / "a.backup", PASSPHRASE)
    laptops.close(a)
    restore_backup(tmp_path / "a.backup", tmp_path / "a.db", PASSPHRASE, replace=True)
    a = laptops.open("a")
    sync_all(shared, a, c)
    report = sync_folder.status(a, shared)
    named = [d["device_id"] for d in report["devices"] if d["silent"]]
    assert named == [former]
    assert len(report["advice"]) == 1
    assert report["advice"][0].startswith(f"desk ({former}) has not written since ")
    assert f"run `localmind sync forget-device {former}`" in report["advice"][0]
    assert sync_folder.status(c, shared)["advice"] == []  # it wrote lately, as far as c knows
    assert (shared / former).is_dir()  # named, not retired

    forget_device(a, shared, former)
    assert sync_folder.status(a, shared)["advice"] == []


def test_a_second_laptop_restored_while_the_first_runs_names_nobody(
    laptops: Laptops, tmp_path: Path
) -> None:
    shared = tmp_path / "Sync"
    a = laptops.open("a")
    init_folder(a, shared, PASSPHRASE, FAST_KDF)
    a.remember("My favourite tea is green tea")
    sync_once(a, shared)
    backup_store(a.path, tmp_path / "a.backup", PASSPHRASE)
    restore_backup(tmp_path / "a.backup", tmp_path / "b.db", PASSPHRASE)
    b = laptops.open("b")
    [paused] = sync_folder.status(b, shared)["advice"]  # not "forget the live laptop"
    assert "does not sync" in paused and "sync join" in paused and "forget-device" not in paused
    join_folder(b, shared, PASSPHRASE, name="second")
    a.remember("I play the cello on Sundays")  # the first laptop goes on writing
    sync_all(shared, a, b)
    assert sync_folder.status(b, shared)["advice"] == []


def test_a_device_silent_for_two_weeks_is_named_unless_it_left(
    laptops: Laptops, tmp_path: Path
) -> None:
    shared = tmp_path / "Sync"
    a, b, c = laptops.open("a"), laptops.open("b"), laptops.open("c")
    init_folder(a, shared, PASSPHRASE, FAST_KDF)
    join_folder(b, shared, PASSPHRASE, name="old-laptop")
    join_folder(c, shared, PASSPHRASE)
    b.remember("My favourite tea is green tea")
    sync_all(shared, a, b, c)
    leave_folder(c)
    now = time.time()
    assert sync_folder.status(a, shared, now=now + 13 * 86400)["advice"] == []
    later = sync_folder.status(a, shared, now=now + 15 * 86400)
    assert [d["device_id"] for d in later["devices"] if d["silent"]] == [b.device_id]
    today = datetime.fromtimestamp(now).strftime("%Y-%m-%d")
    assert later["advice"] == [
        f"old-laptop ({b.device_id}) has not written since {today}; if it was this laptop "
        f"before a restore, run `localmind sync forget-device {b.device_id}`"
    ]

"""Issue 18 item 5 for the sync folder: `sync rekey --rotate` gives the folder a new key, so an old
copy of its header plus the old passphrase reads nothing written after the rotation; without
`--rotate`, `sync rekey` says plainly what such copies still open."""

from __future__ import annotations

import json
import secrets
from pathlib import Path

import pytest

from localmind import Memory
from localmind.keys import KeyFile
from sync import cli as sync_cli  # registers `localmind sync`
from sync import codec
from sync import folder as sync_folder
from sync.codec import CURSORS_NAME, HEADER_NAME, SEGMENT_RE, SNAPSHOT_RE
from sync.folder import SyncError, init_folder, join_folder, sync_once
from sync.folder_transport import FolderTransport
from tests.cli_support import Cli, assert_error
from tests.conftest import FAST_KDF, PASSPHRASE

NEW = "a brand new passphrase"


def key_in(header: bytes, passphrase: str) -> bytes:
    """What someone holding a copy of a header and a passphrase gets out of it."""
    document = json.loads(header)
    return KeyFile.from_json(json.dumps(document["key"]), Path(HEADER_NAME)).unwrap(passphrase)


def opens(key: bytes, path: Path) -> bool:
    """Whether ``key`` decrypts the sync file at ``path`` (its place gives its associated data)."""
    device, name, blob = path.parent.name, path.name, path.read_bytes()
    try:
        if match := SEGMENT_RE.match(name):
            codec.unseal(key, device, int(match.group(1)), blob)
        elif match := SNAPSHOT_RE.match(name):
            codec.unseal_snapshot(key, device, int(match.group(1)), blob)
        elif name == CURSORS_NAME:
            codec.unseal_cursors(key, device, blob)
        else:
            raise AssertionError(f"unexpected file {path}")
    except ValueError:
        return False
    return True


def sealed_files(shared: Path) -> list[Path]:
    return sorted(p for p in shared.glob("*/*") if p.is_file())


@pytest.fixture
def laptops(tmp_path: Path) -> tuple[Cli, Cli, Path]:  # two laptops syncing, a memory each
    assert sync_cli.sync_group.name == "sync"
    shared = tmp_path / "Sync"
    home, work = Cli(tmp_path / "home.db"), Cli(tmp_path / "work.db")
    home.ok("add", "My favourite tea is green tea")
    home.ok("sync", "init", str(shared), "--name", "home")
    work.ok("sync", "join", str(shared), "--name", "work")
    work.ok("add", "I play the cello on Sundays")
    work.ok("sync", "now")
    home.ok("sync", "now")
    return home, work, shared


@pytest.mark.slow
def test_after_rotation_an_old_header_copy_and_the_old_passphrase_read_nothing_new(
    laptops: tuple[Cli, Cli, Path], tmp_path: Path
) -> None:
    home, work, shared = laptops
    lost = Cli(tmp_path / "lost.db")  # a third laptop, lost before it could move
    lost.ok("sync", "join", str(shared), "--name", "lost")
    lost.ok("add", "The spare key is under the blue pot")
    lost.ok("sync", "now")
    home.ok("sync", "now")
    lost_id = lost.json("sync", "status")["device_id"]
    old_header = (shared / HEADER_NAME).read_bytes()  # a sync engine's file version, a backup
    old_key = key_in(old_header, PASSPHRASE)
    assert all(opens(old_key, path) for path in sealed_files(shared))

    home.ok("passwd", "--rotate", LOCALMIND_NEW_PASSPHRASE=NEW)
    home.passphrase = NEW
    rotated = home.ok("sync", "rekey", "--rotate").stdout
    assert "has a new key" in rotated and f"localmind sync join {shared}" in rotated
    home.ok("add", "The safe code is 4711")
    home.ok("sync", "now")

    # The laptop that has not moved yet is told how to, and changes nothing meanwhile; its
    # status says so too, instead of counting files it cannot read (review15b DV7)
    said = work.ok("sync", "status").stdout
    assert "has a new key (`localmind sync rekey --rotate` on another laptop)" in said
    assert "tampered" not in work("sync", "status").stderr
    refused = work("sync", "now")
    assert_error(refused, f"run  localmind sync join {shared}  with the folder's current")
    assert_error(work("sync", "join", str(shared)), "does not open the sync folder")
    work.ok("passwd", LOCALMIND_NEW_PASSPHRASE=NEW)
    work.passphrase = NEW
    joined = work.ok("sync", "join", str(shared)).stdout
    assert "fresh export stream" in joined
    assert "4711" in work.ok("recall", "safe code").stdout
    work.ok("add", "The cat is called Miso")
    work.ok("sync", "now")
    home.ok("sync", "now")
    assert "Miso" in home.ok("recall", "cat").stdout
    assert sorted(home.contents()) == sorted(work.contents())

    # Both laptops that moved deleted their files sealed with the old key, and the old
    # header copy with the old passphrase opens none of the files written since.
    files = [path for path in sealed_files(shared) if path.parent.name != lost_id]
    assert files and not any(opens(old_key, path) for path in files)
    new_key = key_in((shared / HEADER_NAME).read_bytes(), NEW)
    assert all(opens(new_key, path) for path in files)
    assert new_key != old_key
    with pytest.raises(Exception, match="Wrong passphrase"):
        key_in((shared / HEADER_NAME).read_bytes(), PASSPHRASE)
    # A laptop that joins now needs the new passphrase, and gets everything.
    late = Cli(home.db.with_name("late.db"), passphrase=NEW)
    late.ok("sync", "join", str(shared))
    assert sorted(late.contents()) == sorted(home.contents())

    # The lost laptop's files, sealed with the old key, are the last ones: forgetting it
    # retires them (its name, sealed with the old key too, is unreadable: it goes by its id).
    assert opens(old_key, shared / lost_id / "cursors.seg")
    home.ok("sync", "forget-device", lost_id)
    assert not any(opens(old_key, path) for path in sealed_files(shared))
    assert "The spare key is under the blue pot" in home.contents()  # applied before: kept


def test_rekey_without_rotate_says_what_old_copies_still_open(
    laptops: tuple[Cli, Cli, Path],
) -> None:
    home, _, shared = laptops
    old_header = (shared / HEADER_NAME).read_bytes()
    home.ok("passwd", LOCALMIND_NEW_PASSPHRASE=NEW)
    home.passphrase = NEW
    said = home.ok("sync", "rekey").stdout
    assert "Old copies of its header" in said and "sync rekey --rotate" in said
    home.ok("add", "The safe code is 4711")
    home.ok("sync", "now")
    # What it says is so: the old copy still opens what was written after the rekey.
    old_key = key_in(old_header, PASSPHRASE)
    assert all(opens(old_key, path) for path in sealed_files(shared))
    # ...while the current header no longer takes the old passphrase, and says which to use.
    refused = Cli(home.db.with_name("old.db"))("sync", "join", str(shared))
    assert_error(refused, "its last `localmind sync rekey` set")
    assert "sync init" not in refused.stderr


def test_a_store_without_the_folders_key_cannot_rotate_it(
    laptops: tuple[Cli, Cli, Path], tmp_path: Path
) -> None:
    _, _, shared = laptops
    header = (shared / HEADER_NAME).read_bytes()
    stranger = Cli(tmp_path / "stranger.db")
    stranger.ok("sync", "init", str(tmp_path / "Other"))
    result = stranger("sync", "rekey", "--rotate", "--folder", str(shared))
    assert_error(result, "is not the one the header")
    assert (shared / HEADER_NAME).read_bytes() == header


def test_a_rotation_cut_short_after_the_header_is_recovered_by_joining_again(
    tmp_path: Path,
) -> None:
    """A crash between writing the new header and the store taking the new key: the laptop's
    next sync says what to run, and that recovers it with nothing lost."""
    shared = tmp_path / "Sync"
    with (
        Memory.open(tmp_path / "home.db", PASSPHRASE, kdf=FAST_KDF) as home,
        Memory.open(tmp_path / "work.db", PASSPHRASE, kdf=FAST_KDF) as work,
    ):
        init_folder(home, shared, PASSPHRASE, FAST_KDF)
        join_folder(work, shared, PASSPHRASE)
        home.remember("My favourite tea is green tea")
        sync_once(home, shared)
        old_key = sync_folder.sync_key(home)
        new_key = secrets.token_bytes(32)  # what the rotation wrote before the crash
        sync_folder._write_header(
            FolderTransport(shared), new_key, PASSPHRASE, FAST_KDF, (codec.key_id(old_key),)
        )
        for laptop in (home, work):
            with pytest.raises(SyncError, match=f"run  localmind sync join {shared}"):
                sync_once(laptop, shared)
        for laptop in (home, work):
            join_folder(laptop, shared, PASSPHRASE)
            sync_folder.start_stream(laptop, shared)
        work.remember("I play the cello on Sundays")
        for _ in range(2):
            for laptop in (home, work):
                sync_once(laptop, shared)
        assert (
            {r.content for r in home.list_memories()}
            == {r.content for r in work.list_memories()}
            == {"My favourite tea is green tea", "I play the cello on Sundays"}
        )
        assert sync_folder.sync_key(home) == sync_folder.sync_key(work) == new_key

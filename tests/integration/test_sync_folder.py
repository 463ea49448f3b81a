"""The sync folder (package ``sync``): stores replicating through a shared directory."""

from __future__ import annotations

import logging
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from localmind import Memory, Status
from sync import SyncError, codec, export_pending, import_new, init_folder, join_folder, status
from sync import folder as sync_folder
from sync.folder import sync_once
from sync.transport import MemoryTransport
from tests.conftest import FAST_KDF, PASSPHRASE, FakeClock

Opener = Callable[[str], Memory]


@pytest.fixture
def open_device(tmp_path: Path) -> Opener:
    opened: list[Memory] = []

    def _open(name: str) -> Memory:
        memory = Memory.open(tmp_path / f"{name}.db", PASSPHRASE, kdf=FAST_KDF, clock=FakeClock())
        opened.append(memory)
        return memory

    yield _open  # type: ignore[misc]
    for memory in opened:
        memory.close()


@pytest.fixture
def shared(tmp_path: Path) -> Path:
    return tmp_path / "Sync" / "localmind"


def joined(open_device: Opener, shared: Path, *names: str) -> list[Memory]:
    devices = [open_device(name) for name in names]
    init_folder(devices[0], shared, PASSPHRASE, FAST_KDF)
    for device in devices[1:]:
        join_folder(device, shared, PASSPHRASE)
    return devices


def contents(memory: Memory) -> dict[str, tuple[str, int, float, str]]:
    return {
        r.id: (r.content, r.version, round(r.confidence, 9), str(r.status))
        for r in memory.iter_all()
    }


def test_stores_sync_compact_and_leave_through_an_in_memory_transport(
    open_device: Opener, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The whole protocol over the in-memory transport (sync/transport.py), the model for a
    transport other than a folder: changes, a forget, compaction and a departure."""
    monkeypatch.setattr(sync_folder, "SEGMENT_EVENTS", 1)
    monkeypatch.setattr(sync_folder, "COMPACT_SEGMENTS", 2)
    carrier = MemoryTransport()
    a, b = open_device("a"), open_device("b")
    init_folder(a, carrier, PASSPHRASE, FAST_KDF)
    join_folder(b, carrier, PASSPHRASE)
    pin = a.remember("My bank PIN is 2468")
    a.remember("My favourite tea is green tea")
    b.remember("I play the cello on Sundays")
    for _ in range(2):
        for device in (a, b):
            sync_once(device, carrier)
    assert contents(a) == contents(b) and len(contents(a)) == 3

    b.forget(pin.id)
    sync_once(b, carrier)
    sync_once(a, carrier)
    assert a.get(pin.id).status is Status.DELETED
    mine = [entry.name for entry in carrier.list(a.device_id)]
    assert "00000001.seg" not in mine and any(n.startswith("snapshot-") for n in mine)
    key = sync_folder.sync_key(a)
    assert not any(
        b"2468" in codec.unseal_plain(key, aad, carrier.read(device, name, 10**6))
        for device, name, aad in sealed_files(carrier)
    )

    c = open_device("c")  # joins after compaction: gets everything
    join_folder(c, carrier, PASSPHRASE)
    sync_once(c, carrier)
    assert contents(c) == contents(a)
    assert status(c, carrier)["devices"][0]["pending_segments"] == 0


def sealed_files(carrier: MemoryTransport) -> list[tuple[str, str, bytes]]:
    """(device, name, associated data) of every sealed file the transport holds."""
    found = []
    for device in sync_folder.device_directories(carrier):
        for entry in carrier.list(device):
            if match := codec.SEGMENT_RE.match(entry.name):
                aad = codec.segment_aad(device, int(match.group(1)))
            elif match := codec.SNAPSHOT_RE.match(entry.name):
                aad = codec.snapshot_aad(device, int(match.group(1)))
            else:
                aad = codec.cursors_aad(device)
            found.append((device, entry.name, aad))
    return found


def test_three_stores_sync_through_a_folder(open_device: Opener, shared: Path) -> None:
    a, b, c = joined(open_device, shared, "a", "b", "c")
    tea = a.remember("My favourite tea is green tea")
    b.remember("I play the cello on Sundays")
    assert export_pending(a, shared) == 1
    assert export_pending(a, shared) == 0  # nothing new
    export_pending(b, shared)
    report = import_new(c, shared)
    assert report.segments == 2 and report.events == 2 and report.skipped == []
    assert import_new(c, shared).segments == 0  # the cursor remembers
    c.update(tea.id, content="My favourite tea is oolong")
    c.forget(b.list_memories()[0].id)
    for device in (a, b, c):
        export_pending(device, shared)
    for device in (a, b, c):
        import_new(device, shared)
    assert contents(a) == contents(b) == contents(c)
    assert a.get(tea.id).content == "My favourite tea is oolong"
    assert [r.memory.id for r in b.recall("oolong")] == [tea.id]
    assert sorted(str(r.status) for r in a.iter_all()) == ["active", "deleted"]
    listed = status(a, shared)
    assert {d["device_id"] for d in listed["devices"]} == {b.device_id, c.device_id}
    assert all(d["pending_segments"] == 0 for d in listed["devices"])
    assert listed["pending_events"] == 0


def test_a_flipped_byte_rejects_that_segment_only(
    open_device: Opener, shared: Path, caplog: pytest.LogCaptureFixture
) -> None:
    a, b = joined(open_device, shared, "a", "b")
    first = a.remember("The door code is 4711")
    export_pending(a, shared)
    second = a.remember("The wifi password is on the fridge")
    export_pending(a, shared)
    segment = shared / a.device_id / "00000001.seg"
    data = bytearray(segment.read_bytes())
    data[len(data) // 2] ^= 0x01
    segment.write_bytes(bytes(data))
    with caplog.at_level(logging.WARNING, logger="localmind.sync"):
        report = import_new(b, shared)
    assert report.segments == 1 and len(report.skipped) == 1
    assert "00000001.seg" in caplog.text and "rejected" in caplog.text
    assert [r.id for r in b.iter_all()] == [second.id]  # the good segment still came in
    # The damaged one is retried (and stays rejected) until a good copy arrives.
    assert len(import_new(b, shared).skipped) == 1
    segment.write_bytes(codec.seal(*_key_and(a), 1, a.events_since(0, 1)))
    assert import_new(b, shared).segments == 1
    assert b.get(first.id).content == "The door code is 4711"


def _key_and(memory: Memory) -> tuple[bytes, str]:
    return sync_folder.sync_key(memory), memory.device_id


def test_truncated_temp_and_foreign_files_are_skipped(open_device: Opener, shared: Path) -> None:
    a, b = joined(open_device, shared, "a", "b")
    a.remember("I run 5 kilometres before breakfast")
    export_pending(a, shared)
    directory = shared / a.device_id
    whole = (directory / "00000001.seg").read_bytes()
    (directory / "00000002.seg").write_bytes(whole[: len(whole) // 2])  # being written
    (directory / ".syncthing.00000003.seg.tmp").write_bytes(b"partial")
    (directory / "notes.txt").write_text("hello")
    (shared / "desktop.ini").write_text("[.ShellClassInfo]")
    (shared / "not-a-device").mkdir()
    (shared / ".stfolder").mkdir()  # Syncthing's marker: expected, so not reported
    # A segment moved under another number fails its tag: the number is authenticated.
    (directory / "00000004.seg").write_bytes(whole)
    before = contents(b)
    report = import_new(b, shared)
    assert report.segments == 1
    reasons = dict(report.skipped)
    assert "rejected" in reasons[str(directory / "00000002.seg")]
    assert "rejected" in reasons[str(directory / "00000004.seg")]
    assert str(directory / "notes.txt") in reasons
    assert str(shared / "desktop.ini") in reasons
    assert str(shared / ".stfolder") not in reasons
    assert len(contents(b)) == len(before) + 1


def test_a_header_from_another_passphrase_is_refused(open_device: Opener, shared: Path) -> None:
    a, b = open_device("a"), open_device("b")
    init_folder(a, shared, "a different passphrase", FAST_KDF)
    with pytest.raises(SyncError, match="does not open the sync folder"):
        join_folder(b, shared, PASSPHRASE)
    with pytest.raises(SyncError, match="already a sync folder"):
        init_folder(b, shared, PASSPHRASE, FAST_KDF)
    with pytest.raises(SyncError, match="not a sync folder"):
        join_folder(b, shared.parent / "elsewhere", PASSPHRASE)
    with pytest.raises(SyncError, match="has not joined"):
        export_pending(b, shared)


def test_segments_of_a_folder_made_with_another_key_change_nothing(
    open_device: Opener, tmp_path: Path, shared: Path
) -> None:
    a, b = open_device("a"), open_device("b")
    init_folder(a, shared, PASSPHRASE, FAST_KDF)
    init_folder(b, tmp_path / "other", PASSPHRASE, FAST_KDF)  # a different sync key
    a.remember("I am allergic to peanuts")
    export_pending(a, shared)
    report = import_new(b, shared)
    assert report.segments == 0 and len(report.skipped) == 1
    assert list(b.iter_all()) == []


def test_import_is_resumable_and_survives_a_crash_before_the_cursor_moves(
    open_device: Opener, shared: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = joined(open_device, shared, "a", "b")
    monkeypatch.setattr(sync_folder, "SEGMENT_EVENTS", 2)
    for i in range(5):
        a.remember(f"Fact number {i}: the sky has {i} clouds")
    export_pending(a, shared)
    assert len(list((shared / a.device_id).glob("*.seg"))) == 3
    # The export's cursor lost (a crash after writing): the events go out again, harmlessly.
    a.set_meta(sync_folder.META_EXPORTED, "0")
    export_pending(a, shared)
    report = import_new(b, shared)
    assert report.events == 5 and report.duplicates == 5
    assert len(contents(b)) == 5


@pytest.mark.slow  # a second Python process (~7 s on a busy machine); the import-linter
# contract "The core never imports … the sync engine" (tests/unit/test_layers.py) checks the
# same statically in the quick loop
def test_the_core_does_not_import_sync() -> None:
    code = (
        "import sys, localmind, localmind.memory, localmind.replica; print('sync' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"


def test_forget_travels_and_redacts_the_text(open_device: Opener, shared: Path) -> None:
    a, b = joined(open_device, shared, "a", "b")
    secret = a.remember("My bank PIN is 2468")
    export_pending(a, shared)
    import_new(b, shared)
    b.forget(secret.id)
    export_pending(b, shared)
    import_new(a, shared)
    assert a.get(secret.id).status is Status.DELETED
    rows = a._store.db.execute("SELECT payload FROM events").fetchall()
    assert not any("2468" in payload for (payload,) in rows)


def test_sync_commands(tmp_path: Path, shared: Path) -> None:
    from sync import cli as sync_cli  # registers `localmind sync`
    from tests.cli_support import Cli

    assert sync_cli.sync_group.name == "sync"
    first, second = Cli(tmp_path / "first.db"), Cli(tmp_path / "second.db")
    first.ok("add", "My favourite tea is green tea")
    assert "exported 1 change." in first.ok("sync", "init", str(shared)).stdout
    assert "imported 1 change from 1 file," in second.ok("sync", "join", str(shared)).stdout
    second.ok("add", "I play the cello on Sundays")
    assert "Exported 1 change;" in second.ok("sync", "now").stdout
    assert "imported 1 from 1 file (1 memory changed)" in first.ok("sync", "now").stdout
    report = first.json("sync", "status")
    assert report["pending_events"] == 0 and len(report["devices"]) == 1
    assert "cello" in first.ok("recall", "cello").stdout
    refused = Cli(tmp_path / "third.db", passphrase="another passphrase")(
        "sync", "join", str(shared)
    )
    assert refused.exit_code == 1 and "does not open the sync folder" in refused.output


def test_after_a_passphrase_change_rekey_moves_the_folder_to_the_new_passphrase(
    tmp_path: Path, shared: Path
) -> None:
    from sync import cli as sync_cli  # registers `localmind sync`
    from tests.cli_support import Cli, assert_error

    assert sync_cli.sync_group.name == "sync"
    first = Cli(tmp_path / "first.db")
    first.ok("add", "My favourite tea is green tea")
    first.ok("sync", "init", str(shared))
    changed = first.ok("passwd", LOCALMIND_NEW_PASSPHRASE="a brand new passphrase")
    assert "localmind sync rekey" in changed.stdout  # the user is told the folder lags behind
    first.passphrase = "a brand new passphrase"
    header_before = (shared / "localmind-sync.json").read_bytes()

    # A store that holds another folder's key must not take this header over.
    stranger = Cli(tmp_path / "stranger.db", passphrase="a brand new passphrase")
    stranger.ok("add", "Someone else's memory")
    stranger.ok("sync", "init", str(tmp_path / "other-folder"))
    assert_error(stranger("sync", "rekey", "--folder", str(shared)), "is not the one the header")
    assert (shared / "localmind-sync.json").read_bytes() == header_before

    assert "now opens with" in first.ok("sync", "rekey").stdout
    old = Cli(tmp_path / "old.db")  # the old passphrase no longer joins
    assert old("sync", "join", str(shared)).exit_code == 1
    late = Cli(tmp_path / "late.db", passphrase="a brand new passphrase")
    assert "imported 1 change from 1 file," in late.ok("sync", "join", str(shared)).stdout
    assert "green tea" in late.ok("recall", "tea").stdout

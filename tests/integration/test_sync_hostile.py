"""A stranger's files in the sync folder (no key needed to plant them): garbage under the
numbers a laptop writes, pipes, symlinks to devices and to the root, huge sparse files, fake
device directories. None of them stops, hangs or blows up a sync, and no memory is lost
(issue 17, items 1-5)."""

from __future__ import annotations

import logging
import os
import resource
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from localmind import Memory
from sync import codec, folder_transport
from sync import folder as sync_folder
from sync.folder import (
    ImportReport,
    SyncError,
    export_pending,
    import_new,
    init_folder,
    join_folder,
    status,
    sync_once,
)
from sync.watch import watched_directories
from tests.conftest import FAST_KDF, PASSPHRASE, FakeClock
from tests.integration.test_replica import TEXTS, Op, run, snapshot
from tests.integration.test_sync_compaction import four_laptops

STRANGER = "01JSTRANGER000000000000000"  # a device id no laptop has


@pytest.fixture
def laptops(tmp_path: Path) -> Iterator[tuple[Memory, Memory, Path]]:
    shared = tmp_path / "Sync" / "localmind"
    a = Memory.open(tmp_path / "a.db", PASSPHRASE, kdf=FAST_KDF, clock=FakeClock())
    b = Memory.open(tmp_path / "b.db", PASSPHRASE, kdf=FAST_KDF, clock=FakeClock())
    try:
        init_folder(a, shared, PASSPHRASE, FAST_KDF)
        join_folder(b, shared, PASSPHRASE)
        yield a, b, shared
    finally:
        a.close()
        b.close()


def within(seconds: float, work: Callable[[], object]) -> object:
    """``work()``'s result, or a test failure (not a hung test run) when it takes too long."""
    result: list[object] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            result.append(work())
        except BaseException as error:  # handed to the test thread
            errors.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still running after {seconds} s: it hangs"
    if errors:
        raise errors[0]
    return result[0]


def reasons(report: ImportReport) -> dict[str, str]:
    return {Path(path).name: why for path, why in report.skipped}


def test_garbage_numbered_99999999_does_not_decide_the_next_segment(
    laptops: tuple[Memory, Memory, Path],
) -> None:
    a, b, shared = laptops
    a.remember("My favourite tea is green tea")
    sync_once(a, shared)
    (shared / a.device_id / "99999999.seg").write_bytes(os.urandom(200))
    cello = a.remember("I play the cello on Sundays")
    assert export_pending(a, shared) == 1
    assert (shared / a.device_id / "00000002.seg").is_file()
    assert not list((shared / a.device_id).glob("?????????*.seg"))  # no 9-digit name
    (shared / a.device_id / "99999999.seg").unlink()
    sync_once(b, shared)
    assert b.get(cello.id).content == "I play the cello on Sundays"
    (mine,) = status(b, shared)["devices"]
    assert mine["pending_segments"] == 0 and mine["applied_through"] == 2


def test_garbage_under_the_next_number_is_replaced_and_compaction_goes_on(
    laptops: tuple[Memory, Memory, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sync_folder, "SEGMENT_EVENTS", 1)
    monkeypatch.setattr(sync_folder, "COMPACT_SEGMENTS", 2)
    a, b, shared = laptops
    a.remember("My favourite tea is green tea")
    sync_once(a, shared)
    planted = shared / a.device_id / "00000002.seg"
    planted.write_bytes(codec.MAGIC + os.urandom(100))
    texts = ["I play the cello on Sundays", "The cat is called Miso", "I cycle to work"]
    for text in texts:
        a.remember(text)
    for _ in range(2):
        sync_once(a, shared)
        sync_once(b, shared)
    assert sorted(m.content for m in b.list_memories()) == sorted(
        ["My favourite tea is green tea", *texts]
    )
    assert status(b, shared)["devices"][0]["applied_through"] == 4
    sync_once(a, shared)  # b passed all four: a folds them into a snapshot
    assert sorted(p.name for p in (shared / a.device_id).glob("*.seg")) == [
        "cursors.seg",
        "snapshot-00000004.seg",
    ]


def test_a_named_pipe_never_hangs_a_sync(laptops: tuple[Memory, Memory, Path]) -> None:
    a, b, shared = laptops
    tea = a.remember("My favourite tea is green tea")
    sync_once(a, shared)
    stranger = shared / STRANGER
    stranger.mkdir()
    os.mkfifo(stranger / "00000001.seg")
    os.mkfifo(stranger / "cursors.seg")
    os.mkfifo(shared / a.device_id / "00000002.seg")  # where a writes next
    a.remember("I play the cello on Sundays")
    within(30, lambda: sync_once(a, shared))
    _, report = within(30, lambda: sync_once(b, shared))  # type: ignore[misc]
    assert "a named pipe" in reasons(report)["00000001.seg"]
    assert b.get(tea.id) is not None and len(b.list_memories()) == 2
    within(30, lambda: status(b, shared))
    header = shared / codec.HEADER_NAME
    header.unlink()
    os.mkfifo(header)  # even the header: a clear error, at once
    with pytest.raises(SyncError, match="a named pipe"):
        within(30, lambda: sync_once(b, shared))


def test_symlinks_and_huge_sparse_files_are_skipped_unread(
    laptops: tuple[Memory, Memory, Path],
) -> None:
    a, b, shared = laptops
    a.remember("My favourite tea is green tea")
    sync_once(a, shared)
    stranger = shared / STRANGER
    stranger.mkdir()
    (stranger / "00000001.seg").symlink_to("/dev/zero")
    (stranger / "00000002.seg").symlink_to(shared / a.device_id / "00000001.seg")
    with open(stranger / "00000003.seg", "wb") as sparse:
        sparse.truncate(64 * 1024**3)  # 64 GiB, no block written
    (stranger / "snapshot-00000009.seg").symlink_to("/dev/urandom")
    (shared / "01JR00TS1NK000000000000000").symlink_to("/")  # a device directory? no
    (stranger / "cursors.seg").symlink_to("/dev/zero")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    _, report = within(60, lambda: sync_once(b, shared))  # type: ignore[misc]
    grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    why = reasons(report)
    assert "symbolic link" in why["00000001.seg"] and "symbolic link" in why["00000002.seg"]
    assert "larger than any sync file" in why["00000003.seg"]
    assert "symbolic link" in why["snapshot-00000009.seg"]
    assert why["01JR00TS1NK000000000000000"] == "not a device directory"
    assert grown_kib < 200 * 1024, f"memory grew by {grown_kib} KiB"
    assert [m.content for m in b.list_memories()] == ["My favourite tea is green tea"]


def test_each_skip_is_logged_once_and_unchanged_garbage_is_not_read_again(
    laptops: tuple[Memory, Memory, Path], caplog: pytest.LogCaptureFixture
) -> None:
    _, b, shared = laptops
    stranger = shared / STRANGER
    stranger.mkdir()
    garbage = stranger / "00000001.seg"
    garbage.write_bytes(codec.MAGIC + os.urandom(100))
    with caplog.at_level(logging.INFO, logger="localmind.sync"):
        first = import_new(b, shared)
        second = import_new(b, shared)
    assert caplog.text.count(f"skipped {garbage}") == 1
    assert first.skipped == second.skipped == second.repeated
    assert first.repeated == []
    garbage.write_bytes(codec.MAGIC + os.urandom(101))  # a new file: worth a line
    with caplog.at_level(logging.INFO, logger="localmind.sync"):
        assert import_new(b, shared).repeated == []
    assert caplog.text.count(f"skipped {garbage}") == 2


@pytest.mark.slow
def test_the_watch_survives_an_unreadable_directory_and_a_symlink_to_the_root(
    tmp_path: Path,
) -> None:
    """In a child process; as root, one without the capabilities that let root read a mode-000
    directory anyway (as a person's own laptop would be)."""
    command = [sys.executable, "-m", "tests.workers.watch_hostile", str(tmp_path)]
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        assert setpriv, "setpriv (util-linux) is needed to drop root's file-permission override"
        command = [setpriv, "--bounding-set", "-dac_override,-dac_read_search", *command]
    result = subprocess.run(
        command, cwd=Path(__file__).parents[2], capture_output=True, text=True, timeout=180
    )
    assert result.returncode == 0, result.stdout + result.stderr[-3000:]
    assert result.stdout.strip().endswith("ok")


def test_the_watch_listens_to_real_readable_device_directories_only(tmp_path: Path) -> None:
    own, other = "01JOWNDEVICE0000000000000A", "01JB0THERDEV1CE00000000000"
    for name in (own, other, "notes"):
        (tmp_path / name).mkdir()
    (tmp_path / STRANGER).symlink_to("/")
    (tmp_path / "00000001.seg").write_bytes(b"")
    assert watched_directories(tmp_path, own) == [tmp_path, tmp_path / other]


def test_thousands_of_planted_files_cost_one_read_each_then_none(
    laptops: tuple[Memory, Memory, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b, shared = laptops
    fakes = [shared / f"01JFAKE{index:019d}" for index in range(200)]
    for directory in fakes:
        directory.mkdir()
        for number in range(1, 11):
            (directory / codec.segment_name(number)).write_bytes(codec.MAGIC + os.urandom(64))
    cello = a.remember("I play the cello on Sundays")
    sync_once(a, shared)
    _, first = sync_once(b, shared)
    assert b.get(cello.id) is not None
    assert len(first.skipped) == 2_000 and first.repeated == []
    reads: list[Path] = []
    real_read = folder_transport.read_trusted_file

    def counted(path: str | Path, limit: int = codec.MAX_FILE_BYTES) -> bytes:
        reads.append(Path(path))
        return real_read(path, limit)

    monkeypatch.setattr(folder_transport, "read_trusted_file", counted)
    _, second = sync_once(b, shared)
    assert len(second.repeated) == 2_000
    assert not [path for path in reads if path.parent in fakes and path.name != "cursors.seg"]


def test_fake_device_directories_do_not_hold_compaction_up(
    laptops: tuple[Memory, Memory, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sync_folder, "SEGMENT_EVENTS", 1)
    monkeypatch.setattr(sync_folder, "COMPACT_SEGMENTS", 2)
    a, b, shared = laptops
    for index in range(3):  # empty, garbage cursors, garbage segment
        fake = shared / f"01JFAKE{index:019d}"
        fake.mkdir()
        if index == 1:
            (fake / "cursors.seg").write_bytes(codec.MAGIC + os.urandom(60))
        if index == 2:
            (fake / codec.segment_name(1)).write_bytes(codec.MAGIC + os.urandom(60))
    sync_once(b, shared)  # b is in the folder: a waits for it
    for text in ("My favourite tea is green tea", "I play the cello on Sundays"):
        a.remember(text)
    assert sync_once(a, shared)[1].compacted == 0
    sync_once(b, shared)  # b applied both segments and says so
    assert sync_once(a, shared)[1].compacted == 2
    c = Memory.open(shared.parent / "c.db", PASSPHRASE, kdf=FAST_KDF, clock=FakeClock())
    try:  # a laptop joining later still gets everything, from the snapshot
        join_folder(c, shared, PASSPHRASE)
        sync_once(c, shared)
        assert len(c.list_memories()) == 2
    finally:
        c.close()


# --- property: planted files and clock jumps among ordinary work never keep laptops apart ------

PLANTS = ["next", "99999999", "fifo", "dev-zero", "root-link", "fake-device", "sparse"]
hostile_ops = st.lists(
    st.tuples(
        st.sampled_from(["add", "add", "update", "forget", "sync", "sync", "plant", "jump"]),
        st.integers(0, 2),  # device
        st.integers(0, 50),  # which memory / which plant / which jump
        st.integers(0, len(TEXTS) - 1),  # which text
    ),
    min_size=1,
    max_size=20,
)


def plant(shared: Path, memory: Memory, kind: str, serial: int) -> None:
    """A stranger's file of ``kind`` in the folder (in ``memory``'s own directory for the
    kinds aimed at its numbering)."""
    own = shared / memory.device_id
    own.mkdir(parents=True, exist_ok=True)
    stranger = shared / f"01JSTRANGER{serial:015d}"
    stranger.mkdir(exist_ok=True)
    written = int(memory.get_meta(sync_folder.META_SEGMENT) or 0)
    target = {
        "next": own / codec.segment_name(written + 1),
        "99999999": own / "99999999.seg",
        "fifo": stranger / "00000001.seg",
        "dev-zero": stranger / "00000002.seg",
        "root-link": shared / f"01JR00TS1NK{serial:015d}",
        "fake-device": stranger / "00000003.seg",
        "sparse": stranger / "00000004.seg",
    }[kind]
    if target.exists() or target.is_symlink():
        return
    if kind == "fifo":
        os.mkfifo(target)
    elif kind in ("dev-zero", "root-link"):
        target.symlink_to("/dev/zero" if kind == "dev-zero" else "/")
    elif kind == "sparse":
        with open(target, "wb") as handle:
            handle.truncate(64 * 1024**3)
    else:
        target.write_bytes(codec.MAGIC + os.urandom(80))


@pytest.mark.slow
@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(script=hostile_ops)
def test_laptops_converge_whatever_is_planted_and_however_the_clocks_jump(
    script: list[Op],
) -> None:
    with four_laptops() as (devices, shared):
        first_three = devices[:3]
        for serial, op in enumerate(script):
            kind, who, pick, _ = op
            memory = devices[who].memory
            if kind == "sync":
                within(30, lambda memory=memory: sync_once(memory, shared))
            elif kind == "plant":
                plant(shared, memory, PLANTS[pick % len(PLANTS)], serial)
            elif kind == "jump":
                devices[who].clock.advance(days=300 if pick % 2 else -300)
                report = memory.maintain(force=False)
                assert report.archived == 0 and report.expired == 0
            else:
                run(first_three, op)
        for _ in range(3):
            for device in first_three:
                within(30, lambda device=device: sync_once(device.memory, shared))
        within(30, lambda: sync_once(devices[3].memory, shared))
        expected = snapshot(devices[0])
        assert all(snapshot(device) == expected for device in devices)

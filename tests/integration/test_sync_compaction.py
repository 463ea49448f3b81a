"""Compaction of the sync folder: devices publish how far they have applied each other, a device
folds its own segments that all have passed into a snapshot, and a laptop that joins later
still gets everything."""

from __future__ import annotations

import logging
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from localmind import Memory
from sync import codec
from sync import folder as sync_folder
from sync.folder import (
    Place,
    compact,
    export_pending,
    import_new,
    init_folder,
    join_folder,
    sync_once,
)
from sync.transport import MemoryTransport
from tests.conftest import FAST_KDF, PASSPHRASE
from tests.integration.test_replica import TEXTS, Device, Op, run, snapshot


@pytest.fixture
def small_segments(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two events a segment, and compaction as soon as one segment is passed by all: many
    files from a few changes."""
    monkeypatch.setattr(sync_folder, "SEGMENT_EVENTS", 2)
    monkeypatch.setattr(sync_folder, "COMPACT_SEGMENTS", 1)


@contextmanager
def laptops_in_one_folder(
    root: Path, shared: Place, count: int
) -> Iterator[tuple[list[Device], Place]]:
    """``count`` laptops (stores in ``root``) joined to the folder ``shared``; closed after."""
    devices = [Device(root / f"{i}.db", 0.0) for i in range(count)]
    try:
        init_folder(devices[0].memory, shared, PASSPHRASE, FAST_KDF)
        for device in devices[1:]:
            join_folder(device.memory, shared, PASSPHRASE)
        yield devices, shared
    finally:
        for device in devices:
            device.memory.close()


@contextmanager
def four_laptops(carrier: str = "folder") -> Iterator[tuple[list[Device], Place]]:
    """Four laptops in a fresh temporary directory (a Hypothesis example cannot use pytest's
    ``tmp_path``: it is shared by every example), sharing a folder on disk or, with
    ``carrier="memory"``, an in-memory transport."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        shared: Place = root / "Sync" if carrier == "folder" else MemoryTransport()
        with laptops_in_one_folder(root, shared, 4) as joined:
            yield joined


@pytest.fixture
def group(tmp_path: Path) -> Iterator[tuple[list[Device], Path]]:
    with laptops_in_one_folder(tmp_path, tmp_path / "Sync" / "localmind", 3) as joined:
        yield joined


def names(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


def segments(directory: Path) -> list[str]:
    return [n for n in names(directory) if codec.SEGMENT_RE.match(n)]


def everyone_syncs(devices: list[Device], shared: Place, rounds: int = 2) -> None:
    for _ in range(rounds):
        for device in devices:
            sync_once(device.memory, shared)


def test_segments_are_deleted_only_once_every_device_has_applied_them(
    group: tuple[list[Device], Path], small_segments: None
) -> None:
    (a, b, c), shared = group
    everyone_syncs([a, b, c], shared, rounds=1)  # each has a directory and published cursors
    for text in TEXTS[:6]:
        a.memory.remember(text)
    exported, report = sync_once(a.memory, shared)
    mine = shared / a.memory.device_id
    assert exported == 6 and report.compacted == 0
    assert segments(mine) == ["00000001.seg", "00000002.seg", "00000003.seg"]

    sync_once(b.memory, shared)  # b applies all three; c has applied none
    assert sync_once(a.memory, shared)[1].compacted == 0
    assert segments(mine) == ["00000001.seg", "00000002.seg", "00000003.seg"]

    assert sync_once(c.memory, shared)[1].events == 6
    assert sync_once(a.memory, shared)[1].compacted == 3
    assert names(mine) == ["cursors.seg", "snapshot-00000003.seg"]
    # Those that had the segments skip the snapshot; new changes still travel.
    late = a.memory.remember("I moved to Porto in 2024")
    sync_once(a.memory, shared)
    assert segments(mine) == ["00000004.seg"]  # numbering goes on past the snapshot
    for device in (b, c):
        _, report = sync_once(device.memory, shared)
        assert (report.segments, report.events, report.duplicates) == (1, 1, 0)
        assert device.memory.get(late.id).content == "I moved to Porto in 2024"
        assert snapshot(device) == snapshot(a)


def test_a_device_that_joins_after_compaction_gets_everything(
    group: tuple[list[Device], Path], small_segments: None, tmp_path: Path
) -> None:
    (a, b, c), shared = group
    pin = a.memory.remember("My bank PIN is 2468")
    tea = b.memory.remember("My favourite tea is green tea")
    everyone_syncs([a, b, c], shared)
    b.memory.update(tea.id, content="My favourite tea is oolong")
    c.memory.feedback(tea.id, "confirm")
    for text in TEXTS[:5]:
        c.memory.remember(text)
    everyone_syncs([a, b, c], shared)
    a.clock.advance(seconds=1)
    a.memory.update(tea.id, content="My favourite tea is jasmine tea")
    b.clock.advance(seconds=2)  # b's revert is the later write: it wins everywhere
    b.memory.forget(pin.id)
    b.memory.revert(tea.id, 1)
    everyone_syncs([a, b, c], shared, rounds=3)
    for device in (a, b, c):  # every device's segments went into its snapshot
        directory = shared / device.memory.device_id
        assert segments(directory) == []
        assert any(n.startswith("snapshot-") for n in names(directory))
    # The forgotten PIN has left the folder with its segments: only the redacted event is kept.
    key = sync_folder.sync_key(a.memory)
    assert "2468" not in plain_text_of(shared, key)

    d = Device(tmp_path / "d.db", 0.0)
    try:
        join_folder(d.memory, shared, PASSPHRASE)
        _, report = sync_once(d.memory, shared)
        assert report.skipped == [] and report.segments == 3  # one snapshot of each
        assert snapshot(d) == snapshot(a) == snapshot(b) == snapshot(c)
        assert d.memory.get(tea.id).content == "My favourite tea is green tea"  # the revert
        assert [v.content for v in d.memory.history(tea.id)] == [
            "My favourite tea is green tea",
            "My favourite tea is oolong",
            "My favourite tea is jasmine tea",
        ]
    finally:
        d.memory.close()


def plain_text_of(shared: Path, key: bytes) -> str:
    """Everything the folder's device files say, decrypted."""
    texts = []
    for directory in shared.iterdir():
        if not directory.is_dir():
            continue
        for path in directory.iterdir():
            aad = {
                "cursors.seg": codec.cursors_aad(directory.name),
            }.get(path.name)
            if match := codec.SNAPSHOT_RE.match(path.name):
                aad = codec.snapshot_aad(directory.name, int(match.group(1)))
            elif match := codec.SEGMENT_RE.match(path.name):
                aad = codec.segment_aad(directory.name, int(match.group(1)))
            assert aad is not None, path
            texts.append(codec.unseal_plain(key, aad, path.read_bytes()).decode("utf-8"))
    return "\n".join(texts)


def test_a_tampered_misplaced_or_foreign_cursors_file_deletes_nothing(
    group: tuple[list[Device], Path],
    small_segments: None,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    (a, b, c), shared = group
    # c has written something of its own: its directory holds a file sealed with the folder's
    # key, so it is a device's, whatever its cursors file says (a directory holding nothing
    # of the kind is a stranger's and holds nothing up: tests/integration/test_sync_hostile.py)
    c.memory.remember(TEXTS[5])
    everyone_syncs([a, b, c], shared, rounds=1)
    for text in TEXTS[:4]:
        a.memory.remember(text)
    export_pending(a.memory, shared)
    for device in (b, c):
        sync_once(device.memory, shared)  # both applied a's two segments, and said so
    mine = shared / a.memory.device_id
    cursors = shared / c.memory.device_id / "cursors.seg"
    genuine = cursors.read_bytes()

    damaged = bytearray(genuine)
    damaged[len(damaged) // 2] ^= 0x01
    # b's true cursors file under c's name fails its tag: a device cannot speak for another.
    misplaced = (shared / b.memory.device_id / "cursors.seg").read_bytes()
    other = tmp_path / "other"  # a folder made with another passphrase: another sync key
    outsider = Memory.open(tmp_path / "outsider.db", PASSPHRASE, kdf=FAST_KDF)
    try:
        init_folder(outsider, other, "an old passphrase", FAST_KDF)
        foreign = codec.seal_cursors(
            sync_folder.sync_key(outsider), c.memory.device_id, {a.memory.device_id: 99}
        )
    finally:
        outsider.close()
    for bad in (bytes(damaged), misplaced, foreign, genuine[:20]):
        cursors.write_bytes(bad)
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="localmind.sync"):
            assert compact(a.memory, shared) == 0
        assert segments(mine) == ["00000001.seg", "00000002.seg"]
        assert f"ignored {cursors}" in caplog.text
    cursors.unlink()  # a device that never said how far it got blocks compaction too
    assert compact(a.memory, shared) == 0
    cursors.write_bytes(genuine)
    assert compact(a.memory, shared) == 2
    assert segments(mine) == []


def test_a_damaged_snapshot_is_skipped_until_a_good_copy_arrives(
    group: tuple[list[Device], Path], small_segments: None, tmp_path: Path
) -> None:
    (a, b, _), shared = group
    for text in TEXTS[:3]:
        a.memory.remember(text)
    assert sync_once(a.memory, shared)[1].compacted == 2  # a is alone in the folder so far
    snapshot_file = shared / a.memory.device_id / "snapshot-00000002.seg"
    good = snapshot_file.read_bytes()
    snapshot_file.write_bytes(good[:-1])  # cut short
    report = import_new(b.memory, shared)
    assert [why for _, why in report.skipped] == [
        "rejected, nothing applied: authentication failed: sealed with another key (a laptop "
        "that has not run `localmind sync join` since `sync rekey --rotate`), or damaged, "
        "misplaced or tampered with"
    ]
    assert list(b.memory.iter_all()) == []
    snapshot_file.write_bytes(good)
    assert import_new(b.memory, shared).events == 3
    assert snapshot(b) == snapshot(a)


@pytest.mark.slow
def test_sync_now_compacts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from sync import cli as sync_cli  # registers `localmind sync`
    from tests.cli_support import Cli

    assert sync_cli.sync_group.name == "sync"
    monkeypatch.setattr(sync_folder, "COMPACT_SEGMENTS", 2)
    shared = tmp_path / "Sync"
    first, second = Cli(tmp_path / "first.db"), Cli(tmp_path / "second.db")
    first.ok("sync", "init", str(shared))
    second.ok("sync", "join", str(shared))
    for text in TEXTS[:3]:  # three syncs, a segment each
        first.ok("add", text)
        first.ok("sync", "now")
        second.ok("sync", "now")
    first.ok("sync", "now")
    device = first.json("sync", "status")["device_id"]
    # Segments 1 and 2 were passed while the third was written; the third alone waits for
    # a second one to be passed (COMPACT_SEGMENTS) before it is folded in.
    assert names(shared / device) == ["00000003.seg", "cursors.seg", "snapshot-00000002.seg"]
    third = Cli(tmp_path / "third.db")
    assert "imported 3 changes from 2 files" in third.ok("sync", "join", str(shared)).stdout
    assert sorted(third.contents()) == sorted(TEXTS[:3])


# --- property: compaction at any point never keeps a later laptop from converging -------------

sync_ops = st.lists(
    st.tuples(
        st.sampled_from(["add", "add", "update", "confirm", "forget", "revert", "sync", "sync"]),
        st.integers(0, 2),  # device
        st.integers(0, 50),  # which memory
        st.integers(0, len(TEXTS) - 1),  # which text
    ),
    min_size=1,
    max_size=20,
)


@pytest.mark.slow
@pytest.mark.parametrize("carrier", ["folder", "memory"])
@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(script=sync_ops, order=st.permutations([0, 1, 2]))
def test_a_late_joiner_converges_whatever_was_compacted(
    script: list[Op], order: list[int], small_segments: None, carrier: str
) -> None:
    with four_laptops(carrier) as (devices, shared):
        first_three = devices[:3]
        for op in script:
            kind, who, _, _ = op
            if kind == "sync":
                sync_once(devices[who].memory, shared)
            else:
                run(first_three, op)
        everyone_syncs([first_three[i] for i in order], shared, rounds=3)
        late = devices[3]
        sync_once(late.memory, shared)
        expected = snapshot(devices[0])
        assert all(snapshot(device) == expected for device in devices)

"""The transport contract (sync/transport.py): what the sync protocol needs of anything that
carries a sync folder's files. Every transport passes the same tests: the folder on disk and
the in-memory one here, a git or S3 transport by adding it to ``TRANSPORTS``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from sync.folder_transport import FolderTransport
from sync.transport import Entry, MemoryTransport, Transport

DEVICE = "01JTESTDEVICE0000000000000"

TRANSPORTS: dict[str, Callable[[Path], Transport]] = {
    "folder": lambda tmp_path: FolderTransport(tmp_path / "Sync"),
    "memory": lambda tmp_path: MemoryTransport(),
}


@pytest.fixture(params=sorted(TRANSPORTS))
def transport(request: pytest.FixtureRequest, tmp_path: Path) -> Transport:
    return TRANSPORTS[request.param](tmp_path)


def test_what_is_written_is_read_back_and_listed_by_name(transport: Transport) -> None:
    transport.write("", "localmind-sync.json", b"{}")
    transport.write(DEVICE, "00000002.seg", b"second")
    transport.write(DEVICE, "00000001.seg", b"first")

    assert transport.read(DEVICE, "00000001.seg", 100) == b"first"
    assert transport.list(DEVICE) == [Entry("00000001.seg"), Entry("00000002.seg")]
    assert transport.list() == [Entry(DEVICE, directory=True), Entry("localmind-sync.json")]


def test_a_write_replaces_the_whole_file_and_changes_its_stamp(transport: Transport) -> None:
    transport.write(DEVICE, "cursors.seg", b"old cursors")
    before = transport.stamp(DEVICE, "cursors.seg")
    transport.write(DEVICE, "cursors.seg", b"new")

    assert transport.read(DEVICE, "cursors.seg", 100) == b"new"
    after = transport.stamp(DEVICE, "cursors.seg")
    assert before is not None and after is not None and after.identity != before.identity


def test_what_is_not_there_says_so(transport: Transport) -> None:
    assert transport.stamp(DEVICE, "00000001.seg") is None
    with pytest.raises(FileNotFoundError):
        transport.read(DEVICE, "00000001.seg", 100)
    with pytest.raises(FileNotFoundError):
        transport.list(DEVICE)


def test_a_file_larger_than_the_limit_is_refused_unread(transport: Transport) -> None:
    transport.write(DEVICE, "00000001.seg", b"x" * 101)
    with pytest.raises(ValueError, match="larger than any sync file"):
        transport.read(DEVICE, "00000001.seg", 100)


def test_deleting_files_and_a_directory(transport: Transport) -> None:
    for name in ("00000001.seg", "00000002.seg", "cursors.seg"):
        transport.write(DEVICE, name, b"data")
    transport.delete(DEVICE, ["00000001.seg", "00000009.seg"])  # a missing one is fine
    assert [entry.name for entry in transport.list(DEVICE)] == ["00000002.seg", "cursors.seg"]

    transport.remove_directory(DEVICE)
    assert transport.list() == []
    assert transport.stamp(DEVICE) is None


def test_names_in_reports_tell_files_apart_and_the_address_is_stable(
    transport: Transport,
) -> None:
    names = {
        transport.describe(),
        transport.describe(DEVICE),
        transport.describe(DEVICE, "00000001.seg"),
        transport.describe(DEVICE, "00000002.seg"),
    }
    assert len(names) == 4
    assert transport.address == transport.address and transport.address

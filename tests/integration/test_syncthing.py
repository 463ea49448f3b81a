"""End to end through real Syncthing: two daemons on loopback carry the sync folder between two
stores driven by the real ``localmind`` command line."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.cli_support import Cli
from tests.syncthing_support import Daemon, same_files, syncthing_binary, syncthing_pair

pytestmark = pytest.mark.slow

if syncthing_binary() is None:
    if os.environ.get("CI"):
        raise RuntimeError("CI must have Syncthing: .ci/run installs it with apt-get")
    pytest.skip("syncthing is not installed (apt-get install syncthing)", allow_module_level=True)


def delivered(source: Daemon, target: Daemon, relative: str = "") -> None:
    """Scan ``source`` now and wait until ``target`` holds the same files under ``relative``."""
    source.scan()
    target.wait_until(
        same_files(source.folder, target.folder, relative),
        f"{relative or 'the folder'} to arrive from {source.name}",
    )


def test_a_memory_and_its_forget_travel_through_syncthing(tmp_path: Path) -> None:
    from sync import cli as sync_cli  # registers `localmind sync`

    assert sync_cli.sync_group.name == "sync"
    a, b = Cli(tmp_path / "a.db"), Cli(tmp_path / "b.db")
    with syncthing_pair(tmp_path) as (alpha, beta):
        a.ok("sync", "init", str(alpha.folder))
        delivered(alpha, beta)  # the header (and a's empty directory)
        assert "imported 0 changes" in b.ok("sync", "join", str(beta.folder)).stdout
        device_a = a.json("sync", "status")["device_id"]
        device_b = b.json("sync", "status")["device_id"]

        tea = a.add("My favourite tea is green tea from Shizuoka")
        assert "Exported 1 change;" in a.ok("sync", "now").stdout
        delivered(alpha, beta, device_a)
        assert "imported 1 from 1 file (1 memory changed)" in b.ok("sync", "now").stdout
        assert b.contents() == ["My favourite tea is green tea from Shizuoka"]
        assert "Shizuoka" in b.ok("recall", "which tea do I like").stdout

        b.ok("forget", tea)
        assert "Exported 1 change;" in b.ok("sync", "now").stdout
        delivered(beta, alpha, device_b)
        assert "imported 1 from 1 file (1 memory changed)" in a.ok("sync", "now").stdout
        assert a.contents() == []
        assert "Shizuoka" not in a.ok("recall", "which tea do I like").stdout
        # Only ciphertext ever crossed: no file in either copy of the folder has the text.
        for daemon in (alpha, beta):
            for path in daemon.folder.rglob("*"):
                assert not path.is_file() or b"Shizuoka" not in path.read_bytes(), path

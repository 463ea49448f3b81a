"""``sync watch``: stores kept in sync by watch loops over a real folder, each in its own thread
on its own connection (as ``localmind sync watch`` runs beside other ``localmind`` commands)."""

from __future__ import annotations

import logging
import os
import queue
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from localmind import Memory
from sync import init_folder, join_folder
from sync.folder import ImportReport
from sync.watch import SyncReport, is_sync_change, watch
from tests.conftest import FAST_KDF, PASSPHRASE, FakeClock

TIMEOUT_S = 60.0  # generous: only a broken watcher ever waits this long
FAKE_DEVICE = "01ARZ3NDEKTSV4RRFFQ69G5FAV"  # a device id no store here has


class Watcher:
    """A watch loop in a thread, on its own connection to a store; tests wait on its reports."""

    def __init__(self, path: Path, folder: Path) -> None:
        self.memory = Memory.open(path, PASSPHRASE, kdf=FAST_KDF, clock=FakeClock())
        self.stop = threading.Event()
        self.reports: list[SyncReport] = []
        self._changed = threading.Condition()
        self.thread = threading.Thread(
            target=watch,
            args=(self.memory, folder, self.stop, self._record),
            kwargs={"poll_ms": 100, "step_ms": 100, "debounce_ms": 1000, "retry_s": 0.1},
            daemon=True,
        )
        self.thread.start()

    def _record(self, report: SyncReport) -> None:
        with self._changed:
            self.reports.append(report)
            self._changed.notify_all()

    def wait_for(self, wanted: Callable[[SyncReport], bool], after: int = 0) -> SyncReport:
        """The first report (from the ``after``-th on) that is ``wanted``, waiting for it."""

        def found() -> SyncReport | None:
            return next((r for r in self.reports[after:] if wanted(r)), None)

        with self._changed:
            assert self._changed.wait_for(found, TIMEOUT_S), f"no such report in {self.reports}"
            report = found()
        assert report is not None
        return report

    def close(self) -> None:
        self.stop.set()
        self.thread.join(TIMEOUT_S)
        assert not self.thread.is_alive(), "the watch loop did not stop"
        self.memory.close()


@pytest.fixture
def shared(tmp_path: Path) -> Path:
    return tmp_path / "Sync" / "localmind"


@pytest.fixture
def stores(tmp_path: Path, shared: Path) -> Iterator[tuple[Memory, Memory]]:
    """Two stores, A and B, that joined ``shared``; the test's own connections to them."""
    a = Memory.open(tmp_path / "a.db", PASSPHRASE, kdf=FAST_KDF, clock=FakeClock())
    b = Memory.open(tmp_path / "b.db", PASSPHRASE, kdf=FAST_KDF, clock=FakeClock())
    init_folder(a, shared, PASSPHRASE, FAST_KDF)
    join_folder(b, shared, PASSPHRASE)
    yield a, b
    a.close()
    b.close()


@pytest.fixture
def watching(stores: tuple[Memory, Memory], shared: Path) -> Iterator[tuple[Watcher, Watcher]]:
    """A watch loop for each store, both past their first sync."""
    a, b = stores
    watchers = Watcher(a.path, shared), Watcher(b.path, shared)
    try:
        for watcher in watchers:
            assert watcher.wait_for(lambda r: True).ok
        yield watchers
    finally:
        for watcher in watchers:
            watcher.close()


def test_a_memory_added_on_one_laptop_reaches_the_other(
    stores: tuple[Memory, Memory], watching: tuple[Watcher, Watcher]
) -> None:
    a, b = stores
    on_a, on_b = watching
    tea = a.remember("My favourite tea is green tea")  # by another connection, like the CLI
    exported = on_a.wait_for(lambda r: r.exported > 0)
    assert exported.summary() == "exported 1, imported 0 from 0 files"
    arrived = on_b.wait_for(lambda r: r.imported.events > 0)
    assert arrived.summary().startswith("exported 0, imported 1 from 1 file")
    assert b.get(tea.id).content == "My favourite tea is green tea"
    # And back: a forget on B reaches A.
    seen = len(on_a.reports)
    b.forget(tea.id)
    on_a.wait_for(lambda r: r.imported.events > 0, after=seen)
    assert str(a.get(tea.id).status) == "deleted"


@pytest.mark.slow
def test_bad_and_temporary_files_are_logged_and_the_watch_goes_on(
    stores: tuple[Memory, Memory],
    watching: tuple[Watcher, Watcher],
    shared: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    a, b = stores
    on_a, on_b = watching
    stranger = shared / FAKE_DEVICE
    stranger.mkdir()
    (stranger / ".syncthing.00000002.seg.tmp").write_bytes(b"half a file")
    seen = len(on_b.reports)
    with caplog.at_level(logging.WARNING, logger="sync.watch"):
        (stranger / "00000001.seg").write_bytes(b"LMSYNC1\n" + os.urandom(64))
        report = on_b.wait_for(lambda r: bool(r.problems), after=seen)
    garbage = str(stranger / "00000001.seg")
    assert report.ok and [path for path, _ in report.problems] == [garbage]
    assert "skipped 1 file" in report.summary()
    assert f"skipped {garbage}: rejected" in caplog.text
    assert ".syncthing" not in caplog.text  # a sync engine's file in transit is no problem
    # The watch loops go on: a new memory still travels.
    seen = len(on_b.reports)
    cello = a.remember("I play the cello on Sundays")
    on_b.wait_for(lambda r: r.imported.events > 0, after=seen)
    assert b.get(cello.id).content == "I play the cello on Sundays"
    assert on_a.thread.is_alive() and on_b.thread.is_alive()


@pytest.mark.slow
def test_a_folder_that_goes_away_and_comes_back(
    stores: tuple[Memory, Memory], watching: tuple[Watcher, Watcher], shared: Path
) -> None:
    a, b = stores
    _, on_b = watching
    away = shared.with_name("unmounted")
    seen = len(on_b.reports)
    shared.rename(away)
    missing = on_b.wait_for(lambda r: not r.ok, after=seen)
    assert missing.error is not None and "missing" in missing.error
    tea = a.remember("My favourite tea is green tea")  # waits in A until the folder is back
    seen = len(on_b.reports)
    away.rename(shared)
    on_b.wait_for(lambda r: r.imported.events > 0, after=seen)
    assert b.get(tea.id).content == "My favourite tea is green tea"


def test_a_folder_under_a_hidden_directory_still_reports_bad_files(tmp_path: Path) -> None:
    root = tmp_path / ".config" / "Sync" / "localmind"  # every path in it has a dotted part
    garbage = str(root / FAKE_DEVICE / "00000001.seg")
    in_transit = str(root / FAKE_DEVICE / ".syncthing.00000002.seg.tmp")
    imported = ImportReport(skipped=[(garbage, "rejected"), (in_transit, "cut short")])
    report = SyncReport(0.0, imported=imported, folder=root)
    assert report.problems == [(garbage, "rejected")]


def test_which_changes_start_a_sync(shared: Path) -> None:
    own, other = "01JOWNDEVICE0000000000000A", FAKE_DEVICE
    starts = {
        f"{other}/00000003.seg": True,
        f"{other}/cursors.seg": True,
        f"{other}/notes.txt": True,  # a stranger's file: the sync logs it
        "localmind-sync.json": True,
        f"{other}/.syncthing.00000003.seg.tmp": False,  # Syncthing, still receiving
        f"{other}/~syncthing~00000003.seg.tmp": False,  # Syncthing on Windows
        f"{other}/.00000003.seg.1a2b3c4d.tmp": False,  # our own atomic write, in progress
        ".stfolder": False,
        f".stversions/{other}/00000001.seg": False,
        f"{other}/00000004.seg.part": False,
        f"{own}/00000009.seg": False,  # our own export
    }
    assert {name: is_sync_change(shared / name, shared, own) for name in starts} == starts
    assert not is_sync_change(shared.parent / "elsewhere.seg", shared, own)


@pytest.mark.slow
def test_the_sync_watch_command_runs_until_ctrl_c(tmp_path: Path, shared: Path) -> None:
    from sync import cli as sync_cli  # noqa: F401  (registers `localmind sync`)
    from tests.cli_support import Cli, ctrl_c_as_at_a_terminal

    db = tmp_path / "laptop.db"
    Cli(db).ok("add", "My favourite tea is green tea")
    Cli(db).ok("sync", "init", str(shared))
    environment = {**os.environ, "LOCALMIND_DB": str(db), "LOCALMIND_PASSPHRASE": PASSPHRASE}
    process = subprocess.Popen(
        [sys.executable, "-m", "tui.launcher", "sync", "watch"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
        preexec_fn=ctrl_c_as_at_a_terminal,
    )
    lines: queue.Queue[str] = queue.Queue()
    reader = threading.Thread(target=lambda: [lines.put(line) for line in process.stdout or []])
    reader.start()
    try:
        assert lines.get(timeout=TIMEOUT_S) == f"Watching {shared} (Ctrl+C to stop).\n"
        first = lines.get(timeout=TIMEOUT_S)
        assert first.endswith(" exported 0, imported 0 from 0 files\n"), first
        process.send_signal(signal.SIGINT)
        assert process.wait(TIMEOUT_S) == 0
    finally:
        if process.poll() is None:
            process.kill()
        reader.join(TIMEOUT_S)
    assert lines.get_nowait() == "Stopped.\n"
    assert process.stderr is not None and "Traceback" not in process.stderr.read()


def test_the_summary_says_when_an_edit_was_carried_over() -> None:
    from sync.folder import ImportReport
    from sync.watch import SyncReport

    report = SyncReport(0.0, 1, ImportReport(segments=1, events=2, memories=2, carried=["K1"]))
    assert report.summary() == (
        "exported 1, imported 2 from 1 file (2 memories changed); carried an edit made here "
        "into memory K1 (another laptop resolved)"
    )


def test_the_summary_says_when_another_laptops_keep_both_settled_a_conflict() -> None:
    from sync.folder import ImportReport
    from sync.watch import SyncReport

    report = SyncReport(0.0, 0, ImportReport(segments=1, events=1, memories=1, kept_both=1))
    assert report.summary() == (
        "exported 0, imported 1 from 1 file (1 memory changed); settled 1 conflict kept both "
        "elsewhere"
    )

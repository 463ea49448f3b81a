"""`sync leave` while a `sync watch` of the same store runs (another process, another connection
to the store): the watch must not write into the folder after the departure record, or the
other laptops retire the directory without the segment that came after it, or see no
departure at all (the watch's cursors file replaces the one that said it left)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from localmind import Memory
from sync import codec
from sync import folder as sync_folder
from sync.devices import leave_folder
from sync.folder import init_folder, join_folder, sync_once
from sync.folder_transport import FolderTransport
from sync.watch import SyncReport, sync_now
from tests.conftest import FAST_KDF, PASSPHRASE, FakeClock

# How long the leave waits for the watch's sync it set off. Without a lock the sync finishes
# well within it; with one the sync waits for the leave, and this is what the test costs.
WATCH_GRACE_S = 2.0


@pytest.fixture
def stores(tmp_path: Path) -> Iterator[tuple[Memory, Memory, Memory, Path]]:
    """The leaving laptop's store opened twice (by `sync leave` and by its `sync watch`), the
    staying laptop's store, and their folder."""
    shared = tmp_path / "Sync"
    leaving = Memory.open(tmp_path / "a.db", PASSPHRASE, kdf=FAST_KDF, clock=FakeClock())
    watching = Memory.open(tmp_path / "a.db", PASSPHRASE, kdf=FAST_KDF, clock=FakeClock())
    staying = Memory.open(tmp_path / "b.db", PASSPHRASE, kdf=FAST_KDF, clock=FakeClock())
    try:
        init_folder(leaving, shared, PASSPHRASE, FAST_KDF, name="laptop")
        join_folder(staying, shared, PASSPHRASE, name="desktop")
        yield leaving, watching, staying, shared
    finally:
        for memory in (leaving, watching, staying):
            memory.close()


@pytest.mark.slow  # 5 s: it waits for the watch (WATCH_GRACE_S)
def test_a_watch_syncing_while_leave_runs_writes_nothing_after_the_departure_record(
    stores: tuple[Memory, Memory, Memory, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    leaving, watching, staying, shared = stores
    tea = leaving.remember("My favourite tea is green tea")
    sync_once(leaving, shared)
    sync_once(staying, shared)
    reports: list[SyncReport] = []
    real_publish = sync_folder.publish_cursors

    def publish(memory: Memory, folder: object, *, leaving: bool = False) -> bool:
        wrote = real_publish(memory, folder, leaving=leaving)  # type: ignore[arg-type]
        if leaving:
            # The departure record is written and the store not yet reset: right now a
            # change arrives (by MCP, say) and the watch syncs it.
            watching.remember("I play the cello on Sundays")
            watch = threading.Thread(target=lambda: reports.append(sync_now(watching, shared)))
            watch.start()
            watch.join(WATCH_GRACE_S)
            threads.append(watch)
        return wrote

    threads: list[threading.Thread] = []
    monkeypatch.setattr(sync_folder, "publish_cursors", publish)
    _, problem = leave_folder(leaving)
    for thread in threads:
        thread.join(60)
    monkeypatch.undo()

    assert problem is None
    # The watch ran after the leave, as a store that syncs with nothing any more.
    [report] = reports
    assert report.error is not None and "has not joined a sync folder" in report.error
    # The departure record is there, and no segment lies beyond it.
    own = shared / leaving.device_id
    key = sync_folder.sync_key(staying)
    published = sync_folder.read_published(key, FolderTransport(shared), leaving.device_id)
    assert published is not None and published.left
    numbers = codec.numbered([p.name for p in own.iterdir()], codec.SEGMENT_RE)
    assert numbers and max(numbers) <= published.through
    # The staying laptop applies everything the leaver exported, then retires its directory.
    _, imported = sync_once(staying, shared)
    assert imported.retired == [f"laptop ({leaving.device_id})"]
    assert not own.exists()
    assert staying.get(tea.id).content == "My favourite tea is green tea"

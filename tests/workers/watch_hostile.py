"""A watch loop in a folder that holds an unreadable device directory and a directory symlink
to ``/``. Run as a user that cannot read what it made unreadable (not root):

    python -m tests.workers.watch_hostile DIRECTORY

Prints ``ok`` and exits 0 when a memory added on one laptop reached the other through the
watch, with no report saying the folder cannot be watched; exits 1 saying what went wrong.
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path

from localmind import Memory
from sync.folder import export_pending, init_folder, join_folder
from sync.watch import SyncReport, watch
from tests.conftest import FAST_KDF, PASSPHRASE

UNREADABLE = "01JNREADABE000000000000000"
ROOT_LINK = "01JR00TS1NK000000000000000"
TIMEOUT_S = 60.0


def main(base: Path) -> int:
    shared = base / "Sync"
    a = Memory.open(base / "a.db", PASSPHRASE, kdf=FAST_KDF)
    b = Memory.open(base / "b.db", PASSPHRASE, kdf=FAST_KDF)
    init_folder(a, shared, PASSPHRASE, FAST_KDF)
    join_folder(b, shared, PASSPHRASE)
    locked = shared / UNREADABLE
    locked.mkdir()
    (locked / "00000001.seg").write_bytes(b"not for you")
    locked.chmod(0)  # as a sync engine carrying permission bits would leave it
    (shared / ROOT_LINK).symlink_to("/")
    reports: list[SyncReport] = []
    arrived = threading.Event()
    stop = threading.Event()

    def record(report: SyncReport) -> None:
        reports.append(report)
        if report.imported.events:
            arrived.set()

    watcher = threading.Thread(
        target=watch,
        args=(b, shared, stop, record),
        kwargs={"poll_ms": 100, "step_ms": 100, "debounce_ms": 500, "retry_s": 0.2},
        daemon=True,
    )
    watcher.start()
    cello = a.remember("I play the cello on Sundays")
    export_pending(a, shared)
    try:
        if not arrived.wait(TIMEOUT_S):
            print(f"nothing arrived in {TIMEOUT_S} s; last reports: {reports[-3:]}")
            return 1
        failed = [r.error for r in reports if r.error]
        if failed:
            print(f"the watch reported errors: {failed}")
            return 1
        # b's own connection is used by the watch thread: read through a new one
        stop.set()
        watcher.join(TIMEOUT_S)
        got = b.get(cello.id)
        if got is None or got.content != "I play the cello on Sundays":
            print("the memory did not arrive")
            return 1
    finally:
        stop.set()
        locked.chmod(0o700)
        a.close()
        b.close()
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))

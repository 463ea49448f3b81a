"""The key file's lock: one process at a time rewrites a store's key file or swaps its files.

``passwd`` holds it while it unwraps and rewraps (so two at once cannot both report success
with only one passphrase working afterwards); a closing store holds it for the moment it
takes to record the newest change it saw; a restore or a rotation holds it while it swaps the
store's files. It is an advisory lock on ``<store>.lock`` (filelock: ``flock`` on POSIX,
``msvcrt.locking`` on Windows), so it is released whenever its process ends, even by SIGKILL.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock, Timeout

from localmind.errors import StoreInUse

#: How long a short holder (a store recording what it saw) waits for a long one (passwd).
WAIT_SECONDS = 30.0


def lock_path(db: Path) -> Path:
    return db.with_name(db.name + ".lock")


@contextmanager
def key_file_lock(db: Path, *, wait: bool = True, doing: str = "") -> Iterator[None]:
    """Hold the lock of the store at ``db``. With ``wait=False`` a lock held elsewhere is
    :class:`StoreInUse` at once (saying ``doing`` was not done)."""
    # One lock object per file in a process (``is_singleton``), counting its holders: a holder
    # may call code that takes it again (a rotation swapping files) without deadlocking itself.
    lock = FileLock(lock_path(db), mode=0o600, thread_local=False, is_singleton=True)
    try:
        lock.acquire(timeout=WAIT_SECONDS if wait else 0)
    except Timeout:
        raise StoreInUse(
            f"Another localmind program is changing the key of {db} (a `localmind passwd`, "
            f"a restore or a key rotation); {doing or 'nothing was done'}. Try again when it "
            "has finished."
        ) from None
    try:
        yield
    finally:
        lock.release()

"""One sync of a store at a time: a `sync watch`, a `sync now` and a `sync leave` of the same
store (separate processes, or threads of one) take turns.

Without it a watch could export, and publish its cursors, between `sync leave`'s departure
record and the moment the store forgets the folder: a segment after the record (which the other
laptops may retire unread) or a cursors file without the record (so nobody ever retires the
directory). With it the watch's sync runs wholly before the leave, or after it, when the store
no longer syncs and it stops with a clear error.

An advisory lock on ``<store>.sync.lock`` (filelock: ``flock``; released when the process
ends, even by SIGKILL), held per thread: a holder may call code that takes it again, another
thread of the same process waits like another process does.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Concatenate, ParamSpec, TypeVar

from filelock import FileLock, Timeout

from localmind import Memory
from localmind.errors import StoreInUse

#: Longer than any sync of a working folder takes; a holder stuck longer is reported.
WAIT_SECONDS = 300.0


def sync_lock_path(db: Path) -> Path:
    return db.with_name(db.name + ".sync.lock")


@contextmanager
def one_sync_at_a_time(memory: Memory) -> Iterator[None]:
    """Hold the sync lock of ``memory``'s store (see the module docstring)."""
    lock = FileLock(
        sync_lock_path(Path(memory.path)), mode=0o600, thread_local=True, is_singleton=True
    )
    try:
        lock.acquire(timeout=WAIT_SECONDS)
    except Timeout:
        raise StoreInUse(
            f"Another localmind program has been syncing {memory.path} for "
            f"{WAIT_SECONDS:.0f} s; nothing was synced. Try again when it has finished."
        ) from None
    try:
        yield
    finally:
        lock.release()


P = ParamSpec("P")
R = TypeVar("R")


def holding_the_sync_lock(
    function: Callable[Concatenate[Memory, P], R],
) -> Callable[Concatenate[Memory, P], R]:
    """``function(memory, ...)`` run while holding ``memory``'s sync lock."""

    @functools.wraps(function)
    def locked(memory: Memory, /, *args: P.args, **kwargs: P.kwargs) -> R:
        with one_sync_at_a_time(memory):
            return function(memory, *args, **kwargs)

    return locked

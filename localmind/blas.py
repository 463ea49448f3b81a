"""One BLAS thread for a search's matrix products.

numpy's OpenBLAS shares a product among every core once it is big enough, and the 2,000 int8
candidates × 512 dimensions a search ranks at 100k memories are. The products are small (a
fraction of a millisecond on one core), so the helper threads gain nothing even on an idle
machine, and on a busy one the caller waits for helpers that are not scheduled: at 100k
memories the in-memory search took 4.1 ms of the caller's CPU with OpenBLAS's threads and 1.5
ms with one. threadpoolctl sets the limit for the duration of a search only, so an application
embedding localmind keeps its own setting.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@functools.cache
def controller() -> Any:
    """threadpoolctl's view of this process's BLAS libraries (found once: ~4 ms), or None."""
    try:
        from threadpoolctl import ThreadpoolController

        return ThreadpoolController()
    except Exception:  # no threadpoolctl, or a library it cannot read: the products still run
        return None


@functools.cache
def _libraries() -> tuple[Any, ...]:
    """threadpoolctl's controllers of this process's BLAS libraries (found once)."""
    found = controller()
    return (
        ()
        if found is None
        else tuple(library for library in found.lib_controllers if library.user_api == "blas")
    )


_within = threading.local()  # .depth: one_thread blocks this thread is inside


@contextmanager
def one_thread() -> Iterator[None]:
    """A ``with`` block during which BLAS uses one thread (restored after it). Inside another
    such block of the same thread it changes nothing. Each library's own get/set calls, not
    threadpoolctl's ``limit``: that asks every library for its whole state and built a limiter
    per block, 60 µs against 14 (twice per vector search before its exact stage shared the
    block, once now: ~2 % of a recall at 10k memories)."""
    depth = getattr(_within, "depth", 0)
    libraries = _libraries() if not depth else ()
    before = [library.get_num_threads() for library in libraries]
    _within.depth = depth + 1
    try:
        for library, threads in zip(libraries, before, strict=True):
            if threads is not None and threads != 1:
                library.set_num_threads(1)
        yield
    finally:
        for library, threads in zip(libraries, before, strict=True):
            if threads is not None and threads != 1:
                library.set_num_threads(threads)
        _within.depth = depth

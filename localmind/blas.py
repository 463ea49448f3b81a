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
from contextlib import AbstractContextManager, nullcontext
from typing import Any


@functools.cache
def controller() -> Any:
    """threadpoolctl's view of this process's BLAS libraries (found once: ~4 ms), or None."""
    try:
        from threadpoolctl import ThreadpoolController

        return ThreadpoolController()
    except Exception:  # no threadpoolctl, or a library it cannot read: the products still run
        return None


def one_thread() -> AbstractContextManager[Any]:
    """A ``with`` block during which BLAS uses one thread (restored after it)."""
    found = controller()
    if found is None:
        return nullcontext()
    limit: AbstractContextManager[Any] = found.limit(limits=1, user_api="blas")
    return limit

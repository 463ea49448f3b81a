"""The store: one encrypted SQLite connection and the parts that speak SQL to it, one per
concept (memories, vectors, keywords, events, conflicts, history, meta, latency, profiles,
replication)."""

from __future__ import annotations

import signal
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import apsw

from localmind.errors import InterruptedAfterSaving
from localmind.hlc import HybridLogicalClock
from localmind.store.keywords import WordIndexState
from localmind.store.latency import Latency
from localmind.store.profiles import Profiles
from localmind.store.replication import Replication
from localmind.store.row_cache import LookupCache, RowCache
from localmind.store.vectors import _IndexState


class SqliteStore(Replication, Latency, Profiles):
    def __init__(
        self,
        db: apsw.Connection,
        hlc: HybridLogicalClock,
        device_id: str,
        clock: Callable[[], float],
    ) -> None:
        self.db = db
        self._hlc = hlc
        self._clock = clock
        self.device_id = device_id
        # The model this process embeds with; None until the store is known to be indexed with
        # it (and then vectors are neither written nor searched).
        self.vector_identity = None
        self._tokenizer = None
        self._vocabulary = False
        self._sign_index = None
        self._word_index = None
        self._word_state = WordIndexState()
        self._phrases = OrderedDict()
        self._index_state = _IndexState()
        self._row_cache = RowCache()  # recall's candidate rows (Memories.recall_rows)
        # what recall looks up of its first results besides their rows
        self._pending_conflicts = LookupCache(self._row_cache, ("conflicts",))
        self._later_versions = LookupCache(self._row_cache, ("events",))
        self._kept_with = LookupCache(self._row_cache, ("events",))
        # The app searches from worker threads while its main thread may write: the arrays
        # change under one thread at a time.
        self._index_lock = threading.Lock()

    def now(self) -> float:
        """The store's wall clock (a test's fake one in tests)."""
        return self._clock()

    @contextmanager
    def all_or_nothing(self) -> Iterator[None]:
        """One write transaction around many changes (nested ``with db`` blocks inside it are
        savepoints): every one of them is kept, or, if anything raises (Ctrl-C included) or the
        process dies first, none. The in-memory vector index follows the uncommitted writes
        and is dropped, to be built again, when they roll back. Holds the write lock
        throughout: other processes' writes wait (up to the busy timeout) meanwhile."""
        state = self._index_state
        outermost = not self.db.in_transaction
        try:
            with _InterruptAfterCommit() as commit, self.db:
                state.follows_uncommitted = outermost or state.follows_uncommitted
                yield
                if outermost:
                    commit.begins()
        except BaseException:
            with self._index_lock:
                self._sign_index = None  # it may hold rows that were never committed
            raise
        finally:
            if outermost:
                state.follows_uncommitted = False


class _InterruptAfterCommit:
    """Ctrl-C during the commit of :meth:`SqliteStore.all_or_nothing` waits for it: raised the
    moment COMMIT returns, it would say "nothing was saved" of a change that was. From
    :meth:`begins` (the work is done, the commit next) until the end, SIGINT is only noted,
    then raised as :class:`InterruptedAfterSaving` once the change is on disk."""

    def __init__(self) -> None:
        self._previous: Any = None
        self._held = False
        self._interrupted = False

    def __enter__(self) -> _InterruptAfterCommit:
        return self

    def begins(self) -> None:
        if threading.current_thread() is not threading.main_thread():
            return  # (only the main thread receives signals)
        self._previous = signal.signal(signal.SIGINT, self._note)
        self._held = True

    def _note(self, signum: int, frame: Any) -> None:
        self._interrupted = True

    def __exit__(self, etype: Any, evalue: Any, traceback: Any) -> None:
        if not self._held:
            return
        signal.signal(signal.SIGINT, self._previous)
        if self._interrupted and etype is None:
            raise InterruptedAfterSaving

"""Sync while the TUI runs: the folder watch loop (``sync.watch``) on a thread of its own, and
what the Health page shows of it."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from textual.message import Message

from localmind.memory import Memory
from sync.folder import joined_folder, status
from sync.watch import SyncReport

#: How long quitting waits for a sync in progress to finish before closing the store anyway.
STOP_WAIT_S = 10.0


class SyncReported(Message):
    """A sync ran (posted to the app from the watch loop's thread)."""

    def __init__(self, report: SyncReport) -> None:
        super().__init__()
        self.report = report


@dataclass
class SyncState:
    """The app's watch loop: how to stop it, whether its thread is inside it, its last report.

    ``running`` is set by the thread before it looks at ``stop``, and the app sets ``stop``
    before it looks at ``running``: so either the thread sees the stop and never touches the
    store, or the app sees it running and waits for ``stopped`` before closing the store."""

    stop: threading.Event = field(default_factory=threading.Event)
    stopped: threading.Event = field(default_factory=threading.Event)
    running: bool = False
    last: SyncReport | None = None


@dataclass(frozen=True, slots=True)
class SyncOverview:
    """What the Health page shows: the folder's status (``sync.folder.status``), or None
    when this store has joined no folder."""

    status: dict[str, Any] | None

    @classmethod
    def of(cls, memory: Memory) -> SyncOverview:
        folder = joined_folder(memory)
        return cls(None if folder is None else status(memory, folder))

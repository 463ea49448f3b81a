"""What the screens share: how a store is opened, and the open store made safe to call from
the app's thread workers (one call at a time on the one SQLite connection)."""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, cast

from localmind import swap
from localmind.composition import open_memory
from localmind.configuration import Configuration
from localmind.embedders.base import Embedder
from localmind.errors import NotAStore
from localmind.keys import KdfParams, key_file_for
from localmind.llm.base import LLM
from localmind.memory import Memory
from localmind.opening import check_files

Clock = Callable[[], float]


@dataclass
class StoreOptions:
    """Where the store is and how to open it (everything but the passphrase)."""

    path: Path
    namespace: str = "me"
    embedder: Embedder | str | None = None
    llm: LLM | None = None
    clock: Clock = time.time
    kdf: KdfParams | None = None  # only used when creating; tests pass a cheap one
    # the rest of what opening needs (the file's numbers): localmind.configuration
    configuration: Configuration = field(default_factory=Configuration)

    def exists(self) -> bool:
        """True when a store (or half of one) is at the path: then unlock, never create."""
        return self.path.exists() or key_file_for(self.path).exists() or swap.pending(self.path)

    def problem(self) -> str | None:
        """Why the store cannot be opened whatever the passphrase (its key file is missing,
        …), or None; told before the passphrase is asked for. An interrupted restore is
        finished by opening, so it is no problem here."""
        if swap.pending(self.path):
            return None
        try:
            check_files(self.path)
        except NotAStore as error:
            return str(error)
        return None

    def open(self, passphrase: str, *, create: bool, data_key: bytes | None = None) -> Memory:
        """``data_key``: the key remembered in the OS keyring, instead of ``passphrase``."""
        memory = open_memory(
            replace(self.configuration, store=self.path, user=self.namespace),
            passphrase,
            data_key=data_key,
            embedder=self.embedder,
            clock=self.clock,
            create=create,
            kdf=self.kdf,
            llm=self.llm,
        )
        memory.source = "tui"  # what the memories page adds (the chat page says "chat")
        return serial(memory)


class _Serial:
    """A proxy of a :class:`Memory` whose method calls hold one re-entrant lock: the chat's turn
    worker, a search worker and a feedback worker never interleave inside a transaction."""

    def __init__(self, memory: Memory) -> None:
        self._memory = memory
        self._lock = threading.RLock()

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._memory, name)
        if not callable(attribute):
            return attribute
        lock = self._lock

        @functools.wraps(attribute)
        def locked(*args: Any, **kwargs: Any) -> Any:
            with lock:
                return attribute(*args, **kwargs)

        return locked


def serial(memory: Memory) -> Memory:
    return cast(Memory, _Serial(memory))

"""What carries a sync folder's files: the port, and an in-memory implementation.

The sync protocol (``sync.folder``) sees a place of named files in two levels: the header at
the top (directory ``""``) and one directory per device holding that device's segments,
snapshots and cursors file. A transport lists, reads, writes (atomically: a reader sees a
whole file or none) and deletes them by name, and nothing else; sealing is ``sync.codec``'s,
the decisions are ``sync.protocol``'s. The folder a file-sync engine carries is the first
implementation (``sync.folder_transport``); :class:`MemoryTransport` is the model for the next
one (a git remote, an S3 bucket) and what fast tests run the protocol against.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class Entry:
    """A name in a listing; ``directory`` only for a real directory (never a link to one)."""

    name: str
    directory: bool = False


@dataclass(frozen=True, slots=True)
class Stamp:
    """What a transport knows of a file without reading it: ``identity`` changes whenever the
    file does (a rejected file is not read again until it changes), ``modified`` is when it
    was last written, in wall-clock seconds (``sync status``'s "last seen")."""

    identity: tuple[int, int, int]
    modified: float


class Transport(Protocol):
    """A sync folder's files, by directory (``""`` for the top, else a device id) and name."""

    @property
    def address(self) -> str:
        """Where it is, the same for every way of naming it: a store remembers it, and two
        addresses are equal exactly when they are the same place."""
        ...

    def describe(self, directory: str = "", name: str = "") -> str:
        """How a log line or a report names a directory or a file (a path, a URL)."""
        ...

    def list(self, directory: str = "") -> list[Entry]:
        """The entries of ``directory``, sorted by name; ``OSError`` when it cannot be listed
        (``FileNotFoundError`` when it is not there)."""
        ...

    def read(self, directory: str, name: str, limit: int) -> bytes:
        """A file's bytes. ``FileNotFoundError`` when it is gone, ``ValueError`` (before
        reading) when it cannot be a sync file (larger than ``limit``, not a plain file),
        ``OSError`` for what the carrier refuses."""
        ...

    def stamp(self, directory: str, name: str = "") -> Stamp | None:
        """Whether something is at that name, and what it is like; ``None`` when nothing."""
        ...

    def write(self, directory: str, name: str, data: bytes) -> None:
        """Put ``data`` at ``name`` atomically, replacing whatever is there and making the
        directory when needed; durable once it returns."""
        ...

    def delete(self, directory: str, names: Iterable[str]) -> None:
        """Delete files (a missing one is fine); durable once it returns."""
        ...

    def remove_directory(self, directory: str) -> None:
        """Remove what is left of a device's directory, whatever it holds."""
        ...


def check_size(size: int, limit: int) -> None:
    """The ``ValueError`` every transport raises for a file too large to be a sync file."""
    if size > limit:
        raise ValueError(f"{size:,} bytes, larger than any sync file ({limit:,})")


class MemoryTransport:
    """A sync folder held in a dict: what several stores in one process share in fast tests
    (``MemoryTransport.shared``), and the smallest complete transport."""

    def __init__(self, name: str = "memory") -> None:
        self._name = name
        self._files: dict[tuple[str, str], tuple[bytes, Stamp]] = {}
        self._directories: set[str] = set()
        self._writes = itertools.count(1)

    @property
    def address(self) -> str:
        return f"memory:{self._name}"

    def describe(self, directory: str = "", name: str = "") -> str:
        return "/".join([self.address, *(part for part in (directory, name) if part)])

    def list(self, directory: str = "") -> list[Entry]:
        if directory and directory not in self._directories:
            raise FileNotFoundError(self.describe(directory))
        names = [name for (folder, name) in self._files if folder == directory]
        if not directory:
            names += self._directories
        return sorted(
            (Entry(name, directory=not directory and name in self._directories) for name in names),
            key=lambda entry: entry.name,
        )

    def read(self, directory: str, name: str, limit: int) -> bytes:
        try:
            data, _ = self._files[(directory, name)]
        except KeyError:
            raise FileNotFoundError(self.describe(directory, name)) from None
        check_size(len(data), limit)
        return data

    def stamp(self, directory: str, name: str = "") -> Stamp | None:
        if not name:
            return Stamp((0, 0, 0), 0.0) if directory in self._directories else None
        held = self._files.get((directory, name))
        return None if held is None else held[1]

    def write(self, directory: str, name: str, data: bytes) -> None:
        if directory:
            self._directories.add(directory)
        serial = next(self._writes)
        self._files[(directory, name)] = (bytes(data), Stamp((serial, len(data), 0), time.time()))

    def delete(self, directory: str, names: Iterable[str]) -> None:
        for name in list(names):
            self._files.pop((directory, name), None)

    def remove_directory(self, directory: str) -> None:
        for folder, name in list(self._files):
            if folder == directory:
                del self._files[(folder, name)]
        self._directories.discard(directory)

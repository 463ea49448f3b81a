"""Tables derived from an installed package's data file, kept in the user cache directory so
that every process after the first reads them in milliseconds instead of parsing the file:
simplemma's English dictionary (:mod:`localmind.lemmas`), jieba's dictionary and its
part-of-speech tags (:mod:`localmind.chinese_words`), CC-CEDICT (:mod:`localmind.bilingual`).

A table is a pure function of the package's file, so one file per table and install holds it:
a magic line, the CRC-32 of the rest, then one ``marshal`` blob (plain data, loaded without
running code) with the format, the package's version and localmind's, the data file's size and
modification time, and the payload — big tables as buckets that are unpacked on first lookup
(:class:`localmind.buckets.LazyBuckets`). A file of another format, version or source, a
damaged or truncated one, or one whose payload does not unpack, is never used: it is rebuilt
from the package. It is written to a temporary sibling and renamed into place, so another
process sees either no file or a complete one. Any failure to read or write it only costs the
speed: the caller falls back to the package's own loading. The CRC catches damage, not an
attacker (one who can write the user's cache directory can change the package itself).

The files hold what is derived from the packages' files and nothing else: never a memory, a
query or a key.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import logging
import marshal
import os
import tempfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import platformdirs

log = logging.getLogger(__name__)

_MAGIC = b"localmind derived table\n"
_HEAD = len(_MAGIC) + 4
T = TypeVar("T")


class CacheInvalid(Exception):
    """The file on disk cannot be used as it is; the message says why."""


@functools.cache
def localmind_version() -> str:
    """localmind's installed version (its package's ``__init__`` is above this layer)."""
    from importlib import metadata

    try:
        return metadata.version("localmind")
    except metadata.PackageNotFoundError:
        return "unknown"


def cache_root() -> Path:
    return Path(platformdirs.user_cache_dir("localmind", appauthor=False)) / "tables"


@dataclass(frozen=True, slots=True)
class Derived:
    """A table derived from one data file of an installed package."""

    kind: str  # what the table is: "simplemma-en", "jieba", "cedict" (no "-" after the first)
    version: str  # the package's version (localmind's is added)
    source: Path  # the package's data file it is derived from
    format: int  # bumped whenever what is written (or how it is read back) changes
    #: Names this install's file of the table had before, as ``glob`` patterns with ``{place}``
    #: (an older localmind named it otherwise): removed with the other stale versions.
    former_names: tuple[str, ...] = ()

    @property
    def place(self) -> str:
        """Which install this is: two virtual environments get a file each (their data files
        differ in modification time: one shared file would be rebuilt by each in turn)."""
        return hashlib.sha256(str(self.source).encode()).hexdigest()[:8]

    @property
    def versions(self) -> str:
        return f"{self.version}+localmind{localmind_version()}".replace("-", "_")

    def path(self, directory: Path | None = None) -> Path:
        name = f"{self.kind}-{self.versions}-{self.place}-f{self.format}.bin"
        return (directory or cache_root()) / name

    def stamp(self) -> list[int]:
        stat = self.source.stat()
        return [stat.st_size, stat.st_mtime_ns]

    def header(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "format": self.format,
            "versions": self.versions,
            "source": self.stamp(),
        }


def read(derived: Derived, directory: Path | None = None) -> Any:
    """The payload of ``derived``'s file; :class:`CacheInvalid` unless it is whole and was
    written from this install's data file by this format and these versions."""
    path = derived.path(directory)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise CacheInvalid(f"unreadable: {error}") from None
    if data[: len(_MAGIC)] != _MAGIC or len(data) < _HEAD:
        raise CacheInvalid("not a derived table")
    if zlib.crc32(data[_HEAD:]) != int.from_bytes(data[len(_MAGIC) : _HEAD], "big"):
        raise CacheInvalid("damaged (checksum)")
    try:
        content = marshal.loads(data[_HEAD:])
    except (EOFError, ValueError, TypeError) as error:
        raise CacheInvalid(f"unreadable: {error}") from None
    if not isinstance(content, dict) or "payload" not in content:
        raise CacheInvalid("no payload")
    for field, value in derived.header().items():
        if content.get(field) != value:
            raise CacheInvalid(f"{field} is {content.get(field)!r}, not {value!r}")
    return content["payload"]


def write(derived: Derived, payload: Any, directory: Path | None = None) -> None:
    """Written to a temporary sibling and renamed into place. This install's files of other
    versions or formats of the table go (what an upgrade leaves behind), under its current
    name or a former one; never another install's, another table's or anything else."""
    path = derived.path(directory)
    data = marshal.dumps({**derived.header(), "payload": payload}, 4)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, staging = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(_MAGIC + zlib.crc32(data).to_bytes(4, "big") + data)
        os.replace(staging, path)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(staging)
    patterns = [f"{derived.kind}-*-{{place}}-f*.bin", *derived.former_names]
    for pattern in patterns:
        for sibling in path.parent.glob(pattern.format(place=derived.place)):
            if sibling != path and sibling.is_file():
                with contextlib.suppress(OSError):
                    sibling.unlink()


def load(
    derived: Derived,
    build: Callable[[], T],
    pack: Callable[[T], Any],
    unpack: Callable[[Any], T],
    directory: Path | None = None,
) -> T:
    """The table: from the cache file when it is valid, else ``build()`` from the package (and
    the file is then written for the next process). Never fails because of the file."""
    path = derived.path(directory)
    try:
        return unpack(read(derived, directory))
    except CacheInvalid as error:
        if path.exists():
            log.info("table cache %s not used (%s): rebuilding it", path, error)
    except OSError as error:  # the package's data file itself: let the package report it
        log.info("table cache %s not used: %s", path, error)
    except Exception as error:  # a payload that does not unpack: never used, rebuilt
        log.info("table cache %s not used (%s): rebuilding it", path, error)
    table = build()
    try:
        write(derived, pack(table), directory)
    except (OSError, ValueError) as error:
        log.info("table cache %s not written (%s): built again next time", path, error)
    return table

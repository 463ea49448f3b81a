"""The sync folder on disk: the transport of a folder a file-sync engine (Syncthing, a network
share, a cloud drive) carries between laptops.

Layout::

    <folder>/localmind-sync.json              header: format, version, the sync key wrapped by
                                              the passphrase (Argon2id salt and parameters)
    <folder>/<device id>/00000001.seg         that device's events, numbered from 1
    <folder>/<device id>/snapshot-00000040.seg  after compaction: every event of that device
                                              in segments 1..40, which are deleted
    <folder>/<device id>/cursors.seg          how far that device has applied each other one

Files are written under a temporary name, fsynced and renamed, so a reader sees a whole file or
none. Anyone who can write the folder can plant anything in it, so only regular files and real
directories are read (:func:`read_trusted_file`): never a symlink, a pipe or a device, and
nothing larger than a sync file can be.
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
from collections.abc import Iterable
from pathlib import Path

from localmind.files import fsync_directory, write_atomically
from sync.codec import HEADER_NAME, MAX_FILE_BYTES
from sync.transport import Entry, Stamp, check_size


class FolderTransport:
    """The files of the sync folder ``root`` (see the module docstring)."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root).expanduser()
        # Names are joined as strings: a sync meets tens of thousands of planted files, and
        # a Path per name doubled the time of a sync that only stats them.
        self._root = str(self.root)

    def __repr__(self) -> str:
        return f"FolderTransport({str(self.root)!r})"

    @property
    def address(self) -> str:
        try:
            return str(self.root.resolve())
        except (OSError, RuntimeError):  # a symlink loop: only this exact name is this place
            return str(self.root.absolute())

    def path(self, directory: str = "", name: str = "") -> str:
        if not directory:
            return os.path.join(self._root, name) if name else self._root
        return (
            os.path.join(self._root, directory, name)
            if name
            else os.path.join(self._root, directory)
        )

    def describe(self, directory: str = "", name: str = "") -> str:
        return self.path(directory, name)

    def list(self, directory: str = "") -> list[Entry]:
        with os.scandir(self.path(directory)) as entries:
            return [
                Entry(entry.name, _is_real_directory(entry))
                for entry in sorted(entries, key=lambda entry: entry.name)
            ]

    def read(self, directory: str, name: str, limit: int) -> bytes:
        return read_trusted_file(self.path(directory, name), limit)

    def stamp(self, directory: str, name: str = "") -> Stamp | None:
        try:
            info = os.lstat(self.path(directory, name))
        except OSError:
            return None
        return Stamp((info.st_ino, info.st_size, info.st_mtime_ns), info.st_mtime)

    def write(self, directory: str, name: str, data: bytes) -> None:
        path = Path(self.path(directory, name))
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            pass
        else:  # a stranger's directory at the name: a plain file is replaced by the rename
            if stat.S_ISDIR(info.st_mode):
                shutil.rmtree(path)  # never follows symlinks inside it
        # Owner-only, like the store: the header is the passphrase's guessing target.
        write_atomically(path, data)

    def delete(self, directory: str, names: Iterable[str]) -> None:
        for name in names:
            Path(self.path(directory, name)).unlink(missing_ok=True)
        fsync_directory(Path(self.path(directory)))

    def remove_directory(self, directory: str) -> None:
        shutil.rmtree(self.path(directory), ignore_errors=True)  # never follows links


def header_path(folder: str | os.PathLike[str]) -> Path:
    return Path(folder) / HEADER_NAME


def _is_real_directory(entry: os.DirEntry[str]) -> bool:
    """A directory itself, not a symlink to one: nothing outside the folder is ever read."""
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def read_trusted_file(path: str | os.PathLike[str], limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of ``path`` when it can be a sync file: a regular file (not a symlink, which
    is never followed, nor a pipe, device or directory) of at most ``limit`` bytes. Anything
    else is a ``ValueError`` saying what it is, raised before a byte is read, so a stranger's
    pipe cannot hang a sync and a link to ``/dev/zero`` or a sparse 64 GiB file cannot fill
    memory. ``OSError`` (``FileNotFoundError`` when it is gone) for what the system refuses."""
    _check_trusted(os.lstat(path), limit)
    # (Windows has neither flag; there the lstat above and the fstat below do the work.)
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    flags |= getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    try:
        descriptor = os.open(path, flags)
    except OSError as error:
        if error.errno == errno.ELOOP:  # replaced by a symlink since the lstat
            raise ValueError("a symbolic link (never followed)") from None
        raise
    try:
        _check_trusted(os.fstat(descriptor), limit)  # what was opened, not what was named
        chunks, size = [], 0
        while chunk := os.read(descriptor, min(limit + 1 - size, 1 << 20) or 1):
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise ValueError(f"larger than {limit:,} bytes (it grew while read)")
        return b"".join(chunks)
    finally:
        os.close(descriptor)


def _check_trusted(info: os.stat_result, limit: int) -> None:
    if stat.S_ISLNK(info.st_mode):
        raise ValueError("a symbolic link (never followed)")
    if not stat.S_ISREG(info.st_mode):
        raise ValueError(f"not a regular file ({_kind(info.st_mode)})")
    check_size(info.st_size, limit)


def _kind(mode: int) -> str:
    for test, name in (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a named pipe"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
    ):
        if test(mode):
            return name
    return "an unknown kind of file"

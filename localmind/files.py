"""Small file-system helpers shared by the modules that write files atomically."""

from __future__ import annotations

import os
import secrets
from pathlib import Path


def fsync_directory(directory: Path) -> None:
    """Make a rename in ``directory`` durable (best effort: some platforms cannot open a
    directory, and there the rename is still atomic, only not yet on disk)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def sidecars(path: Path) -> list[Path]:
    """The files SQLite keeps beside the database ``path``: its log, index and journal."""
    return [path.with_name(path.name + suffix) for suffix in ("-wal", "-shm", "-journal")]


def write_atomically(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data``: written owner-only (0600) under a temporary name in the
    same folder, fsynced, renamed over ``path``. A reader sees the old file or the new one;
    a failed write (the disk is full) leaves the old file and no temporary one; the new file
    never takes an existing file's wider mode."""
    temp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    try:
        with os.fdopen(os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, path)
    finally:
        temp.unlink(missing_ok=True)
    fsync_directory(path.parent)

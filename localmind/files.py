"""Small file-system helpers shared by the modules that write files atomically."""

from __future__ import annotations

import os
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

"""Where a store lives when the user does not say."""

from __future__ import annotations

from pathlib import Path

import platformdirs

APP_NAME = "localmind"


def default_db_path() -> Path:
    """The platform's user data directory, e.g. ``~/.local/share/localmind/memory.db`` on Linux."""
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)) / "memory.db"


def models_dir() -> Path:
    """Where downloaded embedding models are kept: the user cache directory (fastembed's own
    default is the system temp directory, which a reboot may wipe)."""
    return Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False)) / "models"

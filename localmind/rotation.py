"""Rotating a store's data key: ``localmind passwd --rotate``.

Changing the passphrase only re-wraps the data key, so an old copy of the key file (in a
backup, a cloud drive's history) and the old passphrase still unlock the current database.
Rotation gives the store a new random data key: the database is copied page by page under the
new key (the SQLite backup API, with progress), and the copy and a new key file, wrapped by the
new passphrase, are put in place with the crash-safe swap of a restore (:mod:`localmind.swap`):
a crash leaves the old store or the new one, and the next program to open it finishes the
swap. The sync key (in the database) is not changed; see SECURITY.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from localmind.backup import (
    PAGES_PER_STEP,
    Progress,
    _copy,
    _open_elsewhere,
    _refuse_plain_text,
    _temporary_beside,
    _Unlocked,
)
from localmind.errors import NotAStore, StoreInUse
from localmind.keys import (
    DEFAULT_KDF,
    KeyFile,
    check_new_passphrase,
    key_file_for,
    seen_mac_key,
)
from localmind.locks import key_file_lock
from localmind.store import newest_change
from localmind.store.connection import connect
from localmind.swap import finish_interrupted, swap_in


@dataclass(frozen=True, slots=True)
class RotationReport:
    path: Path
    memories: int  # active memories, every user
    pages: int


def rotate_data_key(
    path: Path,
    old_passphrase: str,
    new_passphrase: str,
    *,
    progress: Progress | None = None,
    pages_per_step: int = PAGES_PER_STEP,
) -> RotationReport:
    """Re-encrypt the store at ``path`` under a new random data key wrapped by
    ``new_passphrase`` (which may be the old one). Refused while another program has the
    store open; programs that open it meanwhile wait for the key file's lock."""
    path = Path(path).expanduser()
    finish_interrupted(path)
    key_path = key_file_for(path)
    if not path.is_file() or not key_path.is_file():
        raise NotAStore(f"No localmind store at {path}.")
    check_new_passphrase(new_passphrase)
    with key_file_lock(path, wait=False, doing="nothing was changed"):
        if _open_elsewhere(path):
            raise StoreInUse(
                f"{path} is open in another program (the app, `localmind mcp` or a sync "
                "watcher); close it, then rotate the key. Nothing was changed."
            )
        old_file = KeyFile.load(key_path)
        old_key = old_file.unwrap(old_passphrase, key_path)
        new_file, new_key = KeyFile.create(
            new_passphrase, old_file.kdf.at_least(DEFAULT_KDF), old_file.database_cipher
        )
        source = connect(path, old_key, create=False, cipher=old_file.cipher)
        try:
            with _temporary_beside(path) as copy:
                target = _Unlocked(b"", new_key, new_file.cipher)
                memories, pages = _copy(source, copy, target, progress, pages_per_step)
                _refuse_plain_text(copy)
                newest = newest_change(source)
                source.close()
                seen = new_file.with_seen(seen_mac_key(new_key), newest)
                swap_in(path, copy, seen.to_json().encode("utf-8"), aside=None)
        finally:
            source.close()
    return RotationReport(path, memories, pages)

"""Putting new files in the place of a store, crash-safe: a restore (the backup's files replace
the store, which is kept aside) and a key rotation (a re-encrypted copy replaces the store).

The new database and key file are first renamed to ``<store>.swap-db`` and ``<store>.swap-key``
beside the store, then a journal, ``<store>.swap``, is written (atomically) saying where the old
store goes: aside under a name it gives, or nowhere. Only then is the first of the store's own
files touched, and every step after that can be done again. A crash at any point is therefore
finished by the next program that opens the store (:func:`finish_interrupted`, run by every
opening): the store is the new one, never missing, never replaced by a new empty one. A crash
before the journal is written leaves the store as it was (the staged files are removed).
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

from localmind.errors import StoreError
from localmind.files import fsync_directory, sidecars
from localmind.keys import key_file_for
from localmind.locks import key_file_lock

#: A store's own files that go aside with it (``-shm`` is only an index of the log, rebuilt).
_STORE_FILES = ("", "-wal", "-journal")
log = logging.getLogger("localmind")


def _journal(target: Path) -> Path:
    return target.with_name(target.name + ".swap")


def _staged_db(target: Path) -> Path:
    return target.with_name(target.name + ".swap-db")


def _staged_key(target: Path) -> Path:
    return target.with_name(target.name + ".swap-key")


def swap_in(target: Path, database: Path, key_file_bytes: bytes, aside: Path | None) -> None:
    """Make ``database`` (a complete, fsynced file in ``target``'s folder) and a key file of
    ``key_file_bytes`` the store at ``target``. A store already there is moved to ``aside``
    (database, key file and log), or replaced when ``aside`` is None."""
    with key_file_lock(target, doing="the store was not replaced"):  # (its holder may call)
        _write_synced(_staged_key(target), key_file_bytes)
        os.replace(database, _staged_db(target))
        fsync_directory(target.parent)
        plan = {"aside": aside.name if aside is not None else None}
        temp = _journal(target).with_name(_journal(target).name + ".tmp")
        _write_synced(temp, json.dumps(plan).encode("utf-8"))
        os.replace(temp, _journal(target))
        fsync_directory(target.parent)
        _finish(target)


def pending(target: Path) -> bool:
    """Whether a swap at ``target`` was interrupted (then the store is there, to be finished)."""
    return _journal(target).exists()


def finish_interrupted(target: Path) -> bool:
    """Finish a swap that a crash interrupted at ``target`` (see the module's docstring);
    returns whether there was one. Cheap when there was none (three ``stat`` calls)."""
    if not any(p.exists() for p in (_journal(target), _staged_db(target), _staged_key(target))):
        return False
    with key_file_lock(target, doing="the interrupted restore was not finished"):
        if _journal(target).exists():
            _finish(target)
            log.warning(
                "Finished putting the restored (or re-encrypted) store in place at %s.", target
            )
            return True
        # Staged but never started: the store was not touched; the new files go.
        for staged in (_staged_db(target), _staged_key(target)):
            staged.unlink(missing_ok=True)
        return False


def _finish(target: Path) -> None:
    journal, staged_db, staged_key = _journal(target), _staged_db(target), _staged_key(target)
    try:
        aside_name = json.loads(journal.read_text(encoding="utf-8"))["aside"]
        aside = target.with_name(aside_name) if aside_name else None
    except (ValueError, KeyError, TypeError, UnicodeDecodeError) as error:
        raise StoreError(
            f"{journal} (the record of an interrupted restore) is unreadable ({error}); "
            f"{staged_db.name} holds the store that was being put in place."
        ) from None
    if staged_db.exists():  # else the last rename was done: only the journal is left
        if aside is not None:
            for suffix in _STORE_FILES:
                old = target.with_name(target.name + suffix)
                moved = aside.with_name(aside.name + suffix)
                if old.exists() and not moved.exists():
                    os.replace(old, moved)
        if staged_key.exists():
            key = key_file_for(target)
            if aside is not None and key.exists() and not key_file_for(aside).exists():
                os.replace(key, key_file_for(aside))
            os.replace(staged_key, key)
        # A log left from the old store must never be replayed into the new one.
        for stale in sidecars(target):
            stale.unlink(missing_ok=True)
        os.replace(staged_db, target)
    staged_key.unlink(missing_ok=True)
    fsync_directory(target.parent)
    journal.unlink()
    fsync_directory(target.parent)


def _write_synced(path: Path, data: bytes) -> None:
    path.unlink(missing_ok=True)
    with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())

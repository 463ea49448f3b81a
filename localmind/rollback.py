"""Refusing an old copy of the store.

Every page of an old copy of the database (an old laptop backup, a cloud drive's previous
version) still authenticates under the data key, so SQLite alone would serve it, with a
forgotten memory back in it. The key file therefore records the newest change (the event
log's highest ``seq``) this laptop has seen the store at, under an HMAC keyed by the data key:
written when a store closes, checked when it opens. A database whose event log stops before
that number is an old copy and is refused; ``localmind restore`` is the way to go back on
purpose (it records the restored store's number). See SECURITY.md for what this does not catch.

When the store's key is remembered in the OS keyring (`localmind unlock --remember`), the
number is recorded there too and checked the same way: a restored laptop backup brings back
an old database together with its old key file, which agree, but not the keyring's number.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from keyring.errors import KeyringError

from localmind.errors import LocalmindError, RolledBack
from localmind.keys import KeyFile, key_file_for
from localmind.locks import key_file_lock
from localmind.remembered_key import record_seen_in_keyring, remembered_seen
from localmind.store import DATABASE_ERRORS, checkpoint, newest_change
from localmind.store.connection import Connection

log = logging.getLogger("localmind")


@dataclass(frozen=True, slots=True)
class SeenRecord:
    """What an open store needs to record, at close, the newest change it saw."""

    path: Path
    mac_key: bytes  # from the data key (keys.seen_mac_key)
    wrapped_key: bytes  # the key file's wrap when the store was opened


def check_not_rolled_back(db: Connection, key_file: KeyFile, seen: SeenRecord) -> None:
    found = newest_change(db)
    recorded = key_file.seen_events(seen.mac_key, key_file_for(seen.path))
    in_keyring = remembered_seen(seen.path)
    if found < recorded or found < in_keyring:
        where = " (recorded in the OS keyring)" if in_keyring > recorded else ""
        raise RolledBack(
            f"{seen.path} is older than the store this laptop last saw: its changes stop at "
            f"number {found}, but this laptop has seen number {max(recorded, in_keyring)}"
            f"{where}. Someone may have put an old copy back (an old backup, a cloud drive's "
            "earlier version), which could bring back forgotten memories. Nothing was "
            "changed. To go back to a backup on purpose, use: localmind restore FILE --force"
        )


def record_seen(db: Connection, seen: SeenRecord) -> None:
    """Record in the key file (and in the OS keyring, when the key is remembered there) that
    the store has been seen at its newest change (never lowering what is recorded). Best
    effort: a store that cannot record it is still closed properly, only less protected."""
    try:
        checkpoint(db)  # the number recorded must not be ahead of what is on disk
        newest = newest_change(db)
        _record_in_key_file(seen, newest)
        record_seen_in_keyring(seen.path, newest)
    except (OSError, LocalmindError, *DATABASE_ERRORS, KeyringError, RuntimeError) as error:
        log.warning("Could not record the newest change seen in %s: %s", seen.path, error)


def _record_in_key_file(seen: SeenRecord, newest: int) -> None:
    key_path = key_file_for(seen.path)
    with key_file_lock(seen.path):
        key_file = KeyFile.load(key_path)
        if not _same_key(key_file, seen):
            return  # replaced while open (rotated, restored): not this data key's file
        if key_file.seen_events(seen.mac_key, key_path) >= newest:
            return
        key_file.with_seen(seen.mac_key, newest).save(key_path)


def _same_key(key_file: KeyFile, seen: SeenRecord) -> bool:
    """Whether ``key_file`` wraps the data key ``seen`` was made from: its record verifies
    with it, or (none recorded yet) it is the wrap the store was opened with."""
    if key_file.seen is not None:
        try:
            key_file.seen_events(seen.mac_key, "")
        except LocalmindError:
            return False
        return True
    return key_file.wrapped_key == seen.wrapped_key

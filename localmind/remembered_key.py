"""The store's data key kept in the OS keyring (`localmind unlock --remember`), so the app, the
command line and `sync watch` open the store without asking for the passphrase.

The ``keyring`` library picks the platform's keyring: macOS Keychain, the Secret Service
(GNOME Keyring, KWallet) on Linux, Windows Credential Manager; tests set one through
``keyring.set_keyring``. An entry is named by the store's absolute path. What is kept is the
data key itself (hex), not the passphrase: the passphrase opens every copy of the key file,
the data key only this store's database. The trade-off is in SECURITY.md.

Reading never fails loudly: no keyring, a locked one or a broken entry mean "nothing
remembered", and the caller asks for the passphrase as before. The keyring is asked only for a
store that has a ``<store>.keyring`` marker beside it (written by `unlock --remember`, removed
by `lock`; it holds nothing secret): a person who never used the keyring is never shown a
keychain prompt by an ordinary command.

The entry also holds the newest change this laptop has seen the store at (``seen``, as the key
file does, see :mod:`localmind.rollback`): a restored laptop backup brings back an old
database *and* its old key file, which agree with each other, but not the keyring's record.
An entry is ``{"key": hex, "seen": N}``; a bare hex key (written before) reads as seen 0.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import keyring
from keyring.errors import KeyringError

from localmind.errors import StoreError
from localmind.files import write_atomically

log = logging.getLogger(__name__)

SERVICE = "localmind"
KEY_BYTES = 32


class KeyringUnavailable(StoreError):
    """No OS keyring can keep the key (message says why and what to do instead)."""


def _entry(db: Path) -> str:
    return str(Path(db).expanduser().resolve())


def marker_for(db: Path) -> Path:
    return db.with_name(db.name + ".keyring")


@dataclass(frozen=True, slots=True)
class Remembered:
    """What the keyring holds for a store."""

    data_key: bytes
    seen: int  # the newest change this laptop has seen the store at (0: none recorded)


def remember_data_key(db: Path, data_key: bytes, seen: int | None = None) -> None:
    """Keep ``data_key`` for ``db``, with ``seen`` as the newest change seen (None: keep the
    number already recorded, as a rotation of the key does)."""
    if seen is None:
        known = _read(db, marked_only=False)
        seen = known.seen if known else 0
    try:
        _write(db, Remembered(data_key, seen))
    except (KeyringError, RuntimeError) as error:
        raise KeyringUnavailable(
            f"No OS keyring could keep the key ({error}). Nothing was remembered; set "
            "LOCALMIND_PASSPHRASE or type the passphrase instead."
        ) from None
    write_atomically(marker_for(db), b"The data key of this store is in the OS keyring.\n")


def remembered_data_key(db: Path) -> bytes | None:
    """The data key remembered for the store at ``db``; None when there is none (or no
    keyring to ask)."""
    remembered = _read(db)
    return remembered.data_key if remembered else None


def remembered_seen(db: Path) -> int:
    """The newest change of ``db`` the keyring records as seen; 0 when it records none (or
    the store does not use the keyring)."""
    remembered = _read(db)
    return remembered.seen if remembered else 0


def record_seen_in_keyring(db: Path, newest: int, *, lower: bool = False) -> None:
    """Record ``newest`` as the newest change seen, when ``db``'s key is remembered: only ever
    raising it, unless ``lower`` (a deliberate restore). Raises :class:`KeyringError` (or
    RuntimeError) when the keyring cannot be written."""
    remembered = _read(db)
    if remembered is None or remembered.seen == newest:
        return
    if newest > remembered.seen or lower:
        _write(db, Remembered(remembered.data_key, newest))


def _write(db: Path, remembered: Remembered) -> None:
    value = json.dumps({"key": remembered.data_key.hex(), "seen": remembered.seen})
    keyring.set_password(SERVICE, _entry(db), value)


def _read(db: Path, *, marked_only: bool = True) -> Remembered | None:
    if marked_only and not marker_for(db).exists():
        return None
    try:
        value = keyring.get_password(SERVICE, _entry(db))
    except (KeyringError, RuntimeError) as error:
        log.debug("no OS keyring to ask: %s", error)
        return None
    return None if value is None else _parse(value)


def _parse(value: str) -> Remembered | None:
    try:
        document: Any = json.loads(value) if value.startswith("{") else {"key": value, "seen": 0}
        key, seen = bytes.fromhex(document["key"]), document["seen"]
    except (ValueError, TypeError, KeyError):
        return None
    if len(key) != KEY_BYTES or type(seen) is not int or seen < 0:
        return None
    return Remembered(key, seen)


def forget_data_key(db: Path) -> bool:
    """Remove the remembered key of ``db``; whether there was one."""
    marked = marker_for(db).exists()
    try:
        if keyring.get_password(SERVICE, _entry(db)) is not None:
            keyring.delete_password(SERVICE, _entry(db))
            marked = True
    except (KeyringError, RuntimeError) as error:
        if marked:
            raise KeyringUnavailable(f"The OS keyring could not be changed ({error}).") from None
    marker_for(db).unlink(missing_ok=True)
    return marked


def forget_stale_entry(db: Path) -> None:
    """Before a new store is made at ``db``: forget what the keyring holds for the store that
    was there before (its key, and its newest change, which the new store would be "older"
    than). Only when the old one used the keyring (its marker is still there). Best effort."""
    if not marker_for(db).exists():
        return
    try:
        forget_data_key(db)
    except KeyringUnavailable as error:
        log.warning("%s", error)
        marker_for(db).unlink(missing_ok=True)

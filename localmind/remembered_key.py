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
"""

from __future__ import annotations

import logging
from pathlib import Path

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


def remember_data_key(db: Path, data_key: bytes) -> None:
    try:
        keyring.set_password(SERVICE, _entry(db), data_key.hex())
    except (KeyringError, RuntimeError) as error:
        raise KeyringUnavailable(
            f"No OS keyring could keep the key ({error}). Nothing was remembered; set "
            "LOCALMIND_PASSPHRASE or type the passphrase instead."
        ) from None
    write_atomically(marker_for(db), b"The data key of this store is in the OS keyring.\n")


def remembered_data_key(db: Path) -> bytes | None:
    """The data key remembered for the store at ``db``; None when there is none (or no
    keyring to ask)."""
    if not marker_for(db).exists():
        return None
    try:
        value = keyring.get_password(SERVICE, _entry(db))
    except (KeyringError, RuntimeError) as error:
        log.debug("no OS keyring to ask: %s", error)
        return None
    if value is None:
        return None
    try:
        key = bytes.fromhex(value)
    except ValueError:
        return None
    return key if len(key) == KEY_BYTES else None


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

"""``localmind unlock --remember`` and ``localmind lock``: the store's data key in the OS keyring
(:mod:`localmind.remembered_key`), so the app, the command line and ``sync watch`` open the
store without asking for the passphrase."""

from __future__ import annotations

from pathlib import Path

import click
import keyring

from localmind.cli.context import Context, read_passphrase
from localmind.cli.errors import friendly_errors
from localmind.cli.root import cli
from localmind.errors import NotAStore
from localmind.keys import KeyFile, key_file_for, seen_mac_key
from localmind.memory import Memory
from localmind.remembered_key import forget_data_key, remember_data_key, remembered_data_key
from localmind.swap import finish_interrupted


def _data_key(db: Path, passphrase: str) -> tuple[bytes, int]:
    """The data key ``passphrase`` unwraps, once it has been seen to open the database, and
    the newest change recorded as seen (in the key file, when that store closed)."""
    finish_interrupted(db)
    if not db.is_file():
        raise NotAStore(f"No localmind store at {db}.")
    key_path = key_file_for(db)
    data_key = KeyFile.load(key_path).unwrap(passphrase, key_path)
    Memory.open(db, "", data_key=data_key, maintain=False).close()
    seen = KeyFile.load(key_path).seen_events(seen_mac_key(data_key), key_path)
    return data_key, seen


def refresh_remembered(db: Path, passphrase: str) -> bool:
    """After the data key changed (`passwd --rotate`): remember the new one if the old one
    was remembered; returns whether it did."""
    if remembered_data_key(db) is None:
        return False
    remember_data_key(db, _data_key(db, passphrase)[0])  # keeps the keyring's newest seen
    return True


@cli.command("unlock")
@click.option(
    "--remember",
    is_flag=True,
    help="Keep the store's data key in the OS keyring (Keychain, Secret Service, Credential "
    "Manager), so the app, the CLI and `sync watch` open it without the passphrase until "
    "`localmind lock`. See SECURITY.md for what that trades.",
)
@click.pass_obj
@friendly_errors
def unlock(obj: Context, remember: bool) -> None:
    """Check that the passphrase opens the store; with --remember, keep its key in the OS
    keyring."""
    passphrase = read_passphrase(creating=False, db=obj.db)
    data_key, seen = _data_key(obj.db, passphrase)
    del passphrase
    if not remember:
        click.echo(f"The passphrase opens {obj.db}. (--remember keeps its key in the OS keyring.)")
        return
    remember_data_key(obj.db, data_key, seen)
    backend = type(keyring.get_keyring()).__name__
    click.echo(
        f"The key of {obj.db} is in the OS keyring ({backend}): the app, the command line "
        "and `sync watch` open it without the passphrase. `localmind lock` forgets it."
    )


@cli.command("lock")
@click.pass_obj
@friendly_errors
def lock(obj: Context) -> None:
    """Forget the store's key in the OS keyring: the passphrase is asked for again."""
    if forget_data_key(obj.db):
        click.echo(f"Forgot the key of {obj.db} in the OS keyring: the passphrase is needed again.")
    else:
        click.echo(f"No key of {obj.db} was in the OS keyring; nothing changed.")

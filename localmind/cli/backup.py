"""Keeping a store safe: ``backup`` (an encrypted copy, safe while the store is in use),
``restore`` (verified before anything is replaced) and ``check`` (is the store whole?)."""

from __future__ import annotations

import sys
from contextlib import ExitStack
from pathlib import Path

import click

from localmind.backup import (
    backup_store,
    check_destination,
    check_restore,
    check_store,
    restore_backup,
)
from localmind.cli.context import Context, check_folder, read_passphrase
from localmind.cli.errors import friendly_errors
from localmind.cli.output import PagesBar, echo_json, n_memories
from localmind.cli.root import cli
from localmind.errors import NotAStore
from localmind.keys import key_file_for
from localmind.store.connection import damaged
from localmind.swap import finish_interrupted

FILE = click.Path(dir_okay=False, path_type=Path)


def _existing_store(obj: Context) -> Path:
    finish_interrupted(obj.db)
    if not obj.db.exists():
        raise NotAStore(f"No localmind store at {obj.db}.")
    return obj.db


@cli.command()
@click.argument("file", type=FILE)
@click.option("--force", is_flag=True, help="Replace FILE (and FILE.key) if they exist.")
@click.pass_obj
@friendly_errors
def backup(obj: Context, file: Path, force: bool) -> None:
    """Copy the store, encrypted, to FILE (and its key to FILE.key).

    Safe while the app, the MCP server or sync are using the store: the copy is the store as it
    was when the backup began. Keep the two files together; they open with the passphrase the
    store has now."""
    store = _existing_store(obj)
    check_destination(store, file, replace=force)
    passphrase = read_passphrase(creating=False, db=store)
    with ExitStack() as stack:
        report = backup_store(
            store, file, passphrase, replace=force, progress=PagesBar(stack, "Backing up")
        )
    del passphrase
    click.echo(
        f"Backed up {n_memories(report.memories)} ({report.size_bytes / 1e6:.1f} MB, encrypted) "
        f"to {report.path} and its key file {report.key_path}."
    )


@cli.command()
@click.argument("file", type=FILE)
@click.option(
    "--db",
    "target",
    type=FILE,
    help="The store to restore to (default: the store, as for every command).",
)
@click.option(
    "--force",
    is_flag=True,
    help="Replace an existing store (it is kept aside as <store>.before-restore).",
)
@click.pass_obj
@friendly_errors
def restore(obj: Context, file: Path, target: Path | None, force: bool) -> None:
    """Bring back a store saved by `localmind backup` (FILE and FILE.key).

    The backup is opened with its passphrase and checked whole before anything is replaced; a
    store already there is kept aside, never deleted. Close the app and other localmind
    programs first."""
    target = (target or obj.db).expanduser()
    # As for every command that makes a store: a folder named by mistake is never made (the
    # default location's is). Said before the passphrase is asked for (review12 R13).
    check_folder(target, "Nothing was restored.")
    occupied = target.exists() or key_file_for(target).exists()
    if occupied and not force and sys.stdin.isatty() and sys.stderr.isatty():
        click.confirm(
            f"Replace the store at {target} with the backup? (The current one is kept aside.)",
            abort=True,
            err=True,
        )
        force = True
    check_restore(file, target, replace=force)
    passphrase = read_passphrase(creating=False, db=file)
    report = restore_backup(file, target, passphrase, replace=force)
    del passphrase
    click.echo(f"Restored {n_memories(report.memories)} from {file} to {report.target}.")
    click.echo("It opens with the passphrase the store had when the backup was made.")
    if report.kept_aside is not None:
        click.echo(
            f"The store it replaced is kept as {report.kept_aside} (with its key file); "
            "delete it once you no longer need it."
        )


@cli.command()
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
@friendly_errors
def check(obj: Context, as_json: bool) -> None:
    """Check the store for damage.

    Reads every page (SQLite's integrity check) and checks the vector and keyword indexes
    against the memories. Exits with status 1 if anything is wrong (then restore a backup)."""
    store = _existing_store(obj)
    passphrase = read_passphrase(creating=False, db=store)
    report = check_store(store, passphrase)
    del passphrase
    if as_json:
        echo_json(
            {
                "path": str(report.path),
                "ok": report.ok,
                "memories": report.memories,
                "problems": report.problems,
            }
        )
        if not report.ok:
            sys.exit(1)
        return
    if not report.ok:
        raise damaged(report.path, "; ".join(report.problems))
    click.echo(
        f"{report.path} is whole: {n_memories(report.memories)}; integrity check, vector and "
        "keyword indexes ok."
    )


__all__ = ["backup", "check", "restore"]

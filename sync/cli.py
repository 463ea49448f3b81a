"""``localmind sync ...``: replicate this store through a folder another program syncs.

Registered on the core's command group by ``tui.launcher`` (the console script), since the
core never imports this package."""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import time
from pathlib import Path

import click

from localmind.cli import Context, cli, friendly_errors, read_passphrase, when
from localmind.memory import Memory
from sync.folder import (
    SyncError,
    export_pending,
    import_new,
    init_folder,
    join_folder,
    joined_folder,
    rekey_folder,
    start_stream,
    status,
    sync_key,
    sync_once,
)
from sync.watch import SyncReport, watch


@click.group("sync")
def sync_group() -> None:
    """Replicate memories between your laptops through a folder that Syncthing, a network
    share or a cloud drive carries. The folder only ever holds ciphertext.

    \b
    First laptop:   localmind sync init ~/Sync/localmind
    Other laptops:  localmind sync join ~/Sync/localmind   (same passphrase)
    Then:           localmind sync now     (export and import once)
    or:             localmind sync watch   (keep syncing until Ctrl+C)

    The TUI (`localmind` with no arguments) keeps syncing by itself while it runs, once
    this store has joined a folder; its Health page (F6) shows how sync is doing.
    """


def _open_with_passphrase(obj: Context) -> tuple[Memory, str]:
    passphrase = read_passphrase(creating=not obj.db.exists(), db=obj.db)
    memory = Memory.open(obj.db, passphrase, embedder=obj.embedder, namespace=obj.namespace)
    return memory, passphrase


def _folder(memory: Memory, folder: Path | None) -> Path:
    chosen = folder or joined_folder(memory)
    if chosen is None:
        raise SyncError("No sync folder: run `localmind sync init FOLDER` or `sync join FOLDER`.")
    return chosen


@sync_group.command("init")
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path))
@click.pass_obj
@friendly_errors
def init(obj: Context, folder: Path) -> None:
    """Make FOLDER a sync folder for this store (the first laptop), and export into it."""
    memory, passphrase = _open_with_passphrase(obj)
    with memory:
        root = init_folder(memory, folder, passphrase)
        note = start_stream(memory, root)
        exported = export_pending(memory, root)
    if note:
        click.echo(note)
    click.echo(f"Sync folder ready at {root}; exported {exported} changes.")
    click.echo("On your other laptops: localmind sync join FOLDER (with this passphrase).")


@sync_group.command("join")
@click.argument("folder", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.pass_obj
@friendly_errors
def join(obj: Context, folder: Path) -> None:
    """Join the sync folder FOLDER that another laptop made, then sync once."""
    memory, passphrase = _open_with_passphrase(obj)
    with memory:
        root = join_folder(memory, folder, passphrase)
        note = start_stream(memory, root)
        exported, report = export_pending(memory, root), import_new(memory, root)
    if note:
        click.echo(note)
    click.echo(
        f"Joined {root}: imported {report.events} changes from {report.segments} files, "
        f"exported {exported}."
    )


@sync_group.command("now")
@click.option("--folder", type=click.Path(file_okay=False, path_type=Path))
@click.option("-v", "--verbose", is_flag=True, help="Log every file skipped.")
@click.pass_obj
@friendly_errors
def now(obj: Context, folder: Path | None, verbose: bool) -> None:
    """Export this laptop's changes and import the others' once."""
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING, format="%(message)s")
    with obj.open() as memory:
        root = _folder(memory, folder)
        exported, report = sync_once(memory, root)
    click.echo(
        f"Exported {exported} changes; imported {report.events} from {report.segments} files "
        f"({report.memories} memories changed)."
    )
    if report.skipped:
        click.echo(f"Skipped {len(report.skipped)} files (see the log lines above).", err=True)


@sync_group.command("watch")
@click.option("--folder", type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "-v", "--verbose", is_flag=True, help="Also log each file change and every file skipped."
)
@click.pass_obj
@friendly_errors
def watch_(obj: Context, folder: Path | None, verbose: bool) -> None:
    """Keep syncing until Ctrl+C: export this laptop's changes as they are made and import
    the others' as their files arrive. One line per sync; a bad file is logged and skipped."""
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING,
        format="%(asctime)s %(message)s",
        datefmt="%H:%M:%S",
    )
    if not verbose:  # the watch logs each skipped file itself; the engine's lines would repeat it
        logging.getLogger("localmind.sync").setLevel(logging.ERROR)
    with obj.open() as memory:
        root = _folder(memory, folder)
        sync_key(memory)  # not joined: say so now, not at every sync
        if not root.is_dir():
            raise SyncError(f"The sync folder {root} does not exist (is its drive mounted?).")
        click.echo(f"Watching {root} (Ctrl+C to stop).")

        first = True

        def report(result: SyncReport) -> None:
            nonlocal first
            if result.idle and not first:
                return  # e.g. another laptop published how far it got: nothing to tell
            first = False
            stamp = time.strftime("%H:%M:%S", time.localtime(result.at))
            click.echo(f"{stamp} {result.summary()}", err=not result.ok)

        with contextlib.suppress(KeyboardInterrupt):  # Ctrl+C is how it ends
            watch(memory, root, threading.Event(), report)
    click.echo("Stopped.")


@sync_group.command("rekey")
@click.option("--folder", type=click.Path(file_okay=False, path_type=Path))
@click.pass_obj
@friendly_errors
def rekey(obj: Context, folder: Path | None) -> None:
    """After `localmind passwd`: make the folder's join passphrase this store's new one.

    Laptops already syncing are not affected; laptops that join later use the new passphrase,
    and the old one no longer opens the folder."""
    memory, passphrase = _open_with_passphrase(obj)
    with memory:
        root = rekey_folder(memory, _folder(memory, folder), passphrase)
    del passphrase
    click.echo(f"The sync folder {root} now opens with this store's passphrase.")


@sync_group.command("status")
@click.option("--folder", type=click.Path(file_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
@friendly_errors
def status_(obj: Context, folder: Path | None, as_json: bool) -> None:
    """This laptop and the others seen in the sync folder, with what is pending."""
    with obj.open() as memory:
        report = status(memory, _folder(memory, folder))
    if as_json:
        click.echo(json.dumps(report, ensure_ascii=False, indent=2))
        return
    click.echo(f"Folder {report['folder']}")
    click.echo(f"This device {report['device_id']}: {report['pending_events']} changes to export")
    for device in report["devices"]:
        click.echo(
            f"  {device['device_id']}: {device['segments']} files, "
            f"{device['pending_segments']} to import, last seen {when(device['last_seen'])}"
        )


if "sync" not in cli.commands:
    cli.add_command(sync_group)

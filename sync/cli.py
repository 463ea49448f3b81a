"""``localmind sync ...``: replicate this store through a folder another program syncs.

Registered on the core's command group by ``tui.launcher`` (the console script), since the
core never imports this package."""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import click

from localmind import composition
from localmind.cli.context import Context, read_passphrase
from localmind.cli.errors import friendly_errors
from localmind.cli.output import when
from localmind.cli.root import cli
from localmind.files import sidecars
from localmind.keys import key_file_for
from localmind.locks import lock_path
from localmind.memory import Memory
from localmind.terminal import printable
from sync.devices import forget_device, leave_folder
from sync.folder import (
    SyncError,
    device_label,
    export_pending,
    folder_key,
    import_new,
    init_folder,
    join_folder,
    joined_folder,
    rekey_folder,
    rotate_folder,
    start_stream,
    status,
    sync_key,
    sync_once,
)
from sync.lock import sync_lock_path
from sync.watch import SyncReport, watch

SKIPS_LISTED = 10  # skipped files `sync now` names; -v logs every one
FOLDER_HELP = "The sync folder (default: the one this store joined)."
NAME_HELP = (
    "What your other laptops call this one in `sync status` and the app's Health page "
    "(default: this computer's host name)."
)


def count(number: int, noun: str, nouns: str | None = None) -> str:
    """``1 change``, ``2 changes``."""
    return f"{number} {noun if number == 1 else nouns or noun + 's'}"


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
    memory = composition.open_memory(obj.configuration, passphrase)
    return memory, passphrase


def _creating(obj: Context) -> bool:
    return not obj.db.exists() and not key_file_for(obj.db).exists()


@contextlib.contextmanager
def _nothing_left_on_failure(db: Path, creating: bool) -> Iterator[None]:
    """When this command creates the store and then fails, remove what it made (the store,
    its key file, its sidecars, folders made for it), so that the retry starts clean instead
    of meeting a store encrypted with a mistyped passphrase."""
    made = [d for d in (db.parent, *db.parent.parents) if not d.exists()] if creating else []
    try:
        yield
    except BaseException:
        if creating:
            for path in (db, key_file_for(db), *sidecars(db), lock_path(db), sync_lock_path(db)):
                path.unlink(missing_ok=True)
            for directory in made:  # innermost first
                with contextlib.suppress(OSError):
                    directory.rmdir()
        raise


def _folder(memory: Memory, folder: Path | None) -> Path:
    chosen = folder or joined_folder(memory)
    if chosen is None:
        raise SyncError("No sync folder: run `localmind sync init FOLDER` or `sync join FOLDER`.")
    return chosen


@sync_group.command("init")
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path))
@click.option("--name", help=NAME_HELP)
@click.pass_obj
@friendly_errors
def init(obj: Context, folder: Path, name: str | None) -> None:
    """Make FOLDER a sync folder for this store (the first laptop), and export into it.
    A store that already syncs is refused: `localmind sync leave` first."""
    creating = _creating(obj)
    with _nothing_left_on_failure(obj.db, creating):
        memory, passphrase = _open_with_passphrase(obj)
        with memory:
            root = init_folder(memory, folder, passphrase, name=name)
            note = start_stream(memory, root)
            exported = export_pending(memory, root)
    if note:
        click.echo(note)
    click.echo(f"Sync folder ready at {root}; exported {count(exported, 'change')}.")
    click.echo("On your other laptops: localmind sync join FOLDER (with this passphrase).")


@sync_group.command("join")
@click.argument("folder", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--name", help=NAME_HELP)
@click.pass_obj
@friendly_errors
def join(obj: Context, folder: Path, name: str | None) -> None:
    """Join the sync folder FOLDER that another laptop made, then sync once. Also how a
    laptop picks up the folder's new key after `sync rekey --rotate` on another one."""
    creating = _creating(obj)
    passphrase = read_passphrase(creating=creating, db=obj.db)
    if creating:  # a wrong passphrase or an unusable folder: said before any store is made
        folder_key(folder.expanduser(), passphrase)
    with _nothing_left_on_failure(obj.db, creating):
        memory = composition.open_memory(obj.configuration, passphrase)
        with memory:
            root = join_folder(memory, folder, passphrase, name=name)
            note = start_stream(memory, root)
            exported, report = export_pending(memory, root), import_new(memory, root)
    del passphrase
    if note:
        click.echo(note)
    click.echo(
        f"Joined {root}: imported {count(report.events, 'change')} from "
        f"{count(report.segments, 'file')}, exported {exported}."
    )


@sync_group.command("now")
@click.option("--folder", type=click.Path(file_okay=False, path_type=Path), help=FOLDER_HELP)
@click.option("-v", "--verbose", is_flag=True, help="Log every file skipped.")
@click.pass_obj
@friendly_errors
def now(obj: Context, folder: Path | None, verbose: bool) -> None:
    """Export this laptop's changes and import the others' once."""
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING, format="%(message)s")
    engine = logging.getLogger("localmind.sync")
    level = engine.level
    if not verbose:  # the skipped files are listed below; the engine's lines would repeat them
        engine.setLevel(logging.ERROR)
    try:
        with obj.open() as memory:
            root = _folder(memory, folder)
            exported, report = sync_once(memory, root)
    finally:
        engine.setLevel(level)
    click.echo(
        f"Exported {count(exported, 'change')}; imported {report.events} from "
        f"{count(report.segments, 'file')} ({count(report.memories, 'memory', 'memories')} "
        "changed)."
    )
    for retired in report.retired:
        click.echo(f"Retired the directory of {retired}, which left the folder.")
    for kept in dict.fromkeys(report.carried):
        click.echo(
            f"Carried an edit made here into memory {kept}: another laptop had folded the "
            "memory you edited into it (a conflict resolved) without seeing your edit; the "
            "text it replaced is in that memory's history."
        )
    if report.kept_both:
        click.echo(
            f"Settled {count(report.kept_both, 'conflict')} here that another laptop answered "
            "keep-both."
        )
    for memory_id in dict.fromkeys(report.kept_taken):
        click.echo(
            f"Kept memory {memory_id}: you took its text here (a conflict resolved take-new or "
            "merge) into a memory another laptop forgot without having seen it; the forget "
            "erased the older text, the text you chose stays as a memory of its own."
        )
    for memory_id in dict.fromkeys(report.kept_edited):
        click.echo(
            f"Kept memory {memory_id}: you edited a memory here that another laptop forgot "
            "without having seen your edit; the forget erased the text it saw, your edit stays "
            "as a memory of its own (forget it too if it should go)."
        )
    for memory_id in dict.fromkeys(report.kept_apart):
        click.echo(
            "Kept both again: another laptop had answered take-new or merge before your "
            f"keep-both here; memory {memory_id} has its earlier text back and the newer memory "
            "is back under its own id."
        )
    for memory_id in dict.fromkeys(report.overruled):
        click.echo(
            f"Memory {memory_id}: its conflict was answered differently on two laptops; the "
            f"later answer stands (see localmind history {memory_id})."
        )
    repeated = set(report.repeated)  # reported by an earlier sync already
    if fresh := [entry for entry in report.skipped if entry not in repeated]:
        click.echo(f"Skipped {count(len(fresh), 'file')}:", err=True)
        for path, why in fresh[:SKIPS_LISTED]:
            click.echo(printable(f"  {path}: {why}", newlines=False), err=True)
        if len(fresh) > SKIPS_LISTED:
            click.echo(f"  … and {len(fresh) - SKIPS_LISTED} more (-v lists them)", err=True)


@sync_group.command("watch")
@click.option("--folder", type=click.Path(file_okay=False, path_type=Path), help=FOLDER_HELP)
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
@click.option("--folder", type=click.Path(file_okay=False, path_type=Path), help=FOLDER_HELP)
@click.option(
    "--rotate",
    is_flag=True,
    help="Also give the folder a new sync key, so that old copies of its header (and the old "
    "passphrase) read nothing written from now on. Each other laptop then runs `sync join`.",
)
@click.pass_obj
@friendly_errors
def rekey(obj: Context, folder: Path | None, rotate: bool) -> None:
    """After `localmind passwd`: make the folder's join passphrase this store's new one.

    Without --rotate, laptops already syncing are not affected; laptops that join later use
    the new passphrase, and the old one no longer opens the current header. With --rotate,
    the folder gets a new key; each other laptop picks it up with `sync join FOLDER` and the
    passphrase."""
    memory, passphrase = _open_with_passphrase(obj)
    with memory:
        root = _folder(memory, folder)
        (rotate_folder if rotate else rekey_folder)(memory, root, passphrase)
    del passphrase
    if rotate:
        click.echo(
            f"The sync folder {root} has a new key, opened with this store's passphrase. This "
            "laptop exported everything again under it and deleted its files sealed with the "
            "old key. On each other laptop run:  localmind sync join "
            f"{root}  (with this passphrase); until then it cannot sync, and its old files go "
            "when it does."
        )
        return
    click.echo(f"The sync folder {root} now opens with this store's passphrase.")
    click.echo(
        "Old copies of its header (the sync engine's file versions, a backup of the folder) "
        "still open with the old passphrase, and they hold the same sync key, which reads "
        "everything in the folder, also what is written from now on. To shut them out: "
        "localmind sync rekey --rotate"
    )


@sync_group.command("leave")
@click.pass_obj
@friendly_errors
def leave(obj: Context) -> None:
    """This laptop stops syncing: it exports what it has not yet, says in the folder that it
    left, and forgets the folder. The other laptops read what it left, then remove its
    directory and stop waiting for it before compacting."""
    with obj.open() as memory:
        root, problem = leave_folder(memory)
    if problem is None:
        click.echo(
            f"This laptop no longer syncs with {root}. Its changes were exported; the other "
            "laptops remove its directory once they have read it (at their next sync)."
        )
        return
    click.echo(
        f"This laptop no longer syncs with {root}, but the folder could not be told "
        f"({problem}). On another laptop run:  localmind sync forget-device NAME  "
        "(NAME as `localmind sync status` shows this laptop)."
    )


@sync_group.command("forget-device")
@click.argument("name")
@click.option("--folder", type=click.Path(file_okay=False, path_type=Path), help=FOLDER_HELP)
@click.pass_obj
@friendly_errors
def forget_device_(obj: Context, name: str, folder: Path | None) -> None:
    """Remove a laptop gone for good (NAME, or its device id, as `sync status` shows it) from
    the folder, so that the others' compaction no longer waits for it. What it made is kept:
    this laptop imports it first and exports it again for laptops that join later."""
    with obj.open() as memory:
        root = _folder(memory, folder)
        device = forget_device(memory, root, name)
    click.echo(
        f"Forgot {device.label}: its directory is gone from {root}; its memories stay, "
        "carried by this laptop's export."
    )


@sync_group.command("status")
@click.option("--folder", type=click.Path(file_okay=False, path_type=Path), help=FOLDER_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print the status as JSON.")
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
    pending = count(report["pending_events"], "change")
    click.echo(f"This device {printable(device_label(report))}: {pending} to export")
    for device in report["devices"]:
        left = " (left the folder)" if device["left"] else ""
        click.echo(
            f"  {printable(device_label(device))}{left}: {count(device['segments'], 'file')}, "
            f"{device['pending_segments']} to import, last seen {when(device['last_seen'])}"
        )
    for advice in report["advice"]:
        click.echo(printable(advice))


if "sync" not in cli.commands:
    cli.add_command(sync_group)

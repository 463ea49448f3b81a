"""Keep a store in sync with its folder: export and import whenever the folder or the store
changes (``localmind sync watch``, and the TUI's sync worker).

Folder changes come from watchfiles (inotify, FSEvents, ...), grouped so that a burst of
files (a sync engine delivering several segments) makes one sync. Only the folder and the
device directories in it are watched, each without recursion (:func:`watched_directories`):
a planted symlink to ``/`` or an unreadable directory cannot make the watch walk the disk or
fail. Changes to the store, made
by this process or by another ``localmind`` on the same database, are noticed by polling the
database files' size and mtime on every tick: a cheap ``stat`` instead of a query, and it also
sees writes from other processes, which no in-process hook would.

Nothing in the folder and no failing sync stops the loop: a file that cannot be used is
logged (one line each) and reported; an error is reported and the loop waits for the next
change. Only ``stop_event`` (or Ctrl+C in the main thread) ends it.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import watchfiles

from localmind import LocalmindError, Memory
from localmind.store import DATABASE_ERRORS
from sync.codec import DEVICE_RE
from sync.folder import META_EXPORTED, META_RELAY, ImportReport, sync_once

log = logging.getLogger(__name__)

#: Names sync engines (and folder.py) give files still being written: Syncthing's
#: ``.syncthing.NAME.tmp`` (``~syncthing~NAME.tmp`` on Windows), folder.py's ``.NAME.HEX.tmp``,
#: browsers' and cloud clients' partial downloads, editors' swap and backup files.
TRANSIENT_SUFFIXES = (".tmp", ".part", ".partial", ".crdownload", ".swp", "~")

POLL_MS = 1000  # how often the store is checked for local changes (and stop_event at worst)
STEP_MS = 300  # a quiet gap this long ends a burst of folder changes
DEBOUNCE_MS = 3000  # ... and a burst is cut after this long anyway
RETRY_S = 5.0  # wait before watching again when the folder is missing or cannot be watched
RESCAN_S = 30.0  # how often the set of watched directories is checked without a change

Clock = Callable[[], float]


@dataclass(frozen=True, slots=True)
class SyncReport:
    """One sync of the watch loop (or why it could not run)."""

    at: float
    exported: int = 0
    imported: ImportReport = field(default_factory=ImportReport)
    error: str | None = None
    folder: Path | None = None  # what the skipped files' paths are judged relative to

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def idle(self) -> bool:
        """Nothing happened (and nothing went wrong): not worth a line in a long-running log."""
        imported = self.imported
        done = self.exported or imported.segments or imported.compacted or imported.retired
        return self.ok and not done and not self.problems

    @property
    def problems(self) -> list[tuple[str, str]]:
        """Files skipped that someone should look at: not the sync engines' temporary files
        or hidden entries (``.stfolder``), which are expected and retried anyway."""
        repeated = set(self.imported.repeated)  # reported by an earlier sync already
        return [
            (path, why)
            for path, why in self.imported.skipped
            if (path, why) not in repeated and not is_transient(_within(path, self.folder))
        ]

    def summary(self) -> str:
        if self.error is not None:
            return f"sync failed: {self.error}"
        files = self.imported.segments
        line = (
            f"exported {self.exported}, imported {self.imported.events} "
            f"from {files} file{'' if files == 1 else 's'}"
        )
        if changed := self.imported.memories:
            line += f" ({changed} {'memory' if changed == 1 else 'memories'} changed)"
        if compacted := self.imported.compacted:
            line += f"; compacted {compacted} old file{'' if compacted == 1 else 's'}"
        for retired in self.imported.retired:
            line += f"; retired {retired}, which left the folder"
        for kept in dict.fromkeys(self.imported.carried):
            line += f"; carried an edit made here into memory {kept} (another laptop resolved)"
        if settled := self.imported.kept_both:
            line += f"; settled {settled} conflict{'' if settled == 1 else 's'} kept both elsewhere"
        for memory_id in dict.fromkeys(self.imported.kept_apart):
            line += f"; kept memory {memory_id} apart again (keep-both here came later)"
        for memory_id in dict.fromkeys(self.imported.kept_taken):
            line += f"; kept memory {memory_id}: a text taken here, its memory forgotten elsewhere"
        for memory_id in dict.fromkeys(self.imported.kept_edited):
            line += f"; kept memory {memory_id}: an edit made here, its memory forgotten elsewhere"
        for memory_id in dict.fromkeys(self.imported.overruled):
            line += f"; memory {memory_id}: answered differently elsewhere, the later answer stands"
        if problems := len(self.problems):
            line += f"; skipped {problems} file{'' if problems == 1 else 's'}"
        return line


def is_transient(path: str | os.PathLike[str]) -> bool:
    """A hidden or temporary file (or one inside a hidden directory): never a reason to sync."""
    parts = Path(path).parts
    name = parts[-1] if parts else ""
    return (
        any(part.startswith(".") for part in parts)
        or name.startswith("~")
        or name.endswith(TRANSIENT_SUFFIXES)
    )


def _within(path: str, folder: Path | None) -> Path:
    """``path`` relative to ``folder`` when inside it: a folder kept under a hidden directory
    (``~/.sync/localmind``) must not make every file in it look hidden."""
    try:
        return Path(path).relative_to(folder) if folder else Path(path)
    except ValueError:
        return Path(path)


def is_sync_change(path: str | os.PathLike[str], root: Path, own_device: str) -> bool:
    """Whether a change at ``path`` may be news from another device. This device's own
    directory only changes by our exports; temporary files become real names when done."""
    try:
        relative = Path(path).relative_to(root)
    except ValueError:
        return False
    if not relative.parts or relative.parts[0] == own_device:
        return False
    return not is_transient(relative)


def sync_now(memory: Memory, folder: Path, clock: Clock = time.time) -> SyncReport:
    """One :func:`sync.folder.sync_once` (export, import, housekeeping); a failure becomes the
    report's ``error``, never an exception."""
    try:
        exported, imported = sync_once(memory, folder)
    except (LocalmindError, OSError, *DATABASE_ERRORS) as error:
        log.error("sync of %s failed: %s", folder, error)
        return SyncReport(clock(), error=str(error) or type(error).__name__)
    except Exception as error:  # a bug must not end the watch; the traceback goes to the log
        log.exception("sync of %s failed", folder)
        return SyncReport(clock(), error=repr(error))
    report = SyncReport(clock(), exported, imported, folder=Path(folder))
    for path, why in report.problems:
        log.warning("skipped %s: %s", path, why)
    return report


class _StoreFiles:
    """The database files' (size, mtime) as last seen: a commit changes the WAL's."""

    def __init__(self, db: Path) -> None:
        self._paths = (db, db.with_name(db.name + "-wal"))
        self._seen = self._now()

    def _now(self) -> tuple[tuple[int, int], ...]:
        stamps = []
        for path in self._paths:
            try:
                stat = path.stat()
            except OSError:
                stamps.append((-1, -1))
            else:
                stamps.append((stat.st_size, stat.st_mtime_ns))
        return tuple(stamps)

    def changed(self) -> bool:
        now = self._now()
        changed, self._seen = now != self._seen, now
        return changed


def has_unexported(memory: Memory) -> bool:
    """Whether this device has changes not yet in the folder."""
    try:
        exported = int(memory.get_meta(META_EXPORTED) or 0)
        relay = int(memory.get_meta(META_RELAY) or 0)
        return bool(memory.events_since(exported, 1, relay_through=relay))
    except (LocalmindError, *DATABASE_ERRORS) as error:
        log.error("cannot read the store's pending changes: %s", error)
        return False


def watched_directories(root: Path, own_device: str) -> list[Path]:
    """What the watcher listens to: the folder itself and each other device's directory, not
    their subdirectories (the layout has none). Only real directories that this process can
    list: a symlink (to ``/``, say) is never followed out of the folder, and a directory made
    unreadable (sync engines carry permission bits) is left out instead of failing the
    whole watch; the sync reports it."""
    watched = [root]
    try:
        with os.scandir(root) as entries:
            candidates = sorted(
                Path(entry.path)
                for entry in entries
                if DEVICE_RE.match(entry.name)
                and entry.name != own_device
                and entry.is_dir(follow_symlinks=False)
            )
    except OSError:
        return watched
    for directory in candidates:
        try:
            with os.scandir(directory):
                pass
        except OSError:
            continue
        watched.append(directory)
    return watched


def watch(
    memory: Memory,
    folder: str | os.PathLike[str],
    stop_event: threading.Event,
    on_report: Callable[[SyncReport], object],
    *,
    clock: Clock = time.time,
    poll_ms: int = POLL_MS,
    step_ms: int = STEP_MS,
    debounce_ms: int = DEBOUNCE_MS,
    retry_s: float = RETRY_S,
) -> None:
    """Sync ``memory`` through ``folder`` until ``stop_event`` is set: once at the start (and
    whenever watching starts again), then after each burst of changes in the folder and
    whenever this device has changes to export. ``on_report`` gets every sync's report (in
    this thread). ``memory`` must be usable from this thread for the whole time."""
    # Resolved: some platforms (macOS) report changes under the real path of a symlinked one.
    root = Path(folder).expanduser().resolve()
    own_device = memory.device_id
    store_files = _StoreFiles(Path(memory.path))

    def watch_until_gone() -> None:
        # The first batch comes once the watcher is in place (after one tick at most), so the
        # sync it starts cannot miss a file that arrives meanwhile.
        synced = False
        directories = watched_directories(root, own_device)
        listed_at = time.monotonic()
        for changes in watchfiles.watch(
            *directories,
            watch_filter=None,  # filtered here, so that every batch (and tick) polls the store
            debounce=debounce_ms,
            step=step_ms,
            stop_event=stop_event,
            rust_timeout=poll_ms,
            yield_on_timeout=True,
            recursive=False,  # see watched_directories: never a walk outside the folder
            ignore_permission_denied=True,
        ):
            if not root.is_dir():  # deleted or unmounted: this watch would stay silent
                return
            folder_news = any(is_sync_change(path, root, own_device) for _, path in changes)
            local_news = store_files.changed() and has_unexported(memory)
            if not synced or folder_news or local_news:
                synced = True
                # Our own writes change the store's files too: the next tick finds nothing to
                # export (one cheap query), and a write by another process meanwhile is seen.
                on_report(sync_now(memory, root, clock))
            # A device directory came, went, or became readable: watch the new set. Looked at
            # when the folder itself changed, and every RESCAN_S (a chmod may go unreported).
            in_root = any(Path(path).parent == root for _, path in changes)
            if in_root or time.monotonic() - listed_at > RESCAN_S:
                listed_at = time.monotonic()
                if watched_directories(root, own_device) != directories:
                    return

    missing_reported = False
    while not stop_event.is_set():
        if not root.is_dir():
            if not missing_reported:  # an unmounted drive: say it once, then wait for it
                error = f"the folder {root} is missing; waiting for it"
                on_report(SyncReport(clock(), error=error))
                missing_reported = True
            stop_event.wait(retry_s)
            continue
        missing_reported = False
        try:
            watch_until_gone()
        except OSError as error:  # cannot watch (inotify limits, permissions): try again later
            log.error("cannot watch %s: %s", root, error)
            on_report(SyncReport(clock(), error=f"cannot watch {root}: {error}"))
            stop_event.wait(retry_s)

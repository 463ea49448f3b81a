"""Backups: an encrypted, consistent copy of a store that may be in use, restoring one, and
checking a store for damage.

A backup is a store of its own: ``FILE`` (the database, encrypted with the store's data key and
cipher, in rollback-journal mode so the one file is whole) and ``FILE.key`` (a copy of the
store's key file: the same data key, wrapped by the passphrase the store had when the backup
was made). Restoring is therefore a verified copy of two files, and nothing about the backup is
ever in plain text.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from keyring.errors import KeyringError
from ulid import ULID

from localmind.errors import (
    InvalidInput,
    NotAStore,
    StoreDamaged,
    StoreError,
    StoreExists,
    StoreInUse,
    WrongPassphrase,
)
from localmind.files import fsync_directory, sidecars, write_atomically
from localmind.keys import KeyFile, key_file_for, seen_mac_key
from localmind.remembered_key import record_seen_in_keyring
from localmind.store import newest_change
from localmind.store.connection import (
    DAMAGE_ERRORS,
    DATABASE_ERRORS,
    Cipher,
    Connection,
    connect,
    open_bare,
)
from localmind.store.copying import Progress, copy_database
from localmind.store.integrity import (
    STORE_TABLES,
    active_memories,
    index_problems,
    integrity_check,
    table_names,
)
from localmind.store.meta import read_meta, write_meta
from localmind.store.wal import wal_path
from localmind.swap import finish_interrupted, swap_in

#: Pages copied per step of the SQLite backup API (8 MiB with 8 KiB pages): a progress report
#: every step, while the copy itself runs from one read snapshot.
PAGES_PER_STEP = 1024
ASIDE_SUFFIX = ".before-restore"
#: meta keys: the device id a restore replaced, and when (seconds since the epoch)
REPLACED_ID, RESTORED_AT = "device_id.before_restore", "device_id.restored_at"
#: meta key: every id this laptop had before its restores (a JSON list; sync10, review9
#: S3d). It starts with REPLACED_ID, so clearing that prefix (a trial copy joining as a laptop
#: of its own: those ids are the live laptop's) clears both.
FORMER_IDS = REPLACED_ID + "s"
#: meta key: the path a restore put the store at (sync compares it with where it synced from)
RESTORED_PATH = "device_id.restored_path"
_PLAIN_SQLITE_HEADER = b"SQLite format 3\x00"


@dataclass(frozen=True, slots=True)
class BackupReport:
    path: Path
    key_path: Path
    memories: int  # active memories, every user
    pages: int
    size_bytes: int


@dataclass(frozen=True, slots=True)
class RestoreReport:
    target: Path
    memories: int  # active memories, every user
    kept_aside: Path | None  # where the store it replaced now is


@dataclass(frozen=True, slots=True)
class CheckReport:
    path: Path
    memories: int  # active memories, every user
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass(frozen=True, slots=True)
class _Unlocked:
    key_file_bytes: bytes  # exactly what was unwrapped, so a copy matches the data key
    data_key: bytes
    cipher: Cipher


def _unlock(db: Path, passphrase: str, what: str = "localmind store") -> _Unlocked:
    key_path = key_file_for(db)
    if not db.is_file():
        raise NotAStore(f"No {what} at {db}.")
    if not key_path.is_file():
        raise NotAStore(
            f"{db} has no key file beside it ({key_path.name}); it cannot be opened without it."
        )
    raw = key_path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise NotAStore(f"{key_path} is not a valid localmind key file.") from None
    key_file = KeyFile.from_json(text, key_path)
    try:
        data_key = key_file.unwrap(passphrase, key_path)
    except WrongPassphrase:
        raise WrongPassphrase(
            f"Wrong passphrase: it does not unlock the {what} {db}. Nothing was changed."
        ) from None
    return _Unlocked(raw, data_key, key_file.cipher)


# --- backup ---------------------------------------------------------------------------------


def backup_store(
    store: Path,
    destination: Path,
    passphrase: str,
    *,
    replace: bool = False,
    progress: Progress | None = None,
    pages_per_step: int = PAGES_PER_STEP,
) -> BackupReport:
    """Copy ``store`` to ``destination`` (and its key file to ``destination.key``) with the
    SQLite backup API while other processes may be reading and writing it.

    The copy is one read snapshot (other writers go on; the snapshot does not see them), keyed
    like the store before a single page is written, and moved into place only once complete
    (temporary file, fsync, rename): an existing backup is never half-overwritten. Raises
    :class:`StoreExists` if ``destination`` exists and ``replace`` is false.
    """
    store, destination = Path(store).expanduser(), Path(destination).expanduser()
    check_destination(store, destination, replace=replace)
    unlocked = _unlock(store, passphrase)
    source = connect(store, unlocked.data_key, create=False, cipher=unlocked.cipher)
    try:
        with _temporary_beside(destination) as temp:
            memories, pages = _copy(source, temp, unlocked, progress, pages_per_step)
            _refuse_plain_text(temp)
            # Key file first: until the database follows, an older backup of the same store
            # still opens with it (the data key of a store never changes).
            _install_key_file(unlocked, destination)
            os.replace(temp, destination)
            fsync_directory(destination.parent)
    finally:
        source.close()
    return BackupReport(
        destination,
        key_file_for(destination),
        memories,
        pages,
        destination.stat().st_size,
    )


def check_destination(store: Path, destination: Path, *, replace: bool) -> None:
    """Refuse a backup ``destination`` that cannot or may not be written (before anything is
    asked or read)."""
    if destination.is_dir():
        raise InvalidInput(f"{destination} is a folder; give the backup a file name.")
    if not destination.parent.is_dir():
        raise InvalidInput(f"The folder {destination.parent} does not exist.")
    own_files = {store, key_file_for(store), wal_path(store), *sidecars(store)}
    if any(
        _same_file(destination, own) or _same_file(key_file_for(destination), own)
        for own in own_files
    ):
        raise InvalidInput(f"{destination} is the store itself; back it up to another file.")
    if not replace and (destination.exists() or key_file_for(destination).exists()):
        raise StoreExists(
            f"{destination} already exists; nothing was changed. Choose another name, or "
            "replace it with --force."
        )


def _copy(
    source: Connection,
    temp: Path,
    unlocked: _Unlocked,
    progress: Progress | None,
    pages_per_step: int,
) -> tuple[int, int]:
    """Back ``source`` up into the empty file ``temp``; returns (active memories, pages)."""
    copied = copy_database(
        source, temp, unlocked.data_key, unlocked.cipher, progress, pages_per_step
    )
    _fsync(temp)
    return copied


def _refuse_plain_text(path: Path) -> None:
    with open(path, "rb") as handle:
        if handle.read(len(_PLAIN_SQLITE_HEADER)) == _PLAIN_SQLITE_HEADER:
            raise StoreError(f"{path} came out unencrypted; it was deleted and nothing was kept.")


# --- restore --------------------------------------------------------------------------------


def restore_backup(
    backup: Path, target: Path, passphrase: str, *, replace: bool = False
) -> RestoreReport:
    """Make ``target`` the store saved in ``backup`` (and ``backup.key``).

    Before the target is touched, the backup must open with ``passphrase`` and pass
    ``PRAGMA integrity_check``. An existing store at ``target`` is refused unless ``replace``;
    then it is moved aside with its key file and write-ahead log (``<target>.before-restore``,
    itself a store that opens with its old passphrase), never deleted. Refused while another
    program has ``target`` open.
    """
    backup, target = Path(backup).expanduser(), Path(target).expanduser()
    occupied = check_restore(backup, target, replace=replace)
    unlocked = _unlock(backup, passphrase, "backup")
    target.parent.mkdir(parents=True, exist_ok=True)
    with _temporary_beside(target) as candidate:
        with open(backup, "rb") as source, open(candidate, "wb") as copy:
            shutil.copyfileobj(source, copy, 1 << 20)
            copy.flush()
            os.fsync(copy.fileno())
        memories, newest = _verify(candidate, unlocked, shown_as=backup)
        replaced = _ids_of(target, unlocked.data_key, unlocked.cipher) if occupied else []
        new_device_identity(candidate, unlocked.data_key, unlocked.cipher, target, replaced)
        aside = _aside_name(target) if occupied else None
        # The restored store is what this laptop has now seen: going back is deliberate here.
        key_file = KeyFile.from_json(unlocked.key_file_bytes.decode("utf-8"), backup)
        seen = key_file.with_seen(seen_mac_key(unlocked.data_key), newest)
        _lower_seen_in_keyring(target, newest)
        # Crash-safe from here: a crash part-way is finished by the next program to open it.
        swap_in(target, candidate, seen.to_json().encode("utf-8"), aside)
    return RestoreReport(target, memories, aside)


def _lower_seen_in_keyring(target: Path, newest: int) -> None:
    """The keyring's record of the newest change seen goes back with the store (before the
    swap: a crash in between leaves a lower record, never a refusal of the restored store)."""
    try:
        record_seen_in_keyring(target, newest, lower=True)
    except (KeyringError, RuntimeError) as error:
        raise StoreError(
            f"The OS keyring could not be changed ({error}): nothing was restored. Run "
            "`localmind lock` first, or restore when the keyring is unlocked."
        ) from None


def check_restore(backup: Path, target: Path, *, replace: bool) -> bool:
    """Refuse a restore that may not go ahead (before anything is asked or read); returns
    whether a store is at ``target`` (and would be moved aside).

    Must not be called by a process that has ``target`` open itself (see ``_open_elsewhere``).
    """
    finish_interrupted(target)  # an earlier restore a crash cut short
    if not backup.is_file():
        raise NotAStore(f"No backup at {backup}.")
    if wal_path(backup).exists() and wal_path(backup).stat().st_size:
        raise InvalidInput(
            f"{backup} has a write-ahead log beside it: it is a store in use, not a backup. "
            "Make a backup of it with: localmind backup FILE"
        )
    if _same_file(backup, target):
        raise InvalidInput(f"{backup} is the store itself; nothing to restore.")
    occupied = target.exists() or key_file_for(target).exists()
    if occupied and not replace:
        raise StoreExists(
            f"A store already exists at {target}; nothing was changed. Replace it with --force "
            f"(it is then kept as {_aside_name(target).name})."
        )
    if _open_elsewhere(target):
        raise StoreInUse(
            f"{target} is open in another program (the app, `localmind mcp` or a sync "
            "watcher); close it, then restore. Nothing was changed."
        )
    return occupied


def _verify(candidate: Path, unlocked: _Unlocked, *, shown_as: Path) -> tuple[int, int]:
    """The backup opens with its key, is whole, and is a localmind store; returns its active
    memories and its newest change. Only ``candidate`` (the copy) is opened, never the backup
    itself."""
    not_a_backup = StoreDamaged(
        f"{shown_as} is damaged, or it is not a localmind backup (it does not open with its key "
        "file); nothing was changed."
    )
    try:
        db = open_bare(candidate, unlocked.data_key, unlocked.cipher)
    except NotAStore:
        raise not_a_backup from None
    try:
        try:
            problems = integrity_check(db)
            if not table_names(db) >= STORE_TABLES:
                raise not_a_backup
            memories, newest = active_memories(db), newest_change(db)
        except DAMAGE_ERRORS:
            raise not_a_backup from None
        if problems != ["ok"]:
            raise StoreDamaged(
                f"{shown_as} is damaged: its integrity check failed "
                f"({problems[0].splitlines()[0]}); nothing was changed."
            )
    finally:
        db.close()
    return memories, newest


def _aside_name(target: Path) -> Path:
    aside = target.with_name(target.name + ASIDE_SUFFIX)
    number = 1
    while aside.exists() or key_file_for(aside).exists():
        number += 1
        aside = target.with_name(f"{target.name}{ASIDE_SUFFIX}-{number}")
    return aside


def _open_elsewhere(db: Path) -> bool:
    """True when another process has ``db`` open: every SQLite connection in WAL mode holds a
    shared lock on one byte of the ``-shm`` file (the "DMS" byte, offset 128) while it is open.
    POSIX only; elsewhere the operating system refuses to replace an open file."""
    try:
        import fcntl
    except ImportError:
        return False
    try:
        fd = os.open(db.with_name(db.name + "-shm"), os.O_RDWR)
    except OSError:
        return False  # no shared memory index: nobody has it open in WAL mode
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, 128)
    except OSError:
        return True
    else:
        fcntl.lockf(fd, fcntl.LOCK_UN, 1, 128)
        return False
    finally:
        os.close(fd)


# --- check ----------------------------------------------------------------------------------


def check_store(store: Path, passphrase: str) -> CheckReport:
    """Read the whole store: SQLite's integrity check, the keyword index's own check, and the
    indexes against the rows (every active memory has a vector, sign bits and keyword entry;
    nothing else does). A store too damaged to open raises :class:`StoreDamaged` instead."""
    store = Path(store).expanduser()
    unlocked = _unlock(store, passphrase)
    db = connect(store, unlocked.data_key, create=False, cipher=unlocked.cipher)
    problems: list[str] = []
    try:
        try:
            found = integrity_check(db)
        except StoreDamaged:
            found = ["a page failed its authentication tag"]
        if found != ["ok"]:
            lines = [line for text in found for line in text.splitlines() if line.strip()]
            problems.append(f"integrity check: {'; '.join(lines[:3])}")
            return CheckReport(store, 0, problems)  # counting now would only fail again
        problems.extend(index_problems(db))
        return CheckReport(store, active_memories(db), problems)
    finally:
        db.close()


# --- files ----------------------------------------------------------------------------------


@contextlib.contextmanager
def _temporary_beside(path: Path) -> Iterator[Path]:
    """A new owner-only file in ``path``'s folder (so the final rename is atomic), removed
    with its SQLite sidecars unless it was renamed into place."""
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    temp = Path(name)
    try:
        yield temp
    finally:
        for leftover in (temp, *sidecars(temp)):
            leftover.unlink(missing_ok=True)


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (a.exists() and b.exists() and os.path.samefile(a, b))
    except OSError:
        return False


def _install_key_file(unlocked: _Unlocked, database: Path) -> None:
    """Write ``database``'s key file atomically (temporary name, fsync, rename)."""
    write_atomically(key_file_for(database), unlocked.key_file_bytes)


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def place_of(database: Path) -> str:
    """Where a store is: this machine's name and the file's full path (a backup restored at
    the same path on another laptop is somewhere else too)."""
    return f"{socket.gethostname()}:{Path(database).resolve()}"


def _ids_of(store: Path, data_key: bytes, cipher: Cipher) -> list[str]:
    """The device id of the store a restore replaces and the ids it had before its own
    restores; none when it does not open with the backup's key (a passphrase rotated since):
    then only the backup's ids are known as this laptop's former ones."""
    try:
        db = open_bare(store, data_key, cipher)
    except (NotAStore, *DATABASE_ERRORS):
        return []
    try:
        return [*_former_ids(db), read_meta(db, "device_id") or ""]
    except DATABASE_ERRORS:
        return []
    finally:
        db.close()


def _former_ids(db: Connection) -> list[str]:
    try:
        earlier = json.loads(read_meta(db, FORMER_IDS) or "[]")
    except ValueError:
        earlier = []
    replaced = read_meta(db, REPLACED_ID)
    ids = [str(i) for i in earlier if isinstance(i, str)] + ([replaced] if replaced else [])
    return list(dict.fromkeys(ids))


def new_device_identity(
    database: Path,
    data_key: bytes,
    cipher: Cipher,
    target: Path | None = None,
    replaced: list[str] | None = None,
) -> str:
    """Give the store at ``database`` (not open elsewhere) a new device id; returns it.
    ``target``: where the restored store goes (noted: a restore to another path than the
    store's own is a trial copy, which sync leaves out until asked). ``replaced``: the ids of
    the store the restore replaces at ``target`` (its own and its former ones): all of them,
    with the backup's own and former ids, are this laptop's former ids.

    A restored store is a new device: the original (or its other restores) may still be in
    use, and two stores with one id export into the same sync directory, overwrite each
    other's segments and never import each other. Under its new id the store's sync starts a
    fresh stream: it exports its whole history and reads the folder again, its former id's
    directory included, so a laptop restored from its own older backup converges."""
    device_id = str(ULID())
    db = open_bare(database, data_key, cipher)
    try:
        with db:
            old = read_meta(db, "device_id")
            earlier = _former_ids(db) + (replaced or [])
            write_meta(db, "device_id", device_id)
            if old is not None:
                # sync's status names the old ids' directories while they have not written
                # since (every one: two restores leave two, review9 S3d).
                former = [i for i in dict.fromkeys([*earlier, old]) if i and i != device_id]
                for key, value in (
                    (REPLACED_ID, old),
                    (RESTORED_AT, str(time.time())),
                    (FORMER_IDS, json.dumps(former)),
                ):
                    write_meta(db, key, value)
            if target is not None:
                write_meta(db, RESTORED_PATH, place_of(target))
    finally:
        db.close()
    return device_id

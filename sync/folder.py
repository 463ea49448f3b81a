"""The sync folder: what a file-sync engine carries between a person's laptops.

Layout::

    <folder>/localmind-sync.json              header: format, version, the sync key wrapped by
                                              the passphrase (Argon2id salt and parameters)
    <folder>/<device id>/00000001.seg         that device's events, numbered from 1
    <folder>/<device id>/snapshot-00000040.seg  after compaction: every event of that device
                                              in segments 1..40, which are deleted
    <folder>/<device id>/cursors.seg          how far that device has applied each other one

A segment is ``MAGIC + nonce (12 bytes) + AES-256-GCM(sync key, zlib(JSON lines of events))``
with associated data ``localmind-sync v1|<device id>|<number>``: a segment moved to another
device's directory or renumbered fails its tag like a tampered one. A snapshot is sealed the
same way with ``...|<device id>|snapshot|<through>``, a cursors file (zlib'd JSON) with
``...|<device id>|cursors``. Files are written under a temporary name, fsynced and renamed, so
a reader sees a whole file or none.

Only the device that owns a directory writes into it. Each store remembers, in its ``meta``
table, the last event it exported and, per other device, which segments it has applied (a
cursor plus the few applied past a gap). A segment is applied in the same transaction as the
cursor moves, so a crash never applies one twice; applying is idempotent anyway (events are
known by stamp). Temporary, partial, foreign, tampered or undecryptable files are skipped with
a log line and retried on the next import; nothing in the folder can raise out of an import.

Compaction (:func:`compact`, part of :func:`sync_once`). Each device publishes its cursors in
its ``cursors.seg``. A device compacts only its own directory, once every other device
directory in the folder has a valid cursors file that has passed at least
``COMPACT_SEGMENTS`` of its segments: it writes ``snapshot-<N>.seg`` holding every event of
its own it has exported (read from its store, so forgotten text is redacted there too),
where N is the highest segment all have passed; then it deletes its segments 1..N and older
snapshots. A device whose cursor is at or past N skips the snapshot; one behind it, or one
that joins later, applies the snapshot (its cursor jumps to N) and then the segments after N.
Since every own event of segments 1..N is in the snapshot, which is written before anything
is deleted, any device that reads the folder converges, whenever it joins and in whatever
order the sync engine delivers the files. A missing, foreign or tampered cursors file counts
as "passed nothing": it can only stop a deletion, never cause one.
"""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from localmind import KdfParams, LocalmindError, Memory, NotAStore, WrongPassphrase
from localmind.files import fsync_directory
from localmind.keys import KeyFile
from localmind.replica import Event

log = logging.getLogger("localmind.sync")

HEADER_NAME = "localmind-sync.json"
HEADER_FORMAT = "localmind-sync"
HEADER_VERSION = 1
MAGIC = b"LMSYNC1\n"
NONCE_BYTES = 12
SEGMENT_EVENTS = 1000  # events per segment file
SEGMENT_RE = re.compile(r"^(\d{8})\.seg$")
SNAPSHOT_RE = re.compile(r"^snapshot-(\d{8})\.seg$")
CURSORS_NAME = "cursors.seg"
# Compact once all devices have passed this many of a device's own segments: each compaction
# rewrites the device's whole history into one snapshot, so not on every sync.
COMPACT_SEGMENTS = 8
DEVICE_RE = re.compile(r"^[0-9A-HJKMNP-TV-Z]{26}$")  # a ULID, as localmind makes device ids

META_KEY = "sync.key"
META_FOLDER = "sync.folder"
META_EXPORTED = "sync.exported_seq"
META_SEGMENT = "sync.segment"


class SyncError(LocalmindError):
    """The folder cannot be used for sync as asked (message says why and what to do)."""


@dataclass(slots=True)
class ImportReport:
    segments: int = 0  # segments applied
    events: int = 0  # new events applied
    duplicates: int = 0
    memories: int = 0  # memories changed
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (file, why)
    compacted: int = 0  # own segments folded into a snapshot and deleted (by sync_once)


# --- the header -------------------------------------------------------------------------------


def header_path(folder: Path) -> Path:
    return Path(folder) / HEADER_NAME


def init_folder(
    memory: Memory, folder: str | os.PathLike[str], passphrase: str, kdf: KdfParams | None = None
) -> Path:
    """Make ``folder`` a sync folder (first laptop): a new random sync key, wrapped by
    ``passphrase``, goes into its header; this store keeps the key and exports into it."""
    root = Path(folder).expanduser()
    if header_path(root).exists():
        raise SyncError(f"{root} is already a sync folder; use `sync join` to join it.")
    root.mkdir(parents=True, exist_ok=True)
    key = secrets.token_bytes(32)
    _write_header(root, key, passphrase, kdf or KdfParams())
    _remember_folder(memory, root, key)
    return root


def join_folder(memory: Memory, folder: str | os.PathLike[str], passphrase: str) -> Path:
    """Join an existing sync folder (other laptops) with the passphrase it was made with."""
    root = Path(folder).expanduser()
    key = read_header(root).unwrap_key(passphrase, root)
    _remember_folder(memory, root, key)
    return root


def rekey_folder(memory: Memory, folder: str | os.PathLike[str], passphrase: str) -> Path:
    """Re-wrap the folder's sync key with ``passphrase`` (this store's passphrase, after
    ``localmind passwd``), so laptops joining later use it and the old one stops opening the
    header. Only a store that already holds the folder's key may do it: some file of the folder
    must open with that key, or the header would end up wrapping a key nobody else uses."""
    root = Path(folder).expanduser()
    key = sync_key(memory)
    old = read_header(root)
    if not _key_opens_folder(key, root):
        raise SyncError(
            f"This store's sync key opens no file in {root}: it joined another folder, or this "
            "one has no files yet (run `localmind sync now` first). The header was not changed."
        )
    _write_header(root, key, passphrase, old.key_file.kdf)
    return root


def _key_opens_folder(key: bytes, root: Path) -> bool:
    for directory in _device_directories(root):
        if read_cursors(key, directory) is not None:
            return True
        for number in _segment_numbers(directory)[:1]:
            try:
                unseal(key, directory.name, number, segment_path(directory, number).read_bytes())
            except (OSError, ValueError):
                continue
            return True
    return False


def _write_header(root: Path, key: bytes, passphrase: str, kdf: KdfParams) -> None:
    wrapped = KeyFile.wrap(key, passphrase, kdf)
    document = {
        "format": HEADER_FORMAT,
        "version": HEADER_VERSION,
        "key": json.loads(wrapped.to_json()),
    }
    _atomic_write(header_path(root), (json.dumps(document, indent=2) + "\n").encode("utf-8"))


@dataclass(frozen=True, slots=True)
class Header:
    key_file: KeyFile

    def unwrap_key(self, passphrase: str, root: Path) -> bytes:
        try:
            return self.key_file.unwrap(passphrase)
        except WrongPassphrase:
            raise SyncError(
                f"The passphrase does not open the sync folder {root}: it was made with another "
                "passphrase. Use the passphrase of the laptop that ran `sync init`."
            ) from None


def read_header(root: Path) -> Header:
    path = header_path(root)
    if not path.is_file():
        raise SyncError(f"{root} is not a sync folder (no {HEADER_NAME}); run `sync init` first.")
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
        if document.get("format") != HEADER_FORMAT:
            raise ValueError("not a localmind sync header")
        if document.get("version") != HEADER_VERSION:
            raise ValueError(f"unsupported version {document.get('version')!r}")
        return Header(KeyFile.from_json(json.dumps(document["key"]), path))
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError, NotAStore) as e:
        raise SyncError(f"{path} is not a valid localmind sync header ({e}).") from None


def _remember_folder(memory: Memory, root: Path, key: bytes) -> None:
    memory.set_meta(META_KEY, key.hex())
    memory.set_meta(META_FOLDER, str(root.resolve()))


def sync_key(memory: Memory) -> bytes:
    value = memory.get_meta(META_KEY)
    if not value:
        raise SyncError("This store has not joined a sync folder: run `sync init` or `sync join`.")
    return bytes.fromhex(value)


def joined_folder(memory: Memory) -> Path | None:
    value = memory.get_meta(META_FOLDER)
    return Path(value) if value else None


# --- sealed files: segments, snapshots, cursors ----------------------------------------------


def _aad(device_id: str, number: int) -> bytes:
    return f"localmind-sync v1|{device_id}|{number}".encode()


def _snapshot_aad(device_id: str, through: int) -> bytes:
    return f"localmind-sync v1|{device_id}|snapshot|{through}".encode()


def _cursors_aad(device_id: str) -> bytes:
    return f"localmind-sync v1|{device_id}|cursors".encode()


def _seal(key: bytes, aad: bytes, plain: bytes) -> bytes:
    nonce = secrets.token_bytes(NONCE_BYTES)
    return MAGIC + nonce + AESGCM(key).encrypt(nonce, zlib.compress(plain, 6), aad)


def _unseal(key: bytes, aad: bytes, blob: bytes) -> bytes:
    """The plain content of a sealed file; ``ValueError`` when it is not whole and untampered,
    or was sealed for another place (``aad``) or with another key."""
    if not blob.startswith(MAGIC) or len(blob) < len(MAGIC) + NONCE_BYTES + 16:
        raise ValueError("not a localmind sync file (or cut short)")
    nonce = blob[len(MAGIC) : len(MAGIC) + NONCE_BYTES]
    try:
        packed = AESGCM(key).decrypt(nonce, blob[len(MAGIC) + NONCE_BYTES :], aad)
    except InvalidTag:
        raise ValueError(
            "authentication failed: tampered, truncated, misplaced, or made with another key"
        ) from None
    try:
        return zlib.decompress(packed)
    except zlib.error as error:
        raise ValueError(f"undecodable content ({error})") from None


def _lines(events: list[Event]) -> bytes:
    text = "".join(json.dumps(e.to_dict(), ensure_ascii=False) + "\n" for e in events)
    return text.encode("utf-8")


def _events(device_id: str, plain: bytes) -> list[Event]:
    try:
        text = plain.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(f"undecodable content ({error})") from None
    events = []
    # Split on "\n" only: JSON escapes it inside strings, but not U+2028, U+0085 and the other
    # breaks str.splitlines knows, which a memory's text may hold.
    for line_no, line in enumerate(text.split("\n"), start=1):
        if not line:
            continue
        try:
            event = Event.from_dict(json.loads(line))
        except (ValueError, RecursionError) as error:
            raise ValueError(f"line {line_no}: {error}") from None
        if event.device_id != device_id:
            raise ValueError(f"line {line_no}: an event of {event.device_id} in {device_id}'s file")
        events.append(event)
    return events


def seal(key: bytes, device_id: str, number: int, events: list[Event]) -> bytes:
    return _seal(key, _aad(device_id, number), _lines(events))


def unseal(key: bytes, device_id: str, number: int, blob: bytes) -> list[Event]:
    """The events of a segment; ``ValueError`` when it is not a whole, untampered segment of
    ``device_id`` numbered ``number`` under ``key``."""
    return _events(device_id, _unseal(key, _aad(device_id, number), blob))


def seal_snapshot(key: bytes, device_id: str, through: int, events: list[Event]) -> bytes:
    return _seal(key, _snapshot_aad(device_id, through), _lines(events))


def unseal_snapshot(key: bytes, device_id: str, through: int, blob: bytes) -> list[Event]:
    """The events of ``device_id``'s snapshot of its segments 1..``through``."""
    return _events(device_id, _unseal(key, _snapshot_aad(device_id, through), blob))


def seal_cursors(key: bytes, device_id: str, applied: dict[str, int]) -> bytes:
    document = {"device_id": device_id, "applied": dict(sorted(applied.items()))}
    return _seal(key, _cursors_aad(device_id), json.dumps(document).encode("utf-8"))


def unseal_cursors(key: bytes, device_id: str, blob: bytes) -> dict[str, int]:
    """How far ``device_id`` says it has applied each other device (segment numbers)."""
    try:
        document = json.loads(_unseal(key, _cursors_aad(device_id), blob))
    except (ValueError, RecursionError) as error:  # not UTF-8, not JSON, nested too deeply
        raise ValueError(f"undecodable content ({error})") from None
    applied = document.get("applied") if isinstance(document, dict) else None
    if not isinstance(applied, dict) or document.get("device_id") != device_id:
        raise ValueError("not a cursors document of this device")
    for device, cursor in applied.items():
        valid = isinstance(cursor, int) and not isinstance(cursor, bool) and cursor >= 0
        if not DEVICE_RE.match(device) or not valid:
            raise ValueError(f"bad cursor {device!r}: {cursor!r}")
    return applied


def _atomic_write(path: Path, data: bytes) -> None:
    temp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    try:
        with open(temp, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    finally:
        temp.unlink(missing_ok=True)
    fsync_directory(path.parent)


def segment_path(directory: Path, number: int) -> Path:
    return directory / f"{number:08d}.seg"


def snapshot_path(directory: Path, through: int) -> Path:
    return directory / f"snapshot-{through:08d}.seg"


def _numbered(directory: Path, pattern: re.Pattern[str]) -> list[int]:
    try:
        names = [p.name for p in directory.iterdir()]
    except OSError:
        return []
    return sorted(int(m.group(1)) for name in names if (m := pattern.match(name)))


def _segment_numbers(directory: Path) -> list[int]:
    return _numbered(directory, SEGMENT_RE)


def _snapshot_numbers(directory: Path) -> list[int]:
    return _numbered(directory, SNAPSHOT_RE)


def _device_directories(root: Path) -> list[Path]:
    try:
        entries = sorted(root.iterdir())
    except OSError:
        return []
    return [e for e in entries if DEVICE_RE.match(e.name) and e.is_dir()]


# --- export and import ------------------------------------------------------------------------


def export_pending(memory: Memory, folder: str | os.PathLike[str]) -> int:
    """Write this device's events not yet exported as new segments; returns how many events."""
    key = sync_key(memory)
    directory = Path(folder).expanduser() / memory.device_id
    directory.mkdir(parents=True, exist_ok=True)
    exported = int(memory.get_meta(META_EXPORTED) or 0)
    total = 0
    while events := memory.events_since(exported, SEGMENT_EVENTS):
        # Never reuse a number, even one only a snapshot remembers: others' cursors passed it.
        used = [*_segment_numbers(directory), *_snapshot_numbers(directory)]
        number = max([int(memory.get_meta(META_SEGMENT) or 0), *used]) + 1
        path = segment_path(directory, number)
        _atomic_write(path, seal(key, memory.device_id, number, events))
        # A crash here re-exports these events in the next segment: importers skip them by stamp.
        exported = events[-1].seq
        memory.set_meta(META_SEGMENT, str(number))
        memory.set_meta(META_EXPORTED, str(exported))
        total += len(events)
        log.debug("exported %d events to %s", len(events), path)
    return total


def _cursor_keys(device_id: str) -> tuple[str, str]:
    return f"sync.cursor.{device_id}", f"sync.done.{device_id}"


def _progress(memory: Memory, device_id: str) -> tuple[int, set[int]]:
    cursor_key, done_key = _cursor_keys(device_id)
    cursor = int(memory.get_meta(cursor_key) or 0)
    done = set(json.loads(memory.get_meta(done_key) or "[]"))
    return cursor, done


def _moved(
    cursor: int, done: set[int], *, number: int = 0, through: int = 0
) -> tuple[int, set[int]]:
    """The cursor and the applied-past-a-gap set once segment ``number`` (or a snapshot of
    segments 1..``through``) is applied."""
    done = {n for n in done if n > through} | ({number} if number else set())
    cursor = max(cursor, through)
    while cursor + 1 in done:
        cursor += 1
        done.discard(cursor)
    return cursor, done


def import_new(memory: Memory, folder: str | os.PathLike[str]) -> ImportReport:
    """Apply the segments of other devices not applied yet. Never raises for what is in the
    folder: a file that cannot be used is logged, listed in the report and left for later."""
    report = ImportReport()
    key = sync_key(memory)
    root = Path(folder).expanduser()

    def skip(path: Path, why: str, level: int = logging.WARNING) -> None:
        log.log(level, "sync: skipped %s: %s", path, why)
        report.skipped.append((str(path), why))

    try:
        entries = sorted(root.iterdir())
    except OSError as error:
        skip(root, f"cannot list the folder ({error})", logging.ERROR)
        return report
    for entry in entries:
        if entry.name == HEADER_NAME or entry.name == memory.device_id:
            continue
        if entry.name.startswith("."):
            # The sync engine's own (Syncthing's .stfolder and .stignore), the OS's, or a
            # temporary file: there in every folder, so not worth a line each sync.
            log.debug("sync: ignored hidden %s", entry)
            continue
        if not entry.is_dir() or not DEVICE_RE.match(entry.name):
            skip(entry, "not a device directory", logging.INFO)
            continue
        _import_device(memory, key, entry, report, skip)
    return report


def _import_device(
    memory: Memory, key: bytes, directory: Path, report: ImportReport, skip: Any
) -> None:
    device_id = directory.name
    cursor, done = _progress(memory, device_id)
    try:
        files = sorted(directory.iterdir())
    except OSError as error:
        skip(directory, f"cannot list ({error})", logging.ERROR)
        return
    numbers: list[int] = []
    snapshots: list[int] = []
    for path in files:
        if match := SEGMENT_RE.match(path.name):
            numbers.append(int(match.group(1)))
        elif match := SNAPSHOT_RE.match(path.name):
            snapshots.append(int(match.group(1)))
        elif path.name != CURSORS_NAME:
            skip(path, "not a segment (temporary, partial or foreign file)", logging.INFO)

    def apply(path: Path, events: list[Event], moved: tuple[int, set[int]]) -> bool:
        nonlocal cursor, done
        cursor_key, done_key = _cursor_keys(device_id)
        new_cursor, new_done = moved
        try:
            applied = memory.apply_remote(
                events,
                meta={cursor_key: str(new_cursor), done_key: json.dumps(sorted(new_done))},
            )
        except Exception as error:  # a valid file whose events this store cannot take
            skip(path, f"could not be applied, nothing changed: {error!r}", logging.ERROR)
            return False
        cursor, done = new_cursor, new_done
        report.segments += 1
        report.events += applied.applied
        report.duplicates += applied.duplicates
        report.memories += applied.memories
        log.debug("imported %s: %d new events", path, applied.applied)
        return True

    # The newest snapshot this store is behind first (a late joiner's start); an older one is
    # the fallback while a damaged newest one waits for a good copy.
    for through in sorted(snapshots, reverse=True):
        if through <= cursor:
            break
        path = snapshot_path(directory, through)
        try:
            events = unseal_snapshot(key, device_id, through, path.read_bytes())
        except (OSError, ValueError) as error:
            skip(path, f"rejected, nothing applied: {error}")
            continue
        if apply(path, events, _moved(cursor, done, through=through)):
            break
    for number in sorted(numbers):
        if number <= cursor or number in done:
            continue
        path = segment_path(directory, number)
        try:
            events = unseal(key, device_id, number, path.read_bytes())
        except (OSError, ValueError) as error:
            skip(path, f"rejected, nothing applied: {error}")
            continue
        apply(path, events, _moved(cursor, done, number=number))


# --- cursors and compaction -------------------------------------------------------------------


def publish_cursors(memory: Memory, folder: str | os.PathLike[str]) -> bool:
    """Write how far this store has applied each other device into ``<me>/cursors.seg``, when
    that changed; returns whether it wrote. Others read it to know what they may compact."""
    key = sync_key(memory)
    root = Path(folder).expanduser()
    applied = {
        entry.name: _progress(memory, entry.name)[0]
        for entry in _device_directories(root)
        if entry.name != memory.device_id
    }
    directory = root / memory.device_id
    path = directory / CURSORS_NAME
    try:
        if unseal_cursors(key, memory.device_id, path.read_bytes()) == applied:
            return False  # unchanged: no write, so no ripple through the sync engine
    except (OSError, ValueError):
        pass  # none yet, or unreadable: write a good one
    directory.mkdir(parents=True, exist_ok=True)
    _atomic_write(path, seal_cursors(key, memory.device_id, applied))
    return True


def read_cursors(key: bytes, directory: Path) -> dict[str, int] | None:
    """The cursors a device directory publishes; ``None`` (with a log line when the file is
    there but cannot be trusted) when there are none to go by."""
    path = directory / CURSORS_NAME
    try:
        blob = path.read_bytes()
    except FileNotFoundError:
        log.debug("sync: %s has published no cursors yet", directory)
        return None
    except OSError as error:
        log.warning("sync: ignored %s: cannot read it (%s)", path, error)
        return None
    try:
        return unseal_cursors(key, directory.name, blob)
    except ValueError as error:
        log.warning("sync: ignored %s (nothing is compacted on its word): %s", path, error)
        return None


def passed_by_all(memory: Memory, folder: str | os.PathLike[str]) -> int | None:
    """The highest own segment number every other device directory has applied, by their
    cursors files; ``None`` when there is no other device."""
    key = sync_key(memory)
    root = Path(folder).expanduser()
    lowest: int | None = None
    for directory in _device_directories(root):
        if directory.name == memory.device_id:
            continue
        cursors = read_cursors(key, directory)
        cursor = cursors.get(memory.device_id, 0) if cursors is not None else 0
        lowest = cursor if lowest is None else min(lowest, cursor)
    return lowest


def compact(
    memory: Memory, folder: str | os.PathLike[str], *, min_segments: int | None = None
) -> int:
    """Fold this device's segments that every other device has applied into one snapshot,
    then delete them; returns how many segments were deleted. See the module docstring."""
    wanted = COMPACT_SEGMENTS if min_segments is None else min_segments
    key = sync_key(memory)
    root = Path(folder).expanduser()
    directory = root / memory.device_id
    numbers = _segment_numbers(directory)
    if len(numbers) < wanted:
        return 0
    passed = passed_by_all(memory, root)
    if passed is None:  # alone in the folder: a device that joins later takes the snapshot
        passed = max(numbers, default=0)
    folded = [n for n in numbers if n <= passed]
    if not folded or len(folded) < wanted:
        return 0
    through = folded[-1]
    exported = int(memory.get_meta(META_EXPORTED) or 0)
    # Every own event that any segment up to ``through`` holds was exported, so it is here.
    # They come from the store, where a forget has redacted the text: it leaves the folder too.
    events = [e for e in memory.events_since(0) if e.seq <= exported]
    try:
        _atomic_write(
            snapshot_path(directory, through),
            seal_snapshot(key, memory.device_id, through, events),
        )
        for older in _snapshot_numbers(directory):
            if older < through:
                snapshot_path(directory, older).unlink(missing_ok=True)
        for number in folded:
            segment_path(directory, number).unlink(missing_ok=True)
    except OSError as error:
        # Housekeeping only: what is left is still a complete folder; the next sync retries.
        log.error("sync: compaction of %s stopped: %s", directory, error)
        return 0
    fsync_directory(directory)
    log.info("sync: compacted %d segments of %s into a snapshot", len(folded), directory)
    return len(folded)


def sync_once(memory: Memory, folder: str | os.PathLike[str]) -> tuple[int, ImportReport]:
    """Export, import, publish this store's cursors and compact its own old segments:
    (events exported, what the import did, with ``compacted`` set)."""
    exported = export_pending(memory, folder)
    report = import_new(memory, folder)
    try:
        publish_cursors(memory, folder)
    except OSError as error:
        log.error("sync: could not publish this device's cursors: %s", error)
    report.compacted = compact(memory, folder)
    return exported, report


def status(memory: Memory, folder: str | os.PathLike[str]) -> dict[str, Any]:
    """This device and every other device seen in the folder, with what is pending."""
    root = Path(folder).expanduser()
    exported = int(memory.get_meta(META_EXPORTED) or 0)
    devices = []
    for entry in _device_directories(root):
        if entry.name == memory.device_id:
            continue
        numbers = _segment_numbers(entry)
        snapshots = _snapshot_numbers(entry)
        cursor, done = _progress(memory, entry.name)
        pending = [n for n in numbers if n > cursor and n not in done]
        files = [
            *(segment_path(entry, n) for n in numbers),
            *(snapshot_path(entry, n) for n in snapshots),
            entry / CURSORS_NAME,
        ]
        seen = [t for path in files if (t := _mtime(path)) is not None]
        devices.append(
            {
                "device_id": entry.name,
                "segments": len(numbers) + len(snapshots),
                "applied_through": cursor,
                "pending_segments": len(pending) + int(max(snapshots, default=0) > cursor),
                "last_seen": max(seen, default=None),
            }
        )
    return {
        "folder": str(root),
        "device_id": memory.device_id,
        "exported_through_seq": exported,
        "pending_events": len(memory.events_since(exported)),
        "devices": devices,
    }


def _mtime(path: Path) -> float | None:
    try:
        return path.stat().st_mtime
    except OSError:
        return None

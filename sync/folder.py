"""The sync folder: what a file-sync engine carries between a person's laptops.

Layout::

    <folder>/localmind-sync.json        header: format, version, the sync key wrapped by the
                                        passphrase (Argon2id salt and parameters, AES-GCM)
    <folder>/<device id>/00000001.seg   that device's events, numbered from 1

A segment is ``MAGIC + nonce (12 bytes) + AES-256-GCM(sync key, zlib(JSON lines of events))``
with associated data ``localmind-sync v1|<device id>|<number>``: a segment moved to another
device's directory or renumbered fails its tag like a tampered one. Files are written under a
temporary name, fsynced and renamed, so a reader sees a whole segment or none.

Only the device that owns a directory writes into it. Each store remembers, in its ``meta``
table, the last event it exported and, per other device, which segments it has applied (a
cursor plus the few applied past a gap). A segment is applied in the same transaction as the
cursor moves, so a crash never applies one twice; applying is idempotent anyway (events are
known by stamp). Temporary, partial, foreign, tampered or undecryptable files are skipped with
a log line and retried on the next import; nothing in the folder can raise out of an import.
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
    wrapped = KeyFile.wrap(key, passphrase, kdf or KdfParams())
    document = {
        "format": HEADER_FORMAT,
        "version": HEADER_VERSION,
        "key": json.loads(wrapped.to_json()),
    }
    _atomic_write(header_path(root), (json.dumps(document, indent=2) + "\n").encode("utf-8"))
    _remember_folder(memory, root, key)
    return root


def join_folder(memory: Memory, folder: str | os.PathLike[str], passphrase: str) -> Path:
    """Join an existing sync folder (other laptops) with the passphrase it was made with."""
    root = Path(folder).expanduser()
    key = read_header(root).unwrap_key(passphrase, root)
    _remember_folder(memory, root, key)
    return root


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
    except (ValueError, KeyError, TypeError, AttributeError, UnicodeDecodeError, NotAStore) as e:
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


# --- segments ---------------------------------------------------------------------------------


def _aad(device_id: str, number: int) -> bytes:
    return f"localmind-sync v1|{device_id}|{number}".encode()


def seal(key: bytes, device_id: str, number: int, events: list[Event]) -> bytes:
    lines = "".join(json.dumps(e.to_dict(), ensure_ascii=False) + "\n" for e in events)
    nonce = secrets.token_bytes(NONCE_BYTES)
    body = AESGCM(key).encrypt(
        nonce, zlib.compress(lines.encode("utf-8"), 6), _aad(device_id, number)
    )
    return MAGIC + nonce + body


def unseal(key: bytes, device_id: str, number: int, blob: bytes) -> list[Event]:
    """The events of a segment; ``ValueError`` when it is not a whole, untampered segment of
    ``device_id`` numbered ``number`` under ``key``."""
    if not blob.startswith(MAGIC) or len(blob) < len(MAGIC) + NONCE_BYTES + 16:
        raise ValueError("not a localmind segment (or cut short)")
    nonce = blob[len(MAGIC) : len(MAGIC) + NONCE_BYTES]
    try:
        packed = AESGCM(key).decrypt(
            nonce, blob[len(MAGIC) + NONCE_BYTES :], _aad(device_id, number)
        )
    except InvalidTag:
        raise ValueError(
            "authentication failed: tampered, truncated, misplaced, or made with another key"
        ) from None
    try:
        text = zlib.decompress(packed).decode("utf-8")
    except (zlib.error, UnicodeDecodeError) as error:
        raise ValueError(f"undecodable content ({error})") from None
    events = []
    for line_no, line in enumerate(text.splitlines(), start=1):
        try:
            event = Event.from_dict(json.loads(line))
        except ValueError as error:
            raise ValueError(f"line {line_no}: {error}") from None
        if event.device_id != device_id:
            raise ValueError(f"line {line_no}: an event of {event.device_id} in {device_id}'s file")
        events.append(event)
    return events


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
    try:
        fd = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _segment_numbers(directory: Path) -> list[int]:
    if not directory.is_dir():
        return []
    return sorted(int(m.group(1)) for p in directory.iterdir() if (m := SEGMENT_RE.match(p.name)))


# --- export and import ------------------------------------------------------------------------


def export_pending(memory: Memory, folder: str | os.PathLike[str]) -> int:
    """Write this device's events not yet exported as new segments; returns how many events."""
    key = sync_key(memory)
    directory = Path(folder).expanduser() / memory.device_id
    directory.mkdir(parents=True, exist_ok=True)
    exported = int(memory.get_meta(META_EXPORTED) or 0)
    total = 0
    while events := memory.events_since(exported, SEGMENT_EVENTS):
        numbers = _segment_numbers(directory)
        number = max([int(memory.get_meta(META_SEGMENT) or 0), *numbers]) + 1
        path = directory / f"{number:08d}.seg"
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
        if entry.name.startswith(".") or not entry.is_dir() or not DEVICE_RE.match(entry.name):
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
    for path in files:
        match = SEGMENT_RE.match(path.name)
        if not match:
            skip(path, "not a segment (temporary, partial or foreign file)", logging.INFO)
            continue
        numbers.append(int(match.group(1)))
    for number in sorted(numbers):
        if number <= cursor or number in done:
            continue
        path = directory / f"{number:08d}.seg"
        try:
            events = unseal(key, device_id, number, path.read_bytes())
        except (OSError, ValueError) as error:
            skip(path, f"rejected, nothing applied: {error}")
            continue
        new_done = done | {number}
        new_cursor = cursor
        while new_cursor + 1 in new_done:
            new_cursor += 1
            new_done.discard(new_cursor)
        cursor_key, done_key = _cursor_keys(device_id)
        try:
            applied = memory.apply_remote(
                events,
                meta={cursor_key: str(new_cursor), done_key: json.dumps(sorted(new_done))},
            )
        except Exception as error:  # a valid file whose events this store cannot take
            skip(path, f"could not be applied, nothing changed: {error!r}", logging.ERROR)
            continue
        cursor, done = new_cursor, new_done
        report.segments += 1
        report.events += applied.applied
        report.duplicates += applied.duplicates
        report.memories += applied.memories
        log.debug("imported %s: %d new events", path, applied.applied)


def sync_once(memory: Memory, folder: str | os.PathLike[str]) -> tuple[int, ImportReport]:
    """Export, then import: (events exported, what the import did)."""
    return export_pending(memory, folder), import_new(memory, folder)


def status(memory: Memory, folder: str | os.PathLike[str]) -> dict[str, Any]:
    """This device and every other device seen in the folder, with what is pending."""
    root = Path(folder).expanduser()
    exported = int(memory.get_meta(META_EXPORTED) or 0)
    devices = []
    if root.is_dir():
        for entry in sorted(root.iterdir()):
            if not entry.is_dir() or not DEVICE_RE.match(entry.name):
                continue
            if entry.name == memory.device_id:
                continue
            numbers = _segment_numbers(entry)
            cursor, done = _progress(memory, entry.name)
            newest = max((entry / f"{n:08d}.seg" for n in numbers), default=None)
            devices.append(
                {
                    "device_id": entry.name,
                    "segments": len(numbers),
                    "applied_through": cursor,
                    "pending_segments": len([n for n in numbers if n > cursor and n not in done]),
                    "last_seen": newest.stat().st_mtime if newest else None,
                }
            )
    return {
        "folder": str(root),
        "device_id": memory.device_id,
        "exported_through_seq": exported,
        "pending_events": len(memory.events_since(exported)),
        "devices": devices,
    }

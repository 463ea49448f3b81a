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

import errno
import hashlib
import json
import logging
import os
import re
import secrets
import shutil
import socket
import stat
import time
import zlib
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from localmind import KdfParams, LocalmindError, Memory, NotAStore, WrongPassphrase
from localmind.backup import REPLACED_ID, RESTORED_AT
from localmind.files import fsync_directory, write_atomically
from localmind.keys import DEFAULT_KDF, KeyFile
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

# What this laptop trusts to read. A legitimate sealed file is never near these bounds (the
# exporter splits a segment, and compaction refuses a snapshot, that would pass them), so a
# file past them is a stranger's: it is skipped before it costs memory or time.
MAX_PLAIN_BYTES = 256 * 1024 * 1024  # a sealed file's decompressed content
MAX_FILE_BYTES = MAX_PLAIN_BYTES + 1024 * 1024  # the file: compressed content, nonce, tag
MAX_HEADER_BYTES = 64 * 1024
# Names are 8 digits; a number this laptop writes must be one every laptop reads back.
MAX_SEGMENT_NUMBER = 99_999_999

META_KEY = "sync.key"
META_FOLDER = "sync.folder"
META_EXPORTED = "sync.exported_seq"
META_SEGMENT = "sync.segment"
# The export stream this store writes: "<device id> <key id>". Another device id (a restored
# or copied store) or another folder key (init/join of a new folder, a re-join after a
# double init) starts a fresh stream: see :func:`_ensure_stream`.
META_STREAM = "sync.stream"
# Events up to this local position are exported whatever device made them (a fresh stream
# relays this store's whole history), later ones only when they are this device's own.
META_RELAY = "sync.relay_through_seq"
# This laptop's name for people (``sync init/join --name``, default the host name); it is
# published, sealed, in the device's cursors file. Kept when a fresh stream resets the rest.
META_NAME = "sync.name"
# The files the last import skipped, with why and their (inode, size, mtime): a stranger's file
# is reported once per store, not at every `sync now` (each a new process). Bounded.
META_REPORTED = "sync.reported"
MAX_REPORTED = 1000
# "<segment number> <folder>": what this store had written when it left that folder (`sync
# leave`); a fresh stream in the same folder numbers on after it (see sync.devices).
META_LEFT_SEGMENT = "sync.left_segment"
MAX_NAME_CHARS = 64
# How many retired key ids a header keeps (each `sync rekey --rotate` adds one).
MAX_RETIRED_KEYS = 100
# A device that has written nothing for this long is named by `sync status`: it may be this
# laptop's former self (a restore gives the store a new id), holding compaction back.
SILENT_AFTER_S = 14 * 86400


class SyncError(LocalmindError):
    """The folder cannot be used for sync as asked (message says why and what to do)."""


@dataclass(slots=True)
class ImportReport:
    segments: int = 0  # segments applied
    events: int = 0  # new events applied
    duplicates: int = 0
    memories: int = 0  # memories changed
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (file, why)
    # those of ``skipped`` this process already reported (logged) before: a stranger's file
    # is worth one line, not one per sync
    repeated: list[tuple[str, str]] = field(default_factory=list)
    compacted: int = 0  # own segments folded into a snapshot and deleted (by sync_once)
    retired: list[str] = field(default_factory=list)  # departed laptops' directories removed


# --- the header -------------------------------------------------------------------------------


def header_path(folder: Path) -> Path:
    return Path(folder) / HEADER_NAME


def init_folder(
    memory: Memory,
    folder: str | os.PathLike[str],
    passphrase: str,
    kdf: KdfParams | None = None,
    *,
    name: str | None = None,
) -> Path:
    """Make ``folder`` a sync folder (first laptop): a new random sync key, wrapped by
    ``passphrase``, goes into its header; this store keeps the key and exports into it.
    ``name``: what the other laptops call this one (default: the host name)."""
    root = Path(folder).expanduser()
    name = check_name(name) if name is not None else None
    _refuse_if_joined(memory, root, "init")
    if header_path(root).exists():
        raise SyncError(f"{root} is already a sync folder; use `sync join` to join it.")
    root.mkdir(parents=True, exist_ok=True)
    key = secrets.token_bytes(32)
    _write_header(root, key, passphrase, kdf or KdfParams())
    _remember_folder(memory, root, key, name)
    return root


def join_folder(
    memory: Memory, folder: str | os.PathLike[str], passphrase: str, *, name: str | None = None
) -> Path:
    """Join an existing sync folder (other laptops) with the folder's passphrase."""
    root = Path(folder).expanduser()
    name = check_name(name) if name is not None else None
    _refuse_if_joined(memory, root, "join")
    key = folder_key(root, passphrase)
    _remember_folder(memory, root, key, name)
    return root


def folder_key(root: Path, passphrase: str) -> bytes:
    """The sync key ``root``'s header wraps, unwrapped with ``passphrase`` (``SyncError``
    saying why when the folder or the passphrase will not do)."""
    return read_header(root).unwrap_key(passphrase, root)


def _refuse_if_joined(memory: Memory, root: Path, command: str) -> None:
    """A store syncs with one folder. `sync init` of any folder, or `sync join` of another
    one, while it syncs would quietly switch folders (the old one's laptops would stop
    hearing from it): refused, naming `sync leave`. Joining the same folder again is how a
    laptop picks up a rotated key or recovers from a double init, so that is allowed."""
    current = joined_folder(memory)
    if current is None or memory.get_meta(META_KEY) is None:
        return
    same = command == "join" and _same_place(current, root)
    if not same:
        raise SyncError(
            f"This store already syncs with {current}. To sync with "
            f"{'a new folder' if command == 'init' else root} instead, first run "
            "`localmind sync leave` (this laptop stops syncing there), then "
            f"`localmind sync {command} {root}`. Nothing was changed."
        )


def _same_place(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False


def check_name(name: str) -> str:
    """A device name as people type it: printable, 1 to 64 characters, no line breaks."""
    cleaned = name.strip()
    if not cleaned or len(cleaned) > MAX_NAME_CHARS or not cleaned.isprintable():
        raise SyncError(
            f"A device name must be 1 to {MAX_NAME_CHARS} printable characters "
            f"(got {name!r}). Nothing was changed."
        )
    return cleaned


def device_name(memory: Memory) -> str | None:
    return memory.get_meta(META_NAME)


def rekey_folder(memory: Memory, folder: str | os.PathLike[str], passphrase: str) -> Path:
    """Re-wrap the folder's sync key with ``passphrase`` (this store's passphrase, after
    ``localmind passwd``), so laptops joining later use it and the old one stops opening the
    header. Only a store that already holds the folder's key may do it: some file of the folder
    must open with that key, or the header would end up wrapping a key nobody else uses."""
    root = Path(folder).expanduser()
    key = sync_key(memory)
    header = _header_of_own_key(key, root)
    # This build's cost, never the header's: anyone who can write the folder can lower that.
    _write_header(root, key, passphrase, DEFAULT_KDF, header.retired)
    return root


def rotate_folder(memory: Memory, folder: str | os.PathLike[str], passphrase: str) -> Path:
    """Give the folder a new random sync key, wrapped by ``passphrase`` (`sync rekey
    --rotate`). The header then wraps only the new key and lists the old one's id as retired;
    this store exports everything it holds again, sealed with the new key, and deletes its
    own files sealed with the old one. Every other laptop is told, at its next sync, to pick
    the new key up with `sync join FOLDER` and the passphrase (its own old files go the same
    way then). Nothing derived from the old key or the old passphrase opens the new key, so
    an old copy of the header reads nothing written after the rotation."""
    root = Path(folder).expanduser()
    old_key = sync_key(memory)
    header = _header_of_own_key(old_key, root)
    new_key = secrets.token_bytes(32)
    retired = (*header.retired, key_id(old_key))[-MAX_RETIRED_KEYS:]
    # The header first: a crash after it leaves this store on a retired key, and its next
    # sync says to re-join (with the passphrase), which picks the new key up.
    _write_header(root, new_key, passphrase, DEFAULT_KDF, retired)
    memory.set_meta(META_KEY, new_key.hex())
    _ensure_stream(memory, root)  # a fresh stream: old files deleted, everything re-sealed
    export_pending(memory, root)
    publish_cursors(memory, root)
    return root


def _header_of_own_key(key: bytes, root: Path) -> Header:
    """The folder's header, when this store's sync key is the one it wraps (by its key id, or
    in a header older than key ids by a file of the folder that opens with it)."""
    header = read_header(root)
    named = key_id(key)
    if header.key_id is not None and header.key_id != named:
        raise SyncError(
            f"This store's sync key is not the one the header of {root} wraps (it was rotated, "
            "or another laptop's `sync init` was kept): run `localmind sync join "
            f"{root}` first. The header was not changed."
        )
    if header.key_id is None and not _key_opens_folder(key, root):
        raise SyncError(
            f"This store's sync key opens no file in {root}: it joined another folder, or this "
            "one has no files yet (run `localmind sync now` first). The header was not changed."
        )
    return header


def _key_opens_folder(key: bytes, root: Path) -> bool:
    return any(_authentic(key, directory) for directory in _device_directories(root))


def _authentic(key: bytes, directory: Path) -> bool:
    """Whether ``directory`` holds a file sealed with ``key`` for its name (its cursors, its
    first segment or its newest snapshot): a device's directory, not a stranger's."""
    if read_cursors(key, directory) is not None:
        return True
    named = key_id(key)
    segments = _segment_numbers(directory)[:1]
    snapshots = _snapshot_numbers(directory)[-1:]
    candidates = [
        *((segment_path(directory, n), unseal, n) for n in segments),
        *((snapshot_path(directory, n), unseal_snapshot, n) for n in snapshots),
    ]
    for path, unsealer, number in candidates:
        signature = _signature(path)
        if _remembered.rejection(named, path, signature) is not None:
            continue
        try:
            unsealer(key, directory.name, number, read_trusted_file(path))
        except (OSError, ValueError) as error:
            _remembered.reject(named, path, signature, f"rejected, nothing applied: {error}")
            continue
        return True
    return False


def _write_header(
    root: Path, key: bytes, passphrase: str, kdf: KdfParams, retired: tuple[str, ...] = ()
) -> None:
    wrapped = KeyFile.wrap(key, passphrase, kdf)
    document: dict[str, Any] = {
        "format": HEADER_FORMAT,
        "version": HEADER_VERSION,
        "key": json.loads(wrapped.to_json()),
        "key_id": key_id(key),
    }
    if retired:  # ids only (hashes): nothing here opens an old key
        document["retired_key_ids"] = list(retired)
    _atomic_write(header_path(root), (json.dumps(document, indent=2) + "\n").encode("utf-8"))


def key_id(key: bytes) -> str:
    """A name for a sync key that reveals nothing of it: two headers with different ids wrap
    different keys (two laptops ran `sync init` on the same folder at once)."""
    return hashlib.sha256(b"localmind-sync key id|" + key).hexdigest()[:32]


@dataclass(frozen=True, slots=True)
class Header:
    key_file: KeyFile
    key_id: str | None = None  # None in headers written before it was recorded
    retired: tuple[str, ...] = ()  # ids of the keys `sync rekey --rotate` replaced

    def unwrap_key(self, passphrase: str, root: Path) -> bytes:
        try:
            return self.key_file.unwrap(passphrase, header_path(root))
        except WrongPassphrase:
            raise SyncError(
                f"The passphrase does not open the sync folder {root}. Use the folder's "
                "current passphrase: the one it was made with, or the one its last "
                "`localmind sync rekey` set (a laptop's passphrase after `localmind passwd`)."
            ) from None


def read_header(root: Path) -> Header:
    path = header_path(root)
    try:
        blob = read_trusted_file(path, MAX_HEADER_BYTES)
    except FileNotFoundError:
        raise SyncError(
            f"{root} is not a sync folder (no {HEADER_NAME}); run `sync init` first."
        ) from None
    except (OSError, ValueError) as error:
        raise SyncError(f"{path} cannot be read as a sync header ({error}).") from None
    try:
        document = json.loads(blob.decode("utf-8"))
        if document.get("format") != HEADER_FORMAT:
            raise ValueError("not a localmind sync header")
        if document.get("version") != HEADER_VERSION:
            raise ValueError(f"unsupported version {document.get('version')!r}")
        named = document.get("key_id")
        if named is not None and not _is_key_id(named):
            raise ValueError("key_id must be 32 hex digits")
        retired = document.get("retired_key_ids", [])
        if not isinstance(retired, list) or len(retired) > MAX_RETIRED_KEYS:
            raise ValueError(f"retired_key_ids must be a list of at most {MAX_RETIRED_KEYS}")
        if not all(_is_key_id(item) for item in retired):
            raise ValueError("retired_key_ids must be key ids (32 hex digits)")
        key_file = KeyFile.from_json(json.dumps(document["key"]), path)
        return Header(key_file, named, tuple(retired))
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError, NotAStore) as e:
        raise SyncError(f"{path} is not a valid localmind sync header ({e}).") from None


def _is_key_id(value: object) -> bool:
    return isinstance(value, str) and re.fullmatch(r"[0-9a-f]{32}", value) is not None


def check_header(memory: Memory, root: Path) -> None:
    """``SyncError`` unless the folder's header wraps this store's sync key. After `sync
    rekey --rotate` on another laptop this store's key is listed as retired: it is told to
    pick the new one up with the passphrase. Two laptops that ran `sync init` at once each
    exported under their own key; the sync engine kept one header, so the other laptop's
    files open nowhere: it is told to re-join."""
    header = read_header(root)
    named = header.key_id
    own = key_id(sync_key(memory))
    if own in header.retired:
        raise SyncError(
            f"The sync folder {root} has a new key (`localmind sync rekey --rotate` on another "
            "laptop), so this laptop can neither read nor write it until it picks the new key "
            f"up: run  localmind sync join {root}  with the folder's current passphrase. "
            "Nothing this laptop holds is lost: it is exported again under the new key."
        )
    if named is not None and named != own:
        raise SyncError(
            f"The sync folder {root} now belongs to another laptop's `sync init` (two laptops "
            "set it up at the same time, and the sync engine kept the other one's header), so "
            f"nothing this laptop exports can be read there. On this laptop run: localmind sync "
            f"join {root}  (with the passphrase of the laptop whose init was kept); this "
            "laptop's memories are then exported again and reach every laptop."
        )


def _remember_folder(memory: Memory, root: Path, key: bytes, name: str | None) -> None:
    memory.set_meta(META_KEY, key.hex())
    memory.set_meta(META_FOLDER, str(root.resolve()))
    if name is not None or device_name(memory) is None:
        memory.set_meta(META_NAME, name or _host_name())


def _host_name() -> str:
    try:
        return check_name(socket.gethostname())
    except (SyncError, OSError):
        return "laptop"


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
    inflater = zlib.decompressobj()
    try:
        plain = inflater.decompress(packed, MAX_PLAIN_BYTES)
    except zlib.error as error:
        raise ValueError(f"undecodable content ({error})") from None
    if inflater.unconsumed_tail:
        raise ValueError(f"content larger than {MAX_PLAIN_BYTES:,} bytes")
    if not inflater.eof:
        raise ValueError("undecodable content (cut short)")
    return plain


def read_trusted_file(path: Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of ``path`` when it can be a sync file: a regular file (not a symlink, which
    is never followed, nor a pipe, device or directory) of at most ``limit`` bytes. Anything
    else is a ``ValueError`` saying what it is, raised before a byte is read, so a stranger's
    pipe cannot hang a sync and a link to ``/dev/zero`` or a sparse 64 GiB file cannot fill
    memory. ``OSError`` (``FileNotFoundError`` when it is gone) for what the system refuses."""
    _check_trusted(os.lstat(path), limit)
    # (Windows has neither flag; there the lstat above and the fstat below do the work.)
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    flags |= getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    try:
        descriptor = os.open(path, flags)
    except OSError as error:
        if error.errno == errno.ELOOP:  # replaced by a symlink since the lstat
            raise ValueError("a symbolic link (never followed)") from None
        raise
    try:
        _check_trusted(os.fstat(descriptor), limit)  # what was opened, not what was named
        chunks, size = [], 0
        while chunk := os.read(descriptor, min(limit + 1 - size, 1 << 20) or 1):
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise ValueError(f"larger than {limit:,} bytes (it grew while read)")
        return b"".join(chunks)
    finally:
        os.close(descriptor)


def _check_trusted(info: os.stat_result, limit: int) -> None:
    if stat.S_ISLNK(info.st_mode):
        raise ValueError("a symbolic link (never followed)")
    if not stat.S_ISREG(info.st_mode):
        raise ValueError(f"not a regular file ({_kind(info.st_mode)})")
    if info.st_size > limit:
        raise ValueError(f"{info.st_size:,} bytes, larger than any sync file ({limit:,})")


def _kind(mode: int) -> str:
    for test, name in (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a named pipe"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
    ):
        if test(mode):
            return name
    return "an unknown kind of file"


def _lines(events: list[Event]) -> bytes:
    text = "".join(json.dumps(e.to_dict(), ensure_ascii=False) + "\n" for e in events)
    return text.encode("utf-8")


def _events(plain: bytes) -> list[Event]:
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
        except ValueError as error:
            raise ValueError(f"line {line_no}: {error}") from None
        except RecursionError:
            raise ValueError(f"line {line_no}: nested too deeply") from None
        # A file may carry other devices' events: a fresh stream relays the whole history
        # the store holds (see _ensure_stream). Where the file itself came from is bound by
        # its associated data; every event is still known by its own stamp.
        events.append(event)
    return events


def seal(key: bytes, device_id: str, number: int, events: list[Event]) -> bytes:
    return _seal(key, _aad(device_id, number), _lines(events))


def unseal(key: bytes, device_id: str, number: int, blob: bytes) -> list[Event]:
    """The events of a segment; ``ValueError`` when it is not a whole, untampered segment of
    ``device_id`` numbered ``number`` under ``key``."""
    return _events(_unseal(key, _aad(device_id, number), blob))


def seal_snapshot(key: bytes, device_id: str, through: int, events: list[Event]) -> bytes:
    return _seal(key, _snapshot_aad(device_id, through), _lines(events))


def unseal_snapshot(key: bytes, device_id: str, through: int, blob: bytes) -> list[Event]:
    """The events of ``device_id``'s snapshot of its segments 1..``through``."""
    return _events(_unseal(key, _snapshot_aad(device_id, through), blob))


@dataclass(frozen=True, slots=True)
class Published:
    """What a device says of itself in its cursors file: how far it applied each other
    device, its name for people, and whether it left the folder (`sync leave`, after
    exporting through its segment ``through``)."""

    applied: dict[str, int]
    name: str | None = None
    left: bool = False
    through: int = 0


def seal_cursors(
    key: bytes, device_id: str, applied: dict[str, int], published: Published | None = None
) -> bytes:
    document: dict[str, Any] = {"device_id": device_id, "applied": dict(sorted(applied.items()))}
    if published is not None:
        if published.name is not None:
            document["name"] = published.name
        if published.left:
            document["left"] = {"through": published.through}
    return _seal(key, _cursors_aad(device_id), json.dumps(document).encode("utf-8"))


def unseal_cursors(key: bytes, device_id: str, blob: bytes) -> dict[str, int]:
    """How far ``device_id`` says it has applied each other device (segment numbers)."""
    return unseal_published(key, device_id, blob).applied


def unseal_published(key: bytes, device_id: str, blob: bytes) -> Published:
    """Everything ``device_id``'s cursors file says; ``ValueError`` when it cannot be trusted."""
    try:
        document = json.loads(_unseal(key, _cursors_aad(device_id), blob))
    except (ValueError, RecursionError) as error:  # not UTF-8, not JSON, nested too deeply
        raise ValueError(f"undecodable content ({error})") from None
    applied = document.get("applied") if isinstance(document, dict) else None
    if not isinstance(applied, dict) or document.get("device_id") != device_id:
        raise ValueError("not a cursors document of this device")
    for device, cursor in applied.items():
        if not DEVICE_RE.match(device) or not _count(cursor):
            raise ValueError(f"bad cursor {device!r}: {cursor!r}")
    name = document.get("name")
    if name is not None and (
        not isinstance(name, str) or not 0 < len(name) <= MAX_NAME_CHARS or not name.isprintable()
    ):
        raise ValueError("bad device name")
    left = document.get("left")
    through = left.get("through") if isinstance(left, dict) else None
    if left is not None and not _count(through):
        raise ValueError("bad departure record")
    return Published(applied, name, left is not None, through or 0)


def _count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**62


def _atomic_write(path: Path, data: bytes) -> None:
    # Owner-only, like the store: the header is the passphrase's guessing target.
    write_atomically(path, data)


def segment_path(directory: Path, number: int) -> Path:
    return directory / f"{number:08d}.seg"


def snapshot_path(directory: Path, through: int) -> Path:
    return directory / f"snapshot-{through:08d}.seg"


def _numbered(directory: Path, pattern: re.Pattern[str]) -> list[int]:
    try:
        names = [entry.name for entry in _scan(directory)]
    except OSError:
        return []
    return sorted(int(m.group(1)) for name in names if (m := pattern.match(name)))


def _scan(directory: Path) -> list[os.DirEntry[str]]:
    with os.scandir(directory) as entries:
        return sorted(entries, key=lambda entry: entry.name)


def _is_real_directory(entry: os.DirEntry[str]) -> bool:
    """A directory itself, not a symlink to one: nothing outside the folder is ever read."""
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def _segment_numbers(directory: Path) -> list[int]:
    return _numbered(directory, SEGMENT_RE)


def _snapshot_numbers(directory: Path) -> list[int]:
    return _numbered(directory, SNAPSHOT_RE)


def _device_directories(root: Path) -> list[Path]:
    try:
        entries = _scan(root)
    except OSError:
        return []
    return [Path(e.path) for e in entries if DEVICE_RE.match(e.name) and _is_real_directory(e)]


# --- export and import ------------------------------------------------------------------------


def export_pending(memory: Memory, folder: str | os.PathLike[str]) -> int:
    """Write this device's events not yet exported as new segments; returns how many events.

    Segment numbers come from the store (the last one written), never from the files in the
    directory: a stranger's ``99999999.seg`` there must not decide what this device writes
    next, and a file already at the next number is either this device's own segment from a
    run that crashed before recording it (taken as written) or not ours (replaced)."""
    key = sync_key(memory)
    root = Path(folder).expanduser()
    _ensure_stream(memory, root)
    directory = root / memory.device_id
    directory.mkdir(parents=True, exist_ok=True)
    exported = int(memory.get_meta(META_EXPORTED) or 0)
    relay = int(memory.get_meta(META_RELAY) or 0)
    number = int(memory.get_meta(META_SEGMENT) or 0)
    batch, total = SEGMENT_EVENTS, 0
    while events := memory.events_since(exported, batch, relay_through=relay):
        number += 1
        if number > MAX_SEGMENT_NUMBER:
            raise SyncError(
                f"This device has written {MAX_SEGMENT_NUMBER:,} segments to {root}: start a "
                "new sync folder (`localmind sync init NEW_FOLDER`)."
            )
        path = segment_path(directory, number)
        written = _own_segment(key, memory.device_id, number, path)
        if written is not None:  # a crash came between writing it and recording it
            exported = max(exported, *(e.seq for e in written))
        else:
            plain = _lines(events)
            if len(plain) > MAX_PLAIN_BYTES and batch > 1:
                batch, number = max(1, batch // 2), number - 1  # too big for readers: split
                continue
            _make_room(path)
            _atomic_write(path, _seal(key, _aad(memory.device_id, number), plain))
            # A crash here re-exports these events in the same segment: taken as written.
            exported = events[-1].seq
            total += len(events)
            log.debug("exported %d events to %s", len(events), path)
        memory.set_meta(META_SEGMENT, str(number))
        memory.set_meta(META_EXPORTED, str(exported))
        batch = SEGMENT_EVENTS
    return total


def _own_segment(key: bytes, device_id: str, number: int, path: Path) -> list[Event] | None:
    """The events of ``path`` when it is this device's segment ``number``; None otherwise."""
    try:
        events = unseal(key, device_id, number, read_trusted_file(path))
    except (OSError, ValueError):
        return None
    return events or None


def _make_room(path: Path) -> None:
    """Clear what a stranger put at the name this device writes next (only this device writes
    in its directory); a plain file is simply replaced by the atomic rename."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return
    log.warning("sync: replaced %s, which this device did not write", path)
    if stat.S_ISDIR(info.st_mode):
        shutil.rmtree(path)  # never follows symlinks inside it


def _ensure_stream(memory: Memory, root: Path) -> str | None:
    """Start a fresh export stream when this store last exported as another device (a store
    restored from a backup is given a new device id) or under another folder key (`sync
    init`/`join` of another folder, a re-join after a double init). Fresh means: every event
    the store holds (any device's, so nothing that only reached this store is lost) is
    exported again, and the cursors start at 0, so every file in ``root`` is read again
    (known events are skipped by stamp; a restored store re-imports its former self's newer
    events this way). Files under this device's name that do not open with the folder's key
    (left from a double init) are deleted; numbering goes on after the highest number this
    device has there, or that any device says it passed, so no laptop skips a new segment as
    one it already applied. Returns what it did, for the person, or None."""
    key = sync_key(memory)
    wanted = f"{memory.device_id} {key_id(key)}"
    current = memory.get_meta(META_STREAM)
    directory = root / memory.device_id
    written = int(memory.get_meta(META_SEGMENT) or 0)
    retired = current == wanted and _was_retired(directory, written)
    if current == wanted and not retired:
        return None
    if current is None and memory.get_meta(META_SEGMENT) is not None and directory.is_dir():
        memory.set_meta(META_STREAM, wanted)  # exported before streams were recorded
        return None
    removed, last = _clear_unusable(key, memory.device_id, directory)
    if retired:  # forgotten (`sync forget-device`) while away: number on after what it wrote
        last = max(last, written)
    left_at, _, left_folder = (memory.get_meta(META_LEFT_SEGMENT) or "0 ").partition(" ")
    if left_folder == str(root.resolve()):  # back in a folder it left: number on after it
        last = max(last, int(left_at))
    for other in _device_directories(root):
        cursors = read_cursors(key, other) if other.name != memory.device_id else None
        last = max(last, (cursors or {}).get(memory.device_id, 0))
    if last:
        # Numbering on after ``last`` leaves 1..last without files for a laptop that never
        # saw them (it joined after the directory was retired): it would wait for them for
        # ever, and its cursor, stuck at 0, would stop this device's compaction. An empty
        # snapshot through ``last`` says there is nothing to wait for: the fresh stream
        # carries every event again. Written before the stream is recorded (crash: redone).
        directory.mkdir(parents=True, exist_ok=True)
        _atomic_write(
            snapshot_path(directory, last), seal_snapshot(key, memory.device_id, last, [])
        )
    relay = memory.latest_event_seq()
    memory.reset_meta(
        "sync.",
        {
            META_KEY: key.hex(),
            META_FOLDER: memory.get_meta(META_FOLDER) or str(root.resolve()),
            META_STREAM: wanted,
            META_RELAY: str(relay),
            META_SEGMENT: str(last),
            **({META_NAME: name} if (name := device_name(memory)) else {}),
        },
    )
    note = (
        f"Started a fresh export stream for device {memory.device_id}: every change this store "
        f"holds goes to {root}, and every file there is read again."
    )
    if removed:
        note += f" Removed {removed} old files of this device that no other laptop could open."
    log.info("sync: %s", note)
    return note


def _was_retired(directory: Path, written: int) -> bool:
    """Whether this device's directory lost its start after it had written segments: another
    laptop retired it (`sync forget-device`, a `sync leave` it came back from) or someone
    deleted it. Its files always begin with segment 1 or a snapshot; without either, a laptop
    reading it would wait for ever for what came before."""
    if written == 0:
        return False
    return not _snapshot_numbers(directory) and 1 not in _segment_numbers(directory)


def _clear_unusable(key: bytes, device_id: str, directory: Path) -> tuple[int, int]:
    """Delete ``device_id``'s segments and snapshots in ``directory`` that do not open with
    ``key``; returns (how many were deleted, the highest number of those that do)."""
    removed, last = 0, 0
    try:
        entries = _scan(directory)
    except OSError:
        return 0, 0
    for entry in entries:
        path = Path(entry.path)
        try:
            if match := SEGMENT_RE.match(entry.name):
                number = int(match.group(1))
                unseal(key, device_id, number, read_trusted_file(path))
            elif match := SNAPSHOT_RE.match(entry.name):
                number = int(match.group(1))
                unseal_snapshot(key, device_id, number, read_trusted_file(path))
            else:
                continue
        except (OSError, ValueError):
            path.unlink(missing_ok=True)
            removed += 1
            continue
        last = max(last, number)
    return removed, last


def start_stream(memory: Memory, folder: str | os.PathLike[str]) -> str | None:
    """After `sync init`/`join`: start the fresh export stream a new folder needs (see
    :func:`_ensure_stream`); returns what was done, or None when the store already exports
    there."""
    return _ensure_stream(memory, Path(folder).expanduser())


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


Signature = tuple[int, int, int]  # (inode, size, mtime in ns): "the same file as before"


def _signature(path: Path) -> Signature | None:
    try:
        info = os.lstat(path)
    except OSError:
        return None
    return (info.st_ino, info.st_size, info.st_mtime_ns)


class _Remembered:
    """What this process already said about the folder's files: each skip is logged once (a
    stranger's file is worth one line, not one per sync), and a file rejected on its content
    is not read again until it changes (20,000 garbage files cost a ``stat`` each per sync,
    not a read). Bounded: past ``limit`` entries it forgets everything and starts over."""

    def __init__(self, limit: int = 200_000) -> None:
        self._limit = limit
        self._logged: dict[str, tuple[str, Signature | None]] = {}
        self._rejected: dict[tuple[str, str], tuple[Signature, str]] = {}

    def first_time(
        self, path: Path, why: str, signature: Signature | None, reader: str = ""
    ) -> bool:
        """Whether ``reader`` (a store's device id) has not been told this before."""
        key = f"{reader}|{path}"
        if self._logged.get(key) == (why, signature):
            return False
        if len(self._logged) >= self._limit:
            self._logged.clear()
        self._logged[key] = (why, signature)
        return True

    def rejection(self, key: str, path: Path, signature: Signature | None) -> str | None:
        """Why ``path`` was rejected under the sync key named ``key``, if it has not changed."""
        known = self._rejected.get((key, str(path)))
        return known[1] if known is not None and known[0] == signature else None

    def reject(self, key: str, path: Path, signature: Signature | None, why: str) -> None:
        if signature is None:
            return
        if len(self._rejected) >= self._limit:
            self._rejected.clear()
        self._rejected[(key, str(path))] = (signature, why)


_remembered = _Remembered()


def import_new(memory: Memory, folder: str | os.PathLike[str]) -> ImportReport:
    """Apply the segments of other devices not applied yet. Never raises for what is in the
    folder: a file that cannot be used is logged (once), listed in the report and left for
    later. Only regular files and real directories are read (see :func:`read_trusted_file`)."""
    report = ImportReport()
    key = sync_key(memory)
    root = Path(folder).expanduser()
    _ensure_stream(memory, root)
    told = _reported(memory)
    telling: dict[str, str] = {}

    def skip(path: Path, why: str, level: int = logging.WARNING) -> None:
        entry = (str(path), why)
        report.skipped.append(entry)
        signature = _signature(path)
        said = f"{why}|{signature}"
        if len(telling) < MAX_REPORTED:
            telling[str(path)] = said
        first = _remembered.first_time(path, why, signature, memory.device_id)
        if first and told.get(str(path)) != said:
            log.log(level, "sync: skipped %s: %s", path, why)
        else:
            report.repeated.append(entry)
            log.debug("sync: skipped %s again: %s", path, why)

    try:
        _import_all(memory, key, root, report, skip)
    finally:
        if telling != told:  # what was skipped this time; a file that went is forgotten
            memory.set_meta(META_REPORTED, json.dumps(telling))
    return report


def _reported(memory: Memory) -> dict[str, str]:
    try:
        told = json.loads(memory.get_meta(META_REPORTED) or "{}")
    except ValueError:
        return {}
    return told if isinstance(told, dict) else {}


def _import_all(memory: Memory, key: bytes, root: Path, report: ImportReport, skip: Any) -> None:
    try:
        entries = _scan(root)
    except OSError as error:
        skip(root, f"cannot list the folder ({error})", logging.ERROR)
        return
    for entry in entries:
        if entry.name == HEADER_NAME:
            continue
        path = Path(entry.path)
        if entry.name.startswith("."):
            # The sync engine's own (Syncthing's .stfolder and .stignore), the OS's, or a
            # temporary file: there in every folder, so not worth a line each sync.
            log.debug("sync: ignored hidden %s", path)
            continue
        if not DEVICE_RE.match(entry.name) or not _is_real_directory(entry):
            skip(path, "not a device directory", logging.INFO)
            continue
        if entry.name == memory.device_id:
            continue
        _import_device(memory, key, path, report, skip)


def _import_device(
    memory: Memory, key: bytes, directory: Path, report: ImportReport, skip: Any
) -> None:
    device_id = directory.name
    named = key_id(key)
    cursor, done = _progress(memory, device_id)
    try:
        files = _scan(directory)
    except OSError as error:
        skip(directory, f"cannot list ({error})", logging.ERROR)
        return
    numbers: list[int] = []
    snapshots: list[int] = []
    for entry in files:
        if match := SEGMENT_RE.match(entry.name):
            numbers.append(int(match.group(1)))
        elif match := SNAPSHOT_RE.match(entry.name):
            snapshots.append(int(match.group(1)))
        elif entry.name != CURSORS_NAME:
            level = logging.DEBUG if entry.name.startswith(".") else logging.INFO
            skip(Path(entry.path), "not a segment (temporary, partial or foreign file)", level)

    def read(path: Path, unsealer: Any, number: int) -> list[Event] | None:
        signature = _signature(path)
        known = _remembered.rejection(named, path, signature)
        if known is not None:
            skip(path, known)
            return None
        try:
            return list(unsealer(key, device_id, number, read_trusted_file(path)))
        except FileNotFoundError:
            return None  # compacted away meanwhile: the snapshot that replaced it is read next
        except (OSError, ValueError) as error:
            why = f"rejected, nothing applied: {error}"
            if isinstance(error, ValueError):  # its content: not worth reading again unchanged
                _remembered.reject(named, path, signature, why)
            skip(path, why)
            return None

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
        events = read(path, unseal_snapshot, through)
        if events is not None and apply(path, events, _moved(cursor, done, through=through)):
            break
    for number in sorted(numbers):
        if number <= cursor or number in done:
            continue
        path = segment_path(directory, number)
        events = read(path, unseal, number)
        if events is not None:
            apply(path, events, _moved(cursor, done, number=number))


# --- cursors and compaction -------------------------------------------------------------------


def publish_cursors(
    memory: Memory, folder: str | os.PathLike[str], *, leaving: bool = False
) -> bool:
    """Write how far this store has applied each other device into ``<me>/cursors.seg``
    (with this laptop's name, and with ``leaving`` that it left after its last segment),
    when that changed; returns whether it wrote. Others read it to know what they may
    compact, and what to call this laptop."""
    key = sync_key(memory)
    root = Path(folder).expanduser()
    applied = {
        entry.name: _progress(memory, entry.name)[0]
        for entry in _device_directories(root)
        if entry.name != memory.device_id
    }
    through = int(memory.get_meta(META_SEGMENT) or 0)
    published = Published(applied, device_name(memory), leaving, through if leaving else 0)
    directory = root / memory.device_id
    path = directory / CURSORS_NAME
    try:
        if unseal_published(key, memory.device_id, read_trusted_file(path)) == published:
            return False  # unchanged: no write, so no ripple through the sync engine
    except (OSError, ValueError):
        pass  # none yet, or unreadable: write a good one
    directory.mkdir(parents=True, exist_ok=True)
    _atomic_write(path, seal_cursors(key, memory.device_id, applied, published))
    return True


def read_cursors(key: bytes, directory: Path) -> dict[str, int] | None:
    """The cursors a device directory publishes; ``None`` (with a log line when the file is
    there but cannot be trusted) when there are none to go by."""
    published = read_published(key, directory)
    return None if published is None else published.applied


def read_published(key: bytes, directory: Path) -> Published | None:
    """What a device directory's cursors file says (see :func:`read_cursors`)."""
    path = directory / CURSORS_NAME
    try:
        return unseal_published(key, directory.name, read_trusted_file(path))
    except FileNotFoundError:
        log.debug("sync: %s has published no cursors yet", directory)
        return None
    except (OSError, ValueError) as error:
        why = f"nothing is compacted on its word: {error}"
        first = _remembered.first_time(path, why, _signature(path))
        level = logging.WARNING if first else logging.DEBUG
        log.log(level, "sync: ignored %s (%s)", path, why)
        return None


def passed_by_all(memory: Memory, folder: str | os.PathLike[str]) -> int | None:
    """The highest own segment number every other device directory has applied, by their
    cursors files; ``None`` when there is no other device. A directory holding no file sealed
    with the folder's key is a stranger's (anyone can make one): it speaks for no device, so
    it cannot hold compaction up for ever; a real device's directory always holds one."""
    key = sync_key(memory)
    root = Path(folder).expanduser()
    lowest: int | None = None
    for directory in _device_directories(root):
        if directory.name == memory.device_id:
            continue
        published = read_published(key, directory)
        if published is None and not _authentic(key, directory):
            log.debug("sync: %s holds nothing of this folder's devices", directory)
            continue
        if published is not None and published.left:
            continue  # it left the folder (`sync leave`): it reads nothing any more
        cursor = published.applied.get(memory.device_id, 0) if published is not None else 0
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
    written = int(memory.get_meta(META_SEGMENT) or 0)
    numbers = [n for n in _segment_numbers(directory) if n <= written]  # not a stranger's
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
    relay = int(memory.get_meta(META_RELAY) or 0)
    # Every event that any segment up to ``through`` holds was exported, so it is here.
    # They come from the store, where a forget has redacted the text: it leaves the folder too.
    events = [e for e in memory.events_since(0, relay_through=relay) if e.seq <= exported]
    plain = _lines(events)
    if len(plain) > MAX_PLAIN_BYTES:  # readers would refuse it: keep the segments instead
        log.error("sync: %s is too large to compact into one snapshot", directory)
        return 0
    try:
        _atomic_write(
            snapshot_path(directory, through),
            _seal(key, _snapshot_aad(memory.device_id, through), plain),
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
    """Export, import, publish this store's cursors, compact its own old segments and re-seal
    those that held forgotten text: (events exported, what the import did, with ``compacted``
    set)."""
    check_header(memory, Path(folder).expanduser())
    exported = export_pending(memory, folder)
    report = import_new(memory, folder)
    try:
        publish_cursors(memory, folder)
    except OSError as error:
        log.error("sync: could not publish this device's cursors: %s", error)
    from sync.devices import retire_departed  # these build on this module
    from sync.redaction import reseal_forgotten

    report.retired = retire_departed(memory, Path(folder).expanduser())
    report.compacted = compact(memory, folder)
    reseal_forgotten(memory, folder)
    return exported, report


def status(
    memory: Memory, folder: str | os.PathLike[str], *, now: float | None = None
) -> dict[str, Any]:
    """This device and every other device seen in the folder, with what is pending, and advice
    on the devices that have gone silent (see :func:`silent_devices`). ``now`` is wall-clock
    time, as the files' modification times are."""
    root = Path(folder).expanduser()
    exported = int(memory.get_meta(META_EXPORTED) or 0)
    relay = int(memory.get_meta(META_RELAY) or 0)
    held = memory.get_meta(META_KEY)
    devices = []
    for entry in _device_directories(root):
        if entry.name == memory.device_id:
            continue
        published = read_published(bytes.fromhex(held), entry) if held else None
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
                "name": published.name if published else None,
                "left": bool(published and published.left),
                "segments": len(numbers) + len(snapshots),
                "applied_through": cursor,
                "pending_segments": len(pending) + int(max(snapshots, default=0) > cursor),
                "last_seen": max(seen, default=None),
            }
        )
    silent = silent_devices(memory, devices, time.time() if now is None else now)
    for device in devices:
        device["silent"] = device["device_id"] in silent
    return {
        "folder": str(root),
        "device_id": memory.device_id,
        "name": device_name(memory),
        "exported_through_seq": exported,
        "pending_events": len(memory.events_since(exported, relay_through=relay)),
        "devices": devices,
        "advice": list(silent.values()),
    }


def silent_devices(memory: Memory, devices: list[dict[str, Any]], now: float) -> dict[str, str]:
    """device id -> what to do, for each device of :func:`status` that still counts for
    compaction but has written nothing for :data:`SILENT_AFTER_S`, or, for the id a restore of
    this store replaced, nothing since that restore. Nothing is retired automatically: a
    restore onto a second laptop while the first still runs looks the same."""
    replaced = memory.get_meta(REPLACED_ID)
    restored_at = float(memory.get_meta(RESTORED_AT) or "inf")
    advice = {}
    for device in devices:
        seen = device["last_seen"]
        if device["left"] or seen is None:
            continue
        since_restore = device["device_id"] == replaced and seen < restored_at
        if since_restore or now - seen >= SILENT_AFTER_S:
            identity = device["device_id"]
            date = datetime.fromtimestamp(seen).strftime("%Y-%m-%d")
            advice[identity] = (
                f"{device_label(device)} has not written since {date}; if it was this laptop "
                f"before a restore, run `localmind sync forget-device {identity}`"
            )
    return advice


def device_label(device: dict[str, Any]) -> str:
    """How a device of :func:`status` is shown: ``name (device id)``, or its id alone."""
    name = device.get("name")
    return f"{name} ({device['device_id']})" if name else str(device["device_id"])


def _mtime(path: Path) -> float | None:
    try:
        return os.lstat(path).st_mtime
    except OSError:
        return None

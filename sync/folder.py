"""The sync protocol run over a transport: what a store writes into a sync folder and reads
from it, whatever carries the files (``sync.transport``; the folder on disk is
``sync.folder_transport``, which also shows the layout). Sealing is ``sync.codec``'s, the pure
decisions (cursors, compaction, retirement) ``sync.protocol``'s; this module gathers the facts
from the store and the transport and carries the decisions out. Every function taking a
``folder`` takes a path (the folder on disk) or any :class:`~sync.transport.Transport`.

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
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, overload

from ulid import ULID

from localmind import KdfParams, LocalmindError, Memory, NotAStore, WrongPassphrase
from localmind.backup import FORMER_IDS, REPLACED_ID, RESTORED_AT, RESTORED_PATH, place_of
from localmind.keys import DEFAULT_KDF, KeyFile
from localmind.replica import Event
from sync import protocol
from sync.codec import (
    CURSORS_NAME,
    DEVICE_RE,
    HEADER_NAME,
    MAX_FILE_BYTES,
    MAX_HEADER_BYTES,
    MAX_NAME_CHARS,
    MAX_PLAIN_BYTES,
    SEGMENT_RE,
    SNAPSHOT_RE,
    Published,
    key_id,
    lines,
    numbered,
    seal_cursors,
    seal_plain,
    seal_snapshot,
    segment_aad,
    segment_name,
    snapshot_aad,
    snapshot_name,
    unseal,
    unseal_published,
    unseal_snapshot,
)
from sync.folder_transport import FolderTransport
from sync.lock import holding_the_sync_lock
from sync.transport import Transport

log = logging.getLogger("localmind.sync")

HEADER_FORMAT = "localmind-sync"
HEADER_VERSION = 1
SEGMENT_EVENTS = 1000  # events per segment file
# Compact once all devices have passed this many of a device's own segments: each compaction
# rewrites the device's whole history into one snapshot, so not on every sync.
COMPACT_SEGMENTS = 8
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
# Where the store was when it last synced, and the restore (its RESTORED_AT) that sync has
# accepted: a backup restored to another path is a trial copy and does not sync until
# `sync join` says it is a laptop of its own (see :func:`restored_elsewhere`).
META_STORE_PATH, META_RESTORE_ACCEPTED = "sync.store_path", "sync.restore_accepted"
# The files the last import skipped, with why and their (inode, size, mtime): a stranger's file
# is reported once per store, not at every `sync now` (each a new process). Bounded.
META_REPORTED = "sync.reported"
MAX_REPORTED = 1000
# "<segment number> <folder>": what this store had written when it left that folder (`sync
# leave`); a fresh stream in the same folder numbers on after it (see sync.devices).
META_LEFT_SEGMENT = "sync.left_segment"
# How many retired key ids a header keeps (each `sync rekey --rotate` adds one).
MAX_RETIRED_KEYS = 100
# A device that has written nothing for this long is named by `sync status`: it may be this
# laptop's former self (a restore gives the store a new id), holding compaction back.
SILENT_AFTER_S = 14 * 86400

#: Where the sync files are: the folder on disk (a path), or any transport.
Place = str | os.PathLike[str] | Transport


class SyncError(LocalmindError):
    """The folder cannot be used for sync as asked (message says why and what to do)."""


@dataclass(slots=True)
class ImportReport:
    segments: int = 0  # segments applied
    events: int = 0  # new events applied
    duplicates: int = 0
    memories: int = 0  # memories changed
    # memories that took an edit made here which another laptop's resolution had not seen
    carried: list[str] = field(default_factory=list)
    kept_both: int = 0  # conflicts here that another laptop's keep-both settled
    # memories a keep-both here, later than a take-new elsewhere, kept apart again (sync10b)
    kept_apart: list[str] = field(default_factory=list)
    # texts taken here (take-new, merge) into a memory another laptop forgot without seeing
    # them: kept as memories of their own (the new ids; review11 U1)
    kept_taken: list[str] = field(default_factory=list)
    # edits made here of a memory another laptop forgot without seeing them: kept as memories
    # of their own (the new ids; review15b DV1)
    kept_edited: list[str] = field(default_factory=list)
    # memories of a pair two laptops answered differently: the later answer stands (sync10b)
    overruled: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (file, why)
    # those of ``skipped`` this process already reported (logged) before: a stranger's file
    # is worth one line, not one per sync
    repeated: list[tuple[str, str]] = field(default_factory=list)
    compacted: int = 0  # own segments folded into a snapshot and deleted (by sync_once)
    retired: list[str] = field(default_factory=list)  # departed laptops' directories removed


def transport_of(folder: Place) -> Transport:
    """The transport of ``folder``: a path is the folder on disk."""
    if isinstance(folder, str | os.PathLike):
        return FolderTransport(folder)
    return folder


# --- the header -------------------------------------------------------------------------------


@overload
def init_folder(
    memory: Memory,
    folder: str | os.PathLike[str],
    passphrase: str,
    kdf: KdfParams | None = None,
    *,
    name: str | None = None,
) -> Path: ...
@overload
def init_folder(
    memory: Memory,
    folder: Transport,
    passphrase: str,
    kdf: KdfParams | None = None,
    *,
    name: str | None = None,
) -> Transport: ...
def init_folder(
    memory: Memory,
    folder: Place,
    passphrase: str,
    kdf: KdfParams | None = None,
    *,
    name: str | None = None,
) -> Path | Transport:
    """Make ``folder`` a sync folder (first laptop): a new random sync key, wrapped by
    ``passphrase``, goes into its header; this store keeps the key and exports into it.
    ``name``: what the other laptops call this one (default: the host name). Returns the
    folder (a path expanded) for the calls that follow."""
    transport = transport_of(folder)
    name = check_name(name) if name is not None else None
    _refuse_if_joined(memory, transport, "init")
    if transport.stamp("", HEADER_NAME) is not None:
        raise SyncError(
            f"{transport.describe()} is already a sync folder; use `sync join` to join it."
        )
    key = secrets.token_bytes(32)
    _write_header(transport, key, passphrase, kdf or DEFAULT_KDF)
    _remember_folder(memory, transport, key, name)
    accept_restore(memory)
    return _returned(folder, transport)


@overload
def join_folder(
    memory: Memory, folder: str | os.PathLike[str], passphrase: str, *, name: str | None = None
) -> Path: ...
@overload
def join_folder(
    memory: Memory, folder: Transport, passphrase: str, *, name: str | None = None
) -> Transport: ...
def join_folder(
    memory: Memory, folder: Place, passphrase: str, *, name: str | None = None
) -> Path | Transport:
    """Join an existing sync folder (other laptops) with the folder's passphrase. A store
    restored to another path joins as a laptop of its own (its former id is not its own)."""
    transport = transport_of(folder)
    name = check_name(name) if name is not None else None
    _refuse_if_joined(memory, transport, "join")
    key = folder_key(transport, passphrase)
    trial = restored_elsewhere(memory) is not None
    _remember_folder(memory, transport, key, _free_name(memory, transport, key, name, trial))
    if trial:
        memory.reset_meta(REPLACED_ID, {})  # the live laptop's id, not this store's former one
    accept_restore(memory)
    return _returned(folder, transport)


def _free_name(
    memory: Memory, transport: Transport, key: bytes, name: str | None, trial: bool
) -> str | None:
    """The name this laptop joins under: two laptops never share one (`sync status`, the
    app's Health page and `forget-device NAME` tell devices apart by it). A name given with
    --name that another laptop has is refused; a default one (the host name, or the name a
    restored copy brought along) gets a number ("home 2"). This store's own former id (a
    restore in place) may keep its name. None: keep the name as it is."""
    own = {memory.device_id} | (set() if trial else former_ids(memory))
    taken: dict[str, str] = {}
    for device in device_directories(transport):
        published = None if device in own else read_published(key, transport, device)
        if published is not None and published.name and not published.left:
            taken[published.name] = device
    if name is not None:
        if name in taken:
            raise SyncError(
                f"A laptop called {name!r} ({taken[name]}) already syncs with this folder: "
                "give this one another name with --name NAME. Nothing was changed."
            )
        return name
    wanted = device_name(memory) or _host_name()
    if wanted not in taken:
        return None
    number = 2
    while (free := f"{wanted[: MAX_NAME_CHARS - 4]} {number}") in taken:
        number += 1
    return free


def former_ids(memory: Memory) -> set[str]:
    """The ids this store had before its restores (each restore gives a new one): their
    directories are this laptop's former selves, not other laptops."""
    try:
        earlier = json.loads(memory.get_meta(FORMER_IDS) or "[]")
    except ValueError:
        earlier = []
    ids = {str(i) for i in earlier if isinstance(i, str)} if isinstance(earlier, list) else set()
    replaced = memory.get_meta(REPLACED_ID)  # a store restored before the list was kept
    return (ids | {replaced}) - {memory.device_id, ""} if replaced else ids - {memory.device_id}


def restored_elsewhere(memory: Memory) -> str | None:
    """Why this store does not sync, when it is a backup restored to another path than the
    store that synced (README: a trial restore to /tmp/trial.db), and that restore has not
    been accepted by `sync join`: such a copy would join the folder as another laptop under
    the live laptop's name, and its advice would name the live laptop as its former self."""
    restored_at = memory.get_meta(RESTORED_AT)
    restored_to, synced_at = memory.get_meta(RESTORED_PATH), memory.get_meta(META_STORE_PATH)
    if (
        restored_at is None
        or restored_to is None
        or synced_at is None
        or memory.get_meta(META_RESTORE_ACCEPTED) == restored_at
        or restored_to == synced_at
    ):
        return None
    root = joined_folder(memory)
    return (
        f"This store is a backup restored to {restored_to}, not where the store that synced "
        f"was ({synced_at}), so it does not sync: a trial copy must not join the folder as "
        "another laptop. To make it a laptop of its own, run  localmind sync join "
        f"{root} --name NAME  (with another name than the laptop it came from)."
    )


def accept_restore(memory: Memory) -> None:
    """This store syncs from where it is now (after a restore in place, or a `sync join`)."""
    here = place_of(memory.path)
    if memory.get_meta(META_STORE_PATH) != here:  # a write only when it moved
        memory.set_meta(META_STORE_PATH, here)
    restored_at = memory.get_meta(RESTORED_AT)
    if restored_at is not None and memory.get_meta(META_RESTORE_ACCEPTED) != restored_at:
        memory.set_meta(META_RESTORE_ACCEPTED, restored_at)


def _returned(folder: Place, transport: Transport) -> Path | Transport:
    if isinstance(folder, str | os.PathLike) and isinstance(transport, FolderTransport):
        return transport.root
    return transport


def folder_key(folder: Place, passphrase: str) -> bytes:
    """The sync key ``folder``'s header wraps, unwrapped with ``passphrase`` (``SyncError``
    saying why when the folder or the passphrase will not do)."""
    transport = transport_of(folder)
    return read_header(transport).unwrap_key(passphrase, transport)


def _refuse_if_joined(memory: Memory, transport: Transport, command: str) -> None:
    """A store syncs with one folder. `sync init` of any folder, or `sync join` of another
    one, while it syncs would quietly switch folders (the old one's laptops would stop
    hearing from it): refused, naming `sync leave`. Joining the same folder again is how a
    laptop picks up a rotated key or recovers from a double init, so that is allowed."""
    current = joined_folder(memory)
    if current is None or memory.get_meta(META_KEY) is None:
        return
    same = command == "join" and str(current) == transport.address
    if not same:
        root = transport.describe()
        raise SyncError(
            f"This store already syncs with {current}. To sync with "
            f"{'a new folder' if command == 'init' else root} instead, first run "
            "`localmind sync leave` (this laptop stops syncing there), then "
            f"`localmind sync {command} {root}`. Nothing was changed."
        )


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


def rekey_folder(memory: Memory, folder: Place, passphrase: str) -> None:
    """Re-wrap the folder's sync key with ``passphrase`` (this store's passphrase, after
    ``localmind passwd``), so laptops joining later use it and the old one stops opening the
    header. Only a store that already holds the folder's key may do it: some file of the folder
    must open with that key, or the header would end up wrapping a key nobody else uses."""
    transport = transport_of(folder)
    key = sync_key(memory)
    header = _header_of_own_key(key, transport)
    # This build's cost, never the header's: anyone who can write the folder can lower that.
    _write_header(transport, key, passphrase, DEFAULT_KDF, header.retired)


def rotate_folder(memory: Memory, folder: Place, passphrase: str) -> None:
    """Give the folder a new random sync key, wrapped by ``passphrase`` (`sync rekey
    --rotate`). The header then wraps only the new key and lists the old one's id as retired;
    this store exports everything it holds again, sealed with the new key, and deletes its
    own files sealed with the old one. Every other laptop is told, at its next sync, to pick
    the new key up with `sync join FOLDER` and the passphrase (its own old files go the same
    way then). Nothing derived from the old key or the old passphrase opens the new key, so
    an old copy of the header reads nothing written after the rotation."""
    transport = transport_of(folder)
    old_key = sync_key(memory)
    header = _header_of_own_key(old_key, transport)
    new_key = secrets.token_bytes(32)
    retired = (*header.retired, key_id(old_key))[-MAX_RETIRED_KEYS:]
    # The header first: a crash after it leaves this store on a retired key, and its next
    # sync says to re-join (with the passphrase), which picks the new key up.
    _write_header(transport, new_key, passphrase, DEFAULT_KDF, retired)
    memory.set_meta(META_KEY, new_key.hex())
    _ensure_stream(memory, transport)  # a fresh stream: old files deleted, everything re-sealed
    export_pending(memory, transport)
    publish_cursors(memory, transport)


def _header_of_own_key(key: bytes, transport: Transport) -> Header:
    """The folder's header, when this store's sync key is the one it wraps (by its key id, or
    in a header older than key ids by a file of the folder that opens with it)."""
    header = read_header(transport)
    named = key_id(key)
    root = transport.describe()
    if header.key_id is not None and header.key_id != named:
        raise SyncError(
            f"This store's sync key is not the one the header of {root} wraps (it was rotated, "
            "or another laptop's `sync init` was kept): run `localmind sync join "
            f"{root}` first. The header was not changed."
        )
    if header.key_id is None and not _key_opens_folder(key, transport):
        raise SyncError(
            f"This store's sync key opens no file in {root}: it joined another folder, or this "
            "one has no files yet (run `localmind sync now` first). The header was not changed."
        )
    return header


def _key_opens_folder(key: bytes, transport: Transport) -> bool:
    return any(_authentic(key, transport, device) for device in device_directories(transport))


def _authentic(key: bytes, transport: Transport, device: str) -> bool:
    """Whether ``device``'s directory holds a file sealed with ``key`` for its name (its
    cursors, its first segment or its newest snapshot): a device's directory, not a
    stranger's."""
    if read_cursors(key, transport, device) is not None:
        return True
    named = key_id(key)
    names = _names(transport, device)
    segments = numbered(names, SEGMENT_RE)[:1]
    snapshots = numbered(names, SNAPSHOT_RE)[-1:]
    candidates: list[tuple[str, Callable[[bytes, str, int, bytes], list[Event]], int]] = [
        *((segment_name(n), unseal, n) for n in segments),
        *((snapshot_name(n), unseal_snapshot, n) for n in snapshots),
    ]
    for name, unsealer, number in candidates:
        where, signature = transport.describe(device, name), _signature(transport, device, name)
        if _remembered.rejection(named, where, signature) is not None:
            continue
        try:
            unsealer(key, device, number, transport.read(device, name, MAX_FILE_BYTES))
        except (OSError, ValueError) as error:
            _remembered.reject(named, where, signature, f"rejected, nothing applied: {error}")
            continue
        return True
    return False


def _write_header(
    transport: Transport,
    key: bytes,
    passphrase: str,
    kdf: KdfParams,
    retired: tuple[str, ...] = (),
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
    transport.write("", HEADER_NAME, (json.dumps(document, indent=2) + "\n").encode("utf-8"))


@dataclass(frozen=True, slots=True)
class Header:
    key_file: KeyFile
    key_id: str | None = None  # None in headers written before it was recorded
    retired: tuple[str, ...] = ()  # ids of the keys `sync rekey --rotate` replaced

    def unwrap_key(self, passphrase: str, transport: Transport) -> bytes:
        try:
            return self.key_file.unwrap(passphrase, Path(transport.describe("", HEADER_NAME)))
        except WrongPassphrase:
            raise SyncError(
                f"The passphrase does not open the sync folder {transport.describe()}. Use the "
                "folder's current passphrase: the one it was made with, or the one its last "
                "`localmind sync rekey` set (a laptop's passphrase after `localmind passwd`)."
            ) from None


def read_header(folder: Place) -> Header:
    transport = transport_of(folder)
    path = transport.describe("", HEADER_NAME)
    try:
        blob = transport.read("", HEADER_NAME, MAX_HEADER_BYTES)
    except FileNotFoundError:
        raise SyncError(
            f"{transport.describe()} is not a sync folder (no {HEADER_NAME}); run `sync init` "
            "first."
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
        key_file = KeyFile.from_json(json.dumps(document["key"]), Path(path))
        return Header(key_file, named, tuple(retired))
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError, NotAStore) as e:
        raise SyncError(f"{path} is not a valid localmind sync header ({e}).") from None


def _is_key_id(value: object) -> bool:
    return isinstance(value, str) and re.fullmatch(r"[0-9a-f]{32}", value) is not None


def check_header(memory: Memory, folder: Place) -> None:
    """``SyncError`` unless the folder's header wraps this store's sync key. After `sync
    rekey --rotate` on another laptop this store's key is listed as retired: it is told to
    pick the new one up with the passphrase. Two laptops that ran `sync init` at once each
    exported under their own key; the sync engine kept one header, so the other laptop's
    files open nowhere: it is told to re-join."""
    transport = transport_of(folder)
    header = read_header(transport)
    named = header.key_id
    own = key_id(sync_key(memory))
    root = transport.describe()
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


def _remember_folder(memory: Memory, transport: Transport, key: bytes, name: str | None) -> None:
    memory.set_meta(META_KEY, key.hex())
    memory.set_meta(META_FOLDER, transport.address)
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


# --- what the transport lists -----------------------------------------------------------------


def _names(transport: Transport, device: str) -> list[str]:
    """The names in ``device``'s directory (none when it cannot be listed)."""
    try:
        return [entry.name for entry in transport.list(device)]
    except OSError:
        return []


def segment_numbers(transport: Transport, device: str) -> list[int]:
    return numbered(_names(transport, device), SEGMENT_RE)


def snapshot_numbers(transport: Transport, device: str) -> list[int]:
    return numbered(_names(transport, device), SNAPSHOT_RE)


def device_directories(transport: Transport) -> list[str]:
    """The device ids that have a (real) directory in the folder."""
    try:
        entries = transport.list()
    except OSError:
        return []
    return [e.name for e in entries if DEVICE_RE.match(e.name) and e.directory]


def _has_directory(transport: Transport, device: str) -> bool:
    try:
        return any(e.name == device and e.directory for e in transport.list())
    except OSError:
        return False


def _signature(transport: Transport, directory: str, name: str = "") -> Signature | None:
    stamp = transport.stamp(directory, name)
    return None if stamp is None else stamp.identity


# --- export and import ------------------------------------------------------------------------


@holding_the_sync_lock
def export_pending(memory: Memory, folder: Place) -> int:
    """Write this device's events not yet exported as new segments; returns how many events.

    Segment numbers come from the store (the last one written), never from the files in the
    directory: a stranger's ``99999999.seg`` there must not decide what this device writes
    next, and a file already at the next number is either this device's own segment from a
    run that crashed before recording it (taken as written) or not ours (replaced)."""
    transport = transport_of(folder)
    key = sync_key(memory)
    _ensure_stream(memory, transport)
    device = memory.device_id
    exported = int(memory.get_meta(META_EXPORTED) or 0)
    relay = int(memory.get_meta(META_RELAY) or 0)
    number = int(memory.get_meta(META_SEGMENT) or 0)
    batch, total = SEGMENT_EVENTS, 0
    while events := memory.events_since(exported, batch, relay_through=relay):
        number += 1
        if number > MAX_SEGMENT_NUMBER:
            raise SyncError(
                f"This device has written {MAX_SEGMENT_NUMBER:,} segments to "
                f"{transport.describe()}: start a new sync folder (`localmind sync init "
                "NEW_FOLDER`)."
            )
        name = segment_name(number)
        written = _own_segment(key, transport, device, number)
        if written is not None:  # a crash came between writing it and recording it
            exported = max(exported, *(e.seq for e in written))
        else:
            plain = lines(events)
            if len(plain) > MAX_PLAIN_BYTES and batch > 1:
                batch, number = max(1, batch // 2), number - 1  # too big for readers: split
                continue
            if transport.stamp(device, name) is not None:  # only this device writes here
                log.warning(
                    "sync: replaced %s, which this device did not write",
                    transport.describe(device, name),
                )
            transport.write(device, name, seal_plain(key, segment_aad(device, number), plain))
            # A crash here re-exports these events in the same segment: taken as written.
            exported = events[-1].seq
            total += len(events)
            log.debug("exported %d events to %s", len(events), transport.describe(device, name))
        memory.set_meta(META_SEGMENT, str(number))
        memory.set_meta(META_EXPORTED, str(exported))
        batch = SEGMENT_EVENTS
    return total


def _own_segment(key: bytes, transport: Transport, device: str, number: int) -> list[Event] | None:
    """The events of segment ``number`` when it is this device's own; None otherwise."""
    try:
        events = unseal(
            key, device, number, transport.read(device, segment_name(number), MAX_FILE_BYTES)
        )
    except (OSError, ValueError):
        return None
    return events or None


def _ensure_stream(memory: Memory, transport: Transport) -> str | None:
    """Start a fresh export stream when this store last exported as another device (a store
    restored from a backup is given a new device id) or under another folder key (`sync
    init`/`join` of another folder, a re-join after a double init). Fresh means: every event
    the store holds (any device's, so nothing that only reached this store is lost) is
    exported again, and the cursors start at 0, so every file in the folder is read again
    (known events are skipped by stamp; a restored store re-imports its former self's newer
    events this way). Files under this device's name that do not open with the folder's key
    (left from a double init) are deleted; numbering goes on after the highest number this
    device has there, or that any device says it passed, so no laptop skips a new segment as
    one it already applied. Returns what it did, for the person, or None."""
    key = sync_key(memory)
    device = memory.device_id
    wanted = f"{device} {key_id(key)}"
    current = memory.get_meta(META_STREAM)
    written = int(memory.get_meta(META_SEGMENT) or 0)
    retired = current == wanted and protocol.lost_its_start(
        segment_numbers(transport, device), snapshot_numbers(transport, device), written
    )
    if current == wanted and not retired:
        return None
    if (
        current is None
        and memory.get_meta(META_SEGMENT) is not None
        and _has_directory(transport, device)
    ):
        memory.set_meta(META_STREAM, wanted)  # exported before streams were recorded
        return None
    removed, last = _clear_unusable(key, transport, device)
    if retired:  # forgotten (`sync forget-device`) while away: number on after what it wrote
        last = max(last, written)
    left_at, _, left_folder = (memory.get_meta(META_LEFT_SEGMENT) or "0 ").partition(" ")
    if left_folder == transport.address:  # back in a folder it left: number on after it
        last = max(last, int(left_at))
    for other in device_directories(transport):
        cursors = read_cursors(key, transport, other) if other != device else None
        last = max(last, (cursors or {}).get(device, 0))
    if last:
        # Numbering on after ``last`` leaves 1..last without files for a laptop that never
        # saw them (it joined after the directory was retired): it would wait for them for
        # ever, and its cursor, stuck at 0, would stop this device's compaction. An empty
        # snapshot through ``last`` says there is nothing to wait for: the fresh stream
        # carries every event again. Written before the stream is recorded (crash: redone).
        transport.write(device, snapshot_name(last), seal_snapshot(key, device, last, []))
    relay = memory.latest_event_seq()
    memory.reset_meta(
        "sync.",
        {
            META_KEY: key.hex(),
            META_FOLDER: memory.get_meta(META_FOLDER) or transport.address,
            META_STREAM: wanted,
            META_RELAY: str(relay),
            META_SEGMENT: str(last),
            **({META_NAME: name} if (name := device_name(memory)) else {}),
            **{
                kept: value
                for kept in (META_STORE_PATH, META_RESTORE_ACCEPTED)
                if (value := memory.get_meta(kept)) is not None
            },
        },
    )
    note = (
        f"Started a fresh export stream for device {device}: every change this store "
        f"holds goes to {transport.describe()}, and every file there is read again."
    )
    if removed:
        note += f" Removed {removed} old files of this device that no other laptop could open."
    log.info("sync: %s", note)
    return note


def _clear_unusable(key: bytes, transport: Transport, device: str) -> tuple[int, int]:
    """Delete ``device``'s segments and snapshots that do not open with ``key``; returns
    (how many were deleted, the highest number of those that do)."""
    removed, last = 0, 0
    try:
        entries = transport.list(device)
    except OSError:
        return 0, 0
    for entry in entries:
        try:
            if match := SEGMENT_RE.match(entry.name):
                number = int(match.group(1))
                unseal(key, device, number, transport.read(device, entry.name, MAX_FILE_BYTES))
            elif match := SNAPSHOT_RE.match(entry.name):
                number = int(match.group(1))
                blob = transport.read(device, entry.name, MAX_FILE_BYTES)
                unseal_snapshot(key, device, number, blob)
            else:
                continue
        except (OSError, ValueError):
            transport.delete(device, [entry.name])
            removed += 1
            continue
        last = max(last, number)
    return removed, last


def start_stream(memory: Memory, folder: Place) -> str | None:
    """After `sync init`/`join`: start the fresh export stream a new folder needs (see
    :func:`_ensure_stream`); returns what was done, or None when the store already exports
    there."""
    return _ensure_stream(memory, transport_of(folder))


def _cursor_keys(device_id: str) -> tuple[str, str]:
    return f"sync.cursor.{device_id}", f"sync.done.{device_id}"


def progress(memory: Memory, device_id: str) -> protocol.Progress:
    """How far this store has applied ``device_id``: (cursor, segments applied past it)."""
    cursor_key, done_key = _cursor_keys(device_id)
    cursor = int(memory.get_meta(cursor_key) or 0)
    done = set(json.loads(memory.get_meta(done_key) or "[]"))
    return cursor, done


Signature = tuple[int, int, int]  # (inode, size, mtime in ns): "the same file as before"


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
        self, where: str, why: str, signature: Signature | None, reader: str = ""
    ) -> bool:
        """Whether ``reader`` (a store's device id) has not been told this before."""
        key = f"{reader}|{where}"
        if self._logged.get(key) == (why, signature):
            return False
        if len(self._logged) >= self._limit:
            self._logged.clear()
        self._logged[key] = (why, signature)
        return True

    def rejection(self, key: str, where: str, signature: Signature | None) -> str | None:
        """Why ``where`` was rejected under the sync key named ``key``, if it has not changed."""
        known = self._rejected.get((key, where))
        return known[1] if known is not None and known[0] == signature else None

    def reject(self, key: str, where: str, signature: Signature | None, why: str) -> None:
        if signature is None:
            return
        if len(self._rejected) >= self._limit:
            self._rejected.clear()
        self._rejected[(key, where)] = (signature, why)


_remembered = _Remembered()

#: How an import reports a file it cannot use: (directory, name, why, log level).
Skip = Callable[..., None]


@holding_the_sync_lock
def import_new(memory: Memory, folder: Place) -> ImportReport:
    """Apply the segments of other devices not applied yet. Never raises for what is in the
    folder: a file that cannot be used is logged (once), listed in the report and left for
    later. Only regular files and real directories are read (see :func:`read_trusted_file`)."""
    report = ImportReport()
    transport = transport_of(folder)
    key = sync_key(memory)
    _ensure_stream(memory, transport)
    told = _reported(memory)
    telling: dict[str, str] = {}

    def skip(directory: str, name: str, why: str, level: int = logging.WARNING) -> None:
        where = transport.describe(directory, name)
        entry = (where, why)
        report.skipped.append(entry)
        signature = _signature(transport, directory, name)
        said = f"{why}|{signature}"
        if len(telling) < MAX_REPORTED:
            telling[where] = said
        first = _remembered.first_time(where, why, signature, memory.device_id)
        if first and told.get(where) != said:
            log.log(level, "sync: skipped %s: %s", where, why)
        else:
            report.repeated.append(entry)
            log.debug("sync: skipped %s again: %s", where, why)

    try:
        _import_all(memory, key, transport, report, skip)
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


def _import_all(
    memory: Memory, key: bytes, transport: Transport, report: ImportReport, skip: Skip
) -> None:
    try:
        entries = transport.list()
    except OSError as error:
        skip("", "", f"cannot list the folder ({error})", logging.ERROR)
        return
    for entry in entries:
        if entry.name == HEADER_NAME:
            continue
        if entry.name.startswith("."):
            # The sync engine's own (Syncthing's .stfolder and .stignore), the OS's, or a
            # temporary file: there in every folder, so not worth a line each sync.
            log.debug("sync: ignored hidden %s", transport.describe(entry.name))
            continue
        if not DEVICE_RE.match(entry.name) or not entry.directory:
            skip(entry.name, "", "not a device directory", logging.INFO)
            continue
        if entry.name == memory.device_id:
            continue
        _import_device(memory, key, transport, entry.name, report, skip)


def _import_device(
    memory: Memory,
    key: bytes,
    transport: Transport,
    device: str,
    report: ImportReport,
    skip: Skip,
) -> None:
    named = key_id(key)
    cursor, done = progress(memory, device)
    try:
        files = transport.list(device)
    except OSError as error:
        skip(device, "", f"cannot list ({error})", logging.ERROR)
        return
    names = [entry.name for entry in files]
    for name in names:
        if not (SEGMENT_RE.match(name) or SNAPSHOT_RE.match(name) or name == CURSORS_NAME):
            level = logging.DEBUG if name.startswith(".") else logging.INFO
            skip(device, name, "not a segment (temporary, partial or foreign file)", level)

    def read(name: str, unsealer: Any, number: int) -> list[Event] | None:
        where, signature = transport.describe(device, name), _signature(transport, device, name)
        known = _remembered.rejection(named, where, signature)
        if known is not None:
            skip(device, name, known)
            return None
        try:
            return list(unsealer(key, device, number, transport.read(device, name, MAX_FILE_BYTES)))
        except FileNotFoundError:
            return None  # compacted away meanwhile: the snapshot that replaced it is read next
        except (OSError, ValueError) as error:
            why = f"rejected, nothing applied: {error}"
            if isinstance(error, ValueError):  # its content: not worth reading again unchanged
                _remembered.reject(named, where, signature, why)
            skip(device, name, why)
            return None

    def apply(name: str, events: list[Event], moved: protocol.Progress) -> bool:
        nonlocal cursor, done
        cursor_key, done_key = _cursor_keys(device)
        new_cursor, new_done = moved
        try:
            applied = memory.apply_remote(
                events,
                meta={cursor_key: str(new_cursor), done_key: json.dumps(sorted(new_done))},
            )
        except Exception as error:  # a valid file whose events this store cannot take
            skip(device, name, f"could not be applied, nothing changed: {error!r}", logging.ERROR)
            return False
        cursor, done = new_cursor, new_done
        report.segments += 1
        report.events += applied.applied
        report.duplicates += applied.duplicates
        report.memories += applied.memories
        report.carried.extend(applied.carried)
        report.kept_both += applied.kept_both
        report.overruled.extend(applied.overruled)
        report.kept_apart.extend(applied.kept_apart)
        report.kept_taken.extend(applied.kept_taken)
        report.kept_edited.extend(applied.kept_edited)
        log.debug("imported %s: %d new events", transport.describe(device, name), applied.applied)
        return True

    for through in protocol.snapshots_to_try(numbered(names, SNAPSHOT_RE), cursor):
        name = snapshot_name(through)
        events = read(name, unseal_snapshot, through)
        if events is not None and apply(
            name, events, protocol.advanced(cursor, done, through=through)
        ):
            break
    for number in protocol.segments_to_apply(numbered(names, SEGMENT_RE), cursor, done):
        name = segment_name(number)
        events = read(name, unseal, number)
        if events is not None:
            apply(name, events, protocol.advanced(cursor, done, number=number))


# --- cursors and compaction -------------------------------------------------------------------


@holding_the_sync_lock
def publish_cursors(memory: Memory, folder: Place, *, leaving: bool = False) -> bool:
    """Write how far this store has applied each other device into ``<me>/cursors.seg``
    (with this laptop's name, and with ``leaving`` that it left after its last segment),
    when that changed; returns whether it wrote. Others read it to know what they may
    compact, and what to call this laptop."""
    transport = transport_of(folder)
    key = sync_key(memory)
    device = memory.device_id
    applied = {
        other: progress(memory, other)[0]
        for other in device_directories(transport)
        if other != device
    }
    through = int(memory.get_meta(META_SEGMENT) or 0)
    published = Published(applied, device_name(memory), leaving, through if leaving else 0)
    try:
        blob = transport.read(device, CURSORS_NAME, MAX_FILE_BYTES)
        if unseal_published(key, device, blob) == published:
            return False  # unchanged: no write, so no ripple through the sync engine
    except (OSError, ValueError):
        pass  # none yet, or unreadable: write a good one
    transport.write(device, CURSORS_NAME, seal_cursors(key, device, applied, published))
    return True


def read_cursors(key: bytes, transport: Transport, device: str) -> dict[str, int] | None:
    """The cursors a device directory publishes; ``None`` (with a log line when the file is
    there but cannot be trusted) when there are none to go by."""
    published = read_published(key, transport, device)
    return None if published is None else published.applied


def read_published(key: bytes, transport: Transport, device: str) -> Published | None:
    """What a device directory's cursors file says (see :func:`read_cursors`)."""
    try:
        return unseal_published(key, device, transport.read(device, CURSORS_NAME, MAX_FILE_BYTES))
    except FileNotFoundError:
        log.debug("sync: %s has published no cursors yet", transport.describe(device))
        return None
    except (OSError, ValueError) as error:
        why = f"nothing is compacted on its word: {error}"
        where = transport.describe(device, CURSORS_NAME)
        first = _remembered.first_time(where, why, _signature(transport, device, CURSORS_NAME))
        level = logging.WARNING if first else logging.DEBUG
        log.log(level, "sync: ignored %s (%s)", where, why)
        return None


def passed_by_all(memory: Memory, folder: Place) -> int | None:
    """The highest own segment number every other device directory has applied, by their
    cursors files; ``None`` when there is no other device (see :func:`protocol.lowest_cursor`:
    a directory holding no file sealed with the folder's key speaks for no device)."""
    transport = transport_of(folder)
    key = sync_key(memory)
    published = {
        device: read_published(key, transport, device)
        for device in device_directories(transport)
        if device != memory.device_id
    }

    def is_device(device: str) -> bool:
        if _authentic(key, transport, device):
            return True
        log.debug("sync: %s holds nothing of this folder's devices", transport.describe(device))
        return False

    return protocol.lowest_cursor(memory.device_id, published, is_device)


@holding_the_sync_lock
def compact(memory: Memory, folder: Place, *, min_segments: int | None = None) -> int:
    """Fold this device's segments that every other device has applied into one snapshot,
    then delete them; returns how many segments were deleted. See the module docstring."""
    wanted = COMPACT_SEGMENTS if min_segments is None else min_segments
    transport = transport_of(folder)
    key = sync_key(memory)
    device = memory.device_id
    written = int(memory.get_meta(META_SEGMENT) or 0)
    numbers = segment_numbers(transport, device)
    if len([n for n in numbers if n <= written]) < wanted:
        return 0  # (before asking the others: reading their cursors costs)
    plan = protocol.compaction(numbers, written, passed_by_all(memory, transport), wanted)
    if plan is None:
        return 0
    exported = int(memory.get_meta(META_EXPORTED) or 0)
    relay = int(memory.get_meta(META_RELAY) or 0)
    # Every event that any segment up to ``through`` holds was exported, so it is here.
    # They come from the store, where a forget has redacted the text: it leaves the folder too.
    events = [e for e in memory.events_since(0, relay_through=relay) if e.seq <= exported]
    plain = lines(events)
    if len(plain) > MAX_PLAIN_BYTES:  # readers would refuse it: keep the segments instead
        log.error("sync: %s is too large to compact into one snapshot", transport.describe(device))
        return 0
    through = plan.through
    try:
        transport.write(
            device, snapshot_name(through), seal_plain(key, snapshot_aad(device, through), plain)
        )
        older = [snapshot_name(n) for n in snapshot_numbers(transport, device) if n < through]
        transport.delete(device, [*older, *(segment_name(n) for n in plan.folded)])
    except OSError as error:
        # Housekeeping only: what is left is still a complete folder; the next sync retries.
        log.error("sync: compaction of %s stopped: %s", transport.describe(device), error)
        return 0
    log.info(
        "sync: compacted %d segments of %s into a snapshot",
        len(plan.folded),
        transport.describe(device),
    )
    return len(plan.folded)


@holding_the_sync_lock
def sync_once(memory: Memory, folder: Place) -> tuple[int, ImportReport]:
    """Export, import, publish this store's cursors, compact its own old segments and re-seal
    those that held forgotten text: (events exported, what the import did, with ``compacted``
    set)."""
    transport = transport_of(folder)
    check_header(memory, transport)
    if paused := restored_elsewhere(memory):
        raise SyncError(paused)
    accept_restore(memory)
    exported = export_pending(memory, transport)
    report = import_new(memory, transport)
    if report.events:  # judging the arrivals may have written (a merge, a carried edit)
        exported += export_pending(memory, transport)
    try:
        publish_cursors(memory, transport)
    except OSError as error:
        log.error("sync: could not publish this device's cursors: %s", error)
    from sync.devices import retire_departed  # these build on this module
    from sync.redaction import reseal_forgotten

    report.retired = retire_departed(memory, transport)
    report.compacted = compact(memory, transport)
    reseal_forgotten(memory, transport)
    return exported, report


def status(memory: Memory, folder: Place, *, now: float | None = None) -> dict[str, Any]:
    """This device and every other device seen in the folder, with what is pending, and advice
    on the devices that have gone silent (see :func:`silent_devices`). ``now`` is wall-clock
    time, as the files' modification times are."""
    transport = transport_of(folder)
    exported = int(memory.get_meta(META_EXPORTED) or 0)
    relay = int(memory.get_meta(META_RELAY) or 0)
    held = memory.get_meta(META_KEY)
    try:
        check_header(memory, folder)
        unreadable = None
    except SyncError as error:
        # the folder's key was rotated on another laptop (or another init kept): say so, as
        # `sync now` does, rather than count files this laptop cannot read and log each as
        # "tampered" (review15b DV7)
        unreadable, held = str(error), None
    except (OSError, ValueError):
        unreadable = None  # no header to go by: `sync now` says what is wrong with it
    devices: list[dict[str, Any]] = []
    for device in device_directories(transport):
        if device == memory.device_id:
            continue
        published = read_published(bytes.fromhex(held), transport, device) if held else None
        numbers = segment_numbers(transport, device)
        snapshots = snapshot_numbers(transport, device)
        cursor, done = progress(memory, device)
        names = [
            *(segment_name(n) for n in numbers),
            *(snapshot_name(n) for n in snapshots),
            CURSORS_NAME,
        ]
        seen = [stamp.modified for name in names if (stamp := transport.stamp(device, name))]
        devices.append(
            {
                "device_id": device,
                "name": published.name if published else None,
                "left": bool(published and published.left),
                "segments": len(numbers) + len(snapshots),
                "applied_through": cursor,
                "pending_segments": protocol.pending(numbers, snapshots, cursor, done),
                "last_seen": max(seen, default=None),
            }
        )
    paused = restored_elsewhere(memory)
    former = set() if paused else former_ids(memory)
    silent = {} if paused else silent_devices(memory, devices, time.time() if now is None else now)
    called: list[str | None] = [device_name(memory), *(d["name"] for d in devices)]
    for device_status in devices:
        device_status["silent"] = device_status["device_id"] in silent
        # S3c: which of two rows of one name is this laptop's own id before a restore, and
        # since when each such id has existed (a restore's is the newer)
        device_status["former_self"] = device_status["device_id"] in former
        device_status["since"] = _made_at(
            device_status["device_id"], called.count(device_status["name"])
        )
    return {
        "folder": transport.describe(),
        "device_id": memory.device_id,
        "name": device_name(memory),
        "since": _made_at(memory.device_id, called.count(device_name(memory))),
        "exported_through_seq": exported,
        "pending_events": len(memory.events_since(exported, relay_through=relay)),
        "devices": devices,
        "advice": ([unreadable] if unreadable else [])
        + ([paused] if paused else list(silent.values())),
    }


def _made_at(device_id: str, named_alike: int) -> str | None:
    """When a device id was made (it is a ULID: a join or a restore), as a date and minute,
    for a device whose name another one shares (None for the others: the name tells them
    apart); None when the id is not a ULID."""
    if named_alike < 2:
        return None
    try:
        made = ULID.from_str(device_id).timestamp
    except (ValueError, TypeError):
        return None
    return datetime.fromtimestamp(made).strftime("%Y-%m-%d %H:%M")


def silent_devices(memory: Memory, devices: list[dict[str, Any]], now: float) -> dict[str, str]:
    """device id -> what to do, for each device of :func:`status` that still counts for
    compaction but has written nothing for :data:`SILENT_AFTER_S`, or, for the id a restore of
    this store replaced, nothing since that restore. Nothing is retired automatically: a
    restore onto a second laptop while the first still runs looks the same."""
    former = former_ids(memory)
    restored_at = float(memory.get_meta(RESTORED_AT) or "inf")
    advice = {}
    for device in devices:
        seen = device["last_seen"]
        if device["left"] or seen is None:
            continue
        since_restore = device["device_id"] in former and seen < restored_at
        if since_restore or now - seen >= SILENT_AFTER_S:
            identity = device["device_id"]
            date = datetime.fromtimestamp(seen).strftime("%Y-%m-%d")
            advice[identity] = (
                f"{device_label(device)} has not written since {date}; if it was this laptop "
                f"before a restore, run `localmind sync forget-device {identity}`"
            )
    return advice


def device_label(device: dict[str, Any]) -> str:
    """How a device of :func:`status` is shown: ``name (device id)``, or its id alone; this
    laptop's own id before a restore says so."""
    identity = str(device["device_id"])
    if device.get("since"):
        identity += f", since {device['since']}"
    if device.get("former_self"):
        identity += ", this laptop before its restore"
    name = device.get("name")
    return f"{name} ({identity})" if name else identity

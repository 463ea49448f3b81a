"""The laptops of a sync folder, by name: `sync leave`, `sync forget-device NAME`, and how a
departed laptop's directory is retired.

A laptop's directory holds the only copy, in the folder, of the events it made (a snapshot
holds its owner's events only), so it cannot simply be deleted: a laptop that joins later would
never get them. Retiring a directory therefore goes: some laptop that has applied all of it
exports its whole history again (every device's events, as a fresh stream relays them), and
only then deletes the directory. The others skip that export's events by stamp.

- `sync leave` (on the laptop that goes): a last export, then its cursors file says it left
  after segment N. It stops holding compaction up at once. Each other laptop, once it has
  applied the leaver through N, retires the directory at its next sync (they may all do it;
  the duplicates cost an export, nothing else).
- `sync forget-device NAME` (on a laptop that stays, for one gone for good): imports what the
  folder holds of it, refuses while any of its files is not applied (unreadable, still
  arriving; unless none of its files opens with the folder's key, as for a laptop that never
  picked up a rotated key), then retires the directory.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from localmind import Memory
from sync import folder as sync_folder
from sync import protocol
from sync.codec import CURSORS_NAME, Published
from sync.folder import (
    META_EXPORTED,
    META_KEY,
    META_NAME,
    META_RELAY,
    META_SEGMENT,
    Place,
    SyncError,
    device_name,
    joined_folder,
    read_published,
    transport_of,
)
from sync.lock import holding_the_sync_lock
from sync.transport import Transport

log = logging.getLogger("localmind.sync")

# The segment number a store had written when it left a folder: a later `sync join` of the
# same folder numbers on after it, so the laptops that applied those segments never skip new
# ones as already applied. (Kept by the reset of `sync.*`, read by ``folder._ensure_stream``.)
META_LEFT_SEGMENT = sync_folder.META_LEFT_SEGMENT


@dataclass(frozen=True, slots=True)
class Device:
    """A device directory of the folder and what it says of itself."""

    device_id: str
    name: str | None
    left: bool

    @property
    def label(self) -> str:
        return f"{self.name} ({self.device_id})" if self.name else self.device_id


def _others(memory: Memory, transport: Transport) -> Iterator[tuple[str, Published | None]]:
    """Every other laptop's directory with what it published about itself."""
    key = sync_folder.sync_key(memory)
    for device in sync_folder.device_directories(transport):
        if device != memory.device_id:
            yield device, read_published(key, transport, device)


def devices(memory: Memory, folder: Place) -> list[Device]:
    """The other device directories of ``folder``, with their published names."""
    found = []
    for device, published in _others(memory, transport_of(folder)):
        name = published.name if published else None
        found.append(Device(device, name, bool(published and published.left)))
    return found


def find_device(memory: Memory, folder: Place, wanted: str) -> Device:
    """The device ``wanted`` names: its name (any case) or its id (or a unique start of it,
    at least 6 characters). ``SyncError`` listing the devices otherwise."""
    if sync_folder.check_name(wanted).casefold() in {
        (device_name(memory) or "").casefold(),
        memory.device_id.casefold(),
    }:
        raise SyncError(
            f"{wanted!r} is this laptop. To stop syncing it, run `localmind sync leave`. "
            "Nothing was changed."
        )
    others = devices(memory, folder)
    folded = wanted.strip().casefold()
    matches = [d for d in others if d.name is not None and d.name.casefold() == folded]
    if not matches and len(folded) >= 6:
        matches = [d for d in others if d.device_id.casefold().startswith(folded)]
    if len(matches) == 1:
        return matches[0]
    known = ", ".join(d.label for d in others) or "none"
    what = "names more than one device" if matches else "is no device of this folder"
    raise SyncError(f"{wanted!r} {what} (devices: {known}). Nothing was changed.")


def pending_files(memory: Memory, transport: Transport, device: str) -> int:
    """How many of ``device``'s segments and snapshots this store has not applied."""
    cursor, done = sync_folder.progress(memory, device)
    numbers = sync_folder.segment_numbers(transport, device)
    snapshots = sync_folder.snapshot_numbers(transport, device)
    return protocol.pending(numbers, snapshots, cursor, done)


@holding_the_sync_lock
def forget_device(memory: Memory, folder: Place, wanted: str) -> Device:
    """Retire the directory of a laptop gone for good (see the module docstring)."""
    transport = transport_of(folder)
    sync_folder.check_header(memory, transport)
    device = find_device(memory, transport, wanted)
    sync_folder.import_new(memory, transport)  # everything it left, first
    waiting = pending_files(memory, transport, device.device_id)
    # A directory with no file sealed with the folder's key (a laptop that never picked up a
    # rotated key) holds nothing any laptop could read: forgetting it loses nothing.
    key = sync_folder.sync_key(memory)
    if waiting and sync_folder._authentic(key, transport, device.device_id):
        raise SyncError(
            f"{waiting} file{'' if waiting == 1 else 's'} of {device.label} "
            f"{'is' if waiting == 1 else 'are'} not applied here yet (unreadable, or still "
            "arriving): forgetting it now would lose what they hold for laptops that join "
            "later. See why with `localmind sync now -v`. Nothing was changed."
        )
    retire(memory, transport, device.device_id)
    return device


def retire_departed(memory: Memory, folder: Place) -> list[str]:
    """Retire the directories of laptops that left (`sync leave`) once this store has applied
    them through their last segment; returns their labels."""
    transport = transport_of(folder)
    retired = []
    for device, published in _others(memory, transport):
        if published is None or not protocol.may_retire(
            published, sync_folder.progress(memory, device)[0]
        ):
            continue  # still here, or its last segments have not all arrived here yet
        retire(memory, transport, device)
        retired.append(f"{published.name} ({device})" if published.name else device)
    return retired


def retire(memory: Memory, transport: Transport, device: str) -> None:
    """Export this store's whole history again (relaying the departed laptop's events for
    laptops that join later), then delete ``device``'s directory: its files first, its
    cursors file (the departure record) last, so a removal cut short is finished by the next
    sync."""
    memory.set_meta(META_RELAY, str(memory.latest_event_seq()))
    memory.set_meta(META_EXPORTED, "0")
    sync_folder.export_pending(memory, transport)
    try:
        entries = transport.list(device)
    except FileNotFoundError:
        return  # another laptop retired it meanwhile
    files = [e.name for e in entries if not e.directory and e.name != CURSORS_NAME]
    transport.delete(device, files)
    transport.delete(device, [CURSORS_NAME])
    transport.remove_directory(device)  # a stranger's leftovers; never follows links
    log.info("sync: retired %s, a laptop that left the folder", transport.describe(device))


@holding_the_sync_lock
def leave_folder(memory: Memory) -> tuple[Path, str | None]:
    """This laptop stops syncing (see the module docstring). Returns the folder it left and,
    when the folder could not be told, why (the others must then `forget-device` it)."""
    root = joined_folder(memory)
    if root is None or memory.get_meta(META_KEY) is None:
        raise SyncError("This store does not sync with any folder: there is nothing to leave.")
    transport = transport_of(root)
    problem: str | None = None
    try:
        sync_folder.check_header(memory, transport)
        sync_folder.export_pending(memory, transport)  # what only this laptop holds, first
        sync_folder.publish_cursors(memory, transport, leaving=True)
    except (SyncError, OSError) as error:
        problem = str(error)
    kept = {
        **({META_NAME: name} if (name := device_name(memory)) else {}),
        META_LEFT_SEGMENT: f"{memory.get_meta(META_SEGMENT) or 0} {transport.address}",
    }
    memory.reset_meta("sync.", kept)
    return root, problem

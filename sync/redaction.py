"""Forgotten text leaves the sync folder too.

A forget redacts the store's events (their payloads and reasons, ``localmind.store``), but the
segments and the snapshot this device wrote before still hold the text, sealed, for every
device that joins later to read. After a forget here, or one received from another device,
:func:`reseal_forgotten` rewrites each of this device's files whose events the store now
holds redacted: same number, same associated data, the events as the store has them now. Other
devices do the same with their own directories when the forget reaches them (a device writes
only its own directory). Devices that applied a file before skip the new copy (their cursor
passed it; they redacted their own copy of the events on receipt); devices that read it later
get the redacted one.

The store counts its redactions (``meta`` ``redactions``); the folder remembers the count it
last re-sealed for, so the files are read only after a forget.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from functools import partial
from pathlib import Path

from localmind import Memory
from localmind.replica import Event
from localmind.store import REDACTIONS
from sync import folder as sync_folder

log = logging.getLogger("localmind.sync")

META_RESEALED = "sync.resealed"


def reseal_forgotten(memory: Memory, folder: str | os.PathLike[str]) -> int:
    """Rewrite this device's segments and snapshots that still hold text the store has
    forgotten since the last call; returns how many files were rewritten."""
    wanted = memory.get_meta(REDACTIONS) or "0"
    if (memory.get_meta(META_RESEALED) or "0") == wanted:
        return 0
    key = sync_folder.sync_key(memory)
    device = memory.device_id
    directory = Path(folder).expanduser() / device
    # Every event the store holds, other devices' too: a fresh stream relays them.
    held = memory.events_since(0, relay_through=2**62)
    current = {event.hlc: event for event in held}
    files = [
        (
            sync_folder.segment_path(directory, number),
            partial(sync_folder.unseal, key, device, number),
            partial(sync_folder.seal, key, device, number),
        )
        for number in sync_folder._segment_numbers(directory)
    ] + [
        (
            sync_folder.snapshot_path(directory, through),
            partial(sync_folder.unseal_snapshot, key, device, through),
            partial(sync_folder.seal_snapshot, key, device, through),
        )
        for through in sync_folder._snapshot_numbers(directory)
    ]
    outcomes = [_reseal(path, unseal, seal, current) for path, unseal, seal in files]
    if None not in outcomes:  # a file that could not be written is tried again next time
        memory.set_meta(META_RESEALED, wanted)
    rewritten = outcomes.count(True)
    if rewritten:
        log.info("sync: re-sealed %d files of %s without forgotten text", rewritten, directory)
    return rewritten


def _reseal(
    path: Path,
    unseal: Callable[[bytes], list[Event]],
    seal: Callable[[list[Event]], bytes],
    current: dict[str, Event],
) -> bool | None:
    """True when ``path`` was rewritten, False when it needed nothing, None when it could not
    be written (retried on the next sync)."""
    try:
        events = unseal(sync_folder.read_trusted_file(path))
    except FileNotFoundError:  # compacted away by another process meanwhile
        return False
    except (OSError, ValueError) as error:
        # A damaged own file fails its tag for everyone: there is nothing readable to redact.
        log.warning("sync: could not re-seal %s: %s", path, error)
        return False
    fresh = [current.get(event.hlc, event) for event in events]
    if fresh == events:
        return False
    try:
        sync_folder._atomic_write(path, seal(fresh))
    except OSError as error:
        log.error("sync: could not re-seal %s: %s", path, error)
        return None
    return True

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
from collections.abc import Callable
from functools import partial

from localmind import Memory
from localmind.replica import Event
from localmind.store import REDACTIONS
from sync import codec
from sync import folder as sync_folder
from sync.folder import Place, transport_of
from sync.transport import Transport

log = logging.getLogger("localmind.sync")

META_RESEALED = "sync.resealed"


def reseal_forgotten(memory: Memory, folder: Place) -> int:
    """Rewrite this device's segments and snapshots that still hold text the store has
    forgotten since the last call; returns how many files were rewritten."""
    wanted = memory.get_meta(REDACTIONS) or "0"
    if (memory.get_meta(META_RESEALED) or "0") == wanted:
        return 0
    transport = transport_of(folder)
    key = sync_folder.sync_key(memory)
    device = memory.device_id
    # Every event the store holds, other devices' too: a fresh stream relays them.
    held = memory.events_since(0, relay_through=2**62)
    current = {event.hlc: event for event in held}
    files = [
        (
            codec.segment_name(number),
            partial(codec.unseal, key, device, number),
            partial(codec.seal, key, device, number),
        )
        for number in sync_folder.segment_numbers(transport, device)
    ] + [
        (
            codec.snapshot_name(through),
            partial(codec.unseal_snapshot, key, device, through),
            partial(codec.seal_snapshot, key, device, through),
        )
        for through in sync_folder.snapshot_numbers(transport, device)
    ]
    outcomes = [
        _reseal(transport, device, name, unseal, seal, current) for name, unseal, seal in files
    ]
    if None not in outcomes:  # a file that could not be written is tried again next time
        memory.set_meta(META_RESEALED, wanted)
    rewritten = outcomes.count(True)
    if rewritten:
        where = transport.describe(device)
        log.info("sync: re-sealed %d files of %s without forgotten text", rewritten, where)
    return rewritten


def _reseal(
    transport: Transport,
    device: str,
    name: str,
    unseal: Callable[[bytes], list[Event]],
    seal: Callable[[list[Event]], bytes],
    current: dict[str, Event],
) -> bool | None:
    """True when the file ``name`` was rewritten, False when it needed nothing, None when it
    could not be written (retried on the next sync)."""
    where = transport.describe(device, name)
    try:
        events = unseal(transport.read(device, name, codec.MAX_FILE_BYTES))
    except FileNotFoundError:  # compacted away by another process meanwhile
        return False
    except (OSError, ValueError) as error:
        # A damaged own file fails its tag for everyone: there is nothing readable to redact.
        log.warning("sync: could not re-seal %s: %s", where, error)
        return False
    fresh = [current.get(event.hlc, event) for event in events]
    if fresh == events:
        return False
    try:
        transport.write(device, name, seal(fresh))
    except OSError as error:
        log.error("sync: could not re-seal %s: %s", where, error)
        return None
    return True

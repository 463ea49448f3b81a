"""What the status bar counts: the store as the CLI's ``stats`` sees it, less what waits out an
undo window (the pages already hide those), with this session's short-term items apart (they
live only in this app: another program's ``stats`` never sees them)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from localmind.errors import LocalmindError
from localmind.memory import Memory
from localmind.records import Status


@dataclass(frozen=True, slots=True)
class StatusCounts:
    stored: int  # active memories in the store, as `localmind stats` counts them
    session: int  # short-term items of this session (in no other program's count)
    conflicts: int  # pending conflicts left to review


def status_counts(
    memory: Memory, forgetting: Collection[str], settling: Collection[int]
) -> StatusCounts:
    """``forgetting``: memory ids whose forget waits out its undo window; ``settling``:
    conflict ids whose resolution does."""
    session_ids = {record.id for record in memory.short_term()}
    stored = memory.count() - len(session_ids)
    for memory_id in set(forgetting) - session_ids:
        stored -= _active(memory, memory_id)
    conflicts = memory.pending_conflicts()
    if settling:  # only those still pending: another program may have settled one meanwhile
        conflicts -= len({c.id for c in memory.conflicts()} & set(settling))
    session = len(session_ids - set(forgetting))
    return StatusCounts(stored, session, conflicts)


def _active(memory: Memory, memory_id: str) -> int:
    """1 when ``memory_id`` is counted as active (a forget may target an archived one)."""
    try:
        return int(memory.get(memory_id).status is Status.ACTIVE)
    except LocalmindError:  # forgotten meanwhile (a sync): no longer counted anyway
        return 0

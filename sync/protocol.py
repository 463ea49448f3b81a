"""The sync protocol's decisions, as pure functions over what a transport lists and what the
devices publish: which files to apply and how the cursor moves, what this device may compact,
when a departed device's directory may be retired. No I/O, no store: ``sync.folder`` gathers
the facts and carries the decisions out.

Each store keeps, per other device, a cursor (every segment up to it is applied) and the few
segments applied past a gap (``done``). A snapshot of segments 1..N moves the cursor to N.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from sync.codec import Published

Progress = tuple[int, set[int]]  # (cursor, segments applied past it)


def advanced(cursor: int, done: set[int], *, number: int = 0, through: int = 0) -> Progress:
    """The cursor and the applied-past-a-gap set once segment ``number`` (or a snapshot of
    segments 1..``through``) is applied."""
    done = {n for n in done if n > through} | ({number} if number else set())
    cursor = max(cursor, through)
    while cursor + 1 in done:
        cursor += 1
        done.discard(cursor)
    return cursor, done


def snapshots_to_try(snapshots: Iterable[int], cursor: int) -> list[int]:
    """The snapshots a store behind them may apply, newest first: the newest is a late
    joiner's start, an older one the fallback while a damaged newest one waits for a good
    copy. Applying one ends the list."""
    return [through for through in sorted(snapshots, reverse=True) if through > cursor]


def segments_to_apply(numbers: Iterable[int], cursor: int, done: set[int]) -> list[int]:
    """The segments not applied yet, in order."""
    return [n for n in sorted(numbers) if n > cursor and n not in done]


def pending(numbers: Iterable[int], snapshots: Iterable[int], cursor: int, done: set[int]) -> int:
    """How many of a device's files a store has not applied (a snapshot ahead counts once)."""
    return len(segments_to_apply(numbers, cursor, done)) + int(max(snapshots, default=0) > cursor)


def lowest_cursor(
    own: str, published: dict[str, Published | None], is_device: Callable[[str], bool]
) -> int | None:
    """The highest segment of ``own`` that every other device has applied, by what each
    published (``None``: nothing usable); ``None`` when there is no other device. A device
    that left reads nothing any more and holds nothing up. A directory that published nothing
    counts as "passed nothing" only when ``is_device`` says it holds a file sealed with the
    folder's key: a stranger's (anyone can make one) must not hold compaction up for ever."""
    lowest: int | None = None
    for device, said in published.items():
        if device == own:
            continue
        if said is None and not is_device(device):
            continue
        if said is not None and said.left:
            continue
        cursor = said.applied.get(own, 0) if said is not None else 0
        lowest = cursor if lowest is None else min(lowest, cursor)
    return lowest


@dataclass(frozen=True, slots=True)
class Compaction:
    """Fold segments ``folded`` (all ``<= through``) into ``snapshot-<through>``, then delete
    them and the snapshots older than ``through``."""

    folded: list[int]
    through: int


def compaction(
    numbers: Iterable[int], written: int, passed: int | None, wanted: int
) -> Compaction | None:
    """What this device may compact of its own directory's ``numbers``: only segments it
    wrote (``<= written``, not a stranger's), only those every other device has ``passed``
    (``None``: alone in the folder, a device that joins later takes the snapshot), and only
    once there are ``wanted`` of them (each compaction rewrites the whole history)."""
    own = [n for n in numbers if n <= written]
    if len(own) < wanted:
        return None
    limit = max(own, default=0) if passed is None else passed
    folded = [n for n in own if n <= limit]
    if not folded or len(folded) < wanted:
        return None
    return Compaction(folded, folded[-1])


def may_retire(published: Published | None, cursor: int) -> bool:
    """Whether a device's directory may be retired: it said it left, and this store has
    applied it through the last segment it wrote."""
    return published is not None and published.left and cursor >= published.through


def lost_its_start(numbers: Iterable[int], snapshots: Iterable[int], written: int) -> bool:
    """Whether this device's directory lost its start after it had written segments: another
    laptop retired it (`sync forget-device`, a `sync leave` it came back from) or someone
    deleted it. Its files always begin with segment 1 or a snapshot; without either, a laptop
    reading it would wait for ever for what came before."""
    if written == 0:
        return False
    return not list(snapshots) and 1 not in set(numbers)

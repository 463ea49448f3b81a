"""Memories that arrive by sync, judged here as a memory told here would be, inside the
import's transaction (sync9, review9 S1): conflicts and later-version notes are local (they
do not replicate), so without this the laptop that did not hear a change answered with the
old fact alone and unmarked.

An arrival is compared with this laptop's other active memories by the same rules
``remember`` uses, without the model (an import of a whole stream would ask it thousands of
times; what it would settle waits in the queue): a plausible contradiction is queued, the
earlier made as the existing side, unless that pair is pending already; every memory it may
be a later version of (or that may be a later version of it) gets the note recall and
context read. Nothing that replicates is written: the laptop where the change was told has
its own conflict, and a resolution on either laptop reaches the other as the changes it makes.
The same text told on two laptops (S2) is merged on arrival, the same way on both: the
memory with the smaller id is kept and the other folded into it (a forget that names the kept
memory, so an edit of the dropped one that this laptop did not see is carried over, see
``localmind.replica``). Both laptops write that merge; the events agree, so they converge.
Other restatements (rewordings) are left to the person: two laptops judging a rewording
could each keep another one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from localmind.lifecycle import NEIGHBOURS, SUCCESSOR_NEIGHBOURS, Lifecycle
from localmind.records import MemoryType, Status
from localmind.store import SqliteStore, StoredMemory

#: Arrivals judged per import at most: a laptop joining with years of memories would
#: otherwise spend minutes comparing memories its other laptops judged when they were told.
MAX_JUDGED = 500


@dataclass(slots=True)
class Arrivals:
    judged: int = 0
    queued: list[int] = field(default_factory=list)  # conflict ids
    linked: int = 0  # later-version notes written
    merged: list[str] = field(default_factory=list)  # ids of memories folded into a twin


def judge_arrivals(
    store: SqliteStore, lifecycle: Lifecycle, namespace: str, ids: Sequence[str]
) -> Arrivals:
    """Judge the memories ``ids`` that just arrived by sync against this laptop's others."""
    report = Arrivals()
    for memory_id in list(dict.fromkeys(ids))[:MAX_JUDGED]:
        arrived = _active(store, namespace, memory_id)
        blob = None if arrived is None else store.vectors_for([arrived.rowid]).get(arrived.rowid)
        if arrived is None or blob is None:
            continue
        if _merged_with_twin(store, lifecycle, namespace, arrived, report):
            continue
        content = arrived.record.content
        vector = np.frombuffer(blob, dtype=np.float32)
        neighbours = [
            (stored, similarity)
            for stored, similarity in lifecycle.neighbours(
                namespace, vector, SUCCESSOR_NEIGHBOURS, content
            )
            if stored.record.id != memory_id
        ]
        if not neighbours:
            continue
        proposal = lifecycle.propose(content, neighbours[:NEIGHBOURS], ask_model=False)
        earlier = lifecycle.may_update(content, neighbours)
        report.judged += 1
        with store.db:
            arrived = _active(store, namespace, memory_id)  # as it is now, under the lock
            if arrived is None:
                continue
            for other, similarity in earlier:
                if _active(store, namespace, other.record.id) is None:
                    continue
                older, newer = _in_order(other, arrived)
                lifecycle.link_successor(newer.record, [(older, similarity)])
                report.linked += 1
            neighbour = proposal.neighbour
            if proposal.relation is not None or neighbour is None:
                continue  # a restatement or compatible: nothing to ask
            fresh = _active(store, namespace, neighbour.record.id)
            if fresh is None or _pending(store, namespace, memory_id, fresh.record.id):
                continue
            assert proposal.similarity is not None
            older, newer = _in_order(fresh, arrived)
            reason = f"may contradict the older memory: {proposal.why} (judged on arrival by sync)"
            report.queued.append(
                lifecycle.queue_conflict(older.record, newer.record, proposal.similarity, reason)
            )
    return report


def _merged_with_twin(
    store: SqliteStore,
    lifecycle: Lifecycle,
    namespace: str,
    arrived: StoredMemory,
    report: Arrivals,
) -> bool:
    """Fold ``arrived`` and another active memory with its very text into one (the smaller
    id kept). Not for events: the same event told twice may have happened twice."""
    if arrived.record.type is MemoryType.EPISODIC:
        return False
    twins = [
        stored
        for stored in store.active_by_hash(namespace, arrived.record.content_hash)
        if stored.record.id != arrived.record.id and stored.record.type is arrived.record.type
    ]
    if not twins:
        return False
    with store.db:
        one, other = (_active(store, namespace, m.record.id) for m in (arrived, twins[0]))
        if one is None or other is None:
            return False
        kept, dropped = sorted((one, other), key=lambda m: m.record.id)
        lifecycle.merge(kept, dropped.record.content, 1.0)
        store.erase(dropped, store.now(), into=kept.record.id)
    report.merged.append(dropped.record.id)
    return True


def _in_order(one: StoredMemory, other: StoredMemory) -> tuple[StoredMemory, StoredMemory]:
    """(earlier made, later made): the later one may replace the earlier."""
    return (one, other) if one.record.created_at <= other.record.created_at else (other, one)


def _active(store: SqliteStore, namespace: str, memory_id: str) -> StoredMemory | None:
    stored = store.get(memory_id)
    if stored is None or stored.record.status is not Status.ACTIVE:
        return None
    return stored if stored.record.namespace == namespace else None


def _pending(store: SqliteStore, namespace: str, one: str, other: str) -> bool:
    """Whether a pending conflict asks about these two memories already."""
    return bool(store.pending_pairs(namespace, [one, other]))

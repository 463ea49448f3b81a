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
A rewording told on the other laptop (sync10) is judged as the pair it makes, the same way
on both laptops whichever of the two arrived: the smaller id's text is the existing one, the
other the new one (``compare`` is not symmetric). A restatement the guard accepts is merged
into the memory whose text the guard keeps (the smaller id, or the fuller telling); a
rewording the guard neither accepts nor rejects (a model would be asked) is queued for the
person, whose answer replicates. Only pairs told on two devices: a pair told on one was
judged there when it was told (maybe by a model), and that verdict stands.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from localmind.config import LifecycleConfig
from localmind.lifecycle import NEIGHBOURS, SUCCESSOR_NEIGHBOURS, Lifecycle
from localmind.records import MemoryType
from localmind.sameness import Likeness, Sameness, compare
from localmind.store import SqliteStore, StoredMemory
from localmind.superseded import active_in as _active
from localmind.superseded import asked_about as _asked
from localmind.suspicion import suspect

#: Arrivals judged per import at most: a laptop joining with years of memories would
#: otherwise spend minutes comparing memories its other laptops judged when they were told.
MAX_JUDGED = 500


@dataclass(slots=True)
class Arrivals:
    judged: int = 0
    queued: list[int] = field(default_factory=list)  # conflict ids
    linked: int = 0  # later-version notes written
    merged: list[str] = field(default_factory=list)  # ids of memories folded into a twin


@dataclass(frozen=True, slots=True)
class Judging:
    """How arrivals are judged. By sync (the default): at most MAX_JUDGED, the same text or a
    rewording told on two laptops merged (``merges``). By an import of an export (io10):
    every restored memory, the exported ids kept (no merge), each pair judged from its
    later-made side (``both_ways``: a restored memory may be older than the store's own), and
    no pair of two memories in ``spoken_for`` judged: a version 2 export carries what they
    were waiting for (``localmind.transfer.Carried``), restored as it was."""

    how: str = "judged on arrival by sync"
    limit: int | None = MAX_JUDGED
    merges: bool = True
    spoken_for: frozenset[str] = frozenset()
    both_ways: bool = False


BY_SYNC = Judging()


def judge_arrivals(
    store: SqliteStore,
    lifecycle: Lifecycle,
    namespace: str,
    ids: Sequence[str],
    judging: Judging = BY_SYNC,
) -> Arrivals:
    """Judge the memories ``ids`` that just arrived (by sync, or restored by an import)
    against this laptop's others."""
    report = Arrivals()
    arriving = set(ids)
    for memory_id in list(dict.fromkeys(ids))[: judging.limit]:
        arrived = _active(store, namespace, memory_id)
        blob = None if arrived is None else store.vectors_for([arrived.rowid]).get(arrived.rowid)
        if arrived is None or blob is None:
            continue
        if judging.merges and _merged_with_twin(store, lifecycle, namespace, arrived, report):
            continue
        content = arrived.record.content
        outside = memory_id not in judging.spoken_for
        vector = np.frombuffer(blob, dtype=np.float32)
        neighbours = [
            (stored, similarity)
            for stored, similarity in lifecycle.neighbours(
                namespace, vector, SUCCESSOR_NEIGHBOURS, content
            )
            if stored.record.id != memory_id
            and (outside or stored.record.id not in judging.spoken_for)
        ]
        if not neighbours:
            continue
        if judging.both_ways:
            # Each pair judged from its later-made side, as `add` would have met them: an
            # import may restore a memory older than the store's own ("I live in Berlin"
            # restored into a store told "I moved to Lisbon"). Later arrivals judge themselves.
            made = arrived.record.created_at
            older = [(m, s) for m, s in neighbours if m.record.created_at <= made]
            _judge(store, lifecycle, namespace, arrived, older, judging, report)
            for stored, similarity in neighbours:
                if stored.record.created_at > made and stored.record.id not in arriving:
                    pair = [(arrived, similarity)]
                    _judge(store, lifecycle, namespace, stored, pair, judging, report)
            continue
        told_elsewhere = _told_on_another_device(store, arrived, neighbours)
        rewording = rewording_of(lifecycle.config, arrived, told_elsewhere)
        same = rewording if rewording is not None and rewording.sameness.same else None
        if same is not None and _merged_rewording(store, lifecycle, namespace, same):
            report.judged += 1
            report.merged.append(same.dropped.record.id)
            continue
        # Each pair judged from its later side, so both laptops decide it alike (review10
        # F19): the laptop where the newer memory was told meets the older one arriving, the
        # other laptop the newer one; the rules read a pair (older, newer), not (here, there).
        older = [(m, s) for m, s in neighbours if not _later(m, arrived)]
        _judge(store, lifecycle, namespace, arrived, older, judging, report, _of(rewording, older))
        for stored, similarity in neighbours:
            if _later(stored, arrived) and stored.record.id not in arriving:
                pair = [(arrived, similarity)]
                told = _of(rewording, pair)
                _judge(store, lifecycle, namespace, stored, pair, judging, report, told)
    return report


def _later(one: StoredMemory, other: StoredMemory) -> bool:
    """Whether ``one`` was made after ``other`` (by id when made at one moment): the same
    answer on every laptop."""
    return (one.record.created_at, one.record.id) > (other.record.created_at, other.record.id)


def _of(
    rewording: Rewording | None, neighbours: Sequence[tuple[StoredMemory, float]]
) -> Rewording | None:
    """``rewording`` when its other memory is among ``neighbours`` (the pair judged there)."""
    if rewording is None:
        return None
    ids = {stored.record.id for stored, _ in neighbours}
    return rewording if {rewording.first.record.id, rewording.second.record.id} & ids else None


def _judge(
    store: SqliteStore,
    lifecycle: Lifecycle,
    namespace: str,
    arrived: StoredMemory,
    neighbours: list[tuple[StoredMemory, float]],
    judging: Judging,
    report: Arrivals,
    rewording: Rewording | None = None,
) -> None:
    """Judge ``arrived`` as the newer side against ``neighbours`` (as ``remember`` would
    without the model): later-version notes, and a plausible contradiction (or a rewording
    told on two laptops) queued."""
    if not neighbours:
        return
    memory_id, content = arrived.record.id, arrived.record.content
    proposal = lifecycle.propose(content, neighbours[:NEIGHBOURS], ask_model=False)
    earlier = lifecycle.may_update(content, neighbours)
    report.judged += 1
    with store.db:
        now = _active(store, namespace, memory_id)  # as it is now, under the lock
        if now is None:
            return
        for other, similarity in earlier:
            if _active(store, namespace, other.record.id) is None:
                continue
            older, newer = _in_order(other, now)
            lifecycle.link_successor(newer.record, [(older, similarity)])
            report.linked += 1
        neighbour = proposal.neighbour
        if rewording is not None and (proposal.relation is not None or neighbour is None):
            # a model would be asked whether it says the same: the person is
            report.queued += _queue_rewording(store, lifecycle, namespace, rewording)
            return
        if proposal.relation is not None or neighbour is None:
            return  # a restatement or compatible: nothing to ask
        fresh = _active(store, namespace, neighbour.record.id)
        if fresh is None or _asked(store, namespace, memory_id, fresh.record.id):
            return
        assert proposal.similarity is not None
        older, newer = _in_order(fresh, now)
        reason = f"may contradict the older memory: {proposal.why} ({judging.how})"
        report.queued.append(
            lifecycle.queue_conflict(older.record, newer.record, proposal.similarity, reason)
        )


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


@dataclass(frozen=True, slots=True)
class Rewording:
    """Two memories told on two devices that may say the same: ``first`` has the smaller id,
    ``sameness`` is the guard's verdict on (first's text, second's text)."""

    first: StoredMemory
    second: StoredMemory
    similarity: float
    sameness: Sameness

    @property
    def kept(self) -> StoredMemory:
        """The memory a merge keeps: the one whose text the guard keeps."""
        return self.second if self.sameness.keeps_new else self.first

    @property
    def dropped(self) -> StoredMemory:
        return self.first if self.sameness.keeps_new else self.second


def _told_on_another_device(
    store: SqliteStore, arrived: StoredMemory, neighbours: Sequence[tuple[StoredMemory, float]]
) -> list[tuple[StoredMemory, float]]:
    """The ``neighbours`` told on another device than ``arrived``, alike in kind (its type,
    not an event, as secret as it): the pairs nobody judged when they were told."""
    if arrived.record.type is MemoryType.EPISODIC:
        return []  # the same event told twice may have happened twice
    origin = store.told_on(arrived.record.id)
    return [
        (stored, similarity)
        for stored, similarity in neighbours
        if stored.record.type is arrived.record.type
        and stored.record.secret == arrived.record.secret
        and store.told_on(stored.record.id) != origin
    ]


def rewording_of(
    config: LifecycleConfig,
    arrived: StoredMemory,
    neighbours: Sequence[tuple[StoredMemory, float]],
) -> Rewording | None:
    """The nearest of ``neighbours`` that ``arrived`` restates (as close as a merge needs, and
    the guard says the same), else the nearest a model would be asked about (at or above
    ``ask_threshold``, and the guard does not call them different); None when neither. Each
    pair is compared in the order of its ids, so both devices reach the same verdict."""
    doubt: Rewording | None = None
    for stored, similarity in neighbours:
        first, second = sorted((stored, arrived), key=lambda m: m.record.id)
        sameness = compare(first.record.content, second.record.content, similarity)
        pair = Rewording(first, second, similarity, sameness)
        if sameness.same and similarity >= config.merge_threshold:
            return pair
        if (
            doubt is None
            and not sameness.differs
            and similarity >= config.ask_threshold
            and not suspect(first.record.content, second.record.content).contradicts
        ):
            doubt = pair
    return doubt if doubt is None else replace(doubt, sameness=_doubted(doubt.sameness))


def _doubted(sameness: Sameness) -> Sameness:
    """A verdict that is not "same", whatever made it look so (not close enough to merge)."""
    if not sameness.same:
        return sameness
    return Sameness(Likeness.UNSURE, sameness.why)


def _merged_rewording(
    store: SqliteStore, lifecycle: Lifecycle, namespace: str, pair: Rewording
) -> bool:
    """Fold the memory ``pair`` drops into the one it keeps (see :func:`_merged_with_twin`)."""
    with store.db:
        kept = _active(store, namespace, pair.kept.record.id)
        dropped = _active(store, namespace, pair.dropped.record.id)
        if kept is None or dropped is None:
            return False
        lifecycle.merge(kept, dropped.record.content, pair.similarity)
        store.erase(dropped, store.now(), into=kept.record.id)
    return True


def _queue_rewording(
    store: SqliteStore, lifecycle: Lifecycle, namespace: str, pair: Rewording
) -> list[int]:
    """Ask the person whether the two say the same (merge, or keep both), unless asked."""
    one = _active(store, namespace, pair.first.record.id)
    other = _active(store, namespace, pair.second.record.id)
    if one is None or other is None or _asked(store, namespace, one.record.id, other.record.id):
        return []
    older, newer = _in_order(one, other)
    reason = (
        f"may say the same as the older memory ({pair.sameness.why}); told on two laptops, "
        "no model judged it (judged on arrival by sync)"
    )
    return [lifecycle.queue_conflict(older.record, newer.record, pair.similarity, reason)]


def _in_order(one: StoredMemory, other: StoredMemory) -> tuple[StoredMemory, StoredMemory]:
    """(earlier made, later made): the later one may replace the earlier."""
    return (one, other) if one.record.created_at <= other.record.created_at else (other, one)

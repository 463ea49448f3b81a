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

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from localmind import aliases
from localmind.config import LifecycleConfig
from localmind.embedders.base import Vectors
from localmind.lifecycle import NEIGHBOURS, SUCCESSOR_NEIGHBOURS, Lifecycle, Proposal
from localmind.records import MemoryRecord, MemoryType
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
    pairs: list[tuple[str, str]] = field(default_factory=list)  # (older, newer) id of each queued


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
        _arrival(store, lifecycle, namespace, memory_id, arriving, judging, report)
    return report


def _arrival(
    store: SqliteStore,
    lifecycle: Lifecycle,
    namespace: str,
    memory_id: str,
    arriving: Collection[str],
    judging: Judging,
    report: Arrivals,
) -> None:
    """Judge the memory ``memory_id``, one of ``arriving``, against this laptop's others."""
    arrived = _active(store, namespace, memory_id)
    blob = None if arrived is None else store.vectors_for([arrived.rowid]).get(arrived.rowid)
    if arrived is None or blob is None:
        return
    if judging.merges and _merged_with_twin(store, lifecycle, namespace, arrived, report):
        return
    vector = np.frombuffer(blob, dtype=np.float32)
    content = arrived.record.content
    found = lifecycle.neighbours(namespace, vector, SUCCESSOR_NEIGHBOURS, content)
    if not judging.both_ways:
        # judged among the memories made before it, as where it was told (review14 K1);
        # the later ones it is found among judge themselves against it below
        earlier = lifecycle.neighbours(
            namespace, vector, SUCCESSOR_NEIGHBOURS, content, made_before=arrived.record
        )
        later = [(m, s) for m, s in found if _later(m, arrived)]
        found = [*earlier, *later]
    neighbours = _judged_among(arrived, found, judging)
    if not neighbours:
        return
    if judging.both_ways:
        for newer, older in _both_ways(arrived, neighbours, arriving):
            _judge(store, lifecycle, namespace, newer, older, judging, report)
        return
    told_elsewhere = _told_on_another_device(store, arrived, neighbours)
    rewording = rewording_of(lifecycle.config, arrived, told_elsewhere)
    same = rewording if rewording is not None and rewording.sameness.same else None
    if same is not None and _merged_rewording(store, lifecycle, namespace, same):
        report.judged += 1
        report.merged.append(same.dropped.record.id)
        return
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


@dataclass(frozen=True, slots=True)
class JudgedPair:
    """One memory judged before the write lock as the newer side against its neighbours."""

    newer: str  # its id
    neighbours: list[tuple[StoredMemory, float]]
    proposal: Proposal
    earlier: list[tuple[StoredMemory, float]]


@dataclass(frozen=True, slots=True)
class PlannedArrival:
    """One arrival judged before the write lock: its pairs, in the order :func:`_arrival`
    judges them, and the conflicts they would queue, (older id, newer id)."""

    id: str
    live: bool  # judged again under the lock (see judge_ahead)
    pairs: list[JudgedPair]
    queues: list[tuple[str, str]]

    def reads(self) -> set[str]:
        """The memories its verdicts were decided among."""
        ids = {self.id}
        for pair in self.pairs:
            ids.add(pair.newer)
            ids.update(memory.record.id for memory, _ in pair.neighbours)
        return ids


@dataclass(frozen=True, slots=True)
class JudgedAhead:
    """Memories an import will restore, judged as :func:`judge_arrivals` judges them once
    written, but before the write lock, against the store as it was at log position ``seq``
    (:func:`judge_ahead`). Written by :func:`write_judged` under the lock, when nothing in the
    namespace changed since ``seq`` and exactly ``ids`` were restored."""

    seq: int
    ids: frozenset[str]
    arrivals: list[PlannedArrival]


#: Arrivals compared with the others judged ahead at a time (a matrix of similarities each).
_AHEAD_CHUNK = 256


def judge_ahead(
    store: SqliteStore,
    lifecycle: Lifecycle,
    namespace: str,
    arriving: Sequence[tuple[MemoryRecord, Vectors]],
    judging: Judging,
    pending: Sequence[tuple[str, str]] = (),
) -> JudgedAhead:
    """Judge the active memories ``arriving`` (with their vectors, in the order they will be
    written), not written yet, as :func:`judge_arrivals` would once they are (``both_ways``,
    no merges: an import of an export). Each is found among the stored memories by its vector
    as if it were stored (``Lifecycle.neighbours``' ``planned``); a name one of them declares
    counts as the store's declarations do; the conflicts queued before it count as pending:
    ``pending`` (what the import queues first: the export's own), then those it decided for
    the arrivals before. An arrival the keyword index would also find neighbours for (one that
    announces a change of a one-value attribute: the index does not hold the arrivals yet) is
    marked ``live``: judged again under the lock. Nothing is written; the store is read."""
    assert judging.both_ways and not judging.merges, "an import's judging"
    seq = store.latest_event_seq()
    arriving_ids = frozenset(record.id for record, _ in arriving)
    planned_pairs = list(pending)
    arrivals: list[PlannedArrival] = []
    if not arriving:
        return JudgedAhead(seq, arriving_ids, arrivals)
    # a name one of them declares is read as the store's declarations are (Leo is 刘子轩)
    lifecycle = lifecycle.with_declared(
        pair for record, _ in arriving for pair in aliases.declared(record.content)
    )
    matrix = np.stack([np.asarray(vector, dtype=np.float32).reshape(-1) for _, vector in arriving])
    planned = [StoredMemory(-1, record) for record, _ in arriving]
    count = min(SUCCESSOR_NEIGHBOURS, len(arriving))
    for start in range(0, len(arriving), _AHEAD_CHUNK):
        similarities = matrix[start : start + _AHEAD_CHUNK] @ matrix.T
        for row, alike in enumerate(similarities):
            arrived = planned[start + row]
            nearest = np.argpartition(-alike, count - 1)[:count]
            near = [(planned[int(i)], float(alike[int(i)])) for i in nearest]
            content = arrived.record.content
            found = lifecycle.neighbours(
                namespace, matrix[start + row], SUCCESSOR_NEIGHBOURS, content, planned=near
            )
            neighbours = _judged_among(arrived, found, judging)
            sides = _both_ways(arrived, neighbours, arriving_ids) if neighbours else []
            queued = len(planned_pairs)
            pairs = [
                pair
                for newer, against in sides
                if (pair := _verdict(lifecycle, newer, against, planned_pairs)) is not None
            ]
            live = lifecycle.slot_match(content) is not None
            arrivals.append(PlannedArrival(arrived.record.id, live, pairs, planned_pairs[queued:]))
    return JudgedAhead(seq, arriving_ids, arrivals)


def _verdict(
    lifecycle: Lifecycle,
    newer: StoredMemory,
    neighbours: list[tuple[StoredMemory, float]],
    planned_pairs: list[tuple[str, str]],
) -> JudgedPair | None:
    """What :func:`_judge` decides for ``newer`` against ``neighbours``; the conflict it
    would queue is noted in ``planned_pairs`` (as the store's pending pairs date it)."""
    if not neighbours:
        return None
    content = newer.record.content
    proposal = lifecycle.propose(
        content, neighbours[:NEIGHBOURS], ask_model=False, planned=planned_pairs
    )
    earlier = lifecycle.may_update(content, neighbours)
    neighbour = proposal.neighbour
    if proposal.relation is None and neighbour is not None:
        older, later = _in_order(neighbour, newer)
        planned_pairs.append((older.record.id, later.record.id))
    return JudgedPair(newer.record.id, neighbours, proposal, list(earlier))


def write_judged(
    store: SqliteStore, lifecycle: Lifecycle, namespace: str, ahead: JudgedAhead, judging: Judging
) -> Arrivals:
    """Write what :func:`judge_ahead` decided, in the order :func:`judge_arrivals` would
    (inside the import's transaction, after the memories were restored), each note and
    conflict checked against the store as it is now, as :func:`_judge` checks them. An
    arrival marked live is judged here; so is one decided among two memories whose conflict
    the writes so far queued otherwise than the plan counted on (a pair already asked about,
    a live arrival's own): the result is judge_arrivals' own."""
    report = Arrivals()
    differ: set[tuple[str, str]] = set()  # pending pairs the plan counted wrongly
    for planned in ahead.arrivals:
        start = len(report.pairs)
        reads = planned.reads()
        if planned.live or any(a in reads and b in reads for a, b in differ):
            _arrival(store, lifecycle, namespace, planned.id, ahead.ids, judging, report)
        else:
            for pair in planned.pairs:
                newer = _active(store, namespace, pair.newer)
                if newer is not None:
                    _judge(
                        store,
                        lifecycle,
                        namespace,
                        newer,
                        pair.neighbours,
                        judging,
                        report,
                        decided=pair,
                    )
        differ ^= set(report.pairs[start:]) ^ set(planned.queues)
    return report


def _judged_among(
    arrived: StoredMemory, found: list[tuple[StoredMemory, float]], judging: Judging
) -> list[tuple[StoredMemory, float]]:
    """The neighbours ``found`` that ``arrived`` is judged against: not itself, and not one
    whose pair with it an export carried (both ``spoken_for``)."""
    outside = arrived.record.id not in judging.spoken_for
    return [
        (stored, similarity)
        for stored, similarity in found
        if stored.record.id != arrived.record.id
        and (outside or stored.record.id not in judging.spoken_for)
    ]


def _both_ways(
    arrived: StoredMemory, neighbours: list[tuple[StoredMemory, float]], arriving: Collection[str]
) -> list[tuple[StoredMemory, list[tuple[StoredMemory, float]]]]:
    """(newer side, what it is judged against), in order: each pair judged from its
    later-made side, as `add` would have met them. An import may restore a memory older than
    the store's own ("I live in Berlin" restored into a store told "I moved to Lisbon");
    later arrivals judge themselves."""
    made = arrived.record.created_at
    sides = [(arrived, [(m, s) for m, s in neighbours if m.record.created_at <= made])]
    sides += [
        (stored, [(arrived, similarity)])
        for stored, similarity in neighbours
        if stored.record.created_at > made and stored.record.id not in arriving
    ]
    return sides


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
    decided: JudgedPair | None = None,
) -> None:
    """Judge ``arrived`` as the newer side against ``neighbours`` (as ``remember`` would
    without the model): later-version notes, and a plausible contradiction (or a rewording
    told on two laptops) queued. ``decided``: what the rules said, judged before the write
    lock (:func:`judge_ahead`); what is written is read again here, under it."""
    if not neighbours:
        return
    memory_id, content = arrived.record.id, arrived.record.content
    if decided is None:
        proposal = lifecycle.propose(content, neighbours[:NEIGHBOURS], ask_model=False)
        earlier = lifecycle.may_update(content, neighbours)
    else:
        proposal, earlier = decided.proposal, decided.earlier
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
        report.pairs.append((older.record.id, newer.record.id))


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

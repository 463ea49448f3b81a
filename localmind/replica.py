"""Replication: this device's events out, other devices' events in.

Every change to a memory is an event (``add``, ``update``, ``forget``) stamped with a hybrid
logical clock; a stamp names one event on every device (it ends with the device id). Remote
events are kept in the local ``events`` table under their own device id and stamp, so applying
an event twice finds it there and changes nothing, and :func:`events_since` (the outbox) returns
only this device's events.

The state of a memory is the fold of all its events in stamp order:

- ``add`` sets every field; ``update`` sets the fields it names (per-field last writer wins,
  because a later stamp folds later); an update with ``content`` makes a new version: the text
  it replaces joins the history, and the version number counts the content writes, so two
  devices that both edited the same version keep both texts (one current, one in history);
- ``forget`` makes a tombstone from its own payload (status ``deleted``, no content, no
  history); nothing after it changes the memory, so a later edit on another device never
  resurrects it, and of two forgets the later one's payload wins;
- events whose payload was redacted (their memory was forgotten) contribute nothing.

When remote events touch a memory, the memory is rebuilt from that fold, in one transaction
with recording the events. Local writes (``SqliteStore``) do exactly what the fold does, so a
device that only wrote a memory itself agrees with one that rebuilt it from the events.
Embeddings never travel: a rebuilt memory that is active is embedded here, and its vector and
keyword index entries change in the same transaction. Access counts and the conflicts queue
stay local.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ulid import ULID

from localmind import validation
from localmind.config import Limits
from localmind.embedders.base import Vectors
from localmind.hlc import Stamp
from localmind.records import (
    BASED_ON,
    CARRIED_FROM,
    DECLARED,
    FOLDED_INTO,
    JUDGED,
    KEPT_WITH,
    PURGED,
    REVIVED,
    SEEN,
    SET_ASIDE_FOR,
    TOMBSTONE,
    TRAVELLING,
    MemoryRecord,
    MemoryType,
    Status,
    default_of,
    is_eviction,
    to_column,
)
from localmind.store import SqliteStore
from localmind.store.replication import Folded, LoggedEvent

#: Ops that change a memory and travel between devices. Others (profile, maintenance, merge
#: and overwrite notes, conflicts, reindex) describe local work and stay home.
REPLICATED_OPS = ("add", "update", "forget")

_REDACTED = "redacted"
# What the fold carries and a forget keeps are declared with the fields of a memory
# (localmind.records: TRAVELLING and TOMBSTONE).


@dataclass(frozen=True, slots=True)
class Event(LoggedEvent):
    """One change, as it travels between devices: the fields of its row in ``events``."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "hlc": self.hlc,
            "device_id": self.device_id,
            "namespace": self.namespace,
            "memory_id": self.memory_id,
            "op": self.op,
            "payload": self.payload,
            "reason": self.reason,
            "at": self.at,
        }

    @classmethod
    def from_dict(cls, data: Any) -> Event:
        """An event from untrusted data (a sync file); ``ValueError`` says what is wrong."""
        if not isinstance(data, dict):
            raise ValueError("an event must be a JSON object")
        try:
            hlc, device = data["hlc"], data["device_id"]
            namespace, memory_id, op = data["namespace"], data["memory_id"], data["op"]
            payload, reason, at, seq = data["payload"], data["reason"], data["at"], data["seq"]
        except KeyError as missing:
            raise ValueError(f"an event lacks {missing}") from None
        if not all(isinstance(v, str) for v in (hlc, device, namespace, op)):
            raise ValueError("hlc, device_id, namespace and op must be text")
        try:
            stamp = Stamp.parse(hlc)
        except ValueError:
            raise ValueError(f"bad stamp {hlc!r:.80}") from None
        # Stamps order events as text: only the canonical form (13-digit milliseconds) sorts
        # right, and a stamp far in the future would drag this device's clock along.
        if str(stamp) != hlc or not _STAMP.match(hlc):
            raise ValueError(f"bad stamp {hlc!r:.80}")
        if stamp.device != device:
            raise ValueError(f"stamp {hlc!r} is not from device {device!r}")
        if memory_id is not None and not isinstance(memory_id, str):
            raise ValueError("memory_id must be text or null")
        if op in REPLICATED_OPS and not memory_id:
            raise ValueError(f"a {op} event needs a memory id")
        if not isinstance(payload, dict):
            raise ValueError("payload must be an object")
        if reason is not None and not isinstance(reason, str):
            raise ValueError("reason must be text or null")
        if isinstance(at, bool) or not isinstance(at, (int, float)):
            raise ValueError("at must be a number")
        if isinstance(seq, bool) or not isinstance(seq, int):
            raise ValueError("seq must be an integer")
        validation.namespace(namespace)
        if memory_id is not None and (len(memory_id) > 64 or not validation.is_unicode(memory_id)):
            raise ValueError("memory_id must be an id")
        if op in REPLICATED_OPS and payload.get(_REDACTED) is not True:
            _check_payload(op, payload)
        return cls(hlc, device, namespace, memory_id, op, payload, reason, float(at), seq)


_STAMP = re.compile(r"^\d{13}\.\d{6}\.")
_LIMITS = Limits()


#: The fields a fold reads from a payload (content is checked with the op: a forget has none).
_FOLDED = tuple(dict.fromkeys([*TRAVELLING, *TOMBSTONE]))


def _check_payload(op: str, payload: dict[str, Any]) -> None:
    """The fields a fold reads must hold what this device's own checks would let it write:
    another device's events go through the same rules as input typed here (``ValueError``)."""
    if op == "add" or "content" in payload:
        if op == "forget":
            raise ValueError("a forget carries no content")
        validation.content(payload.get("content"), _LIMITS)
    for name in _FOLDED:
        if name in payload:
            validation.field_value(name, _as_carried(name, payload[name]), _LIMITS)
    if "type" in payload and validation.memory_type(payload["type"]) is MemoryType.SHORT_TERM:
        raise ValueError("a short_term memory does not travel")
    # ids and hashes (sync9, 10, 10b)
    for key in (FOLDED_INTO, CARRIED_FROM, JUDGED, KEPT_WITH, SET_ASIDE_FOR, BASED_ON):
        if key in payload and not (isinstance(payload[key], str) and len(payload[key]) <= 64):
            raise ValueError(f"{key} must be an id")
    seen = payload.get(SEEN, [])
    if not isinstance(seen, list) or not all(isinstance(stamp, str) for stamp in seen):
        raise ValueError("seen must be a list of stamps")


def _as_carried(name: str, value: Any) -> Any:
    """An update carries a field as its column holds it (metadata as JSON text, a flag as 0
    or 1); an add as JSON does. The JSON form, to check either the same way."""
    kind = DECLARED[name].kind
    if kind == "json" and isinstance(value, str):
        try:
            return json.loads(value)
        except (ValueError, RecursionError):
            raise ValueError("metadata is not JSON") from None
    if kind == "flag" and type(value) is int and value in (0, 1):
        return bool(value)
    return value


@dataclass(slots=True)
class ApplyReport:
    applied: int = 0  # new events recorded
    duplicates: int = 0  # already here (or this device's own)
    skipped: int = 0  # ops that do not replicate
    memories: int = 0  # memories rebuilt
    embedded: int = 0  # memories (re)embedded and indexed
    changed: list[str] = field(default_factory=list)  # ids of the memories rebuilt
    # ids of the memories that took an edit another device's resolution had not seen
    carried: list[str] = field(default_factory=list)
    arrived: list[str] = field(default_factory=list)  # ids of memories new here (their add)
    kept_both: int = 0  # pending conflicts here that a keep-both elsewhere settled
    # ids of the memories that a keep-both here, later than a take-new elsewhere, kept apart
    kept_apart: list[str] = field(default_factory=list)
    # texts this device took from another memory (take-new, merge) into one that another
    # device forgot without having seen them: kept as memories of their own (the new ids)
    kept_taken: list[str] = field(default_factory=list)
    # edits made here of a memory another device forgot without seeing them: kept as memories
    # of their own (the new ids; review15b DV1)
    kept_edited: list[str] = field(default_factory=list)
    # ids of the memories where one laptop's answer overruled another's earlier one (sync10b)
    overruled: list[str] = field(default_factory=list)

    def __iadd__(self, other: ApplyReport) -> ApplyReport:
        self.applied += other.applied
        self.duplicates += other.duplicates
        self.skipped += other.skipped
        self.memories += other.memories
        self.embedded += other.embedded
        self.changed.extend(other.changed)
        self.carried.extend(other.carried)
        self.arrived.extend(other.arrived)
        self.kept_both += other.kept_both
        self.overruled.extend(other.overruled)
        self.kept_apart.extend(other.kept_apart)
        self.kept_taken.extend(other.kept_taken)
        self.kept_edited.extend(other.kept_edited)
        return self


def events_since(
    store: SqliteStore, seq: int, limit: int | None = None, *, relay_through: int = 0
) -> list[Event]:
    """This device's own replicated events after position ``seq``, oldest first; up to
    position ``relay_through``, other devices' events too (a sync stream that starts afresh
    relays everything the store holds)."""
    return store.replicated_events(seq, limit, relay_through, REPLICATED_OPS, Event)


Embed = Callable[[Sequence[str]], list[Vectors]]
Hasher = Callable[[str], str]


def apply_remote(
    store: SqliteStore,
    events: Iterable[Event],
    *,
    embed: Embed,
    content_hash: Hasher,
    meta: Mapping[str, str] | None = None,
    judge: Callable[[Sequence[str]], object] | None = None,
    folded: Callable[[Sequence[tuple[str, str]]], object] | None = None,
) -> ApplyReport:
    """Apply other devices' events in one transaction (with ``meta`` written in the same one,
    e.g. a sync cursor). Idempotent: an event already recorded is skipped. ``judge``: called
    with the ids of the memories new here, in the same transaction (so a killed import either
    judged them or recorded nothing). ``folded``: called likewise with (dropped id, kept id)
    of each fold into another memory (a resolution or a merge on another laptop) that this
    import brought (``localmind.superseded``)."""
    events = list(events)
    embed = _embedded_ahead(store, events, embed)
    report = ApplyReport()
    touched: dict[str, None] = {}
    arrived: set[str] = set()  # the stamps of the events recorded now
    latest: str | None = None
    with store.db:
        for event in events:
            if event.device_id == store.device_id or store.has_event(event.hlc):
                report.duplicates += 1
                continue
            if event.op not in REPLICATED_OPS or not event.memory_id:
                report.skipped += 1
                continue
            store.record_received(event)
            arrived.add(event.hlc)
            report.applied += 1
            if event.op == "add":
                report.arrived.append(event.memory_id)
            touched[event.memory_id] = None
            latest = event.hlc if latest is None or event.hlc > latest else latest
        unseen = _unseen_edits(store, touched)
        kept_later = _kept_both_later(store, touched, arrived)
        taken = _taken_under_a_forgotten_id(store, touched, arrived)
        lost, report.overruled = _redact_forgotten_copies(store, touched, arrived)
        for memory_id in lost:
            touched[memory_id] = None
        dirty: list[int] = []
        for memory_id in touched:
            rowid = _rebuild(store, memory_id, content_hash)
            if rowid is not None:
                dirty.append(rowid)
        report.memories = len(touched)
        report.changed = list(touched)
        report.embedded = _index(store, dirty, embed)
        report.carried = _carry_over(store, unseen, embed, content_hash)
        report.kept_apart = _keep_apart(store, kept_later, embed, content_hash)
        kept_ids = _keep_taken(store, taken, embed, content_hash)
        report.kept_taken = [i for i, item in zip(kept_ids, taken, strict=True) if not item.edited]
        report.kept_edited = [i for i, item in zip(kept_ids, taken, strict=True) if item.edited]
        if judge is not None and report.arrived:
            judge(report.arrived)
        folds = _folds_arrived(store, touched, arrived)
        if folded is not None and folds:
            folded(folds)
        report.kept_both = _settle_kept_pairs(store, events)
        forgot = any(event.op == "forget" for event in events if event.memory_id in touched)
        if forgot:
            store.purge_forgotten()
        for key, value in (meta or {}).items():
            store.set_meta(key, value)
    if forgot:
        store.truncate_log()
    if latest is not None:
        store.observe(latest)
    return report


def _folds_arrived(
    store: SqliteStore, touched: Iterable[str], arrived: Collection[str]
) -> list[tuple[str, str]]:
    """(dropped id, kept id) of each fold among the events ``arrived`` (their stamps)."""
    return [
        (memory_id, kept)
        for memory_id in touched
        for stamp, kept in store.folds_with_stamps(memory_id)
        if stamp in arrived
    ]


def _settle_kept_pairs(store: SqliteStore, events: Iterable[Event]) -> int:
    """A person on another device kept two memories both (keep-both): the conflict this
    device queued about that pair (told here, or judged on arrival) is settled the same way.
    Returns how many were."""
    settled = 0
    for event in events:
        other = event.payload.get(KEPT_WITH) if event.op == "update" else None
        if isinstance(other, str) and event.memory_id:
            settled += store.settle_pair(event.memory_id, other, "keep_both", store.now())
    return settled


@dataclass(frozen=True, slots=True)
class _Unseen:
    """This device's edit of ``dropped`` that another device's resolution, folding it into
    ``kept``, had not seen."""

    dropped: str
    kept: str
    text: str


def _unseen_edits(store: SqliteStore, touched: Iterable[str]) -> list[_Unseen]:
    """For each memory a resolution elsewhere folded into another (take-new, merge): the last
    of this device's edits of it that the resolving device had not seen. Read before the
    fold redacts them. The device that made an edit carries it, so it is carried once."""
    unseen = []
    for memory_id in touched:
        for kept, seen in store.folded_into(memory_id):
            mine = [text for stamp, text in store.own_texts(memory_id) if stamp not in seen]
            if mine:
                unseen.append(_Unseen(memory_id, kept, mine[-1]))
    return unseen


def _carry_over(
    store: SqliteStore, unseen: Sequence[_Unseen], embed: Embed, content_hash: Hasher
) -> list[str]:
    """Each unseen edit becomes the kept memory's next version (the person's latest word on
    the text the resolution kept; what it replaces stays in the history), as a local update
    that replicates. Not when the dropped memory was also forgotten for real (a forget is
    final) or the kept one is no longer active. Returns the kept memories' ids."""
    carried: list[str] = []
    for edit in unseen:
        kept = store.get(edit.kept)
        if (
            kept is None
            or kept.record.status is not Status.ACTIVE
            or kept.record.content == edit.text
            or store.forgotten_for_real(edit.dropped)
        ):
            continue
        [vector] = embed([edit.text])
        store.replace_content(
            kept,
            edit.text,
            content_hash(edit.text),
            vector,
            "carried_over",
            store.now(),
            source=edit.dropped,
        )
        carried.append(edit.kept)
    return carried


@dataclass(frozen=True, slots=True)
class _KeptBoth:
    """A pair this device kept both later than another device folded ``newer`` into ``kept``
    (take-new, merge): ``told``, the newer memory as it is here before that fold."""

    newer: str
    kept: str
    told: MemoryRecord


def _kept_both_later(
    store: SqliteStore, touched: Iterable[str], arrived: Collection[str]
) -> list[_KeptBoth]:
    """Each pair this device kept both later than another device's take-new or merge of it,
    whose forget of the newer memory arrives now. Read before the fold redacts the forgotten
    memory's events (this device's keep-both among them) and its text."""
    pairs = []
    for newer in touched:
        for stamp, kept_id in store.folds_with_stamps(newer):
            mine = store.own_keep_both(newer, kept_id)
            here = store.get(newer)
            if (
                stamp in arrived
                and mine is not None
                and mine > stamp
                and here is not None
                and here.record.status is Status.ACTIVE
            ):
                pairs.append(_KeptBoth(newer, kept_id, replace(here.record)))
    return pairs


def _keep_apart(
    store: SqliteStore, pairs: Sequence[_KeptBoth], embed: Embed, content_hash: Hasher
) -> list[str]:
    """This device kept each pair both, later than another device answered it take-new or
    merge: the later answer wins. The device that kept both writes it again: the kept memory
    gets back the text it had before the fold (its history keeps the fold's text), and the
    newer memory comes back under its own id, with its own text and date (an ``add`` marked
    ``REVIVED``, which undoes a fold, never a forget of the person's own), noted as kept
    beside the other (so no laptop asks the pair again). Local writes that replicate; only the
    keep-both's author writes them, so they are written once. Not after a later change of the
    kept memory. Returns the kept memories' ids."""
    apart: list[str] = []
    for pair in pairs:
        kept = store.get(pair.kept)
        carried = store.carried_texts(pair.kept)
        versions = store.versions(pair.kept)
        if (
            kept is None
            or kept.record.status is not Status.ACTIVE
            or not carried
            or carried[-1][2] != pair.newer
            or carried[-1][3] != kept.record.content
            or not versions
        ):
            continue
        told = pair.told
        payload = {**told.to_dict(), KEPT_WITH: pair.kept, REVIVED: True}
        store.record_event(told.namespace, told.id, "add", payload, "keep_both")
        rowid = _rebuild(store, told.id, content_hash)
        if rowid is not None:
            _index(store, [rowid], embed)
        again = store.get(told.id)
        if again is not None:  # (the keep-both's note, as a keep-both here writes it)
            store.update_fields(again, "keep_both", kept_with=pair.kept)
        # The fold wrote one version per text it carried from the newer memory (its earlier
        # texts and, for a merge, its own: review15a TW9) before the final one: the text
        # before the fold is the version that many places back, not the last one.
        folded = len(carried) - next(
            (i + 1 for i in range(len(carried) - 1, -1, -1) if carried[i][2] != pair.newer), 0
        )
        if folded > len(versions):
            continue
        before = versions[-folded][1]
        [before_vector] = embed([before])
        store.replace_content(
            kept,
            before,
            content_hash(before),
            before_vector,
            "keep_both",
            store.now(),
            _told_at(store, pair.kept),
        )
        apart.append(pair.kept)
    return apart


@dataclass(frozen=True, slots=True)
class _Taken:
    """A text this device took into ``holder`` from ``source`` (a resolution's take-new or
    merge), as the memory stood before another device's forget of ``holder`` folds in."""

    holder: str
    source: str
    record: MemoryRecord
    # the text is an edit of ``holder`` itself made here, not one taken from another memory
    edited: bool = False


def _taken_under_a_forgotten_id(
    store: SqliteStore, touched: Iterable[str], arrived: Collection[str]
) -> list[_Taken]:
    """Each memory whose current text this device took from another one (the person here
    answered take-new or merge) while another device, which had not seen that version, forgot
    the memory (review11 U1: "forget the old car" on one laptop, "take the new car" on the
    other, and the new car was erased on both). Read before the fold makes it a tombstone. A
    forget that saw the version (its tombstone's version is as high) forgets it: that is the
    person's word on this text."""
    taken: list[_Taken] = []
    for memory_id in touched:
        stored = store.get(memory_id)
        if stored is None or stored.record.status is not Status.ACTIVE:
            continue
        unseen_by = [
            stamp
            for stamp, kept in store.final_forgets(memory_id)
            if stamp in arrived
            and kept is None
            and _forgot_version(store, memory_id, stamp) < stored.record.version
        ]
        own = [
            (source, text)
            for _seq, stamp, source, text in store.carried_texts(memory_id)
            if Stamp.parse(stamp).device == store.device_id
        ]
        if not unseen_by:
            continue
        if own and own[-1][1] == stored.record.content:
            taken.append(_Taken(memory_id, own[-1][0], stored.record))
        elif _edited_here_unseen(store, memory_id, stored.record, min(unseen_by)):
            taken.append(_Taken(memory_id, memory_id, stored.record, edited=True))
    return taken


def _edited_here_unseen(
    store: SqliteStore, memory_id: str, record: MemoryRecord, forget: str
) -> bool:
    """Whether the current text of ``memory_id`` is an edit made here (a correction, an
    update) that the forget stamped ``forget`` was not made on: a text the person wrote after
    the version the other laptop forgot, never one that laptop saw (review15b DV1: "We pay
    2300 euro rent" corrected on one laptop while the other forgot "We pay 2100 euro rent").
    Edit wins over a concurrent delete, as in Syncthing; the text the forget saw stays erased."""
    own = store.own_texts(memory_id)
    if not own or own[-1][1] != record.content:
        return False  # not this device's text: its author keeps it
    forgot = _forgot_version(store, memory_id, forget)
    return not any(
        version <= forgot and text == record.content
        for version, text, _reason, _at in store.versions(memory_id)
    )


def _forgot_version(store: SqliteStore, memory_id: str, stamp: str) -> int:
    """The version of ``memory_id`` the forget stamped ``stamp`` was made on."""
    for op, text, at_stamp, _reason, _at in store.memory_events(memory_id, ("forget",)):
        if op == "forget" and at_stamp == stamp:
            version = json.loads(text).get("version")
            return int(version) if isinstance(version, int) else 1
    return 1


def _keep_taken(
    store: SqliteStore, taken: Sequence[_Taken], embed: Embed, content_hash: Hasher
) -> list[str]:
    """Each taken text becomes a memory of its own again (dated when its source was told),
    written here, where the person chose it, as a local write that replicates: a forgotten
    memory never comes back, and the text was never the forgotten one's. It gets back the id
    it was told under (:func:`_revivable`: the person's references to that memory, in an
    assistant's notes or in `history`, lead to it again), else a new one. Returns the ids."""
    kept: list[str] = []
    for item in taken:
        told = _told_at(store, item.source) or item.record.created_at
        record = replace(
            item.record,
            id=str(ULID.from_timestamp(told)),
            created_at=told,
            version=1,
            access_count=0,
            last_accessed=None,
            metadata={},
            content_hash=content_hash(item.record.content),
            hlc="",
        )
        if _revivable(store, item):
            # undoes the resolution's fold of the source (as `_keep_apart` does): its forget
            # folded it into the memory now forgotten for real
            record = replace(record, id=item.source)
            payload = {**record.to_dict(), REVIVED: True}
            store.record_event(record.namespace, record.id, "add", payload, "kept_taken")
            rowid = _rebuild(store, record.id, content_hash)
            if rowid is not None:
                _index(store, [rowid], embed)
        else:
            [vector] = embed([item.record.content])
            store.insert(record, vector)
        kept.append(record.id)
    return kept


def _revivable(store: SqliteStore, item: _Taken) -> bool:
    """Whether the taken text may come back under its source's id: the source is gone here
    only because a resolution folded it into the holder (no device forgot it itself, and no
    fold put it anywhere else). A source forgotten for real
    stays forgotten (and a new id keeps its old references from leading to this text)."""
    source = store.get(item.source)
    folds = store.folded_into(item.source)
    return (
        source is not None
        and source.record.status is Status.DELETED
        and bool(folds)
        and all(kept == item.holder for kept, _ in folds)
        and not store.forgotten_for_real(item.source)
    )


def _told_at(store: SqliteStore, memory_id: str) -> float | None:
    """When ``memory_id`` was first told (its ``add``), None when that is not logged."""
    for _op, text, _stamp, _reason, _at in store.memory_events(memory_id, ("add",)):
        told = json.loads(text).get("created_at")
        if isinstance(told, (int, float)) and not isinstance(told, bool):
            return float(told)
    return None


def _redact_forgotten_copies(
    store: SqliteStore, touched: Iterable[str], arrived: Collection[str] = ()
) -> tuple[list[str], list[str]]:
    """A forget reaches the copies of its text that a concurrent resolution on another device
    put into another memory: such a version is redacted, so that memory's fold ends where it
    was before it. Looked at from both sides, since either may arrive first: a memory
    forgotten for real, and a memory holding a version carried from one. A keep-old's forget
    is an answer, not a forget of the person's own: it reaches the copy only when it came
    after it (the later answer wins; a take-new after it keeps its text). Returns the ids of
    the memories that lost a version, and of those where, by the events in ``arrived`` (the
    stamps this import brought), a later answer on one device overruled an earlier one."""
    lost: dict[str, None] = {}
    overruled: dict[str, None] = {}
    for memory_id in list(touched):
        holders = [kept for kept, _ in store.folded_into(memory_id)] + [memory_id]
        for holder in dict.fromkeys(holders):
            for seq, stamp, source, text in store.carried_texts(holder):
                forgets = store.final_forgets(source)
                if any(kept is None or at > stamp for at, kept in forgets):
                    namespace = store.first_namespace(holder) or ""
                    store.redact_carried(seq, holder, namespace, text)
                    lost[holder] = None
                    overruled_by = [at for at, kept in forgets if kept is not None]
                else:  # only keep-olds, each before the take-new: it stands
                    overruled_by = [at for at, _ in forgets]
                if {stamp, *overruled_by} & set(arrived) and overruled_by:
                    overruled[holder] = None
    return list(lost), list(overruled)


def _embedded_ahead(store: SqliteStore, events: Sequence[Event], embed: Embed) -> Embed:
    """``embed``, with the texts these events will most likely need embedded already, before
    the write transaction: other processes wait for that transaction, and embedding a segment
    of a thousand new memories takes seconds. The text embedded ahead is each memory's last
    one among the new events (unless they forget it); a memory whose fold ends elsewhere
    (an older local edit wins) has its text embedded inside the transaction, as before."""
    final: dict[str, str] = {}
    for event in sorted(events, key=lambda e: e.hlc):
        if not event.memory_id or event.device_id == store.device_id:
            continue
        if event.op == "forget":
            final.pop(event.memory_id, None)
        elif event.op in ("add", "update") and isinstance(event.payload.get("content"), str):
            final[event.memory_id] = event.payload["content"]
    texts = list(dict.fromkeys(final.values()))
    ready: dict[str, Vectors] = dict(zip(texts, embed(texts), strict=True)) if texts else {}

    def embed_with_ready(contents: Sequence[str]) -> list[Vectors]:
        missing = list(dict.fromkeys(c for c in contents if c not in ready))
        if missing:
            ready.update(zip(missing, embed(missing), strict=True))
        return [ready[content] for content in contents]

    return embed_with_ready


@dataclass(slots=True)
class _State:
    fields: dict[str, Any]
    content: str
    version: int
    history: dict[int, tuple[str, str, float]]  # version → (content, reason, replaced at)
    hlc: str
    deleted: bool = False


def _fold(
    rows: Iterable[tuple[str, str, str, str | None, float]],
    content_hash: Hasher | None = None,
    here: str | None = None,
) -> _State | None:
    """The state that a memory's events (op, payload, hlc, reason, at), in stamp order, make.
    ``content_hash``: to tell which text a verdict judged (without it every verdict lands).
    ``here``: this device's id; another device's capacity eviction is left out (capacity is
    each laptop's own), without it every eviction lands."""
    state: _State | None = None
    final = False  # some device forgot it itself (not by folding it into another)
    # the stamp of the last change folded that every laptop folds (not an eviction): what
    # maintenance's BASED_ON is measured against, alike on every laptop
    shared = ""
    for op, text, stamp, reason, at in rows:
        if here is not None and is_eviction(reason) and Stamp.parse(stamp).device != here:
            continue
        payload = json.loads(text)
        if payload.get(_REDACTED) is True and op != "forget":
            continue
        purged_there = payload.get(PURGED) is True and Stamp.parse(stamp).device != here
        if op == "forget" and here is not None and purged_there:
            continue  # archived and purged there; here it may be current (review11 U4)
        if op == "forget":
            final = final or FOLDED_INTO not in payload
            base = dict(state.fields) if state else {}
            base.update({k: payload[k] for k in TOMBSTONE if k in payload})
            base.update(status=str(Status.DELETED), metadata="{}")
            base.setdefault("type", str(MemoryType.LONG_TERM))
            for name, default in (
                ("importance", 0.5),
                ("confidence", 0.0),
                ("created_at", at),
                ("updated_at", at),
                ("expires_at", None),
                ("pinned", False),
            ):
                base.setdefault(name, default)
            version = int(payload.get("version", state.version if state else 1))
            base.pop("version", None)
            state = _State(base, "", version, {}, stamp, deleted=True)
            shared = stamp
            continue
        revived = op == "add" and payload.get(REVIVED) is True and not final
        if state is not None and state.deleted and not revived:
            continue  # nothing resurrects a forgotten memory (but a fold may be undone)
        if op == "add":
            fields = {k: payload[k] for k in TRAVELLING if k in payload}
            state = _State(
                fields, str(payload.get("content", "")), int(payload.get("version", 1)), {}, stamp
            )
            shared = stamp
            continue
        if state is None:  # an update whose add was redacted or never came
            continue
        based_on = payload.get(BASED_ON)
        if isinstance(based_on, str) and based_on < shared:
            # maintenance that read an older state than this fold has reached (a laptop off
            # for a while decayed or archived its old copy): a change it never saw stands
            continue
        if "content" in payload:
            state.history[state.version] = (state.content, reason or "update", at)
            state.content = str(payload["content"])
            state.version += 1
            state.fields["updated_at"] = at
        changed = {k: payload[k] for k in TRAVELLING if k in payload}
        judged = payload.get(JUDGED)
        if isinstance(judged, str) and content_hash and judged != content_hash(state.content):
            # a verdict about a text this memory no longer holds (another device corrected
            # it meanwhile) does not land on the correction it never saw
            changed.pop("confidence", None)
        state.fields.update(changed)
        state.hlc = stamp
        if not is_eviction(reason):
            shared = stamp
    return state


def _rebuild(store: SqliteStore, memory_id: str, content_hash: Hasher) -> int | None:
    """Write the fold of ``memory_id``'s events over its row and history. Returns the rowid when
    its index entries must be rebuilt (it is active and its text, type or status changed)."""
    state = _fold(store.memory_events(memory_id, REPLICATED_OPS), content_hash, store.device_id)
    namespace = store.first_namespace(memory_id)
    if state is None or namespace is None:
        return None
    values: dict[str, Any] = {
        name: to_column(name, state.fields.get(name, default_of(name))) for name in TRAVELLING
    }
    values.update(
        namespace=namespace,
        content=state.content,
        version=state.version,
        content_hash=content_hash(state.content) if state.content else "",
        hlc=state.hlc,
    )
    return store.write_fold(memory_id, Folded(values, state.history, state.deleted))


def _index(store: SqliteStore, rowids: Sequence[int], embed: Embed, batch: int = 64) -> int:
    """Embed and index the (active) memories at ``rowids``."""
    stored = store.get_by_rowids(list(rowids))
    items = [stored[rowid] for rowid in rowids if rowid in stored]
    for start in range(0, len(items), batch):
        chunk = items[start : start + batch]
        vectors = embed([item.record.content for item in chunk])
        for item, vector in zip(chunk, vectors, strict=True):
            store.reactivate(item, vector)
    return len(items)

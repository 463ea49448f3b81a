"""What is current among the memories an assistant is given (``Memory.context``): each with the
day it was told, the ones a newer memory may replace marked so, naming that newer memory and its
day, and no filler below the relevant ones.

An assistant reading two memories side by side ("I live in Berlin", "I moved to Lisbon") has no
way to tell which holds now unless it is told; recall already orders them newer first, but a
system prompt is read as a whole, not in order (docs/design.md, "What an assistant is given").
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from localmind.first_person import as_told
from localmind.records import EarlierText, MemoryRecord, RecallResult, ScoreBreakdown, Status
from localmind.statement import read
from localmind.store import SqliteStore


@dataclass(frozen=True, slots=True)
class Given:
    """One memory as the context block shows it: its text, the day it was told, and the newer
    memory that may replace it (None: nothing newer is known to), and its earlier texts that held
    in the period the question names (``RecallResult.earlier``)."""

    record: MemoryRecord
    newer: MemoryRecord | None = None
    earlier: tuple[EarlierText, ...] = ()
    # when its text was last edited after it was told (``edited_after_told``); None: never
    edited: float | None = None


#: The reasons of a text change that date the memory when its new text was told (its
#: ``created_at``): a person's answer in the review queue (take-new, merge, a keep-both that
#: gave a text back), a model's overwrite. The day of such a change is the day someone reviewed
#: the queue, not a day anything was told: "changed <that day>" read as "broke up again today"
#: (review10 F25). (The values of ``lifecycle.Resolution`` and ``Lifecycle.overwrite``'s.)
REDATING_CHANGES = frozenset({"take_new", "merge", "keep_both", "overwrite"})


def told_on(record: MemoryRecord, edited: float | None = None) -> str:
    """The day a memory was told (this machine's time zone, as the periods recall reads in a
    question are), and the day its text was ``edited`` after that, when it was."""
    told = day_of(record.created_at)
    if edited is not None and day_of(edited) != told:
        return f"{told}, changed {day_of(edited)}"
    return told


def edited_after_told(store: SqliteStore, records: Sequence[MemoryRecord]) -> dict[str, float]:
    """For each of ``records`` whose current text a person (or an assistant) edited after it
    was told — ``update``, ``feedback correct``, a fuller retelling —, when: its
    ``updated_at``. Not a text a resolution or the model's overwrite put there
    (``REDATING_CHANGES``): the memory is dated when that text was told."""
    edited: dict[str, float] = {}
    for record in records:
        if record.version < 2:
            continue
        versions = store.versions(record.id)
        if versions and versions[-1][2] not in REDATING_CHANGES:
            edited[record.id] = record.updated_at
    return edited


def newer_named(breakdown: ScoreBreakdown) -> str:
    """The newer memory that may replace a recalled one, as a person reads it: ``#id from
    2026-03-20`` (the id alone when its date is not known)."""
    if breakdown.superseded_at is None:
        return f"#{breakdown.superseded_by}"
    return f"#{breakdown.superseded_by} from {day_of(breakdown.superseded_at)}"


def day_of(timestamp: float) -> str:
    return dt.datetime.fromtimestamp(timestamp).astimezone().date().isoformat()


def worth_giving(
    results: Sequence[RecallResult], share: float, per_memory: float = 0.0
) -> list[RecallResult]:
    """The results an assistant should be given: each at least ``share`` of the best one's
    relevance (recall's own bar keeps a long tail, right for a list a person scans, filler in a
    system prompt), and of those at most one per ``per_memory`` of the best one's relevance (at
    least one; 0: no such cap), plus recall's first result and the newer version recall moved
    above a kept one, which is what the question is about now although it may share fewer of
    its words ("where do I live?" — "I moved to Lisbon")."""
    if not results:
        return []
    best = max(r.breakdown.similarity for r in results)
    near = sorted(
        (r for r in results if r.breakdown.similarity >= share * best),
        key=lambda r: r.breakdown.similarity,
        reverse=True,
    )
    if per_memory > 0:
        near = near[: max(1, math.floor(best / per_memory))]
    kept = {r.memory.id for r in near}
    # recall's first answer, whatever its relevance: placed first as what holds now ("我搬进了
    # Boxhagener Platz的新家" for 我现在住在哪里？ at 0.03), it was left out while the two
    # Airbnbs it replaced were given as the home (review13 J4)
    kept.add(results[0].memory.id)
    kept |= {r.memory.id for r in results if r.breakdown.moved_above in kept}
    kept |= {r.breakdown.superseded_by or "" for r in results if r.memory.id in kept}
    return [r for r in results if r.memory.id in kept]


def newer_versions(
    store: SqliteStore, namespace: str, ids: Sequence[str]
) -> dict[str, MemoryRecord]:
    """For each of ``ids`` that is the earlier of the two memories of a pending conflict, the
    later one (made later: an import may add an older fact after a newer one), wherever it is.
    Until the person answers, the newer one is taken as current, as recall does."""
    records: dict[str, MemoryRecord] = {}
    pairs = store.conflicts_involving(namespace, ids)
    for memory_id in {memory_id for pair in pairs for memory_id in pair}:
        stored = store.get(memory_id)
        if stored is not None and stored.record.status is Status.ACTIVE:
            records[memory_id] = stored.record
    wanted = set(ids)
    newer: dict[str, MemoryRecord] = {}
    for a, b in pairs:
        if a not in records or b not in records:
            continue
        old, new = (a, b) if records[a].created_at <= records[b].created_at else (b, a)
        if old in wanted and old not in newer:
            newer[old] = records[new]
    return newer


def given(
    results: Sequence[RecallResult],
    newer: dict[str, MemoryRecord],
    edited: dict[str, float] | None = None,
) -> list[Given]:
    """``results`` as the block shows them: a memory recall moved a newer one above, or in a
    pending conflict with a newer one, names it; an outdated memory follows its newer one.
    ``edited``: when each memory's text was edited after it was told (``edited_after_told``)."""
    by_id = {r.memory.id: r.memory for r in results}
    moved = {
        r.breakdown.moved_above: r.memory for r in results if r.breakdown.moved_above is not None
    }
    shown = [
        Given(
            r.memory,
            newer.get(r.memory.id) or moved.get(r.memory.id),
            r.earlier,
            (edited or {}).get(r.memory.id),
        )
        for r in results
    ]
    # an outdated memory goes right after the newer one when both are shown, so the two are read
    # together, never as two equal facts far apart
    ordered: list[Given] = []
    for item in shown:
        if item.newer is not None and item.newer.id in by_id:
            continue
        ordered.append(item)
        ordered += [
            other for other in shown if other.newer is not None and other.newer.id == item.record.id
        ]
    placed = {item.record.id for item in ordered}
    ordered += [item for item in shown if item.record.id not in placed]  # a cycle: as recalled
    return ordered


#: "My name is …", 我叫…: a memory that gives the person's name.
NAMED = re.compile(r"\b(my name is|my name's|call me|i'?m called)\b|我叫|我的名字", re.IGNORECASE)
#: The person's own name, as an attribute a memory sets (``NAMED``): the reader has no slot
#: for it, so "我叫李静，34岁，是一名product designer" read as a job and an age only, and a newer
#: job hid the name with it (review13 J5).
NAME = "~name"


def replaced_while_pending(earlier: MemoryRecord, later: MemoryRecord) -> bool:
    """Whether ``later``, the newer side of a pending conflict, may replace all ``earlier``
    says: they are about one thing, and ``earlier`` sets no attribute ``later`` leaves
    standing. "我叫李静，34岁，是一名product designer", queued against "I'm a senior product
    designer at Kleinfeld", still gives the name and the age (review13 J5)."""
    if not about_one_thing(earlier, later):
        return False
    return _said(earlier) <= _said(later)


def _said(record: MemoryRecord) -> set[str]:
    """Every attribute a memory says something of (the reader's slots, its name too), the
    reader's two forms of one ("my rent" and "~my rent") as one."""
    named = {NAME} if NAMED.search(as_told(record.content)) else set()
    return {slot.lstrip("~") for slot in read(as_told(record.content)).slots | named}


def about_one_thing(earlier: MemoryRecord, later: MemoryRecord) -> bool:
    """Whether a later version ``remember`` noted is one of the same thing: both set an
    attribute in common (a like, a pet), or neither sets one the reader knows. The note is made
    on likeness alone: "I started a new job at Otto" was noted as replaced by "Sold the Corolla
    when I moved to Hamburg", and the profile lost the job (review10 F12/F13)."""
    said, said_later = read(as_told(earlier.content)).slots, read(as_told(later.content)).slots
    return bool(said & said_later) or not (said or said_later)

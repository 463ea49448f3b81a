"""Writing: the changes behind ``Memory.remember``, ``update``, ``forget`` and feedback.

Every change embeds its text first, then reads what it changes again inside its write
transaction (``BEGIN IMMEDIATE``): another process may have changed the same memory meanwhile,
and the model's seconds must not hold the write lock (see docs/design.md, "Concurrency and
crash safety").
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import partial
from typing import Any, Protocol

import numpy as np
from ulid import ULID

from localmind import blas, validation
from localmind.config import Settings
from localmind.embedders.base import EMBED_BATCH, Embedder, Progress, Vectors
from localmind.errors import ChangedMeanwhile, ForgottenEarlier, InvalidInput, NotFound
from localmind.first_person import as_told
from localmind.governance import AGENT_SOURCE, Governance
from localmind.lifecycle import (
    NEIGHBOURS,
    SUCCESSOR_NEIGHBOURS,
    Decision,
    Feedback,
    Lifecycle,
    Outcome,
    Proposal,
    Relation,
    Resolution,
    Settlement,
    Verdict,
)
from localmind.records import (
    MemoryRecord,
    MemoryType,
    Status,
    content_hash,
    event_and_fact,
    held_until,
    restatements,
)
from localmind.ringbuffer import RingBuffer, ShortTerm
from localmind.secrets_check import VERDICT_FOR, person_said, with_verdict, withheld
from localmind.statement import read
from localmind.store import SqliteStore, StoredMemory
from localmind.store.forgotten import Told
from localmind.superseded import ask_about_other_copies

_REINFORCE_CONFIDENCE = 0.05
# How the reason of a replaced text told again begins (front ends say it as it is).
TOLD_AGAIN = "you said this before"
# How the reason of a dated memory older than its neighbour begins: stored as that memory's
# earlier version (the model found they contradict), or queued as perhaps one (front ends
# say so instead of "it may contradict", which reads as a change).
EARLIER_VERSION = "an earlier version of a memory made later"
MAY_BE_EARLIER = "may be an earlier version of a memory made later"
# How far apart two tellings of the same event may be and still be one telling (a repeat of the
# same import line); further apart, it happened again ("Went running" on 05-01 and on 05-08).
_SAME_MOMENT = 5.0
# An undated event is told now: told again within this many seconds it is the same occasion (an
# assistant saving it twice in one conversation); later, it happened again ("Went for a run
# along the Tagus" today and next week are two runs, not one run told twice).
_SAME_OCCASION = 12 * 3600.0
# How near an edit's new text must be to the other side of a pending conflict to settle it,
# beside holding what only that side says: "I live in Lisbon" is 0.87 from "I moved to Lisbon",
# "My rent is 1400 euros" 0.78 from "Rent went up to 1400 €"; a text that merely shares the
# other side's number ("shared fact, as I put it at 1" / "shared fact number 1") 0.62.
SETTLE_COSINE = 0.7


@dataclass(frozen=True, slots=True)
class NewMemory:
    """One memory to add in a batch (see :meth:`Memory.remember_many`)."""

    content: str
    type: MemoryType | str = MemoryType.LONG_TERM
    importance: float | None = None
    metadata: dict[str, Any] | None = None
    created_at: float | None = None
    source: str | None = None  # None: the writer's (Writer.source)


@dataclass(frozen=True, slots=True)
class Edit:
    """What :meth:`Memory.update` changes in a memory; None leaves a part as it is."""

    content: str | None = None
    type: MemoryType | str | None = None
    importance: float | None = None
    confidence: float | None = None
    metadata: dict[str, Any] | None = None
    pinned: bool | None = None
    expires_at: float | None = None


@dataclass(frozen=True, slots=True)
class Batch:
    """What :meth:`Memory.remember_many_explained` wrote: the memory holding each item and
    what was decided for it, in order, and the ids the capacity limit archived to make room."""

    records: list[MemoryRecord]
    evicted: list[str]
    decisions: list[Decision] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)  # why, for each item ("" if nothing to say)

    def count(self, decision: Decision) -> int:
        return sum(1 for made in self.decisions if made is decision)

    @property
    def reinforced(self) -> int:
        """Items that only reinforced an active memory with the same text."""
        return self.count(Decision.REINFORCED)

    @property
    def merged(self) -> int:
        """Items merged into a memory they restate (stored or earlier in the batch)."""
        return self.count(Decision.MERGED)

    @property
    def queued(self) -> int:
        """Items stored with a conflict queued for review (they may change a memory)."""
        return self.count(Decision.QUEUED)

    @property
    def outdated(self) -> int:
        """Items a memory already replaced (its earlier version, or a text a person resolved
        away): not stored again."""
        return self.count(Decision.OUTDATED)


def by_agent(item: NewMemory) -> bool:
    """Whether an assistant wrote this over MCP (the MCP server marks its memories so)."""
    return (item.metadata or {}).get("source") == AGENT_SOURCE


def validate_new(item: NewMemory, settings: Settings, now: float | None = None) -> NewMemory:
    """``item`` checked and with defaults filled in, or :class:`InvalidInput` saying what is
    wrong (:class:`InFuture` for a date after ``now``, the wall clock by default;
    :class:`TooEarly` before 1980, ``validation.EARLIEST_TOLD``). Needs no
    open store, so callers can check input before touching one."""
    limits = settings.limits
    importance = (
        settings.default_importance
        if item.importance is None
        else validation.unit_interval(item.importance, "importance")
    )
    if item.created_at is not None:
        validation.timestamp(item.created_at, "created_at")
        validation.not_in_future(item.created_at, "created_at", time.time() if now is None else now)
        validation.not_too_early(item.created_at, "created_at")
    return replace(
        item,
        content=validation.content(item.content, limits),
        type=validation.memory_type(item.type),
        importance=importance,
        metadata=validation.metadata(item.metadata, limits),
        source=None if item.source is None else validation.source(item.source),
    )


class Writer:
    """Changes one namespace of a store (and its session buffer). Owned by a ``Memory``, whose
    methods document what each change does."""

    def __init__(
        self,
        store: SqliteStore,
        embedder: Embedder,
        lifecycle: Lifecycle,
        governance: Governance,
        short_term: RingBuffer[ShortTerm],
        *,
        namespace: str,
        settings: Settings,
        clock: Callable[[], float],
        check_ready: Callable[[], None],
    ) -> None:
        self._store = store
        self.embedder = embedder
        self._lifecycle = lifecycle
        self._governance = governance
        self._short_term = short_term
        self.namespace = namespace
        self.settings = settings
        self._clock = clock
        self._check_ready = check_ready  # raises while the store awaits reindexing
        self.source = ""  # where what this writer adds comes from (Memory.source)
        self._deferred: _DeferredCapacity | None = None  # inside all_or_nothing
        # Vectors of texts :meth:`prepare` embedded before a long write took the lock, by
        # content hash; dropped when the outermost all_or_nothing ends.
        self._prepared: dict[str, Vectors] = {}

    @contextmanager
    def all_or_nothing(self, *, archive: bool = True) -> Iterator[list[str]]:
        """The batch writes made inside are all kept or none: one write transaction
        (``SqliteStore.all_or_nothing``), so Ctrl-C, an error or a killed process leaves the
        store as it was. The capacity limit is enforced once, when the outermost one ends (a
        large import no longer archives its own first lines as it goes): the list yielded
        then holds the ids it archived (empty for an inner one: the outer one reports).
        Without ``archive``, ending over the capacity raises :class:`WouldArchive` instead,
        and nothing is kept."""
        if self._deferred is not None:
            with self._store.all_or_nothing():
                yield []
            return
        deferred = self._deferred = _DeferredCapacity()
        prepared_kept = False
        try:
            with self._store.all_or_nothing():
                yield deferred.evicted
                if not archive:
                    self._governance.refuse_over_capacity(self.namespace)
                deferred.evicted += self._governance.enforce_capacity(
                    self.namespace, agent_write=deferred.agent_write
                )
        except StaleDecisions:
            prepared_kept = True  # the caller decides again, with the same vectors
            raise
        finally:
            self._deferred = None
            if not prepared_kept:
                self._prepared = {}

    def prepare(self, items: Sequence[NewMemory], *, check: bool = True) -> None:
        """Do now, holding no lock, the slow part of writing ``items`` later in
        :meth:`all_or_nothing`: embed them (kept until it ends) and, with ``check``, read
        what each says and what its stored neighbours say (``statement.read`` keeps them).
        Under the lock what is left is the search, the comparisons and the writes: other
        programs' writes wait for the lock only that long (docs/design.md, "Imports that
        never surprise")."""
        validated = [validate_new(item, self.settings, self._clock()) for item in items]
        vectors = self.embed_documents([item.content for item in validated])
        facts = self._facts_stored()
        for item, vector in zip(validated, vectors, strict=True):
            self._prepared[content_hash(item.content)] = vector
            for stored, _ in self._stored_neighbours(item, vector, check, facts):
                read(stored.record.content)

    def _evict_at_end(self, items: Iterable[NewMemory]) -> None:
        """Note that ``items`` were written inside :meth:`all_or_nothing`: its capacity check
        at the end is an assistant's (which may only displace an assistant's memories) if any
        of them was."""
        assert self._deferred is not None, "only inside all_or_nothing"
        self._deferred.agent_write = self._deferred.agent_write or any(map(by_agent, items))

    # --- remembering --------------------------------------------------------------------------

    # --- texts the person forgot -------------------------------------------------------------

    def forgotten_among(self, items: Sequence[NewMemory]) -> list[float | None]:
        """For each item, when the person forgot its text in this namespace (None: never).
        An event is recognised on the moment it was told for, a fact whatever its date."""
        told = [Told(item.content, item.type, item.created_at) for item in items]
        return self._store.forgotten_when(self.namespace, told)

    def refuse_forgotten(self, items: Sequence[NewMemory]) -> None:
        """:class:`ForgottenEarlier` when one of ``items`` tells a text the person forgot."""
        when = self.forgotten_among(items)
        positions = [number for number, at in enumerate(when, start=1) if at is not None]
        if not positions:
            return
        first = when[positions[0] - 1]
        assert first is not None
        which = (
            "This text was"
            if len(items) == 1
            else f"Item{'s' if len(positions) > 1 else ''} "
            + ", ".join(map(str, positions))
            + (" were" if len(positions) > 1 else " was")
        )
        raise ForgottenEarlier(
            f"{which} forgotten earlier (on {_day(first)}): not brought back; nothing was stored.",
            positions=positions,
            at=first,
        )

    def unforget(self, items: Sequence[NewMemory]) -> None:
        """The person brings these texts back on purpose: they are no longer ones they forgot
        (a later forget notes them again). Inside the write that stores them."""
        with self._store.db:
            for item in items:
                self._store.unforget(self.namespace, Told(item.content, item.type, item.created_at))

    def remember(self, new: NewMemory, *, allow_forgotten: bool = False) -> Outcome:
        self._check_ready()
        item = validate_new(new, self.settings, self._clock())
        if item.type is MemoryType.SHORT_TERM:
            # the session's buffer, never stored: what the person says now is kept for the
            # conversation, forgotten earlier or not (a chat turn must not fail on it)
            return Outcome(self._push_short_term(item), Decision.INSERTED)
        if not allow_forgotten:
            self.refuse_forgotten([item])
        elif self.forgotten_among([item]) != [None]:
            with self._store.all_or_nothing():
                self.unforget([item])
                return self.remember(item)
        hashed = content_hash(item.content)
        another_time = False
        if self._store.find_active_by_hash(self.namespace, hashed) is not None:
            with self._store.db:
                twin = self._reinforce_twin(hashed, item, alone=True)
            if twin is not None:
                return twin
            # The same event told at another time happened again: its own memory, not merged
            # into its twin (nor judged against it, which would call it a restatement).
            another_time = item.type is MemoryType.EPISODIC
        replaced = None if another_time else self._replaced(item, hashed)
        if replaced is not None:
            # (the current text's vector comes from the cache: it is stored)
            vector, current_vector = self.embed_documents(
                [item.content, replaced.current.record.content]
            )
            similarity = _cosine(vector, current_vector)
            neighbours = []
        else:
            vector = self.embed_documents([item.content])[0]
            neighbours = (
                []
                if another_time
                else self._lifecycle.neighbours(
                    self.namespace, vector, SUCCESSOR_NEIGHBOURS, item.content
                )
            )
        # Decided outside the transaction: the model, when asked, may take seconds.
        judged = self._another_occasion(item, neighbours)
        secret = withheld(item.content, item.metadata or {})
        proposal = self._lifecycle.propose(item.content, judged[:NEIGHBOURS], secret=secret)
        earlier = self._lifecycle.may_update(item.content, neighbours, secret=secret)
        with self._store.db:
            # Another process may have stored the same text while this one embedded it.
            twin = self._reinforce_twin(hashed, item, alone=True)
            if twin is not None:
                return twin
            # Read again under the lock (the current memory may have been forgotten).
            replaced = None if replaced is None else self._replaced(item, hashed)
            if replaced is not None:
                outcome = self._queue_told_again(item, hashed, vector, replaced, similarity)
            else:
                outcome = self._apply(proposal, earlier, item, hashed, vector)
            # Never the memory just written: a write that archives itself would say "remembered"
            # and keep nothing (an assistant's, when only the person's are left, is refused).
            evicted = self._governance.enforce_capacity(
                self.namespace, agent_write=by_agent(item), keep=outcome.record.id
            )
        return replace(outcome, evicted=tuple(evicted)) if evicted else outcome

    def _replaced(self, item: NewMemory, hashed: str) -> _Replaced | None:
        """The active memory that replaced ``item``'s text: the text is an earlier version of
        it, or a person resolved it away for it (keep-old, a merge). None when none did, for an
        event (told as it happened), and when the memory still holds the text among its
        restatements (a fuller telling took its place: the same fact, merged as usual)."""
        if item.type in (MemoryType.SHORT_TERM, MemoryType.EPISODIC):
            return None
        found = self._store.replaced_by(self.namespace, hashed)
        current = None if found is None else self._store.get(found.memory_id)
        if found is None or current is None or current.record.status is not Status.ACTIVE:
            return None
        if any(content_hash(text) == hashed for text in restatements(current.record.metadata)):
            return None
        return _Replaced(current, found.how, found.set_aside, found.at)

    def _queue_told_again(
        self,
        item: NewMemory,
        hashed: str,
        vector: Vectors,
        replaced: _Replaced,
        similarity: float,
    ) -> Outcome:
        """A text a memory replaced, told again one at a time: a person may really have changed
        back, so it is stored, but not silently made current: a conflict with the current memory
        asks them (take-new makes it current again; keep-old drops it)."""
        current = replaced.current.record
        record = self._insert(item, hashed, vector)
        reason = f"{TOLD_AGAIN}; {replaced.said(current.id, again=True)}"
        conflict_id = self._lifecycle.queue_conflict(current, record, similarity, reason)
        return Outcome(record, Decision.QUEUED, current, similarity, reason, conflict_id)

    def _known_earlier(self, item: NewMemory, hashed: str, act: _Acts) -> Outcome | None:
        """In a batch, a text a memory replaced is not stored again (a file imported again after
        its facts were resolved would bring them back, newer than their replacements). Not one
        dated after it was replaced: told again since, it is news, judged as any item."""
        replaced = act.replaced(item, hashed)
        if replaced is None or (item.created_at is not None and item.created_at > replaced.at):
            return None
        current = replaced.current.record
        reason = f"{replaced.said(current.id, again=False)}; kept the current text"
        return Outcome(current, Decision.OUTDATED, current, 1.0, reason)

    def _apply(
        self,
        proposal: Proposal,
        earlier: Sequence[tuple[StoredMemory, float]],
        item: NewMemory,
        hashed: str,
        vector: Vectors,
        act: _Acts | None = None,
    ) -> Outcome:
        """Carry out ``proposal``, note the memories the new one may be a later version of
        (``earlier``), and log the model's verdict if it was asked: inside the transaction
        (or, with a :class:`Decided` for ``act``, planned, to be written under the lock later)."""
        act = act or _WriteNow(self)
        outcome = self._carry_out(proposal, item, hashed, vector, act)
        if outcome.decision in (Decision.INSERTED, Decision.QUEUED):
            record = outcome.record
            before = [(m, s) for m, s in earlier if not _made_later(item, m.record)]
            act.link(record, before)
            # A dated item told after memories made later than it (an import, newest first)
            # is their earlier version, not their successor; so is one the model found to
            # contradict a memory made later (_carry_out stored it instead of overwriting).
            later = [(m, s) for m, s in earlier if _made_later(item, m.record)]
            contradicted = proposal.neighbour if proposal.relation is Relation.CONTRADICTS else None
            if contradicted is not None and all(
                m.record.id != contradicted.record.id for m, _ in later
            ):
                assert proposal.similarity is not None
                later.append((contradicted, proposal.similarity))
            told = StoredMemory(-1, record)  # only its id is read
            for newer, similarity in later:
                act.link(newer.record, [(told, similarity)])
        elif outcome.decision is Decision.MERGED:
            # A retelling of a change merged into the change's memory still says what it
            # changes: 我现在是…技术负责人 merged into "I'm now the tech lead …" is the later
            # version of 我…当主任工程师 too, which only the retelling's words reach (hyg13f).
            # Only what the merged memory was made after: it is never a later version of a
            # memory made after it.
            merged = outcome.record
            before = [
                (m, s)
                for m, s in earlier
                if m.record.id != merged.id and m.record.created_at < merged.created_at
            ]
            if before:
                act.link(merged, before)
        if proposal.verdict is not None and proposal.verdict.asked:
            assert proposal.neighbour is not None and proposal.similarity is not None
            act.log_verdict(
                proposal.neighbour.record, outcome.record.id, proposal.similarity, proposal.verdict
            )
        return outcome

    def _carry_out(
        self, proposal: Proposal, item: NewMemory, hashed: str, vector: Vectors, act: _Acts
    ) -> Outcome:
        """Do what ``proposal`` says, inside the write transaction (or plan it: ``act``)."""
        neighbour, similarity = proposal.neighbour, proposal.similarity
        fresh = act.get(neighbour.record.id) if neighbour else None
        # Nothing near, or the neighbour stopped being active while the LLM was thinking.
        if neighbour is None or fresh is None or fresh.record.status is not Status.ACTIVE:
            return Outcome(act.insert(item, hashed, vector), Decision.INSERTED)
        assert similarity is not None
        related, why = neighbour.record, proposal.why
        if proposal.relation is Relation.SAME and fresh.record.secret != withheld(
            item.content, dict(item.metadata or {})
        ):
            # A secret told with a plain fact ("I like hiking, my Strava password is …") merged
            # into "I like hiking" would withhold the plain fact from assistants too (and a
            # plain text merged into a secret would be withheld): each stays its own memory.
            return Outcome(act.insert(item, hashed, vector), Decision.INSERTED, related, similarity)
        if proposal.relation is Relation.SAME:
            fuller = (hashed, vector) if proposal.keeps_new_text else None
            merged = act.merge(fresh, item.content, similarity, fuller)
            # a retelling of one side of a pending conflict names it (if still pending)
            joined = proposal.joins is not None and any(
                c.id == proposal.joins for c in self._store.pending_conflicts_of(merged.id)
            )
            conflict_id = proposal.joins if joined else None
            return Outcome(merged, Decision.MERGED, related, similarity, why, conflict_id)
        if proposal.relation is Relation.CONTRADICTS and _made_later(item, fresh.record):
            # Told with a date before the memory it contradicts was made (an import of old
            # notes): the older fact must not replace the newer one. Stored as its earlier
            # version: _apply notes the newer one as its successor, so recall answers with the
            # newer, and a question about that time still finds the older (docs/design.md).
            record = act.insert(item, hashed, vector)
            reason = f"{EARLIER_VERSION} (it contradicts it: {why})"
            return Outcome(record, Decision.INSERTED, related, similarity, reason)
        if proposal.relation is Relation.CONTRADICTS and event_and_fact(fresh.record, item):
            # a model's "contradicts" between an event and a fact overwrites neither: what
            # happened one day is no earlier version of what holds (review13 J10)
            record = act.insert(item, hashed, vector)
            reason = f"an event and a fact: stored beside it, neither replaced ({why})"
            return Outcome(record, Decision.INSERTED, related, similarity, reason)
        if proposal.relation is Relation.CONTRADICTS:
            made = self._clock() if item.created_at is None else float(item.created_at)
            record = act.overwrite(fresh, item.content, hashed, vector, similarity, why, made)
            return Outcome(record, Decision.OVERWRITTEN, related, similarity, why)
        record = act.insert(item, hashed, vector)
        if proposal.relation is Relation.COMPATIBLE:
            return Outcome(
                record,
                Decision.INSERTED,
                related,
                similarity,
                why,
                may_restate=proposal.may_restate,
            )
        # The conflict row links both memories, the earlier made as the existing one (take-new
        # keeps the later, whatever order they were told in); the reason says why it is queued.
        if _made_later(item, fresh.record):
            reason = f"{MAY_BE_EARLIER}: {why}"
            older, newer = record, fresh.record
        else:
            reason = f"may contradict the older memory: {why}"
            older, newer = fresh.record, record
        conflict_id = act.queue(older, newer, similarity, reason)
        return Outcome(record, Decision.QUEUED, related, similarity, reason, conflict_id)

    def remember_many(
        self,
        items: Iterable[NewMemory],
        progress: Progress | None,
        *,
        check: bool = True,
        allow_forgotten: bool = False,
    ) -> Batch:
        """All of ``items`` or, if anything stops it (an error, Ctrl-C, a killed process),
        none: the store and the session's buffer stay as they were (:meth:`all_or_nothing`).
        Embedded, and with ``check`` judged (:meth:`decide`), before the write lock is taken,
        so other programs' writes wait only for the writes; within an outer
        :meth:`all_or_nothing` (which holds the lock already), or past ``DECIDED_AHEAD``
        items, judged under it as before. An item telling a text the person forgot stops
        the whole call (:class:`ForgottenEarlier`) unless ``allow_forgotten``."""
        items = self._validated(items)
        if not allow_forgotten:
            self.refuse_forgotten(items)
        elif any(at is not None for at in self.forgotten_among(items)):
            with self.all_or_nothing() as evicted:
                self.unforget(items)
                written = self.remember_many(items, progress, check=check)
            return replace(written, evicted=evicted)
        buffered = {kept.record.id for kept in self._short_term}
        try:
            if self._deferred is not None or len(items) > DECIDED_AHEAD:
                with self.all_or_nothing() as evicted:
                    written = self._remember_many(items, progress, check)
            else:
                written, evicted = self._decided_then_written(items, progress, check)
        except BaseException:
            self._short_term.remove_if(lambda kept: kept.record.id not in buffered)
            raise
        return replace(written, evicted=evicted)

    def _decided_then_written(
        self, items: list[NewMemory], progress: Progress | None, check: bool
    ) -> tuple[Batch, list[str]]:
        """:meth:`remember_many` with the embedding and the judging before the write lock:
        decided (:meth:`decide`), then written (:meth:`apply_decided`); decided again when
        another program changed meanwhile what the decisions read, and the last of
        ``DECIDING_ATTEMPTS`` times judged under the lock, so it always ends."""
        self._check_ready()
        validated = self._validated(items)  # a bad item named before anything is embedded
        try:
            for start in range(0, len(validated), EMBED_BATCH):
                contents = [item.content for item in validated[start : start + EMBED_BATCH]]
                for text, vector in zip(contents, self.embed_documents(contents), strict=True):
                    self._prepared[content_hash(text)] = vector
                if progress:
                    progress(len(contents))
            attempt = 1
            while True:
                # (without check nothing is judged: only the embedding moves before the lock)
                plan = self.decide([validated], check=check) if check else None
                try:
                    with self.all_or_nothing() as evicted:
                        if plan is None:
                            written = self._remember_many(validated, None, check)
                        else:
                            last = attempt >= DECIDING_ATTEMPTS
                            [written] = self.apply_decided(plan, judge_again=last)
                    return written, evicted
                except StaleDecisions:
                    attempt += 1
        finally:
            self._prepared = {}

    def decide(
        self, batches: Iterable[Sequence[NewMemory]], *, check: bool = True
    ) -> Decided | None:
        """Judge ``batches`` one after another as :meth:`remember_many` would, holding no
        lock: against the store as it is and the batches' earlier items, writing nothing.
        What was decided is written by :meth:`apply_decided`, under the lock: other programs'
        writes then wait only for the writes, not for the judging (docs/design.md, "An import
        that never blocks other writers"). None when a decision cannot be made ahead."""
        self._check_ready()
        plan = Decided(self, check)
        try:
            for items in batches:
                validated = self._validated(items)
                outcomes: list[Outcome] = []
                for start in range(0, len(validated), EMBED_BATCH):
                    batch = validated[start : start + EMBED_BATCH]
                    vectors = self.embed_documents([item.content for item in batch])
                    stored = plan.neighbours(batch, vectors, plan.facts or self._facts_stored())
                    outcomes += self._judge_batch(batch, vectors, stored, plan, check)
                plan.items.append(validated)
                plan.batches.append(
                    Batch(
                        [outcome.record for outcome in outcomes],
                        [],
                        [outcome.decision for outcome in outcomes],
                        [outcome.reason for outcome in outcomes],
                    )
                )
        except _NotDecidable:
            return None
        return plan

    def apply_decided(self, plan: Decided, *, judge_again: bool = False) -> list[Batch]:
        """Write what :meth:`decide` decided, one :class:`Batch` per batch it was given:
        inside :meth:`all_or_nothing`, whose write lock is taken first. When another program
        changed meanwhile what the decisions read (``Decided.stale``), nothing is written and
        :class:`StaleDecisions` raised (leave the transaction, decide again), or, with
        ``judge_again``, the items are judged again here, under the lock."""
        assert self._deferred is not None, "only inside all_or_nothing"
        try:
            if plan.stale():
                raise StaleDecisions
            with self._store.db:  # (a savepoint: a stale write found on the way undoes all)
                for op in plan.ops:
                    op()
        except StaleDecisions:
            if not judge_again:
                raise
            return [self._remember_many(items, None, plan.check) for items in plan.items]
        for items in plan.items:
            self._evict_at_end(items)
        return plan.batches

    def _validated(self, items: Iterable[NewMemory]) -> list[NewMemory]:
        validated = []
        for position, item in enumerate(items, start=1):
            try:
                validated.append(validate_new(item, self.settings, self._clock()))
            except InvalidInput as error:
                raise type(error)(f"item {position}: {error}") from None  # (InFuture stays)
        return validated

    def _remember_many(
        self, items: Iterable[NewMemory], progress: Progress | None, check: bool
    ) -> Batch:
        self._check_ready()
        validated = self._validated(items)
        results: list[MemoryRecord] = []
        decisions: list[Decision] = []
        reasons: list[str] = []
        for start in range(0, len(validated), EMBED_BATCH):
            batch = validated[start : start + EMBED_BATCH]
            vectors = self.embed_documents([item.content for item in batch])
            # Searched before this batch's writes (the in-memory index follows the import's
            # transaction); the batch's own items are compared in memory.
            facts = self._facts_stored()
            stored = [
                self._stored_neighbours(item, vector, check, facts)
                for item, vector in zip(batch, vectors, strict=True)
            ]
            with self._store.db:
                outcomes = self._judge_batch(batch, vectors, stored, _WriteNow(self), check)
                self._evict_at_end(batch)  # once, when the outermost all_or_nothing ends
            results += [outcome.record for outcome in outcomes]
            decisions += [outcome.decision for outcome in outcomes]
            reasons += [outcome.reason for outcome in outcomes]
            if progress:
                progress(len(batch))
        return Batch(results, [], decisions, reasons)

    def _judge_batch(
        self,
        batch: Sequence[NewMemory],
        vectors: Sequence[Vectors],
        stored: Sequence[list[tuple[StoredMemory, float]]],
        act: _Acts,
        check: bool,
    ) -> list[Outcome]:
        """Judge each of ``batch`` as remember judges, against its ``stored`` neighbours and
        the batch's items before it, and carry out (``_WriteNow``) or plan (``Decided``) what
        was decided, in order."""
        told = _Told(vectors)
        outcomes: list[Outcome] = []
        for position, (item, vector) in enumerate(zip(batch, vectors, strict=True)):
            if item.type is MemoryType.SHORT_TERM:
                outcomes.append(Outcome(act.short_term(item, vector), Decision.INSERTED))
                continue
            hashed = content_hash(item.content)
            outcome = act.twin(hashed, item)
            if outcome is None and _judged(item, check):
                outcome = self._known_earlier(item, hashed, act)
            if outcome is None and _judged(item, check):
                neighbours = told.neighbours(
                    position, stored[position], self._lifecycle.floor(item.content)
                )
                if item.type is MemoryType.EPISODIC:  # (the batch's events too)
                    neighbours = [n for n in neighbours if n[0].record.type in FACTS]
                secret = withheld(item.content, item.metadata or {})
                proposal = self._lifecycle.propose(
                    item.content,
                    neighbours[:NEIGHBOURS],
                    ask_model=False,
                    secret=secret,
                    planned=act.planned_pairs,
                )
                earlier = self._lifecycle.may_update(item.content, neighbours, secret=secret)
                act.judged(item, vector, neighbours, proposal, earlier)
                outcome = self._apply(proposal, earlier, item, hashed, vector, act)
            elif outcome is None:
                outcome = Outcome(act.insert(item, hashed, vector), Decision.INSERTED)
            told.note(position, outcome)
            outcomes.append(outcome)
        return outcomes

    def _stored_neighbours(
        self, item: NewMemory, vector: Vectors, check: bool, facts: bool
    ) -> list[tuple[StoredMemory, float]]:
        """The stored memories ``item`` is judged against in a batch (none without ``check``;
        for an event, the facts: none when ``facts`` says none are stored)."""
        if not _judged(item, check):
            return []
        types = FACTS if item.type is MemoryType.EPISODIC else None
        if types and not facts:
            return []  # (a transcript into a store of events: no search at all)
        return self._lifecycle.neighbours(
            self.namespace, vector, SUCCESSOR_NEIGHBOURS, item.content, types
        )

    def _facts_stored(self) -> bool:
        """Whether this namespace holds an active fact (what a batch's events are judged
        against)."""
        return self._store.holds_active(self.namespace, [str(kind) for kind in FACTS])

    def embed_documents(self, contents: Sequence[str]) -> list[Vectors]:
        """Vectors for ``contents``. The embedding cache is keyed by content hash: text already
        stored (in any namespace) reuses its vector, and repeats within the call are embedded
        once; only the rest reach the model."""
        hashes = [content_hash(text) for text in contents]
        found: dict[str, Vectors] = {}
        for hashed in dict.fromkeys(hashes):
            if (prepared := self._prepared.get(hashed)) is not None:
                found[hashed] = prepared
                continue
            blob = self._store.cached_vector(hashed)
            if blob is not None:
                found[hashed] = np.frombuffer(blob, dtype=np.float32)
        missing: dict[str, str] = {}
        for hashed, text in zip(hashes, contents, strict=True):
            if hashed not in found:
                missing.setdefault(hashed, text)
        if missing:
            fresh = self.embedder.embed_documents([as_told(text) for text in missing.values()])
            found.update(zip(missing, fresh, strict=True))
        return [found[hashed] for hashed in hashes]

    def _new_record(self, item: NewMemory, hashed: str) -> MemoryRecord:
        now = self._clock()
        created = now if item.created_at is None else float(item.created_at)
        return MemoryRecord(
            id=str(ULID.from_timestamp(created)) if created > 0 else str(ULID()),
            content=item.content,
            type=MemoryType(item.type),
            namespace=self.namespace,
            metadata=_verdict_tied(item.content, dict(item.metadata or {})),
            importance=float(item.importance if item.importance is not None else 0.5),
            confidence=self.settings.default_confidence,
            created_at=created,
            updated_at=created,
            content_hash=hashed,
            source=self.source if item.source is None else item.source,
        )

    def _insert(self, item: NewMemory, hashed: str, vector: Vectors) -> MemoryRecord:
        record = self._new_record(item, hashed)
        self._store.insert(record, vector)
        return record

    def _reinforce_twin(
        self, hashed: str, item: NewMemory, *, alone: bool = False
    ) -> Outcome | None:
        """Reinforce the active memory with the same text, if there is one. Call it inside the
        write transaction: read before it, the memory may have changed or been forgotten by
        another process since."""
        existing = self._twin(hashed, item, alone)
        return None if existing is None else self._reinforce(existing, item)

    def _reinforce(self, existing: StoredMemory, item: NewMemory) -> Outcome:
        """Raise the confidence of ``existing``, which ``item`` repeats (write transaction);
        not for the same telling read again (:meth:`same_telling`)."""
        record = existing.record
        if self.same_telling(record, item):
            return Outcome(record, Decision.REINFORCED, record, 1.0)
        reinforced = self._store.update_fields(
            existing,
            "same content remembered again",
            confidence=min(1.0, record.confidence + _REINFORCE_CONFIDENCE),
            importance=max(record.importance, float(item.importance or 0.0)),
            updated_at=self._clock(),
        )
        return Outcome(reinforced, Decision.REINFORCED, existing.record, 1.0)

    def same_telling(self, record: MemoryRecord, item: NewMemory) -> bool:
        """Whether ``item``, the text of ``record`` again, is the same telling read again
        rather than the person saying it anew: a line dated the moment the memory was told,
        or an undated line of the file the memory was imported from (the memory's source is
        this import's). Re-importing a file raised the confidence of every memory in it each
        time (review15a TW14). A line dated otherwise is a telling of its own (a chat where
        the person said it again a week later)."""
        if item.created_at is not None:
            return abs(item.created_at - record.created_at) < 1.0
        source = self.source if item.source is None else item.source
        return source.startswith("import:") and record.source == source

    def _twin(self, hashed: str, item: NewMemory, alone: bool) -> StoredMemory | None:
        """The active memory ``item`` repeats: the one with the same text; for an event, the
        one told on the same occasion (the same run on another day is another run). ``alone``:
        told by itself (remember), not as a line of an import."""
        if item.type is not MemoryType.EPISODIC:
            return self._store.find_active_by_hash(self.namespace, hashed)
        return next(
            (
                twin
                for twin in self._store.active_by_hash(self.namespace, hashed)
                if self._same_occasion(item, twin.record, alone)
            ),
            None,
        )

    def _same_occasion(self, item: NewMemory, other: MemoryRecord, alone: bool) -> bool:
        """Whether the event ``item`` and the memory ``other`` were told on one occasion: a
        dated item at the same moment; an undated one told by itself (now) within half a day;
        an undated line of an import always (the same file imported again)."""
        if item.created_at is not None:
            return abs(other.created_at - float(item.created_at)) <= _SAME_MOMENT
        return not alone or abs(other.created_at - self._clock()) <= _SAME_OCCASION

    def _another_occasion(
        self, item: NewMemory, neighbours: list[tuple[StoredMemory, float]]
    ) -> list[tuple[StoredMemory, float]]:
        """``neighbours`` without the events told on another occasion than the event
        ``item``: "Went for a run along the Tagus" next week is no restatement of this week's
        run, and merging it would lose the second run."""
        if item.type is not MemoryType.EPISODIC:
            return neighbours
        return [
            (stored, similarity)
            for stored, similarity in neighbours
            if stored.record.type is not MemoryType.EPISODIC
            or self._same_occasion(item, stored.record, alone=True)
        ]

    def _push_short_term(self, item: NewMemory, vector: Vectors | None = None) -> MemoryRecord:
        record = self._short_term_record(item)
        if vector is None:
            vector = self.embed_documents([record.content])[0]
        self._short_term.push(ShortTerm(record, vector))
        return record

    def _short_term_record(self, item: NewMemory) -> MemoryRecord:
        record = self._new_record(item, content_hash(item.content))
        record.secret = withheld(record.content, record.metadata)  # the store marks the rest
        return record

    # --- changing and forgetting --------------------------------------------------------------

    def update(
        self, memory_id: str, edit: Edit, reason: str, expected: str | None = None
    ) -> MemoryRecord:
        return self.update_explained(memory_id, edit, reason, expected).record

    def update_explained(
        self, memory_id: str, edit: Edit, reason: str, expected: str | None = None
    ) -> Settlement:
        """:meth:`update`; a new text that says what the other side of a pending conflict says
        settles that conflict (``Settlement.settled``: see :meth:`_settled_by`). ``expected``:
        the text the change was decided on (what the caller was shown); if the memory says
        something else now, under the write lock, nothing is changed (:class:`ChangedMeanwhile`)."""
        self._check_ready()
        limits = self.settings.limits
        fields: dict[str, Any] = {}
        if edit.type is not None:
            fields["type"] = validation.memory_type(edit.type)
            if fields["type"] is MemoryType.SHORT_TERM:
                raise InvalidInput("A stored memory cannot become short_term.")
        if edit.importance is not None:
            fields["importance"] = validation.unit_interval(edit.importance, "importance")
        if edit.confidence is not None:
            fields["confidence"] = validation.unit_interval(edit.confidence, "confidence")
        if edit.metadata is not None:
            fields["metadata"] = validation.metadata(edit.metadata, limits)
        if edit.pinned is not None:
            fields["pinned"] = bool(edit.pinned)
        if edit.expires_at is not None:
            fields["expires_at"] = validation.timestamp(edit.expires_at, "expires_at")
        new_content = None if edit.content is None else validation.content(edit.content, limits)
        stored = self._get_changeable(memory_id)
        _as_read(stored, expected, "Nothing was changed.")
        vector = None
        if new_content is not None and new_content != stored.record.content:
            vector = self.embed_documents([new_content])[0]
        with self._store.db:
            # Read again under the write lock: another process may have changed or forgotten
            # the memory while its new text was embedded.
            stored = self._get_changeable(memory_id)
            _as_read(stored, expected, "Nothing was changed.")
            now = self._clock()
            record = stored.record
            settled: list[tuple[int, StoredMemory]] = []
            repointed: tuple[int, ...] = ()
            closed: tuple[tuple[int, str], ...] = ()
            if vector is not None and new_content is not None and new_content != record.content:
                before = (record.content, record.created_at)
                settled = self._settled_by(stored, new_content, vector)
                made = max([record.created_at] + [o.record.created_at for _, o in settled])
                for conflict_id, other in settled:
                    self._close_conflict(conflict_id, Resolution.MERGE)
                    more = self._carry_over(other.record.id, record.id, Resolution.MERGE, vector)
                    repointed, closed = repointed + more[0], closed + more[1]
                    # read before it is set aside: its earlier texts and its own (review15a TW9)
                    lineage = [*self._lineage(other.record.id), other.record.content]
                    lineage = [text for text in lineage if text != new_content]
                    self._set_aside(record.id, other, Resolution.MERGE)
                    self._carry_lineage(stored, lineage, other.record.id, reason)
                record = self._store.replace_content(
                    stored,
                    new_content,
                    content_hash(new_content),
                    vector,
                    reason,
                    now,
                    made if settled else None,
                )
                if edit.metadata is None:  # metadata the edit gives is the person's to keep
                    # a new text (a correction) replaces what the old one said, restatements
                    # too; one that settled a change keeps the old words to be found by
                    record = self._lifecycle.drop_restatements(
                        stored, reason, before if settled else None
                    )
            if fields:
                record = self._store.update_fields(stored, reason, updated_at=now, **fields)
        return Settlement(record, repointed, closed, tuple(c for c, _ in settled))

    def _settled_by(
        self, updated: StoredMemory, text: str, vector: Vectors
    ) -> list[tuple[int, StoredMemory]]:
        """The pending conflicts of ``updated`` that its new ``text`` settles, each with its
        other memory: the person wrote down what the other side says (its very text, or the
        same fact in other words: "I live in Lisbon" for "I moved to Lisbon"), so the question
        is answered. Settled as a merge with the person's text: the other memory is set aside
        for this one (told again, it is recognised). A text that says something else leaves
        the conflict pending (fixing a typo in the old fact answers nothing), and so does one
        that only shares a name or number with the other side without saying what it says
        (``SETTLE_COSINE``)."""
        hashed = content_hash(text)
        found: list[tuple[int, StoredMemory]] = []
        for conflict in self._store.pending_conflicts_of(updated.record.id):
            other_id = (
                conflict.candidate_id
                if conflict.existing_id == updated.record.id
                else conflict.existing_id
            )
            other = self._store.get(other_id)
            if other is None or other.record.status is not Status.ACTIVE:
                continue
            before, said = updated.record.content, other.record.content
            if other.record.content_hash == hashed or (
                _takes_side(text, said, before)
                # (the other side's vector comes from the cache: it is stored)
                and _cosine(vector, self.embed_documents([said])[0]) >= SETTLE_COSINE
            ):
                found.append((conflict.id, other))
        return found

    def _get_changeable(self, memory_id: str) -> StoredMemory:
        stored = self.get_stored(memory_id)
        if stored.record.status is Status.DELETED:
            gone = self.gone(memory_id) or "was forgotten"
            raise InvalidInput(f"Memory {memory_id} {gone}; it cannot be changed.")
        return stored

    def gone(self, memory_id: str) -> str | None:
        """What became of a forgotten memory that a person's resolution dropped, in words to
        follow its id: "was merged into memory 01H… (a conflict resolved merge)"; None when it
        was simply forgotten. The store knows which resolution dropped it and for which memory
        (the conflict row stays)."""
        dropped = self._store.dropped_by(memory_id)
        if dropped is None:
            return self._folded_elsewhere(memory_id)
        resolution, kept_id = dropped
        kept = self._store.get(kept_id)
        since = "" if kept and kept.record.status is Status.ACTIVE else ", since forgotten too"
        how = {
            str(
                Resolution.MERGE
            ): "was merged into memory {kept} (a conflict resolved merge{since})",
            str(Resolution.TAKE_NEW): "was merged into memory {kept}: its text became that "
            "memory's current version (a conflict resolved take-new{since})",
            str(Resolution.KEEP_OLD): "was set aside for memory {kept} and forgotten (a conflict "
            "resolved keep-old{since})",
        }[resolution]
        return how.format(kept=kept_id, since=since)

    def _folded_elsewhere(self, memory_id: str) -> str | None:
        """What became of a memory folded into another by sync (the same fact told on two
        laptops) or by a resolution on another laptop: its id still leads to the memory that
        holds its text. None when it was simply forgotten."""
        if self._store.forgotten_for_real(memory_id):
            return None
        for kept_id, _ in self._store.folded_into(memory_id):
            kept = self._store.get(kept_id)
            since = "" if kept and kept.record.status is Status.ACTIVE else ", since forgotten too"
            return f"was merged into memory {kept_id} when the laptops synced{since}"
        return None

    def forget(self, memory_id: str) -> None:
        if self._short_term.remove_if(lambda item: item.record.id == memory_id):
            return
        self.get_stored(memory_id)  # an unknown id fails before waiting for the write lock
        with self._store.db:
            stored = self.get_stored(memory_id)  # as it is now, under the write lock
            if stored.record.status is Status.DELETED:
                return
            texts = [stored.record.content] + [v[1] for v in self._store.versions(memory_id)]
            self._forget_stored(stored)
            self._store.purge_forgotten()
        # Its texts (current and earlier) kept in this session's buffer go too.
        hashes = {content_hash(text) for text in texts}
        self._short_term.remove_if(lambda item: item.record.content_hash in hashes)
        self._store.truncate_log()

    def _forget_stored(
        self, stored: StoredMemory, into: str | None = None, set_aside_for: str | None = None
    ) -> None:
        """``into``: a resolution folds the memory into that one; ``set_aside_for``: a keep-old
        dropped it for that one (see ``SqliteStore.erase``)."""
        # its pending conflicts end with it
        self._store.erase(stored, self._clock(), into, set_aside_for)

    def clear(self) -> int:
        removed = len(self._short_term)
        self._short_term.clear()
        with self._store.db:
            for stored in list(self._store.iter_memories(self.namespace, status=None)):
                if stored.record.status is not Status.DELETED:
                    self._forget_stored(stored)
                    removed += 1
            if removed:
                self._store.purge_forgotten()
        self._store.truncate_log()
        return removed

    def unarchive(self, memory_id: str) -> tuple[MemoryRecord, list[str]]:
        stored = self._get_archived(memory_id)
        vector = self.embed_documents([stored.record.content])[0]
        with self._store.db:
            stored = self._get_archived(memory_id)  # as it is now, under the write lock
            now = self._clock()
            fields: dict[str, Any] = {"status": Status.ACTIVE, "updated_at": now}
            if stored.record.expires_at is not None and stored.record.expires_at <= now:
                fields["expires_at"] = None  # else the next maintenance archives it again
            record = self._store.update_fields(stored, "unarchived", **fields)
            self._store.reactivate(stored, vector)
            evicted = self._governance.enforce_capacity(self.namespace, keep=record.id)
        return record, evicted

    def _get_archived(self, memory_id: str) -> StoredMemory:
        stored = self.get_stored(memory_id)
        if stored.record.status is Status.DELETED:
            # forgotten here or on another laptop: say so, not "is deleted" (review11 U3)
            gone = self.gone(memory_id) or (
                "was forgotten (its text and history are erased, here or on another laptop)"
            )
            raise InvalidInput(f"Memory {memory_id} {gone}: there is nothing to bring back.")
        if stored.record.status is not Status.EXPIRED:
            raise InvalidInput(
                f"Memory {memory_id} is {stored.record.status}, not archived: only archived "
                "memories can be brought back (see localmind list --archived)."
            )
        return stored

    # --- feedback, versions, conflicts --------------------------------------------------------

    def feedback(
        self, memory_id: str, kind: Feedback | str, new_content: str | None
    ) -> MemoryRecord:
        return self.feedback_explained(memory_id, kind, new_content).record

    def feedback_explained(
        self,
        memory_id: str,
        kind: Feedback | str,
        new_content: str | None,
        expected: str | None = None,
    ) -> Settlement:
        """:meth:`feedback`; a correction that settles a pending conflict says so (see
        :meth:`update_explained`, and for ``expected``)."""
        try:
            kind = Feedback(str(kind).strip().lower())
        except ValueError:
            raise InvalidInput(
                f"Unknown feedback {kind!r}; use confirm, deny or correct."
            ) from None
        config = self.settings.lifecycle
        if kind is Feedback.CORRECT:
            if new_content is None:
                raise InvalidInput("A correction needs the corrected text.")
            edit = Edit(content=new_content, confidence=config.corrected_confidence)
            settlement = self.update_explained(memory_id, edit, "correct", expected)
            return replace(settlement, record=self._used(settlement.record))
        if new_content is not None:
            raise InvalidInput(f"{kind} takes no text; use correct to change the memory.")
        delta = config.confirm_delta if kind is Feedback.CONFIRM else config.deny_delta
        used = kind is Feedback.CONFIRM
        return Settlement(self.nudge_confidence(memory_id, delta, str(kind), used=used))

    def nudge_confidence(
        self, memory_id: str, delta: float, reason: str, *, used: bool = False
    ) -> MemoryRecord:
        """Move confidence by ``delta``; ``used``: the memory was really used (confirmed, or used
        in a chat turn and not corrected), which is what the ranking's frequency counts."""
        self._get_active(memory_id)  # a bad id fails before waiting for the write lock
        with self._store.db:
            # Read under the write lock: another process's change in between is not lost.
            stored = self._get_active(memory_id)
            record = self._lifecycle.adjust_confidence(stored, delta, reason)
            if used:
                self._store.count_use(record.id, self._clock())
        return self.get(record.id) if used else record

    def _used(self, record: MemoryRecord) -> MemoryRecord:
        with self._store.db:
            self._store.count_use(record.id, self._clock())
        return self.get(record.id)

    def revert(self, memory_id: str, version: int) -> MemoryRecord:
        stored = self._get_active(memory_id)
        earlier = {v.version: v for v in self._lifecycle.versions(stored.record.id)}
        if version not in earlier:
            known = ", ".join(str(v) for v in sorted(earlier)) or "none"
            raise InvalidInput(
                f"Memory {memory_id} has no earlier version {version} (earlier versions: {known})."
            )
        return self.update(memory_id, Edit(content=earlier[version].content), reason="revert")

    def resolve_conflict(
        self,
        conflict_id: int,
        resolution: Resolution | str,
        merged_text: str | None,
        expected: Mapping[str, str] | None = None,
    ) -> Settlement:
        """Settle a conflict as the person (or an assistant) decided on its two texts: the
        texts read here, and ``expected`` (memory id → the text the caller was shown, when it
        was shown them earlier). If either side says something else under the write lock
        (another program updated it meanwhile), nothing is settled (:class:`ChangedMeanwhile`):
        a take-new would otherwise write the text read before that update, and erase the
        update with the newer memory (review11 T3)."""
        try:
            resolution = Resolution(str(resolution).strip().lower().replace("-", "_"))
        except ValueError:
            known = ", ".join(r.value for r in Resolution)
            raise InvalidInput(f"Unknown resolution {resolution!r}; use one of: {known}.") from None
        if resolution is Resolution.MERGE:
            if merged_text is None:
                raise InvalidInput(
                    "A merge needs the merged text (localmind resolve ID merge --text TEXT)."
                )
            merged_text = validation.content(merged_text, self.settings.limits)
        elif merged_text is not None:
            raise InvalidInput("Only a merge takes a text.")
        conflict = self._lifecycle.conflict(self.namespace, conflict_id)
        if resolution is Resolution.TAKE_NEW and event_and_fact(
            conflict.existing, conflict.candidate
        ):
            # take-new writes the newer text into the older memory: an event would become the
            # fact and leave recall as what happened that day (review13 J10)
            raise InvalidInput(
                f"Conflict #{conflict_id} pairs an event with a fact: one does not replace the "
                "other, so take-new would lose what happened. Answer keep-both (both stay), "
                "keep-old, or merge with a text of your own."
            )
        existing_id, candidate_id = conflict.existing.id, conflict.candidate.id
        read = {existing_id: conflict.existing.content, candidate_id: conflict.candidate.content}
        for side in (conflict.existing, conflict.candidate):
            shown = (expected or {}).get(side.id)
            if shown is not None and side.content != shown:
                raise _changed(conflict_id, side, shown)

        def close() -> None:
            """Close the conflict, under the write lock, if it and its sides are as read."""
            self._close_conflict(conflict_id, resolution)
            for memory_id, text in read.items():
                now = self._store.get(memory_id)
                # (a side forgotten meanwhile: the writes below say what became of it)
                if (
                    now is not None
                    and now.record.status is not Status.DELETED
                    and now.record.content != text
                ):
                    raise _changed(conflict_id, now.record, text)

        if resolution is Resolution.KEEP_BOTH:
            with self._store.db:
                close()
                # conflicts are local: a note on the newer memory that travels settles the
                # other laptops' copies of this pair, and keeps them from asking it again
                candidate = self._store.get(candidate_id)  # archived meanwhile: noted too
                if candidate is not None and candidate.record.status is not Status.DELETED:
                    self._store.update_fields(candidate, str(resolution), kept_with=existing_id)
            return Settlement(self.get(existing_id))
        if resolution is Resolution.KEEP_OLD:
            kept = self.embed_documents([conflict.existing.content])[0]  # cached: it is stored
            with self._store.db:
                close()
                repointed, closed = self._carry_over(candidate_id, existing_id, resolution, kept)
                self._set_aside(existing_id, self._get_active(candidate_id), resolution)
                self._store.purge_forgotten()
            self._store.truncate_log()
            return Settlement(self.get(existing_id), repointed, closed)
        text = conflict.candidate.content if resolution is Resolution.TAKE_NEW else merged_text
        assert text is not None
        vector = self.embed_documents([text])[0]
        with self._store.db:
            close()
            candidate = self._get_active(candidate_id)
            retold = restatements(candidate.record.metadata)  # read before it is forgotten
            lineage = self._lineage(candidate_id)  # likewise: its own earlier texts
            if resolution is Resolution.MERGE and candidate.record.content != text:
                # and its own text, which the merged one replaces: a detail trimmed while
                # writing the merge is kept in the history, as take-new keeps the older text
                # (review15a TW9)
                lineage.append(candidate.record.content)
            # The memory is now the newer fact, dated when that was told (a merge covers both:
            # the later of the two), so "when did I move?" and "newer than" read its date.
            made = candidate.record.created_at
            repointed, closed = self._carry_over(candidate_id, existing_id, resolution, vector)
            if resolution is Resolution.MERGE:
                self._set_aside(existing_id, candidate, resolution)
            else:  # take-new: its text lives on as the existing memory's
                self._forget_stored(candidate, into=existing_id)
            existing = self._get_active(existing_id)
            earlier = (existing.record.content, existing.record.created_at)
            if resolution is Resolution.MERGE:
                made = max(made, existing.record.created_at)
            self._carry_lineage(existing, lineage, candidate_id, str(resolution))
            record = self._store.replace_content(
                existing,
                text,
                content_hash(text),
                vector,
                str(resolution),
                self._clock(),
                made,
                source=candidate_id,
            )
            if resolution is Resolution.MERGE and made > earlier[1]:
                # dated by its later side: what the memory held before ended when its earlier
                # side was told, not then (records.held_until)
                noted = held_until(record.metadata, earlier[1])
                if noted != record.metadata:
                    record = self._store.update_fields(existing, str(resolution), metadata=noted)
            if resolution is Resolution.TAKE_NEW:
                # a merge's text is the person's, meant to cover both: it keeps them; take-new
                # keeps the newer text's own (a retelling told while the change waited)
                record = self._lifecycle.drop_restatements(
                    existing, str(resolution), earlier, retold
                )
            # the change may supersede another copy of the fact than the one asked about
            ask_about_other_copies(
                self._store,
                self._lifecycle,
                self.namespace,
                candidate_id,
                existing_id,
                "here",
                self.embed_documents,
                replaced=earlier[0],
            )
        return Settlement(record, repointed, closed)

    def _carry_over(
        self, dropped_id: str, kept_id: str, resolution: Resolution, kept: Vectors
    ) -> tuple[tuple[int, ...], tuple[tuple[int, str], ...]]:
        """The other pending conflicts of ``dropped_id``, which a resolution is about to drop
        for ``kept_id`` (call it after closing the conflict resolved): each now asks about the
        kept memory, which took the dropped one's place (after take-new or a merge it holds
        that text; after keep-old it is the fact the person kept), so a chain 950 → 1100 → 1400
        goes on as 950's memory → 1400. Ended instead, and said so: one whose newer side was
        set aside by keep-old (the change it asked about is rejected), and one that would ask
        what another pending conflict asks, or compare the kept memory with itself. ``kept``:
        the kept memory's vector once resolved (a re-pointed conflict shows how alike the two
        it now compares are)."""
        asked = {
            frozenset((c.existing_id, c.candidate_id))
            for c in self._store.pending_conflicts(self.namespace)
        }
        repointed: list[int] = []
        closed: list[tuple[int, str]] = []
        for other in self._store.pending_conflicts_of(dropped_id):
            pair = frozenset(
                kept_id if side == dropped_id else side
                for side in (other.existing_id, other.candidate_id)
            )
            if resolution is Resolution.KEEP_OLD and other.candidate_id == dropped_id:
                closed.append((other.id, f"its newer memory {dropped_id} was set aside"))
            elif len(pair) == 1:
                closed.append((other.id, "it asked about the same two memories"))
            elif pair in asked:
                closed.append((other.id, "it now asks what another pending conflict asks"))
            else:
                [side] = pair - {kept_id}
                similarity = self._similarity_to(kept, side, other.similarity)
                self._store.repoint_conflict(other.id, dropped_id, kept_id, similarity)
                asked.add(pair)
                repointed.append(other.id)
        # the closed ones end with the dropped memory ("gone"), as before
        return tuple(repointed), tuple(closed)

    def _lineage(self, memory_id: str) -> list[str]:
        """The earlier texts of ``memory_id``, oldest first."""
        return [content for _, content, _, _ in self._store.versions(memory_id)]

    def _carry_lineage(
        self, kept: StoredMemory, lineage: Sequence[str], folded_id: str, reason: str
    ) -> None:
        """A resolution folds ``folded_id`` into ``kept`` (take-new, a merge, an update that
        settles a conflict): the folded memory's own earlier texts (``lineage``, read before the
        fold erases them with it) become ``kept``'s versions before the new text is written,
        as updates that replicate. Else a chain 950 → 1100 → 1400 settled newest link first
        lost 1100: the middle memory held it as its history only, and was folded (review14
        K8). ``source``: a real forget of the folded memory on another laptop reaches these
        copies of its texts too."""
        texts = [text for text in lineage if text != kept.record.content]
        if not texts:
            return
        for text, vector in zip(texts, self.embed_documents(texts), strict=True):
            if text == kept.record.content:
                continue
            self._store.replace_content(
                kept, text, content_hash(text), vector, reason, self._clock(), source=folded_id
            )

    def _similarity_to(self, vector: Vectors, memory_id: str, otherwise: float) -> float:
        """The cosine of ``vector`` and the stored vector of ``memory_id``; ``otherwise`` when
        it has none (not active)."""
        stored = self._store.get(memory_id)
        blob = None if stored is None else self._store.vectors_for([stored.rowid]).get(stored.rowid)
        if blob is None:
            return otherwise
        return _cosine(vector, np.frombuffer(blob, dtype=np.float32))

    def _set_aside(self, kept_id: str, dropped: StoredMemory, resolution: Resolution) -> None:
        """A person's resolution drops ``dropped`` for ``kept_id``: it is forgotten, and its
        text's hash noted on the kept memory, so telling it again is recognised (see
        ``_replaced``) until the kept memory is forgotten too."""
        hashed = dropped.record.content_hash
        # a merge folds the dropped text into the kept memory; keep-old rejects it
        into = kept_id if resolution is Resolution.MERGE else None
        # (a keep-old says for which memory: an answer, which a later take-new elsewhere beats)
        aside = kept_id if resolution is Resolution.KEEP_OLD else None
        self._forget_stored(dropped, into, aside)
        self._store.set_aside(kept_id, hashed, str(resolution), self._clock())

    def _close_conflict(self, conflict_id: int, resolution: Resolution) -> None:
        # Checked again under the write lock: another process may have settled it meanwhile.
        self._lifecycle.conflict(self.namespace, conflict_id)
        self._lifecycle.close_conflict(conflict_id, resolution)

    # --- finding what to change ---------------------------------------------------------------

    def get(self, memory_id: str) -> MemoryRecord:
        """The memory with this id in the session buffer or the store, whatever its status."""
        for item in self._short_term:
            if item.record.id == memory_id:
                return item.record
        return self.get_stored(memory_id).record

    def get_stored(self, memory_id: str) -> StoredMemory:
        if not isinstance(memory_id, str) or not memory_id.strip():
            raise InvalidInput("A memory id is needed.")
        # (an id SQLite cannot even encode, such as a lone surrogate, names no memory)
        stored = self._store.get(memory_id.strip()) if validation.is_unicode(memory_id) else None
        if stored is None or stored.record.namespace != self.namespace:
            raise NotFound(f"No memory with id {memory_id!r}.")
        return stored

    def _get_active(self, memory_id: str) -> StoredMemory:
        stored = self.get_stored(memory_id)
        if stored.record.status is Status.DELETED:
            gone = self.gone(memory_id) or "was forgotten"
            raise InvalidInput(f"Memory {memory_id} {gone}; it cannot change.")
        if stored.record.status is not Status.ACTIVE:
            raise InvalidInput(f"Memory {memory_id} is {stored.record.status}; it cannot change.")
        return stored


def _as_read(stored: StoredMemory, expected: str | None, nothing: str) -> None:
    """Refuse a change decided on the text ``expected`` when the memory says something else
    now: another program changed it since (``nothing``: what was therefore not done)."""
    record = stored.record
    if expected is None or record.content == expected:
        return
    raise ChangedMeanwhile(
        f"Memory {record.id} now says {record.content!r} (version {record.version}), not "
        f"{expected!r}: another program or assistant changed it since it was read. {nothing}",
        memory_id=record.id,
        now=record.content,
        version=record.version,
    )


def _changed(conflict_id: int, now: MemoryRecord, then: str) -> ChangedMeanwhile:
    """A resolution refused: a side of the conflict says ``now``, not ``then`` (as read)."""
    return ChangedMeanwhile(
        f"Conflict #{conflict_id} changed since it was read: memory {now.id} now says "
        f"{now.content!r} (version {now.version}), not {then!r} (another program or assistant "
        "changed it). Nothing was settled; look at the conflict again (localmind conflicts) "
        "and resolve it once more if your answer still holds.",
        memory_id=now.id,
        now=now.content,
        version=now.version,
    )


@dataclass(frozen=True, slots=True)
class _Replaced:
    """The active memory that replaced a text told again, and how (see ``Writer._replaced``)."""

    current: StoredMemory
    how: str  # the version's reason (take_new, overwrite, correct …) or the resolution
    set_aside: bool  # a person's resolution dropped the text (keep-old, a merge)
    at: float  # when

    def said(self, memory_id: str, *, again: bool) -> str:
        """How the text was replaced, in words: ``again``, to the person who told it again."""
        if self.set_aside:
            told = "it was set aside for" if again else "already set aside for"
        else:
            told = "it was replaced by" if again else "already known as an earlier version of"
        return f"{told} memory {memory_id} ({self.how})"


@dataclass(slots=True)
class _DeferredCapacity:
    """What :meth:`Writer.all_or_nothing` checks at its end: whether an assistant wrote."""

    agent_write: bool = False
    evicted: list[str] = field(default_factory=list)


class _Told:
    """The memories a batch stored so far, for the items after them: what remember would
    find among its neighbours had they been told one by one. Cosines come from the batch's
    vectors (one matrix product), so no search runs inside the write transaction."""

    def __init__(self, vectors: Sequence[Vectors]) -> None:
        matrix = np.asarray(vectors, dtype=np.float32).reshape(len(vectors), -1)
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        unit = matrix / np.where(norms > 0, norms, 1.0)
        with blas.one_thread():  # 64 × 64: threads only wait on each other (40 ms, not 0.1)
            self._cosines = unit @ unit.T
        self._stored: dict[int, StoredMemory] = {}  # position → the memory it added
        self._changed: dict[str, StoredMemory] = {}  # memories a merge changed, by id

    def note(self, position: int, outcome: Outcome) -> None:
        record = outcome.record
        if outcome.decision in (Decision.INSERTED, Decision.QUEUED):
            # (no rowid: whatever changes a neighbour reads it again under the write lock)
            self._stored[position] = StoredMemory(-1, record)
        elif outcome.decision in (Decision.MERGED, Decision.REINFORCED):
            # A later item must see the merged memory as it is now (its restatements).
            self._changed[record.id] = StoredMemory(-1, record)

    def neighbours(
        self, position: int, stored: Sequence[tuple[StoredMemory, float]], threshold: float
    ) -> list[tuple[StoredMemory, float]]:
        """``stored`` (as this batch left them) and the batch's earlier memories at or above
        ``threshold``, nearest first."""
        found = [(self._changed.get(m.record.id, m), similarity) for m, similarity in stored]
        row = self._cosines[position]
        found += [
            (self._changed.get(memory.record.id, memory), float(row[earlier]))
            for earlier, memory in self._stored.items()
            if row[earlier] >= threshold
        ]
        found.sort(key=lambda pair: pair[1], reverse=True)
        return found[:SUCCESSOR_NEIGHBOURS]


#: Items embedded and judged before the write lock at most (:meth:`Writer.remember_many`,
#: ``localmind import``): a vector is 2 KiB (32 MiB in all), and a judged item is held until
#: it is written; more than this is judged under the lock, its memory bounded by a batch.
DECIDED_AHEAD = 16_384

#: How many times items are decided before the write lock when another program keeps
#: changing what they read; the last time they are judged again under the lock instead.
DECIDING_ATTEMPTS = 3


class StaleDecisions(Exception):
    """Another program changed what an import's decisions read between deciding them and the
    write lock: nothing was written; decide again (:meth:`Writer.apply_decided`)."""


class _NotDecidable(Exception):
    """A line's decision that cannot be planned ahead (a model's overwrite): the import judges
    under the write lock instead."""


class _Acts(Protocol):
    """How a judged line's decision is carried out: written at once, inside the write
    transaction (:class:`_WriteNow`), or planned, to be written under the lock later
    (:class:`Decided`). What it reads goes through it too, so that a plan sees its own lines."""

    @property
    def planned_pairs(self) -> Sequence[tuple[str, str]]:
        """(earlier id, newer id) of the conflicts decided and not yet written."""
        ...

    def get(self, memory_id: str) -> StoredMemory | None: ...
    def twin(self, hashed: str, item: NewMemory) -> Outcome | None: ...
    def replaced(self, item: NewMemory, hashed: str) -> _Replaced | None: ...
    def short_term(self, item: NewMemory, vector: Vectors) -> MemoryRecord: ...
    def judged(
        self,
        item: NewMemory,
        vector: Vectors,
        neighbours: list[tuple[StoredMemory, float]],
        proposal: Proposal,
        earlier: Sequence[tuple[StoredMemory, float]],
    ) -> None: ...
    def insert(self, item: NewMemory, hashed: str, vector: Vectors) -> MemoryRecord: ...
    def merge(
        self,
        fresh: StoredMemory,
        content: str,
        similarity: float,
        fuller: tuple[str, Vectors] | None,
    ) -> MemoryRecord: ...
    def overwrite(
        self,
        fresh: StoredMemory,
        content: str,
        hashed: str,
        vector: Vectors,
        similarity: float,
        why: str,
        made: float,
    ) -> MemoryRecord: ...
    def queue(
        self, older: MemoryRecord, newer: MemoryRecord, similarity: float, reason: str
    ) -> int | None: ...
    def link(self, record: MemoryRecord, earlier: Sequence[tuple[StoredMemory, float]]) -> None: ...
    def log_verdict(
        self, existing: MemoryRecord, candidate_id: str, similarity: float, verdict: Verdict
    ) -> None: ...


class _WriteNow:
    """Decisions written as they are made (inside the caller's write transaction)."""

    planned_pairs: Sequence[tuple[str, str]] = ()  # (the store holds every conflict queued)

    def __init__(self, writer: Writer) -> None:
        self._writer = writer
        self._lifecycle = writer._lifecycle

    def get(self, memory_id: str) -> StoredMemory | None:
        return self._writer._store.get(memory_id)

    def twin(self, hashed: str, item: NewMemory) -> Outcome | None:
        return self._writer._reinforce_twin(hashed, item)

    def replaced(self, item: NewMemory, hashed: str) -> _Replaced | None:
        return self._writer._replaced(item, hashed)

    def short_term(self, item: NewMemory, vector: Vectors) -> MemoryRecord:
        return self._writer._push_short_term(item, vector)

    def judged(
        self,
        item: NewMemory,
        vector: Vectors,
        neighbours: list[tuple[StoredMemory, float]],
        proposal: Proposal,
        earlier: Sequence[tuple[StoredMemory, float]],
    ) -> None:
        pass  # (written at once: nothing to judge again)

    def insert(self, item: NewMemory, hashed: str, vector: Vectors) -> MemoryRecord:
        return self._writer._insert(item, hashed, vector)

    def merge(
        self,
        fresh: StoredMemory,
        content: str,
        similarity: float,
        fuller: tuple[str, Vectors] | None,
    ) -> MemoryRecord:
        return self._lifecycle.merge(fresh, content, similarity, fuller)

    def overwrite(
        self,
        fresh: StoredMemory,
        content: str,
        hashed: str,
        vector: Vectors,
        similarity: float,
        why: str,
        made: float,
    ) -> MemoryRecord:
        confidence = self._writer.settings.default_confidence
        return self._lifecycle.overwrite(
            fresh, content, hashed, vector, similarity, why, confidence, made
        )

    def queue(
        self, older: MemoryRecord, newer: MemoryRecord, similarity: float, reason: str
    ) -> int | None:
        return self._lifecycle.queue_conflict(older, newer, similarity, reason)

    def link(self, record: MemoryRecord, earlier: Sequence[tuple[StoredMemory, float]]) -> None:
        self._lifecycle.link_successor(record, earlier)

    def log_verdict(
        self, existing: MemoryRecord, candidate_id: str, similarity: float, verdict: Verdict
    ) -> None:
        self._lifecycle.log_verdict(existing, candidate_id, similarity, verdict)


def _decision(proposal: Proposal, earlier: Sequence[tuple[StoredMemory, float]]) -> Any:
    """What a line's writes depend on: the relation found, with which memory (not for a
    compatible one, merely stored: which memory is nearest changes nothing written), whether
    the new text is kept, and the memories it may be a later version of."""
    compared = proposal.neighbour if proposal.relation is not Relation.COMPATIBLE else None
    neighbour = None if compared is None else compared.record.id
    later_than = frozenset(stored.record.id for stored, _ in earlier)
    return (proposal.relation, neighbour, proposal.keeps_new_text, later_than)


@dataclass(frozen=True, slots=True)
class _Judged:
    """A line a plan judged: against what, and what it decided (see ``Decided.stale``)."""

    item: NewMemory
    vector: Vectors
    floor: float
    match: str | None  # the keyword query of the attribute it changes, if any
    neighbours: list[tuple[StoredMemory, float]]
    decision: Any
    pairs: int  # how many conflicts the plan had decided to queue then


class _PlannedVectors:
    """The unit vectors of the memories a plan added (or gave a fuller text), searched by
    cosine as the store's index would find them once written."""

    def __init__(self) -> None:
        self._rows: dict[str, int] = {}
        self._types: list[str] = []
        self._matrix = np.zeros((0, 0), dtype=np.float32)

    def add(self, memory_id: str, kind: str, vector: Vectors) -> None:
        unit = np.asarray(vector, dtype=np.float32).reshape(-1)
        norm = float(np.linalg.norm(unit))
        unit = unit / norm if norm > 0 else unit
        row = self._rows.get(memory_id)
        if row is None:
            row = self._rows[memory_id] = len(self._types)
            self._types.append(kind)
            if row >= len(self._matrix):  # (grown by doubling: one copy per doubling)
                grown = np.zeros((max(64, 2 * len(self._matrix)), unit.size), dtype=np.float32)
                if len(self._matrix):
                    grown[: len(self._matrix)] = self._matrix
                self._matrix = grown
        self._matrix[row] = unit

    def near(
        self, vectors: Sequence[Vectors], floors: Sequence[float], types: Sequence[bool]
    ) -> list[list[tuple[str, float]]]:
        """For each of ``vectors``, the planned memories at or above its floor (facts only
        where ``types`` says so), with their cosine."""
        if not self._types or not vectors:
            return [[] for _ in vectors]
        ids = list(self._rows)
        raw = np.asarray(vectors, dtype=np.float32).reshape(len(vectors), -1)
        norms = np.linalg.norm(raw, axis=1, keepdims=True)
        queries = (raw / np.where(norms > 0, norms, 1.0)).astype(np.float32)
        with blas.one_thread():  # (a batch against a few thousand rows: threads only wait)
            cosines = queries @ self._matrix[: len(ids)].T
        found: list[list[tuple[str, float]]] = []
        for row, floor, facts_only in zip(cosines, floors, types, strict=True):
            found.append(
                [
                    (ids[at], float(row[at]))
                    for at in np.flatnonzero(row >= floor)
                    if not facts_only or self._types[at] in FACTS
                ]
            )
        return found


class Decided:
    """An import's decisions, made against the store as it is (no write lock) and the
    import's own earlier lines, and the writes that carry them out, run later under the lock
    (:meth:`Writer.apply_decided`). What the decisions read is noted, so that what another
    program changed meanwhile can be told apart from what it did not touch."""

    def __init__(self, writer: Writer, check: bool) -> None:
        self._writer = writer
        self._store = writer._store
        self._lifecycle = writer._lifecycle
        self.check = check
        self.seq = self._store.latest_event_seq()  # what another program writes comes after
        self.items: list[list[NewMemory]] = []  # per batch of the caller
        self.batches: list[Batch] = []
        self.ops: list[Callable[[], object]] = []
        self.facts = False  # whether the plan adds a fact
        self._current: dict[str, StoredMemory] = {}  # memories the plan adds or changes
        self._by_hash: dict[str, list[str]] = {}  # the plan's memories by their text now
        self._vectors = _PlannedVectors()
        self._revectored: set[str] = set()  # stored memories a fuller text re-embedded
        self._read: set[str] = set()  # stored memories found by a line's text
        self._hashes: set[str] = set()  # every line's text
        self._judged: list[_Judged] = []  # every judged line, with what it was judged against
        self._replaced: dict[str, tuple[NewMemory, str | None]] = {}
        self.planned_pairs: list[tuple[str, str]] = []  # conflicts decided, as pending_pairs

    # --- what the decisions read --------------------------------------------------------------

    def neighbours(
        self, batch: Sequence[NewMemory], vectors: Sequence[Vectors], facts: bool
    ) -> list[list[tuple[StoredMemory, float]]]:
        """Each item's stored neighbours (as the plan left them) and the plan's earlier
        memories near it, nearest first."""
        floors = [self._lifecycle.floor(item.content) for item in batch]
        episodic = [item.type is MemoryType.EPISODIC for item in batch]
        planned = self._vectors.near(vectors, floors, episodic)
        found: list[list[tuple[StoredMemory, float]]] = []
        for item, vector, near in zip(batch, vectors, planned, strict=True):
            if not _judged(item, self.check):
                found.append([])
                continue
            stored = self._writer._stored_neighbours(item, vector, self.check, facts)
            pairs = [
                (self._current.get(m.record.id, m), similarity)
                for m, similarity in stored
                if m.record.id not in self._revectored
            ]
            pairs += [(self._current[memory_id], similarity) for memory_id, similarity in near]
            pairs.sort(key=lambda pair: pair[1], reverse=True)
            found.append(pairs[:SUCCESSOR_NEIGHBOURS])
        return found

    def get(self, memory_id: str) -> StoredMemory | None:
        # (a neighbour: what another program changes in it is judged again in stale())
        if memory_id in self._current:
            return self._current[memory_id]
        return self._store.get(memory_id)

    def judged(
        self,
        item: NewMemory,
        vector: Vectors,
        neighbours: list[tuple[StoredMemory, float]],
        proposal: Proposal,
        earlier: Sequence[tuple[StoredMemory, float]],
    ) -> None:
        """Note what a line was judged against and what was decided, to judge it again under
        the lock if another program changed one of its neighbours or added one."""
        floor = self._lifecycle.floor(item.content)
        match = self._lifecycle.slot_match(item.content)
        key = _decision(proposal, earlier)
        pairs = len(self.planned_pairs)
        self._judged.append(_Judged(item, vector, floor, match, neighbours, key, pairs))

    def twin(self, hashed: str, item: NewMemory) -> Outcome | None:
        self._hashes.add(hashed)
        for memory_id in self._by_hash.get(hashed, ()):
            current = self._current[memory_id]
            if item.type is not MemoryType.EPISODIC or self._writer._same_occasion(
                item, current.record, alone=False
            ):
                return self._reinforce(current, item)
        found = self._writer._twin(hashed, item, alone=False)
        if found is None:
            return None
        self._read.add(found.record.id)
        current = self._current.get(found.record.id, found)
        if current.record.content_hash != hashed:
            return None  # the plan gave it a fuller text
        return self._reinforce(current, item)

    def _reinforce(self, current: StoredMemory, item: NewMemory) -> Outcome:
        before = current.record
        if self._writer.same_telling(before, item):
            return Outcome(before, Decision.REINFORCED, before, 1.0)
        # The plan's own record changes in place: a line repeated 1,000 times is one record
        # (memory stays bounded by the distinct lines), not a copy per repeat.
        after = before if before.id in self._current else replace(before)
        after.confidence = min(1.0, before.confidence + _REINFORCE_CONFIDENCE)
        after.importance = max(before.importance, float(item.importance or 0.0))
        after.updated_at = self._writer._clock()
        self._current[before.id] = StoredMemory(current.rowid, after)
        self.ops.append(partial(self._reinforce_stored, before.id, item))
        return Outcome(after, Decision.REINFORCED, before, 1.0)

    def _reinforce_stored(self, memory_id: str, item: NewMemory) -> None:
        self._writer._reinforce(self._fresh(memory_id), item)

    def replaced(self, item: NewMemory, hashed: str) -> _Replaced | None:
        found = self._writer._replaced(item, hashed)
        self._replaced[hashed] = (item, None if found is None else found.current.record.id)
        if found is None:
            return None
        self._read.add(found.current.record.id)
        current = self._current.get(found.current.record.id)
        if current is None:
            return found
        if any(content_hash(text) == hashed for text in restatements(current.record.metadata)):
            return None  # the plan merged the text into it
        return replace(found, current=current)

    # --- what they write ----------------------------------------------------------------------

    def short_term(self, item: NewMemory, vector: Vectors) -> MemoryRecord:
        record = self._writer._short_term_record(item)
        self.ops.append(partial(self._writer._short_term.push, ShortTerm(record, vector)))
        return record

    def insert(self, item: NewMemory, hashed: str, vector: Vectors) -> MemoryRecord:
        record = self._writer._new_record(item, hashed)
        record.secret = withheld(record.content, record.metadata)  # as the store marks it
        self._current[record.id] = StoredMemory(-1, record)
        self._by_hash.setdefault(hashed, []).append(record.id)
        self._vectors.add(record.id, record.type.value, vector)
        self.facts = self.facts or record.type.value in FACTS
        # (a copy: the plan's later merges into it must not change what is inserted)
        self.ops.append(partial(self._store.insert, replace(record), vector))
        return record

    def merge(
        self,
        fresh: StoredMemory,
        content: str,
        similarity: float,
        fuller: tuple[str, Vectors] | None,
    ) -> MemoryRecord:
        before = fresh.record
        merged = self._lifecycle.merged(before, content, None if fuller is None else fuller[0])
        self._current[before.id] = StoredMemory(fresh.rowid, merged)
        if fuller is not None:
            if before.id in self._by_hash.get(before.content_hash, ()):
                self._by_hash[before.content_hash].remove(before.id)
            self._by_hash.setdefault(fuller[0], []).append(before.id)
            self._vectors.add(before.id, before.type.value, fuller[1])
            self._revectored.add(before.id)
        self.ops.append(partial(self._merge_stored, before.id, content, similarity, fuller))
        return merged

    def _merge_stored(
        self,
        memory_id: str,
        content: str,
        similarity: float,
        fuller: tuple[str, Vectors] | None,
    ) -> None:
        self._lifecycle.merge(self._fresh(memory_id), content, similarity, fuller)

    def overwrite(
        self,
        fresh: StoredMemory,
        content: str,
        hashed: str,
        vector: Vectors,
        similarity: float,
        why: str,
        made: float,
    ) -> MemoryRecord:
        raise _NotDecidable  # (only a model overwrites, and a batch never asks one)

    def queue(
        self, older: MemoryRecord, newer: MemoryRecord, similarity: float, reason: str
    ) -> int | None:
        self.ops.append(partial(self._lifecycle.queue_conflict, older, newer, similarity, reason))
        # (dated as the store's pending_pairs dates them: an import may tell the newer first)
        pair = (older.id, newer.id)
        if older.created_at > newer.created_at:
            pair = (newer.id, older.id)
        self.planned_pairs.append(pair)
        return None  # (numbered when written)

    def link(self, record: MemoryRecord, earlier: Sequence[tuple[StoredMemory, float]]) -> None:
        self.ops.append(partial(self._lifecycle.link_successor, record, list(earlier)))

    def log_verdict(
        self, existing: MemoryRecord, candidate_id: str, similarity: float, verdict: Verdict
    ) -> None:
        self.ops.append(
            partial(self._lifecycle.log_verdict, existing, candidate_id, similarity, verdict)
        )

    def _fresh(self, memory_id: str) -> StoredMemory:
        """The memory as it is now, under the write lock; gone or no longer active: the
        decision is stale."""
        stored = self._store.get(memory_id)
        if stored is None or stored.record.status is not Status.ACTIVE:
            raise StaleDecisions(memory_id)
        return stored

    # --- under the write lock -----------------------------------------------------------------

    def stale(self) -> bool:
        """Whether another program's change since the plan began changes a decision: read
        under the write lock (every change of a memory is an event: the sync outbox relies on
        that). A memory a line's text was found in (a repeat, a text it replaced) that changed,
        or a new one with a line's very text, is stale; a changed or new memory that is, or
        would be, a line's neighbour (at or above its floor, or found by the attribute it
        changes) has that line judged again, and is stale only if the decision differs."""
        writer = self._writer
        touched = self._store.touched_since(writer.namespace, self.seq)
        if not touched:
            return False
        if touched & self._read:
            return True
        now = {
            memory_id: stored
            for memory_id in touched
            if (stored := self._store.get(memory_id)) is not None
            and stored.record.status is Status.ACTIVE
            and stored.record.namespace == writer.namespace
        }
        if any(stored.record.content_hash in self._hashes for stored in now.values()):
            return True
        for hashed, (item, was) in self._replaced.items():
            found = writer._replaced(item, hashed)
            if (None if found is None else found.current.record.id) != was:
                return True
        vectors = {
            memory_id: np.frombuffer(blob, dtype=np.float32)
            for memory_id, stored in now.items()
            if (blob := self._store.vectors_for([stored.rowid]).get(stored.rowid)) is not None
        }
        # the changed memories the keyword query of each attribute a line changes finds
        rowids = {stored.rowid: memory_id for memory_id, stored in now.items()}
        matches: dict[str, set[str]] = {}
        for line in self._judged:
            if line.match is not None and line.match not in matches:
                hits = self._store.keyword_matches(line.match, list(rowids))
                matches[line.match] = {rowids[rowid] for rowid in hits}
        return any(
            self._judged_otherwise(line, touched, now, vectors, matches.get(line.match or "", ()))
            for line in self._affected(touched, now, vectors, matches)
        )

    def _affected(
        self,
        touched: set[str],
        now: dict[str, StoredMemory],
        vectors: dict[str, Vectors],
        matches: dict[str, set[str]],
    ) -> Iterator[_Judged]:
        """The judged lines a changed memory is, or now would be, a neighbour of."""
        near = _PlannedVectors()
        for memory_id, vector in vectors.items():
            near.add(memory_id, now[memory_id].record.type.value, vector)
        meets = near.near(
            [line.vector for line in self._judged],
            [line.floor for line in self._judged],
            [line.item.type is MemoryType.EPISODIC for line in self._judged],
        )
        for line, met in zip(self._judged, meets, strict=True):
            if (
                met
                or (line.match is not None and matches[line.match])
                or any(m.record.id in touched for m, _ in line.neighbours)
            ):
                yield line

    def _judged_otherwise(
        self,
        line: _Judged,
        touched: set[str],
        now: dict[str, StoredMemory],
        vectors: dict[str, Vectors],
        by_attribute: Collection[str],
    ) -> bool:
        """Whether ``line`` is decided otherwise among its neighbours as they are now: those
        another program changed as they are now (gone when no longer active), with those it
        added or changed that are near the line (or found by the attribute it changes, as
        ``Lifecycle.neighbours`` finds them)."""
        pairs = [(m, s) for m, s in line.neighbours if m.record.id not in touched]
        for memory_id, vector in vectors.items():
            similarity = _cosine(line.vector, vector)
            was = any(m.record.id == memory_id for m, _ in line.neighbours)
            if was or similarity >= line.floor or memory_id in by_attribute:
                pairs.append((now[memory_id], similarity))
        if line.item.type is MemoryType.EPISODIC:
            pairs = [pair for pair in pairs if pair[0].record.type in FACTS]
        pairs.sort(key=lambda pair: pair[1], reverse=True)
        pairs = pairs[:SUCCESSOR_NEIGHBOURS]
        content = line.item.content
        secret = withheld(content, line.item.metadata or {})
        proposal = self._lifecycle.propose(
            content,
            pairs[:NEIGHBOURS],
            ask_model=False,
            secret=secret,
            planned=self.planned_pairs[: line.pairs],
        )
        earlier = self._lifecycle.may_update(content, pairs, secret=secret)
        return bool(_decision(proposal, earlier) != line.decision)


def _takes_side(text: str, side: str, against: str) -> bool:
    """Whether ``text`` says what ``side`` says where it differs from ``against`` (the two
    sides of a conflict): it holds the names and numbers only ``side`` has and none only
    ``against`` has ("I live in Lisbon" takes "I moved to Lisbon"'s side against "I live in
    Berlin"); when the two differ in none, it is negated as ``side`` is ("I don't eat meat"
    against "I eat meat"). Sameness (:mod:`localmind.sameness`) is too strict for this: "I
    live in Lisbon" and "I moved to Lisbon" differ in tense, yet settle the same question."""
    said, other, new = read(side), read(against), read(text)
    marks = [frozenset().union(*s.names, s.numbers) for s in (said, other, new)]
    own, theirs = marks[0] - marks[1], marks[1] - marks[0]
    if own or theirs:
        return own <= marks[2] and not theirs & marks[2]
    return said.negations % 2 != other.negations % 2 and new.negations % 2 == said.negations % 2


def _made_later(item: NewMemory, other: MemoryRecord) -> bool:
    """Whether ``other`` was made after ``item`` (the memory written for it is made when the
    item is dated): only a dated item can be older than what is stored (an undated one is
    told now, the newest)."""
    return item.created_at is not None and other.created_at > float(item.created_at)


def _verdict_tied(content: str, metadata: dict[str, Any]) -> dict[str, Any]:
    """A new memory's metadata with the person's verdict on secrecy (``add --meta
    secret=false``), if they gave one with it, tied to its text (``secrets_check.with_verdict``):
    given with the text, it is about that text."""
    said = person_said(metadata)
    if said is None or VERDICT_FOR in metadata:
        return metadata
    return with_verdict(content, metadata, said)


def _cosine(a: Vectors, b: Vectors) -> float:
    left, right = np.asarray(a, dtype=np.float32), np.asarray(b, dtype=np.float32)
    norms = float(np.linalg.norm(left) * np.linalg.norm(right))
    return float(left @ right) / norms if norms > 0 else 0.0


#: The memory types an event of a batch is judged against: facts, never other events.
FACTS = (MemoryType.SEMANTIC.value, MemoryType.LONG_TERM.value)


def _judged(item: NewMemory, check: bool) -> bool:
    """Whether a batch judges ``item`` against what came before. An event only against the
    facts (:data:`FACTS`), never against other events: the turns of a conversation or a log's
    entries were each true when they happened ("What else is new with you?" reads as an
    announced change, and judging chat turns against each other cost LoCoMo 0.09 of R@5), so
    an import of transcripts stays raw without anyone having to ask for it. But an event that
    changes a fact ("Moved to Lisbon" against "I live in Berlin") is queued as `add` queues it
    (io10: an imported diary left the old fact unmarked)."""
    return check and item.type is not MemoryType.SHORT_TERM


def _day(at: float) -> str:
    """The local day of a moment, as a person reads it."""
    return datetime.fromtimestamp(at).strftime("%Y-%m-%d")

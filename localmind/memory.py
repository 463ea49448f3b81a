"""``Memory``: the library face of localmind. Open a store, remember, recall, forget.

with Memory.open("memories.db", passphrase) as memory:
    memory.remember("用户喜欢 Rust 编程语言", type="semantic")
    for result in memory.recall("编程"):
        print(result.memory.content, result.breakdown)
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import replace
from pathlib import Path
from typing import Any

from localmind import preferences, ranking, validation
from localmind.arrivals import JudgedAhead, Judging, judge_ahead, judge_arrivals, write_judged
from localmind.config import GovernanceConfig, Settings
from localmind.currency import Given, edited_after_told, given, newer_versions, worth_giving
from localmind.embedders.base import EMBED_BATCH, Embedder, Progress, Vectors, warm_up
from localmind.embedders.rerank import Reranker
from localmind.errors import AmbiguousId, InvalidInput, NotAStore, NotFound, StoreError
from localmind.files import sidecars
from localmind.governance import LAST_MAINTENANCE, Governance, MaintenanceReport
from localmind.importing import MostAdded
from localmind.keys import KdfParams, KeyFile, check_new_passphrase, key_file_for
from localmind.lifecycle import (
    NOT_SENT,
    Conflict,
    Decision,
    Feedback,
    Lifecycle,
    Outcome,
    Relation,
    Resolution,
    Settlement,
    Verdict,
    Version,
)
from localmind.llm.base import LLM
from localmind.locks import key_file_lock
from localmind.opening import attach, reembed, settings_for, store_path, unlocked
from localmind.profile import Profile, ProfileEngine, context_block
from localmind.recall import Recaller
from localmind.records import (
    MemoryRecord,
    MemoryType,
    RecallResult,
    Status,
    event_and_fact,
    from_source,
)
from localmind.replica import ApplyReport, Event, apply_remote, events_since
from localmind.ringbuffer import RingBuffer, ShortTerm
from localmind.rollback import SeenRecord, record_seen
from localmind.rotation import RotationReport, rotate_data_key
from localmind.sameness import compare
from localmind.secrets_check import with_verdict
from localmind.store import SqliteStore, StoredMemory
from localmind.store.connection import BUSY_ERRORS
from localmind.superseded import ask_about_other_copies
from localmind.transfer import Carried, CarriedConflict, CarriedNote, Restorable, Restored
from localmind.writing import (
    Batch,
    Decided,
    Edit,
    NewMemory,
    StaleDecisions,
    Writer,
    content_hash,
    validate_new,
)

__all__ = [
    "EMBED_BATCH",
    "Decided",
    "Memory",
    "NewMemory",
    "StaleDecisions",
    "content_hash",
    "validate_new",
]

# How the model's verdict on a pair settles its conflict.
_SETTLES = {
    Relation.SAME: Resolution.KEEP_OLD,
    Relation.CONTRADICTS: Resolution.TAKE_NEW,
    Relation.COMPATIBLE: Resolution.KEEP_BOTH,
}

Clock = Callable[[], float]
#: How many ids an ambiguous id prefix lists.
AMBIGUOUS_SHOWN = 5
#: The shortest beginning of an id that names a memory (as git asks for 4 characters of a hash):
#: on a store of one memory, "0" would otherwise be enough to forget it by a slip of the hand.
SHORTEST_ID_PREFIX = 4
#: Ids asked about in one query (SQLite allows 32,766 parameters).
_IDS_AT_ONCE = 500


class Memory:
    """An open, unlocked store. Use :meth:`open`; close it (or use ``with``) when done."""

    def __init__(
        self,
        store: SqliteStore,
        embedder: Embedder,
        *,
        path: Path,
        namespace: str,
        settings: Settings,
        clock: Clock,
        llm: LLM | None = None,
        needs_reindex: bool = False,
        reranker: Reranker | None = None,
    ) -> None:
        self._store = store
        self.llm = llm
        self.reranker = reranker
        self._lifecycle = Lifecycle(store, settings.lifecycle, clock, llm)
        self._profiles = ProfileEngine(store, llm, clock, settings.profile)
        self._governance = Governance(store, settings.governance, settings.decay, clock)
        self.embedder = embedder
        self.path = path
        self.namespace = namespace
        self.settings = settings
        self._clock = clock
        self.needs_reindex = needs_reindex
        # the daily maintenance that opening ran, if it ran: front ends say what it archived
        self.maintained_on_open: MaintenanceReport | None = None
        self._seen: SeenRecord | None = None  # recorded in the key file at close (rollback.py)
        self._short_term: RingBuffer[ShortTerm] = RingBuffer(settings.limits.short_term_capacity)
        self._recaller = Recaller(
            store,
            embedder,
            namespace=namespace,
            settings=settings,
            clock=clock,
            short_term=self._short_term,
            governance=self._governance,
            llm=llm,
            reranker=reranker,
        )
        self._writer = Writer(
            store,
            embedder,
            self._lifecycle,
            self._governance,
            self._short_term,
            namespace=namespace,
            settings=settings,
            clock=clock,
            check_ready=self._check_ready,
        )

    # --- opening and closing ------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str],
        passphrase: str,
        *,
        embedder: Embedder | str | None = None,
        namespace: str = "me",
        settings: Settings | Callable[[Settings], Settings] | None = None,
        clock: Clock = time.time,
        create: bool = True,
        kdf: KdfParams | None = None,
        accept_new_embedder: bool = False,
        llm: LLM | None = None,
        maintain: bool = True,
        reranker: Reranker | None = None,
        data_key: bytes | None = None,
    ) -> Memory:
        """Unlock the store at ``path`` (creating it, with ``passphrase``, if neither it nor its
        key file exist and ``create`` is true).

        ``embedder``: an :class:`Embedder`, a spec such as ``"use"`` or
        ``"fastembed:<model or directory>"``, or None for the one the store was made with.
        Asking for another embedder than the store's raises :class:`EmbedderMismatch` unless
        ``accept_new_embedder`` is true; then only :meth:`reindex` may run until it has.

        ``llm``: the model that checks contradictions (and more); without one, possible
        contradictions are queued for review instead.

        ``settings``: the numbers to use, or a function changing the defaults calibrated for the
        embedder (the configuration file's: :mod:`localmind.configuration`); the store's own
        settings (``localmind config capacity N``) apply on top.

        ``maintain``: run the daily maintenance now if the last run is over a day old.

        ``reranker``: a cross-encoder (e.g. ``FastembedReranker``) that :meth:`recall` uses to
        rescore its best candidates; loaded on first use.

        ``data_key``: open an existing store with its data key (remembered in the OS keyring,
        :mod:`localmind.remembered_key`) instead of ``passphrase``.
        """
        path = store_path(path)
        namespace = validation.namespace(namespace)
        with unlocked(path, passphrase, create=create, kdf=kdf, data_key=data_key) as (
            db,
            creating,
            seen,
        ):
            memory = cls._attach(
                db, path, embedder, namespace, settings, clock, accept_new_embedder, llm, reranker
            )
        memory._seen = seen
        if creating:
            with db:
                memory._store.set_meta(LAST_MAINTENANCE, repr(clock()))
        elif maintain and not memory.needs_reindex and memory._governance.due():
            # not forced: checked again under the write lock, in case another process opening
            # the store at the same moment ran it first
            memory.maintained_on_open = memory._maintain_unless_busy()
        return memory

    def _maintain_unless_busy(self) -> MaintenanceReport | None:
        """The daily maintenance due when the store opens, unless another program holds the
        write lock (a long import): a command that only reads must not wait for it, nor fail
        as busy behind it. The next open runs it."""
        try:
            with self._store.waiting_briefly():
                return self.maintain(force=False)
        except BUSY_ERRORS:
            return None

    @classmethod
    def _attach(
        cls,
        db: Any,
        path: Path,
        embedder: Embedder | str | None,
        namespace: str,
        settings: Settings | Callable[[Settings], Settings] | None,
        clock: Clock,
        accept_new_embedder: bool,
        llm: LLM | None = None,
        reranker: Reranker | None = None,
    ) -> Memory:
        attached = attach(db, embedder, clock, accept_new_embedder)
        # Without settings, the defaults with the thresholds calibrated for the embedder.
        calibrated = settings_for(attached.embedder)
        chosen = settings(calibrated) if callable(settings) else settings or calibrated
        settings = preferences.stored(chosen, attached.store.get_meta)
        return cls(
            attached.store,
            attached.embedder,
            path=path,
            namespace=namespace,
            settings=settings,
            clock=clock,
            llm=llm,
            needs_reindex=attached.needs_reindex,
            reranker=reranker,
        )

    @staticmethod
    def change_passphrase(path: str | os.PathLike[str], old: str, new: str) -> None:
        """Re-wrap the data key with ``new``; the database itself is not rewritten."""
        path = Path(path).expanduser()
        key_path = key_file_for(path)
        if not key_path.exists():
            raise NotAStore(f"No localmind key file at {key_path}.")
        # Held from reading the key file to writing it: two at once would each rewrap the key
        # file they read, both report success, and only the last passphrase would work.
        check_new_passphrase(new)
        with key_file_lock(path, wait=False, doing="the passphrase was not changed"):
            KeyFile.load(key_path).rewrap(old, new).save(key_path)

    @staticmethod
    def rotate_key(
        path: str | os.PathLike[str],
        old: str,
        new: str,
        progress: Callable[[int, int], None] | None = None,
    ) -> RotationReport:
        """Re-encrypt the closed store under a new random data key wrapped by ``new``; old
        copies of its key file no longer open it (see :mod:`localmind.rotation`).
        ``progress(pages_copied, pages_in_all)`` is called as the copy goes."""
        return rotate_data_key(Path(path), old, new, progress=progress)

    def close(self) -> None:
        seen, self._seen = self._seen, None
        if seen is not None:
            record_seen(self._store.db, seen)
        self._store.db.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # --- writing ------------------------------------------------------------------------------

    def remember(
        self,
        content: str,
        type: MemoryType | str = MemoryType.LONG_TERM,
        importance: float | None = None,
        metadata: dict[str, Any] | None = None,
        *,
        created_at: float | None = None,
        source: str | None = None,
        allow_forgotten: bool = False,
    ) -> MemoryRecord:
        """Store a memory; return the memory that now holds the fact (see
        :meth:`remember_explained` for what was decided and why)."""
        return self.remember_explained(
            content,
            type,
            importance,
            metadata,
            created_at=created_at,
            source=source,
            allow_forgotten=allow_forgotten,
        ).record

    def remember_explained(
        self,
        content: str,
        type: MemoryType | str = MemoryType.LONG_TERM,
        importance: float | None = None,
        metadata: dict[str, Any] | None = None,
        *,
        created_at: float | None = None,
        source: str | None = None,
        allow_forgotten: bool = False,
    ) -> Outcome:
        """Store a memory, deciding against its nearest neighbour (``LifecycleConfig``):

        - ``short_term`` goes to the session's ring buffer only;
        - the same text again (ignoring case, spacing and punctuation) reinforces the memory;
        - at or above the conflict threshold the LLM decides: the same fact is merged, a
          contradiction overwrites the existing memory (a new version; the old text stays in its
          history), a compatible fact is inserted;
        - without a usable LLM a near-identical text (at or above the merge threshold, same
          numbers) is merged, anything else in the band inserted with a conflict queued;
        - anything else is inserted;
        - a text a memory replaced (an earlier version of it, or one a person resolved away)
          is inserted with a conflict queued against the current memory: the person may have
          changed back, but it must not become current silently.

        A text the person forgot earlier (``forget``; recognised by a keyed fingerprint,
        never kept as text) is not brought back: :class:`ForgottenEarlier`, nothing stored,
        unless ``allow_forgotten`` (the person says so; it is then no longer one they forgot).

        ``source``: where it comes from, when not this ``Memory``'s :attr:`source`.
        """
        self.reload_preferences()
        item = NewMemory(content, type, importance, metadata, created_at, source)
        return self._writer.remember(item, allow_forgotten=allow_forgotten)

    def remember_many(
        self,
        items: Iterable[NewMemory],
        progress: Progress | None = None,
        *,
        check: bool = True,
        allow_forgotten: bool = False,
    ) -> list[MemoryRecord]:
        """Add many memories fast: embedded in batches, written one transaction per batch.
        Every item is validated before anything is written; one bad item stops the whole call
        with an :class:`InvalidInput` that names its position, and so does one telling a text
        the person forgot (:class:`ForgottenEarlier`) unless ``allow_forgotten`` (leave such
        items out first: :meth:`forgotten_among`).

        With ``check`` (the default) each item is judged as :meth:`remember` judges, against
        the store and the items before it: a restatement is merged, a plausible contradiction
        stored with a conflict queued, a later version noted; the model is never asked (what
        it would settle waits in the queue: :meth:`ask_model_many`), a text a memory replaced
        is not stored again (``Decision.OUTDATED``: a file imported again after a review must
        not bring back what the person replaced). ``check=False`` stores
        every item as it is (a raw import of whole transcripts)."""
        return self.remember_many_explained(
            items, progress, check=check, allow_forgotten=allow_forgotten
        ).records

    def all_or_nothing(self, *, archive: bool = True) -> AbstractContextManager[list[str]]:
        """Many :meth:`remember_many` / :meth:`restore` calls as one change (``localmind
        import`` reads a file in parts): inside it every write is kept, or none if anything
        stops it (an error, Ctrl-C, a killed process). It holds the store's write lock
        throughout, so other programs' writes wait (up to 10 s each) until it ends: embed
        first (:meth:`prepare`) to keep that short. The
        capacity limit is checked once, at the end; the list it gives holds then the ids that
        check archived. Without ``archive`` a change that ends over the capacity is refused
        instead (:class:`WouldArchive`, nothing kept)."""
        self.reload_preferences()
        return self._writer.all_or_nothing(archive=archive)

    def remember_many_explained(
        self,
        items: Iterable[NewMemory],
        progress: Progress | None = None,
        *,
        check: bool = True,
        allow_forgotten: bool = False,
    ) -> Batch:
        """:meth:`remember_many`, also saying what was decided for each item (merged, queued,
        reinforced) and which memories the capacity limit archived."""
        self.reload_preferences()
        return self._writer.remember_many(
            items, progress, check=check, allow_forgotten=allow_forgotten
        )

    def forgotten_among(self, items: Sequence[NewMemory]) -> list[float | None]:
        """For each item, when the person forgot its text (None: never): what
        :meth:`remember_many` refuses. An event is recognised on its moment, a fact on its
        text (folded as duplicates are: case, spacing, punctuation do not count)."""
        return self._writer.forgotten_among(items)

    def unforget(self, items: Sequence[NewMemory]) -> None:
        """The person brings back texts they forgot (``import --allow-forgotten``): they are
        no longer ones they forgot. Call it inside :meth:`all_or_nothing` with their write;
        :meth:`decide` and :meth:`apply_decided` do not check."""
        self._writer.unforget(items)

    def prepare(self, items: Sequence[NewMemory], *, check: bool = True) -> None:
        """Embed ``items`` (and, with ``check``, read what they and their neighbours say)
        before :meth:`all_or_nothing` takes the write lock, so that the
        :meth:`remember_many` / :meth:`restore` calls inside it hold the lock only for the
        judging and the writes. The vectors are kept until the outermost
        :meth:`all_or_nothing` ends: prepare what it will write, a bounded amount."""
        self._check_ready()
        self.reload_preferences()
        self._writer.prepare(items, check=check)

    def decide(
        self, batches: Iterable[Sequence[NewMemory]], *, check: bool = True
    ) -> Decided | None:
        """Judge ``batches`` as :meth:`remember_many` would, one after another, holding no
        lock and writing nothing (prepare them first: :meth:`prepare`); :meth:`apply_decided`
        writes what was decided inside :meth:`all_or_nothing`, so other programs' writes wait
        only for the writes. None when a decision cannot be made ahead (then judge under the
        lock, with :meth:`remember_many_explained`)."""
        self._check_ready()
        self.reload_preferences()
        return self._writer.decide(batches, check=check)

    def apply_decided(self, decided: Decided, *, judge_again: bool = False) -> list[Batch]:
        """Write what :meth:`decide` decided (a :class:`Batch` per batch), inside
        :meth:`all_or_nothing`. If another program changed meanwhile what the decisions read,
        nothing is written and :class:`StaleDecisions` raised: leave the transaction and
        decide again; or, with ``judge_again``, the items are judged again, under the lock."""
        return self._writer.apply_decided(decided, judge_again=judge_again)

    def validate(self, item: NewMemory) -> NewMemory:
        """The item with defaults filled in, or :class:`InvalidInput` saying what is wrong."""
        return validate_new(item, self.settings, self._clock())

    def update(
        self,
        memory_id: str,
        *,
        content: str | None = None,
        type: MemoryType | str | None = None,
        importance: float | None = None,
        confidence: float | None = None,
        metadata: dict[str, Any] | None = None,
        pinned: bool | None = None,
        expires_at: float | None = None,
        reason: str = "update",
    ) -> MemoryRecord:
        """Change a memory. New content makes a new version (the old one stays in its history)
        and is re-embedded."""
        edit = Edit(content, type, importance, confidence, metadata, pinned, expires_at)
        return self._writer.update(memory_id, edit, reason)

    def update_explained(
        self,
        memory_id: str,
        *,
        content: str,
        reason: str = "update",
        expected: str | None = None,
    ) -> Settlement:
        """:meth:`update` of the text, also saying which pending conflicts it settled: a new
        text that says what the other side of a conflict says ("I live in Lisbon" for "I live
        in Berlin" while "I moved to Lisbon" waits) answers it, as a merge with that text
        would (``Settlement.settled``; the other memory is set aside, its other conflicts
        re-pointed or closed as a resolution does). ``expected``: the text the caller was
        shown; if the memory says something else now (another program changed it since),
        nothing is changed: :class:`~localmind.errors.ChangedMeanwhile` says what it says."""
        return self._writer.update_explained(memory_id, Edit(content=content), reason, expected)

    def forget(self, memory_id: str) -> None:
        """Remove a memory: its content and history are erased at once; a tombstone remains so
        the deletion can replicate. Every other trace of its text goes in the same
        transaction (events, conflicts, profile versions, the keyword index's segments), and
        the write-ahead log is emptied after it (see docs/design.md, "Forget")."""
        self._writer.forget(memory_id)
        self._recaller.clear_cache()  # a query may have been the forgotten text itself

    # --- feedback, versions, conflicts --------------------------------------------------------

    def feedback(
        self, memory_id: str, kind: Feedback | str, new_content: str | None = None
    ) -> MemoryRecord:
        """A person's verdict on a memory: ``confirm`` (+0.1 confidence), ``deny`` (−0.2), or
        ``correct`` with ``new_content`` (a new version, re-embedded, confidence 0.9).
        Confidence stays within [0, 1]."""
        return self._writer.feedback(memory_id, kind, new_content)

    def feedback_explained(
        self,
        memory_id: str,
        kind: Feedback | str,
        new_content: str | None = None,
        *,
        expected: str | None = None,
    ) -> Settlement:
        """:meth:`feedback`, also saying which pending conflicts a correction settled (see
        :meth:`update_explained`; ``expected`` as there, for a correction)."""
        return self._writer.feedback_explained(memory_id, kind, new_content, expected)

    def nudge_confidence(
        self, memory_id: str, delta: float, reason: str, *, used: bool = False
    ) -> MemoryRecord:
        """Move confidence by ``delta`` (clamped to [0, 1]); implicit feedback uses this.
        ``used``: the memory was really used (counts toward the ranking's frequency)."""
        return self._writer.nudge_confidence(memory_id, delta, reason, used=used)

    def revert(self, memory_id: str, version: int) -> MemoryRecord:
        """Bring back the text of an earlier ``version``; the current text becomes history too,
        so a revert can itself be reverted."""
        return self._writer.revert(memory_id, version)

    def conflicts(self) -> list[Conflict]:
        """Pending conflicts of this namespace, oldest first."""
        return self._lifecycle.pending(self.namespace)

    def still_pending(self, outcome: Outcome) -> list[Conflict]:
        """The pending conflicts of the memory ``remember`` reinforced or merged into: telling
        the old fact again while a change of it waits does not settle that change, and whoever
        told it (a person at the CLI, an assistant over MCP) should hear so."""
        if outcome.decision not in (Decision.REINFORCED, Decision.MERGED):
            return []
        memory_id = outcome.record.id
        return [c for c in self.conflicts() if memory_id in (c.existing.id, c.candidate.id)]

    def resolve_conflict(
        self, conflict_id: int, resolution: Resolution | str, merged_text: str | None = None
    ) -> MemoryRecord | None:
        """Settle a conflict; returns the memory that holds the fact afterwards (None when
        nothing remains, which cannot happen for these resolutions but keeps callers honest).

        keep_old: forget the new memory · take_new: the new text becomes the old memory's next
        version and the new memory goes · keep_both: both stay · merge: ``merged_text``
        becomes the old memory's next version and the new memory goes."""
        return self.resolve_conflict_explained(conflict_id, resolution, merged_text).record

    def resolve_conflict_explained(
        self,
        conflict_id: int,
        resolution: Resolution | str,
        merged_text: str | None = None,
        *,
        expected: Mapping[str, str] | None = None,
    ) -> Settlement:
        """:meth:`resolve_conflict`, also saying what became of the other pending conflicts of
        the memory it dropped: re-pointed to the memory that took its place, or closed (and
        why). A side that says something else, under the write lock, than when the conflict
        was read (or than ``expected``, memory id → the text the caller was shown) is a
        :class:`~localmind.errors.ChangedMeanwhile` and nothing is settled: another program
        changed it meanwhile, and settling would overwrite that change unseen."""
        return self._writer.resolve_conflict(conflict_id, resolution, merged_text, expected)

    def ask_model(self, conflict: Conflict) -> tuple[Resolution, str] | None:
        """The local model's settlement of a pending conflict and its reason, or None when no
        model answers. It asks what remember() asks: the same fact (keep the old memory, drop
        the restatement), a contradiction (the new one replaces the old), or compatible (keep
        both)."""
        return self.ask_model_many([conflict])[0]

    def ask_model_many(self, conflicts: Sequence[Conflict]) -> list[tuple[Resolution, str] | None]:
        """:meth:`ask_model` for several conflicts, several pairs per request to the model
        (``localmind.lifecycle.BATCH_PAIRS``); each verdict is logged as an event (``relation``)
        on the older memory, as remember() logs its own."""
        # a secret's text never goes to the model: its conflict waits for the person
        kept = {c.id for c in conflicts if c.existing.secret or c.candidate.secret}
        answered = iter(
            self._lifecycle.llm_verdicts(
                [(c.existing.content, c.candidate.content) for c in conflicts if c.id not in kept]
            )
        )
        verdicts = [Verdict(None, NOT_SENT) if c.id in kept else next(answered) for c in conflicts]
        asked = [(c, v) for c, v in zip(conflicts, verdicts, strict=True) if v.asked]
        if asked:
            with self._store.db:
                for conflict, verdict in asked:
                    self._lifecycle.log_verdict(
                        conflict.existing, conflict.candidate.id, conflict.similarity, verdict
                    )
        settlements: list[tuple[Resolution, str] | None] = []
        for conflict, verdict in zip(conflicts, verdicts, strict=True):
            if verdict.relation is None or (
                verdict.relation is Relation.SAME
                and compare(conflict.existing.content, conflict.candidate.content).differs
            ):
                # "the same" would drop a text that says something else: a person decides
                settlements.append(None)
            elif verdict.relation is Relation.CONTRADICTS and event_and_fact(
                conflict.existing, conflict.candidate
            ):
                # an event and a fact: neither replaces the other (see resolve_conflict)
                settlements.append((Resolution.KEEP_BOTH, verdict.reason))
            else:
                settlements.append((_SETTLES[verdict.relation], verdict.reason))
        return settlements

    def find_conflict(self, reference: str | int) -> Conflict:
        """The pending conflict a person or an assistant points at: its number (``12`` or
        ``#12``) or the id of either of its memories (as ``conflicts`` shows them)."""
        text = str(reference).strip().removeprefix("#")
        pending = self.conflicts()
        if text.isdigit():
            for conflict in pending:
                if conflict.id == int(text):
                    return conflict
            raise InvalidInput(f"No pending conflict #{text} (see the list of conflicts).")
        try:
            # a beginning of an id, in any case, names a memory as everywhere else
            memory_id = self.resolve_id(text)
        except NotFound:
            memory_id = text
        found = [c for c in pending if memory_id in (c.existing.id, c.candidate.id)]
        if len(found) == 1:
            return found[0]
        if not found:
            gone = self.gone(memory_id)
            if gone is not None:  # settled already: say how
                raise InvalidInput(f"Memory {memory_id} {gone}; no pending conflict involves it.")
            raise InvalidInput(f"No pending conflict involves a memory with id {text!r}.")
        numbers = ", ".join(f"#{c.id}" for c in found)
        raise InvalidInput(
            f"Memory {text} is in {len(found)} pending conflicts ({numbers}); give the number."
        )

    def pending_conflicts(self) -> int:
        return self._lifecycle.pending_count(self.namespace)

    # --- profile and context ------------------------------------------------------------------

    def profile(self, *, rebuild: bool = False) -> Profile | None:
        """The user's profile, rebuilt first when enough memories changed since the last build
        (or always, with ``rebuild``). None while there is no memory to build one from."""
        if rebuild or self._profiles.needs_rebuild(self.namespace):
            built = self._profiles.build(self.namespace)
            if built is not None:
                return built
        current = self._profiles.current(self.namespace)
        if current is not None and self._store.any_secret(current.built_from):
            return None  # every memory it was built from is now secret: nothing to say
        return current

    def mark_secret(self, memory_id: str, secret: bool) -> MemoryRecord:
        """The person's verdict on whether a memory is a secret, kept in its metadata
        (``localmind.secrets_check.OVERRIDE``), over what the recogniser thought: a secret is
        never sent to an assistant (``context``, MCP), and the profile is rebuilt without
        it. "Not a secret" holds for the memory's current text only: a new text is checked
        again."""
        record = self.get(self.resolve_id(memory_id))
        metadata = with_verdict(record.content, record.metadata, bool(secret))
        return self.update(
            record.id, metadata=metadata, reason="marked secret" if secret else "marked not secret"
        )

    def profile_history(self) -> list[Profile]:
        return self._profiles.history(self.namespace)

    def context(
        self,
        query: str,
        *,
        profile_tokens: int | None = None,
        memory_tokens: int | None = None,
        limit: int = 10,
    ) -> str:
        """Text for a system prompt: the profile, then the memories relevant to ``query``
        (no filler: ``ProfileConfig.context_relative_relevance``), each with the day it was
        told and, when a newer memory may replace it, that one; each part within its token
        budget (defaults 200 and 300). The profile does not repeat the memories listed."""
        # for an assistant: secrets are not searched, so what it gets cannot confirm a guess
        return self.context_of(
            self.recall(query, limit, secrets=False),
            profile_tokens=profile_tokens,
            memory_tokens=memory_tokens,
            asked=query,
        )

    def context_of(
        self,
        results: Sequence[RecallResult],
        *,
        profile_tokens: int | None = None,
        memory_tokens: int | None = None,
        asked: str | None = None,
    ) -> str:
        """The context block for memories already recalled (the chat's turn shows them too):
        see :meth:`context`; ``asked``, the question, chooses the block's language."""
        config = self.settings.profile
        memories = self.given(
            worth_giving(
                results, config.context_relative_relevance, config.context_relevance_per_memory
            )
        )
        profile = self.profile()
        if profile is not None:
            profile = self._profiles.for_context(profile, {m.record.id for m in memories})
        return context_block(
            profile,
            memories,
            profile_tokens=config.budget_tokens if profile_tokens is None else profile_tokens,
            memory_tokens=config.context_memory_tokens if memory_tokens is None else memory_tokens,
            asked=asked,
        )

    def given(self, results: Sequence[RecallResult]) -> list[Given]:
        """``results`` as an assistant is given them (``localmind.currency``): a memory a newer
        one may replace names it (one recall marked ``superseded_by`` a pending conflict's newer
        memory, or moved a newer one above) and follows it. The marks are recall's, so that
        ``recall`` and ``context`` call the same memories outdated (review15a TW1)."""
        kept = [r.memory for r in results if r.memory.type is not MemoryType.SHORT_TERM]
        stored = [record.id for record in kept]
        marked = {r.memory.id: r.breakdown.superseded_by for r in results}
        newer = {
            old: record
            for old, record in newer_versions(self._store, self.namespace, stored).items()
            if marked.get(old) == record.id
        }
        return given(results, newer, edited_after_told(self._store, kept))

    def clear(self) -> int:
        """Forget every memory of this namespace (and the short-term buffer). Returns how many."""
        self._recaller.clear_cache()
        return self._writer.clear()

    # --- reading ------------------------------------------------------------------------------

    def get(self, memory_id: str) -> MemoryRecord:
        return self._writer.get(memory_id)

    def gone(self, memory_id: str) -> str | None:
        """What became of a forgotten memory a conflict's resolution dropped, to follow its id
        in a sentence: "was merged into memory 01H… (a conflict resolved merge)"; None when it
        was simply forgotten."""
        return self._writer.gone(memory_id)

    def resolve_id(self, reference: str) -> str:
        """The id of the memory ``reference`` names: its whole id or a beginning of it that only
        it has, in any case (people copy a few characters of an id). A forgotten memory is
        named only when no active one shares the beginning. :class:`NotFound` when none
        starts so, :class:`InvalidInput` listing them when several do."""
        wanted = str(reference).strip().upper()
        if not wanted or not validation.is_unicode(wanted):
            raise InvalidInput("A memory id is needed.")
        if any(item.record.id == wanted for item in self._short_term):
            return wanted
        found = self._store.ids_starting_with(self.namespace, wanted, AMBIGUOUS_SHOWN + 1)
        if any(memory_id == wanted for memory_id, _ in found):
            return wanted
        if len(wanted) < SHORTEST_ID_PREFIX:
            raise InvalidInput(
                f"The id {reference!r} is too short: give at least {SHORTEST_ID_PREFIX} "
                "characters of a memory id."
            )
        living = [memory_id for memory_id, status in found if status != Status.DELETED]
        if len(living) == 1 or (len(found) == 1 and not living):
            return living[0] if living else found[0][0]
        if not found:
            raise NotFound(f"No memory with id {reference!r}.")
        shown = ", ".join(memory_id for memory_id, _ in found[:AMBIGUOUS_SHOWN])
        more = " and more" if len(found) > AMBIGUOUS_SHOWN else ""
        raise AmbiguousId(
            f"The id {reference!r} is ambiguous: {shown}{more} start with it. Give more of the id.",
            count=len(found),
        )

    def count(
        self,
        types: Sequence[MemoryType | str] | None = None,
        *,
        status: Status | str = "active",
        source: str | None = None,
    ) -> int:
        """Memories of this namespace with ``status`` (active: the short-term buffer
        included), from ``source`` if given."""
        wanted = validation.memory_types(types)
        source = None if source is None else validation.source(source)
        stored_types = [str(t) for t in wanted or [] if t is not MemoryType.SHORT_TERM]
        buffered = 0
        if str(status) == Status.ACTIVE and (not wanted or MemoryType.SHORT_TERM in wanted):
            buffered = (
                sum(1 for item in self._short_term if from_source(item.record.source, source or ""))
                if source is not None
                else len(self._short_term)
            )
        if wanted and not stored_types:
            return buffered
        stored = self._store.count(self.namespace, stored_types or None, str(status), source)
        return stored + buffered

    def list_memories(
        self,
        types: Sequence[MemoryType | str] | None = None,
        *,
        status: Status | str | None = Status.ACTIVE,
        limit: int | None = None,
        offset: int = 0,
        newest_first: bool = True,
        source: str | None = None,
    ) -> list[MemoryRecord]:
        """Memories, newest first by default; the short-term buffer leads (it is the newest).
        ``source``: only those from it (``mcp`` is every ``mcp:<client>``)."""
        wanted = validation.memory_types(types)
        source = None if source is None else validation.source(source)
        stored_types = [str(t) for t in wanted or [] if t is not MemoryType.SHORT_TERM]
        include_buffer = (not wanted or MemoryType.SHORT_TERM in wanted) and status in (
            Status.ACTIVE,
            None,
        )
        buffered = []
        if include_buffer:
            items = self._short_term.newest_first() if newest_first else iter(self._short_term)
            buffered = [item.record for item in items]
            if source is not None:
                buffered = [record for record in buffered if from_source(record.source, source)]
        head = buffered[offset : None if limit is None else offset + limit]
        remaining = None if limit is None else limit - len(head)
        if (wanted and not stored_types) or remaining == 0:
            return head
        # The store pages the rest itself: only the rows shown are read.
        rows = self._store.iter_memories(
            self.namespace,
            types=stored_types or None,
            status=str(status) if status else None,
            newest_first=newest_first,
            limit=remaining,
            offset=max(0, offset - len(buffered)),
            source=source,
        )
        return head + [stored.record for stored in rows]

    def short_term(self) -> list[MemoryRecord]:
        """The ring buffer's memories, oldest first."""
        return [item.record for item in self._short_term]

    def history(self, memory_id: str) -> list[Version]:
        """Earlier versions of a memory, oldest first, each with why it was replaced."""
        return self._lifecycle.versions(self._writer.get_stored(memory_id).record.id)

    def recall(
        self,
        query: str,
        limit: int = 5,
        *,
        types: Sequence[MemoryType | str] | MemoryType | str | None = None,
        threshold: float | None = None,
        touch: bool = True,
        hyde: bool = False,
        rerank: bool | None = None,
        source: str | None = None,
        secrets: bool = True,
    ) -> list[RecallResult]:
        """The memories most relevant to ``query``, best first, each with its score breakdown
        (see :meth:`localmind.recall.Recaller.recall`). ``threshold`` is the least calibrated
        relevance (0–1) a result may have; None: the configured default, 0: everything.
        ``source``: only memories from it (``mcp`` is every ``mcp:<client>``). ``secrets=False``:
        for an assistant, searched as if the memories marked secret were not stored."""
        self._check_ready()
        return self._recaller.recall(
            query,
            limit,
            types=types,
            threshold=threshold,
            touch=touch,
            hyde=hyde,
            rerank=rerank,
            source=source,
            secrets=secrets,
        )

    @property
    def source(self) -> str:
        """Where the memories this ``Memory`` adds come from (``cli``, ``tui``, ``chat``,
        ``mcp:<client>``): each front end says so once it has opened the store."""
        return self._writer.source

    @source.setter
    def source(self, value: str) -> None:
        self._writer.source = validation.source(value)

    def rescored(self, result: RecallResult, record: MemoryRecord) -> RecallResult:
        """``result`` with its memory as ``record`` (after feedback, say): the relevance it
        was recalled with, its confidence, recency, frequency and score as they are now."""
        breakdown = ranking.rescored(
            record, result.breakdown, self._clock(), self.settings.ranking, self.settings.decay
        )
        # the earlier texts it was recalled with held then, whatever feedback says of it now
        return RecallResult(record, breakdown, result.earlier)

    def query_vector(self, query: str) -> Vectors:
        """The query's embedding, from a small in-process cache when it was asked before."""
        return self._recaller.query_vector(query)

    # --- maintenance --------------------------------------------------------------------------

    def reindex(self, progress: Progress | None = None) -> int:
        """Re-embed every active memory with this store's embedder (after a change of model).
        Returns how many were embedded. Safe to interrupt: it only commits when done."""
        reembedded = reembed(self._store, self.embedder, self.namespace, progress)
        self.needs_reindex = False
        self._recaller.clear_cache()
        for item in self._short_term:
            item.vector = self._writer.embed_documents([item.record.content])[0]
        return reembedded

    def unarchive(self, memory_id: str) -> tuple[MemoryRecord, list[str]]:
        """Bring an archived memory (evicted by capacity, decayed or expired) back to active.
        Returns it and the ids the capacity limit archived to make room (never this one)."""
        self._check_ready()
        self.reload_preferences()
        return self._writer.unarchive(memory_id)

    def archive_reasons(self, memory_ids: Sequence[str]) -> dict[str, str]:
        """Why each of these memories was archived ("evicted: over capacity 500, …",
        "archived: importance decayed …", "expired"), by id."""
        return self._store.archive_reasons(list(memory_ids))

    def purge_archived(self) -> int:
        """Erase every archived memory of this namespace now; returns how many. Nothing else
        ever purges them unless a retention is configured (``archive-retention-days``)."""
        return self._governance.purge_archived(self.namespace)

    def preferences(self) -> dict[str, int | float | None]:
        """The settings ``localmind config`` changes, as this store applies them."""
        governance = self.settings.governance
        return {p.name: getattr(governance, p.field) for p in preferences.PREFERENCES}

    def configure(self, name: str, value: str, *, allow_archive: bool = True) -> list[str]:
        """Change a setting of this store (``localmind.preferences``) from its typed value.
        Lowering the capacity archives what is over it at once (returned ids), so the effect
        is seen when it is chosen, not on some later write; with ``allow_archive`` false that
        is refused (:class:`WouldArchive`, nothing changed): a capacity typed one digit short
        would archive nearly everything (review12 R10)."""
        preference = preferences.find(name)
        parsed = preferences.parse(preference, value)
        change: dict[str, Any] = {preference.field: parsed}
        governance = replace(self.settings.governance, **change)
        before = self.settings.governance
        try:
            with self._store.db:
                self._store.set_meta(
                    preferences.META_PREFIX + preference.name, preferences.to_meta(parsed)
                )
                self._use_governance(governance)
                if not allow_archive:
                    self._governance.refuse_over_capacity(self.namespace)
                evicted = self._governance.enforce_capacity(self.namespace)
        except BaseException:
            self._use_governance(before)
            raise
        return evicted

    def reload_preferences(self) -> None:
        """Apply the settings as the store holds them now: another program (``localmind
        config`` while the app or the MCP server runs) may have changed them since this one
        opened the store. Every write that can evict calls it; it reads three meta rows."""
        settings = preferences.stored(self.settings, self._store.get_meta)
        if settings.governance != self.settings.governance:
            self._use_governance(settings.governance)

    def _use_governance(self, governance: GovernanceConfig) -> None:
        self.settings = replace(self.settings, governance=governance)
        self._governance.config = governance

    def maintain(self, *, force: bool = True, trust_clock: bool = False) -> MaintenanceReport:
        """Expire, archive decayed memories, decay doubtful ones, purge old archives. With
        ``force`` false it only runs when the last run is over the interval old. Refused
        (the report's ``refused`` says why) when the wall clock jumped by more than
        ``max_clock_jump_days``, unless ``trust_clock``.

        A run the person asked for (``force``) also archives what this user's memories are over
        the capacity (``evicted``): memories that arrived by sync are not evicted on arrival,
        and the automatic daily run, which every laptop makes on its own, does not either."""
        report = self._governance.maintain(force=force, trust_clock=trust_clock)
        if not force or report.refused:
            return report
        self.reload_preferences()
        with self._store.db:
            evicted = self._governance.enforce_capacity(self.namespace)
        return replace(report, evicted=tuple(evicted))

    # --- export and restore -------------------------------------------------------------------

    def export(self) -> Iterator[tuple[MemoryRecord, list[Version]]]:
        """Every memory of this namespace that still has content (active, superseded or
        archived), oldest first, with its earlier versions."""
        for stored in self._store.iter_memories(self.namespace, status=None, newest_first=False):
            if stored.record.status is not Status.DELETED:
                yield stored.record, self._lifecycle.versions(stored.record.id)

    def refuse_over_capacity(self, adding: MostAdded) -> None:
        """Refuse, before its work (:class:`WouldArchive`, nothing written), a bulk write whose
        items could take this store over its capacity: ``adding`` counted the most they could
        add, less the texts and exported memories already here."""
        capacity = self._governance.config.capacity
        if capacity is None:
            return
        namespace = self.namespace
        most = adding.here(
            lambda hashed: self._store.find_active_by_hash(namespace, hashed) is not None,
            lambda memory_id: self._store.get(memory_id) is not None,
        )
        self._governance.refuse_over_capacity(namespace, adding=most)

    def restore(self, items: Sequence[Restorable], progress: Progress | None = None) -> Restored:
        """Write back exported memories as they were (same ids, versions, history, confidence,
        timestamps). An id already in the store is skipped; one forgotten here stays forgotten
        (a forget is final, and a review's merge too)."""
        self._check_ready()
        self.reload_preferences()
        restored = 0
        skipped: list[str] = []
        secret: list[str] = []
        forgotten: list[str] = []
        settled_away: list[str] = []
        written: list[str] = []
        with self._writer.all_or_nothing() as evicted:  # all of them or, stopped, none
            for start in range(0, len(items), EMBED_BATCH):
                batch = list(items[start : start + EMBED_BATCH])
                vectors = self._writer.embed_documents([item.record.content for item in batch])
                with self._store.db:
                    for item, vector in zip(batch, vectors, strict=True):
                        present = self._store.get(item.record.id)
                        if present is not None and present.record.status is Status.DELETED:
                            gone = self._writer.gone(item.record.id)
                            (forgotten if gone is None else settled_away).append(item.record.id)
                            continue
                        if present is not None:
                            skipped.append(item.record.id)
                            continue
                        record = replace(
                            item.record, content_hash=content_hash(item.record.content)
                        )
                        self._store.insert(record, vector)
                        if record.secret:
                            secret.append(record.id)
                        for version in item.history:
                            self._store.add_version(record.id, version)
                        restored += 1
                        written.append(record.id)
                if progress:
                    progress(len(batch))
        return Restored(restored, skipped, evicted, secret, forgotten, settled_away, written)

    def waiting(self, exported: Sequence[str]) -> tuple[list[CarriedConflict], list[CarriedNote]]:
        """What the ``exported`` memories wait for, for an export to carry: the pending
        conflicts (oldest first) and the later-version notes on them."""
        conflicts = [
            CarriedConflict(c.existing_id, c.candidate_id, c.similarity, c.reason, c.created_at)
            for c in self._store.pending_conflicts(self.namespace)
        ]
        notes: list[CarriedNote] = []
        for start in range(0, len(exported), _IDS_AT_ONCE):
            chunk = exported[start : start + _IDS_AT_ONCE]
            for earlier, later, similarity in self._store.later_versions(self.namespace, chunk):
                notes.append(CarriedNote(earlier, later, similarity))
        return conflicts, notes

    def restore_waiting(self, carried: Sequence[Carried]) -> int:
        """Queue again the pending conflicts an export carried (and write its later-version
        notes), after its memories were restored; returns how many conflicts were queued. A
        pair the store has (or had) a conflict about, or that a person kept both of on some
        laptop, is left as it is (settled), and one whose two memories are not both active
        here is dropped (one was forgotten, or a review merged it away)."""
        if not carried:
            return 0
        queued = 0
        with self._writer.all_or_nothing(), self._store.db:
            for item in carried:
                if isinstance(item, CarriedConflict):
                    ids = (item.existing_id, item.candidate_id)
                    if (
                        self._active_pair(*ids) is None
                        or self._store.ever_in_conflict(*ids)
                        or self._store.kept_together(*ids)  # (keep-both on another laptop)
                    ):
                        continue
                    self._store.add_conflict(
                        self.namespace, *ids, item.similarity, item.reason, item.queued_at
                    )
                    queued += 1
                    continue
                pair = self._active_pair(item.earlier_id, item.later_id)
                noted = self._store.later_versions(self.namespace, [item.earlier_id])
                if pair is not None and all(later != item.later_id for _, later, _ in noted):
                    earlier, later = pair
                    self._lifecycle.link_successor(
                        later.record, [(earlier, item.similarity or 0.0)]
                    )
        return queued

    def judge_restored(
        self, ids: Sequence[str], spoken_for: Iterable[str], ahead: JudgedAhead | None = None
    ) -> int:
        """Judge memories an import restored as ``add`` would (without the model) against the
        store's other active memories, except the pairs of two memories in ``spoken_for`` (a
        version 2 export carried what those waited for); returns the conflicts queued.
        ``ahead``: the same judging, done before the write lock (:meth:`judge_restored_ahead`;
        check it first with :meth:`check_ahead`): only its writes are left. Used when exactly
        the memories it judged were restored; otherwise they are judged here."""
        if not ids:
            return 0
        spoken = frozenset(spoken_for)
        # (a list: a generator left part-read would keep its statement open, and the table
        # locked for the writes after it)
        active = [stored.record.id for stored in self._store.iter_memories(self.namespace)]
        if spoken.issuperset(active):
            return 0  # (into a fresh store: the export carried all there is to know)
        judging = _restored_judging(spoken)
        with self._writer.all_or_nothing():
            restored = {
                memory_id
                for memory_id in ids
                if (stored := self._store.get(memory_id)) is not None
                and stored.record.status is Status.ACTIVE
                and stored.record.namespace == self.namespace
            }
            if ahead is not None and restored == ahead.ids:
                report = write_judged(self._store, self._lifecycle, self.namespace, ahead, judging)
            else:
                report = judge_arrivals(self._store, self._lifecycle, self.namespace, ids, judging)
        return len(report.queued)

    def judge_restored_ahead(
        self, items: Sequence[Restorable], carried: Sequence[Carried] = ()
    ) -> JudgedAhead | None:
        """What :meth:`judge_restored` will decide for the memories :meth:`restore` writes of
        ``items`` (prepared: their vectors are known), decided now, holding no lock, so that
        other programs' writes wait only for the writes (polish13, as ``remember_many`` since
        mcp12). ``carried``: what the items' export carries, queued before they are judged.
        None when it cannot be decided ahead: an export without its queue (version 1: its
        memories are judged against each other)."""
        self._check_ready()
        if not all(item.carries_queue for item in items):
            return None
        namespace = self.namespace
        spoken = frozenset(item.record.id for item in items)
        written = [
            replace(item.record, content_hash=content_hash(item.record.content))
            for item in items
            if self._store.get(item.record.id) is None
        ]
        active = [
            record
            for record in written
            if record.status is Status.ACTIVE and record.namespace == namespace
        ]
        judging = _restored_judging(spoken)
        stored = [stored.record.id for stored in self._store.iter_memories(namespace)]
        if spoken.issuperset(stored):  # (judge_restored's shortcut: a fresh store)
            active = []
        vectors = self._writer.embed_documents([record.content for record in active])
        # The export's conflicts, queued before its memories are judged: pending for them,
        # (earlier, newer) as the store dates a pending pair.
        made = {record.id: record.created_at for record in written}
        pending: list[tuple[str, str]] = []
        for conflict in carried:
            if isinstance(conflict, CarriedConflict):
                pair = (conflict.existing_id, conflict.candidate_id)
                for memory_id in pair:
                    if memory_id not in made and (known := self._store.get(memory_id)):
                        made[memory_id] = known.record.created_at
                one, other = pair
                pending.append(pair if made.get(one, 0.0) <= made.get(other, 0.0) else (other, one))
        arriving = list(zip(active, vectors, strict=True))
        return judge_ahead(self._store, self._lifecycle, namespace, arriving, judging, pending)

    def check_ahead(self, ahead: JudgedAhead) -> None:
        """:class:`StaleDecisions` when another program changed a memory of this namespace
        since ``ahead`` was judged: at the start of the import's transaction (its lock held),
        before its own writes."""
        if self._store.touched_since(self.namespace, ahead.seq):
            raise StaleDecisions

    def _active_pair(self, one: str, other: str) -> tuple[StoredMemory, StoredMemory] | None:
        """The two memories, when both are active memories of this namespace."""
        first, second = self._store.get(one), self._store.get(other)
        if first is None or second is None:
            return None
        for stored in (first, second):
            if (
                stored.record.status is not Status.ACTIVE
                or stored.record.namespace != self.namespace
            ):
                return None
        return first, second

    # --- replication (localmind.replica; the sync package carries the events) ---------------

    @property
    def device_id(self) -> str:
        return self._store.device_id

    def events_since(
        self, seq: int, limit: int | None = None, *, relay_through: int = 0
    ) -> list[Event]:
        """This device's own changes (every namespace) after log position ``seq``, oldest
        first: the outbox other devices apply with :meth:`apply_remote`. Up to position
        ``relay_through`` other devices' changes too (to relay the whole history)."""
        return events_since(self._store, seq, limit, relay_through=relay_through)

    def latest_event_seq(self) -> int:
        """The log position of the newest event this store holds (0 when none)."""
        return self._store.latest_event_seq()

    def data_version(self) -> int:
        """A number that changes whenever another program (the CLI, the MCP server, another
        open of the store) has written to the store since it was last asked; this store's
        own writes leave it as it is. A front end polls it to notice others' changes."""
        return self._store.data_version()

    def apply_remote(
        self, events: Iterable[Event], *, meta: dict[str, str] | None = None
    ) -> ApplyReport:
        """Apply other devices' events (per-field last writer wins by stamp, forgets final,
        embedded here); idempotent. ``meta`` entries are written in the same transaction."""
        self._check_ready()
        # Arrivals are judged here as if told here (conflicts and later-version notes are
        # local), without the model, in the import's transaction (localmind.arrivals).
        return apply_remote(
            self._store,
            events,
            embed=self._writer.embed_documents,
            content_hash=content_hash,
            meta=meta,
            judge=lambda ids: judge_arrivals(self._store, self._lifecycle, self.namespace, ids),
            folded=self._ask_about_other_copies,
        )

    def _ask_about_other_copies(self, folds: Sequence[tuple[str, str]]) -> None:
        """A change another laptop's resolution folded into a memory reaches the other copies
        it was noted to supersede here (``localmind.superseded``)."""
        for dropped, kept in folds:
            ask_about_other_copies(
                self._store,
                self._lifecycle,
                self.namespace,
                dropped,
                kept,
                "on another laptop",
                self._writer.embed_documents,
            )

    def get_meta(self, key: str) -> str | None:
        """A value from the store's ``meta`` table (sync keeps its cursors there)."""
        return self._store.get_meta(key)

    def set_meta(self, key: str, value: str) -> None:
        with self._store.db:
            self._store.set_meta(key, value)

    def reset_meta(self, prefix: str, values: dict[str, str]) -> None:
        """Delete every ``meta`` entry whose key starts with ``prefix`` and write ``values``,
        in one transaction (sync starting a fresh stream)."""
        with self._store.db:
            self._store.delete_meta_prefixed(prefix)
            for key, value in values.items():
                self._store.set_meta(key, value)

    def stored_in_all_namespaces(self) -> int:
        """Active memories of every namespace: what :meth:`reindex` will embed."""
        return self._store.count_all_active()

    def stats(self) -> dict[str, Any]:
        store = self._store
        size = sum(p.stat().st_size for p in (self.path, *sidecars(self.path)) if p.exists())
        return {
            "path": str(self.path),
            "namespace": self.namespace,
            "active": self.count(),
            "short_term": len(self._short_term),
            # of the active memories, as "active" counts them (forgotten ones are tombstones)
            "by_type": store.counts_by("type", self.namespace, str(Status.ACTIVE)),
            "by_status": store.counts_by("status", self.namespace),
            # of the "deleted" ones, those folded into another memory (its text lives on there)
            "merged_away": store.count_folded(self.namespace),
            "namespaces": store.counts_by("namespace", None),
            "events": store.event_count(),
            "embedder": store.get_meta("embedder"),
            "device_id": store.device_id,
            "schema_version": int(store.get_meta("schema_version") or 0),
            "size_bytes": size,
            "capacity": self.settings.governance.capacity,
            # arrived by sync, which never evicts; `maintain` or the next write archives them
            "over_capacity": self._governance.over_capacity(self.namespace),
            "pending_conflicts": self.pending_conflicts(),
            "confidence_histogram": self._governance.confidence_histogram(self.namespace),
            "activity_by_day": self._governance.activity_by_day(self.namespace),
            "recall_latency": self._governance.latency_percentiles(),
            "last_maintenance": float(last) if (last := store.get_meta(LAST_MAINTENANCE)) else None,
        }

    def warm_up(self) -> None:
        """Load the embedding model now instead of at the first recall or write. Safe to call
        from another thread while this memory is in use: it touches no store state."""
        warm_up(self.embedder)

    def _check_ready(self) -> None:
        if self.needs_reindex:
            raise StoreError(
                f"The store must be re-embedded with {self.embedder.identity} first: "
                "run `localmind reindex`."
            )

    def iter_all(self) -> Iterator[MemoryRecord]:
        for stored in self._store.iter_memories(self.namespace, status=None, newest_first=False):
            yield stored.record


def _restored_judging(spoken_for: frozenset[str]) -> Judging:
    """How an import judges the memories of an export it restored (``localmind.arrivals``)."""
    return Judging(
        "judged when imported", None, merges=False, spoken_for=spoken_for, both_ways=True
    )

"""``Memory``: the library face of localmind. Open a store, remember, recall, forget.

with Memory.open("memories.db", passphrase) as memory:
    memory.remember("用户喜欢 Rust 编程语言", type="semantic")
    for result in memory.recall("编程"):
        print(result.memory.content, result.breakdown)
"""

from __future__ import annotations

import hashlib
import os
import time
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
from ulid import ULID

from localmind import validation
from localmind.config import Settings
from localmind.db import AEGIS_256, connect
from localmind.embedders import default_embedder, embedder_from_spec
from localmind.embedders.base import Embedder, Vectors
from localmind.embedders.rerank import Reranker
from localmind.errors import EmbedderMismatch, InvalidInput, NotAStore, NotFound, StoreError
from localmind.governance import LAST_MAINTENANCE, Governance, MaintenanceReport
from localmind.hlc import HybridLogicalClock, Stamp
from localmind.keys import KdfParams, KeyFile, key_file_for
from localmind.lifecycle import (
    Conflict,
    Decision,
    Feedback,
    Lifecycle,
    Outcome,
    Relation,
    Resolution,
    Version,
)
from localmind.llm.base import LLM
from localmind.migrations import migrate
from localmind.profile import Profile, ProfileEngine, context_block
from localmind.recall import Recaller, ShortTerm
from localmind.records import MemoryRecord, MemoryType, RecallResult, Status
from localmind.replica import ApplyReport, Event, apply_remote, events_since
from localmind.ringbuffer import RingBuffer
from localmind.store import SqliteStore, StoredMemory
from localmind.transfer import Restorable

Clock = Callable[[], float]
Progress = Callable[[int], None]  # called with the number of items just finished

EMBED_BATCH = 64
_REINFORCE_CONFIDENCE = 0.05


def content_hash(text: str) -> str:
    """Equal for texts that differ only in case, spacing, width or punctuation: the same
    memory for the exact-duplicate check and the embedding cache."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    kept = "".join(" " if unicodedata.category(c)[0] in "PZC" else c for c in folded)
    return hashlib.sha256(" ".join(kept.split()).encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class NewMemory:
    """One memory to add in a batch (see :meth:`Memory.remember_many`)."""

    content: str
    type: MemoryType | str = MemoryType.LONG_TERM
    importance: float | None = None
    metadata: dict[str, Any] | None = None
    created_at: float | None = None


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

    # --- opening and closing ------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str],
        passphrase: str,
        *,
        embedder: Embedder | str | None = None,
        namespace: str = "me",
        settings: Settings | None = None,
        clock: Clock = time.time,
        create: bool = True,
        kdf: KdfParams | None = None,
        accept_new_embedder: bool = False,
        llm: LLM | None = None,
        maintain: bool = True,
        reranker: Reranker | None = None,
    ) -> Memory:
        """Unlock the store at ``path`` (creating it, with ``passphrase``, if neither it nor its
        key file exist and ``create`` is true).

        ``embedder``: an :class:`Embedder`, a spec such as ``"use"`` or
        ``"fastembed:<model or directory>"``, or None for the one the store was made with.
        Asking for another embedder than the store's raises :class:`EmbedderMismatch` unless
        ``accept_new_embedder`` is true; then only :meth:`reindex` may run until it has.

        ``llm``: the model that checks contradictions (and more); without one, possible
        contradictions are queued for review instead.

        ``maintain``: run the daily maintenance now if the last run is over a day old.

        ``reranker``: a cross-encoder (e.g. ``FastembedReranker``) that :meth:`recall` uses to
        rescore its best candidates; loaded on first use.
        """
        path = Path(path).expanduser()
        if not validation.is_unicode(str(path)):  # a byte that is not UTF-8 in a name
            raise StoreError(
                f"{str(path)!r} cannot hold a store: SQLite needs a path that is valid UTF-8."
            )
        key_path = key_file_for(path)
        namespace = validation.namespace(namespace)
        settings = settings or Settings()
        if path.exists() and not path.is_file():
            raise NotAStore(f"{path} is a directory, not a localmind store.")
        if path.exists() and not key_path.exists():
            raise NotAStore(
                f"{path} is not a localmind store: its key file {key_path.name} is missing. "
                "If you moved the store, move its .key file with it."
            )
        if key_path.exists() and not path.exists():
            raise NotAStore(f"Found the key file {key_path} but not the database {path}.")
        creating = not path.exists()
        if creating:
            if not create:
                raise NotAStore(f"No localmind store at {path}.")
            key_file, data_key = KeyFile.create(passphrase, kdf, AEGIS_256.name)
            path.parent.mkdir(parents=True, exist_ok=True)
            # Owner-only from the first byte; SQLite gives the WAL and shm files the same mode.
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        else:
            key_file = KeyFile.load(key_path)
            data_key = key_file.unwrap(passphrase)

        db = connect(path, data_key, create=creating, cipher=key_file.cipher)
        try:
            if creating:
                key_file.save(key_path)
            migrate(db)
            memory = cls._attach(
                db, path, embedder, namespace, settings, clock, accept_new_embedder, llm, reranker
            )
        except BaseException:
            db.close()
            if creating:
                for leftover in (path, key_path, *_sidecars(path)):
                    leftover.unlink(missing_ok=True)
            raise
        if creating:
            with db:
                memory._store.set_meta(LAST_MAINTENANCE, repr(clock()))
        elif maintain and not memory.needs_reindex and memory._governance.due():
            # not forced: checked again under the write lock, in case another process opening
            # the store at the same moment ran it first
            memory.maintain(force=False)
        return memory

    @classmethod
    def _attach(
        cls,
        db: Any,
        path: Path,
        embedder: Embedder | str | None,
        namespace: str,
        settings: Settings,
        clock: Clock,
        accept_new_embedder: bool,
        llm: LLM | None = None,
        reranker: Reranker | None = None,
    ) -> Memory:
        probe = SqliteStore(db, HybridLogicalClock("", clock), "", clock)
        stored_identity = probe.get_meta("embedder")
        stored_spec = probe.get_meta("embedder_spec")
        if isinstance(embedder, str):
            embedder = embedder_from_spec(embedder)
        elif embedder is None:
            embedder = embedder_from_spec(stored_spec) if stored_spec else default_embedder()

        device_id = probe.get_meta("device_id")
        if device_id is None:
            with db:
                # Read again under the write lock: a second process may open the new store
                # while the first is still setting it up.
                device_id = probe.get_meta("device_id")
                if device_id is None:
                    device_id = str(ULID())
                    probe.set_meta("device_id", device_id)
                    probe.set_meta("created_at", repr(clock()))
        last = db.execute("SELECT max(hlc) FROM events").fetchone()[0]
        hlc = HybridLogicalClock(device_id, clock, Stamp.parse(last) if last else None)
        store = SqliteStore(db, hlc, device_id, clock)

        needs_reindex = False
        if stored_identity is None:
            with db:
                if store.get_meta("embedder") is None:  # (as for the device id above)
                    _record_embedder(store, embedder)
        elif stored_identity != embedder.identity:
            if not accept_new_embedder:
                raise EmbedderMismatch(
                    f"This store's memories were embedded with {stored_identity}, but "
                    f"{embedder.identity} was asked for. Run `localmind reindex` with the new "
                    f"embedder to re-embed them, or open the store without choosing an embedder."
                )
            needs_reindex = True
        if not needs_reindex:
            store.vector_identity = embedder.identity
        return cls(
            store,
            embedder,
            path=path,
            namespace=namespace,
            settings=settings,
            clock=clock,
            llm=llm,
            needs_reindex=needs_reindex,
            reranker=reranker,
        )

    @staticmethod
    def change_passphrase(path: str | os.PathLike[str], old: str, new: str) -> None:
        """Re-wrap the data key with ``new``; the database itself is not rewritten."""
        key_path = key_file_for(Path(path).expanduser())
        if not key_path.exists():
            raise NotAStore(f"No localmind key file at {key_path}.")
        KeyFile.load(key_path).rewrap(old, new).save(key_path)

    def close(self) -> None:
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
    ) -> MemoryRecord:
        """Store a memory; return the memory that now holds the fact (see
        :meth:`remember_explained` for what was decided and why)."""
        return self.remember_explained(
            content, type, importance, metadata, created_at=created_at
        ).record

    def remember_explained(
        self,
        content: str,
        type: MemoryType | str = MemoryType.LONG_TERM,
        importance: float | None = None,
        metadata: dict[str, Any] | None = None,
        *,
        created_at: float | None = None,
    ) -> Outcome:
        """Store a memory, deciding against its nearest neighbour (``LifecycleConfig``):

        - ``short_term`` goes to the session's ring buffer only;
        - the same text again (ignoring case, spacing and punctuation) reinforces the memory;
        - at or above the conflict threshold the LLM decides: the same fact is merged, a
          contradiction overwrites the existing memory (a new version; the old text stays in its
          history), a compatible fact is inserted;
        - without a usable LLM a near-identical text (at or above the merge threshold, same
          numbers) is merged, anything else in the band inserted with a conflict queued;
        - anything else is inserted.
        """
        self._check_ready()
        item = self.validate(NewMemory(content, type, importance, metadata, created_at))
        if item.type is MemoryType.SHORT_TERM:
            return Outcome(self._push_short_term(item), Decision.INSERTED)
        hashed = content_hash(item.content)
        if self._store.find_active_by_hash(self.namespace, hashed) is not None:
            with self._store.db:
                twin = self._reinforce_twin(hashed, item)
            if twin is not None:
                return twin
        vector = self._embed_documents([item.content])[0]
        config = self.settings.lifecycle
        nearest = self._lifecycle.nearest_active(self.namespace, vector)
        relation: Relation | None = None
        why = ""
        if nearest is not None and nearest[1] >= config.conflict_threshold:
            # Asked outside the transaction: the model may take seconds.
            relation, why = self._lifecycle.llm_verdict(nearest[0].record.content, item.content)
            if relation is None and self._lifecycle.safe_to_merge_unasked(
                nearest[0].record.content, item.content, nearest[1]
            ):
                relation, why = Relation.SAME, f"near-identical ({why})"
        with self._store.db:
            # Another process may have stored the same text while this one embedded it.
            twin = self._reinforce_twin(hashed, item)
            if twin is not None:
                return twin
            fresh = self._store.get(nearest[0].record.id) if nearest else None
            # Unrelated, or the neighbour stopped being active while the LLM was thinking.
            if (
                nearest is None
                or nearest[1] < config.conflict_threshold
                or fresh is None
                or fresh.record.status is not Status.ACTIVE
            ):
                outcome = Outcome(self._insert(item, hashed, vector), Decision.INSERTED)
            else:
                neighbour, similarity = nearest[0].record, nearest[1]
                if relation is Relation.SAME:
                    merged = self._lifecycle.merge(fresh, item.content, similarity)
                    outcome = Outcome(merged, Decision.MERGED, neighbour, similarity, why)
                elif relation is Relation.CONTRADICTS:
                    reason = f"contradicted by a new memory (similarity {similarity:.2f}): {why}"
                    record = self._lifecycle.overwrite(
                        fresh,
                        item.content,
                        hashed,
                        vector,
                        reason,
                        self.settings.default_confidence,
                    )
                    outcome = Outcome(record, Decision.OVERWRITTEN, neighbour, similarity, why)
                elif relation is Relation.COMPATIBLE:
                    record = self._insert(item, hashed, vector)
                    outcome = Outcome(record, Decision.INSERTED, neighbour, similarity, why)
                else:
                    record = self._insert(item, hashed, vector)
                    # The conflict row links both memories; the reason says why it is queued.
                    reason = f"may contradict the older memory; no LLM to check ({why})"
                    conflict_id = self._lifecycle.queue_conflict(
                        fresh.record, record, similarity, reason
                    )
                    outcome = Outcome(
                        record, Decision.QUEUED, neighbour, similarity, reason, conflict_id
                    )
            self._governance.enforce_capacity(self.namespace)
        return outcome

    def remember_many(
        self, items: Iterable[NewMemory], progress: Progress | None = None
    ) -> list[MemoryRecord]:
        """Add many memories fast: embedded in batches, written one transaction per batch.
        Every item is validated before anything is written; one bad item stops the whole call
        with an :class:`InvalidInput` that names its position."""
        self._check_ready()
        validated = []
        for position, item in enumerate(items, start=1):
            try:
                validated.append(self.validate(item))
            except InvalidInput as error:
                raise InvalidInput(f"item {position}: {error}") from None
        results: list[MemoryRecord] = []
        for start in range(0, len(validated), EMBED_BATCH):
            batch = validated[start : start + EMBED_BATCH]
            vectors = self._embed_documents([item.content for item in batch])
            with self._store.db:
                for item, vector in zip(batch, vectors, strict=True):
                    if item.type is MemoryType.SHORT_TERM:
                        results.append(self._push_short_term(item, vector))
                        continue
                    hashed = content_hash(item.content)
                    twin = self._reinforce_twin(hashed, item)
                    results.append(twin.record if twin else self._insert(item, hashed, vector))
                self._governance.enforce_capacity(self.namespace)
            if progress:
                progress(len(batch))
        return results

    def _embed_documents(self, contents: Sequence[str]) -> list[Vectors]:
        """Vectors for ``contents``. The embedding cache is keyed by content hash: text already
        stored (in any namespace) reuses its vector, and repeats within the call are embedded
        once; only the rest reach the model."""
        hashes = [content_hash(text) for text in contents]
        found: dict[str, Vectors] = {}
        for hashed in dict.fromkeys(hashes):
            blob = self._store.cached_vector(hashed)
            if blob is not None:
                found[hashed] = np.frombuffer(blob, dtype=np.float32)
        missing: dict[str, str] = {}
        for hashed, text in zip(hashes, contents, strict=True):
            if hashed not in found:
                missing.setdefault(hashed, text)
        if missing:
            fresh = self.embedder.embed_documents(list(missing.values()))
            found.update(zip(missing, fresh, strict=True))
        return [found[hashed] for hashed in hashes]

    def validate(self, item: NewMemory) -> NewMemory:
        """The item with defaults filled in, or :class:`InvalidInput` saying what is wrong."""
        return validate_new(item, self.settings)

    def _new_record(self, item: NewMemory, hashed: str) -> MemoryRecord:
        now = self._clock()
        created = now if item.created_at is None else float(item.created_at)
        return MemoryRecord(
            id=str(ULID.from_timestamp(created)) if created > 0 else str(ULID()),
            content=item.content,
            type=MemoryType(item.type),
            namespace=self.namespace,
            metadata=dict(item.metadata or {}),
            importance=float(item.importance if item.importance is not None else 0.5),
            confidence=self.settings.default_confidence,
            created_at=created,
            updated_at=created,
            content_hash=hashed,
        )

    def _insert(self, item: NewMemory, hashed: str, vector: Vectors) -> MemoryRecord:
        record = self._new_record(item, hashed)
        self._store.insert(record, vector)
        return record

    def _reinforce_twin(self, hashed: str, item: NewMemory) -> Outcome | None:
        """Reinforce the active memory with the same text, if there is one. Call it inside the
        write transaction: read before it, the memory may have changed or been forgotten by
        another process since."""
        existing = self._store.find_active_by_hash(self.namespace, hashed)
        if existing is None:
            return None
        record = existing.record
        reinforced = self._store.update_fields(
            existing,
            "same content remembered again",
            confidence=min(1.0, record.confidence + _REINFORCE_CONFIDENCE),
            importance=max(record.importance, float(item.importance or 0.0)),
            updated_at=self._clock(),
        )
        return Outcome(reinforced, Decision.REINFORCED, existing.record, 1.0)

    def _push_short_term(self, item: NewMemory, vector: Vectors | None = None) -> MemoryRecord:
        record = self._new_record(item, content_hash(item.content))
        if vector is None:
            vector = self._embed_documents([record.content])[0]
        self._short_term.push(ShortTerm(record, vector))
        return record

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
        self._check_ready()
        limits = self.settings.limits
        fields: dict[str, Any] = {}
        if type is not None:
            fields["type"] = validation.memory_type(type)
            if fields["type"] is MemoryType.SHORT_TERM:
                raise InvalidInput("A stored memory cannot become short_term.")
        if importance is not None:
            fields["importance"] = validation.unit_interval(importance, "importance")
        if confidence is not None:
            fields["confidence"] = validation.unit_interval(confidence, "confidence")
        if metadata is not None:
            fields["metadata"] = validation.metadata(metadata, limits)
        if pinned is not None:
            fields["pinned"] = bool(pinned)
        if expires_at is not None:
            fields["expires_at"] = validation.timestamp(expires_at, "expires_at")
        new_content = None if content is None else validation.content(content, limits)
        stored = self._get_changeable(memory_id)
        vector = None
        if new_content is not None and new_content != stored.record.content:
            vector = self._embed_documents([new_content])[0]
        with self._store.db:
            # Read again under the write lock: another process may have changed or forgotten
            # the memory while its new text was embedded.
            stored = self._get_changeable(memory_id)
            now = self._clock()
            record = stored.record
            if vector is not None and new_content is not None and new_content != record.content:
                record = self._store.replace_content(
                    stored, new_content, content_hash(new_content), vector, reason, now
                )
            if fields:
                record = self._store.update_fields(stored, reason, updated_at=now, **fields)
        return record

    def _get_changeable(self, memory_id: str) -> StoredMemory:
        stored = self._get_stored(memory_id)
        if stored.record.status is Status.DELETED:
            raise InvalidInput(f"Memory {memory_id} was forgotten; it cannot be changed.")
        return stored

    def forget(self, memory_id: str) -> None:
        """Remove a memory: its content and history are erased at once; a tombstone remains so
        the deletion can replicate."""
        if self._short_term.remove_if(lambda item: item.record.id == memory_id):
            return
        self._get_stored(memory_id)  # an unknown id fails before waiting for the write lock
        with self._store.db:
            stored = self._get_stored(memory_id)  # as it is now, under the write lock
            if stored.record.status is not Status.DELETED:
                self._forget_stored(stored)

    def _forget_stored(self, stored: StoredMemory) -> None:
        self._store.erase(stored, self._clock())
        self._lifecycle.supersede_conflicts_of(stored.record.id)

    # --- feedback, versions, conflicts --------------------------------------------------------

    def feedback(
        self, memory_id: str, kind: Feedback | str, new_content: str | None = None
    ) -> MemoryRecord:
        """A person's verdict on a memory: ``confirm`` (+0.1 confidence), ``deny`` (−0.2), or
        ``correct`` with ``new_content`` (a new version, re-embedded, confidence 0.9).
        Confidence stays within [0, 1]."""
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
            return self.update(
                memory_id,
                content=new_content,
                confidence=config.corrected_confidence,
                reason="correct",
            )
        if new_content is not None:
            raise InvalidInput(f"{kind} takes no text; use correct to change the memory.")
        delta = config.confirm_delta if kind is Feedback.CONFIRM else config.deny_delta
        return self.nudge_confidence(memory_id, delta, str(kind))

    def nudge_confidence(self, memory_id: str, delta: float, reason: str) -> MemoryRecord:
        """Move confidence by ``delta`` (clamped to [0, 1]); implicit feedback uses this."""
        self._get_active(memory_id)  # a bad id fails before waiting for the write lock
        with self._store.db:
            # Read under the write lock: another process's change in between is not lost.
            stored = self._get_active(memory_id)
            record = self._lifecycle.adjust_confidence(stored, delta, reason)
        return record

    def revert(self, memory_id: str, version: int) -> MemoryRecord:
        """Bring back the text of an earlier ``version``; the current text becomes history too,
        so a revert can itself be reverted."""
        stored = self._get_active(memory_id)
        earlier = {v.version: v for v in self._lifecycle.versions(stored.record.id)}
        if version not in earlier:
            known = ", ".join(str(v) for v in sorted(earlier)) or "none"
            raise InvalidInput(
                f"Memory {memory_id} has no earlier version {version} (earlier versions: {known})."
            )
        return self.update(memory_id, content=earlier[version].content, reason="revert")

    def conflicts(self) -> list[Conflict]:
        """Pending conflicts of this namespace, oldest first."""
        return self._lifecycle.pending(self.namespace)

    def resolve_conflict(
        self, conflict_id: int, resolution: Resolution | str, merged_text: str | None = None
    ) -> MemoryRecord | None:
        """Settle a conflict; returns the memory that holds the fact afterwards (None when
        nothing remains, which cannot happen for these resolutions but keeps callers honest).

        keep_old: forget the new memory · take_new: the new text becomes the old memory's next
        version and the new memory goes · keep_both: both stay · merge: ``merged_text``
        becomes the old memory's next version and the new memory goes."""
        try:
            resolution = Resolution(str(resolution).strip().lower().replace("-", "_"))
        except ValueError:
            known = ", ".join(r.value for r in Resolution)
            raise InvalidInput(f"Unknown resolution {resolution!r}; use one of: {known}.") from None
        if resolution is Resolution.MERGE:
            if merged_text is None:
                raise InvalidInput("A merge needs the merged text.")
            merged_text = validation.content(merged_text, self.settings.limits)
        elif merged_text is not None:
            raise InvalidInput("Only a merge takes a text.")
        conflict = self._lifecycle.conflict(self.namespace, conflict_id)
        existing_id, candidate_id = conflict.existing.id, conflict.candidate.id
        if resolution is Resolution.KEEP_BOTH:
            with self._store.db:
                self._close_conflict(conflict_id, resolution)
            return self.get(existing_id)
        if resolution is Resolution.KEEP_OLD:
            with self._store.db:
                self._close_conflict(conflict_id, resolution)
                self._forget_stored(self._get_active(candidate_id))
            return self.get(existing_id)
        text = conflict.candidate.content if resolution is Resolution.TAKE_NEW else merged_text
        assert text is not None
        vector = self._embed_documents([text])[0]
        with self._store.db:
            self._close_conflict(conflict_id, resolution)
            self._forget_stored(self._get_active(candidate_id))
            existing = self._get_active(existing_id)
            record = self._store.replace_content(
                existing, text, content_hash(text), vector, str(resolution), self._clock()
            )
        return record

    def _close_conflict(self, conflict_id: int, resolution: Resolution) -> None:
        # Checked again under the write lock: another process may have settled it meanwhile.
        self._lifecycle.conflict(self.namespace, conflict_id)
        self._lifecycle.close_conflict(conflict_id, resolution)

    def pending_conflicts(self) -> int:
        return self._lifecycle.pending_count(self.namespace)

    def _get_active(self, memory_id: str) -> StoredMemory:
        stored = self._get_stored(memory_id)
        if stored.record.status is not Status.ACTIVE:
            raise InvalidInput(f"Memory {memory_id} is {stored.record.status}; it cannot change.")
        return stored

    # --- profile and context ------------------------------------------------------------------

    def profile(self, *, rebuild: bool = False) -> Profile | None:
        """The user's profile, rebuilt first when enough memories changed since the last build
        (or always, with ``rebuild``). None while there is no memory to build one from."""
        if rebuild or self._profiles.needs_rebuild(self.namespace):
            built = self._profiles.build(self.namespace)
            if built is not None:
                return built
        return self._profiles.current(self.namespace)

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
        """Text for a system prompt: the profile, then the memories most relevant to ``query``,
        each part within its token budget (defaults 200 and 300)."""
        config = self.settings.profile
        recalled = [r.memory for r in self.recall(query, limit)]
        return context_block(
            self.profile(),
            recalled,
            profile_tokens=config.budget_tokens if profile_tokens is None else profile_tokens,
            memory_tokens=config.context_memory_tokens if memory_tokens is None else memory_tokens,
        )

    def clear(self) -> int:
        """Forget every memory of this namespace (and the short-term buffer). Returns how many."""
        removed = len(self._short_term)
        self._short_term.clear()
        with self._store.db:
            for stored in list(self._store.iter_memories(self.namespace, status=None)):
                if stored.record.status is not Status.DELETED:
                    self._forget_stored(stored)
                    removed += 1
        return removed

    # --- reading ------------------------------------------------------------------------------

    def get(self, memory_id: str) -> MemoryRecord:
        for item in self._short_term:
            if item.record.id == memory_id:
                return item.record
        return self._get_stored(memory_id).record

    def _get_stored(self, memory_id: str) -> StoredMemory:
        if not isinstance(memory_id, str) or not memory_id.strip():
            raise InvalidInput("A memory id is needed.")
        # (an id SQLite cannot even encode, such as a lone surrogate, names no memory)
        stored = self._store.get(memory_id.strip()) if validation.is_unicode(memory_id) else None
        if stored is None or stored.record.namespace != self.namespace:
            raise NotFound(f"No memory with id {memory_id!r}.")
        return stored

    def count(self, types: Sequence[MemoryType | str] | None = None) -> int:
        """Active memories of this namespace, the short-term buffer included."""
        wanted = validation.memory_types(types)
        stored_types = [str(t) for t in wanted or [] if t is not MemoryType.SHORT_TERM]
        buffered = len(self._short_term) if not wanted or MemoryType.SHORT_TERM in wanted else 0
        if wanted and not stored_types:
            return buffered
        return self._store.count(self.namespace, stored_types or None) + buffered

    def list_memories(
        self,
        types: Sequence[MemoryType | str] | None = None,
        *,
        status: Status | str | None = Status.ACTIVE,
        limit: int | None = None,
        offset: int = 0,
        newest_first: bool = True,
    ) -> list[MemoryRecord]:
        """Memories, newest first by default; the short-term buffer leads (it is the newest)."""
        wanted = validation.memory_types(types)
        stored_types = [str(t) for t in wanted or [] if t is not MemoryType.SHORT_TERM]
        include_buffer = (not wanted or MemoryType.SHORT_TERM in wanted) and status in (
            Status.ACTIVE,
            None,
        )
        buffered = []
        if include_buffer:
            items = self._short_term.newest_first() if newest_first else iter(self._short_term)
            buffered = [item.record for item in items]
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
        )
        return head + [stored.record for stored in rows]

    def short_term(self) -> list[MemoryRecord]:
        """The ring buffer's memories, oldest first."""
        return [item.record for item in self._short_term]

    def history(self, memory_id: str) -> list[Version]:
        """Earlier versions of a memory, oldest first, each with why it was replaced."""
        return self._lifecycle.versions(self._get_stored(memory_id).record.id)

    def recall(
        self,
        query: str,
        limit: int = 5,
        *,
        types: Sequence[MemoryType | str] | MemoryType | str | None = None,
        threshold: float = 0.0,
        touch: bool = True,
        hyde: bool = False,
        rerank: bool | None = None,
    ) -> list[RecallResult]:
        """The memories most relevant to ``query``, best first, each with its score breakdown
        (see :meth:`localmind.recall.Recaller.recall`)."""
        self._check_ready()
        return self._recaller.recall(
            query, limit, types=types, threshold=threshold, touch=touch, hyde=hyde, rerank=rerank
        )

    def query_vector(self, query: str) -> Vectors:
        """The query's embedding, from a small in-process cache when it was asked before."""
        return self._recaller.query_vector(query)

    # --- maintenance --------------------------------------------------------------------------

    def reindex(self, progress: Progress | None = None) -> int:
        """Re-embed every active memory with this store's embedder (after a change of model).
        Returns how many were embedded. Safe to interrupt: it only commits when done."""
        store = self._store
        rows = [
            (stored.rowid, stored.record)
            for stored in store.iter_memories(None, status="active", newest_first=False)
        ]
        vectors: list[Vectors] = []
        for start in range(0, len(rows), EMBED_BATCH):
            batch = rows[start : start + EMBED_BATCH]
            vectors.extend(self.embedder.embed_documents([record.content for _, record in batch]))
            if progress:
                progress(len(batch))
        embedded = {record.content: v for (_, record), v in zip(rows, vectors, strict=True)}
        with store.db:
            # The rows as they are now, under the write lock: what another process added or
            # changed while the rest was embedded is embedded here (the few, not the many).
            rows = [
                (stored.rowid, stored.record)
                for stored in store.iter_memories(None, status="active", newest_first=False)
            ]
            late = list({r.content: None for _, r in rows if r.content not in embedded})
            if late:
                embedded.update(zip(late, self.embedder.embed_documents(late), strict=True))
            store.create_vector_table(self.embedder.dim)
            store.db.executemany(
                "INSERT INTO memory_vec (rowid, namespace, type, embedding) VALUES (?, ?, ?, ?)",
                [
                    (
                        rowid,
                        record.namespace,
                        str(record.type),
                        np.asarray(embedded[record.content], np.float32).tobytes(),
                    )
                    for rowid, record in rows
                ],
            )
            _record_embedder(store, self.embedder, create_table=False)
            store.vector_identity = self.embedder.identity
            store.record_event(
                self.namespace, None, "reindex", {"embedder": self.embedder.identity}
            )
        self.needs_reindex = False
        self._recaller.clear_cache()
        for item in self._short_term:
            item.vector = self.embedder.embed_documents([item.record.content])[0]
        return len(rows)

    def maintain(self, *, force: bool = True) -> MaintenanceReport:
        """Expire, archive decayed memories, decay doubtful ones, purge old archives. With
        ``force`` false it only runs when the last run is over the interval old."""
        return self._governance.maintain(force=force)

    # --- export and restore -------------------------------------------------------------------

    def export(self) -> Iterator[tuple[MemoryRecord, list[Version]]]:
        """Every memory of this namespace that still has content (active, superseded or
        archived), oldest first, with its earlier versions."""
        for stored in self._store.iter_memories(self.namespace, status=None, newest_first=False):
            if stored.record.status is not Status.DELETED:
                yield stored.record, self._lifecycle.versions(stored.record.id)

    def restore(
        self, items: Sequence[Restorable], progress: Progress | None = None
    ) -> tuple[int, list[str]]:
        """Write back exported memories as they were (same ids, versions, history, confidence,
        timestamps). An id already in the store is skipped. Returns (restored, skipped ids)."""
        self._check_ready()
        restored, skipped = 0, []
        for start in range(0, len(items), EMBED_BATCH):
            batch = list(items[start : start + EMBED_BATCH])
            vectors = self._embed_documents([item.record.content for item in batch])
            with self._store.db:
                for item, vector in zip(batch, vectors, strict=True):
                    if self._store.get(item.record.id) is not None:
                        skipped.append(item.record.id)
                        continue
                    record = replace(item.record, content_hash=content_hash(item.record.content))
                    self._store.insert(record, vector)
                    for version in item.history:
                        self._store.add_version(record.id, version)
                    restored += 1
                self._governance.enforce_capacity(self.namespace)
            if progress:
                progress(len(batch))
        return restored, skipped

    # --- replication (localmind.replica; the sync package carries the events) ---------------

    @property
    def device_id(self) -> str:
        return self._store.device_id

    def events_since(self, seq: int, limit: int | None = None) -> list[Event]:
        """This device's own changes (every namespace) after log position ``seq``, oldest
        first: the outbox other devices apply with :meth:`apply_remote`."""
        return events_since(self._store, seq, limit)

    def apply_remote(
        self, events: Iterable[Event], *, meta: dict[str, str] | None = None
    ) -> ApplyReport:
        """Apply other devices' events (per-field last writer wins by stamp, forgets final,
        embedded here); idempotent. ``meta`` entries are written in the same transaction."""
        self._check_ready()
        return apply_remote(
            self._store,
            events,
            embed=self._embed_documents,
            content_hash=content_hash,
            meta=meta,
        )

    def get_meta(self, key: str) -> str | None:
        """A value from the store's ``meta`` table (sync keeps its cursors there)."""
        return self._store.get_meta(key)

    def set_meta(self, key: str, value: str) -> None:
        with self._store.db:
            self._store.set_meta(key, value)

    def stored_in_all_namespaces(self) -> int:
        """Active memories of every namespace: what :meth:`reindex` will embed."""
        return self._store.count_all_active()

    def stats(self) -> dict[str, Any]:
        store = self._store
        size = sum(p.stat().st_size for p in (self.path, *_sidecars(self.path)) if p.exists())
        return {
            "path": str(self.path),
            "namespace": self.namespace,
            "active": self.count(),
            "short_term": len(self._short_term),
            "by_type": store.counts_by("type", self.namespace),
            "by_status": store.counts_by("status", self.namespace),
            "namespaces": store.counts_by("namespace", None),
            "events": store.event_count(),
            "embedder": store.get_meta("embedder"),
            "device_id": store.device_id,
            "schema_version": int(store.get_meta("schema_version") or 0),
            "size_bytes": size,
            "capacity": self.settings.governance.capacity,
            "pending_conflicts": self.pending_conflicts(),
            "confidence_histogram": self._governance.confidence_histogram(self.namespace),
            "activity_by_day": self._governance.activity_by_day(self.namespace),
            "recall_latency": self._governance.latency_percentiles(),
            "last_maintenance": float(last) if (last := store.get_meta(LAST_MAINTENANCE)) else None,
        }

    def _check_ready(self) -> None:
        if self.needs_reindex:
            raise StoreError(
                f"The store must be re-embedded with {self.embedder.identity} first: "
                "run `localmind reindex`."
            )

    def iter_all(self) -> Iterator[MemoryRecord]:
        for stored in self._store.iter_memories(self.namespace, status=None, newest_first=False):
            yield stored.record


def validate_new(item: NewMemory, settings: Settings) -> NewMemory:
    """``item`` checked and with defaults filled in, or :class:`InvalidInput` saying what is
    wrong. Needs no open store, so callers can check input before touching one."""
    limits = settings.limits
    importance = (
        settings.default_importance
        if item.importance is None
        else validation.unit_interval(item.importance, "importance")
    )
    if item.created_at is not None:
        validation.timestamp(item.created_at, "created_at")
    return replace(
        item,
        content=validation.content(item.content, limits),
        type=validation.memory_type(item.type),
        importance=importance,
        metadata=validation.metadata(item.metadata, limits),
    )


def _record_embedder(store: SqliteStore, embedder: Embedder, *, create_table: bool = True) -> None:
    if create_table:
        store.create_vector_table(embedder.dim)
    store.set_meta("embedder", embedder.identity)
    spec = getattr(embedder, "spec", None)
    if spec:
        store.set_meta("embedder_spec", spec)
    else:
        store.db.execute("DELETE FROM meta WHERE key = 'embedder_spec'")


def _sidecars(path: Path) -> list[Path]:
    return [path.with_name(path.name + suffix) for suffix in ("-wal", "-shm", "-journal")]

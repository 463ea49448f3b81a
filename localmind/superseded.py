"""A change reaches every memory it supersedes (review11 L2).

``remember`` queues a change ("We moved to Lisbon") against its nearest contradicting memory
only, and notes it as a possible later version of the others ("I live in Berlin, in Kreuzberg"
beside "我住在柏林，离公司很近": two copies of the residence, in two languages). A take-new or a
merge then folds the change into the memory asked about, under that memory's id; the other
copy's note names the folded-away id, and it stayed current, unmarked, on every laptop.

When a person's resolution folds a memory into another (here, or on another laptop, whose
forget arrives by sync), each other active memory that was noted as superseded by the folded
one, and that the kept text plausibly contradicts by remember's own rules (no model), is
queued against the kept memory: the person decides whether the change holds for that copy
too. Only a copy: a memory at least ``conflict_threshold`` alike to the text the resolution
replaced (review14 K9: a dose change, noted loosely as a later version of a resignation,
asked "may contradict" against it once the dose change was taken; copies of one fact in two
languages are 0.6–0.9 alike with the bundled model, such unrelated pairs below 0.2).
Conflicts are local, so each laptop asks its own copy of the question (the notes are on
both: ``remember`` writes them where it was told, the arrivals judge on the others); an answer
replicates as any other (the later answer stands).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from localmind.embedders.base import Vectors
from localmind.lifecycle import Lifecycle
from localmind.records import Status, event_and_fact
from localmind.store import SqliteStore, StoredMemory


def ask_about_other_copies(
    store: SqliteStore,
    lifecycle: Lifecycle,
    namespace: str,
    dropped: str,
    kept: str,
    how: str,
    embed: Callable[[Sequence[str]], list[Vectors]],
    replaced: str | None = None,
) -> list[int]:
    """After ``dropped`` was folded into ``kept`` (take-new, merge): queue each other memory
    ``dropped`` was noted to supersede against ``kept`` when it is a copy of the fact
    replaced (see the module's text) and the kept text plausibly contradicts it. ``how``:
    where the resolution was made, for the reason. ``replaced``: the text the resolution
    replaced (by default the kept memory's latest earlier version). Returns the conflict ids."""
    holder = active_in(store, namespace, kept)
    if holder is None:
        return []
    notes = store.superseded_by_note(namespace, dropped)
    if not notes:
        return []
    if replaced is None:
        history = store.versions(kept)
        if not history:
            return []
        replaced = history[-1][1]
    replaced_vector = np.asarray(embed([replaced])[0], dtype=np.float32).reshape(-1)
    queued: list[int] = []
    for earlier_id, similarity in notes:
        earlier = active_in(store, namespace, earlier_id)
        if earlier is None or earlier_id == kept or asked_about(store, namespace, earlier_id, kept):
            continue
        if event_and_fact(earlier.record, holder.record):
            continue  # what happened one day is no copy of a fact (the choir's concert)
        if _alike(store, earlier, replaced_vector) < lifecycle.config.merge_threshold:
            # not a copy of the fact the resolution replaced: a copy is as alike as a
            # restatement, not a neighbour of the same topic (review15a TW6: the choir's chat
            # group was asked against its new practice day, and settling four conflicts left
            # five new ones)
            continue
        closeness = similarity if similarity is not None else 0.0
        proposal = lifecycle.propose(holder.record.content, [(earlier, closeness)], ask_model=False)
        if proposal.relation is not None or proposal.neighbour is None:
            continue  # a restatement or compatible with it: nothing to ask
        older, newer = sorted((earlier, holder), key=lambda m: m.record.created_at)
        reason = (
            f"may contradict the older memory: {proposal.why}; the change it holds replaced "
            f"memory {dropped} ({how}) and was noted to supersede this one too"
        )
        queued.append(lifecycle.queue_conflict(older.record, newer.record, closeness, reason))
    return queued


def active_in(store: SqliteStore, namespace: str, memory_id: str) -> StoredMemory | None:
    """``memory_id`` when it is active in ``namespace``."""
    stored = store.get(memory_id)
    if stored is None or stored.record.status is not Status.ACTIVE:
        return None
    return stored if stored.record.namespace == namespace else None


def asked_about(store: SqliteStore, namespace: str, one: str, other: str) -> bool:
    """Whether a pending conflict asks about these two memories already, or a person on some
    device kept them both (keep-both: asked and answered)."""
    return bool(store.pending_pairs(namespace, [one, other])) or store.kept_together(one, other)


def _alike(store: SqliteStore, memory: StoredMemory, vector: np.ndarray) -> float:
    """The cosine of ``memory``'s stored vector and ``vector`` (0 when it has none)."""
    blob = store.vectors_for([memory.rowid]).get(memory.rowid)
    if blob is None:
        return 0.0
    stored = np.frombuffer(blob, dtype=np.float32)
    norms = float(np.linalg.norm(stored) * np.linalg.norm(vector))
    return float(stored @ vector) / norms if norms else 0.0

"""A fresh encrypted localmind store per language and embedder, one namespace per MADial user,
and recall passes over it through the public API (``Memory.open`` / ``Memory.recall``)."""

from __future__ import annotations

import os
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bench.madial import Dialogue, MemoryItem
from localmind import KdfParams, Memory, NewMemory, RecallResult, Settings
from localmind.embedders.base import Embedder
from localmind.keys import UNSAFE_TEST_KDF_ENV

PASSPHRASE = "madial-bench"
#: Cheap Argon2id: the benchmark measures retrieval, not key derivation. Its stores are
#: throwaway files under a temporary folder, so it lowers the key-derivation floor as the tests
#: do (without this every bench store is refused since the floor of issue 18).
BENCH_KDF = KdfParams(memory_cost_kib=8192, iterations=1, lanes=1)
os.environ.setdefault(UNSAFE_TEST_KDF_ENV, "1")
DAY = 86_400.0


def namespace(user: int) -> str:
    return f"user-{user}"


def recall_now(memories: Sequence[MemoryItem]) -> float:
    """The fixed "now" of every recall: one day after the latest memory of the language (the
    dialogues carry no date). Recency in the full ranking counts from here."""
    return max(item.timestamp for item in memories) + DAY


@dataclass
class BuiltStore:
    path: Path
    embedder: Embedder
    now: float
    users: list[int]
    memories: int  # distinct stored memories
    load_seconds: float

    def open(self, user: int, settings: Settings | None = None) -> Memory:
        return Memory.open(
            self.path,
            PASSPHRASE,
            embedder=self.embedder,
            namespace=namespace(user),
            settings=settings,
            clock=lambda: self.now,
            kdf=BENCH_KDF,
        )


def group_duplicates(items: Sequence[MemoryItem]) -> list[list[MemoryItem]]:
    """Memories of one user with the same text, grouped. The zh file holds two such groups
    (162=163, 164=165=166); the store keeps one memory for equal content (remembering it again
    would reinforce it and make it look fresh), so one stored memory stands for its whole group."""
    groups: dict[tuple[int, str], list[MemoryItem]] = defaultdict(list)
    for item in items:
        groups[item.user, " ".join(item.event.split()).casefold()].append(item)
    return list(groups.values())


def build_store(
    directory: Path, name: str, embedder: Embedder, items: Sequence[MemoryItem]
) -> BuiltStore:
    """Create the store and load every memory with ``remember_many``: content = the event,
    created_at = its date, metadata = the dataset ids it stands for."""
    path = directory / f"{name}.db"
    now = recall_now(items)
    by_user: dict[int, list[list[MemoryItem]]] = defaultdict(list)
    for group in group_duplicates(items):
        by_user[group[0].user].append(group)
    store = BuiltStore(path, embedder, now, sorted(by_user), 0, 0.0)
    started = time.perf_counter()
    for user in store.users:
        with store.open(user) as memory:
            batch = [
                NewMemory(
                    content=group[0].event,
                    type="episodic",
                    metadata={"madial_ids": [item.id for item in group], "user": user},
                    created_at=group[0].timestamp,
                )
                for group in by_user[user]
            ]
            store.memories += len(memory.remember_many(batch, check=False))
    store.load_seconds = time.perf_counter() - started
    return store


def dataset_ids(results: Sequence[RecallResult]) -> list[int]:
    """Recall results → dataset ids, best first (a duplicate group's ids side by side)."""
    return [int(i) for result in results for i in result.memory.metadata["madial_ids"]]


@dataclass
class Pass:
    results: list[list[RecallResult]]  # per dialogue, in dialogue order
    seconds: list[float]  # wall time of each recall call


def recall_pass(
    store: BuiltStore,
    dialogues: Sequence[Dialogue],
    queries: Sequence[str],
    settings: Settings,
    limit: int | None,
) -> Pass:
    """One recall per dialogue in its user's namespace (``touch=False``: access counts stay
    as loaded). ``limit=None`` asks for every memory of the user."""
    results: list[list[RecallResult]] = [[] for _ in dialogues]
    seconds = [0.0 for _ in dialogues]
    for user in store.users:
        with store.open(user, settings) as memory:
            wanted = limit or memory.count()
            for index, (dialogue, query) in enumerate(zip(dialogues, queries, strict=True)):
                if dialogue.user != user:
                    continue
                started = time.perf_counter()
                results[index] = memory.recall(query, wanted, touch=False)
                seconds[index] = time.perf_counter() - started
    return Pass(results, seconds)

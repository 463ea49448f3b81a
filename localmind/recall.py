"""Recall: the hybrid search behind ``Memory.recall``.

Vector candidates (sign-bit scan, exact cosine) and BM25 keyword candidates, plus the session's
short-term buffer, are fused by weighted reciprocal rank, optionally rescored by a cross-encoder,
then ranked by the multi-factor formula of ``localmind.ranking``. HyDE adds the embedding of an
answer imagined by the LLM.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from localmind import validation
from localmind.config import Settings
from localmind.embedders.base import Embedder, Vectors
from localmind.embedders.rerank import Reranker
from localmind.errors import InvalidInput
from localmind.governance import Governance
from localmind.llm.base import LLM, LLMError
from localmind.prompts import render
from localmind.ranking import Fused, reciprocal_rank_fusion, score
from localmind.records import MemoryRecord, MemoryType, RecallResult
from localmind.ringbuffer import RingBuffer
from localmind.store import SqliteStore, StoredMemory
from localmind.tokenize import match_expression, query_terms

_QUERY_CACHE_SIZE = 256
#: Fused candidates the cross-encoder rescores when recall reranks.
RERANK_CANDIDATES = 30


@dataclass(slots=True)
class ShortTerm:
    """A memory in the session's ring buffer, with its vector."""

    record: MemoryRecord
    vector: Vectors


class Recaller:
    """Searches one namespace of a store (and its session buffer). Owned by a ``Memory``."""

    def __init__(
        self,
        store: SqliteStore,
        embedder: Embedder,
        *,
        namespace: str,
        settings: Settings,
        clock: Callable[[], float],
        short_term: RingBuffer[ShortTerm],
        governance: Governance,
        llm: LLM | None,
        reranker: Reranker | None,
    ) -> None:
        self._store = store
        self.embedder = embedder
        self.namespace = namespace
        self.settings = settings
        self._clock = clock
        self._short_term = short_term
        self._governance = governance
        self.llm = llm
        self.reranker = reranker
        self._query_vectors: OrderedDict[str, Vectors] = OrderedDict()

    def clear_cache(self) -> None:
        """Forget cached query vectors (after the store was re-embedded)."""
        self._query_vectors.clear()

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
        """The memories most relevant to ``query``, best first, each with its score breakdown.

        Hybrid: vector KNN and BM25 keyword candidates (plus the short-term buffer) are fused by
        reciprocal rank, then ranked by the multi-factor formula (see ``localmind.ranking``).
        Results scoring below ``threshold`` are dropped. Returned memories count as accessed
        unless ``touch`` is false.

        ``hyde``: also search with the embedding of a hypothetical answer written by the LLM
        (HyDE); a memory's vector similarity is the better of the two. Skipped, silently, when
        no LLM can answer.

        ``rerank``: rescore the best ``RERANK_CANDIDATES`` fused candidates with the reranker's
        cross-encoder; None means: whenever a reranker is configured.
        """
        started = time.perf_counter()
        query = validation.content(query, self.settings.limits, what="The query")
        limit = validation.limit(limit, self.settings.limits)
        threshold = validation.threshold(threshold)
        wanted = validation.memory_types(types)
        if rerank and self.reranker is None:
            raise InvalidInput(
                "No reranker is configured: open the store with reranker=, e.g. "
                "FastembedReranker(<model name or directory>), or recall with rerank=False."
            )
        stored_types = [str(t) for t in wanted or [] if t is not MemoryType.SHORT_TERM]
        search_store = not wanted or bool(stored_types)
        search_buffer = not wanted or MemoryType.SHORT_TERM in wanted
        fusion = self.settings.fusion
        candidates = max(limit * fusion.candidates_per_result, fusion.min_candidates)
        query_vector = self.query_vector(query)
        embedded = time.perf_counter()

        dense: list[tuple[str, float]] = []  # (id, cosine similarity)
        keyword_ids: list[str] = []
        stored: dict[str, StoredMemory] = {}
        hyde_vector = self._hyde_vector(query) if hyde else None
        if search_store:
            nearest = self._store.nearest(
                query_vector, candidates, self.namespace, stored_types or None
            )
            if hyde_vector is not None:
                nearest = _closest_of(
                    nearest,
                    self._store.nearest(
                        hyde_vector, candidates, self.namespace, stored_types or None
                    ),
                )
            match = match_expression(query)
            keyword = (
                self._store.keyword(match, candidates, self.namespace, stored_types or None)
                if match
                else []
            )
            rows = self._store.get_by_rowids(
                list(dict.fromkeys([r for r, _ in nearest] + [r for r, _ in keyword]))
            )
            stored = {row.record.id: row for row in rows.values()}
            dense = [(rows[r].record.id, 1.0 - d) for r, d in nearest if r in rows]
            keyword_ids = [rows[r].record.id for r, _ in keyword if r in rows]
        buffered: dict[str, ShortTerm] = {}
        if search_buffer and len(self._short_term):
            buffered = {item.record.id: item for item in self._short_term}
            probes = [query_vector] if hyde_vector is None else [query_vector, hyde_vector]
            dense.extend(
                (key, max(float(item.vector @ probe) for probe in probes))
                for key, item in buffered.items()
            )
            dense.sort(key=lambda pair: pair[1], reverse=True)
            keyword_ids = self._buffer_keyword_hits(query, buffered) + keyword_ids

        fused = reciprocal_rank_fusion(
            [key for key, _ in dense], keyword_ids, fusion, depth=candidates
        )
        if self.reranker is not None and rerank is not False:
            records = {key: row.record for key, row in stored.items()}
            records.update((key, item.record) for key, item in buffered.items())
            fused = self._rerank(query, fused, records)
        cosines = dict(dense)
        # Keyword-only candidates: their cosine comes from their stored vectors.
        missing = {
            stored[f.key].rowid: f.key for f in fused if f.key not in cosines and f.key in stored
        }
        for rowid, blob in self._store.vectors_for(list(missing)).items():
            cosines[missing[rowid]] = float(np.frombuffer(blob, dtype=np.float32) @ query_vector)

        now = self._clock()
        results = []
        for candidate in fused:
            if candidate.key in stored:
                record = stored[candidate.key].record
            else:
                record = buffered[candidate.key].record
            if record.expires_at is not None and record.expires_at <= now:
                continue
            breakdown = score(
                record,
                candidate,
                cosines.get(candidate.key),
                now,
                self.settings.ranking,
                self.settings.decay,
            )
            if breakdown.score >= threshold:
                results.append(RecallResult(record, breakdown))
        results.sort(key=lambda result: result.score, reverse=True)
        results = results[:limit]
        if touch:
            touched = [stored[r.memory.id].rowid for r in results if r.memory.id in stored]
            finished = time.perf_counter()
            with self._store.db:
                self._store.touch(touched, now)
                self._governance.record_latency(
                    (embedded - started) * 1000, (finished - embedded) * 1000, now
                )
        return results

    def _rerank(
        self, query: str, fused: list[Fused], records: dict[str, MemoryRecord]
    ) -> list[Fused]:
        """``fused`` with the similarity of its best ``RERANK_CANDIDATES`` (by fused similarity)
        replaced by the cross-encoder's: its scores through a logistic function, rescaled so the
        best candidate is 1. The rest keep their fused similarity, scaled by the lowest reranked
        one, so none rises above a reranked candidate. Ranks are kept for the breakdown."""
        assert self.reranker is not None
        head, tail = fused[:RERANK_CANDIDATES], fused[RERANK_CANDIDATES:]
        if not head:
            return fused
        logits = self.reranker.score(query, [records[f.key].content for f in head])
        # log σ(x) = −log(1 + e^−x), computed without overflow for logits of either sign
        log_sigmoid = [min(x, 0.0) - math.log1p(math.exp(-abs(x))) for x in logits]
        best = max(log_sigmoid)
        similarities = [math.exp(value - best) for value in log_sigmoid]
        lowest = min(similarities)
        reranked = [replace(f, similarity=s) for f, s in zip(head, similarities, strict=True)]
        rest = [replace(f, similarity=f.similarity * lowest) for f in tail]
        return sorted(reranked, key=lambda f: f.similarity, reverse=True) + rest

    def _hyde_vector(self, query: str) -> Vectors | None:
        """The embedding of an answer the LLM imagines for ``query``, or None without one."""
        if self.llm is None or not self.llm.available():
            return None
        try:
            answer = self.llm.complete(
                [{"role": "user", "content": render("hyde", query=query)}], temperature=0.3
            )
        except LLMError:
            return None
        answer = answer.strip()[: self.settings.limits.max_content_chars]
        return self.embedder.embed_documents([answer])[0] if answer else None

    @staticmethod
    def _buffer_keyword_hits(query: str, buffered: dict[str, ShortTerm]) -> list[str]:
        """Short-term items sharing a query term, most shared terms first (the session is the
        freshest context, so these lead the keyword list)."""
        terms = query_terms(query)
        hits = []
        for key, item in buffered.items():
            text = item.record.content.casefold()
            shared = sum(1 for term in terms if term in text)
            if shared:
                hits.append((shared, key))
        hits.sort(reverse=True)
        return [key for _, key in hits]

    def query_vector(self, query: str) -> Vectors:
        """The query's embedding, from a small in-process cache when it was asked before."""
        cached = self._query_vectors.get(query)
        if cached is not None:
            self._query_vectors.move_to_end(query)
            return cached
        vector = self.embedder.embed_query([query])[0]
        self._query_vectors[query] = vector
        if len(self._query_vectors) > _QUERY_CACHE_SIZE:
            self._query_vectors.popitem(last=False)
        return vector


def _closest_of(
    first: list[tuple[int, float]], second: list[tuple[int, float]]
) -> list[tuple[int, float]]:
    """Two (rowid, distance) lists merged, each memory at its smaller distance, nearest first."""
    best: dict[int, float] = {}
    for rowid, distance in [*first, *second]:
        best[rowid] = min(distance, best.get(rowid, distance))
    return sorted(best.items(), key=lambda pair: pair[1])

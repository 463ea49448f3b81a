"""Fusing candidate lists and ranking memories by the multi-factor formula.

``score = confidence × (w_sim·similarity + w_imp·importance + w_rec·recency + w_freq·frequency)``

- similarity: weighted reciprocal-rank fusion of the vector and keyword lists, rescaled between
  the query's best candidate (1) and one found last in a single list (0);
- importance: the stored importance, decayed after a grace period (DecayConfig);
- recency: ``0.5 ** (days since last touched / half-life)``;
- frequency: ``log(1 + access_count) / log(1 + saturation)``, capped at 1.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from localmind.config import DecayConfig, FusionConfig, RankingWeights
from localmind.records import MemoryRecord, ScoreBreakdown

DAY = 86_400.0


@dataclass(frozen=True, slots=True)
class Fused:
    key: str  # memory id
    similarity: float  # fused relevance in [0, 1]
    vector_rank: int | None
    keyword_rank: int | None


def reciprocal_rank_fusion(
    vector_ids: Sequence[str],
    keyword_ids: Sequence[str],
    config: FusionConfig,
    depth: int | None = None,
) -> list[Fused]:
    """Fuse two best-first id lists by weighted reciprocal rank, best first.

    ``similarity`` rescales the fused score between the best candidate of this query (1) and
    the floor a candidate would score found last, at ``depth``, in one list only (0). RRF
    divided by its best possible value spread too little (at k=60 a memory tenth in both lists
    still scored 0.87, so importance or recency outweighed relevance); a plain min-max over
    the candidates spreads too much in a tiny store (two near-equal memories become 1 and 0).
    ``depth`` defaults to the longer list's length."""
    k = config.rrf_k
    ranks: dict[str, list[int | None]] = {}
    for position, ids in enumerate((vector_ids, keyword_ids)):
        for rank, key in enumerate(ids, start=1):
            ranks.setdefault(key, [None, None])
            if ranks[key][position] is None:
                ranks[key][position] = rank
    totals = {}
    for key, (vector_rank, keyword_rank) in ranks.items():
        total = 0.0
        if vector_rank is not None:
            total += config.vector_weight / (k + vector_rank)
        if keyword_rank is not None:
            total += config.keyword_weight / (k + keyword_rank)
        totals[key] = total
    depth = depth if depth is not None else max(len(vector_ids), len(keyword_ids), 1)
    floor = min(config.vector_weight, config.keyword_weight) / (k + depth)
    high = max(totals.values(), default=0.0)
    fused = [
        Fused(
            key,
            min(1.0, max(0.0, (totals[key] - floor) / (high - floor))) if high > floor else 1.0,
            vector_rank,
            keyword_rank,
        )
        for key, (vector_rank, keyword_rank) in ranks.items()
    ]
    fused.sort(key=lambda item: item.similarity, reverse=True)
    return fused


def decayed_importance(importance: float, idle_days: float, decay: DecayConfig) -> float:
    """``importance × (1 − rate)^(idle_days − grace)`` once past the grace period."""
    past_grace = idle_days - decay.grace_period_days
    if past_grace <= 0:
        return importance
    return importance * (1.0 - decay.daily_rate) ** past_grace


def recency(idle_days: float, weights: RankingWeights) -> float:
    return 0.5 ** (max(idle_days, 0.0) / weights.recency_half_life_days)


def frequency(access_count: int, weights: RankingWeights) -> float:
    return min(1.0, math.log1p(access_count) / math.log1p(weights.frequency_saturation))


def score(
    memory: MemoryRecord,
    fused: Fused,
    vector_similarity: float | None,
    now: float,
    weights: RankingWeights,
    decay: DecayConfig,
) -> ScoreBreakdown:
    idle_days = max(0.0, (now - memory.last_touched) / DAY)
    importance = decayed_importance(memory.importance, idle_days, decay)
    rec = recency(idle_days, weights)
    freq = frequency(memory.access_count, weights)
    total = memory.confidence * (
        weights.similarity * fused.similarity
        + weights.importance * importance
        + weights.recency * rec
        + weights.frequency * freq
    )
    return ScoreBreakdown(
        score=total,
        similarity=fused.similarity,
        importance=importance,
        recency=rec,
        frequency=freq,
        confidence=memory.confidence,
        vector_similarity=vector_similarity,
        vector_rank=fused.vector_rank,
        keyword_rank=fused.keyword_rank,
    )

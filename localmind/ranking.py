"""Relevance of recall candidates, and the multi-factor ranking of memories.

Relevance is a calibrated score fusion of the two searches (``relevance``): for each candidate,

    z = bias + w_cos·cosine + (w_gap + w_unmatched·(1 − best coverage))·(cosine − best cosine)
        + w_kw·(bm25 / best bm25 of the query) + w_bm25·log(1 + bm25) + w_cov·coverage
        + w_period·([made in the period the query names] − [a habit or a plan, asked what
          was done in it])
        + w_script·cosine·[written in another script than the query]
        + w_context·(best relevance of a memory told together with it)
    relevance = σ(z)

where coverage is the share of the query's term rarity (idf) a memory holds

a logistic model of "this memory is relevant to the query", fitted on every dev set at once
(``python -m bench fit``; docs/design.md, "Recall"). The relative terms make it adapt per query:
when every memory is about as close in meaning (a long chat, where the embedding cannot tell
turns apart) the cosine gaps are small and the keywords decide; when the keywords are spread
thin (a long dialogue query) the cosine gaps decide. The absolute terms make it comparable across
queries: a store with nothing relevant yields low relevance everywhere, and recall returns
nothing when even the best falls below ``FusionConfig.min_relevance``.

``score = confidence × relevance × (1 + w_imp·importance + w_rec·recency + w_freq·frequency)``

- importance: the stored importance, decayed after a grace period (DecayConfig);
- recency: ``0.5 ** (days since the memory was made or last changed / half-life)`` — never since
  it was last *returned*: being shown is not being used;
- frequency: ``log(1 + uses) / log(1 + saturation)``, capped at 1, where a use is real use
  (confirmed, corrected, used in a chat turn, an assistant's feedback), not a recall.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from localmind.config import DecayConfig, FusionConfig, RankingWeights
from localmind.records import MemoryRecord, ScoreBreakdown

DAY = 86_400.0


# Candidate and Relevance are not frozen: a frozen dataclass sets each field through
# object.__setattr__ (4x the cost of a plain one, ~2 µs each here), and recall builds two per
# candidate, ~80 candidates a query: 0.3 ms of a 3 ms recall (docs/design.md, "Search near the
# limit, round 8"). Nothing changes them after they are made.
@dataclass(slots=True)
class Candidate:
    """One memory found by either search, with what each search said of it."""

    key: str  # memory id
    cosine: float  # cosine similarity of its vector to the query's
    bm25: float | None  # BM25 relevance (higher is better), None when no keyword matched
    vector_rank: int | None  # 1-based rank in the vector list, None if not in it
    keyword_rank: int | None  # 1-based rank in the keyword list, None if not in it
    #: share of the query's term rarity (BM25's idf) that the memory holds: 1 when it holds
    #: every query term, near 0 when it holds only common ones
    coverage: float = 0.0
    in_period: bool = False  # made in the period the query names ("last spring")
    #: the memory is written in another script than the query (Chinese for an English
    #: question, or the reverse): only the embedding can connect the two
    other_script: bool = False
    #: the relevance (without this term) of the most relevant memory told together with it: a
    #: turn next to it in one conversation imported at once (``recall.CONTEXT_TURNS``). The
    #: answer often follows the turn that shares the question's words ("what did you do? —
    #: went hiking"), and only its neighbour connects it to the question.
    context: float = 0.0
    #: a habit or a plan, asked what was done in a period ("what did I do last weekend?" —
    #: "I go climbing every Wednesday"): of no one occasion, it is evidence against, the period
    #: term taken away (review10 F15)
    no_occasion: bool = False


@dataclass(slots=True)
class Relevance:
    """A candidate's calibrated relevance and the part each search contributed to its logit."""

    candidate: Candidate
    probability: float
    from_vector: float  # w_cos·cosine + w_gap·gap (+ w_script·cosine, another script)
    from_keywords: float  # w_kw·relative bm25 + w_bm25·log(1 + bm25)
    #: the probability without the other-script and context terms: whether anything in the
    #: store is relevant at all is judged on this (else a Chinese question to an English-only
    #: store would lift the whole store above the bar, ``recall._default_threshold``; and a
    #: neighbour's relevance is not the memory's own)
    plain_probability: float | None = None
    from_context: float = 0.0  # w_context·context: what the memories told with it added
    logit: float = 0.0  # σ⁻¹(probability), so that a term can be added without a second pass


#: When at most this share of the candidates hold any word of the query, the relative-BM25
#: term is scaled by the best candidate's coverage: a paraphrase's one common word ("travel",
#: "work") makes some memory the best keyword match, and that says little when it holds a
#: fifth of the question (docs/design.md, "Recall, round 6"). Long queries (dialogues) and
#: words most memories hold match many candidates and are left as they were. A share, not a
#: count, so that it means the same in a store of 20 memories and of 20 000.
FEW_KEYWORD_MATCHES = 0.3


def relative_keyword_weight(coverages: Sequence[float], weight: float) -> float:
    """The relative-BM25 term's weight for a query whose candidates hold ``coverages``."""
    if sum(1 for c in coverages if c > 0) <= FEW_KEYWORD_MATCHES * len(coverages):
        return weight * min(1.0, max(coverages, default=0.0))
    return weight


#: The other-script term lifts the memories in the other script by how near they come to the
#: best such memory: fully at its cosine, less and less below it, not at all this far below.
#: Lifting every memory in the other script alike (a Chinese note on the same day, about the
#: same person) put filler above answers told in the question's language: the personal sets'
#: paraphrases lost to dense alone that way (docs/design.md, "Recall, round 7").
OTHER_SCRIPT_RAMP = 0.25


def across_scripts(cosines: Sequence[float], other_script: Sequence[bool]) -> list[float]:
    """How much of the other-script term each candidate gets: 0 in the question's script, else
    1 at the best cosine among the other-script candidates, falling to 0 at
    ``OTHER_SCRIPT_RAMP`` below it."""
    best = max((c for c, other in zip(cosines, other_script, strict=True) if other), default=0.0)
    return [
        min(1.0, max(0.0, 1.0 - (best - c) / OTHER_SCRIPT_RAMP)) if other else 0.0
        for c, other in zip(cosines, other_script, strict=True)
    ]


def relevance(candidates: Sequence[Candidate], config: FusionConfig) -> list[Relevance]:
    """Each candidate's calibrated probability of being relevant, best first."""
    if not candidates:
        return []
    best_cosine = max(c.cosine for c in candidates)
    best_bm25 = max((c.bm25 for c in candidates if c.bm25 is not None), default=0.0)
    coverages = [c.coverage for c in candidates]
    unmatched = 1.0 - max(coverages)
    gap_weight = config.cosine_gap + config.cosine_gap_unmatched * unmatched
    keyword_weight = relative_keyword_weight(coverages, config.keyword)
    share_across = across_scripts(
        [c.cosine for c in candidates], [c.other_script for c in candidates]
    )
    scored = []
    for c, share in zip(candidates, share_across, strict=True):
        from_vector = config.cosine * c.cosine + gap_weight * (c.cosine - best_cosine)
        across = config.other_script_cosine * share * c.cosine
        from_vector += across
        from_keywords = config.coverage * c.coverage
        if c.bm25 is not None and best_bm25 > 0:
            from_keywords += keyword_weight * (c.bm25 / best_bm25) + config.keyword_strength * (
                math.log1p(max(c.bm25, 0.0))
            )
        from_period = config.period if c.in_period else -config.period if c.no_occasion else 0.0
        from_context = config.context * c.context
        z = config.bias + from_vector + from_keywords + from_period + from_context
        plain = _sigmoid(z - across - from_context)
        scored.append(Relevance(c, _sigmoid(z), from_vector, from_keywords, plain, from_context, z))
    scored.sort(key=lambda r: r.probability, reverse=True)
    return scored


def lifted(
    relevant: Sequence[Relevance], context: Mapping[str, float], config: FusionConfig
) -> list[Relevance]:
    """``relevant`` (judged without context) with each candidate in ``context`` lifted by the
    relevance of the most relevant memory told together with it, best first: what
    ``relevance`` gives for candidates carrying that ``context``, without a second pass (the
    candidates themselves are left as they were)."""
    scored = []
    for r in relevant:
        near = context.get(r.candidate.key, 0.0)
        if near <= 0:
            scored.append(r)
            continue
        from_context = config.context * near
        logit = r.logit + from_context
        # built directly, not through dataclasses.replace: in a store of imported chats nearly
        # every candidate has a neighbour, and replace() was a tenth of such a recall's CPU
        scored.append(
            Relevance(
                r.candidate,
                _sigmoid(logit),
                r.from_vector,
                r.from_keywords,
                r.plain_probability,
                r.from_context + from_context,
                logit,
            )
        )
    scored.sort(key=lambda r: r.probability, reverse=True)
    return scored


def _sigmoid(z: float) -> float:
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def decayed_importance(importance: float, idle_days: float, decay: DecayConfig) -> float:
    """``importance × (1 − rate)^(idle_days − grace)`` once past the grace period."""
    past_grace = idle_days - decay.grace_period_days
    if past_grace <= 0:
        return importance
    return importance * (1.0 - decay.daily_rate) ** past_grace


def recency(idle_days: float, weights: RankingWeights) -> float:
    return 0.5 ** (max(idle_days, 0.0) / weights.recency_half_life_days)


def frequency(uses: int, weights: RankingWeights) -> float:
    return min(1.0, math.log1p(uses) / math.log1p(weights.frequency_saturation))


def last_changed(memory: MemoryRecord) -> float:
    """When the memory was made or last changed: what recency counts from (not its last recall)."""
    return max(memory.created_at, memory.updated_at)


def _factors(
    memory: MemoryRecord, now: float, weights: RankingWeights, decay: DecayConfig
) -> tuple[float, float, float, float]:
    """(decayed importance, recency, frequency, the boost they make) of ``memory`` at ``now``."""
    idle_days = max(0.0, (now - last_changed(memory)) / DAY)
    importance = decayed_importance(memory.importance, idle_days, decay)
    rec = recency(idle_days, weights)
    freq = frequency(memory.access_count, weights)
    boost = 1.0 + weights.importance * importance + weights.recency * rec + weights.frequency * freq
    return importance, rec, freq, boost


def rescored(
    memory: MemoryRecord,
    breakdown: ScoreBreakdown,
    now: float,
    weights: RankingWeights,
    decay: DecayConfig,
) -> ScoreBreakdown:
    """``breakdown`` for ``memory`` as it is now (feedback moved its confidence and uses since
    it was recalled): the relevance and the recency weight it was recalled with (a question
    about now weighs recency more), every other factor recomputed."""
    if breakdown.recency_weight is not None:
        weights = replace(weights, recency=breakdown.recency_weight)
    importance, rec, freq, boost = _factors(memory, now, weights, decay)
    return replace(
        breakdown,
        score=memory.confidence * breakdown.similarity * boost,
        importance=importance,
        recency=rec,
        frequency=freq,
        confidence=memory.confidence,
    )


def score_value(
    memory: MemoryRecord,
    found: Relevance,
    now: float,
    weights: RankingWeights,
    decay: DecayConfig,
) -> float:
    """``score(...).score`` alone, the same float: recall orders every candidate by it but needs
    the full breakdown only for the few it returns (building one per candidate was a tenth of
    the search's CPU time at 10k memories)."""
    return memory.confidence * found.probability * _factors(memory, now, weights, decay)[3]


def score(
    memory: MemoryRecord,
    found: Relevance,
    now: float,
    weights: RankingWeights,
    decay: DecayConfig,
) -> ScoreBreakdown:
    importance, rec, freq, boost = _factors(memory, now, weights, decay)
    candidate = found.candidate
    return ScoreBreakdown(
        score=memory.confidence * found.probability * boost,
        similarity=found.probability,
        importance=importance,
        recency=rec,
        frequency=freq,
        confidence=memory.confidence,
        vector_similarity=candidate.cosine,
        vector_rank=candidate.vector_rank,
        keyword_rank=candidate.keyword_rank,
        keyword_score=candidate.bm25,
        keyword_coverage=candidate.coverage,
        in_period=candidate.in_period,
        other_script=candidate.other_script,
        from_vector=found.from_vector,
        from_keywords=found.from_keywords,
        from_context=found.from_context,
        recency_weight=weights.recency,
    )

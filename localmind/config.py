"""Tunable numbers, each with the default the design settled on."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class RankingWeights:
    """Weights of the final ranking ``confidence × (w_sim·similarity + w_imp·importance +
    w_rec·recency + w_freq·frequency)``. The reference design's 0.4 / 0.25 / 0.2 / 0.15 let age
    outrank relevance: on MADial-Bench they cost 0.10–0.19 of Recall@1 against the fused order;
    0.7 / 0.1 / 0.1 / 0.1 keeps importance, recency and use as tie-breakers among relevant
    memories (docs/benchmarks.md). Any weights may be given; they need not sum to 1."""

    similarity: float = 0.7
    importance: float = 0.1
    recency: float = 0.1
    frequency: float = 0.1
    recency_half_life_days: float = 7.0
    # access_count at which the frequency factor reaches 1 (log-scaled below that)
    frequency_saturation: int = 20


@dataclass(frozen=True, slots=True)
class DecayConfig:
    """Importance decays as ``importance × (1 − daily_rate)^(days − grace_period_days)`` once a
    memory has gone untouched for longer than the grace period. Below ``floor`` a memory is a
    candidate for archival (maintenance)."""

    daily_rate: float = 0.01
    grace_period_days: float = 7.0
    floor: float = 0.05


@dataclass(frozen=True, slots=True)
class FusionConfig:
    """Reciprocal-rank fusion of the vector and keyword candidate lists: ``w / (k + rank)``
    summed over the lists. k=10 with keywords at half weight beat k=60, 1:1 by 0.024 Recall@5
    and about 0.04 Recall@10 on MADial-Bench in English and Chinese."""

    rrf_k: int = 10
    vector_weight: float = 1.0
    keyword_weight: float = 0.5
    # candidates fetched from each list, per result asked for (at least min_candidates)
    candidates_per_result: int = 5
    min_candidates: int = 50


@dataclass(frozen=True, slots=True)
class Limits:
    max_content_chars: int = 8_000
    max_recall_limit: int = 1_000
    short_term_capacity: int = 20
    max_metadata_bytes: int = 16_000


@dataclass(frozen=True, slots=True)
class LifecycleConfig:
    """What remember() does with a new memory close to existing ones, by cosine similarity
    with the default embedder (USE-m3) and the rules of docs/design.md, "What remember()
    decides" (``python -m bench hygiene`` scores them):

    - below ``conflict_threshold`` (0.35: every contradiction of tests/data/memory_pairs.jsonl,
      ``python -m bench.calibrate``) nothing is compared: the memory is inserted;
    - at or above ``merge_threshold`` it merges into a neighbour when the guard
      (:mod:`localmind.sameness`) finds the same people, negation, numbers, names, roles and
      content words. The guard carries the precision, so the threshold can be far below the
      0.95 that cosine alone needed;
    - a neighbour that plausibly contradicts it (:mod:`localmind.suspicion`) goes to the LLM,
      or, with none, to the conflicts queue; anything else is inserted;
    - with an LLM, the nearest neighbour at or above ``ask_threshold`` that the guard finds
      worded differently (not different) is put to it: it may be a restatement.
    """

    merge_threshold: float = 0.7
    conflict_threshold: float = 0.35
    ask_threshold: float = 0.6
    merge_boost: float = 0.05
    # feedback
    confirm_delta: float = 0.1
    deny_delta: float = -0.2
    corrected_confidence: float = 0.9
    implicit_reward: float = 0.02
    implicit_penalty: float = -0.1
    implicit_window_turns: int = 2


@dataclass(frozen=True, slots=True)
class ProfileConfig:
    """The user profile and the context block (token counts: ``localmind.tokens.estimate``)."""

    budget_tokens: int = 200
    context_memory_tokens: int = 300
    # rebuilt when at least this many memories changed since the last build
    rebuild_after_changes: int = 5
    # how many of the highest-value memories a full build reads
    source_limit: int = 40


@dataclass(frozen=True, slots=True)
class GovernanceConfig:
    """Keeping a store healthy for months. Capacity is per namespace; eviction removes the
    lowest ``confidence × (access_count + 1)`` first and never a pinned memory."""

    capacity: int | None = 500  # None: unlimited (benchmarks)
    maintenance_interval_hours: float = 24.0
    # confidence decays by this much per day for memories that are rarely used (no access for
    # ``rarely_used_days``) or already doubtful (below ``low_confidence``)
    confidence_daily_decay: float = 0.01
    rarely_used_days: float = 30.0
    low_confidence: float = 0.3
    # archived (status expired) memories are purged after this many days
    retention_days: float = 90.0
    # recall latencies kept for the p50/p95 in stats
    latency_samples: int = 1_000


@dataclass(frozen=True, slots=True)
class Settings:
    ranking: RankingWeights = field(default_factory=RankingWeights)
    decay: DecayConfig = field(default_factory=DecayConfig)
    fusion: FusionConfig = field(default_factory=FusionConfig)
    limits: Limits = field(default_factory=Limits)
    lifecycle: LifecycleConfig = field(default_factory=LifecycleConfig)
    profile: ProfileConfig = field(default_factory=ProfileConfig)
    governance: GovernanceConfig = field(default_factory=GovernanceConfig)
    default_importance: float = 0.5
    default_confidence: float = 0.8

"""Tunable numbers, each with the default the design settled on."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class RankingWeights:
    """Weights of the final ranking; they need not sum to 1 but the defaults do."""

    similarity: float = 0.4
    importance: float = 0.25
    recency: float = 0.2
    frequency: float = 0.15
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
    """Reciprocal-rank fusion of the vector and keyword candidate lists."""

    rrf_k: int = 60
    vector_weight: float = 1.0
    keyword_weight: float = 1.0
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
class Settings:
    ranking: RankingWeights = field(default_factory=RankingWeights)
    decay: DecayConfig = field(default_factory=DecayConfig)
    fusion: FusionConfig = field(default_factory=FusionConfig)
    limits: Limits = field(default_factory=Limits)
    default_importance: float = 0.5
    default_confidence: float = 0.8

import math

import pytest

from localmind.config import DecayConfig, FusionConfig, RankingWeights
from localmind.ranking import (
    decayed_importance,
    frequency,
    recency,
    reciprocal_rank_fusion,
)


def test_fusion_puts_a_memory_found_by_both_searches_first() -> None:
    config = FusionConfig(rrf_k=60, vector_weight=1.0, keyword_weight=1.0)
    fused = reciprocal_rank_fusion(["a", "b", "c"], ["c", "d"], config)
    assert [f.key for f in fused] == ["c", "a", "b", "d"]
    assert (fused[0].vector_rank, fused[0].keyword_rank) == (3, 1)


def test_similarity_runs_from_the_best_candidate_down_to_the_floor_of_the_lists() -> None:
    config = FusionConfig(rrf_k=10, vector_weight=1.0, keyword_weight=0.5)
    fused = {f.key: f for f in reciprocal_rank_fusion(["a", "b", "c"], ["c", "d"], config, 50)}
    totals = {"a": 1 / 11, "b": 1 / 12, "c": 1 / 13 + 0.5 / 11, "d": 0.5 / 12}
    floor, high = 0.5 / 60, max(totals.values())
    for key, total in totals.items():
        assert fused[key].similarity == pytest.approx((total - floor) / (high - floor))
    assert fused["c"].similarity == 1.0


def test_two_near_equal_memories_keep_near_equal_similarity() -> None:
    config = FusionConfig(rrf_k=10, vector_weight=1.0, keyword_weight=0.5)
    first, second = reciprocal_rank_fusion(["a", "b"], ["a", "b"], config, depth=50)
    assert first.similarity == 1.0 and second.similarity > 0.9


def test_keyword_weight_shifts_the_order() -> None:
    even = FusionConfig(rrf_k=10, vector_weight=1.0, keyword_weight=1.0)
    vector_heavy = FusionConfig(rrf_k=10, vector_weight=1.0, keyword_weight=0.1)
    assert reciprocal_rank_fusion(["a", "b"], ["b"], even)[0].key == "b"
    assert reciprocal_rank_fusion(["a", "b", "c"], ["c"], vector_heavy)[0].key == "a"


def test_a_single_candidate_or_a_tie_scores_one() -> None:
    assert reciprocal_rank_fusion(["a"], [], FusionConfig())[0].similarity == 1.0
    assert reciprocal_rank_fusion([], ["a"], FusionConfig())[0].similarity == 1.0
    assert reciprocal_rank_fusion([], [], FusionConfig()) == []


def test_importance_does_not_decay_during_the_grace_period() -> None:
    decay = DecayConfig(daily_rate=0.01, grace_period_days=7)
    assert decayed_importance(0.8, 7, decay) == 0.8
    assert decayed_importance(0.8, 17, decay) == pytest.approx(0.8 * 0.99**10)


def test_recency_halves_every_half_life() -> None:
    weights = RankingWeights(recency_half_life_days=7)
    assert recency(0, weights) == 1
    assert recency(7, weights) == pytest.approx(0.5)
    assert recency(14, weights) == pytest.approx(0.25)


def test_frequency_grows_with_use_and_saturates() -> None:
    weights = RankingWeights(frequency_saturation=20)
    assert frequency(0, weights) == 0
    assert frequency(5, weights) == pytest.approx(math.log(6) / math.log(21))
    assert frequency(20, weights) == 1
    assert frequency(500, weights) == 1

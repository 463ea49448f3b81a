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
    fused = reciprocal_rank_fusion(["a", "b", "c"], ["c", "d"], FusionConfig(rrf_k=60))
    assert [f.key for f in fused] == ["c", "a", "b", "d"]
    top = fused[0]
    assert (top.vector_rank, top.keyword_rank) == (3, 1)
    assert top.similarity == pytest.approx((1 / 63 + 1 / 61) / (2 / 61))


def test_first_in_every_list_has_similarity_one_even_when_a_list_is_empty() -> None:
    assert reciprocal_rank_fusion(["a"], ["a"], FusionConfig())[0].similarity == pytest.approx(1)
    assert reciprocal_rank_fusion(["a", "b"], [], FusionConfig())[0].similarity == pytest.approx(1)


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

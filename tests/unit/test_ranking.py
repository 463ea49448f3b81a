import math

import pytest

from localmind.config import DecayConfig, FusionConfig, RankingWeights
from localmind.ranking import (
    FEW_KEYWORD_MATCHES,
    OTHER_SCRIPT_RAMP,
    Candidate,
    decayed_importance,
    frequency,
    lifted,
    recency,
    relative_keyword_weight,
    relevance,
    score,
    score_value,
)
from localmind.records import MemoryRecord, MemoryType


def _candidate(key: str, cosine: float, bm25: float | None = None, coverage: float = 0.0):
    return Candidate(key, cosine, bm25, None, None if bm25 is None else 1, coverage)


def test_relevance_is_a_probability_ordered_best_first() -> None:
    found = relevance(
        [_candidate("weak", 0.1), _candidate("strong", 0.8, 12.0, 1.0), _candidate("mid", 0.5)],
        FusionConfig(),
    )
    assert [r.candidate.key for r in found] == ["strong", "mid", "weak"]
    assert all(0.0 < r.probability < 1.0 for r in found)


def test_relevance_is_absolute_not_one_for_the_best_by_construction() -> None:
    """A lone weak candidate stays unlikely; it is not promoted to 1 for being first."""
    [alone] = relevance([_candidate("a", 0.1)], FusionConfig())
    assert alone.probability < FusionConfig().min_relevance_unmatched
    [close] = relevance([_candidate("a", 0.9, 10.0, 1.0)], FusionConfig())
    assert close.probability > 0.8


def test_keywords_lift_a_memory_that_holds_the_query_terms() -> None:
    plain, matched = relevance(
        [_candidate("plain", 0.5), _candidate("matched", 0.5, 8.0, 0.9)], FusionConfig()
    )[::-1]
    assert matched.candidate.key == "matched" and matched.probability > plain.probability
    assert matched.from_keywords > 0 and plain.from_keywords == 0


def test_a_cosine_far_below_the_querys_best_weighs_less() -> None:
    """The gap to the query's best cosine: the same cosine means less when another memory is
    much closer."""
    config = FusionConfig()
    [alone] = relevance([_candidate("a", 0.5)], config)
    behind = {
        r.candidate.key: r for r in relevance([_candidate("a", 0.5), _candidate("b", 0.9)], config)
    }
    assert behind["a"].probability < alone.probability


def test_a_memory_in_the_other_script_is_judged_more_by_its_meaning() -> None:
    """A Chinese memory for an English question (or the reverse) shares no word with it: its
    cosine counts for more than the same cosine of a same-language memory."""
    same = _candidate("same", 0.5)
    other = Candidate("other", 0.5, None, None, None, 0.0, other_script=True)
    by_key = {r.candidate.key: r for r in relevance([same, other], FusionConfig())}
    assert by_key["other"].probability > by_key["same"].probability
    assert by_key["other"].from_vector > by_key["same"].from_vector
    assert by_key["other"].from_keywords == 0
    # ... but not for judging whether anything is relevant at all: without the term, the same
    assert by_key["other"].plain_probability == pytest.approx(by_key["same"].probability)


def test_the_other_script_memories_nearest_the_question_are_lifted_most() -> None:
    """A memory in the other script far below the best one in that script is filler there: it
    gets no lift, and a same-language memory with a higher cosine stays above it; one between
    gets part of it."""
    best = Candidate("best", 0.5, None, None, None, 0.0, other_script=True)
    near = Candidate("near", 0.5 - OTHER_SCRIPT_RAMP / 2, None, None, None, 0.0, other_script=True)
    far = Candidate("far", 0.5 - 1.2 * OTHER_SCRIPT_RAMP, None, None, None, 0.0, other_script=True)
    same = _candidate("same", 0.5 - 1.1 * OTHER_SCRIPT_RAMP)
    by_key = {r.candidate.key: r for r in relevance([best, near, far, same], FusionConfig())}

    def lift(key: str) -> float:
        found = by_key[key]
        assert found.plain_probability is not None
        logit = math.log(found.plain_probability / (1 - found.plain_probability))
        return found.logit - logit

    assert lift("best") > lift("near") > 0
    assert lift("near") == pytest.approx(lift("best") / 2 * (0.5 - OTHER_SCRIPT_RAMP / 2) / 0.5)
    assert lift("far") == pytest.approx(0.0, abs=1e-9)
    assert by_key["same"].probability > by_key["far"].probability


def test_no_candidates_no_relevance() -> None:
    assert relevance([], FusionConfig()) == []


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


def test_the_score_recall_orders_by_is_the_score_it_reports() -> None:
    """Recall sorts every candidate by ``score_value`` and builds the breakdown (``score``) only
    for those it returns: the two must agree to the last bit, or the order would not match the
    scores shown."""
    weights, decay = RankingWeights(), DecayConfig(daily_rate=0.01, grace_period_days=7)
    now = 1_800_000_000.0
    [found] = relevance([_candidate("a", 0.6, 5.0, 0.5)], FusionConfig())
    for age_days, uses, importance, confidence in [(0, 0, 0.5, 0.8), (40, 3, 0.9, 0.55)]:
        memory = MemoryRecord(
            id="a",
            content="x",
            type=MemoryType.EPISODIC,
            importance=importance,
            confidence=confidence,
            access_count=uses,
            created_at=now - age_days * 86_400.0,
        )
        value = score_value(memory, found, now, weights, decay)
        assert value == score(memory, found, now, weights, decay).score
        assert value > 0.0


def test_a_memory_told_next_to_a_relevant_one_is_lifted_by_it() -> None:
    """The context term: the best relevance of a memory told together with it (a neighbouring
    turn of one conversation) adds to its logit, and shows in the breakdown; whether anything
    is relevant at all is judged without it."""
    alone = _candidate("alone", 0.3)
    beside = Candidate("beside", 0.3, None, None, None, 0.0, context=0.6)
    by_key = {r.candidate.key: r for r in relevance([alone, beside], FusionConfig())}
    assert by_key["beside"].probability > by_key["alone"].probability
    assert by_key["beside"].from_context == pytest.approx(FusionConfig().context * 0.6)
    assert by_key["alone"].from_context == 0
    assert by_key["beside"].plain_probability == pytest.approx(by_key["alone"].probability)


def test_lifting_after_the_fact_is_the_same_as_judging_with_the_context() -> None:
    """Recall adds the context term to relevance already judged (``lifted``): the same
    probabilities and order as judging candidates that carry it."""
    plain = [_candidate("a", 0.6, 5.0, 0.5), _candidate("b", 0.4), _candidate("c", 0.3)]
    context = {"b": 0.5, "c": 0.9}
    config = FusionConfig()
    after = lifted(relevance(plain, config), context, config)
    carried = [
        Candidate(
            c.key,
            c.cosine,
            c.bm25,
            None,
            c.keyword_rank,
            c.coverage,
            context=context.get(c.key, 0.0),
        )
        for c in plain
    ]
    judged = relevance(carried, config)
    assert [r.candidate.key for r in after] == [r.candidate.key for r in judged]
    for mine, theirs in zip(after, judged, strict=True):
        assert mine.probability == pytest.approx(theirs.probability)
        assert mine.from_context == pytest.approx(theirs.from_context)
        assert mine.plain_probability == pytest.approx(theirs.plain_probability)


def test_a_partial_match_among_few_counts_less_as_the_best_keyword_match() -> None:
    nothing = [0.0] * 8
    # a paraphrase: two of ten candidates hold one common word of the question, a fifth of it
    assert relative_keyword_weight([0.2, 0.2, *nothing], 0.6) == pytest.approx(0.12)
    assert relative_keyword_weight([1.0, 0.3, *nothing], 0.6) == pytest.approx(0.6)  # all of it
    # many candidates hold its words (a dialogue, a word most memories hold): as before
    many = [0.05] * 4 + [0.0] * 6
    assert FEW_KEYWORD_MATCHES * len(many) < 4
    assert relative_keyword_weight(many, 0.6) == pytest.approx(0.6)


def test_a_habit_asked_what_was_done_in_a_period_ranks_below_a_plain_memory() -> None:
    """Made in the period adds the period term; a habit or a plan asked "what did I do last
    weekend?" (``no_occasion``) loses it: "I go climbing every Wednesday", far nearer the
    question in meaning, ranks below Saturday's bouldering (review10 F15)."""
    config = FusionConfig()
    made_then = Candidate("saturday", 0.15, None, None, None, in_period=True)
    habit = Candidate("habit", 0.36, None, None, None, no_occasion=True)
    plain = Candidate("plain", 0.36, None, None, None)
    by_key = {r.candidate.key: r for r in relevance([made_then, habit, plain], config)}
    assert by_key["saturday"].probability > by_key["habit"].probability
    gap = by_key["plain"].logit - by_key["habit"].logit
    assert gap == pytest.approx(config.period)

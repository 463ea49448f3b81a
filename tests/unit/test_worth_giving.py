"""Which recalled memories the context block gives an assistant (localmind.currency.worth_giving):
the ones near the best, and fewer of them the less relevant even the best is (review10 F4, F10:
nine lines of filler for a question nothing in the store answers)."""

from __future__ import annotations

import datetime as dt

from localmind.config import ProfileConfig
from localmind.currency import worth_giving
from localmind.records import MemoryRecord, MemoryType, RecallResult, ScoreBreakdown

TOLD = dt.datetime(2026, 3, 20, 12).timestamp()
CONFIG = ProfileConfig()


def result(content: str, relevance: float, *, moved_above: str | None = None) -> RecallResult:
    memory = MemoryRecord(
        id=content, content=content, type=MemoryType.SEMANTIC, created_at=TOLD, updated_at=TOLD
    )
    breakdown = ScoreBreakdown(
        score=relevance,
        similarity=relevance,
        importance=0.5,
        recency=1.0,
        frequency=0.0,
        confidence=0.8,
        vector_similarity=None,
        vector_rank=None,
        keyword_rank=None,
        moved_above=moved_above,
    )
    return RecallResult(memory, breakdown)


def given(results: list[RecallResult]) -> list[str]:
    kept = worth_giving(
        results, CONFIG.context_relative_relevance, CONFIG.context_relevance_per_memory
    )
    return [r.memory.content for r in kept]


def test_a_barely_relevant_best_brings_a_short_tail():
    # "Can you suggest a dinner recipe?": every memory about as (ir)relevant as the next
    filler = [result(f"filler {i}", 0.05 - i * 0.002) for i in range(10)]
    assert given(filler) == ["filler 0", "filler 1", "filler 2"]


def test_a_relevant_best_keeps_everything_near_it():
    near = [result(f"answer {i}", 0.6 - i * 0.05) for i in range(8)]
    far = [result("unrelated", 0.05)]
    assert given(near + far) == [f"answer {i}" for i in range(8)]


def test_the_newer_version_moved_above_a_kept_memory_is_given_beyond_the_cap():
    weak = [result(f"weak {i}", 0.03) for i in range(4)]
    newer = result("I moved to Lisbon", 0.01, moved_above="weak 0")
    assert given([newer, *weak]) == ["I moved to Lisbon", "weak 0", "weak 1"]


def test_recalls_first_answer_is_always_given():
    # recall put the move first as what holds now, though it shares few of the question's
    # words; the two homes it replaced were given without it (review13 J4)
    moved = result("我搬进了Boxhagener Platz的新家", 0.03)
    airbnbs = [result("Mitte的Airbnb", 0.48), result("Airbnb延长到了11月15日", 0.35)]
    assert given([moved, *airbnbs]) == [
        "我搬进了Boxhagener Platz的新家",
        *[a.memory.content for a in airbnbs],
    ]

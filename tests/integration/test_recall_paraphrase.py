"""A paraphrase (a question sharing no word with its answer) is not outranked by a memory that
merely holds one common word of the question (docs/design.md, "Recall, round 6"). Real
encrypted store, sqlite-vec, FTS5 and the bundled USE-m3 model."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from localmind import Memory, NewMemory

AIRPLANES = "I get really anxious on airplanes, especially during takeoff."
BERLIN = "I travel to Berlin for the trade fair every March."
MEMORIES = [
    AIRPLANES,
    BERLIN,
    "My sister Anna lives in Munich with her two cats.",
    "The team meeting moved to Thursday afternoons.",
    "We adopted a golden retriever puppy called Biscuit.",
    "Our landlord raised the rent by five percent this year.",
    "I started learning the cello in September.",
    "I am allergic to penicillin.",
    "My favourite time of the day is early morning.",
    "The kind of coffee I like is a flat white.",
    "I have to pay the car insurance by the end of the month.",
    "The new instrument panel in my car keeps flickering.",
]
QUESTION = "What makes me nervous when I travel?"  # "travel" is all it shares, with Berlin


def test_a_shared_common_word_does_not_outrank_the_meaning(
    open_memory: Callable[..., Memory], monkeypatch: pytest.MonkeyPatch
) -> None:
    memory = open_memory()
    memory.remember_many([NewMemory(content=text) for text in MEMORIES])
    found = memory.recall(QUESTION, 3)
    assert [r.memory.content for r in found[:2]] == [AIRPLANES, BERLIN]
    assert found[0].breakdown.keyword_coverage == 0  # the answer holds no word of it
    assert found[1].breakdown.keyword_coverage > 0
    # the keyword match still counts: the Berlin trip comes next, above unrelated memories
    assert found[1].breakdown.from_keywords > 0
    # ... and it is the rule that decides: with the relative BM25 at full weight whatever the
    # coverage (as before round 6), the one shared word puts the Berlin trip first
    monkeypatch.setattr("localmind.ranking.FEW_KEYWORD_MATCHES", -1.0)
    assert memory.recall(QUESTION, 3)[0].memory.content == BERLIN

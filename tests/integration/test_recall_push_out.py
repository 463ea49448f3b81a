"""A newer memory lifted above one it may replace does not push a more relevant answer out of
the results (docs/design.md, "Recall, round 8"). Real encrypted store, sqlite-vec, FTS5 and the
bundled USE-m3 model."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from localmind import Memory
from tests.conftest import FakeClock
from tests.integration.test_recall_judgment import _filled

TOMATOES = "Tomatoes and cucumbers are growing in the backyard."
MINT = "We planted mint and basil along the back fence."
#: remember() notes this as a possible later version of "我最喜欢的菜是麻婆豆腐" (my favourite
#: dish is mapo tofu: a change of what I like, the attribute both set) and queues it against
#: the cilantro one
LATER = "Weirdly, I now love cilantro; a little bit in pho actually tastes good."
QUESTION = "What vegetables grow in our backyard?"


def _garden(memory: Memory, clock: FakeClock) -> str:
    _filled(memory)
    memory.remember(TOMATOES)
    memory.remember(MINT)
    memory.remember("I don't eat cilantro, I can taste even a tiny bit of it.")
    clock.advance(days=120)
    later = memory.remember(LATER).id
    clock.advance(days=10)
    return later


def test_a_later_version_does_not_push_a_stronger_answer_out(
    open_memory: Callable[..., Memory], clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory = open_memory()
    later = _garden(memory, clock)
    found = memory.recall(QUESTION, 3)
    assert {TOMATOES, MINT} <= {r.memory.content for r in found}
    assert later not in [r.memory.id for r in found]
    # with room below the answers it is still lifted above the memory it may replace, and says so
    [lifted] = [r for r in memory.recall(QUESTION, 5) if r.memory.id == later]
    assert lifted.breakdown.moved_above is not None
    # ... and it is the rule that decides: lifted in whatever it pushes out (as before round
    # 8), the cilantro note, a sixth as relevant, takes the mint answer's place
    monkeypatch.setattr("localmind.recall.NEWER_FIRST_PUSH_OUT", 0.0)
    found = memory.recall(QUESTION, 3)
    assert later in [r.memory.id for r in found]
    assert MINT not in [r.memory.content for r in found]

"""A newer memory is listed above an older one it may replace only when it is relevant to the
question on its own, or the question asks how things stand now; a change told of someone is no
later version of a text that never names them (docs/design.md, "Recall, round 13b"; review13
J3, J7). Real encrypted store, sqlite-vec, FTS5 and the bundled USE-m3 model."""

from __future__ import annotations

from collections.abc import Callable

from localmind import Memory
from tests.conftest import FakeClock

BARN = "我喜欢的咖啡店是Mitte的The Barn，他们的flat white很好"
SILO = "现在我最喜欢的咖啡店是Friedrichshain的Silo Coffee，虽然我只喝matcha了"
MATCHA = "我现在每天早上喝一杯matcha latte，已经两周没喝咖啡了"


def test_a_habit_queued_against_a_favourite_cafe_is_not_listed_above_it(
    open_memory: Callable[..., Memory], clock: FakeClock
) -> None:
    memory = open_memory()
    for text in (BARN, SILO, MATCHA):
        memory.remember(text, type="semantic")
        clock.advance(days=10)
    # remember queued the habit against the café (a bare 现在 announces a change): the queue
    # asks; recall does not take it for the answer meanwhile
    assert any(
        (c.existing.content, c.candidate.content) == (SILO, MATCHA) for c in memory.conflicts()
    )
    found = memory.recall("我最喜欢的咖啡店是哪家？", 3)
    texts = [r.memory.content for r in found]
    assert texts[0] == SILO
    assert found[0].breakdown.superseded_by is None  # nor is the café called outdated by it


OFFER = "Chen Hao got the offer from Zalando! He starts in Berlin on January 15"
MOCHI = "Mochi is in Berlin now! Chen Hao brought her on the flight"


def test_a_cats_arrival_is_not_listed_above_a_job_offer_that_shares_a_city(
    open_memory: Callable[..., Memory], clock: FakeClock
) -> None:
    memory = open_memory()
    for text in (OFFER, MOCHI, "陈浩的Zalando入职日期提前到了1月5日"):
        memory.remember(text, type="semantic")
        clock.advance(days=10)
    found = memory.recall("When does Chen Hao start at Zalando?", 5)
    assert found[0].memory.content == OFFER
    assert found[0].breakdown.superseded_by is None
    assert all(r.breakdown.moved_above is None for r in found)

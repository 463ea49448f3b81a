"""Asked how things stand now, the latest of a chain of changes comes first, and the first of
the chain never above the later ones (docs/design.md, "Recall, round 12b"). Real encrypted
store, sqlite-vec, FTS5 and the bundled USE-m3 model."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from localmind import Memory
from tests.conftest import FakeClock

BUS = "去养老院上班要坐43路公交再转地铁，单程五十分钟。"
CAR = "现在开车去养老院，十五分钟就到，不用再挤公交了。"
HOSPITAL = "从万锦开车去士嘉堡总院，走404转401，二十五分钟左右。"
COMMUTE = "我现在上班路上要多久？"


def _commutes(memory: Memory, clock: FakeClock) -> None:
    """Three commutes, told months apart among other news of work and home."""
    memory.remember(BUS)
    clock.advance(days=60)
    memory.remember("养老院我主要上夜班，晚上11点到早上7点。")
    memory.remember("我现在体重63公斤，想减到58。")
    clock.advance(days=60)
    memory.remember(CAR)
    clock.advance(days=200)
    memory.remember("刘洋每天坐GO火车从Unionville去市中心上班，单程四十分钟。")
    memory.remember(HOSPITAL)
    clock.advance(days=5)
    memory.remember("现在上白班了，早七晚七，下班还能陪子轩吃晚饭。")
    memory.remember("我妈今天飞回成都了，半年签证到期。")
    memory.remember("Insurance renewal: $245 a month now that I have a year of driving history.")
    clock.advance(days=20)


@pytest.mark.slow
def test_the_latest_of_a_chain_of_changes_comes_before_the_earlier_ones(
    open_memory: Callable[..., Memory], clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory = open_memory()
    _commutes(memory, clock)
    found = [r.memory.content for r in memory.recall(COMMUTE, 5)]
    assert HOSPITAL in found
    assert found.index(HOSPITAL) < found.index(CAR) < found.index(BUS)
    # ... and it is following the chain that does it: with only the first results' own
    # successors looked up, the drive to the care home is the latest commute returned
    monkeypatch.setattr("localmind.recall.CHAIN_LINKS", 1)
    found = [r.memory.content for r in memory.recall(COMMUTE, 5)]
    assert HOSPITAL not in found
    assert found.index(CAR) < found.index(BUS)


CARS = [
    "I drive a white 2019 BYD Qin.",
    "Sold the BYD and bought a used 2018 Toyota Corolla.",
    "Sold the Corolla and got a 2024 Honda CR-V hybrid.",
]


def test_the_first_car_of_three_is_not_the_answer_about_now(
    open_memory: Callable[..., Memory], clock: FakeClock
) -> None:
    """The sale of the BYD drops below the sale of the Corolla (too weak to push a result out):
    the BYD itself is not left above both as the car driven now."""
    memory = open_memory()
    for text in ("I keep my passport in the blue folder", "我的车是一辆白色的丰田"):
        memory.remember(text)
    for text in CARS:
        memory.remember(text)
        clock.advance(days=120)
    found = [r.memory.content for r in memory.recall("What car do I drive now?", 3)]
    assert CARS[2] in found
    assert CARS[0] not in found[: found.index(CARS[2])]

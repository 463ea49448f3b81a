"""What a new user trips over, round 14 (polish15): an occasion moved to another day is no move
of home, in either language (docs/design.md, "What a user trips over, round 14")."""

from __future__ import annotations

import pytest

from localmind.statement import read
from localmind.suspicion import suspect


@pytest.mark.parametrize(
    "moved",
    [
        "The meeting got moved to Thursday.",
        "Our weekly meeting has been moved to Thursday afternoon.",
        "The call moved to 3pm.",
        "Dinner with Anna got moved to Friday.",
        "The meeting with our landlord was moved to next week.",
        "My piano lesson moved to Wednesdays.",
    ],
)
def test_an_occasion_moved_is_no_home_move(moved: str) -> None:
    assert "residence" not in read(moved).single_slots
    assert not suspect("I live in Berlin.", moved).contradicts
    assert not suspect("我住在柏林。", moved).contradicts


@pytest.mark.parametrize(
    "moved",
    ["会议改到周四了。", "那个会挪到明天了。", "周五的饭局挪到下周了。", "瑜伽课改到周三了。"],
)
def test_an_occasion_moved_is_no_home_move_in_chinese(moved: str) -> None:
    assert "residence" not in read(moved).single_slots
    assert not suspect("我住在柏林。", moved).contradicts
    assert not suspect("I live in Berlin.", moved).contradicts


@pytest.mark.parametrize(
    "moved",
    [
        "We moved to Lisbon.",
        "After the trip we moved to Lisbon.",
        "I moved to Lisbon after the wedding.",
        "After the meeting my wife and I moved to Porto.",
    ],
)
def test_a_home_move_beside_an_occasion_is_still_one(moved: str) -> None:
    assert "residence" in read(moved).single_slots
    assert suspect("I live in Berlin.", moved).contradicts

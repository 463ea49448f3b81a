"""A new user's changes the queue missed (review13): as many negations in both texts is no
sameness when they negate other things, so a corrected diagnosis whose older text says "no
EpiPen needed" is queued (J1), while a word both texts negate is no change; the German word for
the rent is the rent (J9)."""

from __future__ import annotations

import pytest

from localmind.suspicion import suspect

CHANGES = [
    (
        "I'm allergic to peanuts — mild, my lips swell, no EpiPen needed",
        "I'm allergic to hazelnuts, not peanuts",
    ),
    ("I'm allergic to peanuts", "I'm allergic to hazelnuts, not peanuts"),
    ("I don't drink coffee, no caffeine at all", "I don't drink tea anymore, no coffee"),
    ("我对花生过敏，不用带肾上腺素笔", "我不是对花生过敏，是对榛子过敏"),
    ("I don't eat meat anymore", "I eat meat again"),
]

SAME = [
    ("I don't eat meat", "I still don't eat meat"),
    ("I take my coffee with no sugar", "Coffee, black, no sugar please"),
    ("我不吃香菜，一点都不行", "我还是不吃香菜"),
]


@pytest.mark.parametrize(("old", "new"), CHANGES)
def test_a_negation_of_another_word_is_queued(old: str, new: str) -> None:
    assert suspect(old, new).contradicts


@pytest.mark.parametrize(("old", "new"), SAME)
def test_a_word_both_negate_is_no_change(old: str, new: str) -> None:
    assert not suspect(old, new).contradicts


def test_the_german_word_for_the_rent_is_the_rent() -> None:
    # a newcomer to Berlin keeps "Kaltmiete" for the rent, in English and Chinese (review13 J9)
    assert suspect("The Kaltmiete is 950 euros", "The Kaltmiete went up to 980 euros").contradicts
    assert not suspect("The Kaltmiete is 950 euros", "The Warmmiete is 1150 euros").contradicts

"""An extractive profile's facts are joined in the language most of them are in (review9
Q4/M6: one long Chinese memory among short English ones made it "；"-joined, ending "。")."""

from __future__ import annotations

import pytest

from localmind.profile import join_facts

LONG_ZH = "我搬到了里斯本，现在住在 Alfama 区的一栋老房子里，上班要坐二十分钟的电车"


@pytest.mark.parametrize(
    ("facts", "expected"),
    [
        (["I drink tea", "I run"], "I drink tea; I run."),
        (
            ["I drink tea", LONG_ZH, "I run"],
            f"I drink tea; {LONG_ZH}; I run.",
        ),
        (["用户喜欢喝茶", "I run", "用户养了一只猫"], "用户喜欢喝茶；I run；用户养了一只猫。"),
        # a tie: the first (most valuable) fact's language
        ([LONG_ZH, "I run"], f"{LONG_ZH}；I run。"),
        (["I run", LONG_ZH], f"I run; {LONG_ZH}."),
        (["用户喜欢喝茶"], "用户喜欢喝茶。"),
    ],
)
def test_facts_are_joined_in_the_language_of_most_of_them(facts: list[str], expected: str) -> None:
    assert join_facts(facts) == expected

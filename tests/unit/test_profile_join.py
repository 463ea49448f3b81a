"""An extractive profile's facts are each followed by their own script's mark (review9 Q4/M6:
one long Chinese memory among short English ones made it "；"-joined, ending "。"; review10 F16:
"…主管；I drive a 2012 Toyota Corolla。")."""

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
            f"I drink tea; {LONG_ZH}；I run.",
        ),
        (["用户喜欢喝茶", "I run", "用户养了一只猫"], "用户喜欢喝茶；I run; 用户养了一只猫。"),
        ([LONG_ZH, "I run"], f"{LONG_ZH}；I run."),
        (["我在 Zalando 做主管", "I drive a Corolla"], "我在 Zalando 做主管；I drive a Corolla."),
        (["I run", LONG_ZH], f"I run; {LONG_ZH}。"),
        (["用户喜欢喝茶"], "用户喜欢喝茶。"),
    ],
)
def test_each_fact_is_followed_by_its_own_scripts_mark(facts: list[str], expected: str) -> None:
    assert join_facts(facts) == expected

"""Names declared in brackets (localmind.declared_names) and the merge guard reading a Chinese
text with them (localmind.sameness): wordings written for these tests."""

from __future__ import annotations

import pytest

from localmind.declared_names import bracketed, said_names
from localmind.sameness import compare


@pytest.mark.parametrize(
    ("text", "pairs"),
    [
        (
            "我们有两个孩子：儿子何以恒（Ethan），女儿何以宁（Chloe）。",
            {("ethan", "何以恒"), ("chloe", "何以宁")},
        ),
        ("我妹妹林晓琳（Linda）住在卡尔加里。", {("linda", "林晓琳")}),
        ("我女儿叫莉莉（Lily），今年七岁。", {("lily", "莉莉")}),
        ("我的经理是佐藤健二（Kenji Sato）。", {("kenji sato", "佐藤健二")}),
        ("我们在万锦（Markham）看中了一套房。", {("markham", "万锦")}),
    ],
)
def test_a_name_declared_in_brackets_is_read(text: str, pairs: set[tuple[str, str]]) -> None:
    assert bracketed(text) == pairs


@pytest.mark.parametrize(
    "text",
    [
        "我在公司（Google）上班。",  # a word explained, not a second name
        "报了一个PSW（个人护理员）速成课。",  # the other way round
        "我在新工作（Lumen）很开心。",  # 工作 "work" is a word
        "新工作（Lumen）很好。",  # nothing opens a name
        "我们去了麒麟（Kirin）饮茶。",  # 麒麟 "giraffe, kylin": a word of its own
    ],
)
def test_nothing_else_in_brackets_is_a_declared_name(text: str) -> None:
    assert bracketed(text) == frozenset()


def test_a_three_character_name_is_also_said_by_its_given_name() -> None:
    assert said_names({("ethan", "何以恒")}) == {("ethan", "何以恒"), ("ethan", "以恒")}
    assert said_names({("markham", "万锦")}) == {("markham", "万锦")}


DECLARED = frozenset({("ethan", "何以恒"), ("chloe", "何以宁")})


@pytest.mark.parametrize(
    ("english", "chinese"),
    [
        ("Ethan's birthday is June 21.", "以恒的生日是6月21日。"),
        ("Ethan's birthday is June 21.", "何以恒的生日是6月21日。"),
        ("Ethan and Chloe are allergic to peanuts.", "以恒和以宁对花生过敏。"),
    ],
)
def test_a_declared_name_is_the_same_person_in_the_other_language(
    english: str, chinese: str
) -> None:
    assert compare(english, chinese, 0.7, DECLARED).same
    assert compare(chinese, english, 0.7, DECLARED).same
    assert not compare(english, chinese, 0.7).same  # undeclared: someone else


@pytest.mark.parametrize(
    ("english", "chinese"),
    [
        ("Chloe's birthday is June 21.", "以恒的生日是6月21日。"),  # the other child
        ("Ethan's birthday is June 21.", "以恒的生日是6月22日。"),  # another day
        ("Ethan's birthday is June 21.", "以宁和以恒的生日是6月21日。"),  # two children
        ("Ethan's birthday is June 21.", "以恒妈妈的生日是6月21日。"),  # his mother's
    ],
)
def test_a_declared_name_does_not_make_another_fact_the_same(english: str, chinese: str) -> None:
    assert not compare(english, chinese, 1.0, DECLARED).same
    assert not compare(chinese, english, 1.0, DECLARED).same


def test_a_name_told_with_its_declaration_is_told_once() -> None:
    # 莉莉（Lily）names her once, as "Lily" does: before, Lily counted twice
    chinese = "我女儿叫莉莉（Lily），今年七岁。"
    assert compare(chinese, "My daughter Lily is seven.", 0.7).same

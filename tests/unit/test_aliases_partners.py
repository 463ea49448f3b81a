"""The name a store gives the user's partner (review12 R4; docs/design.md, "Recall, round
12b"): read only from plain forms, and used only to write a text that opens with it as the
relation the other text tells of."""

from __future__ import annotations

import pytest

from localmind.aliases import by_partners_name, partners_named


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("我老公叫刘洋，是结构工程师；儿子刘子轩今年九岁。", {("husband", "刘洋")}),
        ("我太太王芳在中学教书。", {("wife", "王芳")}),
        ("My husband Tom works at Boeing.", {("husband", "Tom")}),
        ("my wife, Sarah, is a nurse", {("wife", "Sarah")}),
        # "is" and a full name, or a name with its characters (polish14)
        ("My wife is Li Na (李娜).", {("wife", "Li Na"), ("wife", "李娜")}),
        ("My husband is Tom Becker, a nurse.", {("husband", "Tom Becker")}),
        ("My wife is Anna (安娜).", {("wife", "Anna"), ("wife", "安娜")}),
        # no name: a job, a nationality, a sister's name
        ("我老公是医生。", set()),
        ("My husband is Chinese.", set()),
        ("My wife is Chinese American.", set()),
        ("My wife is Sarah.", set()),  # one word after "is": a name, or "German", "Happy"
        ("My wife is pregnant.", set()),
        ("My sister Anna lives in Munich.", set()),
    ],
)
def test_a_partners_name_is_read_from_plain_forms_only(text: str, named: set[object]) -> None:
    assert partners_named(text) == named


def test_a_text_opening_with_the_name_is_read_as_the_relation() -> None:
    named = partners_named("我老公叫刘洋。")
    assert by_partners_name("刘洋换工作了。", named) == "我老公换工作了。"
    named = partners_named("My wife, Sarah, loves hiking.")
    assert (
        by_partners_name("Sarah now teaches at Burnaby South.", named)
        == "My wife now teaches at Burnaby South."
    )
    # another name, or the name later in the text, stays
    assert by_partners_name("Emma now goes to Burnaby South.", named) == (
        "Emma now goes to Burnaby South."
    )
    assert by_partners_name("Went hiking with Sarah.", named) == "Went hiking with Sarah."
    # someone of hers is not her: "my wife's parents" would read as the wife
    assert by_partners_name("Sarah's parents moved to Tucson.", named) == (
        "Sarah's parents moved to Tucson."
    )

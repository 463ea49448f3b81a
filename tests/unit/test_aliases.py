"""A person's English name as the user declares it (localmind.aliases): wordings written for
these tests."""

from __future__ import annotations

import pytest

from localmind.aliases import by_declared_name, declared, in_pinyin, opens_with_a_name


@pytest.mark.parametrize(
    ("text", "pairs"),
    [
        ("我儿子叫周浩然，今年六岁，英文名叫Ethan。", {("ethan", "周浩然")}),
        ("我女儿思琪的英文名是Mia。", {("mia", "思琪")}),
        (
            "Our daughter Zhou Siqi, Mia in English, starts school in the fall.",
            {("mia", "Zhou Siqi")},
        ),
        ("Haoran's English name is Ethan.", {("ethan", "Haoran")}),
    ],
)
def test_a_declared_english_name_is_read(text: str, pairs: set[tuple[str, str]]) -> None:
    assert declared(text) == pairs


@pytest.mark.parametrize(
    "text",
    [
        "以后不用Jenny这个英文名了。",  # a name given up, no one's declared name
        "我的英文名叫Jenny。",  # the user's own: nobody named before it
        "Ethan is in English class on Mondays.",
        "我儿子周浩然今年六岁。",
    ],
)
def test_nothing_else_is_a_declaration(text: str) -> None:
    assert declared(text) == frozenset()


def test_a_chinese_name_is_written_by_its_sound() -> None:
    assert in_pinyin("周浩然") == "Haoran"  # the given name: 周 alone would be anyone's
    assert in_pinyin("思琪") == "Siqi"
    assert in_pinyin("Zhou Siqi") == "Siqi"


def test_only_an_opening_declared_name_is_rewritten() -> None:
    pairs = {("ethan", "周浩然")}
    assert by_declared_name("Ethan quit judo.", pairs) == "Haoran quit judo."
    assert by_declared_name("I told Ethan about it.", pairs) == "I told Ethan about it."
    assert by_declared_name("Ethan退出了柔道班。", pairs) == "Ethan退出了柔道班。"
    assert by_declared_name("Lucas quit judo.", pairs) == "Lucas quit judo."


def test_declarations_are_looked_up_only_for_a_text_that_opens_with_a_name() -> None:
    assert opens_with_a_name("Ethan quit judo.")
    assert not opens_with_a_name("My son quit judo.")
    assert not opens_with_a_name("Ethan退出了柔道班。")

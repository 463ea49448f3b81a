"""Which kinds a question names (localmind.kinds): the word for the kind, in either language,
as a word of its own."""

from __future__ import annotations

import pytest

from localmind.kinds import kinds_named


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("Do I have any pets?", "pet"),
        ("What pet did I adopt?", "pet"),
        ("我有宠物吗？", "pet"),
        ("Which sports do I do during the week?", "sport"),
        ("我平时做什么运动？", "sport"),
        ("Do I play an instrument?", "instrument"),
        ("How many kids do I have?", "child"),
        ("What languages do I speak?", "language"),
    ],
)
def test_a_question_naming_a_kind(question: str, kind: str):
    assert [k.name for k in kinds_named(question)] == [kind]


@pytest.mark.parametrize(
    "question",
    [
        "Did we buy the new carpets?",  # "pets" inside another word
        "Do I have a dog?",  # a member, not the kind: the word itself matches
        "Where do I live?",
        "",
    ],
)
def test_a_question_naming_no_kind(question: str):
    assert kinds_named(question) == ()

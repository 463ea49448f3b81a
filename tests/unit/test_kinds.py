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


@pytest.mark.parametrize(
    "question",
    [
        "Which vet do the pets go to now?",  # the pets are known: the vet is asked
        "Which vets have our pets gone to?",
        "What is Leo's sport?",
        "我家的宠物去哪家医院？",
        "孩子最近个头长高了多少？",  # the kid, the question's subject
        "The school is going to hold a sports day.",  # a chat's statement asks nothing
        "学校要举办运动会，我挺期待的。",
    ],
)
def test_a_definite_kind_or_a_statement_asks_about_no_kind(question: str):
    assert kinds_named(question) == ()

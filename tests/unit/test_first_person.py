"""An assistant's note about "the user" is embedded as the person would say it
(localmind/first_person.py); anything else is embedded as told."""

from __future__ import annotations

import pytest

from localmind.first_person import as_asked, as_told


@pytest.mark.parametrize(
    ("note", "told"),
    [
        ("The user moved to Lisbon", "I moved to Lisbon"),
        ("User now works at Google", "I now work at Google"),
        ("The user is vegetarian", "I am vegetarian"),
        ("The user has two cats", "I have two cats"),
        ("The user no longer eats meat", "I no longer eat meat"),
        ("The user doesn't drink coffee", "I don't drink coffee"),
        ("The user quit smoking", "I quit smoking"),
        ("User prefers tea over coffee", "I prefer tea over coffee"),
        ("The user always goes running on Sundays", "I always go running on Sundays"),
        ("The user's sister lives in Munich", "My sister lives in Munich"),
        ("The user lives in Berlin with the user's wife", "I live in Berlin with my wife"),
        ("用户搬到了里斯本", "我搬到了里斯本"),
        ("用户的妹妹住在慕尼黑", "我的妹妹住在慕尼黑"),
    ],
)
def test_a_note_about_the_user_reads_in_the_first_person(note: str, told: str) -> None:
    assert as_told(note) == told


@pytest.mark.parametrize(
    "text",
    [
        "I live in Berlin",
        "User interface work is dull",  # "user" names no person here
        "Users on the forum were rude",
        "My sister's user name is anna92",
        "用户界面太复杂了",
        "我住在柏林",
        "The user, a nurse, lives in Toronto",  # left as told when the verb is not next
    ],
)
def test_anything_else_is_left_as_told(text: str) -> None:
    assert as_told(text) == text


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("Where does the user live?", "Where do I live?"),
        ("What is the user's job?", "What is my job?"),
        ("Is the user allergic to anything?", "Am I allergic to anything?"),
        ("When did the user move to Lisbon?", "When did I move to Lisbon?"),
        ("Has the user been to Japan?", "Have I been to Japan?"),
        ("What pets does the user have?", "What pets do I have?"),
        ("What does the user's sister do?", "What does my sister do?"),
        ("用户住在哪里？", "我住在哪里？"),
        ("用户的工作是什么？", "我的工作是什么？"),
    ],
)
def test_an_assistants_question_about_the_user_is_asked_as_the_person_asks(
    question: str, asked: str
) -> None:
    assert as_asked(question) == asked


@pytest.mark.parametrize(
    "question", ["Where do I live?", "User interface settings?", "我住在哪里？", "用户界面在哪里？"]
)
def test_a_question_in_the_persons_words_is_left_as_asked(question: str) -> None:
    assert as_asked(question) == question

"""An assistant's note about "the user" is embedded as the person would say it
(localmind/first_person.py); anything else is embedded as told."""

from __future__ import annotations

import pytest

from localmind.first_person import as_told


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

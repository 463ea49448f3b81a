"""Endings are changes (issue 13, fix9 item 2): a pet or a person the older memory names died,
the person's relationship ended, they left a job, sold the car — in English and Chinese, and
across the two. What merely names the same pet, person or job again is no change."""

from __future__ import annotations

import pytest

from localmind.suspicion import suspect

ENDINGS = [
    ("I have a dog named Rex", "My dog Rex died last year"),
    ("我养了一只狗叫Rex", "我的狗Rex去年去世了"),
    ("I have a dog named Rex", "我的狗Rex去年去世了"),
    ("I have a cat called Mimi", "Mimi passed away in March"),
    ("I work at Acme as an engineer", "I quit my job at Acme"),
    ("I work at Acme as an engineer", "I got fired from Acme"),
    ("I work as a nurse at St. Mary's", "I was laid off in June"),
    ("我在Acme公司工作", "我辞职了"),
    ("I drive a red Honda Civic", "I sold my car"),
    ("我开一辆红色的本田思域", "我把车卖了"),
    ("My boyfriend is Tom", "We broke up"),
    ("I'm dating Tom", "Tom and I broke up"),
    ("我的男朋友是汤姆", "我们分手了"),
    ("My boyfriend is Tom", "我们分手了"),
    ("My wife is Anna", "We got divorced last spring"),
]


@pytest.mark.parametrize(("old", "new"), ENDINGS)
def test_an_ending_of_what_the_older_memory_tells_is_a_possible_change(old: str, new: str) -> None:
    assert suspect(old, new).contradicts, suspect(old, new).why


NO_ENDINGS = [
    ("I have a dog named Rex", "My dog Rex loves the beach"),
    ("I have a dog named Rex", "Rex passed his obedience test"),
    ("I work with Tom at Acme", "Tom's father died last week"),
    ("我的同事叫汤姆", "汤姆的爸爸去世了"),
    ("My boyfriend is Tom", "My sister and her boyfriend broke up"),
    ("I play guitar in a band", "I broke a string at the gig"),
    ("I go climbing with Lisa on Fridays", "Lisa and I split the bill at dinner"),
    ("I have a dog named Rex", "There was a fire in our kitchen"),
]


@pytest.mark.parametrize(("old", "new"), NO_ENDINGS)
def test_what_names_the_same_pet_or_person_without_an_end_of_it_is_no_change(
    old: str, new: str
) -> None:
    assert not suspect(old, new).contradicts, suspect(old, new).why


def test_the_reason_says_what_ended_in_plain_words() -> None:
    assert suspect("I have a dog named Rex", "My dog Rex died last year").why == (
        "it tells an end of Rex, named in the older memory (“died”)"
    )
    assert suspect("My boyfriend is Tom", "We broke up").why == (
        "“broke up”: the relationship the older memory tells of ended"
    )

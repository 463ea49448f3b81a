"""The review queue on a family's words (review12 R1, R5): a change is paired with the memory
of what it changes, not with a nearer one that only shares a word; who a text is about is read
through adverbs ("Emma now goes"), relatives named as names ("Dad stopped …") and a Chinese
name spelled in pinyin ("Fang" / 王芳). Each with the pair that must stay apart."""

from __future__ import annotations

import pytest

from localmind.statement import read
from localmind.suspicion import suspect

CHANGES = [
    # the name before an adverb and a verb is the subject, as before the verb alone
    ("Emma goes to Carnarvon Elementary, grade 4", "Emma now goes to Marlborough Elementary"),
    ("Noah plays the cello in the school band", "Noah still plays the cello, now in Toronto"),
    # "Dad" opening a text is the father "my dad" names
    ("My dad lives in Taipei", "Dad moved to Vancouver last spring"),
    (
        "My dad's doctor changed his medication to losartan",
        "Dad stopped losartan; the doctor put him back on amlodipine",
    ),
    # a Chinese name and its pinyin, the full name or the given name
    ("王芳住在上海", "Fang moved to Beijing"),
    ("王芳不喝咖啡，只喝乌龙茶", "Fang started drinking coffee again, a flat white every morning"),
    ("我不喝咖啡", "I started drinking coffee again"),
    # a name before a negated auxiliary is the subject, as before the verb alone (R6)
    ("Leo needs a night light to sleep", "Leo doesn't need the night light anymore"),
    ("Mia likes peanuts", "Mia can't eat peanuts anymore"),
    # still a change: one's own move, and the same note with another date
    ("We live in Kitsilano", "We moved to Burnaby to help my mom"),
    ("I get up at 6:30", "I get up at 7:30"),
    ("工作：数据项目评审在05月25日", "工作：数据项目评审在03月30日"),
]

APART = [
    # another person, another name
    ("王芳住在上海", "Lily moved to Beijing"),
    ("My wife Sarah is a nurse", "Dad moved to Vancouver"),
    # the person both name is no shared thing: another activity begun
    ("Fang does yoga on Sunday mornings", "Fang started drinking coffee again every morning"),
    # a dated event at a school is no school attribute a change replaces
    ("Went to Emma's school concert on Thursday", "Emma now goes to Marlborough Elementary"),
    # review12 R7, a diary imported: someone helped to move is no change of the user's
    ("David recommended the ramen place on Main Street", "Helped David move boxes today"),
    ("Anna推荐了列治文的那家餐厅", "周六帮Anna搬家"),
    # a street is no car
    ("Ben recommended the bakery on Commercial Drive", "Had ramen with Ben near Commercial Drive"),
    # two things done, each told as done: both hold
    (
        "Chloe recommended the restaurant on Lonsdale Quay",
        "Chloe recommended the restaurant on Granville Island",
    ),
    # a date's parts are no frame two notes share
    (
        "Work: the search project review is on 02月14日",
        "Reminder: renew the car insurance before 01月21日",
    ),
]


@pytest.mark.parametrize(("old", "new"), CHANGES)
def test_a_change_to_the_same_persons_fact_is_suspect(old: str, new: str) -> None:
    assert suspect(old, new).contradicts


@pytest.mark.parametrize(("old", "new"), APART)
def test_another_person_or_another_thing_is_not_suspect(old: str, new: str) -> None:
    assert not suspect(old, new).contradicts


@pytest.mark.parametrize(
    "text",
    [
        "I have a flat white every morning",
        "We went to the school concert on Thursday",
        "Our flat tire cost us an hour",
    ],
)
def test_a_word_that_qualifies_another_thing_sets_no_attribute(text: str) -> None:
    assert not read(text).single_slots


@pytest.mark.parametrize(
    ("text", "slot"),
    [("We rent a flat in Leith", "residence"), ("Emma changed school in March", "school")],
)
def test_the_same_word_as_the_thing_itself_still_sets_it(text: str, slot: str) -> None:
    assert slot in read(text).single_slots

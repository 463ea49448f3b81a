"""The review queue, round 11 (issue 13, queue11): pure rules of localmind.suspicion and the
reader they use, no store (the lead's reader round 11 is in test_suspicion_round11.py). See
docs/design.md, "The review queue, round 11 (… queue11)"."""

from __future__ import annotations

import pytest

from localmind.statement import read
from localmind.suspicion import suspect

# Pairs queued before at low similarity (review10 F7, F21), or read as being about a named
# person where only a relationship ended: none changes the older memory.
NO_CHANGE = [
    # a detail of the home is no new residence (F7, cosine 0.13)
    (
        "The user moved to Berlin last month and now lives in Kreuzberg.",
        "The door code of the user's new flat is 7391#",
    ),
    ("I live in a flat in Kreuzberg.", "My flat's wifi password is on the fridge."),
    ("We live in Leipzig.", "Our rent on the new apartment is 900 euros."),
    # one more activity started, no change to another (F21, cosine 0.32)
    ("I'm learning Mandarin with a tutor every Monday evening.", "I started learning the cello."),
    ("我每周一晚上跟老师学中文。", "我开始学大提琴了。"),
    # a bare pronoun is the pet only for a pet, and says nothing it changes here
    ("We're fostering a puppy from the shelter.", "She loves the beach."),
    ("I work with Tom in Berlin.", "He moved to Munich."),
    # a breakup ends the relationship, not what is true of the person
    ("Jonas is a teacher.", "Jonas and I split up."),
    ("Jonas's mother lives in Hamburg.", "Jonas and I split up."),
    # 搬 that carries (patients), not a move
    ("我们家住在武侯区。", "我腰不好，ICU翻身搬病人搬多了。"),
    # a change to an attribute the older text does not tell: his car, not his restaurant
    ("我弟弟王磊在春熙路开了一家火锅店。", "王磊上个月换了一辆黑色的比亚迪汉，说是给店里进货用。"),
    # the change the older told, its value named again with other details
    (
        "Dave moved to the platform org, so my new manager is Rachel Ng.",
        "Rachel, my new manager, runs ultramarathons — she did a 50K in the Cascades last month.",
    ),
    (
        "我现在的经理换成了Rachel Ng，Dave调去平台部门了。",
        "Rachel, my new manager, runs ultramarathons — she did a 50K in the Cascades last month.",
    ),
    # a drive somewhere is the way there, not the car one has
    ("我开的是一辆2019年的比亚迪秦，白色的。", "现在开车去养老院，十五分钟就到，不用再挤公交了。"),
]


@pytest.mark.parametrize(("old", "new"), NO_CHANGE)
def test_what_changes_nothing_in_the_older_memory_is_not_suspect(old: str, new: str) -> None:
    assert not suspect(old, new).contradicts


CHANGES = [
    # dating someone sets the partner, whoever the older text named (session 9's leftovers)
    ("My boyfriend is Jonas.", "I'm dating Alex."),
    ("My partner is Jonas.", "I'm dating Alex."),
    ("I'm married to Tom.", "I'm dating Alex."),
    ("I'm single.", "I'm dating Alex."),
    # an assistant's note in the third person: the user's boyfriend is the user's partner
    ("The user's boyfriend is Jonas.", "The user is dating Alex."),
    ("The user's manager is Tom.", "The user's manager is now Priya."),
    # the breakup still ends the relationship
    ("I'm dating Jonas.", "Jonas and I split up."),
    # a start that names what it replaces, or the activity itself
    ("I'm learning Japanese.", "I gave up Japanese and started learning Korean."),
    ("I don't eat meat.", "I started eating meat again."),
    # a new home is a new residence
    ("I live in Berlin.", "We moved into a new flat in Hamburg."),
    ("I live in Berlin.", "My new flat is in Hamburg."),
    # ... and a move told with 搬 still is one
    ("我住在武侯区。", "我们搬去高新区了。"),
    ("我们家住在武侯区。", "我们搬去高新区了。"),  # jieba cuts 家住
    ("我住在武侯区。", "我们上个月搬了新家，在高新区。"),
    # an attribute the older names in passing (肉 of 红烧肉) is what the change is to
    ("我很爱吃红烧肉。", "我现在不吃肉了，开始吃素。"),
    ("我开的是一辆2019年的比亚迪秦，白色的。", "我换了一辆丰田卡罗拉。"),
    ("I drive a blue 2018 Honda Civic.", "I drive a 2024 Tesla now."),
    # the older value named again as the one that left
    ("我的经理是Dave。", "Dave left, my manager is now Rachel."),
    ("My manager is Dave.", "Dave调走了，我现在的经理是Rachel。"),
    # a bare pronoun after a pet: the pet, in either language (session 9's leftovers)
    ("我们在临时寄养一只黑色小狗，是从动物收容所接来的。", "She's not a foster anymore."),
    ("We're fostering a puppy from the shelter.", "She's not a foster anymore, we adopted her."),
    # the same attribute, the same change word, another value
    ("My new manager is Rachel Ng.", "My new manager is Priya Shah."),
]


@pytest.mark.parametrize(("old", "new"), CHANGES)
def test_a_change_is_suspect(old: str, new: str) -> None:
    assert suspect(old, new).contradicts


def test_a_pronoun_with_its_verb_glued_on_is_no_name() -> None:
    # "I'm married to Tom" was about someone called "i", so never the user's partner
    for text in ("I'm married to Tom.", "We've moved to Ballard.", "She's engaged to Tom."):
        assert not read(text).words[0].person, text


def test_the_third_person_user_owns_the_attribute_it_names() -> None:
    assert suspect("The user's manager is Tom.", "The user's manager is now Priya.").why == (
        "both set the manager, with another value"
    )
    assert not suspect("The user's manager is Tom.", "The user's sister is Priya.").contradicts


def test_a_move_told_in_both_languages_names_no_new_place() -> None:
    # 国会山 is Capitol Hill: the English telling of the move gives no name the Chinese lacks
    older = "我们搬到Ballard的新房子了，不再住国会山的公寓。"
    newer = "We've moved out of the Capitol Hill apartment and now live in our house in Ballard."
    assert not suspect(older, newer).contradicts


def test_a_drive_somewhere_tells_the_commute() -> None:
    assert "commute" in read("From Markham I drive to Scarborough General, 25 minutes.").slots
    assert "vehicle" not in read("我妈住在成都，离我们开车二十分钟。").slots
    assert "vehicle" in read("I drive a 2012 Toyota Corolla.").slots


def test_the_reason_names_the_change_word_before_what_both_say() -> None:
    # the car was sold (review10 F14); the move is the when
    why = suspect(
        "I drive a 2012 Toyota Corolla.",
        "Sold the Corolla when I moved to Hamburg; I take the U-Bahn now.",
    ).why
    assert why.startswith("“Sold”"), why

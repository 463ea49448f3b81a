"""The review queue, round 15 (queue15): readings behind changes told in other words than the
dev sets' (no change word, no subject, a glued Chinese verb) and their compatible twins, in
both languages where the language has the case (docs/design.md, "The review queue, round
15"; the pairs are in tests/data/queue_pairs.jsonl, marked "queue15")."""

from __future__ import annotations

import pytest

from localmind.statement import read
from localmind.suspicion import suspect


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I take 50 mg of sertraline.", "Sertraline went up to 100 mg."),
        ("My yoga class is on Tuesdays.", "Yoga moved to Wednesdays."),
    ],
)
def test_a_thing_capitalised_as_the_first_word_is_no_one(old: str, new: str) -> None:
    # the reader took "Sertraline" and "Yoga" before a verb for people: "about someone else"
    assert suspect(old, new).contradicts
    # a relative capitalised first is still the relative
    assert suspect("My dad lives in Taipei", "Dad moved to Vancouver last spring").contradicts
    assert not suspect("I live in Taipei", "Dad moved to Vancouver last spring").contradicts


def test_a_role_acting_on_the_users_attribute_tells_the_users_change() -> None:
    assert suspect(
        "Our rent is 1,800 dollars a month.", "Landlord bumped the rent up to 1,950."
    ).contradicts
    assert suspect("我每天吃一片降压药。", "医生让我降压药减成半片。").contradicts
    # someone else's rent stays theirs
    assert not suspect(
        "Our rent is 1,800 dollars a month.", "My friend's rent is 2,400 a month."
    ).contradicts


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I take 20 mg of citalopram every morning.", "Doctor lowered my citalopram to 10 mg."),
        ("I take 50 mg of sertraline.", "Sertraline went up to 100 mg."),
    ],
)
def test_an_amount_of_one_thing_told_changed_is_suspect(old: str, new: str) -> None:
    assert suspect(old, new).contradicts
    assert suspect("我每晚吃10毫克褪黑素。", "褪黑素改成5毫克了。").contradicts  # as before


def test_up_or_down_to_a_number_tells_a_new_amount() -> None:
    assert read("Sertraline went up to 100 mg.").cues
    assert read("Down to 63 kg!").cues
    assert not read("The van seats up to 8 people.").cues
    assert "lower" in read("Doctor lowered my citalopram to 10 mg.").cues
    assert not read("Got the cavity filled, lower left molar.").cues  # an adjective
    # an amount changed is no change of a text that gives none (personal5's afternoon tea)
    assert not suspect(
        "I've come around on green tea. Genmaicha at work every afternoon now.",
        "Down to 63 kg! The yoga and cutting the afternoon lattes actually worked.",
    ).contradicts
    # someone else's amount, or a refill, is no change
    assert not suspect(
        "I take 20 mg of citalopram every morning.", "My mom takes 10 mg of citalopram."
    ).contradicts
    assert not suspect(
        "I take metformin 500 mg twice a day.", "Picked up a refill of metformin at the pharmacy."
    ).contradicts
    assert not suspect("我每天吃两片二甲双胍。", "今天去药店买了二甲双胍。").contradicts


def test_a_change_verb_jieba_glued_to_the_word_before_is_read() -> None:
    assert [w.norm for w in read("瑜伽课改到周三了。").words][:3] == ["瑜伽", "课", "改到"]
    assert "调走" in read("王磊调走了，现在我归陈静管。").cues
    assert suspect("瑜伽课在每周二晚上。", "瑜伽课改到周三了。").contradicts
    assert not suspect("瑜伽课在每周二晚上。", "周三晚上去看了电影。").contradicts


def test_a_noun_that_begins_as_a_change_word_is_no_change() -> None:
    assert "降压药" not in read("我每天吃一片降压药。").cues
    assert "停车场" not in read("停车场在公司楼下。").cues
    assert "涨价" in read("健身房涨价了。").cues  # two characters: still the change


def test_a_moved_thing_is_no_move_of_home() -> None:
    assert not suspect(
        "We live in Kreuzberg.", "We moved the sofa into the living room."
    ).contradicts
    assert "residence" not in read("Swimming moved to Thursday.").slots
    assert "residence" in read("We moved to Lisbon in March.").slots


def test_a_diet_word_before_a_noun_is_no_diet() -> None:
    assert not suspect("I'm vegan.", "Tried a great vegan ramen place downtown.").contradicts
    assert "diet" in read("I'm vegetarian again.").slots
    assert "diet" in read("I've been vegan since 2015.").slots


def test_a_new_boss_told_by_the_user_changes_the_users_boss() -> None:
    assert suspect("My boss is Priya.", "Got a new boss today: Daniel.").contradicts
    assert not suspect("My boss is Priya.", "Priya got a new dog.").contradicts


def test_got_a_thing_that_sets_an_attribute_is_a_new_one() -> None:
    assert suspect("My phone is an iPhone 12.", "Got a Samsung Galaxy S24 last week.").contradicts
    assert not suspect(
        "My phone is an iPhone 12.", "My daughter got a Samsung Galaxy S24."
    ).contradicts


def test_traded_one_for_another_is_a_change() -> None:
    assert suspect("I drive a Honda Civic.", "Traded the Civic for a Subaru Outback.").contradicts
    assert not suspect(
        "I drive a Honda Civic.", "My neighbour bought a Subaru Outback."
    ).contradicts


def test_a_couple_split_up_told_short_sets_the_partner() -> None:
    assert "partner" in read("我们上个月分了。").slots
    assert "partner" in read("我和阿杰已经分了。").slots
    assert "partner" not in read("我们把蛋糕分了一半。").slots

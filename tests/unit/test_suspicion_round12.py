"""The review queue, round 12 (queue12): one place told at two levels (review11 Z16) and two
pursuits of different kinds (review11 Z13). Pure rules of localmind.suspicion and the
CC-CEDICT reading of localmind.places; wordings written for these tests."""

from __future__ import annotations

import pytest

from localmind.kinds import activities_named
from localmind.places import within
from localmind.suspicion import announces_change_to, suspect


@pytest.mark.parametrize(
    ("inner", "outer"),
    [
        ("望京", "北京"),
        ("朝阳区", "北京"),
        ("武侯区", "成都"),
        ("浦东", "上海"),
        ("望京", "beijing"),
    ],
)
def test_cc_cedict_places_a_district_in_its_city(inner: str, outer: str) -> None:
    assert within(inner, outer)
    assert not within(outer, inner)


def test_places_side_by_side_are_not_within_each_other() -> None:
    assert not within("海淀区", "朝阳区")
    assert not within("新加坡", "上海")


ONE_PLACE = [
    ("我住在北京。", "我住在望京。"),
    ("我家在望京，住在望京。", "我住在北京，离公司不远。"),
    ("我住在上海。", "我现在住在浦东。"),
    ("我现在住在北京。", "我搬家了，现在住在朝阳区望京。"),  # a narrower home: 北京 still holds
    ("We live in Shanghai.", "我们住在浦东。"),
]


@pytest.mark.parametrize(("older", "newer"), ONE_PLACE)
def test_one_home_told_at_two_levels_is_not_queued(older: str, newer: str) -> None:
    assert not suspect(older, newer).contradicts
    assert not announces_change_to(older, newer)


MOVES = [
    # a broader place after a move word may be another district
    ("我住在望京。", "我搬家了，现在住在北京。"),
    # another district of the city both name
    ("我住在北京朝阳区。", "我住在北京海淀区。"),
    ("我们家住在成都武侯区。", "我们家现在住在成都青羊区。"),
    # places the dictionary does not nest
    ("我住在望京。", "我住在上海。"),
    ("I live in Berlin.", "I live in Kreuzberg."),
]


@pytest.mark.parametrize(("older", "newer"), MOVES)
def test_a_move_between_places_is_still_queued(older: str, newer: str) -> None:
    assert suspect(older, newer).contradicts


def test_activities_are_named_by_kind() -> None:
    assert activities_named("I go swimming on Wednesdays") == {"sport"}
    assert activities_named("我开始学韩语了") == {"language"}
    assert activities_named("Lily plays the cello and speaks French") == {"instrument", "language"}
    assert activities_named("I run the billing team") == {"sport"}  # a word is only a word
    assert not activities_named("我每天早上喝咖啡")


ANOTHER_PURSUIT = [
    ("我每周三晚上去游泳。", "我改学韩语了。"),
    ("I play tennis every Sunday morning.", "I switched to an evening German class."),
    ("She takes cello lessons on Fridays.", "She started Japanese classes on Fridays now."),
    ("我女儿每周六上午学钢琴。", "我女儿现在周六上午改学英语了。"),
]


@pytest.mark.parametrize(("older", "newer"), ANOTHER_PURSUIT)
def test_a_pursuit_of_another_kind_changes_nothing(older: str, newer: str) -> None:
    assert not announces_change_to(older, newer)
    assert not suspect(older, newer).contradicts


SAME_PURSUIT = [
    ("I play tennis every Sunday morning.", "I gave up tennis and started a German class."),
    ("我每周三晚上去游泳。", "我不游泳了，现在改学韩语。"),
    ("She takes cello lessons on Fridays.", "She switched from cello to piano."),
    ("我每周二晚上打篮球。", "我现在不打篮球了，改成周二晚上去攀岩。"),
]


@pytest.mark.parametrize(("older", "newer"), SAME_PURSUIT)
def test_a_change_of_the_pursuit_itself_still_counts(older: str, newer: str) -> None:
    assert announces_change_to(older, newer)
    assert suspect(older, newer).contradicts


PINYIN = [
    # a Chinese name, then the same person written by its sound in English (and back)
    ("小敏在华西医院当护士。", "Xiaomin quit her job at the hospital and now works at a clinic."),
    ("刘洋在设计院做结构设计。", "Liu Yang quit the design institute; he drives for Uber now."),
    ("Xiaomin is my best friend from the ICU.", "小敏搬到深圳了。"),
]


@pytest.mark.parametrize(("older", "newer"), PINYIN)
def test_a_chinese_name_written_in_pinyin_is_the_same_person(older: str, newer: str) -> None:
    assert "someone else" not in suspect(older, newer).why


def test_a_change_of_a_person_named_in_pinyin_is_queued() -> None:
    # before, "about someone else (子轩 / zixuan)"
    older, newer = "子轩每周六上午去游泳。", "Zixuan quit swimming; he plays hockey now."
    assert suspect(older, newer).contradicts


def test_a_name_pinyin_does_not_spell_is_someone_else() -> None:
    assert "someone else" in suspect("子轩每周六上午去游泳。", "Lucas quit swimming.").why
    assert "someone else" in suspect("我每周六上午去游泳。", "Xiaomin quit swimming.").why

"""The review queue, round 14 (queue14): readings behind personal5's false pendings and
review13 J9's unqueued changes, each in both languages where the language has the case
(docs/design.md, "The review queue, round 14")."""

from __future__ import annotations

import pytest

from localmind.sameness import latin_names_differ, numbers_differ
from localmind.statement import read
from localmind.suspicion import suspect


def test_half_past_is_a_clock_time_as_english_writes_it() -> None:
    assert read("以宁的游泳课每周四下午四点半。").numbers == {"4:30"}
    assert read("下午5点半接孩子").numbers == {"5:30"}
    assert read("我十一点睡觉").numbers == {"11"}  # the hour alone stays the hour


def test_times_a_week_is_no_weekday() -> None:
    assert read("在Modo瑜伽馆练瑜伽，一周三次。").dates == frozenset()
    assert read("每周两次游泳").dates == frozenset()
    assert read("每周三下午学钢琴").dates == {"wed"}
    assert read("周三晚上上课").dates == {"wed"}


def test_a_duration_before_now_is_no_change() -> None:
    assert "now" not in read("Still off coffee, over a month now.").cues
    assert "现在" not in read("箱子到现在还没拆完。").cues
    assert "now" in read("I drink tea now.").cues
    assert "现在" in read("我现在喝茶。").cues


def test_from_then_on_glued_to_the_change_is_a_change() -> None:
    assert suspect(
        "我的Wohnung的Kaltmiete是950欧。", "我的Kaltmiete从明年1月起涨到980欧。"
    ).contradicts


def test_a_phone_make_is_the_phone_not_its_number() -> None:
    assert "phone" in read("I switched to a Pixel 9.").slots
    assert "phone" not in read("Every pixel of the photo is sharp.").slots
    phone = read("My phone is an iPhone 13 mini.")
    assert "phone" in phone.slots and "phone number" not in phone.slots
    assert suspect("My phone is an iPhone 13 mini.", "I switched to a Pixel 9.").contradicts


def test_a_phone_plan_is_no_phone_and_no_phone_number() -> None:
    assert not suspect(
        "My phone is an iPhone 13 mini.", "I switched my phone plan to Telekom."
    ).contradicts
    assert not suspect(
        "我的手机是iPhone 13 mini。", "I switched my phone plan to Telekom."
    ).contradicts


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("Our address is 7421 Walker Ave, Burnaby.", "My new cell number is 778-555-0199."),
        ("My personal email is lin@shaw.ca.", "Our new address is 12 Oak Street."),
        ("My email address is lin@shaw.ca.", "Our new address is 12 Oak Street."),
    ],
)
def test_a_phone_number_an_email_and_an_address_are_three_attributes(
    older: str, newer: str
) -> None:
    assert not suspect(older, newer).contradicts


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("My cell number is 604-555-0142.", "My cell number is now 778-555-0199."),
        ("我的手机号是138 0000 1111。", "我的手机号换成了139 2222 3333。"),
        ("My personal email is lin@shaw.ca.", "My email is now wendy@gmail.com."),
    ],
)
def test_each_of_them_changed_is_still_a_change(older: str, newer: str) -> None:
    assert suspect(older, newer).contradicts


def test_a_change_of_drink_changes_the_habit_not_a_taste() -> None:
    assert suspect(
        "I drink two americanos every morning.", "I switched to matcha latte in the morning."
    ).contradicts
    assert suspect("我每天早上喝两杯美式。", "我早上改喝抹茶拿铁了。").contradicts
    # "I don't like green tea" is a taste: quitting coffee for pu'er changes nothing of it
    assert not suspect("我不喜欢喝绿茶，觉得太涩了。", "我戒咖啡了，现在改喝普洱。").contradicts


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        (
            "My German class is on Tuesday and Thursday evenings.",
            "My German teacher is now Herr Becker.",
        ),
        ("我的德语课改到了周一和周三晚上。", "我的德语老师换了，新老师叫Herr Becker。"),
        ("My Spanish class is on Mondays.", "My Spanish tutor is now Lucia."),
    ],
)
def test_the_teacher_of_a_class_is_another_attribute_than_its_days(older: str, newer: str) -> None:
    assert not suspect(older, newer).contradicts


def test_the_same_attribute_of_a_class_still_changes() -> None:
    assert suspect(
        "My German teacher is Frau Schmidt.", "My German teacher is now Herr Becker."
    ).contradicts
    # "My swimming class moved" names no noun after "swimming": it may be the class
    assert suspect(
        "My swimming class is at Watermania on Tuesdays at 5.",
        "My swimming class moved to Eileen Dailly pool, Thursdays at 4:30 now.",
    ).contradicts


def test_the_old_value_a_retelling_names_is_no_value_of_its_own() -> None:
    waiting = "妈妈的膝关节手术推迟了，医院改成5月12日。"
    retold = "Mom's knee surgery got pushed from March 10 to May 12."
    booking = "Mom's knee replacement is booked for March 10 at Burnaby Hospital."
    assert numbers_differ(waiting, retold)
    assert not numbers_differ(waiting, retold, booking)
    # review13 J0 stays apart: Tuesday at 11 is a value neither the older text nor the
    # waiting change gives
    assert numbers_differ(
        "Sarah和我的1:1改到每周一上午10点",
        "I moved my 1:1 with Sarah to Tuesdays at 11",
        "第一次和Sarah 1:1，她想让我负责整个checkout flow",
    )


def test_names_in_latin_letters_each_text_gives_are_two_values() -> None:
    assert latin_names_differ("I switched to Vim.", "我写代码换到Neovim了。")
    assert not latin_names_differ(
        "Went back to iPhone - got the iPhone 16 Pro. The Pixel's screen cracked.",
        "我手机现在换成iPhone 16 Pro了，Pixel屏幕摔碎了。",
    )

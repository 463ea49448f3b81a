"""The review queue, round 11 (issue 13): what a Chinese-only user's store showed the reader
getting wrong (review11 Z2, Z7, Z8, Z10). Pure rules of localmind.statement and
localmind.suspicion, no store. See docs/design.md, "The reader, round 11"."""

from __future__ import annotations

import pytest

from localmind.statement import read
from localmind.suspicion import suspect

# Someone else's move is no change to where the user lives: 闺蜜 is a friend (jieba glued it to
# the name's first character), "best" is read as "good" and still makes "my best friend" her.
OTHER_PEOPLES_MOVES = [
    ("我现在住在北京。", "我的闺蜜林小雨搬去深圳了。"),
    ("I live in Berlin.", "My best friend moved to Hamburg."),
]


@pytest.mark.parametrize(("old", "new"), OTHER_PEOPLES_MOVES)
def test_a_friends_move_does_not_question_where_the_user_lives(old: str, new: str) -> None:
    assert not suspect(old, new).contradicts


def test_a_job_title_with_manager_in_it_is_the_users_job_not_their_manager() -> None:
    change = suspect("我在拼多多做产品经理。", "我从拼多多跳槽到了字节跳动，还是做产品经理。")
    assert change.contradicts and "job" in change.why
    english = suspect("I'm a product manager at Zalando.", "I'm now a product manager at Otto.")
    assert "job" in english.why
    # and a new job is no change of the person the user reports to
    new_job = "我从字节跳动跳槽到了美团，还是做产品经理。"
    assert not suspect("我的直属领导是张伟。", new_job).contradicts
    assert not suspect("My manager is Priya.", "I'm a product manager at Meituan.").contradicts


def test_the_users_own_manager_is_still_their_manager() -> None:
    assert read("I got a new manager.").single_slots == {"manager"}
    assert read("My unit manager is Kelly.").single_slots >= {"manager"}
    assert suspect("我的领导是张伟。", "我现在的领导是刘洋。").contradicts


def test_a_work_email_is_no_job() -> None:
    assert not suspect("我在美团工作。", "我的工作邮箱是 lina@meituan.com。").contradicts


def test_getting_engaged_to_someone_named_in_chinese_changes_the_partner() -> None:
    # 陈阳 and 王磊 are in no dictionary: a common family name makes them names
    change = suspect("我的男朋友叫王磊。", "我和陈阳订婚了。")
    assert change.contradicts and "partner" in change.why


def test_a_pet_called_by_its_name_is_a_pet() -> None:
    # jieba reads 狗叫 as "a dog barks"
    assert "~pet" in read("我的狗叫豆豆。").slots
    assert read("我女朋友叫小美。").names == (frozenset({"小美"}),)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The user visited Lisbon in May 2025.", "The user visited Kyoto in October 2025."),
        ("The user visited Kyoto in October 2025.", "The user visited Oslo in March 2026."),
    ],
)
def test_trips_told_each_with_its_own_date_are_two_trips(old: str, new: str) -> None:
    """review11 V1: queued as "another value", and take-new turned Lisbon into Kyoto."""
    assert not suspect(old, new).contradicts


def test_a_value_changed_is_still_a_change_whatever_the_dates() -> None:
    assert suspect("My rent was 1200 euros in 2024.", "My rent is 1450 euros in 2025.").contradicts
    assert suspect("I get up at 6:30.", "I get up at 7:30.").contradicts


def test_a_word_glued_after_a_name_is_not_part_of_it() -> None:
    # jieba's guesser cuts 徐浩在 as one word: the name is 徐浩, not "徐浩在"
    assert "徐浩在" not in {n for group in read("徐浩在阿里加班太晚。").names for n in group}
    assert read("我和陈阳订婚了。").names == (frozenset({"陈阳"}),)

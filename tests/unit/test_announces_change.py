"""What ``remember`` may note as a later version on a change word alone (review9 M2; see
docs/design.md, "Wrong answers, round 10"): a change of the attribute the older text sets,
never a fact about another one. Pure rules of localmind.suspicion, no store."""

from __future__ import annotations

import pytest

from localmind.suspicion import announces_change_to

CHANGES = [
    # the same attribute, told in the other language
    ("我女儿在读幼儿园", "My daughter started school in September"),
    ("我住在汉堡", "We now live in Berlin"),
    ("I live in Hamburg", "我们现在住在柏林"),
    ("我们住在成都", "今天终于搬进了万锦的新家"),
    # neither names an attribute the reader knows: the change word is all there is to go by
    ("Rex's vet is Dr. Lee", "We switched Rex to Dr. Park"),
    ("我每天早上喝咖啡", "我现在改喝茶了"),
    ("I prefer coffee", "我戒咖啡了"),
]

OTHER_ATTRIBUTES = [
    # the review's case: a name and an age, then a first school day
    ("用户的女儿叫米娅，今年六岁", "The user's daughter Mia started school in September"),
    ("My daughter Mia is six years old", "Mia started school in September"),
    ("I drive a white Honda", "I now work at Google"),
    ("我的车是一辆白色的丰田", "I started a new job at a bakery"),
    # the same attribute of someone else: the parents', a friend's home is not the user's
    ("我现在住在北京。", "我爸妈决定不搬来北京了。"),
    ("我搬家了，现在住在朝阳区望京。", "我的闺蜜林小雨搬去深圳了。"),
    ("I live in Hamburg", "My sister moved to Berlin"),
]

#: the same attribute, the subjects read apart but the user's own change all the same
OWN_CHANGES = [
    ("我们一家住在西雅图国会山的一套两居室公寓里。", "We've moved out and now live in Ballard."),
    (
        "My unit manager on 4 West is Kelly Brown.",
        "Kelly Brown moved to the ICU; our new manager is Marcus.",
    ),
]


@pytest.mark.parametrize(("older", "newer"), CHANGES + OWN_CHANGES)
def test_a_change_word_about_the_same_attribute_announces_a_change(older: str, newer: str) -> None:
    assert announces_change_to(older, newer)


@pytest.mark.parametrize(("older", "newer"), OTHER_ATTRIBUTES)
def test_a_change_word_about_another_attribute_announces_none(older: str, newer: str) -> None:
    assert not announces_change_to(older, newer)


def test_without_a_change_word_nothing_is_announced() -> None:
    assert not announces_change_to("I live in Hamburg", "我住在汉堡")
    assert not announces_change_to("我女儿在读幼儿园", "My daughter likes her kindergarten")

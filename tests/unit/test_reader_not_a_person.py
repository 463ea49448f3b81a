"""Who a text is about, read without a model (session 12, rec12m): a verb and its complement
that jieba's dictionary lists among people's names (考完试 "after the exam", 吃完饭) is no
person, while a family name before a title still is one (戴大夫, Doctor Dai)."""

from __future__ import annotations

import pytest

from localmind.statement import read
from localmind.suspicion import suspect


@pytest.mark.parametrize(
    "text",
    [
        "考完试以后咖啡还是戒不掉，double-double已经成了习惯。",
        "考完试我们去吃火锅。",
    ],
)
def test_a_verb_phrase_is_no_person(text: str) -> None:
    assert not any(word.person for word in read(text).words)


def test_a_family_name_before_a_title_is_still_a_person() -> None:
    assert any(word.person for word in read("戴大夫说我的血压正常。").words)


def test_a_change_after_the_exam_is_the_users_own() -> None:
    """The coffee habit kept after the exams, then changed: one person, one habit."""
    older = "考完试以后咖啡还是戒不掉，double-double已经成了习惯。"
    newer = "糖吃太多了，现在改成喝黑咖啡，不加糖不加奶。"
    found = suspect(older, newer)
    assert found.contradicts, found.why

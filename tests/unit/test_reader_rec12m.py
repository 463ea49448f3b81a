"""What a Chinese text says, read without a model (session 12, rec12m): a verb and its
complement that jieba's dictionary lists among people's names (考完试 "after the exam") is no
person, while a family name before a title still is one (戴大夫, Doctor Dai); 年薪 and 工资
are both a salary."""

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


def test_a_new_salary_told_in_other_words_replaces_the_old_one() -> None:
    """年薪 ("yearly pay") and 工资 ("pay") are both a salary: the hospital's replaces the new
    job's, as "Hospital salary is $121k" replaces "New job pays $128k" in English."""
    found = suspect("新工作年薪12.8万，比在Shoppers多了一万六。", "医院的工资是12.1万，有退休金。")
    assert found.contradicts, found.why


def test_someone_elses_salary_replaces_nobodys() -> None:
    found = suspect("新工作年薪12.8万。", "我妹妹升了护士长以后年薪大概11万，比我现在少一点。")
    assert not found.contradicts, found.why

"""The review queue's filter, round 6 (issue 13, queue13c): names CC-CEDICT knows as things,
names and numbers shared across languages, "finally", where a change word sits, and the
reading fixes these need. Each rule with pairs that must be queued and pairs that must not."""

from __future__ import annotations

import pytest

from localmind.statement import read
from localmind.suspicion import suspect


def test_a_brand_jieba_takes_for_a_persons_name_is_a_thing() -> None:
    # jieba's dictionary tags 比亚迪 (BYD) and 雅思 (IELTS) as people's names; CC-CEDICT calls
    # them a company and an acronym. 汤姆 stays a person.
    assert not read("比亚迪卖了，卖了五万。").words[0].person
    assert not read("雅思考了7分。").words[0].person
    assert read("汤姆今天加班。").words[0].person


def test_selling_the_car_a_brand_names_is_a_change_to_it() -> None:
    assert suspect("我开的是一辆2019年的比亚迪，蓝色的。", "比亚迪卖了，卖了五万。").contradicts
    # … but a brand told about, with no change, is not one.
    assert not suspect("我开的是一辆2019年的比亚迪，蓝色的。", "比亚迪的车保养很便宜。").contradicts


CHANGES_TO_A_NAME_THE_DICTIONARY_TRANSLATES = [
    ("我用的是华为手机，用了三年了。", "Switched to a Pixel; the Huawei kept freezing."),
    ("My IELTS score was 6.5 overall and 6.0 in writing.", "雅思重考了：总分7分，写作6.5分。"),
]


@pytest.mark.parametrize(("old", "new"), CHANGES_TO_A_NAME_THE_DICTIONARY_TRANSLATES)
def test_a_change_to_a_name_cc_cedict_translates_is_suspect_across_languages(
    old: str, new: str
) -> None:
    assert suspect(old, new).contradicts


NOTHING_CHANGED_ACROSS_LANGUAGES = [
    # the same brand, no change told
    ("我用的是华为手机，用了三年了。", "My Huawei phone takes great photos at night."),
    # numbers differ, but the place both name is not what either opens with: a trip, a date
    (
        "Flying to Hangzhou on January 25 with 3 suitcases.",
        "今年圣诞节我们三个人去杭州，12月20号出发。",
    ),
]


@pytest.mark.parametrize(("old", "new"), NOTHING_CHANGED_ACROSS_LANGUAGES)
def test_a_shared_name_without_a_change_or_its_own_numbers_is_not_suspect(
    old: str, new: str
) -> None:
    assert not suspect(old, new).contradicts


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("我还在等驾照考试的结果，心里没底。", "驾照终于拿到了，下周就能自己开车上班。"),
        ("My knee still hurts when I run.", "My knee finally stopped hurting when I run."),
    ],
)
def test_finally_announces_a_change_to_what_both_say(old: str, new: str) -> None:
    assert suspect(old, new).contradicts


def test_finally_about_something_else_is_not_suspect() -> None:
    old = "I'm reading a novel set in Lisbon."
    assert not suspect(old, "Finally fixed the kitchen tap.").contradicts


SHARED_NAME_OUTSIDE_THE_CHANGE = [
    # "quit" is about the lessons; Hangzhou is only where
    (
        "I grew up in Hangzhou and moved to Boston for grad school in 2013.",
        "I took piano lessons in Hangzhou as a kid until I was twelve, then quit for chess.",
    ),
    # the layoffs are Northwind's; the new start, in another sentence, is the user's search
    ("我在Northwind当工程师，办公室在市中心。", "Northwind今年裁员了。我也开始看新机会了。"),
]


@pytest.mark.parametrize(("old", "new"), SHARED_NAME_OUTSIDE_THE_CHANGE)
def test_a_name_both_share_outside_the_changes_clause_is_not_what_changed(
    old: str, new: str
) -> None:
    assert not suspect(old, new).contradicts


SHARED_NAME_IN_THE_CHANGE = [
    # the thing the text opens with is what a change later in it is about
    ("My phone is an iPhone 12.", "The iPhone 12 died, so I switched to a Pixel."),
    ("I joined Crunch Fitness; it's $35 a month.", "Cancelled Crunch last week."),
    ("I'm a Chelsea fan.", "I support Arsenal now, not Chelsea."),
    ("我在Northwind当工程师，办公室在市中心。", "拿到了新公司的offer，下周跟Northwind提离职。"),
]


@pytest.mark.parametrize(("old", "new"), SHARED_NAME_IN_THE_CHANGE)
def test_a_name_in_the_changes_clause_or_negated_is_what_changed(old: str, new: str) -> None:
    assert suspect(old, new).contradicts


def test_one_character_verbs_both_say_are_not_a_shared_thing() -> None:
    # 下 (to fall: snow) is all the two share besides the snow itself
    old = "今天下了第一场雪，我在楼下堆了个雪人。"
    assert not suspect(old, "暴风雪下了四十厘米，学校停课了。").contradicts


def test_now_with_a_shared_noun_that_one_text_negates_is_a_change() -> None:
    old = "我不吃香菜，那个味道实在受不了。"
    assert suspect(old, "说来奇怪，我现在能接受香菜了，放一点还挺香。").contradicts
    assert not suspect(old, "说来奇怪，我现在爱上了越南河粉。").contradicts


def test_british_doubled_l_and_a_name_before_an_irregular_past_read_right() -> None:
    assert "cancel" in read("I cancelled Crunch.").cues
    assert "label" in read("I labelled the boxes.").terms
    assert "install" in read("I installed the app.").terms
    assert read("Tom left Roosevelt High.").words[0].person
    assert not read("Yesterday left me tired.").words[0].person


def test_backing_someone_is_no_way_back() -> None:
    old = "I passed the exam: a Registered Nurse in Ontario now."
    assert not suspect(old, "My unit manager is Kelly; she always backs her nurses.").contradicts
    assert "back" in read("We moved back to Lyon.").cues


def test_a_first_time_kept_is_no_number_kept() -> None:
    # 第一次 / "first" read as 1 on both sides: the tax refund does not replace the pay.
    old = "First paycheque in Canada: $1,460 for two weeks."
    assert not suspect(old, "第一次报税，退了一千二百多。").contradicts
    # a real number kept, another replaced, still is a change
    assert suspect(
        "My IELTS score was 6.5 overall and 6.0 in writing.", "雅思重考了：总分7分，写作6.5分。"
    ).contradicts


def test_a_job_word_in_the_plural_is_other_peoples_job() -> None:
    old = "I'm a registered nurse in Ontario now."
    assert not suspect(old, "My unit manager is Kelly; she always backs her nurses.").contradicts
    assert suspect("I'm a nurse at the General.", "I'm a teacher now.").contradicts


def test_a_change_glued_to_a_thing_the_older_text_never_mentions_is_not_its_change() -> None:
    # 换尿布 "change diapers" changes the diapers, not the back both speak of
    old = "我的腰是老毛病了，以前在ICU给病人翻身搬出来的。"
    assert not suspect(old, "当护工第二周，一晚上要给十二个老人翻身换尿布，腰又疼了。").contradicts
    # … but 停课 of the lessons the older text is about is a change to them
    assert suspect("我每周二和周四在学校上钢琴课。", "钢琴课停课一周，老师生病了。").contradicts


def test_a_teacher_after_a_possessive_is_someone_not_a_job() -> None:
    old = "Lily goes to Lowell Elementary; her teacher is Ms. Ramirez."
    new = "For Father's Day Lily drew Tom as a physics teacher."
    assert not suspect(old, new).contradicts
    assert "job" not in read("My teacher says I should practice more.").single_slots
    assert "job" in read("I'm a teacher at Lincoln High.").single_slots


def test_a_time_phrase_before_the_subject_is_no_subject() -> None:
    # "Starting" / "Since" open a time phrase; the text is still about the user's manager.
    assert suspect("My manager is Thomas", "Starting Monday my manager is Priya").contradicts
    assert suspect("I live in Berlin", "From next week on I live in Lisbon").contradicts
    # … and a time phrase does not make another person's fact the user's.
    sisters = "Since June my sister's manager is Priya"
    assert not suspect("My manager is Thomas", sisters).contradicts

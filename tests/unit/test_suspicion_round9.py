"""The review queue, round 9 (issue 13, queue9): pure rules of localmind.suspicion, no store.
See docs/design.md, "The review queue, round 9"."""

from __future__ import annotations

import pytest

from localmind.sameness import compare
from localmind.suspicion import suspect

ENTRIES_OF_ONE_SERIES = [
    (
        "Diary 17: went for a walk and thought about topic 4",
        "Diary 18: went for a walk and thought about topic 5",
    ),
    ("note 3: about cooking, number 417", "note 4: about cooking, number 22"),
    ("writer-a note 12: about tea, code 123456", "writer-a note 13: about tea, code 654321"),
    ("shared fact number 0", "shared fact number 1"),
    ("Entry 7: I practised piano for 25 minutes.", "Entry 8: I practised piano for 40 minutes."),
    ("Day 3 of the trip: we hiked 12 km.", "Day 4 of the trip: we hiked 15 km."),
    ("日记17：今天去跑步了，想了想话题4。", "日记18：今天去跑步了，想了想话题5。"),
    # the marks the reader drops: a dash, brackets, a list's full stop; "about" after the label
    ("Note 17 — topic 4", "Note 18 — topic 5"),
    ("[17] about cooking, score 4", "[18] about cooking, score 9"),
    ("17. Walked 5 km", "18. Walked 7 km"),
    ("Test memory 17 about topic 4", "Test memory 18 about topic 5"),
    # an entry's state or liking, not a habit
    ("Entry 5: I feel fine, mood 7", "Entry 6: I feel fine, mood 3"),
    ("Memory 17: I like topic 4", "Memory 18: I like topic 5"),
]


@pytest.mark.parametrize(("old", "new"), ENTRIES_OF_ONE_SERIES)
def test_entries_of_one_numbered_series_are_other_items_not_changes(old: str, new: str) -> None:
    assert not suspect(old, new).contradicts


CHANGES_TOLD_IN_ENTRIES = [
    ("note 3: my rent is 1400 euros", "note 8: my rent is 1550 euros"),
    ("note 3: my manager is Tom", "note 8: my manager is Priya"),
    ("Diary 3: I live in Berlin", "Diary 9: we moved to Lisbon"),
    ("Diary 3: I get up at 6:30 on weekdays.", "Diary 9: I get up at 7:30 on weekdays."),
    ("Diary 3: I eat meat.", "Diary 9: I don't eat meat anymore."),
    ("日记3：我每天六点半起床。", "日记9：我每天七点半起床。"),
    ("日记3：我住在杭州。", "日记9：我搬到上海了。"),
    ("1. I get up at 6:30 every day", "2. I get up at 7:30 every day"),
    ("2024: I live in Berlin.", "2025: I live in Lisbon."),
]


@pytest.mark.parametrize(("old", "new"), CHANGES_TOLD_IN_ENTRIES)
def test_a_change_of_the_users_told_in_other_entries_is_still_suspect(old: str, new: str) -> None:
    assert suspect(old, new).contradicts


def test_the_same_entry_told_with_another_value_is_still_suspect() -> None:
    # one label, two values: a correction of that entry, not another entry
    assert suspect(
        "Recipe 12: 3 eggs and 200 g flour.", "Recipe 12: 4 eggs and 200 g flour."
    ).contradicts
    assert suspect("Recipe 12: 3 eggs.", "Recipe 12: 4 eggs.").contradicts


def test_a_number_after_the_user_or_a_verb_is_still_a_value() -> None:
    assert suspect("I take bus 42 to work.", "I take bus 17 to work.").contradicts
    assert suspect("My locker is number 12.", "My locker is number 15.").contradicts
    # a sentence's full stop after a number is no list mark; a clock time is no label
    assert suspect("My son is 7.", "My son is 8.").contradicts
    assert suspect(
        "7:30 is when I get up every day.", "8:15 is when I get up every day."
    ).contradicts


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "I take my coffee with two sugars and milk.",
            "I switched to black coffee: no sugar, no milk.",
        ),
        ("夜班太累，现在每天喝一杯拿铁，加两份糖。", "糖吃太多了，改成喝美式，不加糖了。"),
        ("我晚上喝两杯啤酒。", "为了减肥，我改成晚上不喝啤酒了。"),
    ],
)
def test_a_change_word_with_a_negation_of_what_the_older_says_is_suspect(
    old: str, new: str
) -> None:
    assert suspect(old, new).contradicts


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the negation is about something further on, or something the older text never says
        (
            "I drink coffee with milk every morning.",
            "I switched to a new café; they don't have oat milk.",
        ),
        ("我每天早上喝咖啡。", "我换了新工作，不用早起了。"),
        ("I cook dinner at home most nights.", "We moved to a new flat and it has no dishwasher."),
    ],
)
def test_a_change_word_with_a_negation_of_something_else_is_not(old: str, new: str) -> None:
    assert not suspect(old, new).contradicts


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "医生说我血压偏高，140/90，让我少吃盐。",
            "My blood pressure was 125/82 this week, much better than the 140/90 in spring.",
        ),
        ("我现在体重82公斤。", "I'm down to 76 kg from 82 kg since spring."),
    ],
)
def test_the_older_value_cited_beside_a_new_one_is_a_change_across_languages(
    old: str, new: str
) -> None:
    assert suspect(old, new).contradicts


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a small count, or a number that is no older value cited after "than"
        ("我们家有3口人。", "Our new flat has 3 bedrooms, one more than the 2 we had."),
        ("我女儿今年12岁。", "My daughter's team won 12 to 9, better than last week."),
    ],
)
def test_a_number_shared_by_chance_is_no_cited_older_value(old: str, new: str) -> None:
    assert not suspect(old, new).contradicts


def test_what_someone_tells_of_the_user_is_the_users() -> None:
    # "the doctor said my …": the user's blood pressure, not the doctor's
    assert suspect("医生说我血压偏高，140/90。", "我的血压降到125/82了。").contradicts
    assert suspect(
        "My doctor said my blood pressure is 140/90.", "My blood pressure is down to 125/82."
    ).contradicts
    # … while what the teller does stays theirs
    assert not suspect("My doctor said my blood pressure is fine.", "I run 5 km a day.").contradicts


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I go to bed around 11 pm.", "I go to bed around midnight these days."),
        ("We have lunch at 1 pm on weekdays.", "We have lunch at noon on weekdays."),
        ("我一般晚上十一点睡觉。", "我一般午夜睡觉。"),
    ],
)
def test_a_clock_time_in_words_replaces_a_clock_time(old: str, new: str) -> None:
    assert suspect(old, new).contradicts


def test_the_same_clock_time_in_words_is_no_change() -> None:
    assert not suspect(
        "I go to bed at midnight.", "I go to bed at midnight on weekends too."
    ).contradicts
    assert not suspect("I go to bed at 12 am.", "I go to bed at midnight.").contradicts
    assert not suspect("我一般十二点睡觉。", "我一般午夜睡觉。").contradicts


def test_one_oclock_in_chinese_is_a_time_and_a_little_is_not() -> None:
    # 凌晨一点 is one o'clock (一 is no article there); 早一点 is "a little earlier"
    assert suspect("我一般晚上十二点睡觉。", "我一般凌晨一点睡觉。").contradicts
    assert not suspect("我一般晚上十一点睡觉。", "我最近想睡得早一点。").contradicts
    assert not suspect("我一般凌晨一点睡觉。", "我一般凌晨一点睡觉，周末也一样。").contradicts


def test_a_clock_time_in_words_reads_alike_across_languages() -> None:
    # Chinese tells the part of the day in words (晚上十一点): across languages the am/pm of an
    # English clock time is no other number; within one language it is (11pm / 11am)
    assert "numbers differ" not in compare("我一般午夜睡觉。", "I go to bed at midnight.").why
    assert "numbers differ" not in compare("我一般晚上十一点睡觉。", "I go to bed at 11pm.").why
    assert compare("I go to bed at 11pm.", "I go to bed at 11am.").differs

"""The review queue, round 9 (issue 13, queue9): pure rules of localmind.suspicion, no store.
See docs/design.md, "The review queue, round 9"."""

from __future__ import annotations

import pytest

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

"""The review queue, round 10 (issue 13, queue10): pure rules of localmind.suspicion, no store.
See docs/design.md, "The review queue, round 10"."""

from __future__ import annotations

import pytest

from localmind.suspicion import changes_more_than, suspect

# A heading with an id before the entry's number: a load test's writers, an import's batches.
ENTRIES_WITH_IDS = [
    (
        "cli0 item 5: note about topic 3 and thing 5",
        "cli0 item 6: note about topic 4 and thing 6",
    ),
    (
        "cli0 item 5: note about topic 3 and thing 5",
        "cli0 item 12: note about topic 3 and thing 12",
    ),
    # another writer's entry of the same kind
    (
        "cli0 item 12: note about topic 3 and thing 12",
        "cli1 item 16: note about topic 7 and thing 16",
    ),
    (
        "batch 2 item 5: a note about cooking, number 451",
        "batch 0 item 9: a note about books, number 471",
    ),
    ("writer-1 entry 10: cooked dinner, score 0", "writer-2 entry 14: cooked dinner, score 4"),
    ("run7 task 3 — walked 5 km", "run7 task 4 — walked 7 km"),
    ("批次0条目15：关于话题6的笔记，编号15", "批次2条目23：关于话题5的笔记，编号23"),
]


@pytest.mark.parametrize(("old", "new"), ENTRIES_WITH_IDS)
def test_entries_whose_heading_holds_an_id_are_other_items(old: str, new: str) -> None:
    assert not suspect(old, new).contradicts


CHANGES_IN_ENTRIES_WITH_IDS = [
    # the user's one-value attribute, or habit, whichever entry tells it
    ("cli0 item 5: my rent is 1400 euros", "cli1 item 9: my rent is 1550 euros"),
    ("cli0 item 5: I get up at 6:30 every day", "cli1 item 7: I get up at 7:30 every day"),
    ("批次2条目5：我住在杭州。", "批次2条目9：我搬到上海了。"),
    # one entry told again with another value: a correction of that entry
    ("cli0 item 5: 3 eggs and 200 g flour", "cli0 item 5: 4 eggs and 200 g flour"),
    # numbers after an id with no colon are values, not a heading
    ("Flat 3 rent 1400, paid by transfer", "Flat 3 rent 1550, paid by transfer"),
]


@pytest.mark.parametrize(("old", "new"), CHANGES_IN_ENTRIES_WITH_IDS)
def test_a_change_told_in_entries_with_ids_is_still_suspect(old: str, new: str) -> None:
    assert suspect(old, new).contradicts


# (older memory, a change of it waiting for review, a newer memory)
ANOTHER_CHANGE_OF_THE_OLDER = [
    (
        "上夜班白天睡不着，现在每天吃3毫克褪黑素。",
        "终于从夜班换成了白班，早上7点到晚上7点。",
        "换了白班以后褪黑素停了，晚上倒头就睡。",
    ),
    (
        "I work night shifts and take 3 mg of melatonin every evening to sleep during the day.",
        "I finally switched from night shifts to day shifts, 7 am to 7 pm.",
        "Since switching to day shifts I stopped the melatonin; I sleep fine now.",
    ),
    (
        "我每天早上喝两杯咖啡，周末去健身房。",
        "我现在改成每天早上喝一杯咖啡了。",
        "健身房的年卡退了，周末改成去公园跑步。",
    ),
]


@pytest.mark.parametrize(("older", "waiting", "newer"), ANOTHER_CHANGE_OF_THE_OLDER)
def test_a_change_of_what_the_waiting_change_leaves_alone_is_another_change(
    older: str, waiting: str, newer: str
) -> None:
    assert suspect(older, newer).contradicts
    assert changes_more_than(older, waiting, newer)


THE_WAITING_CHANGE_TOLD_AGAIN = [
    ("I live in Berlin.", "We moved to Lisbon in March.", "We moved to Lisbon this spring."),
    ("我住在柏林。", "我们三月搬到了里斯本。", "我们搬到里斯本了，很喜欢。"),
    # the same one-value attribute set again, whatever words of the first it keeps
    (
        "The user works as a data engineer at Zalando",
        "The user now works at SAP as a tech lead",
        "The user now works at Google as an engineering manager",
    ),
    # across languages words cannot be compared: left as before
    ("I take 3 mg of melatonin every night.", "I switched to day shifts.", "褪黑素停了。"),
]


@pytest.mark.parametrize(("older", "waiting", "newer"), THE_WAITING_CHANGE_TOLD_AGAIN)
def test_the_waiting_change_told_again_changes_nothing_more(
    older: str, waiting: str, newer: str
) -> None:
    assert not changes_more_than(older, waiting, newer)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Tom and I broke up; I'm dating Alex now.", "My boyfriend is Sam now, we met at work."),
        ("我和汤姆分手了，现在在跟阿力谈恋爱。", "我的男朋友现在是小山。"),
        ("我和汤姆分手了，现在的对象是阿力。", "我男朋友现在是小山，我们是在公司认识的。"),
    ],
)
def test_my_boyfriend_named_is_the_partner_the_user_named(old: str, new: str) -> None:
    # "my boyfriend" opens the text, but the partner is the user's attribute: the third of
    # a partner changed twice is paired with the second (queue10 item 2)
    assert suspect(old, new).contradicts


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # someone else's partner, and 跟我吃素 (我 is no possessive there)
        ("Tom and I broke up; I'm dating Alex now.", "My sister's boyfriend is Sam."),
        (
            "端午节（5月31号）我包了二十个肉粽，邻居Sarah尝了说太好吃了。",
            "莉莉不跟我吃素，她最爱吃外婆做的红烧肉。",
        ),
        # no value on one side: the husband's news
        ("I'm married.", "My husband works at SAP."),
    ],
)
def test_a_relative_s_news_is_not_the_users_attribute(old: str, new: str) -> None:
    assert not suspect(old, new).contradicts

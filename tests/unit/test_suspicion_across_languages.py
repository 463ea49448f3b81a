"""A change told in the other language is a change (review10 F26: a bilingual user's new
partner, employer and habit were stored as equals beside the old ones, and the assistant was
never asked). Pure logic: the suspicion rules, no store."""

from __future__ import annotations

import pytest

from localmind.suspicion import suspect


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("用户的男朋友叫Jonas。", "The user's boyfriend is now Sam."),
        ("The user works at Siemens.", "用户现在在博世工作。"),
        ("The user drinks coffee every morning.", "用户戒了咖啡，现在只喝茶。"),
        # what test_recall_judgment once kept as an unqueued update (a limitation, not a wish)
        (
            "我们在临时寄养一只黑色小狗，是从动物收容所接来的。",
            "We officially adopted the puppy! She's no longer a foster dog, she's ours.",
        ),
    ],
    ids=["partner", "employer-translated", "quit-a-habit", "no-longer-a-foster"],
)
def test_a_change_in_the_other_language_is_queued(old: str, new: str) -> None:
    suspicion = suspect(old, new)
    assert suspicion.contradicts, suspicion.why


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("用户的男朋友叫Jonas。", "The user's boyfriend is Jonas."),
        ("The user works at Siemens.", "用户在西门子工作。"),
        ("I drink coffee every morning.", "我每天早上都喝咖啡。"),
        (
            "除夕在家里包了饺子，跟我妈视频拜年。",
            "After a year in Canada the family finally feels settled: house, jobs, a dog.",
        ),
    ],
    ids=["partner-again", "employer-again", "habit-again", "finally-settled"],
)
def test_the_same_fact_in_the_other_language_is_no_change(old: str, new: str) -> None:
    suspicion = suspect(old, new)
    assert not suspicion.contradicts, suspicion.why

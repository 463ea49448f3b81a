"""Reasons a person reads (CLI, TUI, MCP) are plain words (issue 13, fix9 item 2): no grammar
terms ("aspect"), no inner names ("self", "os") and no signs (−, +, ∅) for what changed."""

from __future__ import annotations

import pytest

from localmind.sameness import compare
from localmind.suspicion import suspect

JARGON = ("aspect", "self", "−", "∅", " +", "(了, 过)")


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        ("我喝咖啡", "我喝了咖啡", "one may say it has already happened, the other not"),
        ("I work at Northwind", "I worked at Northwind", "the tense differs: one tells it as past"),
        ("我每晚11点睡觉。", "我每天早上11点睡觉。", "worded differently (without “evening”"),
        ("My sister lives in Munich", "I live in Munich", "about someone else (sister / you)"),
    ],
)
def test_why_two_texts_are_not_merged_is_said_in_plain_words(old: str, new: str, said: str) -> None:
    why = compare(old, new).why
    assert said in why
    assert not any(term in why for term in JARGON), why


def test_why_a_text_is_queued_or_not_is_said_in_plain_words() -> None:
    assert suspect("My sister lives in Munich", "I live in Munich").why == (
        "about someone else (sister / you)"
    )
    assert suspect("I use Windows 10 at work", "I switched to Linux at work").why == (
        "both set the operating system"
    )
    # a change word as it is written, not its dictionary form
    assert suspect("I play tennis every Sunday", "I stopped playing tennis").why.startswith(
        "“stopped”"
    )

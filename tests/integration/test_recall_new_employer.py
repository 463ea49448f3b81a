"""A job change told without "now" ("I joined Bosch", 我去了字节跳动上班) answers "where do I work
now?" over the employer it replaced, in both languages (docs/design.md, "Recall, round 15";
review15 K4). Real encrypted store, sqlite-vec, FTS5 and the bundled USE-m3 model."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from localmind import Memory
from tests.conftest import FakeClock

OTHERS = ("My sister lives in Munich.", "I like hiking on weekends.", "我周末喜欢爬山。")


@pytest.mark.parametrize(
    ("old", "new", "question"),
    [
        (
            "I work at Siemens as a mechanical engineer.",
            "I joined Bosch last month as a project manager.",
            "Where do I work now?",
        ),
        (
            "I'm a nurse at St. Paul's Hospital.",
            "I joined Vancouver General last week.",
            "Who am I working for now?",
        ),
        ("我在华为工作，做硬件测试。", "我去了字节跳动上班。", "我现在在哪家公司？"),
    ],
)
def test_the_employer_joined_last_answers_where_i_work_now(
    open_memory: Callable[..., Memory], clock: FakeClock, old: str, new: str, question: str
) -> None:
    memory = open_memory()
    for text in (old, *OTHERS, new):
        memory.remember(text, type="semantic")
        clock.advance(days=20)
    found = [r.memory.content for r in memory.recall(question, 3)]
    assert found[0] == new
    assert old in found  # listed below, not hidden: the person sees what changed

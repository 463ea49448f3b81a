"""The review queue on updates worded as a second person words them (issue 13, round 4), through
Memory.remember on the real encrypted store with the bundled USE-m3 embedder and no model:
updates the filter used to miss now wait for review, and compatible facts still do not."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from localmind import Memory
from localmind.config import LifecycleConfig
from localmind.lifecycle import Decision
from tests.integration.test_hygiene import told_after

CONFIG = LifecycleConfig()


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # told in the other language, about a name both spell alike
        (
            "Signed up at Planet Fitness near the station, $15 a month.",
            "Planet Fitness退掉了，白交钱。",
        ),
        # about the user, though the older text names the mother after its verb
        ("打算春节带孩子回老家看我妈，机票看好了。", "春节不回老家了，机票退了。"),
        # a Chinese noun both share (公斤) and a replaced number
        ("我现在体重63公斤，想减到58。", "这半年瘦了，现在59公斤，离58就差一公斤了。"),
    ],
    ids=["across-languages", "object-is-no-subject", "shared-noun"],
)
def test_an_update_the_queue_used_to_miss_waits_for_review(
    open_memory: Callable[..., Memory], old: str, new: str
) -> None:
    memory, _, outcome = told_after(open_memory, old, new)
    assert outcome.decision is Decision.QUEUED, outcome.reason
    [conflict] = memory.conflicts()
    assert (conflict.existing.content, conflict.candidate.content) == (old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # someone else moved (a name jieba has never seen opens the text)
        ("我们家住在武侯区，两室一厅。", "周涛搬家了，从武侯区搬到了高新区。"),
        # "now" in the other language says when, not that anything changed
        ("I keep my notes in Obsidian.", "我现在用Obsidian记笔记。"),
        # round 5: a change only thought about, and a relative's change, are no change yet
        (
            "I drive a blue Toyota RAV4 Hybrid.",
            "We're thinking about replacing the RAV4 with an electric car next year.",
        ),
        ("我开一辆蓝色的丰田RAV4。", "我们在考虑明年把RAV4换成电动车。"),
        (
            "We'll spend Christmas in Portland with Tom's parents.",
            "Tom's parents are selling their Portland house and moving to Tucson.",
        ),
    ],
    ids=[
        "someone-else",
        "now-across-languages",
        "thought-about",
        "thought-about-zh",
        "a-relative",
    ],
)
def test_a_compatible_fact_stays_out_of_the_queue(
    open_memory: Callable[..., Memory], old: str, new: str
) -> None:
    memory, _, outcome = told_after(open_memory, old, new)
    # Close enough to be compared: the filter, not the threshold, kept it out.
    assert outcome.similarity is not None and outcome.similarity >= CONFIG.conflict_threshold
    assert outcome.decision is Decision.INSERTED, outcome.reason
    assert memory.conflicts() == []
    assert memory.count() == 2

"""An ending is a change (issue 13, fix9 item 2): remembered after the memory of what ended, a
death, a breakup, a job left or a car sold is queued for review against it, with a reason a
person can read; in English, Chinese and across the two. The real encrypted store and the
bundled USE-m3 embedder, no model; the CLI in process."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from localmind import Memory
from localmind.lifecycle import Decision
from tests.cli_support import Cli

OTHER_FACTS = ["I grew up in Lyon", "My favourite food is ramen", "我每天早上喝一杯咖啡"]

ENDINGS = [
    ("I have a dog named Rex", "My dog Rex died last year", "an end of Rex"),
    ("我养了一只狗叫Rex", "我的狗Rex去年去世了", "an end of Rex"),
    ("My boyfriend is Tom", "We broke up", "“broke up”: the relationship"),
    ("我的男朋友是汤姆", "我们分手了", "“分手”: the relationship"),
    ("My boyfriend is Tom", "我们分手了", "“分手”: the relationship"),
    ("I work at Acme as an engineer", "I quit my job at Acme", "“quit”"),
    ("我在Acme公司工作", "我辞职了", "both set the job"),
    ("I drive a red Honda Civic", "I sold my car", "both set the vehicle"),
    ("我开一辆红色的本田思域", "我把车卖了", "both set the vehicle"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("old", "new", "why"), ENDINGS)
def test_an_ending_is_queued_against_what_ended(
    open_memory: Callable[..., Memory], old: str, new: str, why: str
) -> None:
    memory = open_memory(llm=None)
    first = memory.remember(old)
    for fact in OTHER_FACTS:
        memory.remember(fact)

    outcome = memory.remember_explained(new)

    assert outcome.decision is Decision.QUEUED, outcome.reason
    [conflict] = memory.conflicts()
    assert (conflict.existing.id, conflict.candidate.content) == (first.id, new)
    assert why in outcome.reason


def test_the_same_pet_again_is_no_change(open_memory: Callable[..., Memory]) -> None:
    memory = open_memory(llm=None)
    memory.remember("I have a dog named Rex")

    outcome = memory.remember_explained("Rex passed his obedience test")

    assert outcome.decision is Decision.INSERTED, outcome.reason
    assert memory.conflicts() == []


def test_cli_says_why_a_breakup_waits_for_review(cli: Cli) -> None:
    old = cli.add("My boyfriend is Tom")

    added = cli.json("add", "We broke up")

    assert added["decision"] == "queued"
    assert added["reason"].startswith(
        "may contradict the older memory: “broke up”: the relationship the older memory tells of "
        "ended"
    )
    [pending] = cli.json("conflicts")
    assert pending["existing"]["id"] == old

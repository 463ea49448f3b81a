"""What a pending conflict hides from the no-model profile (review13 J5): only what a real
change may replace. The person's name, told in a memory a newer job line was queued against,
stays; a pair about different things (a false pending) hides neither side."""

from __future__ import annotations

from collections.abc import Callable

from localmind import Memory
from tests.conftest import FakeClock
from tests.integration.test_context_current import offline

NAMED = "我叫李静，34岁，是一名product designer"
JOB = "I'm a senior product designer at Kleinfeld, working on the checkout flow"
CAT = "My cat Mochi is a 3-year-old British Shorthair"


def _told(memory: Memory, clock: FakeClock, *texts: str) -> list[str]:
    ids = []
    for text in texts:
        ids.append(memory.remember(text, type="semantic").id)
        clock.advance(days=1)
    return ids


def _profile(memory: Memory) -> str:
    profile = memory.profile(rebuild=True)
    assert profile is not None and profile.method == "extractive"
    return profile.text


def test_a_newer_job_does_not_take_the_persons_name_with_it(
    open_memory: Callable[..., Memory], clock: FakeClock
) -> None:
    memory = offline(open_memory)
    _told(memory, clock, NAMED, CAT, JOB)
    text = _profile(memory)
    assert "我叫李静" in text and "Kleinfeld" in text and "Mochi" in text


def test_a_false_pending_against_the_name_does_not_hide_it(
    open_memory: Callable[..., Memory], clock: FakeClock
) -> None:
    memory = offline(open_memory)
    named, _, job = _told(memory, clock, NAMED, CAT, JOB)
    # as the review's queue had it: "both set the job, with a new name"
    memory._store.add_conflict(memory.namespace, named, job, 0.6, "test", clock.now)
    text = _profile(memory)
    # the name stays; the newer job line waits for the person's answer (review12 R11)
    assert "我叫李静" in text and "Kleinfeld" not in text and "Mochi" in text


def test_a_pending_pair_about_different_things_hides_neither(
    open_memory: Callable[..., Memory], clock: FakeClock
) -> None:
    memory = offline(open_memory)
    cafe, habit = _told(
        memory,
        clock,
        "My favourite café is Silo Coffee",
        "I drink a matcha latte every morning now",
    )
    memory._store.add_conflict(memory.namespace, cafe, habit, 0.5, "test", clock.now)
    text = _profile(memory)
    assert "Silo Coffee" in text and "matcha" in text


def test_a_real_change_pending_still_gives_neither_side(
    open_memory: Callable[..., Memory], clock: FakeClock
) -> None:
    memory = offline(open_memory)
    _told(memory, clock, CAT, "I live in Berlin")
    clock.advance(days=30)
    assert memory.remember_explained("I moved to Lisbon last month").decision == "queued"
    text = _profile(memory)
    assert "Berlin" not in text and "Lisbon" not in text and "Mochi" in text

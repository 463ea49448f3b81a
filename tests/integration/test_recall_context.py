"""Memories told together explain each other: a conversation imported at once, where the turn
that answers a question follows the turn that shares its words. Real encrypted store, sqlite-vec,
FTS5 and the bundled USE-m3 model."""

from __future__ import annotations

from collections.abc import Callable

from localmind import Memory, NewMemory, Settings
from localmind.config import FusionConfig
from tests.conftest import FakeClock

DAY = 86_400.0
FIRST_CHAT = [
    "Caroline: Hey Mel! How have you been?",
    "Melanie: Busy, the kids keep me running all day.",
    "Caroline: I finally signed up for the pottery workshop downtown.",
    "Melanie: Oh nice, I went to one of those years ago.",
    "Caroline: Anything I should know before the first class?",
    "Melanie: Wear old clothes, the clay gets everywhere.",
    "Caroline: Ha, good tip. What else is new with you?",
    "Melanie: We're planning a camping trip in the mountains.",
    "Caroline: That sounds amazing, where to?",
    "Melanie: Somewhere near the lake, the kids love swimming.",
]
LATER_CHAT = [
    "Caroline: How did the camping go?",
    "Melanie: Great, we saw a bear from far away!",
    "Caroline: Wow, were the kids scared?",
    "Melanie: A little, but mostly excited.",
    "Caroline: My support group met again on Tuesday.",
    "Melanie: How are you feeling about it?",
    "Melanie: What are you wearing to Jen's wedding?",
    "Caroline: Probably the green dress, or a suit.",
    "Melanie: I need new clothes for work, honestly.",
    "Caroline: Let's go shopping for outfits this weekend.",
]
QUESTION = "What should Caroline wear to the pottery class?"
ANSWER = "Melanie: Wear old clothes, the clay gets everywhere."


def _imported(memory: Memory, clock: FakeClock) -> None:
    """Two chat sessions a week apart, each imported at once with its session's date: turns are
    events, which an import stores as told ("What else is new with you?" is no later version
    of a fact)."""
    first = clock()
    clock.advance(days=7)  # imported once both happened (a date after now is refused)
    memory.remember_many(
        [NewMemory(content=t, type="episodic", created_at=first) for t in FIRST_CHAT]
        + [NewMemory(content=t, type="episodic", created_at=first + 7 * DAY) for t in LATER_CHAT]
    )
    clock.advance(days=23)


def test_the_turn_after_the_questions_turn_is_found_through_it(
    open_memory: Callable[..., Memory], clock: FakeClock, tmp_path
) -> None:
    """The answer shares no word with the question and the bundled model scores it below talk
    of wedding clothes; the turn before it (the pottery class) lifts it into the first three.
    Without the context term it is not there."""
    memory = open_memory()
    _imported(memory, clock)
    found = memory.recall(QUESTION, 3)
    assert ANSWER in [r.memory.content for r in found]
    lifted = next(r for r in found if r.memory.content == ANSWER)
    assert lifted.breakdown.from_context > 0
    assert lifted.breakdown.to_dict()["from_context"] == lifted.breakdown.from_context

    without = open_memory(
        path=tmp_path / "without.db", settings=Settings(fusion=FusionConfig(context=0.0))
    )
    _imported(without, clock)
    assert ANSWER not in [r.memory.content for r in without.recall(QUESTION, 3)]


def test_memories_told_one_by_one_do_not_lift_each_other(
    open_memory: Callable[..., Memory], clock: FakeClock
) -> None:
    """The same turns told one at a time (a minute apart) are separate memories: no context."""
    memory = open_memory()
    for text in FIRST_CHAT + LATER_CHAT:
        memory.remember_many([NewMemory(content=text, type="episodic")])
        clock.advance(seconds=60)
    found = memory.recall(QUESTION, 10, threshold=0)
    assert found and all(r.breakdown.from_context == 0 for r in found)


def test_a_question_about_nothing_in_the_chat_still_gets_nothing(
    open_memory: Callable[..., Memory], clock: FakeClock
) -> None:
    """The lift is read from what the neighbours are worth: unrelated questions stay
    unanswered."""
    memory = open_memory()
    _imported(memory, clock)
    assert memory.recall("What is the wifi password?", 5) == []
    assert memory.recall("我的护照放在哪里？", 5) == []

"""A query of several lines (a conversation so far, ending with what the person asks now) is
answered for its last line, not for the turns before it (docs/design.md, "Recall, round 7").
Real encrypted store, sqlite-vec, FTS5 and the bundled USE-m3 model."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from localmind import Memory, NewMemory
from localmind.recall import PRESENT_RECENCY

HIKE = "We hiked up Mount Si last Saturday; the view from the top was worth the climb."
TOOTH = "My daughter Lily lost her first tooth at breakfast on Sunday."
MEMORIES = [
    HIKE,
    TOOTH,
    "I am allergic to penicillin.",
    "Our landlord raised the rent by five percent this year.",
    "The team meeting moved to Thursday afternoons.",
    "I started learning the cello in September.",
]
DIALOGUE = """The trail was steep and muddy after all that rain.
We reached the summit around noon and ate sandwiches up there.
The view over the valley was amazing, we could see the lake.
By the way, did my kid lose a tooth recently?"""


def test_the_last_line_of_a_dialogue_decides_what_it_asks(
    open_memory: Callable[..., Memory], monkeypatch: pytest.MonkeyPatch
) -> None:
    memory = open_memory()
    memory.remember_many([NewMemory(content=text) for text in MEMORIES])
    found = memory.recall(DIALOGUE, 3, threshold=0)
    assert [r.memory.content for r in found[:2]] == [TOOTH, HIKE]
    # the earlier turns still count: the hike comes next, far above unrelated memories (6×
    # the next; over 10× until round 13 weighed the question more by repeating it)
    assert found[1].breakdown.similarity > 5 * found[2].breakdown.similarity
    # ... and it is the last line's weight that decides: embedded as a whole only, the three
    # turns about the hike outweigh the question
    monkeypatch.setattr("localmind.recall.LAST_LINE_WEIGHT", 0.0)
    monkeypatch.setattr("localmind.recall.LAST_LINE_REPEATS", 0)
    anew = open_memory()  # (its own cache of query vectors)
    assert anew.recall(DIALOGUE, 3)[0].memory.content == HIKE


def test_a_one_line_query_is_embedded_as_it_is(open_memory: Callable[..., Memory]) -> None:
    memory = open_memory()
    memory.remember_many([NewMemory(content=text) for text in MEMORIES])
    question = "did my kid lose a tooth recently?"
    assert memory.query_vector(question) == pytest.approx(
        memory.embedder.embed_query([question])[0], abs=1e-6
    )


def test_a_transcript_is_embedded_as_what_was_said(open_memory: Callable[..., Memory]) -> None:
    """A transcript an assistant passes to recall, markers, speakers' tags and quotes and all,
    is read as the conversation itself (docs/design.md, "Recall, round 13")."""
    memory = open_memory()
    memory.remember_many([NewMemory(content=text) for text in MEMORIES])
    turns = DIALOGUE.splitlines()
    speakers = ["Ann", "Assistant"] * 2
    transcript = "\n".join(
        ["<BOD>", *(f'<{who}>: "{said}"' for who, said in zip(speakers, turns, strict=True)), ""]
    )
    assert memory.query_vector(transcript) == pytest.approx(memory.query_vector(DIALOGUE), abs=1e-6)
    assert memory.recall(transcript, 1)[0].memory.content == TOOTH


def test_a_transcript_asks_its_last_turn_not_its_end_marker(
    open_memory: Callable[..., Memory],
) -> None:
    """What the last line asks (here: about now, so recency weighs more) is read from the last
    turn said, not from a transcript's closing ``<EOD>``."""
    memory = open_memory()
    memory.remember_many([NewMemory(content=text) for text in MEMORIES])
    transcript = '<BOD>\n<Ann>: "We moved last year."\n<Ann>: "Where do I live now?"\n<EOD>\n'
    found = memory.recall(transcript, 3, threshold=0)
    assert found and {r.breakdown.recency_weight for r in found} == {PRESENT_RECENCY}

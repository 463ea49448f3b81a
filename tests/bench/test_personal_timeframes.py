"""Time phrases in the personal set's questions (written by others, never tuned on here) name the
period their answers come from: what recall can boost by date."""

from __future__ import annotations

import datetime as dt
from datetime import UTC

from bench.personal import ASKED_ON, load_memories, load_questions
from localmind.timeframe import time_frame


def _day(epoch: float) -> dt.date:
    return dt.datetime.fromtimestamp(epoch, UTC).date()


def test_temporal_questions_name_the_period_their_answers_were_told_in() -> None:
    # A memory is told after what it tells ("yesterday we hosted Thanksgiving"): may_tell allows
    # a week after the period.
    told = {
        memory.id: dt.datetime(memory.date.year, memory.date.month, memory.date.day, 12, tzinfo=UTC)
        for memory in load_memories()
    }
    now = dt.datetime(ASKED_ON.year, ASKED_ON.month, ASKED_ON.day, 12, tzinfo=UTC).timestamp()
    temporal = [q for q in load_questions() if q.kind == "temporal"]
    framed = [(q, frame) for q in temporal if (frame := time_frame(q.question, now, UTC))]
    past = [(q, frame) for q, frame in framed if _day(frame.start) <= ASKED_ON]
    answered = [
        q.id for q, frame in past if any(frame.may_tell(told[g].timestamp()) for g in q.gold)
    ]
    assert len(framed) >= 0.85 * len(temporal), [q.question for q in temporal]
    assert len(answered) >= 0.85 * len(past)

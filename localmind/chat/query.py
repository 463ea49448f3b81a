"""Building a recall query from a conversation.

On MADial-Bench (question → memory in a dialogue), the best query was every turn so far, role
tags dropped, with the last user turn repeated twice more: +0.02–0.04 Recall@5 over the raw
history, and far better than the last turn alone (0.51 vs 0.63 Recall@5 in English). Repeating
a turn weighs it in the embedding; BM25 counts each term once, so keywords are unaffected.
"""

from __future__ import annotations

from collections.abc import Sequence

LAST_TURN_REPEATS = 2


def dialogue_query(
    earlier_turns: Sequence[str],
    last_user_turn: str,
    *,
    repeats: int = LAST_TURN_REPEATS,
    max_chars: int = 8_000,
) -> str:
    """The conversation so far, one turn a line, then the last user turn ``repeats`` more
    times. When too long, the oldest turns go first: the latest ones matter most."""
    tail = [last_user_turn.strip()] * (1 + repeats)
    room = max_chars - sum(len(line) + 1 for line in tail)
    kept: list[str] = []
    for turn in reversed([t.strip() for t in earlier_turns if t.strip()]):
        if len(turn) + 1 > room:
            break
        kept.append(turn)
        room -= len(turn) + 1
    lines = [*reversed(kept), *tail]
    return "\n".join(lines)[:max_chars]

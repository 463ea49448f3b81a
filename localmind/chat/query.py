"""Building a recall query from a conversation.

On MADial-Bench (question → memory in a dialogue), the best query was every turn so far, role
tags dropped, with the last user turn weighed more: +0.02–0.04 Recall@5 over the raw history,
and far better than the last turn alone (0.51 vs 0.63 Recall@5 in English). The weighing is
recall's own since round 13 (``recall.LAST_LINE_REPEATS``: the last line repeated in the text
embedded), so a transcript given to plain ``recall`` is read the same way; this builder gives
the turns, one a line, the person's latest last.
"""

from __future__ import annotations

from collections.abc import Sequence


def dialogue_query(
    earlier_turns: Sequence[str],
    last_user_turn: str,
    *,
    max_chars: int = 8_000,
) -> str:
    """The conversation so far, one turn a line, the last user turn last. When too long, the
    oldest turns go first: the latest ones matter most."""
    last = last_user_turn.strip()
    room = max_chars - len(last) - 1
    kept: list[str] = []
    for turn in reversed([t.strip() for t in earlier_turns if t.strip()]):
        if len(turn) + 1 > room:
            break
        kept.append(turn)
        room -= len(turn) + 1
    lines = [*reversed(kept), last]
    return "\n".join(lines)[:max_chars]

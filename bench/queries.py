"""Ways to turn the dialogue so far into one recall query string.

``Memory.recall`` takes one string, embedded as a whole and searched by its terms (each term once:
BM25 ignores how often a term occurs in the query). Repeating a turn therefore weights it in the
vector query only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bench.madial import Dialogue, Turn

QueryBuilder = Callable[[Dialogue], str]


@dataclass(frozen=True, slots=True)
class Strategy:
    name: str
    description: str
    build: QueryBuilder


def _lines(turns: list[Turn]) -> str:
    return "\n".join(turn.text for turn in turns)


def _last_user(dialogue: Dialogue) -> str:
    turns = dialogue.turns
    users = [turn for turn in turns if turn.role == "user"]
    return (users or turns)[-1].text


def history(dialogue: Dialogue) -> str:
    return dialogue.history


def window(dialogue: Dialogue) -> str:
    return _lines(dialogue.turns)


def user_turns(dialogue: Dialogue) -> str:
    return _lines([turn for turn in dialogue.turns if turn.role == "user"])


def last_user(dialogue: Dialogue) -> str:
    return _last_user(dialogue)


def last_turns(count: int) -> QueryBuilder:
    def build(dialogue: Dialogue) -> str:
        return _lines(dialogue.turns[-count:])

    return build


def with_last_user(base: QueryBuilder, repeats: int) -> QueryBuilder:
    """``base`` followed by the last user turn ``repeats`` more times."""

    def build(dialogue: Dialogue) -> str:
        return "\n".join([base(dialogue), *[_last_user(dialogue)] * repeats])

    return build


#: The chat page's query (``localmind.chat.query.dialogue_query``): every turn so far, one a line.
#: Since round 13 recall itself repeats the last line (``recall.LAST_LINE_REPEATS``), so the
#: "+last×N" builders below weigh it N more times on top of that.
DEFAULT = "window"

STRATEGIES: dict[str, Strategy] = {
    s.name: s
    for s in (
        Strategy("history", "the peers' query: raw lines, <BOD> and role tags kept", history),
        Strategy(DEFAULT, "every turn so far, role tags dropped, one per line", window),
        Strategy("user-turns", "the user's turns only", user_turns),
        Strategy("last-user", "the last user turn only", last_user),
        Strategy("last-3", "the last three turns", last_turns(3)),
        Strategy(
            "window+last×1", "window, then the last user turn once more", with_last_user(window, 1)
        ),
        Strategy(
            "window+last×2", "window, then the last user turn twice more", with_last_user(window, 2)
        ),
        Strategy(
            "window+last×3",
            "window, then the last user turn three more times",
            with_last_user(window, 3),
        ),
        Strategy(
            "user-turns+last×2",
            "user turns, then the last one twice more",
            with_last_user(user_turns, 2),
        ),
    )
}

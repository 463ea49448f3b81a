"""Small text helpers shared by the screens (ages, one-line previews, word diffs)."""

from __future__ import annotations

import difflib
import re

from rich.cells import cell_len, get_character_cell_size
from rich.text import Text

from localmind.cjk import mostly_cjk
from localmind.currency import day_of
from localmind.terminal import printable

MINUTE, HOUR, DAY = 60.0, 3600.0, 86_400.0
#: Beside a memory marked secret, whose text the screens hide until the person asks for it:
#: someone may be looking over their shoulder, or sharing the screen.
SECRET_MARK = "🔒"
_TOKENS = re.compile(r"\w+|\s+|.", re.ASCII | re.DOTALL)


def age(seconds: float) -> str:
    """A compact age: ``now``, ``5m``, ``3h``, ``12d``, ``4mo``, ``2y``."""
    if seconds < MINUTE:
        return "now"
    if seconds < HOUR:
        return f"{int(seconds // MINUTE)}m"
    if seconds < DAY:
        return f"{int(seconds // HOUR)}h"
    if seconds < 60 * DAY:
        return f"{int(seconds // DAY)}d"
    if seconds < 730 * DAY:
        return f"{int(seconds // (30 * DAY))}mo"
    return f"{int(seconds // (365 * DAY))}y"


def ago(seconds: float) -> str:
    """``just now`` or ``3d ago``."""
    text = age(seconds)
    return "just now" if text == "now" else f"{text} ago"


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``1 conflict``, ``2 conflicts``; ``nouns`` for the irregular ones (``memories``)."""
    return f"{count} {noun}" if count == 1 else f"{count} {nouns or noun + 's'}"


def archived_note(count: int) -> str:
    """How the app announces what the capacity limit archived (every front end says so)."""
    return (
        f"capacity archived {plural(count, 'memory', 'memories')} to make room: "
        "Memories, status archived (s); b brings one back"
    )


def shown(text: str, style: str = "") -> Text:
    """A memory's (or a model's) text for display: plain ``Text``, never parsed as markup, with
    terminal controls written as escapes (``localmind.terminal``)."""
    return Text(printable(text), style=style)


def one_line(text: str, width: int = 80) -> str:
    """One line of at most ``width`` terminal cells, controls escaped, ending "…" when cut
    (cut by cells, not characters: a Chinese character takes two). Plain text: show it as
    ``Text`` or with markup off."""
    flat = printable(" ".join(text.split()), newlines=False)
    if cell_len(flat) <= width:
        return flat
    kept, cells = [], 0
    for character in flat:
        cells += get_character_cell_size(character)
        if cells > width - 1:  # a wide character that would overhang is left out whole
            break
        kept.append(character)
    return "".join(kept) + "…"


def word_diff(old: str, new: str) -> Text:
    """``old`` → ``new`` word by word (character by character in Chinese): removed text as
    ``[-removed-]`` (struck through, red), added text as ``{+added+}`` (bold, green). The
    marks are git's ``--word-diff=plain``: the diff reads the same without colour."""
    a, b = _TOKENS.findall(printable(old)), _TOKENS.findall(printable(new))
    out = Text()
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if op == "equal":
            out.append("".join(a[i1:i2]))
            continue
        if op in ("delete", "replace"):
            out.append(f"[-{''.join(a[i1:i2])}-]", style="red strike")
        if op in ("insert", "replace"):
            out.append(f"{{+{''.join(b[j1:j2])}+}}", style="green bold")
    return out


#: How much of the longer of two texts the other must hold, word for word (character for
#: character in Chinese) and in order, for their word diff to read as an edit (review13 J15).
#: On the tests' pairs no unrelated one reaches it (memory_pairs.jsonl: 0 of 50; the highest
#: shares one word, "I support Liverpool" / "I'm lactose intolerant": 0.25), while 50 of the
#: 73 contradictions of queue_pairs.jsonl and 38 of the 72 of memory_pairs.jsonl do (and 195
#: of 196 hygiene_pairs.jsonl pairs told apart by a word or two). A pair below it differs in
#: most of its words: a diff marking nearly all of both texts says nothing the two texts
#: shown whole above it do not.
EDIT_SHARE = 0.3


def reads_as_an_edit(old: str, new: str) -> bool:
    """Whether ``new`` reads as an edit of ``old``: the same language (both mostly Chinese,
    or neither) and at least :data:`EDIT_SHARE` of their words shared. A diff of two other
    texts ("I'm looking for a Wohnung in Friedrichshain" against a Chinese sentence naming
    Friedrichshain) suggests one was an edit of the other."""
    if mostly_cjk(old) != mostly_cjk(new):
        return False
    a, b = _words(old), _words(new)
    if not a or not b:
        return False
    matcher = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
    shared = sum(block.size for block in matcher.get_matching_blocks())
    return shared / max(len(a), len(b)) >= EDIT_SHARE


def _words(text: str) -> list[str]:
    """The word diff's tokens that are words (a Chinese character is one), in lower case."""
    return [token.lower() for token in _TOKENS.findall(text) if token.isalnum()]


def day(timestamp: float | None) -> str:
    """A date as ``2026-05-28``, or ``-`` when unknown: the day on this machine's clock, as the
    command line and the context block give it (review15a TW14: the Conflicts page gave the
    UTC day, a day early for a morning in Taichung)."""
    if not timestamp:
        return "-"
    return day_of(timestamp)

"""A query written as a conversation: what was said in it, and the text recall embeds for it.

A query of several lines is a conversation so far (the chat page's, or a transcript an assistant
passes to ``recall``), ending with what the person says now. Recall embeds it as one text, and
the model reads whatever it is given as meaning: a transcript's markup (``<BOD>`` lines, a
``<Bart>:`` before every turn, the quotes around it) is words too. On MADial's raw dialogue
histories that markup cost the dense leg 0.026 of R@5 in Chinese (docs/design.md, "Recall,
round 13"). So the embedding reads the utterances alone; the keyword search still reads the
query as it was given (a speaker's name is a word a memory may hold).
"""

from __future__ import annotations

import re

#: A line that is only a tag (``<BOD>``, ``<EOD>``): a transcript's markers, not said by anyone.
_MARKER = re.compile(r"^<[^<>\n]{1,40}>$")
#: A speaker's tag before a turn, ``<Bart>: "…"`` (ASCII or full-width colon).
_SPEAKER = re.compile(r"^<[^<>\n]{1,40}>\s*[:：]\s*")
#: Quotes around a whole turn (a transcript's, not the speaker's).
_QUOTED = re.compile(r'^["“](?P<said>.*)["”]$', re.DOTALL)


def utterances(query: str) -> list[str]:
    """The lines of ``query`` as they were said: markers dropped, a speaker's ``<tag>:`` and the
    quotes around a turn taken off, blank lines left out. Lines without markup are kept as
    they are."""
    said = []
    for line in query.splitlines():
        text = line.strip()
        if not text or _MARKER.match(text):
            continue
        spoken = _SPEAKER.sub("", text, count=1)
        if spoken != text:  # only a tagged turn is taken out of its quotes
            quoted = _QUOTED.match(spoken)
            spoken = (quoted.group("said") if quoted else spoken).strip()
        if spoken:
            said.append(spoken)
    return said


def with_last_repeated(lines: list[str], repeats: int) -> str:
    """The conversation one turn a line, then its last line ``repeats`` more times: repeating a
    turn weighs it in the embedding (the model pools its words), where adding its own vector
    afterwards weighs it less well (MADial's dense leg, R@5: 0.612 → 0.658 en, 0.584 → 0.634
    zh with the two repeats)."""
    return "\n".join([*lines, *[lines[-1]] * repeats]) if lines else ""

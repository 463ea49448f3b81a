"""Line breaking that reads right in Chinese (and Japanese): Textual and Rich break lines only at
spaces, so a Chinese sentence is one "word" folded wherever the width ends: "。" alone at the
start of a line, or a whole sentence pushed under a label ("What changed:" with nothing after
it, review11 A3). Here a line may also break between any two wide characters, as Chinese
typesetting does, but never before closing punctuation (。，）…) nor after opening
punctuation (（“《), the common core of the kinsoku rules, and never inside a diff mark
(``[-`` ``-]`` ``{+`` ``+}``, ``tui.format.word_diff``)."""

from __future__ import annotations

from dataclasses import dataclass

from rich.cells import cell_len, get_character_cell_size
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.text import Text

#: Characters a line never starts with: closing punctuation, Chinese and Western.
NO_START = frozenset("。，、；：？！）》」』】〕〉”’…—·～%.,;:?!)]}")
#: Characters a line never ends with: opening punctuation.
NO_END = frozenset("（《「『【〔〈“‘([{")
#: The word diff's marks: a line never ends on an opening one nor starts with a closing one.
_MARKS_OPEN, _MARKS_CLOSE = ("[-", "{+"), ("-]", "+}")


def _wide(character: str) -> bool:
    return get_character_cell_size(character) == 2


def may_break_before(plain: str, i: int) -> bool:
    """Whether a line of ``plain`` may start at index ``i`` (``0 < i < len(plain)``)."""
    before, here = plain[i - 1], plain[i]
    if here in NO_START or before in NO_END:
        return False
    if plain[i : i + 2] in _MARKS_CLOSE or plain[max(i - 2, 0) : i] in _MARKS_OPEN:
        return False
    if before.isspace():
        return not here.isspace()
    return not here.isspace() and (_wide(before) or _wide(here))


def line_starts(plain: str, width: int) -> list[int]:
    """Where each line after the first starts, for lines of at most ``width`` cells (one line
    of text: no newlines). Spaces at a break end the line before it. A stretch with no break
    allowed that is wider than a line is cut where the line ends."""
    starts: list[int] = []
    start, cells, last_break = 0, 0, None
    i = 0
    while i < len(plain):
        if i > start and may_break_before(plain, i):
            last_break = i
        cells += get_character_cell_size(plain[i])
        if cells > width and not plain[i].isspace() and i > start:
            cut = last_break if last_break is not None and last_break > start else i
            starts.append(cut)
            start, last_break = cut, None
            cells = cell_len(plain[start : i + 1])
        i += 1
    return starts


def wrap(text: Text, width: int) -> list[Text]:
    """``text`` as lines of at most ``width`` cells (its newlines kept), styles kept."""
    lines: list[Text] = []
    for paragraph in text.split("\n", allow_blank=True):
        for line in paragraph.divide(line_starts(paragraph.plain, max(width, 2))):
            line.rstrip()
            lines.append(line)
    return lines


@dataclass(frozen=True)
class Wrapped:
    """A Rich renderable: ``text`` broken into lines by :func:`wrap` at the width it gets."""

    text: Text

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for line in wrap(self.text, options.max_width):
            yield from line.render(console)
            yield Segment.line()

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        longest = max(map(cell_len, self.text.plain.split("\n")))
        return Measurement(1, min(options.max_width, longest))


__all__ = ["NO_END", "NO_START", "Wrapped", "line_starts", "may_break_before", "wrap"]

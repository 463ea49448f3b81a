"""A documented token estimate, independent of any model's tokenizer.

Each CJK character counts as one token (Chinese tokenizers average 1–1.5 characters a token, so
this errs high); any other word or number counts one token per four characters, rounded up
(English averages about four characters a token); punctuation marks count one each. Budgets
checked with this estimate stay within the same budgets for the usual tokenizers.
"""

from __future__ import annotations

import math
import re

from localmind.cjk import CHARACTER as _CJK
from localmind.cjk import RANGES

# one CJK character, or a run of other letters and digits, or one punctuation mark
_PIECE = re.compile(f"[{RANGES}]|[^\\W{RANGES}]+|[^\\w\\s]", re.UNICODE)


def estimate(text: str) -> int:
    total = 0
    for piece in _PIECE.findall(text):
        if _CJK.fullmatch(piece) or not piece[0].isalnum():
            total += 1
        else:
            total += math.ceil(len(piece) / 4)
    return total


def truncate(text: str, budget: int) -> str:
    """The longest prefix of ``text`` within ``budget`` tokens, cut at a sentence end when one
    is near, else at a word, with an ellipsis when cut."""
    if estimate(text) <= budget:
        return text
    low, high = 0, len(text)
    while low < high:  # binary search on the character length
        middle = (low + high + 1) // 2
        if estimate(text[:middle] + "…") <= budget:
            low = middle
        else:
            high = middle - 1
    prefix = text[:low]
    ends = [prefix.rfind(mark) for mark in ".。!！?？;；\n"]
    best = max(ends)
    if best >= len(prefix) * 0.6:
        if prefix[best] in ";；":  # a list cut between two items goes on: say so
            return prefix[:best].rstrip() + "…"
        return prefix[: best + 1].rstrip()
    space = prefix.rfind(" ")
    if space >= len(prefix) * 0.6 and not _CJK.search(prefix[space:]):
        prefix = prefix[:space]
    return prefix.rstrip() + "…"


def share_of_cjk(texts: list[str]) -> float:
    letters = sum(1 for text in texts for c in text if c.isalpha())
    cjk = sum(len(_CJK.findall(text)) for text in texts)
    return cjk / letters if letters else 0.0

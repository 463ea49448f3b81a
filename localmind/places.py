"""Whether one place lies within another, as CC-CEDICT tells it.

"我住在北京" and "我住在望京" name one home at two levels (review11 Z16): 望京 is "Wangjing
neighborhood of Beijing" in CC-CEDICT, 武侯区 "Wuhou district of Chengdu city 成都市, Sichuan",
浦东 "Pudong, subprovincial district of Shanghai". A sense that places a name *of* or *in*
another place says where it lies; nothing else is guessed (no gazetteer ships here, so an
English district such as Kreuzberg is known to lie nowhere, and a pair of them stays a
possible change).
"""

from __future__ import annotations

import re
from functools import lru_cache

from localmind.bilingual import DICTIONARY, proper_names

_CJK = re.compile(r"^[\u3400-\u9fff]+$")
# "… neighborhood of Beijing", "… district in east and northeast Beijing", "… city in Guangxi":
# what follows "of" / "in" in a sense is where the place lies.
_WHERE = re.compile(r"\b(?:of|in)\b(.*)")


def _said_in(place: str, where: str) -> bool:
    """Whether ``where`` (what a sense says after "of" / "in") names ``place``: by its Chinese
    characters, or by every word of its English name (纽约 "New York" needs both words)."""
    if not _CJK.match(place):
        return place.casefold() in re.findall(r"[a-z]+", where.casefold())
    if place in where:
        return True
    english = proper_names(place)
    return bool(english) and english <= set(re.findall(r"[a-z]+", where.casefold()))


@lru_cache(maxsize=4096)
def within(inner: str, outer: str) -> bool:
    """Whether CC-CEDICT places ``inner`` (a Chinese word) of or in ``outer`` (a Chinese word
    or a Latin name in lower case): 望京 within 北京 or "beijing", 武侯区 within 成都."""
    if inner == outer or not _CJK.match(inner):
        return False
    for sense in DICTIONARY.senses(inner).split("/"):
        where = _WHERE.search(sense)
        if where is not None and _said_in(outer, where.group(1)):
            return True
    return False


def nested(one: str, other: str) -> bool:
    """Whether one of two places lies within the other."""
    return within(one, other) or within(other, one)

"""The one definition of the characters written without spaces between words — Han (with its
extensions and compatibility ideographs), kana and Hangul — shared by the keyword index
(:mod:`localmind.fts_terms`: runs of them become bigrams) and the token estimate
(:mod:`localmind.token_budget`: one token each), so both agree on which text is CJK."""

from __future__ import annotations

import re

#: a regular-expression character class body: use as f"[{RANGES}]"
RANGES = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\U00020000-\U0002ebef"
CHARACTER = re.compile(f"[{RANGES}]")
_LATIN_WORD = re.compile(rf"[^\W\d_{RANGES}]+")


def mostly_cjk(text: str) -> bool:
    """Whether ``text`` is written mostly in CJK characters: more of them than words in other
    letters (a Chinese sentence with a name in it, "Pepper现在还是寄养的小狗吗", is Chinese)."""
    return len(CHARACTER.findall(text)) > len(_LATIN_WORD.findall(text))

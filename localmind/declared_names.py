"""Names a text declares in brackets: 儿子何以恒（Ethan）, 在万锦（Markham）.

A family that lives in two languages calls a child 以恒 in Chinese and Ethan in English, and
writes the two together once (我们有两个孩子：儿子何以恒（Ethan）…). Nothing in "Ethan made the
basketball team" spells 以恒, so the merge guard read a retelling in the other language as about
someone else (docs/design.md, "Remember's judgment, round 7"). Only this plain form counts; a
word explained in brackets (公司（Google）, PSW（个人护理员）) is no second name. The other
form, 英文名叫Leo, is :mod:`localmind.aliases`'s.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from localmind.bilingual import meanings
from localmind.statement import RELATIONS

_CJK = re.compile(r"[\u3400-\u9fff]")
_CJK_NAME = re.compile(r"^[\u3400-\u9fff]{2,4}$")
# 何以恒（Ethan）, 林晓琳（Linda）, 万锦（Markham）: a Chinese name and, in brackets, what the
# same one is called in Latin letters.
BRACKETED = re.compile(r"([\u3400-\u9fff]{2,})\s*[（(]\s*([A-Z][a-z]+(?: [A-Z][a-z]+)?)\s*[）)]")
# What stands right before a person's name (儿子何以恒, 叫莉莉, 经理是佐藤健二) or a place's
# (在万锦, 住在列治文): the name is what follows the last of them.
_BEFORE_A_PERSON = sorted(
    {word for word in RELATIONS if _CJK.search(word)} | {"叫", "是"}, key=len, reverse=True
)
_BEFORE_A_PLACE = ("在", "去", "到", "住")
_OPENS_A_NAME = re.compile("|".join((*_BEFORE_A_PERSON, *_BEFORE_A_PLACE)))


def bracketed(text: str) -> frozenset[tuple[str, str]]:
    """The (Latin name in lower case, Chinese name) pairs ``text`` gives as 何以恒（Ethan）:
    {("ethan", "何以恒")} for 儿子何以恒（Ethan）, {("markham", "万锦")} for 在万锦（Markham）. The
    Chinese name follows a word that opens one (儿子, 叫, 是; 在, 去 for a place), has two to
    four characters and no sense in CC-CEDICT but that name; a place's holds no word of two
    characters that has one (在新工作（Lumen）: 工作 "work"). Nothing else in brackets is a
    second name (公司（Google）, PSW（个人护理员）)."""
    found: set[tuple[str, str]] = set()
    for match in BRACKETED.finditer(text):
        run, latin = match.group(1), match.group(2).lower()
        cuts = list(_OPENS_A_NAME.finditer(run))
        if not cuts:
            continue
        name = run[cuts[-1].end() :]
        if not 2 <= len(name) <= 4 or meanings(name) - {latin, *latin.split()}:
            continue
        if cuts[-1].group() in _BEFORE_A_PLACE and any(
            meanings(name[i : i + 2]) for i in range(len(name) - 1)
        ):
            continue
        found.add((latin, name))
    return frozenset(found)


def said_names(pairs: Iterable[tuple[str, str]]) -> frozenset[tuple[str, str]]:
    """``pairs`` with each Chinese personal name of three characters also by its given name
    (何以恒 → 以恒, 刘子轩 → 子轩: what a family calls them), when that says nothing else."""
    found = set(pairs)
    for latin, other in pairs:
        if _CJK_NAME.match(other) and len(other) == 3 and not meanings(other[1:]):
            found.add((latin, other[1:]))
    return frozenset(found)

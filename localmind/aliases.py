"""A person's English name, as the user declared it: 儿子刘子轩…英文名叫Leo, "our son Liu
Zixuan, Leo in English".

Families who live in two languages call a child 子轩 in one and Leo in the other, and nothing
in "Leo quit swimming" spells 子轩: the review queue read the pair as about two people, so a
change told in English of what was told in Chinese was never queued (docs/design.md, "The
review queue, round 12"). A name is only taken as another's when the store says so in one of
these plain forms; nothing is guessed from sound or likeness.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from localmind.bilingual import DICTIONARY
from localmind.fts_terms import match_expression
from localmind.statement import (
    OTHER_WORDS,
    RELATIONS,
    SELF_WORDS,
    STOP_WORDS,
    a_full_chinese_name,
    read,
)

if TYPE_CHECKING:
    from localmind.store import SqliteStore

_CJK_NAME = re.compile(r"^[\u3400-\u9fff]{2,4}$")
_CJK_ANYWHERE = re.compile(r"[\u3400-\u9fff]")
# 英文名叫Leo, 英文名字是Leo, 英文名：Leo
_ZH_DECLARED = re.compile(r"英文名(?:字)?\s*(?:叫|是|为|:|：)?\s*([A-Z][a-z]+)")
_CALLED = re.compile(r"叫([\u3400-\u9fff]{2,4}?)(?=[，,、。\s]|今年|的)")
_PINYIN_NAME = r"([A-Z][a-z]+(?: [A-Z][a-z]+)?)"
# "Liu Zixuan, Leo in English", "Zixuan (Leo in English)", "Zixuan's English name is Leo"
_EN_DECLARED = (
    re.compile(_PINYIN_NAME + r"\s*[,(]\s*([A-Z][a-z]+) in English"),
    re.compile(_PINYIN_NAME + r"'s English name is ([A-Z][a-z]+)"),
)
# 女儿何以宁（Chloe）, 我妹妹林晓琳（Linda）, 我女儿叫莉莉（Lily）: a relative's Chinese name with
# the English one in brackets after it. Only after a word for a relative (or 叫 after one): a
# place is written so too (列治文（Richmond）), and is no one's name.
_RELATIVE_WORDS_ZH = sorted(
    (word for word in RELATIONS if _CJK_ANYWHERE.match(word)), key=len, reverse=True
)
_BRACKETED = re.compile(
    "(?:" + "|".join(map(re.escape, _RELATIVE_WORDS_ZH)) + ")叫?"
    r"([\u3400-\u9fff]{2,4})\s*[（(]\s*([A-Z][a-z]+)\s*[)）]"
)
# Words that may hold a declaration, for the keyword index (``Lifecycle``); a bracketed one
# holds none of them, and is found by the English name itself (``opening_name``).
DECLARING_WORDS = "英文名 English"


def declared(text: str) -> frozenset[tuple[str, str]]:
    """The (English name, other name) pairs ``text`` declares, the English name in lower case:
    {("leo", "刘子轩")} for 儿子刘子轩今年九岁，英文名叫Leo; {("leo", "Liu Zixuan")} for "our son
    Liu Zixuan, Leo in English". The other name is Chinese, or written in pinyin."""
    found: set[tuple[str, str]] = set()
    for match in _ZH_DECLARED.finditer(text):
        owner = _chinese_name_before(text, match.start())
        if owner is not None:
            found.add((match.group(1).lower(), owner))
    for match in _BRACKETED.finditer(text):
        found.add((match.group(2).lower(), match.group(1)))
    for pattern in _EN_DECLARED:
        for match in pattern.finditer(text):
            found.add((match.group(2).lower(), match.group(1)))
    return frozenset(found)


def _chinese_name_before(text: str, position: int) -> str | None:
    """The Chinese name a declaration at ``position`` is of: the last person's name before it
    in its sentence (儿子刘子轩今年九岁，英文名叫Leo), or the one its 的 names (子轩的英文名)."""
    sentence_start = max(text.rfind(mark, 0, position) for mark in "。；;！？!?") + 1
    words = read(text[sentence_start:position]).words
    if len(words) >= 2 and words[-1].surface == "的" and _CJK_NAME.match(words[-2].surface):
        return words[-2].surface  # a name jieba does not tag as one: 子轩的英文名
    names = [w.surface for w in words if w.person and _CJK_NAME.match(w.surface)]
    if names:
        return names[-1]
    # 我儿子叫周浩然: a name jieba cuts as words (浩然 "vast") is still the one 叫 gives
    called = _CALLED.findall(text[sentence_start:position])
    return called[-1] if called else None


def in_pinyin(name: str) -> str:
    """The given name of a Chinese name written by its sound, as one word (刘子轩 → "Zixuan",
    思琪 → "Siqi"); of a Latin one, its last word ("Liu Zixuan" → "Zixuan"). A text that opens
    with it reads as about that person, and a family name alone ("Liu") would be anyone's."""
    if not _CJK_NAME.match(name):
        return name.split()[-1]
    given = name[1:] if len(name) == 3 else name
    sounds = [min(DICTIONARY.readings(character), default="") for character in given]
    if not all(sounds):
        return name
    return "".join(sounds).capitalize()


_OPENING_WORD = re.compile(r"^(\W*)([A-Z][a-z]+)\b")


def opens_with_a_name(text: str) -> bool:
    """Whether ``text`` (English) may open with a name ("Leo quit swimming"; not "My sister
    …", "The …", "Sold the car": a stop word or an inflected verb): only then are declarations
    looked up. The reader cannot tell: "Leo" is a dictionary word."""
    if _OPENING_WORD.match(text) is None or _CJK_ANYWHERE.search(text):
        return False
    words = read(text).words
    if not words:
        return False
    first = words[0]
    common = STOP_WORDS | SELF_WORDS | OTHER_WORDS
    # "Chloe's swimming moved": the reader keeps the possessive's surface on the name
    surface = first.surface.lower().removesuffix("'s").removesuffix("’s")
    return first.norm not in common and first.norm == surface


def opening_name(text: str) -> str | None:
    """The name an English ``text`` may open with ("Chloe" of "Chloe's swimming moved …"), as
    :func:`opens_with_a_name` reads it; None when it opens otherwise."""
    if not opens_with_a_name(text):
        return None
    opening = _OPENING_WORD.match(text)
    return None if opening is None else opening.group(2)


def by_declared_name(text: str, pairs: Iterable[tuple[str, str]]) -> str:
    """``text`` with an English name it opens with written as the declared other name, in
    pinyin ("Leo quit swimming" → "Zixuan quit swimming"), so the rules that read a
    Chinese name written in pinyin see one person. Unchanged when it opens otherwise."""
    opening = _OPENING_WORD.match(text)
    if opening is None or _CJK_ANYWHERE.search(text):
        return text
    other = dict(pairs).get(opening.group(2).lower())
    if other is None:
        return text
    return opening.group(1) + in_pinyin(other) + text[opening.end() :]


# --- a partner's name -------------------------------------------------------------------------
# 我老公叫刘洋, 我太太王芳, "my husband Tom", "my wife, Sarah,": the store gives the user's partner
# a name, and a change told by the name ("刘洋换工作了") is of what was told of "my husband",
# and back (review12 R4). Only a partner (one person at a time), only these plain forms, and in
# Chinese only a full name (a family name first): 我老公是医生 names no one.
PARTNERS = frozenset({"wife", "husband", "partner", "girlfriend", "boyfriend"})
_PARTNER_WORDS = sorted(
    (word for word, relation in RELATIONS.items() if relation in PARTNERS), key=len, reverse=True
)
# Words that may hold a partner's name, for the keyword index (``Lifecycle``).
PARTNER_DECLARING_WORDS = " ".join(_PARTNER_WORDS)
_ZH_PARTNER_WORDS = [word for word in _PARTNER_WORDS if _CJK_ANYWHERE.match(word)]
_EN_PARTNER_WORDS = [word for word in _PARTNER_WORDS if not _CJK_ANYWHERE.match(word)]
_ZH_PARTNER_NAMED = re.compile(
    r"我(?:的)?(" + "|".join(_ZH_PARTNER_WORDS) + r")(?:叫|名叫|是)?([\u3400-\u9fff]{2,3}?)"
    r"(?=[，,、。；;\s（(]|是|今年|的|在|$)"
)
_EN_PARTNER_NAMED = re.compile(
    r"\b(?i:my) (?i:(" + "|".join(_EN_PARTNER_WORDS) + r"))"
    r"(?:,| is called| is named|'s name is)?\s+([A-Z][a-z]+)\b"
)
# "My wife is Li Na (李娜)": after a bare "is" only a full name (two capitalised words, neither
# a nationality: "my wife is Chinese American" names no one) or a name with its Chinese
# characters in brackets; "my wife is German" names no one either (polish14).
_EN_PARTNER_IS = re.compile(
    r"\b(?i:my) (?i:(" + "|".join(_EN_PARTNER_WORDS) + r")) is ([A-Z][a-z]+(?: [A-Z][a-z]+)?)"
    r"(?:\s*[（(]([\u3400-\u9fff]{2,3})[)）])?(?=$|[\s.,;:!?])"
)
_NATIONALITY = re.compile(r"(?:ese|ish|ian|ean|ican)$")
# What after a name makes the text about something of theirs.
_OWNING = ("'s", "’s", "的")
# What a partner is called in a text rewritten to name them as a relation.
_SAID_AS = {"zh": "我{}", "en": "my {}"}


def partners_named(text: str) -> frozenset[tuple[str, str]]:
    """The (relation, name) pairs ``text`` gives the user's partner: {("husband", "刘洋")} for
    我老公叫刘洋，是结构工程师; {("husband", "Tom")} for "My husband Tom works at Boeing"."""
    found: set[tuple[str, str]] = set()
    for match in _ZH_PARTNER_NAMED.finditer(text):
        name = match.group(2)
        if a_full_chinese_name(name):
            found.add((RELATIONS[match.group(1)], name))
    for match in _EN_PARTNER_NAMED.finditer(text):
        name = match.group(2)
        if name.lower() not in STOP_WORDS:
            found.add((RELATIONS[match.group(1).lower()], name))
    for match in _EN_PARTNER_IS.finditer(text):
        relation, name, characters = (
            RELATIONS[match.group(1).lower()],
            match.group(2),
            match.group(3),
        )
        words = name.split()
        if any(w.lower() in STOP_WORDS or _NATIONALITY.search(w) for w in words):
            continue
        if characters is not None:  # a name with its characters: both are theirs
            found.update({(relation, name), (relation, characters)})
        elif len(words) == 2:
            found.add((relation, name))
    return frozenset(found)


def partners_in(store: SqliteStore, namespace: str, most: int) -> frozenset[tuple[str, str]]:
    """Every (relation, name) pair the ``most`` memories the keyword index finds by a partner's
    words give the user's partner (:func:`partners_named`: 我老公叫刘洋): one keyword query."""
    match = match_expression(PARTNER_DECLARING_WORDS)
    if match is None:
        return frozenset()
    hits = store.keyword(match, most, namespace, None)
    stored = store.get_by_rowids([rowid for rowid, _ in hits])
    return frozenset(
        pair for memory in stored.values() for pair in partners_named(memory.record.content)
    )


def by_partners_name(text: str, pairs: Iterable[tuple[str, str]]) -> str:
    """``text`` with the partner's name it opens with written as the relation ("刘洋换工作了"
    → "我老公换工作了"; "Sarah now teaches at Burnaby South" → "My wife now teaches at Burnaby
    South"), so the rules see the person "my husband" / "my wife" names in another text, and
    another person in a text that opens with another name ("Emma now goes to …" beside
    王芳's job, review12 R3). Unchanged when it opens otherwise."""
    for relation, name in pairs:
        start = text.find(name)
        if not text.lstrip().startswith(name) or text[start + len(name) :].startswith(_OWNING):
            # "Tom's parents", 刘洋的同事: someone else of his, whom "my husband's parents"
            # would read as him
            continue
        if _CJK_ANYWHERE.match(name):
            word = next(w for w in _ZH_PARTNER_WORDS if RELATIONS[w] == relation)
            said = _SAID_AS["zh"].format(word)
        else:
            said = _SAID_AS["en"].format(relation).capitalize()
        return text[:start] + said + text[start + len(name) :]
    return text

"""Words that name a kind of thing a person has or does, and the things of that kind.

"Do I have any pets?" shares no word with "I adopted a dog named Bruno", and the bundled
embedder puts "pets" no nearer to "dog" than to "allergic to peanuts" (review10 F4: the dog was
not among the first five). A question that names a kind is answered by a memory that names one
of its members, so recall counts such a memory as holding the kind's word (keyword coverage)
and searches the keyword index for the members too (``recall.Recaller._terms_of_query``).

Only kinds whose members are a short, closed list a person names by the member (a dog, the
piano, 游泳), and only when the question's last line names the kind: a dialogue that mentions
sport in passing is not asking about sport. Hand-written, not a thesaurus: WordNet would need
its data downloaded, and its hyponyms of "sport" or "pet" run to hundreds of words a person
does not say of themselves.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from localmind.cjk import RANGES as _CJK


@dataclass(frozen=True, slots=True)
class Kind:
    """A kind of thing: the words that name it and the words that name its members."""

    name: str
    names: tuple[str, ...]  # "pets", 宠物
    members: tuple[str, ...]  # "dog", 狗


def _kind(name: str, names: str, members: str) -> Kind:
    return Kind(name, tuple(names.split()), tuple(members.split()))


KINDS = (
    _kind(
        "pet",
        "pet pets 宠物",
        "dog dogs puppy cat cats kitten hamster rabbit bunny parrot budgie goldfish turtle "
        "tortoise ferret 狗 猫 仓鼠 兔子 鹦鹉 金鱼 乌龟",
    ),
    _kind(
        "sport",
        "sport sports 运动 体育",
        "swim swimming run running jog jogging climb climbing bouldering tennis football soccer "
        "basketball volleyball badminton yoga pilates cycling hiking padel ski skiing surfing "
        "gym hockey baseball rugby golf boxing karate judo taekwondo fencing rowing skating "
        "snowboarding 游泳 跑步 慢跑 攀岩 爬山 网球 足球 篮球 排球 羽毛球 乒乓球 瑜伽 骑行 健身 "
        "滑雪 冰球 棒球 橄榄球 高尔夫 拳击 跆拳道 击剑 划船 滑冰",
    ),
    _kind(
        "instrument",
        "instrument instruments 乐器",
        "piano guitar violin cello drums flute saxophone ukulele trumpet clarinet harp "
        "钢琴 吉他 小提琴 大提琴 架子鼓 长笛 萨克斯 尤克里里 二胡 古筝 琵琶",
    ),
    _kind(
        "child",
        "kids children 孩子 子女",
        "son daughter sons daughters 儿子 女儿",
    ),
    _kind(
        "sibling",
        "sibling siblings 兄弟姐妹",
        "brother sister brothers sisters 哥哥 姐姐 弟弟 妹妹",
    ),
    _kind(
        "parent",
        "parents 父母",
        "mother father mom dad mum 妈妈 爸爸 母亲 父亲",
    ),
    _kind(
        "language",
        "language languages 语言 外语",
        "english german chinese mandarin cantonese japanese korean spanish french italian "
        "portuguese russian dutch 英语 德语 中文 普通话 粤语 日语 韩语 西班牙语 法语 意大利语",
    ),
)

_IN_CJK = re.compile(f"[{_CJK}]")
#: Words before a kind's name that make it definite: "our pets", "the pets", "Leo's sport" are
#: members the person already knows, and the question asks something else of them ("Which vet
#: do the pets go to now?" is answered by the vet's memory, not by every memory of the dog).
_DEFINITE_EN = re.compile(r"(?:\b(?:my|our|the|his|her|their|your|these|those)|'s)\s+$")
#: ... in Chinese: a possessive or demonstrative just before it (我的宠物, 我们孩子, 这些宠物), or
#: the name opening the question as its subject (孩子最近长高了多少？).
_DEFINITE_ZH = re.compile(r"(?:^|[的我们你他她这那]|这些|那些)$")


def _mentions(kind: Kind) -> re.Pattern[str]:
    """Any name of ``kind``: an English one as a word of its own, a CJK one anywhere."""
    english = "|".join(re.escape(name) for name in kind.names if not _IN_CJK.search(name))
    chinese = "|".join(re.escape(name) for name in kind.names if _IN_CJK.search(name))
    return re.compile(
        "|".join(filter(None, [english and rf"(?<![\w-])(?:{english})(?![\w-])", chinese]))
    )


_MENTIONS = tuple((kind, _mentions(kind)) for kind in KINDS)


def _asked(mention: re.Pattern[str], text: str) -> bool:
    """Whether ``text`` names a kind (``mention``) as one it asks about: not a definite one."""
    for found in mention.finditer(text):
        before = text[max(found.start() - 8, 0) : found.start()]  # "those ", "'s "
        definite = _DEFINITE_ZH if _IN_CJK.match(found.group()) else _DEFINITE_EN
        if not definite.search(before.strip() if definite is _DEFINITE_ZH else before):
            return True
    return False


#: A question: a question mark, a Chinese question word, or an English question's first word.
#: A chat's last line is often a statement ("学校要举办运动会" — a sports day), which asks
#: about no kind.
_QUESTION = re.compile(
    r"[?？]|[吗呢哪几]|什么|多少|^\s*(?:do|does|did|what|which|who|how|any|have|has|is|are|can)\b"
)


def kinds_named(question: str) -> tuple[Kind, ...]:
    """The kinds ``question`` asks about by one of their names ("any pets?", 养了哪些宠物), not
    when the name is definite ("the pets", 我的宠物), nor in a line that asks nothing."""
    text = question.casefold()
    if not _QUESTION.search(text):
        return ()
    return tuple(kind for kind, mention in _MENTIONS if _asked(mention, text))


def in_cjk(word: str) -> bool:
    """Whether ``word`` is written in CJK characters: matched in a memory's text, not its
    index terms (a lone character such as 狗 is indexed only inside bigrams)."""
    return _IN_CJK.search(word) is not None


#: Kinds of things a person does, each its own pursuit: a language course is no change to a
#: sport (review11 Z13: 改学韩语 marked 每周三晚上去游泳 outdated).
ACTIVITIES = frozenset({"sport", "instrument", "language"})
_ENGLISH_WORD = re.compile(r"[a-z]+")


def activities_named(text: str) -> frozenset[str]:
    """The kinds of activity (:data:`ACTIVITIES`) ``text`` names a member of: "I swim on
    Wednesdays" → {sport}, 我开始学韩语了 → {language}. English members as whole words, Chinese
    ones anywhere (游泳 of 游泳课)."""
    folded = text.casefold()
    words = set(_ENGLISH_WORD.findall(folded))
    return frozenset(
        kind.name
        for kind in KINDS
        if kind.name in ACTIVITIES
        and any(member in folded if in_cjk(member) else member in words for member in kind.members)
    )

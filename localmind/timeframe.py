"""The period a recall query is about, read from its dates and time phrases (English and Chinese).

``dateparser`` does the reading: months, weekdays, "two weeks ago", "上个月", "2025年3月5日"...
What it cannot know lives in small tables here: seasons, named holidays (Christmas, 春节, 中秋...;
lunar ones through ``lunardate``), weekends and rolling windows ("the past 3 days", "最近三天").
A few rewrites make Chinese readable to it (Chinese numerals, 上个星期 → 上周, 去年 → 2025年), and a
filter throws away its eager guesses ("may I", "the sun", "3 kids", "June" the person).

Habitual mentions name no period and give ``None``: a bare season ("I like spring", "我喜欢春天"),
a bare weekend, "every March", "每年春节". Seasons are the northern meteorological ones
(spring = March–May, winter = December to February, named by the year it starts in).

Cost: a regex pre-check rejects a query that cannot hold a time phrase without importing
dateparser (about 70 ms to import, about 80 ms more on its first search while it loads its
language data; then well under a millisecond a query).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta, tzinfo
from functools import cache
from typing import Any

from localmind.simplified import reads_simplified
from localmind.statement import IRREGULAR_PAST, SELF_WORDS
from localmind.statement import read as read_statement

__all__ = [
    "TOLD_WITHIN",
    "TimeFrame",
    "is_a_question",
    "might_mention_time",
    "period_told_of",
    "says_habit_or_plan_words",
    "tells_no_doing",
    "time_frame",
    "told_in_the_past",
]


#: How long after a period its memories are still told: on the personal set, 25 of 42 past
#: periods hold an answer's creation date as is, 38 with a week added (14 days: 38, 31 days: 39).
#: Not for a day named by its weekday, a weekend, nor a window around a day ("two weeks ago"):
#: the days after a recent weekday or weekend are days the user names on their own, so what was
#: made on them is mostly their own doings (Saturday's trip is no answer to "what did I do last
#: Friday?", Monday's dentist none to "last weekend"), and "two weeks ago" spans both sides of
#: its day already (docs/design.md, "Weekday questions", "Time questions, round 11").
TOLD_WITHIN = 7 * 86_400.0
_TOLD_AFTER_DAYS = 7


@dataclass(frozen=True, slots=True)
class TimeFrame:
    """A half-open period ``[start, end)`` in epoch seconds, the words of the query that named
    it (several phrases are joined by a space and the frame spans them all), and how long after
    its end a memory may still tell of it (``told_within`` seconds)."""

    start: float
    end: float
    phrase: str
    told_within: float = TOLD_WITHIN

    @property
    def told_until(self) -> float:
        """The end of the span whose memories may be about this period."""
        return self.end + self.told_within

    def may_tell(self, created_at: float) -> bool:
        """Whether a memory made at ``created_at`` may be about this period: made in it, or
        within ``told_within`` after (people tell what happened a day or a week later)."""
        return self.start <= created_at < self.told_until


# --- the cheap pre-check ------------------------------------------------------------------------

_MONTHS = "january|february|march|april|may|june|july|august|september|october|november|december"
_MONTH_ABBREVIATIONS = "jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec"
_WEEKDAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_SEASONS_EN = "spring|summer|autumn|fall|winter"

# Anything that could start a time phrase. It may let an ordinary query through (the parser then
# finds nothing); it must never stop a real one (tests/unit/test_timeframe.py checks every example).
_MIGHT_BE_TIME = re.compile(
    rf"\b(?:{_MONTHS}|{_MONTH_ABBREVIATIONS}|{_WEEKDAYS}|{_SEASONS_EN}|yesterday|today|tonight|"
    r"tomorrow|ago|days?|weeks?|weekends?|months?|years?|night|morning|afternoon|evening|"
    r"christmas|xmas|new\s+year|valentine|halloween|thanksgiving|easter|festival|mid-?autumn|dragon\s+boat)\b"
    r"|\b(?:19|20)\d\d\b|\b\d{1,2}/\d{1,2}\b"
    r"|[年月日号周天春夏秋冬节夕旦昨]|星期|礼拜|圣诞|平安夜|国庆|中秋|端午|清明|今早|今晚",
    re.IGNORECASE,
)


@reads_simplified
def might_mention_time(query: str) -> bool:
    """False when ``query`` cannot hold a time phrase (then ``time_frame`` is None, and cheap)."""
    return _MIGHT_BE_TIME.search(query) is not None


#: Words that ask how things stand now ("what car do I drive now?", "do I still drink tea?",
#: "我现在多重？"): of two memories about it, the later one is the answer. Not 还是, which is as
#: often "or" ("茶还是咖啡？") as "still".
_ASKS_ABOUT_NOW = re.compile(
    r"\b(?:now|currently|current|these days|still|anymore|any more|latest)\b"
    r"|现在|目前|如今|还在|最近",
    re.IGNORECASE,
)


@reads_simplified
def asks_about_now(question: str) -> bool:
    """Whether ``question`` asks how things stand at present (not about a period: see
    ``time_frame``)."""
    return _ASKS_ABOUT_NOW.search(question) is not None


@reads_simplified
def words_about_now(question: str) -> list[str]:
    """The words of ``question`` that ask how things stand at present ("now", 现在), as
    written, in order."""
    return [match.group(0) for match in _ASKS_ABOUT_NOW.finditer(question)]


#: Words that ask about an earlier time without naming a period ("Who was my manager at Otto?",
#: "Where did I live before?", "我以前住在哪里？"): what a change replaced may be the answer.
_ASKS_ABOUT_THE_PAST = re.compile(
    r"\b(?:was|were|used to|before|previously|formerly|earlier|did|had)\b"
    r"|以前|之前|原来|曾经|过去|从前|当时|那时",
    re.IGNORECASE,
)


#: A question rather than a statement ("what did I do last weekend", 昨天我干了什么？), not a
#: chat turn that tells ("他今天又在课上捉弄人了").
_A_QUESTION = re.compile(
    r"[?？]|^\s*(?:what|where|when|who|which|how|did|do|was|were)\b|什么|哪|吗|谁|怎么|几",
    re.IGNORECASE,
)


@reads_simplified
def is_a_question(line: str) -> bool:
    """Whether ``line`` asks something (a question mark, or a question word)."""
    return _A_QUESTION.search(line) is not None


@reads_simplified
def asks_about_the_past(question: str) -> bool:
    """Whether ``question`` asks how things were at some earlier time, with or without naming
    a period (see ``time_frame``), and not how they stand now (``asks_about_now`` wins:
    "what do I drive now that I sold the car I had?")."""
    return _ASKS_ABOUT_THE_PAST.search(question) is not None and not asks_about_now(question)


#: A season's name: said of habits and conditions as often as of the season's events ("a
#: pollen allergy in spring", 我冬天怕冷), unlike a holiday's or a day's name, which a memory
#: names when it tells of that occasion ("Spent Easter in Lisbon").
_NAMES_A_SEASON = re.compile(rf"\b(?:{_SEASONS_EN})\b|[春夏秋冬][天季]", re.IGNORECASE)


#: A period named only by where it lies from the day it is said ("today", "last month", "a week
#: ago", 上个月, 昨天), with no name of its own (a month, a holiday, a weekday, a date).
_FROM_THE_DAY = re.compile(
    r"(?:\s|in|on|during|over|of|for|the|this|last|past|previous|recent|yesterday|today|"
    r"tonight|night|morning|afternoon|evening|day|days|week|weeks|weekend|month|months|year|"
    r"years|ago|a|one|two|three|few|couple)+"
    r"|[今昨前去上本这那个一两几半][天晚早周月年]?(?:[天晚早周月年]|星期|礼拜|个月|个星期|上|下午|晚上)*"
    r"|[一二两三四五六七八九十几半]+(?:天|周|个月|年|个星期)前",
    re.IGNORECASE,
)


@reads_simplified
def named_from_the_day(phrase: str) -> bool:
    """Whether ``phrase`` names its period only by where it lies from the day it is said
    ("today", "last month", 上个月): the same words in a memory name another period, read from
    the day it was told (review11 Z15, Z17). Not a named period ("Thanksgiving last year",
    "on October 6, 2022", 七月底), which a memory names as the question does."""
    return _FROM_THE_DAY.fullmatch(phrase.strip()) is not None


@reads_simplified
def names_a_season(phrase: str) -> bool:
    """Whether a time phrase names its period by a season ("last spring", 今年春天)."""
    return _NAMES_A_SEASON.search(phrase) is not None


# --- the text, rewritten so dateparser can read it, remembering where each character came from ---


class _Text:
    """The query as rewritten; character ``i`` came from ``query[first[i] : last[i] + 1]``, so a
    phrase is reported in the user's own words."""

    def __init__(self, query: str) -> None:
        self.query = query
        self.text = query
        self.first = list(range(len(query)))
        self.last = list(range(len(query)))

    def sub(self, pattern: re.Pattern[str], replace: Callable[[re.Match[str]], str]) -> None:
        parts: list[str] = []
        first: list[int] = []
        last: list[int] = []
        cursor = 0
        for match in pattern.finditer(self.text):
            at, to = match.span()
            new = replace(match)
            parts += [self.text[cursor:at], new]
            # Every new character stands for the whole replaced span.
            first += self.first[cursor:at] + [self.first[at]] * len(new)
            last += self.last[cursor:at] + [self.last[to - 1]] * len(new)
            cursor = to
        parts.append(self.text[cursor:])
        self.text = "".join(parts)
        self.first = first + self.first[cursor:]
        self.last = last + self.last[cursor:]

    def blank(self, at: int, to: int) -> None:
        """Spend ``[at, to)``: later readers see spaces there."""
        self.text = self.text[:at] + " " * (to - at) + self.text[to:]

    def words(self, at: int, to: int) -> str:
        return self.query[self.first[at] : self.last[to - 1] + 1]


_ZH_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5}
_ZH_DIGITS |= {"六": 6, "七": 7, "八": 8, "九": 9}
_ZH_NUMBER = re.compile(
    r"[零〇一二两三四五六七八九十]+(?=个?(?:天|日|号|周|星期|礼拜|月|年(?![级纪轻龄])))"
)


def _zh_number(numerals: str) -> str:
    """二〇二五 → 2025, 十二 → 12, 二十三 → 23, 三 → 3 (what dates and durations need); 两三 ("two
    or three") → 3."""
    if len(numerals) == 2 and "十" not in numerals:
        low, high = (_ZH_DIGITS[c] for c in numerals)
        if high == low + 1:
            return str(high)
    if "十" not in numerals:
        return "".join(str(_ZH_DIGITS[c]) for c in numerals)
    tens, _, ones = numerals.partition("十")
    return str(_ZH_DIGITS.get(tens, 1) * 10 + _ZH_DIGITS.get(ones, 0))


_POSSESSIVE = re.compile(r"\b(yesterday|today|tonight|tomorrow|week|month)'s\b", re.IGNORECASE)
# Vague phrases said in words dateparser reads: "a couple of weeks ago" is about two weeks ago,
# "the other day" and "前几天" some day of the past week.
_VAGUE: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\b(?:a\s+)?couple\s+(?:of\s+)?(?=(?:weeks|months|years)\s+ago\b)", re.I), "2 "),
    (re.compile(r"\b(?:a\s+)?few\s+(?=(?:weeks|months|years)\s+ago\b)", re.I), "3 "),
    (
        re.compile(r"\b(?:a\s+(?:few|couple\s+of)\s+days\s+ago|the\s+other\s+day)\b", re.I),
        "the past 7 days",
    ),
    (re.compile(r"\blast\s+night\b", re.I), "yesterday"),
    (re.compile(r"\bthis\s+(?:morning|afternoon|evening)\b", re.I), "today"),
    (re.compile(r"前几天|几天前|这几天"), "最近7天"),
    (re.compile(r"几个?(?:周|星期|礼拜)前"), "3周前"),
    (re.compile(r"几个?(?=月前)"), "3个"),
    (re.compile(r"半年前"), "6个月前"),
    (re.compile(r"昨晚|昨夜"), "昨天"),
    (re.compile(r"今早|今晚"), "今天"),
)
_MONTH_RELATIVE_YEAR = re.compile(
    rf"\b(?P<month>{_MONTHS})\s+(?:of\s+)?(?P<relative>this|last|next)\s+year\b", re.IGNORECASE
)
_RELATIVE_YEAR = {"last": -1, "this": 0, "next": 1}
_ZH_RELATIVE_YEARS = {"前年": -2, "去年": -1, "今年": 0, "明年": 1}
_ZH_SYNONYMS = {
    "上个星期": "上周",
    "上个礼拜": "上周",
    "上礼拜": "上周",
    "这个星期": "本周",
    "这个礼拜": "本周",
    "这星期": "本周",
    "这周": "本周",
    "下个星期": "下周",
    "下个礼拜": "下周",
    "这个月": "本月",
}


# Fixed rewrites, in order: 3月份 → 3月, 5号 → 5日 (not 2号楼), 周一 → 星期一, 上个星期 → 上周...
_ZH_REWRITES: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    (_ZH_NUMBER, lambda m: _zh_number(m.group())),
    # 民国114年 (民國, Taiwan's Republic of China years, read after the Simplified fold) is 2025年
    (re.compile(r"民国\s*(\d{1,3})\s*年"), lambda m: f"{int(m.group(1)) + 1911}年"),
    (re.compile(r"(?<=\d)个?(?:星期|礼拜)(?=前)"), lambda m: "周"),
    (re.compile(r"(?<=\d)月份"), lambda m: "月"),
    (re.compile(r"(?<=\d)号(?![楼码线房车床门位桌座院栋室])"), lambda m: "日"),
    (re.compile(r"(?:周|礼拜)(?=[一二三四五六日天])"), lambda m: "星期"),
    (
        # not before a weekday: 上个星期五 is a day (see _ZH_WEEKDAY_PATTERN), 上个星期 a week
        re.compile(
            f"(?:{'|'.join(sorted(_ZH_SYNONYMS, key=len, reverse=True))})"
            "(?![饼亮光球一二三四五六日天])"
        ),
        lambda m: _ZH_SYNONYMS[m.group()],
    ),
    (re.compile(r"上星期(?![一二三四五六日天])"), lambda m: "上周"),
)
_ZH_RELATIVE_YEAR = re.compile(r"(?<!\d)(前年|去年|今年|明年)")


def _say(words: str) -> Callable[[re.Match[str]], str]:
    return lambda _match: words


def _normalise(text: _Text, year: int) -> None:
    """Chinese the way dateparser reads it: digits, 上周 for 上个星期, 星期一 for 周一, an explicit
    year for 去年, no 份 in 3月份; and "tomorrow" for "tomorrow's"."""
    text.sub(_POSSESSIVE, lambda m: m.group(1))
    for vague, said in _VAGUE:
        text.sub(vague, _say(said))
    text.sub(  # "February this year": dateparser reads the year and drops the month
        _MONTH_RELATIVE_YEAR,
        lambda m: f"{m['month']} {year + _RELATIVE_YEAR[m['relative'].lower()]}",
    )
    for pattern, replace in _ZH_REWRITES:
        text.sub(pattern, replace)
    text.sub(_ZH_RELATIVE_YEAR, lambda m: f"{year + _ZH_RELATIVE_YEARS[m.group()]}年")


# --- what dateparser cannot know: seasons, holidays, weekends, rolling windows -----------------

Days = tuple[date, date]  # [first, last): whole days


@dataclass(frozen=True, slots=True)
class _Found:
    days: Days
    at: int
    to: int
    told_after: int = _TOLD_AFTER_DAYS  # days after the period a memory may still tell of it

    def told_until(self) -> date:
        return self.days[1] + timedelta(days=self.told_after)


def _lunar(year: int, month: int, day: int) -> date:
    from lunardate import LunarDate

    return LunarDate(year, month, day).to_solar_date()


def _spring_festival(year: int) -> Days:
    new_year = _lunar(year, 1, 1)  # 除夕 to 初六: the week off
    return new_year - timedelta(days=1), new_year + timedelta(days=7)


def _nth_weekday(month: int, weekday: int, nth: int, length: int = 1) -> Callable[[int], Days]:
    """The ``nth`` Monday (0), ..., Sunday (6) of ``month``: Thanksgiving, Mother's Day..."""

    def window(year: int) -> Days:
        first = date(year, month, 1)
        day = first + timedelta(days=(weekday - first.weekday()) % 7 + 7 * (nth - 1))
        return day, day + timedelta(days=length)

    return window


def _easter(year: int) -> Days:
    from dateutil.easter import easter

    sunday = easter(year)
    return sunday - timedelta(days=2), sunday + timedelta(days=2)  # Good Friday to Easter Monday


def _days(month: int, day: int, length: int = 1, year_offset: int = 0) -> Callable[[int], Days]:
    def window(year: int) -> Days:
        first = date(year + year_offset, month, day)
        return first, first + timedelta(days=length)

    return window


def _lunar_day(month: int, day: int) -> Callable[[int], Days]:
    def window(year: int) -> Days:
        first = _lunar(year, month, day)
        return first, first + timedelta(days=1)

    return window


def _eve_of_spring_festival(year: int) -> Days:
    eve = _lunar(year, 1, 1) - timedelta(days=1)
    return eve, eve + timedelta(days=1)


# Longest names first where one contains another ("christmas eve" before "christmas").
_HOLIDAYS: tuple[tuple[str, Callable[[int], Days]], ...] = (
    (r"(?:chinese|lunar)\s+new\s+year'?s\s+eve|除夕|大年三十", _eve_of_spring_festival),
    (r"christmas\s+eve|平安夜", _days(12, 24)),
    (r"christmas|xmas|圣诞节?", _days(12, 24, 3)),
    (r"new\s+year'?s\s+eve|跨年", _days(12, 31)),
    (
        r"(?:chinese|lunar)\s+new\s+year|spring\s+festival|春节|过年|大年初一|农历新年",
        _spring_festival,
    ),
    (r"new\s+year'?s?(?:\s+day)?|元旦|新年", _days(12, 31, 2, year_offset=-1)),
    (r"valentine'?s(?:\s+day)?|情人节", _days(2, 14)),
    (r"halloween|万圣节", _days(10, 31)),
    (r"thanksgiving|感恩节", _nth_weekday(11, 3, 4, length=4)),  # Thursday to Sunday
    (r"black\s+friday|黑色星期五|黑五", _nth_weekday(11, 4, 4)),
    (r"mother'?s\s+day|母亲节", _nth_weekday(5, 6, 2)),
    (r"father'?s\s+day|父亲节", _nth_weekday(6, 6, 3)),
    (r"(?:the\s+)?fourth\s+of\s+july|independence\s+day|july\s+4th", _days(7, 4)),
    (r"元宵节?|lantern\s+festival", _lunar_day(1, 15)),
    (r"easter|复活节", _easter),
    (r"mid-?autumn(?:\s+festival)?|moon\s+festival|中秋节?", _lunar_day(8, 15)),
    (r"dragon\s+boat(?:\s+festival)?|端午节?", _lunar_day(5, 5)),
    (r"七夕", _lunar_day(7, 7)),
    (r"国庆节?|national\s+day\s+holiday", _days(10, 1, 7)),
    (r"清明节?", _days(4, 4, 3)),
)

_SEASON_MONTH = {"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12}
_SEASON_MONTH |= {"春": 3, "夏": 6, "秋": 9, "冬": 12}


def _season(name: str) -> Callable[[int], Days]:
    first_month = _SEASON_MONTH[name.lower()]

    def window(year: int) -> Days:
        end_year, end_month = (year + 1, 3) if first_month == 12 else (year, first_month + 3)
        return date(year, first_month, 1), date(end_year, end_month, 1)

    return window


_YEAR = r"(?:19|20)\d\d"
_EN_MODIFIER = r"(?:(?P<mod>last|this|next|past)\s+)"
_EN_YEAR_AFTER = (
    rf"(?:,?\s+(?:of\s+)?(?:(?P<year_after>{_YEAR})\b|(?P<relative_year>this|last|next)\s+year\b))"
)
_ZH_YEAR_BEFORE = rf"(?:(?P<year_before>{_YEAR})年的?)"
_HABITUAL = re.compile(r"(?:\b(?:every|each)\s+(?:the\s+)?|每年?的?)$", re.IGNORECASE)


def _holiday_pattern(names: str) -> re.Pattern[str]:
    return re.compile(
        rf"(?:{_EN_MODIFIER}|{_ZH_YEAR_BEFORE})?(?<![A-Za-z])(?P<name>{names})(?:'s|s)?{_EN_YEAR_AFTER}?",
        re.IGNORECASE,
    )


_HOLIDAY_PATTERNS = tuple((_holiday_pattern(names), window) for names, window in _HOLIDAYS)
# A season is a period only with a year or "last/this/next": "in summer" is a habit, not a date.
_SEASON_PATTERN = re.compile(
    rf"\b{_EN_MODIFIER}(?P<name>{_SEASONS_EN})\b"
    rf"|\b(?:the\s+)?(?P<name2>{_SEASONS_EN}){_EN_YEAR_AFTER}"
    rf"|{_ZH_YEAR_BEFORE}(?P<name3>[春夏秋冬])(?:天|季)",
    re.IGNORECASE,
)
_WEEKEND_PATTERN = re.compile(
    r"\b(?P<mod>last|this|next|past)\s+weekend\b|(?P<zh>上上个?|上个?|这个?|本|下个?)周末",
    re.IGNORECASE,
)
_ZH_WEEK_OFFSET = {"上上": -2, "上上个": -2, "上": -1, "上个": -1, "这": 0, "这个": 0, "本": 0}
_ZH_WEEK_OFFSET |= {"下": 1, "下个": 1}
_ZH_WEEKDAY = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
# A weekday of a named week (周五 reads 星期五 by now): 上周五 is last week's Friday, 这周五 and
# 本周五 this week's (a plan, if it is still to come), 上上周五 the Friday of the week before.
_ZH_WEEKDAY_PATTERN = re.compile(
    rf"(?P<zh>{'|'.join(sorted(_ZH_WEEK_OFFSET, key=len, reverse=True))})"
    r"星期(?P<day>[一二三四五六日天])"
)
# The week before last (上上个星期 and 上上礼拜 read 上上周 by now); 上周 and 本周 dateparser reads.
_WEEK_BEFORE_LAST = re.compile(
    r"上上周(?![末一二三四五六日天])|\bthe\s+week\s+before\s+last\b", re.I
)
_WEEKEND_BEFORE_LAST = re.compile(r"\bthe\s+weekend\s+before\s+last\b", re.IGNORECASE)
_WEEKDAY_BEFORE_LAST = re.compile(rf"\bthe\s+(?P<day>{_WEEKDAYS})\s+before\s+last\b", re.I)
#: Table patterns that name days by their weekday: one day, or a weekend (Saturday and Sunday of
#: that week). No memories told after them count (TOLD_WITHIN): the days after a recent weekend
#: are weekdays the user names on their own, and Monday's dentist is no answer to "what did I
#: do last weekend?" (review10 F15).
_WEEKDAY_PATTERNS = frozenset(
    {_ZH_WEEKDAY_PATTERN, _WEEKDAY_BEFORE_LAST, _WEEKEND_PATTERN, _WEEKEND_BEFORE_LAST}
)
_EN_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_EN_NUMBERS |= {"seven": 7, "eight": 8, "nine": 9, "ten": 10, "few": 3, "couple of": 2}
_UNIT_DAYS = {"day": 1, "week": 7, "month": 30, "year": 365}
_UNIT_DAYS |= {"天": 1, "日": 1, "周": 7, "星期": 7, "礼拜": 7, "月": 30, "年": 365}
_ROLLING_PATTERN = re.compile(
    rf"\b(?:the\s+)?(?:past|last)\s+(?P<n>\d+|couple\s+of|{'|'.join(_EN_NUMBERS)})\s+"
    r"(?P<unit>day|week|month|year)s\b"
    r"|\bthe\s+(?:past|last)\s+(?P<unit1>day|week|month|year)\b"
    r"|(?:最近|过去|近)的?(?P<zn>\d+)个?(?P<zunit>天|日|周|星期|礼拜|月|年)",
    re.IGNORECASE,
)


# A week of a month: "the first week of November", "the last week of last month", 11月第一周 (第1周
# by now), 上个月最后一周. Days 1-7, 8-14, 15-21, 22-28, or the month's last seven: read as the
# whole month, the memories told in the rest of it were "in the period" and answered first
# (review13 J13). Before _ROLLING_PATTERN, which would read "the last week" as the past seven days.
_EN_NTH_WEEK = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3}
_EN_NTH_WEEK |= {"fourth": 4, "4th": 4, "last": 0, "final": 0}
_ZH_MONTH_OFFSET = {"上上个": -2, "上上": -2, "上个": -1, "上": -1, "本": 0, "下个": 1, "下": 1}
_WEEK_OF_MONTH_PATTERN = re.compile(
    rf"\b(?:the\s+)?(?P<nth>{'|'.join(_EN_NTH_WEEK)})\s+week\s+of\s+"
    rf"(?:(?P<mod>last|this|next)\s+month|(?:the\s+)?(?P<month>{_MONTHS}|{_MONTH_ABBREVIATIONS})"
    rf"\.?(?:,?\s+(?P<year>{_YEAR}))?)\b"
    rf"|(?:(?P<zyear>{_YEAR})年)?(?:(?P<zmonth>\d{{1,2}})|(?P<zmod>上上个?|上个?|本|下个?))月(?:份)?的?"
    r"(?:第(?P<zn>[1-4])个?|(?P<zlast>最后)1个?)(?:周|星期|礼拜)",
    re.IGNORECASE,
)


def _week_of_month_days(match: re.Match[str], today: date) -> Days:
    if match["zn"] or match["zlast"]:
        nth = int(match["zn"]) if match["zn"] else 0
        offset, named, year = (
            _ZH_MONTH_OFFSET.get(match["zmod"] or ""),
            match["zmonth"],
            match["zyear"],
        )
    else:
        nth = _EN_NTH_WEEK[match["nth"].lower()]
        relative = match["mod"]
        offset = {"last": -1, "this": 0, "next": 1}[relative.lower()] if relative else None
        named, year = match["month"], match["year"]
    if offset is not None:  # last month, 上个月
        months = today.year * 12 + today.month - 1 + offset
        first = date(months // 12, months % 12 + 1, 1)
    else:
        number = int(named) if named.isdigit() else _month_number(named)
        # without a year, the latest such month that has begun (a week asked about is past)
        start_year = int(year) if year else today.year - (number > today.month)
        first = date(start_year, number, 1)
    end = date(first.year + first.month // 12, first.month % 12 + 1, 1)
    if nth == 0:
        return end - timedelta(days=7), end
    start = first + timedelta(days=7 * (nth - 1))
    return start, start + timedelta(days=7)


# "a Sunday in March", 三月的一个周日: some day of that month, which one is not said (polish15:
# dateparser read it as the first Sunday of March, one day).
_A_WEEKDAY_IN_A_MONTH = re.compile(
    rf"\b(?:a|one|some)\s+(?:{_WEEKDAYS})\s+(?:in|of)\s+(?:the\s+)?"
    rf"(?P<month>{_MONTHS}|{_MONTH_ABBREVIATIONS})\.?(?:,?\s+(?P<year>{_YEAR}))?\b"
    rf"|(?:(?P<zyear>{_YEAR})年)?(?P<zmonth>\d{{1,2}})月(?:份)?(?:里|中)?的?(?:某?[一1]个|某个?)"
    r"(?:周|星期|礼拜)[一二三四五六日天]",
    re.IGNORECASE,
)


def _a_weekday_in_a_month_days(match: re.Match[str], today: date) -> Days:
    named, year = match["month"] or match["zmonth"], match["year"] or match["zyear"]
    number = int(named) if named.isdigit() else _month_number(named)
    # without a year, the latest such month that has begun (as a week of a month is read)
    first = date(int(year) if year else today.year - (number > today.month), number, 1)
    return first, date(first.year + first.month // 12, first.month % 12 + 1, 1)


def _month_number(name: str) -> int:
    """January → 1, "sept" → 9."""
    prefix = name.lower()[:3]
    return next(i for i, month in enumerate(_MONTHS.split("|"), start=1) if month[:3] == prefix)


def _recurring(
    window: Callable[[int], Days], modifier: str | None, year: int | None, today: date
) -> Days:
    """The occurrence of a yearly period that a modifier or year picks; without either, the most
    recent one that has begun."""
    if year is not None:
        return window(year)
    modifier = (modifier or "").lower()
    if modifier == "this":
        current = window(today.year - 1)  # a winter that began last December is "this winter"
        return current if current[0] <= today < current[1] else window(today.year)
    if modifier == "next":
        return next(window(y) for y in range(today.year, today.year + 3) if window(y)[0] > today)
    ended = modifier in ("last", "past")  # "last spring" is one that is over
    return next(
        window(y)
        for y in range(today.year, today.year - 3, -1)
        if (window(y)[1] <= today if ended else window(y)[0] <= today)
    )


def _year_of(match: re.Match[str], today: date) -> int | None:
    found = match.groupdict()
    if found.get("relative_year"):  # "Thanksgiving last year"
        return today.year + _RELATIVE_YEAR[found["relative_year"].lower()]
    text = found.get("year_after") or found.get("year_before")
    return int(text) if text else None


def _monday(day: date) -> date:
    return day - timedelta(days=day.weekday())


def _holiday_days(window: Callable[[int], Days]) -> Callable[[re.Match[str], date], Days]:
    def read(match: re.Match[str], today: date) -> Days:
        return _recurring(window, match["mod"], _year_of(match, today), today)

    return read


def _season_days(match: re.Match[str], today: date) -> Days:
    name = match["name"] or match["name2"] or match["name3"]
    return _recurring(_season(name), match["mod"], _year_of(match, today), today)


def _weekend_days(match: re.Match[str], today: date) -> Days:
    if match["zh"]:
        offset = _ZH_WEEK_OFFSET[match["zh"]]
    else:
        offset = {"last": -1, "past": -1, "this": 0, "next": 1}[match["mod"].lower()]
    saturday = _monday(today) + timedelta(days=7 * offset + 5)
    return saturday, saturday + timedelta(days=2)


def _zh_weekday_days(match: re.Match[str], today: date) -> Days:
    day = _monday(today) + timedelta(
        days=7 * _ZH_WEEK_OFFSET[match["zh"]] + _ZH_WEEKDAY[match["day"]]
    )
    return day, day + timedelta(days=1)


def _week_before_last(_match: re.Match[str], today: date) -> Days:
    monday = _monday(today) - timedelta(days=14)
    return monday, monday + timedelta(days=7)


def _weekend_before_last(_match: re.Match[str], today: date) -> Days:
    saturday = _monday(today) - timedelta(days=14 - 5)
    return saturday, saturday + timedelta(days=2)


def _weekday_before_last(match: re.Match[str], today: date) -> Days:
    """ "the Friday before last": the one before the latest Friday that has passed."""
    weekday = _WEEKDAYS.split("|").index(match["day"].lower())
    last = today - timedelta(days=(today.weekday() - weekday - 1) % 7 + 1)
    day = last - timedelta(days=7)
    return day, day + timedelta(days=1)


def _rolling_days(match: re.Match[str], today: date) -> Days:
    count = re.sub(r"\s+", " ", (match["n"] or match["zn"] or "1").lower())
    unit = (match["unit"] or match["unit1"] or match["zunit"]).lower()
    length = (int(count) if count.isdigit() else _EN_NUMBERS[count]) * _UNIT_DAYS[unit]
    return today - timedelta(days=length), today + timedelta(days=1)


_TABLE = (
    *((pattern, _holiday_days(window)) for pattern, window in _HOLIDAY_PATTERNS),
    (_SEASON_PATTERN, _season_days),
    (_WEEK_OF_MONTH_PATTERN, _week_of_month_days),
    (_A_WEEKDAY_IN_A_MONTH, _a_weekday_in_a_month_days),
    (_WEEKEND_PATTERN, _weekend_days),
    (_ZH_WEEKDAY_PATTERN, _zh_weekday_days),
    (_WEEK_BEFORE_LAST, _week_before_last),
    (_WEEKEND_BEFORE_LAST, _weekend_before_last),
    (_WEEKDAY_BEFORE_LAST, _weekday_before_last),
    (_ROLLING_PATTERN, _rolling_days),
)


def _table_spans(text: _Text, today: date) -> list[_Found]:
    found: list[_Found] = []
    for pattern, read in _TABLE:
        told_after = 0 if pattern in _WEEKDAY_PATTERNS else _TOLD_AFTER_DAYS
        for match in pattern.finditer(text.text):
            if _HABITUAL.search(text.text[: match.start()]):
                continue
            try:
                days = read(match, today)
            except (ValueError, OverflowError, StopIteration):  # "最近2025年", lunar year 2100
                continue
            found.append(_Found(days, *match.span(), told_after))
            text.blank(*match.span())
    return found


# --- what dateparser reads, and the filter for its eager guesses -------------------------------

# Words that make a month name (or a bare year) a date rather than a verb, a name or a number.
_DATE_CONTEXT = (
    r"in|on|last|this|next|since|during|early|late|mid|of|until|till|before|after|from|through|"
    r"by|that|back\s+in"
)
_MONTH_NAME = rf"(?:{_MONTHS}|{_MONTH_ABBREVIATIONS})\.?"
_EN_DATE = re.compile(
    r"\b(?:yesterday|today|tonight|tomorrow|ago)\b"
    rf"|\b(?:last|this|next)\s+(?:week|month|year|{_WEEKDAYS})\b"
    rf"|\b(?:{_WEEKDAYS})\b(?!s)"
    r"|\b\d{1,2}/\d{1,2}(?:/\d{2,4})?\b|\b\d{4}-\d{1,2}(?:-\d{1,2})?\b"
    rf"|\b(?:{_DATE_CONTEXT})\s+(?:the\s+)?(?:early\s+|late\s+|mid-?)?(?:{_MONTHS}|{_YEAR})\b"
    rf"|\b{_MONTH_NAME}\s+\d{{1,2}}(?:st|nd|rd|th)?\b|\b{_MONTH_NAME},?\s+{_YEAR}\b"
    rf"|\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH_NAME}",
    re.IGNORECASE,
)
_ZH_PHRASE = re.compile(
    r"\d{4}年(?:\d{1,2}月(?![饼亮光球])(?:\d{1,2}日)?)?|\d{1,2}月(?![饼亮光球])(?:\d{1,2}日)?"
    r"|\d+个?(?:天|周|星期|月|年)前|[昨今明]天|大?前天|后天|(?<!上)[上本下]周(?!末)|[上下]个?月|本月"
    r"|星期[一二三四五六日天]"
)
_AGO = re.compile(r"\bago\b|前$")
_NAMES_A_WEEKDAY = re.compile(rf"\b(?:{_WEEKDAYS})\b|星期[一二三四五六日天]", re.IGNORECASE)
_WEEKDAY_ONLY = re.compile(rf"(?:on\s+)?(?:{_WEEKDAYS})|星期[一二三四五六日天]", re.IGNORECASE)
# A habit is told of a bare weekday ("what do I usually do on Friday?", "周日一般去哪里钓鱼？").
_USUALLY = re.compile(
    r"\b(?:usually|normally|typically|generally|often|always|tend\s+to)\b"
    r"|一般|通常|常常|经常|平时|总是|往往",
    re.IGNORECASE,
)


def _habitual_weekday(text: _Text, at: int, to: int) -> bool:
    """Whether ``text[at:to]`` is a bare weekday in a question about a habit."""
    return bool(_WEEKDAY_ONLY.fullmatch(text.text[at:to].strip())) and bool(
        _USUALLY.search(text.query)
    )


_ZH_MONTH_DAY = re.compile(r"(\d{1,2})月(\d{1,2})日")


@cache
def _search() -> tuple[Any, Any]:
    """dateparser, imported on first need: it costs about 70 ms."""
    from dateparser.date import DateDataParser
    from dateparser.search import search_dates

    return search_dates, DateDataParser


def _settings(clock: datetime) -> dict[str, Any]:
    return {
        "RELATIVE_BASE": clock.replace(tzinfo=None),
        "PREFER_DATES_FROM": "past",
        "RETURN_TIME_AS_PERIOD": True,
    }


def _is_date(text: str, at: int, to: int) -> bool:
    """Whether dateparser's guess at ``text[at:to]`` is meant as a date: it reads "may I", "march
    on", "the sun", "3 kids" and "June" the person as dates."""
    before = text[max(0, at - 12) : at]
    phrase = text[at:to]
    if _HABITUAL.search(before):
        return False
    previous_word = re.search(r"[A-Za-z]+(?:\s+in)?\s*$", before)
    context = (previous_word.group() if previous_word else "") + phrase
    return _EN_DATE.search(context) is not None


def _read(phrase: str, clock: datetime) -> tuple[date, str] | None:
    """dateparser's date and its granularity (day, week, month, year) for one phrase."""
    _, parser_class = _search()
    parser = parser_class(languages=["en", "zh"], settings=_settings(clock))
    if year := re.fullmatch(rf"({_YEAR})年", phrase.strip()):  # dateparser reads it as year 1
        return date(int(year[1]), 1, 1), "year"
    if phrase.startswith("上星期"):
        phrase = phrase.removeprefix("上")
    if _ZH_MONTH_DAY.fullmatch(phrase.strip()):  # no year: the most recent such day
        for year_number in (clock.year, clock.year - 1):
            read = parser.get_date_data(f"{year_number}年{phrase.strip()}")
            if read.date_obj and read.date_obj.date() <= clock.date():
                return read.date_obj.date(), "day"
        return None
    read = parser.get_date_data(phrase)
    if read.date_obj is None or not 1900 <= read.date_obj.year <= 2200:
        return None
    return read.date_obj.date(), read.period or "day"


def _around(period: str, phrase: str) -> bool:
    """Whether the phrase names a window of one unit around a day ("two weeks ago")."""
    return period in ("week", "month", "year") and _AGO.search(phrase) is not None


def _window(day: date, period: str, phrase: str) -> Days:
    if _around(period, phrase):
        half = _UNIT_DAYS[period] // 2  # "two weeks ago": a window of one unit around it
        return day - timedelta(days=half), day + timedelta(days=_UNIT_DAYS[period] - half)
    if period == "week":
        return _monday(day), _monday(day) + timedelta(days=7)
    if period == "month":
        first = day.replace(day=1)
        return first, (first + timedelta(days=32)).replace(day=1)
    if period == "year":
        return date(day.year, 1, 1), date(day.year + 1, 1, 1)
    return day, day + timedelta(days=1)


def _read_span(text: _Text, at: int, to: int, clock: datetime) -> _Found | None:
    phrase = text.text[at:to]
    if (read := _read(phrase, clock)) is None:
        return None
    day, period = read
    days = _window(day, period, phrase)
    before = text.text[:at]
    last = re.search(r"\blast\s+$", before, re.IGNORECASE)
    if last and days[0] <= clock.date() < days[1]:
        # "last March" in March is a year ago (dateparser alone does not read "last March").
        days = _window(day.replace(year=day.year - 1), period, phrase)
    if last:
        at = last.start()
    # A weekday's own memories only, and none after "two weeks ago"'s window (see TOLD_WITHIN).
    own_day = period == "day" and _NAMES_A_WEEKDAY.search(phrase) is not None
    told_after = 0 if own_day or _around(period, phrase) else _TOLD_AFTER_DAYS
    return _Found(days, at, to, told_after)


def _read_safely(text: _Text, at: int, to: int, clock: datetime) -> _Found | None:
    try:
        return _read_span(text, at, to, clock)
    except (ValueError, OverflowError):  # "last February 29" read in a leap year, year 9999
        return None


def _dateparser_spans(text: _Text, clock: datetime) -> list[_Found]:
    """dateparser reads what it finds. Its search cannot find Chinese phrases (it splits
    "2025年12月" wrongly or drops it), so those are found by ``_ZH_PHRASE`` and only read by it."""
    found: list[_Found] = []
    for match in _ZH_PHRASE.finditer(text.text):
        if _HABITUAL.search(text.text[: match.start()]):
            continue
        if _habitual_weekday(text, *match.span()):
            continue
        if (span := _read_safely(text, *match.span(), clock)) is not None:
            found.append(span)
            text.blank(*match.span())
    if not re.search(r"[A-Za-z0-9]", text.text):
        return found
    search_dates, _ = _search()
    try:
        guesses = search_dates(text.text, languages=["en"], settings=_settings(clock)) or ()
    except (ValueError, OverflowError):  # a date beyond what datetime holds
        return found
    cursor = 0
    for phrase, _ in guesses:
        at = text.text.find(phrase, cursor)
        if at < 0:
            continue
        cursor = at + len(phrase)
        if _habitual_weekday(text, at, cursor) or not _is_date(text.text, at, cursor):
            continue
        if span := _read_safely(text, at, cursor, clock):
            found.append(span)
    return found


# --- the API ------------------------------------------------------------------------------------


def _midnight(day: date, tz: tzinfo | None) -> float:
    midnight = datetime(day.year, day.month, day.day, tzinfo=tz)
    return (midnight if tz else midnight.astimezone()).timestamp()  # naive: this machine's zone


@reads_simplified
def time_frame(query: str, now: float, tz: tzinfo | None = None) -> TimeFrame | None:
    """The period ``query`` asks about, or None when it names none.

    ``now`` (epoch seconds) anchors relative phrases ("yesterday", "last spring", "in March" is
    the most recent March); ``tz`` is the user's time zone (default: this machine's), in which
    days begin. A period is whole days; a query naming several gets the span of them all.
    """
    if not might_mention_time(query):
        return None
    clock = datetime.fromtimestamp(now, tz) if tz else datetime.fromtimestamp(now).astimezone()
    text = _Text(query)
    _normalise(text, clock.year)
    found = _table_spans(text, clock.date())
    if text.text.strip():
        found += _dateparser_spans(text, clock)
    if not found:
        return None
    found = _without_the_dates_weekday(found, text)
    if not found:
        return None  # ("on a Sunday": no period)
    found.sort(key=lambda item: item.at)
    first = min(item.days[0] for item in found)
    last = max(item.days[1] for item in found)
    told_until = max(item.told_until() for item in found)
    end = _midnight(last, tz)
    return TimeFrame(
        start=_midnight(first, tz),
        end=end,
        phrase=" ".join(text.words(item.at, item.to).strip() for item in found),
        told_within=max(0.0, _midnight(told_until, tz) - end),
    )


# A weekday alone, as dateparser and the table read it ("周日", "星期天", "Sunday", "on Sundays",
# "the Sunday").
_WEEKDAY_ONLY = re.compile(
    r"(?:on\s+)?(?:the\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)days?"
    r"|(?:星期|礼拜|周)[一二三四五六日天]",
    re.IGNORECASE,
)
# "a Sunday" names no period (any Sunday is one), but dateparser reads the article as a number:
# "October 25, a Sunday" was January 1 to October 26 (polish14).
_ANY_WEEKDAY = re.compile(
    r"(?:on\s+)?an?\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day", re.IGNORECASE
)


# A day named by its date: 10月25日, 10.25, "October 25", "25 October", 2026-10-25.
_MONTHS = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
_A_DATE = re.compile(
    rf"\d{{1,2}}\s*月\s*\d{{1,2}}\s*[日号]|\d{{4}}-\d{{1,2}}-\d{{1,2}}"
    rf"|\b{_MONTHS}\s+\d{{1,2}}\b|\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTHS}",
    re.IGNORECASE,
)


def _without_the_dates_weekday(found: list[_Found], text: _Text) -> list[_Found]:
    """``found`` without a weekday named beside a single day: "10月25日，周日" is that day
    and its weekday, not that day through the most recent Sunday (review13 J13: memories told
    a month later were "in the period")."""
    said = {id(item): text.words(item.at, item.to).strip() for item in found}
    found = [item for item in found if not _ANY_WEEKDAY.fullmatch(said[id(item)])]
    if not any(
        _A_DATE.search(said[id(item)])
        for item in found
        if item.days[1] - item.days[0] == timedelta(days=1)
    ):
        return found
    return [item for item in found if not _WEEKDAY_ONLY.fullmatch(said[id(item)])]


# --- what a memory's own words say of its time (review9 M3) ---------------------------------------

#: A habit ("every Wednesday", "on Fridays", 每周三晚上, 一般): no one occasion in a period.
_HABIT = re.compile(
    rf"\b(?:every|each)\s+(?:other\s+)?(?:day|night|morning|afternoon|evening|week|weekend|"
    rf"month|year|{_WEEKDAYS})s?\b|\b(?:on\s+)?(?:{_WEEKDAYS})s\b"
    rf"|\b(?:{_WEEKDAYS})\s+(?:morning|afternoon|evening|night)s\b|\b(?:on|at)\s+weekends\b|^weekends\b"
    r"|\b(?:usually|normally|typically|generally|always|often|regularly)\b"
    r"|每(?:天|日|晚|周|星期|礼拜|个|月|年|次)|一般|通常|平时|经常|常常|总是|往往",
    re.IGNORECASE,
)
#: A season named without a year or a word that picks one, as when a condition or a habit comes
#: with it ("a mild pollen allergy in spring", 我冬天怕冷): every such season, as a question's
#: bare season names no period. Not a season naming an occasion ("Summer holiday in Sardinia").
_EVERY_SEASON = re.compile(
    rf"\b(?:in|during|through|over)\s+(?:the\s+)?(?:{_SEASONS_EN})\b"
    rf"(?!,?\s+(?:of\s+)?(?:{_YEAR}|(?:last|this|next)\s+year)\b)"
    # 天 only: 秋季运动会, 春季学期 name an occasion or a term
    r"|(?<![年前去今明])(?<!年的)[春夏秋冬]天",
    re.IGNORECASE,
)
#: A plan: what is still to come when it is told.
_PLAN = re.compile(
    r"\b(?:plan|plans|planning|going\s+to|gonna|intends?|upcoming)\b|计划|打算|准备",
    re.IGNORECASE,
)
#: A weekday alone ("on Friday", 周五): which one, the text's tense says.
_BARE_WEEKDAY = re.compile(
    rf"(?:on\s+)?(?:{_WEEKDAYS})|(?:周|星期|礼拜)[一二三四五六日天]", re.IGNORECASE
)
_WEEK = 7 * 86_400.0
#: Irregular past forms that are no adjective before a noun ("left", "used", "found" can be).
_PAST_FORMS = IRREGULAR_PAST - {"left", "used", "found", "lost", "led", "meant", "kept", "said"}
#: A phrase that says its period is past whatever the tense ("last week", "two days ago", 去年).
_SAID_AS_PAST = re.compile(
    r"\b(?:last|ago|yesterday|past|previous|earlier)\b|\b(?:19|20)\d\d\b|上|昨|前|去年|前年",
    re.IGNORECASE,
)


@reads_simplified
def told_in_the_past(text: str) -> bool:
    """Whether ``text`` is told in the past tense ("went", 去了, 看过), also as an assistant
    writes it down: "The user ran a half marathon", "Lily's recital on Saturday went great"
    (the statement reader takes a past form after a noun for an adjective, "a cat named
    Mochi": an irregular one, or any after "user", is the verb here)."""
    told = read_statement(text)
    if told.tense & {"past", "done"}:
        return True
    if told.lang != "en":
        return False
    return any(
        word.surface.lower() in _PAST_FORMS
        or (before.norm in SELF_WORDS and word.surface.lower().endswith("ed"))
        for before, word in itertools.pairwise(told.words)
    )


@reads_simplified
def says_habit_or_plan_words(text: str) -> bool:
    """Whether ``text`` holds a habit's, a plan's or an every-season word ("every", "usually",
    "plans", "in spring", 每周…): a regex, no reading of the statement (about 3 ms a text), so
    it can be asked of every recall candidate. ``tells_no_doing`` is true only of such a text
    or of a plan told in the future tense ("I will fly to Paris next week")."""
    return any(pattern.search(text) for pattern in (_HABIT, _PLAN, _EVERY_SEASON))


@reads_simplified
def tells_no_doing(text: str) -> bool:
    """Whether a memory tells a habit or a plan ("用户每周三晚上上陶艺课", "The user plans a
    trip to Kyoto"), or something of every such season ("I have a mild pollen allergy in
    spring"): no answer to "what did I do <in a past period>?", whenever it was told."""
    return (
        _HABIT.search(text) is not None
        or _tells_a_plan(text)
        or (_EVERY_SEASON.search(text) is not None and not told_in_the_past(text))
    )


def _tells_a_plan(text: str) -> bool:
    told = read_statement(text)
    return not told_in_the_past(text) and ("future" in told.tense or _PLAN.search(text) is not None)


@reads_simplified
def period_told_of(text: str, told_at: float, tz: tzinfo | None = None) -> TimeFrame | None:
    """The period a memory's own words place what it tells in, read from the moment it was told
    (``told_at``): "went to Copenhagen last weekend" told on a Tuesday is the weekend before,
    上周五…去看了电影 that week's Friday. In a text not told in the past, a period named without
    a year or a word that makes it past is the coming one: a weekday alone ("has a meeting
    with the landlord on Friday"), and in a plan a holiday or a month ("we'll spend Christmas
    in Portland" told in October). None when it names no period, or when a text told in the
    past names one after the day it was told (这个周末…上了课 told on a
    Tuesday is the weekend just gone, not the next: the phrase cannot be trusted)."""
    frame = time_frame(text, told_at, tz)
    if frame is None:
        return None
    told = (
        datetime.fromtimestamp(told_at, tz) if tz else datetime.fromtimestamp(told_at).astimezone()
    )
    day_start = _midnight(told.date(), tz)
    if told_in_the_past(text):
        return None if frame.start >= day_start + 86_400.0 else _on_its_day(frame, told.date(), tz)
    if frame.end > day_start or _SAID_AS_PAST.search(frame.phrase):
        return frame
    # read as the latest such period, as a question is; told not in the past, it is the next
    if _BARE_WEEKDAY.fullmatch(frame.phrase.strip()):
        return TimeFrame(frame.start + _WEEK, frame.end + _WEEK, frame.phrase, frame.told_within)
    if not _tells_a_plan(text):
        return frame  # a holiday or a month in a text that tells no plan: as read
    start, end = _a_year_later(frame.start, tz), _a_year_later(frame.end, tz)
    return TimeFrame(start, end, frame.phrase, frame.told_within)


def _on_its_day(frame: TimeFrame, told_on: date, tz: tzinfo | None) -> TimeFrame:
    """A weekday named alone in a text told on that weekday is the day it was told ("went
    bouldering on Saturday", 周日…吃了火锅, written that evening): read as a question reads it
    ("what did I do on Saturday?" asked on a Saturday), it would be the week before, and
    "what did I do two weeks ago?" found it there (review10 F15)."""
    if _SAID_AS_PAST.search(frame.phrase) or not _BARE_WEEKDAY.search(frame.phrase):
        return frame
    first = datetime.fromtimestamp(frame.start, tz) if tz else datetime.fromtimestamp(frame.start)
    day = first.date()
    if day + timedelta(days=7) != told_on or frame.end > _midnight(day + timedelta(days=1), tz):
        return frame
    start, end = _midnight(told_on, tz), _midnight(told_on + timedelta(days=1), tz)
    return TimeFrame(start, end, frame.phrase, frame.told_within)


def _a_year_later(moment: float, tz: tzinfo | None) -> float:
    day = (datetime.fromtimestamp(moment, tz) if tz else datetime.fromtimestamp(moment)).date()
    return _midnight(
        day.replace(year=day.year + 1, day=28 if (day.month, day.day) == (2, 29) else day.day), tz
    )

"""Time phrases in recall queries, English and Chinese, read against a fixed clock."""

import subprocess
import sys
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from localmind.timeframe import (
    asks_about_now,
    might_mention_time,
    named_from_the_day,
    time_frame,
    words_about_now,
)

# Tuesday 1 December 2026, 10:00 UTC.
NOW = datetime(2026, 12, 1, 10, 0, tzinfo=UTC).timestamp()

# (query, first day, day after the last day) of the period it asks about.
TIME_QUERIES = [
    ("what did I do in March", "2026-03-01", "2026-04-01"),
    ("my birthday party in May", "2026-05-01", "2026-06-01"),
    ("in December", "2026-12-01", "2027-01-01"),
    ("where did I go last spring", "2026-03-01", "2026-06-01"),
    ("who did I meet two weeks ago", "2026-11-14", "2026-11-21"),
    ("3 weeks ago", "2026-11-07", "2026-11-14"),
    ("a month ago", "2026-10-17", "2026-11-16"),
    ("two years ago", "2024-06-02", "2025-06-02"),
    ("what did we do for Christmas 2025", "2025-12-24", "2025-12-27"),
    ("last Christmas", "2025-12-24", "2025-12-27"),
    ("next Christmas", "2026-12-24", "2026-12-27"),
    ("what did we do on New Year's Eve", "2025-12-31", "2026-01-01"),
    ("what did I do over the new year", "2025-12-31", "2026-01-02"),
    ("Valentine's Day", "2026-02-14", "2026-02-15"),
    ("last Thanksgiving", "2026-11-26", "2026-11-30"),
    ("easter 2026", "2026-04-03", "2026-04-07"),
    ("what did Lily cook for me on Mother's Day", "2026-05-10", "2026-05-11"),
    ("what did I buy on Black Friday?", "2026-11-27", "2026-11-28"),
    ("what did we do on the Fourth of July this year", "2026-07-04", "2026-07-05"),
    ("what did we do for Thanksgiving last year", "2025-11-27", "2025-12-01"),
    ("Chinese New Year's Eve 2025", "2025-01-28", "2025-01-29"),
    ("the Mid-Autumn Festival this year", "2026-09-25", "2026-09-26"),
    ("what did I have done in February this year", "2026-02-01", "2026-03-01"),
    ("what happened yesterday", "2026-11-30", "2026-12-01"),
    ("what did we eat last night", "2026-11-30", "2026-12-01"),
    ("who called this morning", "2026-12-01", "2026-12-02"),
    ("who did I meet a couple of weeks ago", "2026-11-14", "2026-11-21"),
    ("the other day I saw a fox", "2026-11-24", "2026-12-02"),
    ("tomorrow's meeting", "2026-12-02", "2026-12-03"),
    ("today", "2026-12-01", "2026-12-02"),
    ("what did I do last weekend", "2026-11-28", "2026-11-30"),
    ("on Monday what did I do", "2026-11-30", "2026-12-01"),
    ("last friday night", "2026-11-27", "2026-11-28"),
    ("what did I buy in 2025", "2025-01-01", "2026-01-01"),
    ("what happened last year", "2025-01-01", "2026-01-01"),
    ("this year", "2026-01-01", "2027-01-01"),
    ("what did I do last week", "2026-11-23", "2026-11-30"),
    ("next week", "2026-12-07", "2026-12-14"),
    ("last month", "2026-11-01", "2026-12-01"),
    ("what did I eat on March 3rd", "2026-03-03", "2026-03-04"),
    ("where was I on 2025-03-14", "2025-03-14", "2025-03-15"),
    ("on 15 March 2025", "2025-03-15", "2025-03-16"),
    ("November 2025", "2025-11-01", "2025-12-01"),
    ("in the past week", "2026-11-24", "2026-12-02"),
    ("over the past 3 days", "2026-11-28", "2026-12-02"),
    ("what did I do during the summer of 2025", "2025-06-01", "2025-09-01"),
    ("spring 2025", "2025-03-01", "2025-06-01"),
    ("this winter", "2026-12-01", "2027-03-01"),
    ("去年我在做什么", "2025-01-01", "2026-01-01"),
    ("前年", "2024-01-01", "2025-01-01"),
    ("今年", "2026-01-01", "2027-01-01"),
    ("上个月我吃了什么", "2026-11-01", "2026-12-01"),
    ("2025年圣诞节我们做了什么", "2025-12-24", "2025-12-27"),
    ("平安夜", "2025-12-24", "2025-12-25"),
    ("去年春天我去了哪里", "2025-03-01", "2025-06-01"),
    ("2024年夏天", "2024-06-01", "2024-09-01"),
    ("去年冬天", "2025-12-01", "2026-03-01"),
    ("2025年3月我去了哪里", "2025-03-01", "2025-04-01"),
    ("2025年12月", "2025-12-01", "2026-01-01"),
    ("去年三月", "2025-03-01", "2025-04-01"),
    ("2024年我搬家了", "2024-01-01", "2025-01-01"),
    ("我在3月买了车", "2026-03-01", "2026-04-01"),
    ("3月5日那天", "2026-03-05", "2026-03-06"),
    ("十二月二十五日", "2025-12-25", "2025-12-26"),
    ("三天前我见了谁", "2026-11-28", "2026-11-29"),
    ("两三天前我见了谁", "2026-11-28", "2026-11-29"),
    ("前几天我买了什么", "2026-11-24", "2026-12-02"),
    ("半年前我在哪里工作", "2026-05-17", "2026-06-16"),
    ("昨晚我们吃了什么", "2026-11-30", "2026-12-01"),
    ("两周前的会议", "2026-11-14", "2026-11-21"),
    ("两个星期前的会议", "2026-11-14", "2026-11-21"),
    ("几个星期前我见了谁", "2026-11-07", "2026-11-14"),
    ("两个月前", "2026-09-16", "2026-10-16"),
    ("上周我去了哪", "2026-11-23", "2026-11-30"),
    ("上个星期", "2026-11-23", "2026-11-30"),
    ("本周的计划", "2026-11-30", "2026-12-07"),
    ("上星期一我去了医院", "2026-11-23", "2026-11-24"),
    ("上周日我去了哪", "2026-11-29", "2026-11-30"),
    ("昨天我吃了什么", "2026-11-30", "2026-12-01"),
    ("前天晚上", "2026-11-29", "2026-11-30"),
    ("上个周末", "2026-11-28", "2026-11-30"),
    ("最近三天", "2026-11-28", "2026-12-02"),
    ("春节我回家了吗", "2026-02-16", "2026-02-24"),
    ("除夕", "2026-02-16", "2026-02-17"),
    ("2025年中秋节", "2025-10-06", "2025-10-07"),
    ("端午节", "2026-06-19", "2026-06-20"),
    ("去年国庆", "2025-10-01", "2025-10-08"),
    ("今年元宵节我们吃了什么", "2026-03-03", "2026-03-04"),
    ("今年母亲节", "2026-05-10", "2026-05-11"),
    ("新年我们去了哪里", "2025-12-31", "2026-01-02"),
    # weekdays (review9 M5): the day itself, of the week named; bare, the latest that has passed
    ("What did I do last Friday?", "2026-11-27", "2026-11-28"),
    ("what did I do on Friday", "2026-11-27", "2026-11-28"),
    ("What am I doing this Friday?", "2026-12-04", "2026-12-05"),
    ("上周五我做了什么？", "2026-11-27", "2026-11-28"),
    ("上个星期五", "2026-11-27", "2026-11-28"),
    ("上礼拜五", "2026-11-27", "2026-11-28"),
    ("周五我做了什么", "2026-11-27", "2026-11-28"),
    ("礼拜五做了什么", "2026-11-27", "2026-11-28"),
    ("这周五有什么安排", "2026-12-04", "2026-12-05"),
    ("本周五", "2026-12-04", "2026-12-05"),
    ("这个星期天", "2026-12-06", "2026-12-07"),
    ("下周五", "2026-12-11", "2026-12-12"),
    ("上上周五我做了什么", "2026-11-20", "2026-11-21"),
    ("上上周", "2026-11-16", "2026-11-23"),
    ("上上个星期", "2026-11-16", "2026-11-23"),
    ("上上周末下雪了", "2026-11-21", "2026-11-23"),
    ("what did I do the week before last", "2026-11-16", "2026-11-23"),
    ("the weekend before last", "2026-11-21", "2026-11-23"),
    ("what did I do the Friday before last", "2026-11-20", "2026-11-21"),
    ("the Monday before last", "2026-11-23", "2026-11-24"),  # yesterday was the last Monday
]

ORDINARY_QUERIES = [
    "May I ask what my favourite colour is?",
    "I have 3 kids, what are their names?",
    "march on with the plan",
    "the sun is out, what should I wear",
    "what is my second favourite food",
    "what is my name",
    "I met June at the park",
    "who is April",
    "what car do I drive",
    "what do I usually do on Mondays",
    "what do I like to do in summer",
    "I love spring rolls",
    "what music do I like in the fall",
    "I fall asleep late, any tips",
    "my dog is 3 years old",
    "how many days do I work per week",
    "what's the room number, 2025?",
    "how old is my daughter",
    "what is my wife's birthday",
    "I went to the gym 5 times",
    "remind me what I said about the project deadline",
    "what books did I read",
    "what are my allergies",
    "the weekend is my favourite time",
    "what do we do every March",
    "how long is a year on Mars",
    "the day I was born",
    "tell me about my sister",
    "which languages do I speak",
    "do I prefer tea or coffee",
    "where is my passport",
    "what games do I play",
    "is it a holiday",
    "what did the doctor say",
    "I need a new laptop",
    "what's my phone model",
    "who is my manager",
    "what are my goals",
    "what is my blood type",
    "where did I park",
    "what do I eat in the morning",
    "do I sleep well at night",
    "what do I like to do in the evening",
    "a few of my favourite things",
    "我喜欢吃什么",
    "我的名字是什么",
    "我有3个孩子",
    "我有两个孩子",
    "我的狗叫什么",
    "我在哪里工作",
    "我喜欢春天",
    "这个月饼很好吃",
    "周杰伦的歌",
    "我年轻的时候喜欢什么",
    "我上三年级的时候",
    "我的生日是哪天",
    "我的电话号码是多少",
    "我住在2号楼",
    "我每年春节都回家",
    "我周末喜欢做什么",
    "月亮很圆",
    "天气怎么样",
    "我妻子叫什么名字",
    "我对花生过敏吗",
    "我会说哪些语言",
    "我的车是什么牌子",
    "我喜欢喝茶还是咖啡",
    "我的护照在哪里",
    "我女儿几岁了",
    "我的血型是什么",
    "春卷怎么做",
    "我喜欢秋天的颜色",
    "冬天我喜欢滑雪",
    "节日快乐",
    "我每天几点起床",
    "我一天喝几杯水",
    "我早上喝什么",
    "我晚上几点睡觉",
    "我有几个孩子",
    # a bare weekday in a question about a habit
    "What do I usually do on Friday?",
    "刘洋周日一般去哪里钓鱼？",
    "我平时星期六做什么",
]


def _day(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, UTC).date().isoformat()


@pytest.mark.parametrize(("query", "first", "end"), TIME_QUERIES)
def test_a_time_phrase_gives_the_period_it_names(query: str, first: str, end: str) -> None:
    frame = time_frame(query, NOW, UTC)
    assert frame is not None, query
    assert (_day(frame.start), _day(frame.end)) == (first, end)
    assert frame.phrase and frame.phrase in query


@pytest.mark.parametrize("query", ORDINARY_QUERIES)
def test_an_ordinary_query_names_no_period(query: str) -> None:
    assert time_frame(query, NOW, UTC) is None


def test_the_pre_check_lets_every_time_query_through() -> None:
    missed = [query for query, _, _ in TIME_QUERIES if not might_mention_time(query)]
    assert missed == []


def test_the_pre_check_turns_most_ordinary_queries_away() -> None:
    passed = [query for query in ORDINARY_QUERIES if might_mention_time(query)]
    assert len(passed) < len(ORDINARY_QUERIES) / 2, passed


def test_the_phrase_is_in_the_users_words() -> None:
    frame = time_frame("三天前我见了谁", NOW, UTC)
    assert frame is not None and frame.phrase == "三天前"
    frame = time_frame("去年三月我去了哪里", NOW, UTC)
    assert frame is not None and frame.phrase == "去年三月"
    frame = time_frame("两三天前我见了谁", NOW, UTC)  # 两三 → 3: one character for two
    assert frame is not None and frame.phrase == "两三天前"


def test_two_phrases_give_the_span_of_both() -> None:
    frame = time_frame("between Christmas 2024 and March 2025", NOW, UTC)
    assert frame is not None
    assert (_day(frame.start), _day(frame.end)) == ("2024-12-24", "2025-04-01")


def _at(day: date) -> float:
    return datetime(day.year, day.month, day.day, 12, tzinfo=UTC).timestamp()


def test_last_names_the_previous_one_while_one_is_under_way() -> None:
    in_march = _at(date(2026, 3, 15))
    frame = time_frame("last March", in_march, UTC)
    assert frame is not None and _day(frame.start) == "2025-03-01"
    frame = time_frame("in March", in_march, UTC)
    assert frame is not None and _day(frame.start) == "2026-03-01"
    frame = time_frame("last spring", _at(date(2026, 4, 10)), UTC)
    assert frame is not None and _day(frame.start) == "2025-03-01"
    frame = time_frame("this winter", _at(date(2027, 1, 15)), UTC)
    assert frame is not None and (_day(frame.start), _day(frame.end)) == (
        "2026-12-01",
        "2027-03-01",
    )


def test_a_bare_holiday_is_the_latest_that_has_begun() -> None:
    frame = time_frame("what did we do for Christmas", _at(date(2026, 12, 25)), UTC)
    assert frame is not None and _day(frame.start) == "2026-12-24"
    frame = time_frame("what did we do for Christmas", _at(date(2026, 12, 20)), UTC)
    assert frame is not None and _day(frame.start) == "2025-12-24"


def test_days_begin_in_the_users_time_zone() -> None:
    shanghai = ZoneInfo("Asia/Shanghai")
    # 20:00 UTC on 1 December is already 04:00 on 2 December in Shanghai.
    now = datetime(2026, 12, 1, 20, 0, tzinfo=UTC).timestamp()
    frame = time_frame("昨天我吃了什么", now, shanghai)
    assert frame is not None
    assert datetime.fromtimestamp(frame.start, shanghai) == datetime(2026, 12, 1, tzinfo=shanghai)
    assert frame.end - frame.start == timedelta(days=1).total_seconds()


def test_a_query_without_time_words_never_imports_dateparser() -> None:
    script = (
        "import sys, time\n"
        "from localmind.timeframe import time_frame\n"
        "assert time_frame('what is my favourite tea', time.time()) is None\n"
        "print('dateparser' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"


_TIME_WORDS = [
    "last",
    "this",
    "next",
    "every",
    "in",
    "of",
    "March",
    "May",
    "2025",
    "1900",
    "2099",
    "Christmas",
    "spring",
    "winter",
    "weekend",
    "week",
    "month",
    "year",
    "ago",
    "two",
    "3",
    "days",
    "February",
    "29th",
    "yesterday",
    "去年",
    "前年",
    "明年",
    "上个月",
    "上星期一",
    "三天前",
    "2025年",
    "12月",
    "31日",
    "春节",
    "中秋",
    "除夕",
    "春天",
    "周末",
    "最近",
    "二十九",
    "每年",
    "Black",
    "Friday",
    "7/4",
    "2025-02-29",
    "9999",
]


@given(
    words=st.lists(st.sampled_from(_TIME_WORDS), min_size=1, max_size=6),
    joiner=st.sampled_from([" ", ""]),
    day=st.dates(min_value=date(1901, 1, 1), max_value=date(2099, 12, 31)),
)
@settings(max_examples=200, deadline=None)
def test_any_jumble_of_time_words_gives_a_period_or_none_never_an_error(
    words: list[str], joiner: str, day: date
) -> None:
    frame = time_frame(joiner.join(words), _at(day), UTC)
    assert frame is None or frame.start < frame.end


def test_a_memory_told_within_a_week_after_the_period_may_be_about_it() -> None:
    frame = time_frame("what did we do last Christmas", NOW, UTC)
    assert frame is not None
    assert frame.may_tell(_at(date(2025, 12, 25)))
    assert frame.may_tell(_at(date(2025, 12, 28)))  # "Christmas in Portland was cozy"
    assert not frame.may_tell(_at(date(2025, 12, 20)))
    assert not frame.may_tell(_at(date(2026, 2, 1)))


@pytest.mark.parametrize(
    ("query", "told_within_days"),
    [
        ("what did we do last Christmas", 7),
        ("what did I do last week", 7),
        ("what happened yesterday", 7),  # "yesterday we hosted...", told today
        ("What did I do last Friday?", 0),  # Saturday's memories are Saturday's
        ("上周五我做了什么？", 0),
        ("上上周五我做了什么", 0),
        ("what did I do the Friday before last", 0),
        ("What did I do two weeks ago?", 0),  # a window on both sides of its day already
        ("What did I do last weekend?", 0),  # Monday's memories are Monday's (when11)
        ("上周末我做了什么？", 0),
        ("what did I do the weekend before last", 0),
        ("两周前我做了什么？", 0),
    ],
)
def test_how_long_after_a_period_its_memories_are_told(query: str, told_within_days: int) -> None:
    frame = time_frame(query, NOW, UTC)
    assert frame is not None
    assert frame.told_within == told_within_days * 86_400
    assert frame.may_tell(frame.end - 1)
    assert frame.may_tell(frame.told_until - 1)
    assert not frame.may_tell(frame.told_until)


def test_last_friday_asked_on_a_friday_is_a_week_ago() -> None:
    friday = _at(date(2026, 12, 4))
    frame = time_frame("what did I do last Friday", friday, UTC)
    assert frame is not None and _day(frame.start) == "2026-11-27"
    frame = time_frame("上周五我做了什么", friday, UTC)
    assert frame is not None and _day(frame.start) == "2026-11-27"


@pytest.mark.parametrize(
    "question",
    [
        "What car do I drive now?",
        "Do I still drink only tea?",
        "Which vet do the pets go to currently?",
        "我现在多重？",
        "我目前在哪家医院上班？",
        "你还在学钢琴吗？",
    ],
)
def test_a_question_about_the_present_is_recognised(question: str) -> None:
    assert asks_about_now(question)


@pytest.mark.parametrize(
    "question",
    [
        "What did we do last spring?",
        "Where did I grow up?",
        "Nowhere to go this weekend?",
        "你喜欢喝茶还是咖啡？",
        "去年春天我去了哪里？",
    ],
)
def test_other_questions_are_not_about_the_present(question: str) -> None:
    assert not asks_about_now(question)


@pytest.mark.parametrize(
    "phrase",
    ["today", "last month", "yesterday", "this morning", "a week ago", "上个月", "昨天", "两周前"],
)
def test_a_period_named_only_from_the_day_it_is_said(phrase: str) -> None:
    # in a memory, the same words name another period: read from the day it was told
    assert named_from_the_day(phrase)


@pytest.mark.parametrize(
    "phrase",
    ["Thanksgiving last year", "on October 6, 2022", "last summer", "last Friday", "七月"],
)
def test_a_period_with_a_name_of_its_own_is_not_only_from_the_day(phrase: str) -> None:
    assert not named_from_the_day(phrase)


def test_the_words_about_now_are_found_as_written() -> None:
    assert words_about_now("我现在在哪里工作？") == ["现在"]
    assert words_about_now("What car do I drive now?") == ["now"]
    assert words_about_now("What car do I drive?") == []


@pytest.mark.parametrize(
    "query",
    [
        "10月25日，周日，我做了什么？",
        "10月25日那个周日我做了什么？",
        "What did I do on Sunday, October 25?",
        # "a Sunday" was read as January: January 1 to October 26 (polish14)
        "What did we do on October 25, a Sunday?",
        "What did I do on Oct 25, which was a Sunday?",
        "What did we do on October 25, the Sunday?",
    ],
)
def test_a_weekday_beside_a_date_is_that_dates_weekday(query: str) -> None:
    # not the date through the most recent Sunday: memories told a month later were "in the
    # period" and answered first (review13 J13)
    frame = time_frame(query, NOW, UTC)
    assert frame is not None
    assert (_day(frame.start), _day(frame.end)) == ("2026-10-25", "2026-10-26")


def test_a_sunday_names_no_period() -> None:
    assert time_frame("What did I do on a Sunday?", NOW, UTC) is None  # was all of January


def test_two_weekdays_without_a_date_are_both_read() -> None:
    frame = time_frame("上周日和周三我做了什么？", NOW, UTC)
    assert frame is not None and frame.phrase == "上周日 周三"


@pytest.mark.parametrize(
    ("query", "first", "end"),
    [
        ("11月第一周我做了什么？", "2026-11-01", "2026-11-08"),
        ("十一月第一个星期我做了什么？", "2026-11-01", "2026-11-08"),
        ("我上个月第一周做了什么？", "2026-11-01", "2026-11-08"),
        ("10月的第二周", "2026-10-08", "2026-10-15"),
        ("去年11月第三周", "2025-11-15", "2025-11-22"),
        ("上个月最后一周我去了哪里？", "2026-11-24", "2026-12-01"),
        ("What did I do in the first week of last month?", "2026-11-01", "2026-11-08"),
        ("the second week of November 2025", "2025-11-08", "2025-11-15"),
        ("the third week of March", "2026-03-15", "2026-03-22"),
        ("the fourth week of October", "2026-10-22", "2026-10-29"),
        ("the last week of February", "2026-02-22", "2026-03-01"),
        ("the first week of this month", "2026-12-01", "2026-12-08"),
    ],
)
def test_a_week_of_a_month_is_those_seven_days(query: str, first: str, end: str) -> None:
    # not the whole month: memories told later in it were "in the period" and first (review13
    # J13 addendum)
    assert might_mention_time(query)
    frame = time_frame(query, NOW, UTC)
    assert frame is not None
    assert (_day(frame.start), _day(frame.end)) == (first, end)
    assert frame.phrase and frame.phrase in query


def test_the_last_week_on_its_own_is_still_the_past_seven_days() -> None:
    frame = time_frame("what did I do in the last week", NOW, UTC)
    assert frame is not None
    assert (_day(frame.start), _day(frame.end)) == ("2026-11-24", "2026-12-02")

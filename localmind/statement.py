"""What a short statement about the user says, read without a model: who it is about, whether
it is negated, its numbers and names, its content words in order, the attribute ("slot") it
sets and whether it announces a change. :mod:`localmind.sameness` and
:mod:`localmind.suspicion` compare two of these.

English words are lemmatized by simplemma (its dictionary read from a derived cache:
:mod:`localmind.lemmas`), Chinese text is cut into words by jieba (imported on first use: ~0.1
s, and ~0.5 s to load its dictionary). Both are lookup tables, not models: nothing is
downloaded and the result does not depend on the machine.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from localmind import bilingual, lemmas
from localmind.simplified import simplified

SELF = "self"
OTHER = "other"


def said_person(person: str) -> str:
    """A person as a reason shown to the user names them: "you" for the user themself,
    "someone else" for a he or she; a relation or a name as it is."""
    return {SELF: "you", OTHER: "someone else"}.get(person, person)


# --- lexicon ----------------------------------------------------------------------------------
# Small on purpose: each entry decides merges (a word outside these lists counts as content and
# must be the same in both texts) or queues (slots and cue words). Tuned on
# tests/data/memory_pairs.jsonl, tests/data/hygiene_pairs.jsonl and bench/data/personal.


def _words(spec: str) -> frozenset[str]:
    return frozenset(spec.split())


def _groups(spec: dict[str, str]) -> dict[str, str]:
    """``{"head": "word word ..."}`` → ``{word: head}``."""
    return {word: head for head, words in spec.items() for word in words.split()}


# People the memory can be about. Possessives of the user ("my", 我的) make the relative the
# subject; the canonical names are shared by both languages.
RELATIONS = _groups(
    {
        "mother": "mother mom mum mommy mama mam 妈妈 母亲 妈 老妈 娘",
        "father": "father dad daddy papa 爸爸 父亲 爸 老爸",
        "parents": "parent parents 父母 爸妈",
        "wife": "wife 老婆 妻子 太太 媳妇",
        "husband": "husband 老公 丈夫 先生",
        "partner": "partner spouse 爱人 伴侣 对象",
        "girlfriend": "girlfriend 女朋友 女友",
        "boyfriend": "boyfriend 男朋友 男友",
        "sister": "sister 姐姐 妹妹 姐妹 姐 妹",
        "brother": "brother 哥哥 弟弟 兄弟 哥 弟",
        "son": "son 儿子",
        "daughter": "daughter 女儿 闺女",
        "child": "child kid kids children baby 孩子 小孩 孩子们 宝宝",
        "friend": "friend buddy pal 朋友 好友 闺蜜 发小",
        "manager": "manager boss supervisor 领导 老板 经理 上司",
        "colleague": "colleague coworker co-worker 同事",
        "neighbour": "neighbour neighbor 邻居 隔壁",
        "roommate": "roommate flatmate housemate 室友 舍友",
        "mother-in-law": "mother-in-law 婆婆 岳母 丈母娘",
        "father-in-law": "father-in-law 公公 岳父 老丈人",
        "grandmother": "grandmother grandma granny 奶奶 外婆 姥姥",
        "grandfather": "grandfather grandpa 爷爷 外公 姥爷",
        "uncle": "uncle 叔叔 舅舅 伯伯",
        "aunt": "aunt 阿姨 姑姑 舅妈",
        "cousin": "cousin 表哥 表姐 表妹 表弟 堂哥 堂姐 堂妹 堂弟",
        "doctor": "doctor 医生 大夫",
    }
)
# Which sister it is does not matter for "who": 姐姐/妹妹 are both "sister" above, so an older
# or younger sister is told apart by the content words below.
RELATION_DETAIL = {"姐姐": "older", "妹妹": "younger", "哥哥": "older", "弟弟": "younger"}
SELF_WORDS = _words(
    "i me my mine myself we us our ours ourselves user 我 我们 俺 咱 咱们 本人 用户 自己"
)
OTHER_WORDS = _words("he him his she her hers they them their theirs 他 她 他们 她们 人家 别人")
POSSESSIVE_SELF = _words("my our 我 我们 咱 咱们 用户")
RELATION_ADJECTIVES = _words(
    "older younger little big elder best new old ex current former late twin oldest youngest "
    "eldest good 的 大 小 亲 新 前 现在 目前 以前 之前 原来 现任 前任"
)

NEGATIONS = _words(
    "not no never none nobody nothing neither nor without unable 不 没 没有 别 不再 未 无 非 勿 甭 "
    "不要 不用 从不 从没 从未 并不 不太"
)
# Chinese words that begin like a negation without being one.
NOT_NEGATIONS = _words(
    "不过 不错 不仅 不但 不同 不少 不久 不断 不如 不管 不论 不然 别人 别的 没错 不得不 "
    "无论 非常 未来 无聊"
)

NUMBER_WORDS = {
    "zero": "0",
    "one": "1",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
    "ten": "10",
    "eleven": "11",
    "twelve": "12",
    "thirteen": "13",
    "fourteen": "14",
    "fifteen": "15",
    "sixteen": "16",
    "seventeen": "17",
    "eighteen": "18",
    "nineteen": "19",
    "twenty": "20",
    "thirty": "30",
    "forty": "40",
    "fifty": "50",
    "sixty": "60",
    "seventy": "70",
    "eighty": "80",
    "ninety": "90",
    "hundred": "100",
    "thousand": "1000",
    "million": "1000000",
    "dozen": "12",
    "half": "0.5",
    "once": "1",
    "twice": "2",
    "first": "1",
    "third": "3",
    "fourth": "4",
    "fifth": "5",
    "sixth": "6",
    "seventh": "7",
    "eighth": "8",
    "ninth": "9",
    "tenth": "10",
}
_ZH_DIGITS = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
_ZH_UNITS = {"十": 10, "百": 100, "千": 1000, "万": 10_000, "亿": 100_000_000}
# Units that say no number without a numeral before them (十 alone is ten).
_BARE_UNITS = frozenset("百千万亿")
_ZH_NUMERAL = re.compile(r"^(\d[\d.,:]*|[零〇一二两三四五六七八九十百千万亿半]+)(.*)$")
# Classifiers and units that may follow a Chinese numeral in one jieba word.
_ZH_CLASSIFIERS = frozenset("个只岁年月日号次天周位块元点分杯片名辆本张份口台间双对层斤里家室居")

# Words that carry no meaning of their own here: dropped before comparing content.
STOP_WORDS = _words(
    """a an the be do have get to of in on at for with by from and or but that this these those
    it its there here which who whom what as so if because about into than over up out off
    will would shall should can could may might must 's one some any also too very really
    actually just quite pretty truly indeed definitely still even lot lots bit kind sort
    please thing things stuff currently usually generally mostly mainly basically typically
    normally go locate 位于
    的 了 是 在 地 得 着 过 呢 啊 吧 呀 嘛 哦 也 都 就 还 很 非常 特别 真 真的 挺 其实 确实 比较
    更 会 要 有点 一点 一些 一下 把 被 给 让 对 和 与 跟 及 或 或者 而 并 且 等 这 那 这个 那个
    有 有个 个 每 所有 全部 正在 一直 总是 平时 一般 通常 基本 基本上 主要 大部分 多数"""
)
# Kept in the order check but never the reason two texts differ: when something happens.
MONTHS = _words(
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec"
)
EVENT_WORDS = _words("yesterday today tonight 昨天 今天 今晚 前天 上周末 这周末 刚才 今早 昨晚")
WEEKDAYS = _words(
    "monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs "
    "fri sat sun 周一 周二 周三 周四 周五 周六 周日 周天 星期一 星期二 星期三 星期四 星期五 "
    "星期六 星期日 星期天 礼拜一 礼拜二 礼拜三 礼拜四 礼拜五 礼拜六 礼拜天"
)
TIME_WORDS = (
    MONTHS
    | WEEKDAYS
    | _words(
        """morning mornings evening night afternoon day daily week weekly month monthly year
    yearly weekend every each monday tuesday wednesday thursday friday saturday sunday today
    tonight tomorrow yesterday before after 每天 每周 每月 每年 早上 早晨 晚上 上午 下午 周末
    午夜 子夜 凌晨 中午 半夜 夜里
    周一 周二 周三 周四 周五 周六 周日 今天 明天 昨天 之前 以前 前 之后 以后 后"""
    )
)
COORDINATORS = _words("and or , 、 和 与 跟 及 以及 或 还有")
# Words that give word order a meaning ("tea over coffee", "from Lisbon to London", 比, 胜过).
RELATIONAL = _words(
    "over than to from into instead versus vs against toward towards 比 比起 胜过 超过 "
    "而不是 不如 与其 从 到 给 向 被 把 替 相比"
)
# The left side of these is preferred ("A over B", A胜过B); after the others (比起 B, …)
# the item that follows is the one not preferred.
COMPARATIVE_AFTER_IS_LESS = _words("over than 胜过 超过 而不是 比 instead")
COMPARATIVE_AFTER_IS_MORE = _words("不如")
COMPARATIVE_FIRST_IS_LESS = _words("比起 与其 相比 compared")

# Synonyms, mapped to one head so that a rewording compares equal. Never put opposites in one
# group: a group is a licence to merge.
SYNONYMS = _groups(
    {
        "like": "like love enjoy prefer fond fan adore rather favour favor 喜欢 喜爱 爱 热爱 "
        "偏爱 爱好 偏好",
        "dislike": "dislike hate detest loathe 讨厌 厌恶 反感 恨",
        "live": "live reside based stay 住 居住 定居 生活",
        "name": "name call named called 叫 名字 名叫 叫做",
        "work": "work job employ employed 工作 上班 就职",
        "use": "use using 用 使用 采用",
        "run": "run running jog jogging 跑步 跑 慢跑",
        "car": "car vehicle 车 汽车 车子",
        "home": "home house 家 家里",
        "answer": "answer reply response 回答 回复 答复",
        "short": "short brief concise 简短 简洁 简单",
        "long": "long detailed lengthy 详细 详尽",
        "afraid": "afraid fear scared nervous 怕 害怕 恐惧 紧张",
        "speak": "speak talk 说 讲",
        "morning": "morning 早上 早晨 上午",
        "evening": "evening night 晚上 夜里",
        "every": "every each daily 每 每个 每天",
        "wife": "wife 老婆 妻子 太太 媳妇",
        "mother": "mother mom mum 妈妈 母亲 妈",
        "birthday": "birthday 生日",
        "most": "most majority 大多数 多数 大部分",
        "favourite": "favourite favorite 最喜欢",
        "take": "take 服用",
        "bike": "bike cycle bicycle 自行车 单车",
        "bed": "bed bedtime",
        "food": "food cuisine dish 菜 菜肴",
        "nearsighted": "nearsighted short-sighted shortsighted myopic 近视 近视眼",
        "often": "often frequently 常 经常 常常",
        "walk": "walk 步行 走路 走",
        "date": "号 日",
        "project": "project 项目",
        "learn": "learn study 学 学习",
        "move": "move relocate",
        "dark": "dark 深色 暗色 黑色",
        "light": "light 浅色 亮色",
        "mode": "mode theme 模式 主题",
        "app": "app application software 应用 软件 程序",
        # what a year's or a month's work pays, in Chinese by several words (an hourly wage,
        # 时薪, is another figure: not one of them)
        "salary": "salary 工资 薪水 薪资 年薪 月薪",
    }
)
ANTONYMS = frozenset(
    tuple(sorted(pair))
    for pair in (
        ("like", "dislike"),
        ("mr", "mrs"),  # "Mrs. Lee" / "Mr. Lee": two people of one name
        ("mr", "ms"),
        ("mr", "miss"),
        ("always", "never"),
        ("often", "rarely"),
        ("often", "seldom"),
        ("more", "less"),
        ("before", "after"),
        ("old", "young"),
        ("early", "late"),
        ("start", "stop"),
        ("start", "quit"),
        ("buy", "sell"),
        ("win", "lose"),
        ("open", "close"),
        ("agree", "disagree"),
        ("increase", "decrease"),
        ("up", "down"),
        ("dark", "light"),
        ("short", "long"),
        ("big", "small"),
        ("cheap", "expensive"),
        ("good", "bad"),
        ("hot", "cold"),
        ("older", "younger"),
        ("大", "小"),
        ("早", "晚"),
        ("多", "少"),
        ("开始", "停止"),
        ("开始", "戒"),
        ("买", "卖"),
        ("上", "下"),
        ("前", "后"),
        ("冷", "热"),
        ("贵", "便宜"),
    )
)

# Words that change how far, how often or whether a statement holds ("a *former* vegetarian",
# "I *rarely* go", "I trust Tom *less*", 假猫): never added to or dropped from a memory
# without a model, and never in the detail a longer telling adds. Checked on every word, stop
# words included ("mostly").
QUALIFIERS = _words(
    """former ex old previous past fake faux false imitation decaf decaffeinated less more
    least slightly barely hardly rarely seldom sometimes occasionally almost nearly partly
    partially half mostly mainly largely only but except until till unless though although
    however used anymore longer kind sort somewhat fairly
    前 前任 以前 之前 原来 假 仿 偶尔 有时 有时候 很少 几乎 差不多 大多 大部分 部分 一半 只 只有
    仅 但 但是 不过 可是 除了 直到 虽然 不太 稍微 有点"""
)

# Attributes a person has one value of at a time ("where I live") and the words that set them.
# Car makes a person names for the car itself ("We bought a Tesla", 买了一辆丰田): the vehicle,
# as "car" is. A closed list, as the kinds of localmind.kinds are; makes that are everyday
# words or common names (Dodge, Ram, Mini, Genesis, Lincoln) are left out.
CAR_MAKES = (
    "toyota honda tesla ford chevrolet chevy nissan mazda subaru hyundai kia bmw mercedes "
    "audi volkswagen vw volvo lexus acura jeep gmc buick cadillac porsche fiat mitsubishi "
    "infiniti polestar rivian byd 丰田 本田 特斯拉 福特 日产 马自达 斯巴鲁 起亚 宝马 奔驰 奥迪 "
    "大众 沃尔沃 雷克萨斯 比亚迪 雪佛兰 别克 凯迪拉克 保时捷 讴歌 蔚来 小鹏"
)
# Phone makes and models a person names for the phone itself ("I switched to a Pixel 9",
# 换成iPhone 16了): the phone, as a car make is the vehicle. Counted only as a name (capitalised
# in English: "pixel" is also a dot of a picture); "Apple" is a fruit as often.
PHONE_MAKES = (
    "iphone pixel galaxy samsung huawei xiaomi oneplus motorola nokia oppo vivo 华为 小米 三星"
)
SINGLE_SLOTS = _groups(
    {
        "residence": "live reside base move relocate apartment flat 住 居住 定居 家住 搬 搬到 "
        "搬家 住址 搬进 搬入 搬回 公寓",
        "origin": "grow born hometown 出生 长大 老家 家乡",
        "job": "job profession occupation career engineer developer designer nurse teacher "
        "position role hire employ 工作 上班 职业 职位 入职 离职 辞职 跳槽 转岗 工程师 程序员 "
        "岗位 主管 总监",
        "employer": "employer company startup firm 公司",
        "manager": "manager boss supervisor 领导 老板 经理 上司",
        "partner": "wife husband girlfriend boyfriend partner spouse married marry engaged "
        "divorce single dating fiance fiancee fianc 老婆 老公 女朋友 男朋友 结婚 离婚 单身 对象 "
        "妻子 丈夫 未婚妻 未婚夫 订婚",
        "diet": "vegetarian vegan meat pescatarian diet 吃素 素食 吃肉 肉 素",
        "age": "age 岁 年龄",
        # how to reach the user, three attributes: a new phone number is no new address
        # (personal5: "记一下我的新手机号" was queued against "Our address is 7421 Walker Ave")
        "phone number": "phone cell 电话 手机号",
        "email": "email e-mail 邮箱",
        "address": "address 地址",
        # (Miete, Kaltmiete: the German words a newcomer to Germany keeps for the rent, in
        # either language; review13 J9)
        "money": "rent salary pay earn income wage miete kaltmiete 房租 工资 薪水 月薪 年薪 时薪 "
        "薪资 租金 收入",
        "vehicle": "car drive vehicle 车 开车 " + CAR_MAKES,
        "phone": PHONE_MAKES,
        "school": "study university school college major degree student grade elementary "
        "kindergarten preschool daycare 托儿所 学校 大学 专业 读书 年级 小学 中学 幼儿园 班主任",
        "birthday": "birthday 生日",
        "answers": "answer reply response 回答 回复",
        "theme": "mode theme 主题 模式",
        "os": "windows linux macos mac 系统",
        "commute": "commute 通勤",
        "office": "office remote 远程 办公",
    }
)
CONTACT_SLOTS = frozenset({"phone number", "email", "address"})
# Attributes with many values at once ("I like tea", "I like hiking"): a new value is a
# conflict only when the new text announces a change.
MULTI_SLOTS = _groups(
    {
        "preference": "like love enjoy prefer hate dislike fan favourite favorite 喜欢 爱 讨厌",
        "allergy": "allergic allergy 过敏",
        "habit": "habit routine 习惯",
        "pet": "cat dog pet puppy kitten 猫 狗 宠物 小狗 小猫 狗狗 猫咪",
        "language": "speak language 说 语",
        "tool": "use 用",
        # what one drinks, of which "I switched to matcha latte in the morning" changes one
        # (review13 J9: after "I drink two americanos every morning" nothing else is shared)
        "drink": "coffee tea latte americano espresso cappuccino matcha mocha macchiato "
        "americanos lattes espressos cappuccinos 咖啡 茶 拿铁 美式 抹茶 奶茶 绿茶 红茶",
    }
)
# Words that tell of an end: a pet or a person died, a relationship ended, a job was left.
# What ended is a change to what an earlier memory says of it ("I have a dog named Rex" /
# "My dog Rex died last year"). "pass" counts only in "pass away", "break" and "split" only with
# "up", "fire" and "lay" only in "got fired", "was laid off" (see ``_is_cue``).
ENDINGS = _words(
    """die pass break broke split divorce fire lay 去世 过世 病逝 死 死了 离世 分手 离婚 被裁 倒闭
    关门"""
)
# Of those, the ones that end a job: they set the job as "quit my job" does ("I got fired",
# "I was laid off", 被裁了, after "I work at Acme"); a breakup sets the partner.
JOB_ENDINGS = _words("fire lay 被裁 辞职")
# Of those, the ones that end a relationship: about the person and their partner at once
# ("We broke up" after "My boyfriend is Tom").
BREAKUPS = _words("break broke split divorce 分手 离婚")
# What tells of a relationship in an older memory besides a partner word ("I'm dating Tom").
COURTING = _words("date dating 交往 约会 在一起 恋爱 谈恋爱")

VEHICLE_CLASSIFIER = "辆"

# Words that announce that something changed.
# Chinese words that begin with a change: 搬到, 换成, 转学, 改吃, 戒烟, 辞职, 调走, 涨到, 停掉.
CUE_PREFIXES_ZH = (
    *("搬", "换", "转", "改", "戒", "辞", "调", "离职", "不再"),
    *("放弃", "停", "涨", "降"),
)
CUE_WORDS = (
    _words(
        """now currently nowadays anymore longer move switch change replace new leave quit stop
    start become instead sell trade cancel migrate raise transfer convert recently lately back push
    left scratch
    postpone delay reschedule finish done recover heal drop lower increase decrease reduce bump
    现在 如今 目前 最近 已经 不再 改成 减成 减到 减为 减半 加到 增加到 升到
    改用 改 换成 换 换了 搬到 搬 转 离职 辞职 戒 戒掉 开始 从此 变成 调走 涨 卖 卖掉 取消 迁移
    改为 推迟 延期 退 退掉 退订 退出 停 放弃 finally 终于 lapse"""
    )
    | ENDINGS
)


# Past forms simplemma maps to their lemma; regular ones end in -ed.
IRREGULAR_PAST = _words(
    """was were did had went came got made took gave left sold bought began became ran swam ate
    drank grew knew met paid said saw sent spent thought told wrote won lost broke chose drove
    fell felt found flew forgot hid kept led lent meant rode rose sat slept spoke stood taught
    threw understood woke wore used"""
)
# After these a past form tells the tense ("I worked", "we recently moved"); after a noun it is
# an adjective ("a cat named Mochi"), after "be" a state ("I'm based in Berlin").
PAST_AFTER = _words(
    "i we you he she they it recently just already finally officially once then also never "
    "have has 've"
)
FUTURE_EN = _words("will shall gonna")
FUTURE_ZH = _words("将 将要 打算 准备 计划 要")
PAST_ZH = _words("了 过 已经 曾 曾经")
# 以前住在柏林: "used to", a hard past like the English one.
USED_TO_ZH = _words("以前 之前 原来 曾经 从前 过去")
# 我在上海的时候, 那时候, 小时候: "when I was in Shanghai", a time that is over (polish15) …
_WHEN_ZH = _words("时候 时")
# … unless the text says it is to come or comes again: 下次去上海的时候, 每次…的时候.
_WHEN_NOT_PAST_ZH = _words("下次 每次 每当 以后 将来 到时候 等到 明天 明年 下周 下个月 下次见")

_EN_TOKEN = re.compile(
    r"\d+(?:[.,:]\d+)*(?:st|nd|rd|th|k|%|am|pm)?(?![a-z0-9])|\d+(?:[.,:]\d+)*|[A-Za-z][A-Za-z\-]*(?:'[A-Za-z]+)?|[,;:.!?()]"
)
_CONTRACTIONS = {
    "n't": ("not",),
    "'m": ("be",),
    "'re": ("be",),
    "'d": ("would",),
    "'ve": ("have",),
    "'ll": ("will",),
    "'s": ("'s",),
}
_IRREGULAR_NEGATIVES = {"can't": ("can", "not"), "won't": ("will", "not"), "cannot": ("can", "not")}
_HAS_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_HAS_LATIN = re.compile(r"[A-Za-z]{2}")
_ACCENTS = re.compile(r"[\u0300-\u036f]")
_HYPHENED_NUMBER = re.compile(
    r"\b(two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty"
    r"|forty|fifty|sixty|hundred)-(?=[a-z])",
    re.IGNORECASE,
)
# A Chinese name or word in brackets after its English one: "Chen Hao (陈浩)", "hotpot (火锅)"
_CHINESE_GLOSS = re.compile(r"\s*[（(]\s*[\u3400-\u9fff\uf900-\ufaff·・]{1,8}\s*[）)]")
_PUNCTUATION = frozenset(",;:.!?()，。；：！？、（）…—“”‘’\"' ")


@dataclass(frozen=True, slots=True)
class Word:
    """One word of a statement: its normalized form and what it is."""

    norm: str  # lemma, lower case, synonyms mapped to their group's head
    surface: str
    is_name: bool = False
    person: bool = False  # a name that is someone's: 汤姆 (jieba's nr), "Tom's", "Jake owes"


@dataclass(frozen=True, slots=True)
class Statement:
    text: str
    lang: str  # "zh" when it holds Chinese characters, else "en"
    words: tuple[Word, ...]  # every word, punctuation as ","
    persons: tuple[str, ...]  # who it is about, in order of mention: "self", "sister", "other"
    negations: int
    numbers: frozenset[str]
    dates: frozenset[str]  # weekdays and months: "on Saturday" / "on Sunday" differ like numbers
    names: tuple[frozenset[str], ...]  # proper names in order; "A and B" is one group
    content: tuple[str, ...]  # content words in order, without stop, person, cue words
    terms: tuple[str, ...]  # the same as whole words (content splits Chinese into characters)
    slots: frozenset[str]
    cues: frozenset[str]
    relational: bool  # word order carries roles ("tea over coffee", 从 A 到 B)
    comparison: tuple[frozenset[str], frozenset[str]] | None  # (preferred, not preferred)
    copula: bool  # "X is Y", X是Y: the two sides may swap without changing the meaning
    tense: frozenset[str]  # "past", "future"; Chinese 了/过 as "done"
    event: bool  # tied to a day ("yesterday", 昨天): tells what happened, sets no attribute
    # "shrimp and crab", 粤语和普通话: two content words whose order says nothing (as content)
    coordinated: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = ()

    @property
    def subject(self) -> str | None:
        """Who it is about first: the user (also "my …"), a relative, someone named."""
        for index, word in enumerate(self.words):
            # "Dad stopped losartan" is about the father, as "my dad" is (review12 R5)
            if relation := _relation(word):
                return relation
            if word.person:
                return word.norm
            if word.norm in SELF_WORDS:
                owned = _owned_relation(self.words, index)
                return owned[0] if owned else SELF
            if word.norm in OTHER_WORDS:
                return OTHER
        return None

    @property
    def single_slots(self) -> frozenset[str]:
        return frozenset(slot for slot in self.slots if not slot.startswith("~"))


# --- reading ----------------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def read(text: str) -> Statement:
    """The statement ``text`` makes (cached: the same neighbour is read again and again).
    Traditional Chinese is read as Simplified (``localmind.simplified``): 現在 is 现在."""
    text = simplified(text)
    normal = unicodedata.normalize("NFKC", text).replace("’", "'").replace("‘", "'")
    if _HAS_CJK.search(normal):
        english = _CHINESE_GLOSS.sub("", normal)
        if _HAS_CJK.search(english) or not _HAS_LATIN.search(english):
            return _build(text, "zh", _chinese_words(normal))
        # "My boyfriend Chen Hao (陈浩) works in Shanghai" is English that writes a name in
        # Chinese too (review13 J6): read as Chinese, every English word was a "name"
        text, normal = _CHINESE_GLOSS.sub("", text), english
    # "Belém" read as "Bel" and "m": the English tokens are ASCII letters (Belém = Belem)
    normal = _ACCENTS.sub("", unicodedata.normalize("NFKD", normal))
    # "a five-minute walk" says five minutes, as 走路五分钟 does
    normal = _HYPHENED_NUMBER.sub(r"\1 ", normal)
    normal = _DOLLARS.sub(r"\1 dollars", _CLOCK.sub(r"\1\2m", _said_clock(normal)))
    return _build(text, "en", _english_words(normal))


# "$2,000" → "2,000 dollars", as "two thousand dollars" says it.
_DOLLARS = re.compile(r"\$\s?(\d[\d,.]*k?)")


# "10 pm", "10 p.m." → "10pm": one number, told apart from "10am" (and from "10").
_CLOCK = re.compile(r"(\d)\s*([ap])\.?m\.?(?![a-z])", re.IGNORECASE)


# "10 in the morning" is 10am, "11 at night" 11pm: the clock time, told apart like "10am".
_CLOCK_SAID = re.compile(
    r"\b(\d{1,2}(?::\d\d)?)\s+(?:o'clock\s+)?(in the morning|in the afternoon|in the evening"
    r"|at night)\b",
    re.IGNORECASE,
)


# "at midnight", "at noon": a clock time in words, read as the time it is ("11 pm" → "midnight"
# is a later bedtime, not a time dropped).
_CLOCK_WORDS = re.compile(r"\b(midnight|noon|midday)\b", re.IGNORECASE)


def _said_clock(text: str) -> str:
    text = _CLOCK_WORDS.sub(
        lambda match: "12am" if match.group(1).lower() == "midnight" else "12pm", text
    )
    return _CLOCK_SAID.sub(
        lambda match: match.group(1) + ("am" if "morning" in match.group(2).lower() else "pm"),
        text,
    )


def _said_by_someone(words: Sequence[Word], index: int) -> bool:
    """ "I *called* Tom", "I *named* my cat Tom", "Tom calls me": a naming word right after a
    person is something that person does (a phone call, giving a name), not a name given."""
    word = words[index]
    if word.norm != "name" or not word.surface.isascii() or index == 0:
        return False
    before = words[index - 1]
    return (
        before.norm in SELF_WORDS or before.norm in OTHER_WORDS or before.is_name or before.person
    )


def _english_words(text: str) -> list[Word]:
    words: list[Word] = []
    tokens = _EN_TOKEN.findall(text)
    for position, token in enumerate(tokens):
        lower = token.lower()
        if lower in _IRREGULAR_NEGATIVES:
            words += [Word(part, token) for part in _IRREGULAR_NEGATIVES[lower]]
            continue
        parts: tuple[str, ...] = (lower,)
        for suffix, expansion in _CONTRACTIONS.items():
            if lower.endswith(suffix) and len(lower) > len(suffix):
                stem = lower[: -len(suffix)]
                parts = (stem, *expansion)
                break
        for index, part in enumerate(parts):
            if not part[0].isalnum():
                words.append(Word("," if part in ",;:.!?()" else part, token))
                continue
            surface = token if index == 0 else part
            is_name = index == 0 and (
                _english_name(token, position, tokens) or _an_employer(token, position, tokens)
            )
            lemma = part if is_name or part[0].isdigit() else _lemma(part)
            if lemma.endswith("s") and lemma[:-1] in WEEKDAYS:
                lemma = lemma[:-1]  # "Tuesdays": the day
            person = (is_name or _leads_a_verb(token, tokens)) and position == 0
            words.append(Word(lemma.lower(), surface, is_name, person))
    return words


# Where simplemma's table is wrong for the sense memories use ("gone" → "gan").
_LEMMA_FIXES = {"gone": "go"}


def _lemma(word: str) -> str:
    """simplemma's lemma; for an -ing form it keeps ("living"), the verb it comes from."""
    if word in _LEMMA_FIXES:
        return _LEMMA_FIXES[word]
    lemma = lemmas.lemmatize(word)
    if word.endswith("lled") and lemma == word[:-2]:
        # British "cancelled", "labelled": simplemma keeps "cancell"; the American past
        # ("canceled") names the verb. "installed" stays "install".
        american = lemmas.lemmatize(word[:-3] + "ed")
        if american == word[:-3]:
            return american
    if lemma == word and word.endswith("ing") and len(word) > 5:
        stem = word[:-3]
        for candidate in (stem, stem + "e", stem[:-1]):
            if lemmas.is_known(candidate):
                return candidate
    return lemma


_ADVERBS_BEFORE_A_VERB = _words(
    """now still also just finally recently already no longer never always really actually
    officially usually often sometimes rarely only even suddenly"""
)


_NEGATED_AUXILIARIES = _words(
    "isn't wasn't hasn't hadn't doesn't didn't can't cannot won't wouldn't shouldn't couldn't"
)


def _leads_a_verb(token: str, tokens: Sequence[str]) -> bool:
    """ "Tom dropped…", "Lily goes…": a capitalized first word followed by a verb in the third
    person or the past is someone (or something) named, even when it is also a dictionary
    word (a tom is a cat)."""
    if not token[:1].isupper() or token == "I" or len(tokens) < 2:
        return False
    lower = token.lower()
    # "Emma now goes…", "Tom still eats…", "Fang no longer drinks…": the verb after the adverbs
    following = next((t.lower() for t in tokens[1:] if t.lower() not in _ADVERBS_BEFORE_A_VERB), "")
    base = lower.partition("'")[0]  # "I'm married", "She's engaged": a pronoun, no name
    if any(
        word in STOP_WORDS or word in SELF_WORDS or word in OTHER_WORDS or word in TIME_WORDS
        for word in (lower, base)
    ):
        return False
    return (
        following in ("is", "was", "has", "had", "does", "did")
        # "Leo doesn't need the night light anymore", "Mia can't eat nuts" (review12 R6)
        or following in _NEGATED_AUXILIARIES
        or following in IRREGULAR_PAST  # "Tom left Roosevelt High"
        or (following.isalpha() and following.endswith(("s", "ed")) and len(following) > 3)
    )


def _english_name(token: str, position: int, tokens: Sequence[str]) -> bool:
    """A proper name: capitalized mid-sentence, or at the start when it is no dictionary word;
    mixed case or letters with digits anywhere (iPhone, MacBook, Python3)."""
    lower = token.lower()
    if token == "I" or not token[0].isalpha() or lower in TIME_WORDS:
        return False
    if lower.endswith("s") and lower[:-1] in WEEKDAYS:  # "on Tuesdays"
        return False
    if any(c.isdigit() for c in token):
        return True
    if any(c.isupper() for c in token[1:]):
        return not (token.isupper() and lemmas.is_known(token.lower()))  # HATE
    if not token[0].isupper():
        return False
    base = lower.partition("'")[0]  # "He's", "She'd": a pronoun with its verb
    if any(
        word in STOP_WORDS or word in SELF_WORDS or word in OTHER_WORDS for word in (lower, base)
    ):
        return False
    if base in RELATIONS:
        return False  # "Mom's knee", "… and Dad": what a family calls its own, no name
    if base in _TITLES_EN:
        return False  # "Mrs. Lee": the name is Lee; the title says she is married
    starts_sentence = position == 0 or tokens[position - 1] in {".", "!", "?", ";", ":"}
    if position >= 2 and tokens[position - 1] == "." and tokens[position - 2].lower() in _TITLED:
        starts_sentence = False  # "Mrs. Lee", "Dr. Kim": the full stop ends the title
    return not starts_sentence or not lemmas.is_known(lower)


_TITLES_EN = frozenset({"mr", "mrs", "ms", "miss", "mx"})
_TITLED = _TITLES_EN | {"dr", "prof"}

_WORKS = _words("work works worked working")


def _an_employer(token: str, position: int, tokens: Sequence[str]) -> bool:
    """A capitalized word right after "works at"/"work for" names whom one works for, even a
    dictionary word in capitals (SAP, "sap"; only a word of shouting is kept out elsewhere)."""
    return (
        position >= 2
        and token[:1].isupper()
        and tokens[position - 1].lower() in _WORK_PLACES
        and tokens[position - 2].lower() in _WORKS
    )


@lru_cache(maxsize=1)
def _jieba() -> tuple[Any, Mapping[str, str]]:
    """jieba's word cutter and its dictionary's part-of-speech tags. The tags are looked up,
    not guessed: jieba.posseg's tagger costs ~8 times the cut (an HMM over every sentence).
    Both tables come from a derived cache file (review12 R8: ~1.3 s of CPU otherwise)."""
    from localmind import jieba_tables

    jieba, tags = jieba_tables.load()
    jieba.setLogLevel(60)  # its "Building prefix dict" chatter goes to stderr otherwise
    # The people and attributes the reader knows are words even where jieba's dictionary lacks
    # them: else its guesser glues the next character on (闺蜜林 小雨 for 闺蜜 林小雨, review11 Z2).
    for word in (*RELATIONS, *SINGLE_SLOTS, *MULTI_SLOTS):
        if word not in tags and _HAS_CJK.search(word):
            jieba.add_word(word, tag="n")
    return jieba, tags


_ZH_NAME_FLAGS = _words("nr nrt nrfg ns nt eng")
_ZH_NOT_NAMES = _words("东西 家里 老家")


# A change verb of one character and what follows it (改到, 调走, 换成): jieba may glue the
# verb to the word before it (瑜伽课改到 → 瑜伽 / 课改 / 到, 王磊调走 → 王磊调 / 走).
_CHANGE_VERBS_ZH = frozenset("改换调搬转涨降")
_CHANGE_COMPLEMENTS_ZH = frozenset("到成为走去掉")


def _change_verbs_apart(pieces: list[str]) -> list[str]:
    """jieba's pieces, with a change verb glued to the end of the word before it given back
    to the complement after it (课改 / 到 → 课 / 改到; 王磊调 / 走 → 王磊 / 调走): the change is
    told, and the thing or the person before it is itself (queue15)."""
    out: list[str] = []
    for index, piece in enumerate(pieces):
        following = pieces[index + 1] if index + 1 < len(pieces) else ""
        if (
            len(piece) > 1
            and piece[-1] in _CHANGE_VERBS_ZH
            and following[:1] in _CHANGE_COMPLEMENTS_ZH
            and _HAS_CJK.match(piece)
        ):
            out.append(piece[:-1])
            pieces[index + 1] = piece[-1] + following
            continue
        out.append(piece)
    return out


def _chinese_words(text: str) -> list[Word]:
    words: list[Word] = []
    cutter, tags = _jieba()
    for piece in _change_verbs_apart(cutter.lcut(text)):
        token = piece.strip()
        flag = tags.get(token) or ("eng" if token.isascii() and token.isalnum() else "")
        if not token:
            continue
        if token in _PUNCTUATION or all(c in _PUNCTUATION for c in token):
            words.append(Word(",", token))
            continue
        if len(token) > 1 and token[0] == "我" and token not in SELF_WORDS:
            words += [Word("我", "我"), Word(token[1:], token[1:])]  # jieba's 我会, 我家
            continue
        if split := _time_phrase(token):
            words += [Word(part, part) for part in split]  # 每晚 = 每天晚上: every + evening
            continue
        if (
            len(token) > 2
            and token[0] in "新旧"
            and tags.get(token[1:]) == "n"
            and not flag.startswith(("ns", "nr", "nt"))  # 新西兰, 旧金山, 新娘子
        ):
            # jieba's 新手机: a new phone is still the phone the older text names (review10 F28)
            words += [Word(token[0], token[0]), Word(token[1:], token[1:])]
            continue
        if (called := _glued_call(token, tags)) is not None:
            words += called  # 狗叫 豆豆, 叫小美: "is called" and what it names, apart
            continue
        if token in _TITLES_ZH and words and _a_family_name(words[-1]):
            # 张先生 "Mr. Zhang", cut by jieba as 张 + 先生: someone named, not the husband
            # (我先生 is); 王先生, which jieba keeps whole, reads so already
            named = words.pop().surface + token
            words.append(Word(named.lower(), named, True, True))
            continue
        if _glued_verb(token, flag, tags):
            words += [Word(token[0], token[0]), Word(token[1:], token[1:])]  # 爱喝: 爱 + 喝
            continue
        if (phrase := _a_verb_phrase(token, flag, tags)) is not None:
            words += [Word(part, part) for part in phrase]  # 考完试: 考 + 完 + 试, no person
            continue
        # Digits are numbers (compared as such) and 老公 is a husband, whatever the tag says.
        is_name = (
            flag in _ZH_NAME_FLAGS
            and token not in _ZH_NOT_NAMES
            and not token.replace(".", "").isdigit()
            and not _chinese_number(token)  # jieba's 三居室 "three-bedroom" is no name
            and token not in RELATIONS
        ) or _a_chinese_full_name(token, tags)
        norm = token.lower() if is_name else token
        # 不吃, 没去: a negation glued to its verb by jieba; the verb stays a content word.
        if (
            len(token) > 1
            and token[0] in "不没别"
            and token not in NOT_NEGATIONS
            and token not in NEGATIONS
        ):
            words += [Word(token[0], token), Word(token[1:], token)]
            continue
        person = (
            is_name and (flag.startswith("nr") or not flag) and not bilingual.names_a_thing(token)
        )
        words.append(Word(norm, token, is_name, person))
    return words


# The commonest Chinese family names (together about four people in five): a word jieba's
# dictionary does not know, of two or three characters, that starts with one is someone's
# name (陈阳, 王磊, 林小雨), which its dictionary could not list (review11 Z7, Z11).
_SURNAMES = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘蒋蔡余杜叶程"
    "苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝"
    "龚邵万钱严覃武戴莫孔向汤"
)


# Titles said after a family name (张先生 "Mr. Zhang", 李太太 "Mrs. Li"): the relation words
# among them (先生 "husband", 太太 "wife") name someone else there.
_TITLES_ZH = frozenset({"先生", "太太", "女士", "小姐"})


def _a_family_name(word: Word) -> bool:
    """A family name alone (张 of 张先生) or a name (家明 of 家明先生) before a title."""
    return (len(word.surface) == 1 and word.surface in _SURNAMES) or word.person


# jieba's guesser glues a word after a name (徐浩在, 王磊说): no name ends with one of these.
_GLUED_AFTER_A_NAME = frozenset("在的了和说是也都就又去来给跟把被要会")


def a_full_chinese_name(name: str) -> bool:
    """Whether ``name`` reads as a Chinese full name: two or three characters, a common family
    name first (刘洋, 王芳, 刘子轩)."""
    return 2 <= len(name) <= 3 and name[0] in _SURNAMES and all(_HAS_CJK.match(c) for c in name)


def _a_chinese_full_name(token: str, tags: Mapping[str, str]) -> bool:
    return (
        2 <= len(token) <= 3
        and token[0] in _SURNAMES
        and not (len(token) == 3 and token[-1] in _GLUED_AFTER_A_NAME)
        and token not in tags
        and all("\u4e00" <= c <= "\u9fff" for c in token)
    )


def _time_phrase(token: str) -> tuple[str, str] | None:
    """jieba keeps 每晚, 每天晚上, 每周三 whole and cuts 每个月 apart: "every" and the time,
    as two words, so that each telling reads alike."""
    for every in ("每天", "每"):
        rest = token.removeprefix(every)
        if rest != token and rest:
            rest = {"晚": "晚上", "早": "早上"}.get(rest, rest)
            if rest in TIME_WORDS or rest in ("月", "周", "年"):
                return every, rest
    return None


def _glued_call(token: str, tags: Mapping[str, str]) -> list[Word] | None:
    """jieba's 狗叫 ("a dog barks") in 我的狗叫豆豆 and its guess 叫小美 in 我女朋友叫小美: the
    pet or person, 叫 ("is called") and the name, as three words (review11 Z10)."""
    if len(token) < 2:
        return None
    if token.endswith("叫") and (token[:-1] in RELATIONS or token[:-1] in MULTI_SLOTS):
        return [Word(token[:-1], token[:-1]), Word("叫", "叫")]
    if token.startswith("叫") and token not in tags:
        name = token[1:]
        return [Word("叫", "叫"), Word(name.lower(), name, True, True)]
    return None


def _glued_verb(token: str, flag: str, tags: Mapping[str, str]) -> bool:
    """jieba's dictionary tags a few verb pairs as names (爱喝 "nr"): a liking word glued to
    the verb it likes."""
    return (
        flag.startswith("nr")
        and len(token) == 2
        and SYNONYMS.get(token[0]) == "like"
        and tags.get(token[1], "").startswith("v")
    )


# What follows a verb to say it is done (考完, 吃了, 戒掉): never the second character of a name.
_COMPLEMENTS = frozenset("完了过掉着")


def _a_verb_phrase(token: str, flag: str, tags: Mapping[str, str]) -> tuple[str, ...] | None:
    """A verb, its complement and what it acts on that jieba's dictionary lists, as one word,
    among people's names ("nr"): 考完试 ("after the exam"). It opens with a verb that is no
    family name (戴 and 谢 are: 戴大夫 and 谢政委 are people) and a complement (完, 了, 掉 …) no
    name has second; read as a name, "考完试以后咖啡还是戒不掉" was a statement about someone
    else, so the user's later coffee did not replace it. The three apart (考 完 试: each a
    word jieba's dictionary holds, none an unseen name). A verb and its noun (喝咖啡) stay one
    word: read apart, "我喝咖啡，不加糖" would merge with "I drink coffee" as a fuller telling,
    which tests/unit/test_sameness.py keeps apart."""
    if (
        not flag.startswith("nr")
        or len(token) < 3
        or token[1] not in _COMPLEMENTS
        or not tags.get(token[0], "").startswith("v")
        or bilingual.a_family_name(token[0])
    ):
        return None
    return token[0], token[1], token[2:]


def _chinese_number(token: str) -> str | None:
    """The number a Chinese word states (三杯 → 3, 四千五 → 4500, 十四号 → 14), "" for 一 used
    as an article (一名, 一个: like "a"), None when it states none."""
    match = _ZH_NUMERAL.match(token)
    if not match:
        return None
    numeral, rest = match.groups()
    if rest and not all(c in _ZH_CLASSIFIERS for c in rest):
        return None
    if numeral[0].isdigit():
        return numeral.replace(",", "")
    if not set(numeral) - _BARE_UNITS:
        return None  # 万锦 (Markham), 千万 ("by all means"): a unit alone counts nothing
    if numeral == "一" and rest:
        return ""
    if numeral == "半":
        return "0.5"
    total, section, digit = 0, 0, 0
    last_unit = 1
    for char in numeral:
        if char in _ZH_DIGITS:
            digit = _ZH_DIGITS[char]
        elif char in _ZH_UNITS:
            unit = _ZH_UNITS[char]
            if unit >= 10_000:
                total += (section + digit) * unit
                section = 0
            else:
                section += (digit or 1) * unit
            digit, last_unit = 0, unit
        else:
            return numeral
    if digit and last_unit >= 100:  # 四千五: the trailing digit is in the next unit down
        digit *= last_unit // 10
    return str(total + section + digit)


def _build(text: str, lang: str, words: list[Word]) -> Statement:
    words = [_with_synonym(word) for word in words]
    if lang == "en":
        words = _rooms_read(words)
    if lang == "en" and any(word.norm == "user" for word in words):
        words = [_singular_they(word) for word in words]
    persons = _persons(words)
    negations = 0
    numbers: set[str] = set()
    content: list[str] = []
    slots: set[str] = set()
    cues: set[str] = set()
    person_positions = _person_positions(words)
    if lang == "zh":
        numbers |= _chinese_numbers(_ZH_MONTH.sub("月", unicodedata.normalize("NFKC", text)))
    compounds = _compound_numbers(words) if lang == "en" else {}
    phone_named = any(SINGLE_SLOTS.get(word.norm) == "phone" for word in words)
    for index, word in enumerate(words):
        norm = word.norm
        if (
            (
                _is_cue(words, index)
                or (
                    lang == "zh"
                    and len(norm) > 1
                    and norm.startswith(CUE_PREFIXES_ZH)
                    and not _a_noun_of_three(norm)
                )
                # 从明年1月起涨到980欧: jieba glues the 起 of 从…起 "from … on" to the change
                or (lang == "zh" and norm[:1] == "起" and norm[1:].startswith(CUE_PREFIXES_ZH))
            )
            and not _hedged(words, index)
            and not _helped_with(words, index)
        ):
            cues.add(norm)
            if norm in JOB_ENDINGS:
                slots.add("job")
            elif norm in BREAKUPS:
                slots.add("partner")  # "we broke up": the partner memory is what it changes
        if lang == "en" and _up_or_down_to_a_number(words, index):
            cues.add(norm)  # "Sertraline went up to 100 mg", "Down to 63 kg": a new amount
        if lang == "zh" and _split_up(words, index):
            cues.add(norm)  # 我和阿杰已经分了, 我们分了: a breakup told short (queue15)
            slots.add("partner")
        if lang == "zh" and norm == "新" and _sets_a_slot_next(words, index):
            cues.add(norm)  # 我的新manager是…, 新工作: "new" before what it sets, as in English
        if lang == "zh" and VEHICLE_CLASSIFIER in norm:
            slots.add("vehicle")  # 一辆红色的本田: the measure word of vehicles (read as a number)
        if lang == "zh" and _degree_complement(words, index):
            continue  # 卡得不行 "terribly slow": a degree, no negation
        if norm in NEGATIONS:
            negations += 1
            continue
        number = compounds[index] if index in compounds else _number(word, lang)
        if number is None and lang == "en" and _second_of(words, index):
            number = "2"  # "in second grade" / 二年级 ("a second", "seconds" count no thing)
        if number is not None:
            if number and lang == "en":
                numbers.add(number)
            continue
        if word.surface in RELATION_DETAIL:
            content.append(RELATION_DETAIL[word.surface])
        slot = SINGLE_SLOTS.get(norm) or SINGLE_SLOTS.get(word.surface.lower())
        if not slot and lang == "zh" and len(norm) > 2:
            slot = SINGLE_SLOTS.get(norm[-2:])  # jieba's 三年级, 新公司: the attribute last
        if slot == "job" and lang == "en" and _others_job(words, index):
            slot = None
        if slot in ("partner", "manager") and _someone_elses(words, index):
            slot = None  # "… Linda and her new boyfriend are coming to our place"
        if slot == "job" and _names_a_contact(words, index):
            slot = None  # 我的工作邮箱, 工作电话: how to reach the user at work, not their job
        if slot == "manager" and _a_title(words, index):
            slot = "job"  # "I'm a product manager", 我是项目经理: what the user does
        if (
            slot == "residence"
            and lang == "en"
            and (_a_homes_detail(words, index) or _no_home_told(words, index))
        ):
            slot = None
        if slot and lang == "en" and names_another_thing(words, index):
            slot = None
        if slot == "residence" and (
            (lang == "en" and (_moves_something(words, index) or _an_occasion_moved(words, index)))
            or _helped_with(words, index)
        ):
            slot = None
        if slot == "phone" and word.surface.isascii() and not word.is_name:
            slot = None  # "pixel" of a picture; "Pixel 9", "iPhone" are phones
        if slot == "phone number" and norm == "phone" and phone_named:
            slot = None  # "My phone is an iPhone 13 mini": the phone itself, not its number
        if slot == "address" and index > 0 and SINGLE_SLOTS.get(words[index - 1].norm) == "email":
            slot = None  # "my email address": the e-mail, not where one lives
        if slot == "vehicle" and index > 0 and word.surface == "Drive":
            slot = None  # "near Commercial Drive": a street, not a car (review12 R7)
        if norm == "搬" and not _is_cue(words, index):
            slot = None  # 搬病人: carrying, not moving house
        if slot == "vehicle" and norm in _DRIVES and _a_trip(words, index):
            slot = "commute"
        if lang == "en" and norm == "work":
            slots |= _work_slots(words, index)
        if slot:
            slots.add(slot)
        multi = MULTI_SLOTS.get(norm) or MULTI_SLOTS.get(word.surface.lower())
        if multi == "drink" and lang == "en" and _in_a_name(words, index):
            multi = None  # "Silo Coffee", "Blue Bottle Coffee": a café's name, not a drink
        if multi:
            slots.add("~" + multi)
        if norm in ("favourite",) and index + 1 < len(words):
            following = [w.norm for w in words[index + 1 :] if w.norm not in STOP_WORDS]
            if following:
                slots.add(f"favourite {following[0]}")
        if (
            index in person_positions
            or norm in STOP_WORDS
            or norm in CUE_WORDS
            or norm == ","
            or norm in SELF_WORDS
            or norm in OTHER_WORDS
            or norm in RELATIONAL
            or word.surface in RELATIONAL
        ):
            continue
        content.append(norm)
    slots |= _possessive_slots(words, lang)
    names = _names(words)
    if names and not any(_said_by_someone(words, index) for index in range(len(words))):
        # "two cats named Miso and Tofu" / "two cats, Miso and Tofu", 我的领导叫王磊 / 王磊是我的
        # 上司: beside the names it gives, "named" says nothing (the names are compared)
        content = [word for word in content if word != "name"]
    terms = list(content)
    if lang == "zh":
        content = _chinese_characters(content, {name for group in names for name in group})
    relational = any(word.norm in RELATIONAL or word.surface in RELATIONAL for word in words)
    return Statement(
        text=text,
        lang=lang,
        words=tuple(words),
        persons=persons,
        negations=negations,
        numbers=frozenset(numbers),
        dates=_dates(words, lang, text),
        names=names,
        content=tuple(content),
        terms=tuple(terms),
        slots=frozenset(slots),
        cues=frozenset(cues),
        relational=relational,
        comparison=_comparison(words, person_positions),
        copula=any(word.norm in ("be", "是") for word in words),
        tense=_tense(words, lang),
        event=any(word.norm in EVENT_WORDS for word in words),
        coordinated=_coordinated(words, lang, person_positions),
    )


# Only "and": "or", "with" (跟) and a comma join things whose order may matter.
_AND = _words("and 和 、 与 及 以及")


def _coordinated(
    words: Sequence[Word], lang: str, person_positions: set[int]
) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    """Pairs of single content words joined by "and" ("shrimp and crab"), as content forms
    (Chinese: characters), for the order check to take either order."""

    def form(index: int) -> tuple[str, ...] | None:
        word = words[index]
        if (
            index in person_positions
            or word.is_name  # names have their own order check
            or word.norm in STOP_WORDS
            or word.norm in RELATIONAL
            or word.norm in NEGATIONS
            or word.norm == ","
        ):
            return None
        return tuple(_chinese_characters([word.norm], set())) if lang == "zh" else (word.norm,)

    pairs = []
    for index in range(1, len(words) - 1):
        if words[index].norm in _AND or words[index].surface in _AND:
            after = index + 1  # "the piano and *the* guitar", 一只猫和*一只*狗
            while after < len(words) - 1 and (
                words[after].norm in _ARTICLES or _chinese_number(words[after].surface) == ""
            ):
                after += 1
            first, second = form(index - 1), form(after)
            if first and second:
                pairs.append((first, second))
    return tuple(pairs)


_ARTICLES = _words("a an the 一 只 个")


_CARDINALS = _words(
    "zero one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty "
    "forty fifty hundred thousand million"
)


def _compound_numbers(words: Sequence[Word]) -> dict[int, str]:
    """Numbers told in several words ("two thousand", "twenty five", "3 million"): the
    position of the first word → the whole value, the others → "" (no number of their own),
    so that "two thousand dollars" and "$2,000" state the same number."""
    found: dict[int, str] = {}
    index = 0
    while index < len(words):
        end = index
        while end < len(words) and (
            words[end].norm in _CARDINALS or (end == index and words[end].norm.isdigit())
        ):
            end += 1
        if end - index > 1:
            total = current = 0
            for word in words[index:end]:
                value = int(word.norm) if word.norm.isdigit() else int(NUMBER_WORDS[word.norm])
                if value == 100:
                    current = (current or 1) * 100
                elif value >= 1000:
                    total, current = total + (current or 1) * value, 0
                else:
                    current += value
            found[index] = str(total + current)
            found.update(dict.fromkeys(range(index + 1, end), ""))
        index = max(end, index + 1)
    return found


_ZH_NUMERAL_CHARS = frozenset("零〇一二两三四五六七八九十百千万亿")
_MEASURE_WORDS = frozenset("个辆本张份台间双条件头匹棵瓶碗点")
_HEADS = frozenset(SYNONYMS.values())


def _chinese_characters(content: Sequence[str], names: set[str]) -> list[str]:
    """Chinese content words as characters: jieba cuts the same phrase differently from one
    sentence to the next (买房子 / 买 房子, 爱看 / 喜欢 看), its characters stay the same.
    Names, Latin words and synonym heads stay whole; numerals and their classifiers go (the
    numbers are compared on their own)."""
    characters: list[str] = []
    for word in content:
        if word in _MEASURE_WORDS:
            continue  # 买了辆新车 / 买了一辆新车: a classifier standing alone says nothing
        if word in names or word in _HEADS or word in TIME_WORDS or not _HAS_CJK.search(word):
            characters.append(word)
            continue
        previous = ""
        for char in word:
            numeral = char in _ZH_NUMERAL_CHARS
            if not numeral and not (previous in _ZH_NUMERAL_CHARS and char in _ZH_CLASSIFIERS):
                characters.append(SYNONYMS.get(char, char))
            previous = char
    return characters


_ZH_WEEKDAYS = {
    "周一": "mon",
    "周二": "tue",
    "周三": "wed",
    "周四": "thu",
    "周五": "fri",
    "周六": "sat",
    "周日": "sun",
    "周天": "sun",
}


def _date_word(word: Word) -> str:
    """The weekday or month a word names ("tuesdays" → tuesday, 每周三 → 周三), or ""."""
    for form in (word.norm, word.norm.rstrip("s"), word.norm.removeprefix("每")):
        if form in WEEKDAYS or (form in MONTHS and form != "may"):
            if form.isascii():
                return form[:3]
            zh = form.replace("星期", "周").replace("礼拜", "周")
            return _ZH_WEEKDAYS.get(zh, zh)  # 周六 and Saturday are one day
    return ""


# 9月, 十二月, 三月十四号: a month, as "September" is (not the number 9); 三个月 is a number.
_ZH_MONTH = re.compile(
    r"(?<![\d零〇一二两三四五六七八九十])(1[0-2]|0?[1-9]|十[一二]?|[一二三四五六七八九])月"
)
_ZH_WEEKDAY = re.compile(r"(?:周|星期|礼拜)([一二三四五六日天])")
# 周三 is Wednesday, but 一周三次 / 每周三天 say "three times / days a week": a count
_A_COUNT_AFTER = frozenset("次回遍趟")


def _counts_a_week(text: str, match: re.Match[str]) -> bool:
    after = text[match.end() : match.end() + 1]
    if after and after in _A_COUNT_AFTER:
        return True
    before = text[match.start() - 1 : match.start()] if match.start() else ""
    return after == "天" and before in ("一", "每") and match.group(1) not in "日天"


_MONTH_NAMES = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def _dates(words: Sequence[Word], lang: str, text: str) -> frozenset[str]:
    """The weekdays and months a statement names: "on Saturday" / 周六, "September" / 9月.
    "May" is a month only before a number ("May 3"): else it is "may"."""
    found = {_date_word(word) for word in words} - {""}
    if lang == "zh":
        days: set[str] = set()
        counts: set[str] = set()
        for match in _ZH_WEEKDAY.finditer(text):  # jieba may cut 每周二 as 每周 / 二
            day = _ZH_WEEKDAYS["周" + match.group(1).replace("天", "日")]
            (counts if _counts_a_week(text, match) else days).add(day)
        found = (found - counts) | days  # jieba's own 周三 of 每周三次 is no day either
        for match in _ZH_MONTH.finditer(unicodedata.normalize("NFKC", text)):
            number = _chinese_number(match.group(1)) or ""
            if number.isdigit() and 1 <= int(number) <= 12:
                found.add(_MONTH_NAMES[int(number) - 1])
        return frozenset(found)
    for word, following in itertools.pairwise(words):
        if word.surface == "May" and following.norm[:1].isdigit():
            found.add("may")
    return frozenset(found)


# Units of time before "now": how long something has lasted ("a month now").
_DURATIONS = frozenset({"minute", "hour", "day", "week", "month", "year", "while"})


def _a_noun_of_three(norm: str) -> bool:
    """A word of three or more characters jieba tags as a noun (降压药 "blood pressure pills",
    停车场 "car park"): a thing, though it begins as a change word does (降, 停; queue15)."""
    return len(norm) > 2 and (_jieba()[1].get(norm) or "").startswith("n")


def _split_up(words: Sequence[Word], index: int) -> bool:
    """分 then 了 ending a clause after 我和… / 我们 (我和阿杰已经分了, 我们上个月分了): a couple
    split up, told without 手. Not 分了一半 "split half", 分了工 (something follows)."""
    if words[index].norm != "分" or index + 1 >= len(words) or words[index + 1].norm != "了":
        return False
    ends = index + 2 >= len(words) or words[index + 2].norm == ","
    couple = any(
        word.norm in ("我们", "咱们")
        or (word.norm == "和" and position and words[position - 1].norm == "我")
        for position, word in enumerate(words[:index])
    )
    return ends and couple


# Change words that are other words in their plain form: "the lower left molar", "a bump on
# the head"; "lowered", "bumped" are the change.
_VERB_ONLY = frozenset({"low", "lower", "bump"})


def _up_or_down_to_a_number(words: Sequence[Word], index: int) -> bool:
    """ "up to" or "down to" before a number, opening the text or after a verb of going or
    being ("Sertraline went up to 100 mg", "Down to 63 kg!", "my rent is up to 1,300"): an
    amount that changed, told with no change verb (queue15). Not "seats up to 5 people"."""
    if words[index].norm not in ("up", "down") or index + 2 >= len(words):
        return False
    before = words[index - 1].norm if index else ""
    return (
        (not index or before in _GOING_UP)
        and words[index + 1].norm == "to"
        and _number(words[index + 2], "en") is not None
    )


_GOING_UP = frozenset({"go", "be", "'s", "get", "come", "now"})


def _is_cue(words: Sequence[Word], index: int) -> bool:
    word = words[index]
    if word.norm not in CUE_WORDS and word.surface not in CUE_WORDS:
        return False
    before = words[index - 1] if index else None
    if (
        before is not None
        and before.norm in _NEGATING_A_CHANGE
        and word.norm not in _CUES_AFTER_A_NEGATION
    ):
        return False  # "Chloe wouldn't stop counting", 没搬: nothing changed
    if word.norm == "left":  # "I left Northwind", not "the lower left molar"
        return before is None or before.is_name or before.person or before.norm in PAST_AFTER
    if word.norm == "back":
        # "my back is killing me" (a noun), "back from Tokyo" (home from a trip): no change,
        # unlike "moved back to Lyon" or "switched back".
        after = words[index + 1] if index + 1 < len(words) else None
        # "she always backs her nurses": the verb (to support), not a way back.
        owned = before is not None and before.norm in _DETERMINERS
        verb = word.surface.lower() in ("backs", "backed", "backing")
        # "driving back to Richmond", "flew back": a way back, not a change back ("went back to
        # iPhone" is one)
        going = before is not None and before.norm in _GOING
        return (
            not owned
            and not verb
            and not going
            and not (after is not None and after.norm == "from")
        )
    if word.norm == "new" and word.surface == "New" and index:
        # "Lunar New Year", "the New York office": part of a name, not a new value
        after = words[index + 1] if index + 1 < len(words) else None
        return not (after is not None and after.surface[:1].isupper())
    if word.norm == "finish":  # "the finish line", not "I finished the course"
        after = words[index + 1] if index + 1 < len(words) else None
        return not (after is not None and after.norm == "line")
    if word.norm == "now":  # "Now that we're in Ballard, I bike": because, not a change
        after = words[index + 1] if index + 1 < len(words) else None
        # "over a month now", "for two years now": how long it has lasted, not a change
        lasted = before is not None and before.norm.rstrip("s") in _DURATIONS
        return (after is None or after.norm != "that") and not lasted
    after = words[index + 1] if index + 1 < len(words) else None
    if word.norm == "pass":  # "passed away", not "passed the exam"
        return after is not None and after.norm == "away"
    if word.norm in ("break", "broke", "split"):  # "broke up", not "broke my leg", "split it"
        return after is not None and after.norm == "up"
    if word.norm == "fire":  # "I got fired", not "a fire in the kitchen"
        return word.surface.lower() == "fired"
    if word.norm == "lay":  # "I was laid off"
        return after is not None and after.norm == "off"
    if word.norm in _VERB_ONLY:  # "lowered my dose", not "the lower left molar" (queue15)
        return word.surface.lower().endswith(("ed", "ing", "ers", "ps"))
    if word.norm == "trade":  # "traded in the Corolla" (sold it), not "trades stocks"
        # "Traded the Civic for a Subaru Outback": one given for another (queue15)
        traded_for = word.surface.lower() == "traded" and any(
            ahead.norm == "for" for ahead in words[index + 1 : index + 5]
        )
        return after is not None and (after.norm == "in" or traded_for)
    if word.norm == "转":  # 转成全职 is a change; 再转地铁, 走404转401 change trains
        after = words[index + 1] if index + 1 < len(words) else None
        return after is not None and after.norm in ("成", "为", "到", "去", "回")
    if word.norm in ("现在", "如今"):  # 既然现在住在Ballard: the same "now that"
        # 箱子到现在还没拆完 "until now": how long, not a change
        return before is None or before.norm not in ("既然", "到", "直到")
    if word.norm == "搬":  # 搬了新家, 搬去多伦多: a move; 搬病人 carries patients, 搬多了 a lot
        return (
            after is None
            or after.is_name
            or after.norm in _MOVED_TO
            or after.norm.startswith(_MOVED_TO)
            or after.norm.endswith("家")
        )
    return True


# After "live on": a place lived in ("on campus", "on the third floor", "on Main Street"),
# not what one lives on ("live on oat milk lattes").
_LIVED_ON = _words("campus site base board the a an my our this that")


def _no_home_told(words: Sequence[Word], index: int) -> bool:
    """The residence word at ``index`` tells no home: "stayed home" for Christmas (a day in,
    not where one lives) or "live on" what one eats or drinks ("i basically live on oat milk
    lattes"): a one-value attribute read there was queued against the user's home."""
    word = words[index]
    after = words[index + 1] if index + 1 < len(words) else None
    if after is None:
        return False
    if word.surface.lower().startswith("stay") and after.norm == "home":
        return True
    if word.norm == "live" and after.norm == "on" and index + 2 < len(words):
        thing = words[index + 2]
        return not thing.is_name and not thing.norm[:1].isdigit() and thing.norm not in _LIVED_ON
    return False


# Verbs of going somewhere: "back" after them is a way back ("driving back to Richmond").
_GOING = _words("drive fly walk head ride bike 开车")


def _sets_a_slot_next(words: Sequence[Word], index: int) -> bool:
    """The word after ``index`` names a one-value attribute (新manager, 新工作; 新家 is one
    word)."""
    after = words[index + 1] if index + 1 < len(words) else None
    return after is not None and bool(
        SINGLE_SLOTS.get(after.norm) or SINGLE_SLOTS.get(after.surface.lower())
    )


# A negation right before a change word says it did not happen ("wouldn't stop", "didn't
# move", 没换) …
_NEGATING_A_CHANGE = _words("not never 没 没有 未")
# … except where the negation makes the change word ("no longer", "not anymore").
_CUES_AFTER_A_NEGATION = _words("longer long anymore more")


# What follows 搬 when it is a move: where to, away, home (not a thing carried).
_MOVED_TO = ("到", "进", "去", "回", "走", "出", "过", "来", "了", "的", "新", ",")


# Job words that name the one who holds the job ("a nurse"), not the job ("my job").
_JOB_HOLDERS = _words("engineer developer designer nurse teacher")
_POSSESSIVES = _words("my your his her our their 's")


_THIRD_POSSESSIVES = _words("his her their 他 她 他们 她们")


def _someone_elses(words: Sequence[Word], index: int) -> bool:
    """The partner or manager word at ``index`` is another's, in a text the user tells of
    themselves too: "Mom, Linda and her new boyfriend Marcus are coming to our place" (not
    the user's partner); "Linda and her boyfriend broke up", told of Linda alone, keeps it."""
    at = index - 1
    while at >= 0 and (words[at].norm in RELATION_ADJECTIVES or words[at].norm == "的"):
        at -= 1
    if at < 0 or words[at].norm not in _THIRD_POSSESSIVES:
        return False
    return any(
        word.norm in SELF_WORDS or word.norm in POSSESSIVE_SELF
        for word in words
        if word.norm not in _THIRD_POSSESSIVES
    )


def _others_job(words: Sequence[Word], index: int) -> bool:
    """The job word at ``index`` is someone else's: in the plural ("she backs her nurses",
    "the teachers"), or one who holds it after a possessive ("her teacher is Ms. Ramirez",
    "my teacher says"), not the subject's own job ("I'm a teacher")."""
    word = words[index]
    if word.surface.lower() in (word.norm + "s", word.norm + "es"):
        return True
    before = words[index - 1].norm if index else ""
    return word.norm in _JOB_HOLDERS and before in _POSSESSIVES


# After "work": who one works for ("at Zalando", "for SAP") or what as ("as a tech lead").
_WORK_PLACES = _words("at for")
_WORK_AS = _words("as")


def _work_slots(words: Sequence[Word], index: int) -> set[str]:
    """The one-value attributes "work" sets at ``index``: the employer when a name follows
    "at"/"for" ("works at SAP", "work for Bosch"), the job when "as" follows ("works as a data
    engineer"). "work" alone sets neither ("I work from home", "work at night", "work on the
    kitchen"): review9 M1, where "now works at SAP as a tech lead" was no change to "works as a
    data engineer at Zalando" as no slot word said so."""
    slots: set[str] = set()
    if not _the_users_work(words, index):
        return slots
    for ahead in range(index + 1, min(index + 6, len(words) - 1)):
        word, following = words[ahead], words[ahead + 1]
        if word.norm == ",":
            break
        if word.norm in _WORK_PLACES and following.is_name:
            slots.add("employer")
        elif word.norm in _WORK_AS:
            slots.add("job")
    return slots


# Nouns that name the home itself (not "live", "move": those set where one lives anyway).
_HOMES = _words("apartment flat")
# A home named after these is what a detail belongs to ("the door code of my new flat", "our
# rent on the apartment"), not where one lives.
_DETAIL_OF = _words("of on for")
# Words between such a preposition and the home ("of *the user's new* flat").
_HOME_DETERMINERS = _words("the a an my our your their his her user 's")


def _a_homes_detail(words: Sequence[Word], index: int) -> bool:
    """The home at ``index`` is what another thing belongs to — "The door code of the user's
    new flat is 7391#", "My flat's wifi password", "Our rent on the apartment" — so the text
    sets that thing, not the residence (review10 F7: a door code was queued against a move at
    cosine 0.13 as "both set the residence")."""
    if words[index].norm not in _HOMES:
        return False
    if index + 2 < len(words) and words[index + 1].norm == "'s":
        return True  # "my flat's door code"
    before = index - 1
    while before >= 0 and (
        words[before].norm in _HOME_DETERMINERS or words[before].norm in SLOT_ADJECTIVES
    ):
        before -= 1
    return before > 0 and words[before].norm in _DETAIL_OF


# An attribute's word before one of these names another thing (review12 R1: "a flat white"
# set the residence, "Emma's school concert" the school, and each was queued against a change).
_ANOTHER_THING_AFTER = {
    "flat": _words("white whites tire tires tyre tyres rate fee"),
    # a phone's plan, bill or case is no way to reach the user (review13 J9: "I switched my
    # phone plan to Telekom" was "both set the contact details" with the phone itself)
    "phone": _words("plan plans bill bills contract case cases carrier provider insurance tariff"),
    # "a live band": music, not a home
    "live": _words("band bands music show shows stream"),
    "school": _words(
        """concert concerts play trip trips fair run holiday holidays bus uniform event events
        show party picnic camp reunion musical recital lunch lunches photo photos assembly
        festival fundraiser bake sports pickup"""
    ),
}


def _in_a_name(words: Sequence[Word], index: int) -> bool:
    """The word at ``index`` is capitalised after a capitalised word: part of a name."""
    return (
        index > 0 and words[index].surface[:1].isupper() and words[index - 1].surface[:1].isupper()
    )


_ROOMS = _words("room rooms area")


def _rooms_read(words: list[Word]) -> list[Word]:
    """ "the living room" is a room, not "live" (queue15: "We moved the sofa into the living
    room" was a change of home to "We live in Kreuzberg", by the word "live" both held)."""
    return [
        Word("living", word.surface, word.is_name, word.person)
        if word.surface.lower() == "living"
        and index + 1 < len(words)
        and words[index + 1].norm in _ROOMS
        else word
        for index, word in enumerate(words)
    ]


def names_another_thing(words: Sequence[Word], index: int) -> bool:
    """The attribute's word at ``index`` only qualifies the noun after it ("a flat white",
    "the school concert"): the text tells of that, not where one lives or studies."""
    if _a_diet_word_qualifying(words, index):
        return True
    after = _ANOTHER_THING_AFTER.get(words[index].norm)
    return after is not None and index + 1 < len(words) and words[index + 1].surface in after


# A diet told of a person, not of a dish: "I'm vegan" / "a vegan ramen place" (queue15).
_DIET_ADJECTIVES = _words("vegan vegetarian pescatarian")
# After a diet word these still tell the person's diet: "vegetarian again", "vegan diet".
_DIET_GOES_ON = _words("again since except ever diet lifestyle person")


def _a_diet_word_qualifying(words: Sequence[Word], index: int) -> bool:
    """The diet word at ``index`` stands before the noun it qualifies ("Tried a great vegan
    ramen place", "the vegetarian menu"): the text tells of a dish or a place, not of what the
    user eats. Any word that is no function word, time word or change word counts as that
    noun: the English reader has no tagger, and a diet told of a person ends its phrase ("I'm
    vegan", "vegetarian since 2015", "vegan now")."""
    if words[index].norm not in _DIET_ADJECTIVES or index + 1 >= len(words):
        return False
    after = words[index + 1]
    return (
        after.surface.isalpha()
        and after.norm not in STOP_WORDS
        and after.norm not in TIME_WORDS
        and after.norm not in CUE_WORDS
        and after.norm not in _DIET_GOES_ON
    )


# After "move" these make it something moved, not a home: "moved our banking to BECU", "moved
# the Tokyo trip to May", "moved on to the billing rewrite" (review12 R1: paired with where
# one lives).
_MOVED_OBJECT = _words("the our my his her their its a an it them this that on up forward ahead")


# What is moved to another day, not a home (review14 K2: "The Kunming trip moved: we'll go
# after CNY" was paired with "We bought a condo … we move in mid-November", "both set the
# residence"): "the trip moved", "my appointment was moved to Friday".
_OCCASIONS = _words(
    "trip trips flight flights meeting meetings appointment appointments class classes lesson "
    "lessons surgery operation visit visits party wedding exam exams interview holiday holidays "
    "vacation dinner lunch call deadline concert game match session checkup check-up ceremony "
    "booking reservation review launch event"
)
_MOVED_AUXILIARIES = _words("was were got get gets has have had been is are be")


#: How far before "moved" (past its helping verbs) the occasion moved may be: "dinner with Anna
#: got moved", "the meeting with our landlord was moved".
_OCCASION_REACH = 5
#: Who moves house: met first (going back from "moved"), the occasion before it is no subject
#: ("after the trip we moved to Lisbon").
_MOVERS = _words("i we they he she you")
#: Before the occasion, these make it a time, not what moved ("after the meeting my parents
#: moved to Porto").
_OCCASION_AS_TIME = _words("after before since during until till from following")


def _an_occasion_moved(words: Sequence[Word], index: int) -> bool:
    """Whether the "move" at ``index`` tells of an occasion moved to another time ("the trip
    moved", "the meeting got moved to Tuesday", "dinner with Anna got moved to Friday"): an
    occasion names the subject, past helping verbs. Read by the word as written too, not only
    its lemma and synonym group ("meeting" is read as "meet", polish15)."""
    if words[index].norm not in ("move", "moved"):
        return False
    before = index - 1
    while before >= 0 and words[before].norm in _MOVED_AUXILIARIES:
        before -= 1
    for at in range(before, max(before - _OCCASION_REACH, -1), -1):
        word = words[at]
        if word.surface.lower() in _MOVERS:
            return False
        if word.norm in _OCCASIONS or word.surface.lower() in _OCCASIONS:
            return not any(
                w.surface.lower() in _OCCASION_AS_TIME for w in words[max(at - 2, 0) : at]
            )
    return _moved_to_a_day(words, index)


def _moved_to_a_day(words: Sequence[Word], index: int) -> bool:
    """The "move" at ``index`` goes to a weekday or a month ("Yoga moved to Wednesdays",
    "swimming moved to Thursday"): something moved to another time, whatever it is, not a
    home ("moved to Lisbon in March" goes to a place first; queue15)."""
    ahead = index + 1
    if ahead < len(words) and words[ahead].norm == "to":
        ahead += 1
        while ahead < len(words) and words[ahead].norm in ("the", "a", "an", "every"):
            ahead += 1
        return ahead < len(words) and _date_word(words[ahead]) != ""
    return False


def _moves_something(words: Sequence[Word], index: int) -> bool:
    return (
        words[index].norm in ("move", "relocate")
        and index + 1 < len(words)
        and words[index + 1].norm in _MOVED_OBJECT
    )


_DRIVES = _words("drive 开车")
# What makes a drive a trip: where to (去, "to"), or how long it takes.
_TRIP_WORDS = _words("to 去 到 minute minutes hour hours min 分钟 小时 钟头")
_TRIP_REACH = 4


def _a_trip(words: Sequence[Word], index: int) -> bool:
    """The drive at ``index`` goes somewhere or takes a while ("I drive to Scarborough General,
    25 minutes", 离我们开车二十分钟, 开车去养老院): the way to a place, not the car one has
    ("I drive a 2012 Corolla"). Such a text tells the commute (or a distance), and a change of
    home told beside it is not one of the vehicle."""
    ahead = words[index + 1 : index + 1 + _TRIP_REACH]
    return any(word.norm in _TRIP_WORDS or word.norm.endswith(("分钟", "小时")) for word in ahead)


def _the_users_work(words: Sequence[Word], index: int) -> bool:
    """The "work" at ``index`` is the user's: "I (still) work", "the user now works", not "My
    college roommate Priya works", "Jake still works", "my wife works" (their employer is
    theirs: read as the user's, it was a change to every text about the user's job)."""
    for before in reversed(words[max(0, index - _WORKER_REACH) : index]):
        if before.is_name or before.person or _relation(before) or before.norm in OTHER_WORDS:
            return False
        if before.norm in SELF_WORDS:
            return True
    return False


# How far before "work" its worker is looked for: "I have also worked", "the user now works".
_WORKER_REACH = 3


# Words before a noun: "my back", "the back".
_DETERMINERS = _words("my our your his her their the a an 's")
# A change only thought about is none yet: "thinking about replacing the RAV4", "we might
# switch", 考虑把RAV4换成电动车, 可能搬家. Looked for among the few words before the cue.
HEDGES = _words(
    "think thinking considering consider maybe might perhaps if whether possibly "
    "考虑 可能 也许 或许 如果 要是 想想"
)
_HEDGE_REACH = 4


# "Helped David move boxes", 帮Anna搬家: the change is the other person's, done with help.
_HELPING = _words("help helped helping 帮 帮忙 帮着")


def _helped_with(words: Sequence[Word], index: int) -> bool:
    """The cue at ``index`` is what the user helped someone do (review12 R7: "Helped David
    move boxes" was queued as a change of what David recommended): one or two words after a
    helping word, a person or a name between."""
    before = words[max(0, index - 3) : index]
    return any(
        word.norm in _HELPING or word.surface.lower() in _HELPING for word in before[:-1] or before
    ) and any(w.is_name or w.person or _relation(w) or w.norm in OTHER_WORDS for w in before)


def _hedged(words: Sequence[Word], index: int) -> bool:
    """The cue at ``index`` is only thought about: a hedge among the few words before it,
    within its clause."""
    for word in reversed(words[max(0, index - _HEDGE_REACH) : index]):
        if word.norm in (",", ";", ".") or word.surface in ("，", "；", "。"):
            return False
        if word.norm in HEDGES or word.surface.lower() in HEDGES:
            return True
    return False


# "The user doesn't eat meat; they are vegetarian": in a text about the user, "they" is the
# user (a singular they), not someone else.
_USER_THEY = {"they": "user", "them": "user", "their": "our", "theirs": "ours"}


def _singular_they(word: Word) -> Word:
    norm = _USER_THEY.get(word.norm)
    return word if norm is None else Word(norm, word.surface)


def _with_synonym(word: Word) -> Word:
    if word.is_name:
        return word
    head = SYNONYMS.get(word.surface.lower()) or SYNONYMS.get(word.norm)
    return word if head is None else Word(head, word.surface)


_NOT_BEFORE_AN_ORDINAL = frozenset({"a", "one", "per", "each", "every", "few", "several", "split"})


def _second_of(words: Sequence[Word], index: int) -> bool:
    """ "second" as an ordinal before what it counts (second grade, my second job), which
    NUMBER_WORDS cannot list: "wait a second", "a split second" are no second thing."""
    if words[index].surface.lower() != "second" or index + 1 >= len(words):
        return False
    before = words[index - 1].norm if index else ""
    return words[index + 1].norm[:1].isalpha() and before not in _NOT_BEFORE_AN_ORDINAL


def _number(word: Word, lang: str) -> str | None:
    norm = word.norm
    if norm[0].isdigit():
        plain = re.sub(r"(?<=\d),(?=\d{3})", "", norm)
        plain = re.sub(r"(?<=\d)(st|nd|rd|th)$", "", plain)  # 5th floor / fifth floor
        if plain.endswith("k") and plain[:-1].replace(".", "").isdigit():
            return str(round(float(plain[:-1]) * 1000))  # $182k / $182,000
        return _without_trailing_zeros(plain)
    if lang == "en":
        return NUMBER_WORDS.get(norm)
    return _chinese_number(word.surface)


_ZH_NUMBER_IN_TEXT = re.compile(
    r"(\d+(?:[.,]\d+)*(?:[万千](?:\d[千百十]?)*)?%?)"
    r"|([零〇一二两三四五六七八九十百千万亿]*[十百千万亿][零〇一二两三四五六七八九十百千万亿]*)"
    r"|([零〇一二两三四五六七八九]+)(?=[个只岁年月日号次天周位块元点分杯片名辆本张份口台间双对层斤里楼家室居])"
)


_ZH_MIDNIGHT = re.compile(r"午夜|子夜")
# 一点 is "a little" (早一点), but one o'clock after a time of day (凌晨一点, 下午一点) or
# as 一点钟, 一点半.
_ONE_OCLOCK = re.compile(
    r"(?<=凌晨|早上|上午|中午|下午|晚上|半夜|夜里)一点|一点(?=钟|半|整|\d|[一二三四五]十)"
)


# 三月一号 "March 1": the day, not the article 一 (a month before it is written 月 here)
FIRST_OF_A_MONTH = re.compile(r"(?<=月)一(?=[号日])")
# 四点半, 4点半, 三点一刻, 十点二十分: a clock time with its minutes
_ZH_CLOCK = re.compile(
    r"(?P<hour>\d{1,2}|[零〇一二两三四五六七八九十]{1,3})点"
    r"(?P<minutes>半|一刻|三刻|(?:\d{1,2}|[零〇一二三四五六七八九十]{1,3})分)"
)
_QUARTERS = {"半": "30", "一刻": "15", "三刻": "45"}


def _clock_read(match: re.Match[str]) -> str:
    """What is left of a clock time once read: its 点, so that nothing counts its numbers."""
    hour = _chinese_number(match["hour"]) or match["hour"]
    return "点" if hour.isdigit() else match.group()


def _chinese_numbers(text: str) -> set[str]:
    """The numbers a Chinese text states, read from the text rather than from jieba's words,
    which glue numerals to their neighbours differently from one sentence to the next
    (十一点左右, 三点 / 半去)."""
    # 午夜 "midnight" is twelve o'clock, as 十二点 is
    found: set[str] = {"12"} if _ZH_MIDNIGHT.search(text) else set()
    # 四点半 is 4:30, as "4:30" is (not 4 and a half); read before the numbers around it
    for match in _ZH_CLOCK.finditer(text):
        hour = _chinese_number(match["hour"]) or match["hour"]
        if not hour.isdigit():
            continue
        minutes = _QUARTERS.get(match["minutes"]) or _chinese_number(match["minutes"][:-1]) or ""
        if minutes.isdigit() and int(minutes) < 60:
            found.add(f"{int(hour)}:{int(minutes):02d}")
    text = _ZH_CLOCK.sub(_clock_read, text)
    for match in _ZH_NUMBER_IN_TEXT.finditer(unicodedata.normalize("NFKC", text)):
        digits, large, small = match.groups()
        numeral = large or small
        if digits:
            plain = _digits_with_units(re.sub(r"(?<=\d),(?=\d{3})", "", digits))
            found.add(_without_trailing_zeros(plain))
            continue
        start = match.start()
        if (
            numeral == "一"
            and (start == 0 or text[start - 1] not in "0123456789第")
            and not _ONE_OCLOCK.match(text, start)
            and not FIRST_OF_A_MONTH.match(text, start)
        ):
            continue  # 一名, 一个: an article, like "a"; 第一 is "first"
        value = _chinese_number(numeral)
        if value:
            found.add(value)
    return found


_DIGITS_UNITS = {"万": 10_000, "千": 1000, "百": 100, "十": 10}
_TRAILING_ZEROS = re.compile(r"(?<=\d)\.0+(?=%?$)|(?<=\.\d)0+(?=%?$)|(?<=\.\d\d)0+(?=%?$)")


def _without_trailing_zeros(number: str) -> str:
    """6.0 → 6, $20.50 → 20.5, 7.50% → 7.5%: one number however many zeros close it."""
    if "." not in number or ":" in number or number.count(".") > 1:
        return number  # 10:30, 1.2.3: not a decimal
    return _TRAILING_ZEROS.sub("", number)


def _digits_with_units(number: str) -> str:
    """98.5万 → 985000, 4万3千5百 → 43500, as "$985,000" says them; 10% stays 10%."""
    parts = re.findall(r"(\d+(?:\.\d+)?)([万千百十]?)", number)
    if len(parts) < 2 and not (parts and parts[0][1]):
        return number
    total = 0.0
    for value, unit in parts:
        total += float(value) * _DIGITS_UNITS.get(unit, 1)
    return str(int(total)) if total.is_integer() else str(total)


def _tense(words: Sequence[Word], lang: str) -> frozenset[str]:
    marks: set[str] = set()
    if lang == "zh":
        for index, word in enumerate(words):
            if word.norm in FUTURE_ZH:
                marks.add("future")
            elif (
                word.norm in USED_TO_ZH and not _before_an_action(words, index)
            ) or _a_time_that_was(words, index):
                marks.add("past")
            elif word.norm in PAST_ZH and word.surface != "不了":
                # 接受不了 "cannot accept": the 了 of "not able to", no aspect
                marks.add("done")
        return frozenset(marks)
    for index, word in enumerate(words):
        lower = word.surface.lower()
        if lower in FUTURE_EN or word.norm in FUTURE_EN:
            marks.add("future")
        if lower == "going" and index + 2 < len(words) and words[index + 1].norm == "to":
            then = words[index + 2]
            if not then.is_name and then.norm not in STOP_WORDS and then.norm != ",":
                marks.add("future")  # "going to quit", not "going to the gym"
    if _past_verbs(words):
        marks.add("past")
    return frozenset(marks)


def _a_time_that_was(words: Sequence[Word], index: int) -> bool:
    """Whether the Chinese word at ``index`` closes a "when …" clause of a time that is over:
    小时候, 那时候, a stage of life (上大学的时候), or a place one was at (我在上海的时候,
    我在北京读书的时候). Not a habit's or a plan's "when" (我累的时候, 我在开车的时候,
    下次去上海的时候, 打算…)."""
    word = words[index]
    if word.norm == "小时候":
        return True
    if word.norm not in _WHEN_ZH or index == 0:
        return False
    if any(w.norm in _WHEN_NOT_PAST_ZH or w.norm in FUTURE_ZH for w in words):
        return False
    if words[index - 1].norm == "那":
        return True
    if words[index - 1].norm != "的":
        return False
    clause = words[max(index - 6, 0) : index - 1]
    return any(w.norm in _LIFE_STAGES_ZH for w in clause) or any(
        w.norm == "在" and nxt.is_name for w, nxt in itertools.pairwise(clause)
    )


# The stages of a life a "when" names: over once told of (上大学的时候, 年轻的时候).
_LIFE_STAGES_ZH = _words("年轻 上学 上大学 读书 读大学 念书 大学 中学 高中 小学 单身 留学 实习")


def past_verbs(statement: Statement) -> frozenset[str]:
    """The lemmas of the verbs an English statement tells in the past ("sold", "was"):
    what its "past" tense rests on."""
    return _past_verbs(statement.words) if statement.lang == "en" else frozenset()


def _past_verbs(words: Sequence[Word]) -> frozenset[str]:
    found: set[str] = set()
    for index, word in enumerate(words):
        lower = word.surface.lower()
        if lower == word.norm or not (lower in IRREGULAR_PAST or lower.endswith("ed")):
            continue
        before = words[index - 1] if index else None
        if lower == "got" and before is not None and before.norm == "have":
            continue  # "I've got two children": has
        if lower in ("called", "named") and index > 1 and words[index - 2].norm in ("a", "an"):
            continue  # "a daughter called Emma": her name, not a call
        following = words[index + 1] if index + 1 < len(words) else None
        if lower in ("was", "were") and following is not None and following.norm == "born":
            continue  # "I was born in 1991": a birth is told in the past, it is not over
        if (
            lower in ("was", "were", "had", "did")
            or before is None
            or before.norm in PAST_AFTER
            or before.surface.lower() in PAST_AFTER
            or before.is_name
            or _relation(before)
        ):
            found.add(word.norm)
    return frozenset(found)


def _before_an_action(words: Sequence[Word], index: int) -> bool:
    """之前 / 以前 right after what is done (上班之前: "before work") says when, not "used to"
    (我以前住在柏林); after a number (十年以前) it is "ago", a past."""
    if index == 0:
        return False
    before = words[index - 1]
    return not (
        before.norm == ","
        or before.norm in SELF_WORDS
        or before.norm in OTHER_WORDS
        or _relation(before)
        or before.is_name
        or before.norm in TIME_WORDS
        or before.norm[0].isdigit()
        or _chinese_number(before.surface) is not None
    )


def actors(statement: Statement, names: frozenset[str]) -> tuple[frozenset[str], ...]:
    """People and names in order of mention, "A and B" as one group: who does what to whom.
    The user's possessive ("my cat", 我的) is no actor; "I", "me", 我 are. ``names``: words
    to take as names although not capitalized mid-sentence here ("Jake owes me": "jake" is
    a dictionary word at the start of a sentence)."""
    words = statement.words
    groups: list[set[str]] = []
    joined = False
    for index, word in enumerate(words):
        actor: str | None = None
        if word.is_name or word.norm in names:
            actor = word.norm
        elif (relation := _relation(word)) and not _the_user_young(words, index):
            actor = relation
        elif word.norm in SELF_WORDS and word.norm not in ("my", "our", "mine", "ours"):
            following = words[index + 1] if index + 1 < len(words) else None
            possessive = following is not None and (
                following.norm in ("的", "'s")
                or _relation(following) is not None
                or _superlative_of(words, index + 1)
            )
            actor = None if possessive else SELF
        elif word.norm in OTHER_WORDS:
            actor = OTHER
        if actor is not None:
            if joined and groups:
                groups[-1].add(actor)
            elif not groups or actor not in groups[-1]:
                groups.append({actor})
            joined = word.is_name  # "MacBook Pro": adjacent names are one
        elif word.norm in COORDINATORS or word.surface in COORDINATORS:
            joined = bool(groups)
        else:
            joined = False
    return tuple(frozenset(group) for group in groups)


def _superlative_of(words: Sequence[Word], index: int) -> bool:
    """我最好的朋友, 我最喜欢的歌手: "my best friend", "my favourite singer" — 我, a word
    with 最 ("most") and 的 is the user's possessive, as "my" is."""
    if index >= len(words) or not words[index].surface.startswith("最"):
        return False
    # jieba cuts it 最好 / 的, 最 / 喜欢 / 的 or 最要 / 好 / 的
    return any(word.norm == "的" for word in words[index + 1 : index + 3])


def introduced_relation(statement: Statement) -> str | None:
    """The relative "I have a daughter called Emma" / 我有个女儿… introduces: what it is
    about, as "My daughter's name is Emma" is. None when it introduces none."""
    words = statement.words
    for index, word in enumerate(words[:-1]):
        if word.norm not in ("have", "有"):
            continue
        for following in words[index + 1 : index + 4]:
            if relation := _relation(following):
                return relation
            if following.norm not in _INTRODUCING and _number(following, statement.lang) is None:
                break
    return None


_INTRODUCING = _words("a an get 个 一个 有个")  # "I've got two children"


def _relation(word: Word) -> str | None:
    return _relation_of(word.surface, word.norm)


@lru_cache(maxsize=8192)
def _relation_of(surface: str, norm: str) -> str | None:
    return RELATIONS.get(surface.lower()) or RELATIONS.get(norm)


def _person_positions(words: Sequence[Word]) -> set[int]:
    return {
        index
        for index, word in enumerate(words)
        if _relation(word) or word.norm in SELF_WORDS or word.norm in OTHER_WORDS
    }


def _persons(words: Sequence[Word]) -> tuple[str, ...]:
    """Who the statement is about, in order: "my sister", "the user's sister" and 我妹妹 are
    "sister", "I" and "the user" are "self", "her sister" and "Tom's sister" are
    "other sister"."""
    found: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        owned = _owned_relation(words, index)
        if owned is not None:
            found.append(owned[0])
            index = owned[1]
        elif _relation(word) and not _the_user_young(words, index):
            found.append(_relation(word) or "")
        elif word.norm in SELF_WORDS:
            found.append(SELF)
        elif word.norm in OTHER_WORDS:
            found.append(OTHER)
        index += 1
    return tuple(dict.fromkeys(found))


def _degree_complement(words: Sequence[Word], index: int) -> bool:
    """不行 after 得 (饿得不行, 卡得不行: "terribly hungry", "terribly slow") says how much,
    not "not"; jieba gives its 不 and 行 one surface."""
    if words[index].surface != "不行":
        return False
    start = index
    while start > 0 and words[start - 1].surface == "不行":
        start -= 1
    return start > 0 and words[start - 1].surface.endswith("得")


def _the_user_young(words: Sequence[Word], index: int) -> bool:
    """ "when I was a kid", "as a child": the user when young, a time (小时候), no child."""
    if _relation(words[index]) != "child":
        return False
    before = index - 1
    while before >= 0 and words[before].norm in ("little", "small", "young"):
        before -= 1
    return (
        before >= 1
        and words[before].norm in ("a", "an")
        and words[before - 1].surface.lower() in ("was", "were", "as")
    )


def _owned_relation(words: Sequence[Word], index: int) -> tuple[str, int] | None:
    """("sister", position of 妹妹) for 我妹妹, 我的妹妹, "my older sister", "the user's sister";
    ("other sister", …) for "her sister", "Tom's sister"; None when no relative follows."""
    word = words[index]
    has_s = index + 1 < len(words) and words[index + 1].norm == "'s"
    if word.norm in POSSESSIVE_SELF or (has_s and word.norm in SELF_WORDS):
        prefix = ""
    elif word.norm in OTHER_WORDS or (has_s and word.is_name):
        prefix = "other "
    else:
        return None
    for ahead in range(index + 1, min(index + 5, len(words))):
        relation = _relation(words[ahead])
        if relation:
            return prefix + relation, ahead
        if words[ahead].norm not in RELATION_ADJECTIVES and words[ahead].norm != "'s":
            return None
    return None


SLOT_ADJECTIVES = _words(
    "new current old former left right first last own direct line 现在 新 以前 直属 顶头"
)


# Manager words that are also job titles, and the words that make them the user's own manager
# ("my new manager", "the team manager", 我的直属经理) rather than what the user is.
_TITLES = _words("manager 经理")
_JOB_NOUNS = _words("job position role post 职位 岗位 工作")
_NOT_A_TITLE = _words("the team 的 直属 顶头 部门") | SLOT_ADJECTIVES


def _a_title(words: Sequence[Word], index: int) -> bool:
    """The manager word at ``index`` is a job title: "a manager", "as a product manager",
    我是项目经理, 做产品经理 — not the user's manager ("my unit manager", "I got a new
    manager"): review11 Z8, where two job texts were queued as "both set the manager"."""
    if words[index].norm not in _TITLES:
        return False
    after = words[index + 1] if index + 1 < len(words) else None
    if after is not None and (after.norm in _JOB_NOUNS or after.surface.lower() in _JOB_NOUNS):
        return True  # "the pharmacy manager job", 经理职位: the job's name
    for before in reversed(words[max(0, index - 3) : index]):
        if before.norm in ("a", "an", "as", "be", "是", "当", "做"):
            return True
        if (
            not before.norm.isalpha()
            or before.is_name
            or _relation(before)
            or before.norm in _NOT_A_TITLE
            or before.norm in STOP_WORDS
            or before.norm in SELF_WORDS
            or before.norm in OTHER_WORDS
            or before.norm in RELATION_ADJECTIVES
        ):
            return False
    return False


def _names_a_contact(words: Sequence[Word], index: int) -> bool:
    """The work word at ``index`` only says which phone or e-mail: 工作邮箱, 工作电话, "work
    email"."""
    ahead = words[index + 1] if index + 1 < len(words) else None
    return ahead is not None and SINGLE_SLOTS.get(ahead.norm) in CONTACT_SLOTS


def _possessive_slots(words: Sequence[Word], lang: str) -> set[str]:
    """ "my rent is", 我的房租是: the attribute named right after the user's possessive, a
    one-value slot; "my knee", 我的膝盖 without "is": a topic (a slot of many values)."""
    slots: set[str] = set()
    for index, word in enumerate(words[:-1]):
        if word.norm not in POSSESSIVE_SELF:
            continue
        ahead = index + 1
        has_de = lang == "zh" and words[ahead].norm == "的"
        if has_de:
            ahead += 1
        if ahead >= len(words):
            continue
        while ahead + 1 < len(words) and words[ahead].norm in SLOT_ADJECTIVES:
            ahead += 1  # "my new manager", "my left knee"
        noun = words[ahead]
        if noun.norm == "favourite":  # "my favourite band": the favourite slots say which
            continue
        if _relation(noun) or noun.norm in STOP_WORDS or noun.norm == ",":
            continue
        following = {w.norm for w in words[ahead + 1 : ahead + 3]}
        if following & {"be", "是"}:
            slots.add(f"my {noun.norm}{_compound_head(words, ahead, lang)}")
        elif lang == "en" or has_de:
            slots.add(f"~my {noun.norm}{_compound_head(words, ahead, lang) if has_de else ''}")
    return slots


def _compound_head(words: Sequence[Word], index: int, lang: str) -> str:
    """The noun a compound after "my" ends in, when "is" follows it: "my German class is …" is
    the class, "my phone plan is …" the plan, not "my German" or "my phone" (review13 J9: the
    German teacher and the German class days were "both my german"); 我的德语老师 the teacher."""
    if lang == "zh":
        # 我的德语老师: jieba cuts the compound in two; the second noun is what it is
        head = words[index + 1] if index + 1 < len(words) else None
        return f" {head.norm}" if head is not None and nouns_among((head.norm,)) else ""
    if index + 2 >= len(words) or words[index + 2].norm != "be":
        return ""
    head = words[index + 1]
    if head.norm in STOP_WORDS or head.norm == "," or not head.norm.isalpha():
        return ""
    return f" {head.norm}"


def _names(words: Sequence[Word]) -> tuple[frozenset[str], ...]:
    """Proper names in order; names joined only by "and", ",", 和 … form one unordered group."""
    groups: list[set[str]] = []
    joined = after_name = False
    for word in words:
        if word.is_name:
            if joined and groups:
                groups[-1].add(word.norm)
            else:
                groups.append({word.norm})
            joined = after_name = True  # "MacBook Pro", "South Lake Union": one name
        elif word.norm in COORDINATORS or word.surface in COORDINATORS:
            # only right after a name: "KPMG today and started his own firm, Ho & Partners"
            # joins nothing (KPMG was left, Ho & Partners begun)
            joined = after_name and bool(groups)
        else:
            joined = after_name = False
    return tuple(frozenset(group) for group in groups)


_CLAUSE_BREAKS = frozenset({",", ";", ".", "!", "?"})


def _clause_end(norms: Sequence[str], start: int) -> int:
    return next((i for i in range(start, len(norms)) if norms[i] in _CLAUSE_BREAKS), len(norms))


def _clause_start(norms: Sequence[str], end: int) -> int:
    return next((i + 1 for i in range(end - 1, -1, -1) if norms[i] in _CLAUSE_BREAKS), 0)


def _comparison(
    words: Sequence[Word], person_positions: set[int]
) -> tuple[frozenset[str], frozenset[str]] | None:
    """(preferred, not preferred) content words when the statement compares two things."""
    norms = [word.norm for word in words]
    surfaces = [word.surface for word in words]

    def content(span: Iterable[int]) -> frozenset[str]:
        return frozenset(
            _relation(words[i]) or norms[i]
            for i in span
            if (i not in person_positions or _relation(words[i]))
            and norms[i] not in STOP_WORDS
            and norms[i] != ","
            and norms[i] not in RELATIONAL
            and surfaces[i] not in RELATIONAL
            and norms[i] != "like"
        )

    for index, (norm, surface) in enumerate(zip(norms, surfaces, strict=True)):
        marker = surface if surface in RELATIONAL else norm
        if marker == "to" and "like" not in norms[:index]:
            continue  # "to" compares only after "prefer": "I prefer tea to coffee"
        if marker in COMPARATIVE_FIRST_IS_LESS:
            end = index + 1
            while end < len(words) and norms[end] != "," and end not in person_positions:
                end += 1
            less = content(range(index + 1, end))
            more = content(range(end, _clause_end(norms, end + 1)))
            return (more, less) if less and more else None
        if (
            marker in COMPARATIVE_AFTER_IS_LESS
            or marker in COMPARATIVE_AFTER_IS_MORE
            or (marker == "to")
        ):
            # each side within its clause: "tea over coffee, especially in the mornings"
            before = content(range(_clause_start(norms, index), index))
            after = content(range(index + 1, _clause_end(norms, index + 1)))
            if not before or not after:
                return None
            return (after, before) if marker in COMPARATIVE_AFTER_IS_MORE else (before, after)
    return None


def unseen_opening_name(statement: Statement) -> str | None:
    """The word a Chinese statement opens with when jieba's dictionary does not hold it and it
    looks like a name (two or three characters, not 我…/从…): jieba glues a name it has never
    seen into one word (刘洋, 小敏, 陈姐), while the common words it knows carry a tag. None
    for any other statement."""
    if statement.lang != "zh" or not statement.words:
        return None
    surface = statement.words[0].surface
    if (
        not 2 <= len(surface) <= 3
        or not all(_HAS_CJK.match(char) for char in surface)
        or surface[0] in "我从"
        or surface[0] in STOP_WORDS  # 那台, 这个: a demonstrative and its classifier
        or surface.startswith(CUE_PREFIXES_ZH)
        or surface in RELATIONS
        or surface in TIME_WORDS
    ):
        return None
    return None if _jieba()[1].get(surface) else surface


_NOUN_TAGS = ("n", "q", "vn")  # nouns, measure words (公斤, 毫克), verbal nouns (训练)


def nouns(statement: Statement) -> frozenset[str]:
    """Its Chinese content words that jieba's dictionary tags as nouns or measure words, or
    does not hold at all (a compound or a name it has not seen: 褪黑素, 驾照): what a
    statement is about, wider than the slot words. Empty for English (no tagger here)."""
    if statement.lang != "zh":
        return frozenset()
    return nouns_among(term for term in statement.terms if len(term) > 1)


def measure_word(term: str) -> bool:
    """Whether jieba's dictionary tags the Chinese ``term`` a measure word (毫克, 公斤)."""
    return _jieba()[1].get(term, "").startswith("q")


def nouns_among(terms: Iterable[str]) -> frozenset[str]:
    """The Chinese ``terms`` jieba's dictionary tags as nouns or measure words, or does not
    hold (not as people's names)."""
    tags = _jieba()[1]
    return frozenset(
        term
        for term in terms
        if _HAS_CJK.match(term)
        and not (tags.get(term, "n").startswith("nr"))
        and tags.get(term, "n").startswith(_NOUN_TAGS)
    )

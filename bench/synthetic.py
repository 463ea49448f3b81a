"""Deterministic synthetic memories and queries for the speed-and-scale benchmark.

Short personal facts and events, mixed English and Chinese (some Chinese ones with English tech
words, as people write them), built from templates × vocabularies with names, places, numbers and
dates, so that keyword terms have realistic selectivity: template words (``meeting``, ``住在``)
match thousands of memories, names and places hundreds, numbers and codes a handful.

Queries come in two kinds, built from a memory of the set:

- ``keyword``: a question that repeats the memory's distinctive words (a name, a place);
- ``paraphrase``: a question about the same fact in other words (``sibling`` for ``sister``,
  no name), which keyword search can barely help with.

Everything is a pure function of the seed: the same ``(count, seed)`` gives the same texts, in the
same order, and a smaller set is a prefix of a larger one.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable
from dataclasses import dataclass

# --- vocabularies ---------------------------------------------------------------------------


def _split(text: str, sep: str | None = None) -> tuple[str, ...]:
    return tuple(text.split(sep))


EN_NAMES = _split(
    "Anna Ben Carla Dmitri Elena Farah Giulia Hiro Ines Jonas Kofi Lena Mateo Nadia Oskar Priya "
    "Quentin Rosa Sven Tariq Uma Viktor Wen Ximena Yusuf Zoe Amara Bruno Chloe Diego Emil Fatima "
    "Gustav Hana Ivan Julia Kenji Leila Marco Noor Olga Pablo Rhea Samir Tomas Ulla Vera Wolfgang "
    "Yara Zane Aiko Bjorn Celine Dario Esme Felix Greta Hugo Isla Jamal"
)
EN_RELATIONS = _split(
    "sister brother mother father cousin colleague neighbour manager friend landlord aunt uncle "
    "roommate teammate mentor niece nephew grandmother grandfather boss"
)
EN_PARAPHRASE_RELATION = {
    "sister": "sibling",
    "brother": "sibling",
    "mother": "parent",
    "father": "parent",
    "cousin": "relative",
    "aunt": "relative",
    "uncle": "relative",
    "niece": "relative",
    "nephew": "relative",
    "grandmother": "grandparent",
    "grandfather": "grandparent",
    "colleague": "coworker",
    "teammate": "coworker",
    "manager": "supervisor",
    "boss": "supervisor",
    "mentor": "adviser",
    "neighbour": "person next door",
    "landlord": "person I rent from",
    "roommate": "flatmate",
    "friend": "buddy",
}
EN_CITIES = _split(
    "Berlin Lisbon Paris Madrid Rome Vienna Prague Warsaw Oslo Stockholm Helsinki Dublin London "
    "Edinburgh Amsterdam Brussels Zurich Geneva Munich Hamburg Milan Naples Athens Istanbul Cairo "
    "Nairobi Lagos Toronto Montreal Vancouver Boston Chicago Seattle Denver Austin Miami Lima "
    "Bogota Santiago Tokyo Osaka Kyoto Seoul Busan Singapore Bangkok Hanoi Manila Jakarta Sydney "
    "Melbourne Auckland Dubai Mumbai Delhi Bangalore Reykjavik Tallinn Riga"
)
EN_JOBS = _split(
    (
        "nurse;teacher;architect;pilot;chef;lawyer;accountant;designer;translator;electrician;"
        "pharmacist;journalist;firefighter;librarian;dentist;photographer;carpenter;veterinarian;"
        "data analyst;software engineer"
    ),
    ";",
)
EN_FOODS = _split(
    "ramen sushi tacos paella lasagna pho curry dumplings falafel risotto burritos kimchi "
    "stew pancakes croissants bagels goulash moussaka pierogi ceviche"
)
EN_DRINKS = _split(
    (
        "green tea;oolong tea;black coffee;espresso;oat latte;matcha;chai;hot chocolate;lemonade;"
        "kombucha;sparkling water;orange juice"
    ),
    ";",
)
EN_HOBBIES = _split(
    "pottery chess photography climbing gardening knitting painting birdwatching surfing "
    "woodworking calligraphy baking cycling kayaking origami"
)
EN_LANGUAGES = [
    "Spanish",
    "Japanese",
    "German",
    "Korean",
    "Italian",
    "Portuguese",
    "Arabic",
    "Russian",
    "Swedish",
    "Greek",
]
EN_TECH = _split(
    "Rust Python Go TypeScript Kotlin Haskell Elixir Zig Swift Julia PostgreSQL SQLite Redis "
    "Kubernetes Terraform Docker Neovim Emacs VSCode React Svelte Django FastAPI"
)
EN_TASKS = _split(
    (
        "scripting;web backends;data pipelines;command line tools;embedded work;note taking;"
        "infrastructure;prototyping"
    ),
    ";",
)
EN_ITEMS = _split(
    "laptop bicycle camera kettle desk chair headphones backpack tent monitor keyboard phone "
    "mattress coat raincoat blender"
)
EN_PETS = _split("cat dog rabbit parrot hamster tortoise")
EN_PET_NAMES = _split("Mochi Biscuit Luna Pepper Tofu Ziggy Noodle Olive Mango Pixel Sushi Ginger")
EN_ALLERGENS = _split("peanuts shellfish penicillin pollen cat hair gluten lactose sesame")
EN_PLACES = _split("office;gym;library;cafe;coworking space;parents' house;cabin;studio", ";")
EN_PROJECTS = _split(
    "Atlas Beacon Cobalt Delta Ember Falcon Granite Harbor Iris Juniper Kestrel Lumen Mosaic "
    "Nimbus Orbit Quartz"
)
EN_BOOKS = _split(
    (
        "Dune;The Left Hand of Darkness;Middlemarch;The Overstory;Piranesi;Educated;Sapiens;"
        "The Remains of the Day;Klara and the Sun;Project Hail Mary;The Name of the Rose;Stoner"
    ),
    ";",
)
EN_MOVIES = _split(
    (
        "Spirited Away;Arrival;Parasite;Amelie;Paddington 2;In the Mood for Love;Past Lives;"
        "The Grand Budapest Hotel;Everything Everywhere All at Once;Perfect Days"
    ),
    ";",
)
EN_ADJECTIVES = _split("wonderful;boring;moving;too long;hilarious;beautiful;confusing;slow", ";")
EN_PLANTS = _split("basil tomatoes mint chillies lavender strawberries rosemary sunflowers")
EN_MEDICINES = _split("eye drops;antibiotics;insulin;pain relief pills;vitamins", ";")
EN_SEASONS = _split("spring summer autumn winter")
EN_WEEKDAYS = _split("Monday Tuesday Wednesday Thursday Friday Saturday Sunday")
MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]

ZH_NAMES = _split(
    "张伟 王芳 李娜 刘洋 陈静 杨帆 赵磊 黄丽 周杰 吴敏 徐强 孙悦 马超 "
    "朱琳 胡斌 郭婷 何鹏 高原 林峰 罗晨 郑爽 梁宇 谢娟 宋涛 唐颖 许飞 "
    "韩雪 冯刚 邓红 曹阳 彭博 曾瑶 萧然 田甜 董明 袁媛 潘越 蒋楠"
)
ZH_RELATIONS = _split(
    "妹妹 哥哥 姐姐 弟弟 妈妈 爸爸 表哥 表姐 同事 邻居 老板 室友 导师 舅舅 姑姑 奶奶 爷爷 同学"
)
ZH_PARAPHRASE_RELATION = {
    "妹妹": "家里的亲人",
    "哥哥": "家里的亲人",
    "姐姐": "家里的亲人",
    "弟弟": "家里的亲人",
    "妈妈": "长辈",
    "爸爸": "长辈",
    "舅舅": "长辈",
    "姑姑": "长辈",
    "奶奶": "长辈",
    "爷爷": "长辈",
    "表哥": "亲戚",
    "表姐": "亲戚",
    "同事": "一起上班的人",
    "老板": "领导",
    "邻居": "隔壁的人",
    "室友": "合租的人",
    "导师": "老师",
    "同学": "老朋友",
}
ZH_CITIES = _split(
    "北京 上海 广州 深圳 成都 杭州 西安 南京 武汉 重庆 苏州 厦门 青岛 大连 昆明 长沙 天津 哈尔滨 "
    "拉萨 桂林 三亚 香港 台北 澳门 郑州 济南 合肥 福州 兰州 贵阳"
)
ZH_JOBS = [
    "护士",
    "老师",
    "建筑师",
    "医生",
    "律师",
    "会计",
    "设计师",
    "翻译",
    "记者",
    "厨师",
    "程序员",
    "摄影师",
    "药剂师",
    "工程师",
    "销售",
]
ZH_FOODS = _split(
    "火锅 饺子 小笼包 烤鸭 麻婆豆腐 牛肉面 煎饼果子 肠粉 螺蛳粉 酸菜鱼 烧烤 馄饨 包子 凉皮 麻辣烫"
)
ZH_DRINKS = _split("绿茶 乌龙茶 普洱 龙井 美式咖啡 拿铁 奶茶 豆浆 菊花茶 柠檬水 酸梅汤")
ZH_HOBBIES = _split("书法 围棋 摄影 钢琴 游泳 爬山 跑步 瑜伽 古筝 篮球 羽毛球 钓鱼 画画 烘焙 太极")
ZH_LANGUAGES = _split("英语 日语 德语 法语 韩语 西班牙语 粤语 俄语")
ZH_TECH = _split("Rust Python Go Java TypeScript Vue React Docker MySQL Redis Linux Flutter")
ZH_ITEMS = [
    "笔记本电脑",
    "自行车",
    "相机",
    "电饭煲",
    "椅子",
    "耳机",
    "背包",
    "帐篷",
    "显示器",
    "键盘",
    "手机",
    "冰箱",
    "空调",
    "洗衣机",
]
ZH_PETS = _split("猫 狗 兔子 鹦鹉 仓鼠 乌龟")
ZH_PET_NAMES = _split("豆豆 团子 花花 旺财 咪咪 球球 小白 年糕 芝麻 可乐")
ZH_ALLERGENS = _split("花生 海鲜 青霉素 花粉 芒果 牛奶 鸡蛋 酒精")
ZH_PLACES = _split("公司 健身房 图书馆 咖啡馆 老家 宿舍 工作室")
ZH_SEASONS = _split("春天 夏天 秋天 冬天")
ZH_WEEKDAYS = _split("周一 周二 周三 周四 周五 周六 周日")
ZH_ADJECTIVES = _split("很感人 很无聊 特别好笑 有点长 很精彩 看不懂")
ZH_PLANTS = _split("绿萝 多肉 茉莉花 吊兰 月季 薄荷 番茄 辣椒")


# --- templates --------------------------------------------------------------------------------

Slots = dict[str, str]
Picker = Callable[[random.Random], Slots]


@dataclass(frozen=True, slots=True)
class Template:
    lang: str
    kind: str  # the memory type: semantic facts, episodic events, long_term preferences
    text: str
    keyword_query: str
    paraphrase_query: str
    slots: Picker


def _date(rng: random.Random) -> dt.date:
    return dt.date(2019, 1, 1) + dt.timedelta(days=rng.randrange(7 * 365))


def _time(rng: random.Random) -> str:
    return f"{rng.randrange(7, 21)}:{rng.choice(['00', '15', '30', '45'])}"


def _code(rng: random.Random) -> str:
    return "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(6))


def _en(rng: random.Random) -> Slots:
    day = _date(rng)
    relation = rng.choice(EN_RELATIONS)
    return {
        "name": rng.choice(EN_NAMES),
        "name2": rng.choice(EN_NAMES),
        "relation": relation,
        "relation_p": EN_PARAPHRASE_RELATION[relation],
        "city": rng.choice(EN_CITIES),
        "job": rng.choice(EN_JOBS),
        "food": rng.choice(EN_FOODS),
        "drink": rng.choice(EN_DRINKS),
        "hobby": rng.choice(EN_HOBBIES),
        "language": rng.choice(EN_LANGUAGES),
        "tech": rng.choice(EN_TECH),
        "tech2": rng.choice(EN_TECH),
        "task": rng.choice(EN_TASKS),
        "item": rng.choice(EN_ITEMS),
        "pet": rng.choice(EN_PETS),
        "pet_name": rng.choice(EN_PET_NAMES),
        "allergen": rng.choice(EN_ALLERGENS),
        "place": rng.choice(EN_PLACES),
        "project": rng.choice(EN_PROJECTS),
        "book": rng.choice(EN_BOOKS),
        "movie": rng.choice(EN_MOVIES),
        "adjective": rng.choice(EN_ADJECTIVES),
        "plant": rng.choice(EN_PLANTS),
        "medicine": rng.choice(EN_MEDICINES),
        "season": rng.choice(EN_SEASONS),
        "weekday": rng.choice(EN_WEEKDAYS),
        "month": MONTHS[day.month - 1],
        "day": str(day.day),
        "year": str(day.year),
        "date": f"{MONTHS[day.month - 1]} {day.day}, {day.year}",
        "time": _time(rng),
        "n": str(rng.randrange(2, 60)),
        "minutes": str(rng.randrange(20, 90)),
        "amount": str(rng.randrange(5, 2000)),
        "code": _code(rng),
        "floor": str(rng.randrange(1, 30)),
    }


def _zh(rng: random.Random) -> Slots:
    day = _date(rng)
    relation = rng.choice(ZH_RELATIONS)
    return {
        "name": rng.choice(ZH_NAMES),
        "name2": rng.choice(ZH_NAMES),
        "relation": relation,
        "relation_p": ZH_PARAPHRASE_RELATION[relation],
        "city": rng.choice(ZH_CITIES),
        "job": rng.choice(ZH_JOBS),
        "food": rng.choice(ZH_FOODS),
        "drink": rng.choice(ZH_DRINKS),
        "hobby": rng.choice(ZH_HOBBIES),
        "language": rng.choice(ZH_LANGUAGES),
        "tech": rng.choice(ZH_TECH),
        "tech2": rng.choice(ZH_TECH),
        "item": rng.choice(ZH_ITEMS),
        "pet": rng.choice(ZH_PETS),
        "pet_name": rng.choice(ZH_PET_NAMES),
        "allergen": rng.choice(ZH_ALLERGENS),
        "place": rng.choice(ZH_PLACES),
        "plant": rng.choice(ZH_PLANTS),
        "season": rng.choice(ZH_SEASONS),
        "weekday": rng.choice(ZH_WEEKDAYS),
        "adjective": rng.choice(ZH_ADJECTIVES),
        "month": str(day.month),
        "day": str(day.day),
        "year": str(day.year),
        "date": f"{day.year}年{day.month}月{day.day}日",
        "time": _time(rng),
        "n": str(rng.randrange(2, 60)),
        "amount": str(rng.randrange(5, 5000)),
        "code": _code(rng),
        "floor": str(rng.randrange(1, 30)),
    }


def _t(lang: str, kind: str, text: str, keyword: str, paraphrase: str) -> Template:
    return Template(lang, kind, text, keyword, paraphrase, _en if lang == "en" else _zh)


TEMPLATES: tuple[Template, ...] = (
    # English
    _t(
        "en",
        "semantic",
        "My {relation} {name} lives in {city} and works as a {job}.",
        "Where does {name} live?",
        "Which town is my {relation_p} based in these days?",
    ),
    _t(
        "en",
        "episodic",
        "Had {food} with {name} at a small place in {city} on {date}.",
        "When did I eat {food} with {name}?",
        "What did I have for dinner with a friend on that trip?",
    ),
    _t(
        "en",
        "semantic",
        "{name}'s birthday is on {month} {day}; they like {hobby}.",
        "When is {name}'s birthday?",
        "What gift would suit the friend who is into {hobby}?",
    ),
    _t(
        "en",
        "long_term",
        "I started learning {language} in {year} and practise {n} minutes a day.",
        "How long do I practise {language}?",
        "Which foreign tongue am I studying?",
    ),
    _t(
        "en",
        "long_term",
        "My usual order is {drink}, no sugar, in the morning before work.",
        "What is my usual {drink} order?",
        "What do I like to sip first thing in the day?",
    ),
    _t(
        "en",
        "episodic",
        "The {project} project meeting with {name} moved to {weekday} at {time}.",
        "When is the {project} meeting?",
        "When do we sync about that initiative now?",
    ),
    _t(
        "en",
        "episodic",
        "Paid {amount} dollars for a new {item} on {date}.",
        "How much was the {item}?",
        "What did that recent purchase cost me?",
    ),
    _t(
        "en",
        "semantic",
        "I am allergic to {allergen}; carry the medicine when travelling.",
        "Am I allergic to {allergen}?",
        "Is there anything I must avoid for health reasons?",
    ),
    _t(
        "en",
        "semantic",
        "The wifi password at the {place} is {code}.",
        "What is the wifi password at the {place}?",
        "How do I get online over there?",
    ),
    _t(
        "en",
        "episodic",
        "Flight to {city} on {date} at {time}, booking reference {code}.",
        "What is my booking reference for {city}?",
        "When does my plane leave for the trip?",
    ),
    _t(
        "en",
        "episodic",
        "Ran {n} km in {minutes} minutes along the river on {weekday}.",
        "How far did I run on {weekday}?",
        "How is my jogging going lately?",
    ),
    _t(
        "en",
        "episodic",
        "Dentist appointment with Dr. {name} on {date} at {time}.",
        "When is my appointment with Dr. {name}?",
        "When do I need to get my teeth checked?",
    ),
    _t(
        "en",
        "long_term",
        "I prefer {tech} over {tech2} for {task}.",
        "Do I prefer {tech} or {tech2}?",
        "Which tools do I like for programming work?",
    ),
    _t(
        "en",
        "semantic",
        "{name} recommended the book {book}; borrowed it on {date}.",
        "Who recommended {book}?",
        "What novel did someone suggest I read?",
    ),
    _t(
        "en",
        "semantic",
        "Our {pet} {pet_name} needs {medicine} every {n} hours.",
        "How often does {pet_name} need {medicine}?",
        "What care does our animal need?",
    ),
    _t(
        "en",
        "long_term",
        "I want to visit {city} in {season} {year} with my {relation}.",
        "When do I want to visit {city}?",
        "Where would I like to travel with family?",
    ),
    _t(
        "en",
        "long_term",
        "Growing {plant} on the balcony; water them every {n} days.",
        "How often should I water the {plant}?",
        "What is growing outside on my terrace?",
    ),
    _t(
        "en",
        "episodic",
        "{name} lent me {amount} dollars on {date}; pay it back by {month}.",
        "How much do I owe {name}?",
        "Do I have any debts to friends?",
    ),
    _t(
        "en",
        "episodic",
        "Watched {movie} with {name} last {weekday}; it was {adjective}.",
        "What did I think of {movie}?",
        "How was the film we saw recently?",
    ),
    _t(
        "en",
        "semantic",
        "{name} moved to the {floor}th floor office; desk next to the window.",
        "Where does {name} sit now?",
        "Where can I find my workmate in the building?",
    ),
    _t(
        "en",
        "long_term",
        "Weekends are for {hobby}; I joined a club in {city} in {year}.",
        "When did I join the {hobby} club?",
        "What do I do on my days off?",
    ),
    _t(
        "en",
        "semantic",
        "My {relation} {name} cannot eat {food} because of {allergen}.",
        "What can {name} not eat?",
        "Which dish should I avoid cooking for my {relation_p}?",
    ),
    # Chinese (some with English tech words, as people write them)
    _t(
        "zh",
        "semantic",
        "我的{relation}{name}住在{city}，是一名{job}。",
        "{name}住在哪里？",
        "我{relation_p}现在在哪个地方生活？",
    ),
    _t(
        "zh",
        "episodic",
        "{date}和{name}在{city}吃了{food}。",
        "我什么时候和{name}吃的{food}？",
        "上次出差晚饭吃的什么？",
    ),
    _t(
        "zh",
        "semantic",
        "{name}的生日是{month}月{day}日，喜欢{hobby}。",
        "{name}的生日是哪天？",
        "给爱好{hobby}的朋友送什么礼物好？",
    ),
    _t(
        "zh",
        "long_term",
        "我从{year}年开始学{language}，每天练习{n}分钟。",
        "我学{language}多久了？",
        "我在学哪门外语？",
    ),
    _t(
        "zh",
        "long_term",
        "我每天早上喝一杯{drink}，不加糖。",
        "我早上喝什么？",
        "起床后我习惯来点什么饮品？",
    ),
    _t(
        "zh",
        "episodic",
        "{date}花了{amount}元买了新的{item}。",
        "{item}花了多少钱？",
        "最近那次大件消费多少钱？",
    ),
    _t(
        "zh",
        "semantic",
        "我对{allergen}过敏，出门要带药。",
        "我对{allergen}过敏吗？",
        "有什么东西我身体受不了？",
    ),
    _t(
        "zh",
        "semantic",
        "{place}的无线网密码是{code}。",
        "{place}的wifi密码是多少？",
        "在那边怎么连网？",
    ),
    _t(
        "zh",
        "episodic",
        "{date}{time}飞{city}的航班，订单号{code}。",
        "去{city}的航班是几点？",
        "我下次坐飞机是什么时候？",
    ),
    _t(
        "zh",
        "episodic",
        "{weekday}晚上跑了{n}公里，感觉不错。",
        "{weekday}跑了多少公里？",
        "最近锻炼情况怎么样？",
    ),
    _t(
        "zh",
        "long_term",
        "写后端我更喜欢用{tech}，不太喜欢{tech2}。",
        "我喜欢{tech}还是{tech2}？",
        "我偏好哪种编程工具？",
    ),
    _t(
        "zh",
        "semantic",
        "家里的{pet}{pet_name}每{n}小时要吃一次药。",
        "{pet_name}多久吃一次药？",
        "家里宠物需要怎么照顾？",
    ),
    _t(
        "zh",
        "long_term",
        "打算{year}年{season}和{relation}一起去{city}旅游。",
        "我什么时候去{city}？",
        "今年有什么出游计划？",
    ),
    _t(
        "zh",
        "long_term",
        "阳台上种了{plant}，每{n}天浇一次水。",
        "{plant}多久浇一次水？",
        "家里养了什么绿植？",
    ),
    _t(
        "zh",
        "episodic",
        "{date}向{name}借了{amount}元，{month}月底前还。",
        "我欠{name}多少钱？",
        "我还有没还的钱吗？",
    ),
    _t(
        "zh",
        "episodic",
        "{weekday}和{name}去看了电影，{adjective}。",
        "我和{name}看的电影怎么样？",
        "最近看的片子好看吗？",
    ),
    _t(
        "zh",
        "long_term",
        "周末一般去{hobby}，{year}年在{city}报了班。",
        "我什么时候开始学{hobby}的？",
        "我休息日都做什么？",
    ),
    _t(
        "zh",
        "semantic",
        "{name}是做{job}的，在{city}工作了{n}年。",
        "{name}是做什么工作的？",
        "那个朋友的职业是什么？",
    ),
    _t(
        "zh",
        "long_term",
        "用户喜欢用{tech}写{item}相关的小工具，代码放在{place}的电脑上。",
        "我用{tech}写过什么工具？",
        "我平时做什么业余编程项目？",
    ),
)

BASE_TIME = dt.datetime(2025, 6, 1, tzinfo=dt.UTC).timestamp()
DAY = 86_400.0


@dataclass(frozen=True, slots=True)
class SyntheticMemory:
    content: str
    lang: str
    type: str
    importance: float
    created_at: float


@dataclass(frozen=True, slots=True)
class SyntheticQuery:
    text: str
    lang: str
    kind: str  # keyword | paraphrase
    source: int  # index of the memory it was built from


def memories(count: int, seed: int = 7) -> list[SyntheticMemory]:
    """``count`` distinct memories; ``memories(n, s)`` is a prefix of ``memories(m, s)``, m > n."""
    return [memory for memory, _template, _slots in _generate(count, seed)]


def _generate(count: int, seed: int) -> list[tuple[SyntheticMemory, Template, Slots]]:
    rng = random.Random(seed)
    seen: set[str] = set()
    result: list[tuple[SyntheticMemory, Template, Slots]] = []
    while len(result) < count:
        template = _pick_template(rng)
        slots = template.slots(rng)
        text = template.text.format(**slots)
        importance = round(rng.uniform(0.2, 0.9), 2)
        created_at = BASE_TIME - rng.uniform(0, 730) * DAY
        if text in seen:
            continue
        seen.add(text)
        memory = SyntheticMemory(text, template.lang, template.kind, importance, created_at)
        result.append((memory, template, slots))
    return result


def _pick_template(rng: random.Random) -> Template:
    # ~60 % English, ~40 % Chinese
    english = [t for t in TEMPLATES if t.lang == "en"]
    chinese = [t for t in TEMPLATES if t.lang == "zh"]
    return rng.choice(english if rng.random() < 0.6 else chinese)


def queries(count: int, pool: int, seed: int = 11, memory_seed: int = 7) -> list[SyntheticQuery]:
    """Up to ``count`` distinct queries about memories among the first ``pool`` of :func:`memories`
    (made with ``memory_seed``), alternately keyword-like and paraphrase-like (paraphrases run
    out first: they have fewer distinct forms), languages as in the memories.

    Queries reuse their source memory's slot values, so a keyword query names the same person
    or place as its source memory."""
    rng = random.Random(seed)
    generated = _generate(pool, memory_seed)
    order = list(range(pool))
    rng.shuffle(order)
    seen: set[str] = set()
    result = []
    for source in order:
        if len(result) >= count:
            break
        _memory, template, slots = generated[source]
        kind = "keyword" if len(result) % 2 == 0 else "paraphrase"
        form = template.keyword_query if kind == "keyword" else template.paraphrase_query
        text = form.format(**slots)
        if text not in seen:  # paraphrases without slots repeat: every query text is distinct
            seen.add(text)
            result.append(SyntheticQuery(text, template.lang, kind, source))
    rng.shuffle(result)
    return result

"""The review queue, round 13 (queue13e): whose end a text tells, a title after a family name,
a child's English name in brackets, a thing said before its change word, one reading of a
Chinese name in pinyin. Pure rules of localmind.suspicion, localmind.statement and
localmind.aliases; wordings written for these tests."""

from __future__ import annotations

import pytest

from localmind.aliases import by_declared_name, declared, opens_with_a_name
from localmind.statement import read
from localmind.suspicion import _pinyin_names, _spelled_by, suspect

# --- whose end: the name right before the ending word, no one between ----------------------


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        (
            "My sister Rosa lives in Denver and works as a nurse.",
            "My aunt lives with my sister Rosa in Denver since my uncle passed away.",
        ),
        ("我妹妹晓琳住在卡尔加里，是护士。", "我妈跟晓琳住在卡尔加里，因为我爸去世了。"),
    ],
)
def test_a_death_of_someone_else_is_no_end_of_the_one_named_earlier(older: str, newer: str) -> None:
    assert "tells an end of" not in suspect(older, newer).why


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("I have a dog named Rex.", "My dog Rex died last year."),
        ("My grandma Rose lives in Ohio.", "Grandma Rose passed away in March."),
    ],
)
def test_the_end_of_the_one_named_is_still_queued(older: str, newer: str) -> None:
    assert suspect(older, newer).contradicts


# --- 先生 after a family name is "Mr.", not the husband ----------------------------------------


@pytest.mark.parametrize(
    ("text", "subject"),
    [
        ("张先生下个月搬到上海。", "张先生"),
        ("李太太搬走了。", "李太太"),
        ("我先生在谷歌工作。", "husband"),
    ],
)
def test_a_title_after_a_family_name_is_someone_named(text: str, subject: str) -> None:
    assert read(text).subject == subject


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("我老公在谷歌上班。", "张先生现在去微软上班了。"),
        ("My husband works at Google.", "张先生现在去微软上班了。"),
    ],
)
def test_mr_zhang_changing_jobs_is_not_the_husband_changing_his(older: str, newer: str) -> None:
    assert not suspect(older, newer).contradicts


def test_my_husband_changing_jobs_is_still_a_change() -> None:
    assert suspect("我先生在谷歌上班。", "我先生现在去微软上班了。").contradicts


# --- a child's English name in brackets after the Chinese one --------------------------------


@pytest.mark.parametrize(
    ("text", "pairs"),
    [
        ("女儿何以宁（Chloe），2020年生。", {("chloe", "何以宁")}),
        ("我妹妹林晓琳（Linda）住在卡尔加里。", {("linda", "林晓琳")}),
        ("我儿子叫周浩然(Ethan)，今年六岁。", {("ethan", "周浩然")}),
    ],
)
def test_a_bracketed_english_name_after_a_relative_is_declared(
    text: str, pairs: set[tuple[str, str]]
) -> None:
    assert declared(text) == pairs


@pytest.mark.parametrize(
    "text",
    ["我们租住在列治文（Richmond）3号路附近。", "在万锦（Markham）看中了一套房子。"],
)
def test_a_place_in_brackets_is_no_ones_name(text: str) -> None:
    assert declared(text) == frozenset()


def test_a_possessive_opening_may_be_a_declared_name() -> None:
    pairs = {("chloe", "何以宁")}
    text = "Chloe's swimming moved to Thursdays."
    assert opens_with_a_name(text)
    assert by_declared_name(text, pairs) == "Yining's swimming moved to Thursdays."


# --- what a child of theirs does is theirs; someone of theirs is someone else ---------------


def test_a_thing_of_the_named_child_is_about_the_child() -> None:
    older = "子轩每周六上午去游泳课。"
    assert "someone else" not in suspect(older, "Zixuan's swimming moved to Sundays.").why
    assert "someone else" in suspect(older, "Zixuan's friend Ethan moved to Toronto.").why


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        (
            "以宁报了列治文Watermania的游泳课，每周二下午五点。",
            "Yining's swimming moved to Eileen Dailly pool in Burnaby, Thursdays now.",
        ),
        ("Yining's swimming is at Watermania on Tuesdays.", "以宁的游泳课现在改到周四了。"),
    ],
)
def test_a_thing_said_before_its_change_word_is_what_changed(older: str, newer: str) -> None:
    assert suspect(older, newer).contradicts


def test_a_pronoun_before_the_change_word_is_no_thing_changed() -> None:
    # CC-CEDICT's 美元 "US$" also means "we"
    older = "我们平时在Whole Foods买菜，一个月大概花900美元。"
    newer = "We moved on November 2 with movers; it cost $2,300."
    assert not suspect(older, newer).contradicts


# --- a daycare is a school -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        (
            "Yining goes to Little Panda daycare on Westminster Hwy.",
            "以宁今天开始上幼儿园（kindergarten）了，在Stride Avenue学校。",
        ),
        ("以宁在小熊猫托儿所。", "以宁现在去Stride Avenue的幼儿园了。"),
    ],
)
def test_a_daycare_then_a_kindergarten_is_a_change_of_school(older: str, newer: str) -> None:
    assert "school" in read(older).single_slots
    assert suspect(older, newer).contradicts


# --- a change told again in the other language, with a place CC-CEDICT does not spell -------


def test_a_move_told_again_with_now_is_no_other_value() -> None:
    older = "妈妈从卡尔加里搬到本拿比跟我们一起住了。"
    assert not suspect(older, "Mom lives with us in Burnaby now.").contradicts
    # … while a new move is one
    assert suspect(older, "Mom moved to Surrey last week.").contradicts


# --- one reading of a Chinese name in pinyin -------------------------------------------------


def test_both_pinyin_rules_read_a_name_alike() -> None:
    assert {"wangfang", "fang"} <= _pinyin_names("王芳")
    assert {"liuzixuan", "zixuan"} <= _pinyin_names("刘子轩")
    assert "liuyang" in _pinyin_names("刘洋调", glued=True)
    assert "liuyang" not in _pinyin_names("刘洋调")
    assert _spelled_by("王芳", "fang")
    assert not _spelled_by("王芳", "li")


# --- another car bought, one traded in (review12 R6) -----------------------------------------


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("We drive a 2016 Honda Civic.", "We bought a Tesla Model Y last week."),
        ("我们开一辆本田思域。", "我们买了一辆特斯拉。"),
        ("We drive a 2016 Honda Civic.", "我们买了一辆特斯拉Model Y。"),
        (
            "We drive a 2012 silver Toyota Corolla.",
            "We bought a 2025 Toyota Sienna hybrid. Traded in the Corolla for $4,000.",
        ),
    ],
)
def test_another_car_bought_is_a_change_of_the_car(older: str, newer: str) -> None:
    assert suspect(older, newer).contradicts


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("We drive a 2016 Honda Civic.", "The Nguyens next door bought a Kia EV6 in August."),
        ("We drive a 2016 Honda Civic.", "My sister bought a Tesla."),
        ("我们开一辆本田思域。", "隔壁Gord家把Odyssey卖了，换了一台丰田Sienna。"),
    ],
)
def test_a_car_someone_else_bought_is_theirs(older: str, newer: str) -> None:
    assert not suspect(older, newer).contradicts


def test_a_car_told_again_in_the_other_language_is_no_other_name() -> None:
    # the English reader cuts RAV4 into "rav" and 4, jieba keeps it whole
    older = "Sold the Civic and bought a blue Toyota RAV4 Hybrid."
    assert not suspect(older, "旧的本田思域卖掉了，现在开一辆蓝色的丰田RAV4混动。").contradicts


# --- taken up again, no longer done, across languages (review12 R6) --------------------------


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("I can't stand cilantro anymore.", "我又喜欢吃香菜了。"),
        ("I quit coffee.", "我又开始喝咖啡了。"),
        ("我戒咖啡了。", "I am drinking coffee again."),
        ("Still off coffee, pu'er tea every morning instead.", "我又开始喝咖啡了，一天一杯。"),
        ("I'm training for the BMO half marathon in May.", "我膝盖受伤了，半马不跑了。"),
    ],
)
def test_a_reversal_told_in_the_other_language_is_queued(older: str, newer: str) -> None:
    assert suspect(older, newer).contradicts


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("我戒咖啡了。", "I quit coffee, still off it."),  # the same change told again
        ("我又开始喝咖啡了。", "I started drinking coffee again."),
        ("I love cilantro.", "我又吃了香菜。"),  # nothing was given up
        ("I drink coffee every morning.", "我今天没喝咖啡。"),  # a day without, no "no longer"
    ],
)
def test_no_reversal_when_nothing_is_reversed(older: str, newer: str) -> None:
    assert not suspect(older, newer).contradicts


# --- words that read as a change or an attribute where they are neither ---------------------


@pytest.mark.parametrize(
    "text",
    [
        "Lunar New Year 2026 was at our place for the first time.",
        "Need a family doctor here, driving back to Richmond for the old one is a pain.",
        "Daniel and the kids were at the finish line.",
    ],
)
def test_no_change_word_in_a_name_a_way_back_or_a_finish_line(text: str) -> None:
    assert not read(text).cues


@pytest.mark.parametrize(
    "text", ["New job pays $128k a year.", "I moved back to Lyon.", "Went back to iPhone."]
)
def test_change_words_still_read_as_such(text: str) -> None:
    assert read(text).cues


@pytest.mark.parametrize(
    "text",
    [
        "i basically live on oat milk lattes, two a day minimum lol",
        "Christmas 2024 we stayed home in Richmond; Linda flew in from Calgary.",
    ],
)
def test_no_home_is_told_by_living_on_lattes_or_staying_home(text: str) -> None:
    assert "residence" not in read(text).single_slots


@pytest.mark.parametrize(
    "text", ["I live on Main Street.", "We live on the third floor.", "We live in Burnaby."]
)
def test_a_home_is_still_told(text: str) -> None:
    assert "residence" in read(text).single_slots


@pytest.mark.parametrize(
    ("text", "slots"),
    [
        ("Mom, Linda and her new boyfriend Marcus are coming to our place.", set()),
        ("我们请了晓琳和她的新男朋友来吃饭。", set()),
        ("Linda and her boyfriend Kevin broke up.", {"partner"}),
        ("I accepted the pharmacy manager job at London Drugs.", {"job"}),
        ("我在London Drugs的老板是Raj Gill。", {"manager"}),
    ],
)
def test_whose_partner_or_manager_it_is(text: str, slots: set[str]) -> None:
    assert set(read(text).single_slots) & {"partner", "manager", "job"} == slots


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        (
            "Ethan started grade 8 at Burnaby South Secondary today.",
            "Ethan's best friend Jayden also started at Burnaby South, but in grade 9.",
        ),
        ("以宁上一年级了，在Stride Avenue。", "以宁最好的朋友Sophie也在学芭蕾，在另一家舞蹈学校。"),
        ("Daniel left KPMG today.", "Daniel's buddy Zhou Wei left Deloitte and joined KPMG."),
    ],
)
def test_a_friend_of_the_one_named_is_someone_else(older: str, newer: str) -> None:
    assert "someone else" in suspect(older, newer).why


def test_a_rented_apartment_tells_the_home() -> None:
    assert "residence" in read("我们在Scarborough租了一套两室公寓，月租2400加元。").single_slots
    assert "residence" in read("We rent a two-bedroom apartment in Scarborough.").single_slots


# --- review13 J2, J4 -------------------------------------------------------------------------


def test_the_new_managers_past_does_not_tell_the_change_as_over() -> None:
    older = "我的manager是Tobias Weber，德国人，每周四和我1:1。"
    newer = "我的新manager是Sarah Klein，英国人，以前在Spotify做design lead。"
    assert suspect(older, newer).contradicts
    # … while a text told as over in its own first clause is still history
    assert not suspect("我住在北京。", "我以前住在杭州，现在住在北京。").contradicts


def test_a_move_to_the_place_a_plan_names_is_no_change_of_the_plan() -> None:
    plan = "The Boxhagener Platz flat: the landlord said yes! Move-in date is November 15."
    move = "我搬进了Boxhagener Platz的新家，一居室，55平米。"
    assert not suspect(plan, move).contradicts
    assert suspect("我现在暂时住在Mitte的一个Airbnb。", move).contradicts
    # another place beside the one both name is still a move
    assert suspect("I live in Berlin, Kreuzberg.", "我们搬到Berlin Mitte了。").contradicts


# --- names joined only by "and" right after a name; a change word negated; a place first ------


def test_names_are_joined_only_when_nothing_but_and_stands_between() -> None:
    names = read("Daniel left KPMG today and started his own firm, Ho & Partners Bookkeeping.")
    assert frozenset({"kpmg"}) in names.names
    assert read("I have two cats, Miso and Tofu.").names == (frozenset({"miso", "tofu"}),)


def test_leaving_the_employer_the_older_text_names_is_a_change() -> None:
    older = "My husband is Daniel Ho. He's a senior accountant at KPMG downtown."
    newer = "Daniel left KPMG today and started his own firm, Ho & Partners Bookkeeping."
    assert suspect(older, newer).contradicts


@pytest.mark.parametrize(
    ("text", "cue"),
    [
        ("Chloe wouldn't stop counting her red packets.", False),
        ("We didn't move after all.", False),
        ("I stopped eating meat.", True),
        ("I don't eat meat anymore.", True),
    ],
)
def test_a_negated_change_word_tells_no_change(text: str, cue: bool) -> None:
    assert bool(read(text).cues) is cue


def test_a_place_the_other_text_names_opens_a_text_about_the_user() -> None:
    older = "今年暑假打算带孩子去日本玩两周，东京和大阪。"
    newer = "Japan is off, flights in July were crazy expensive. We're doing Taiwan instead."
    assert suspect(older, newer).contradicts
    assert "someone else" in suspect("我女儿叫莉莉。", "Lucas is in grade 3 now.").why


def test_an_address_told_again_with_a_city_is_no_new_value() -> None:
    older = "新家地址是本拿比Walker Ave 7421号，邮编V5E。"
    assert not suspect(older, "Our address is 7421 Walker Ave, Burnaby.").contradicts
    assert suspect("我的经理是Dave Smith。", "My manager is Rachel, Dave Smith left.").contradicts


def test_xin_before_what_it_sets_is_a_change_word_as_new_is() -> None:
    assert read("我的新manager是Sarah Klein。").cues
    assert read("新工作年薪12.8万。").cues
    assert not read("新西兰很美。").cues


def test_the_users_own_friend_is_read_by_the_relation_word() -> None:
    # 我的闺蜜… opens with the user's possessive: the friend, not "我's friend"
    assert (
        "someone else"
        in suspect("我搬家了，现在住在朝阳区望京。", "我的闺蜜林小雨搬去深圳了。").why
    )

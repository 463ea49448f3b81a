"""What recall decides, as a person would notice it: relevance that means something across
queries, no rich-get-richer, current facts before the ones they replaced. Real encrypted store,
sqlite-vec, FTS5 and the bundled USE-m3 model."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pytest

from localmind import Memory
from localmind.cjk import mostly_cjk
from localmind.cli.memories import format_result
from tests.conftest import FakeClock

#: One person's ordinary facts, English and Chinese.
FACTS = [
    "I work as a software engineer at a logistics company",
    "My daughter Lily starts violin lessons in September",
    "I'm allergic to penicillin",
    "My sister Anna lives in Munich",
    "I grew up in Lyon",
    "We adopted a cat called Miso last spring",
    "我每周三晚上去游泳",
    "我老公在一家医院当护士",
    "我最喜欢的菜是麻婆豆腐",
    "我的车是一辆白色的丰田",
]
FILLER = [
    "I keep my passport in the blue folder",
    "The dentist appointment is every six months",
    "I prefer window seats on long flights",
    "我的生日是五月十二号",
    "I read science fiction before bed",
    "The Wi-Fi password is on the fridge",
]


def _filled(memory: Memory) -> None:
    for text in FACTS + FILLER:
        memory.remember(text)


def test_being_returned_is_not_being_used(
    open_memory: Callable[..., Memory], clock: FakeClock
) -> None:
    """100 unrelated recalls (which return the filler again and again) leave a fresh query's
    ranking exactly as it was: returning a memory does not lift it."""
    memory = open_memory()
    _filled(memory)
    clock.advance(days=30)
    fresh = "what am I allergic to?"
    before = [(r.memory.id, round(r.score, 9)) for r in memory.recall(fresh, 8, threshold=0)]
    for n in range(100):
        memory.recall(["passport folder", "Wi-Fi password", "my birthday", "window seat"][n % 4])
    after = [(r.memory.id, round(r.score, 9)) for r in memory.recall(fresh, 8, threshold=0)]
    assert after == before
    # ... and the access counts did not move: recall is not use.
    assert all(record.access_count == 0 for record in memory.list_memories())


def test_real_use_counts_as_use(open_memory: Callable[..., Memory]) -> None:
    memory = open_memory()
    record = memory.remember("I'm allergic to penicillin")
    memory.feedback(record.id, "confirm")
    assert memory.get(record.id).access_count == 1
    [result] = memory.recall("penicillin allergy", 1)
    assert result.breakdown.frequency > 0


def test_a_query_with_nothing_relevant_returns_nothing(open_memory: Callable[..., Memory]) -> None:
    memory = open_memory()
    _filled(memory)
    assert memory.recall("hello there") == []
    assert memory.recall("quantum chromodynamics lattice gauge theory") == []
    assert memory.recall("你好") == []
    # threshold 0 still gets everything, for whoever wants it
    assert len(memory.recall("hello there", 5, threshold=0)) == 5


def test_a_weak_right_answer_beside_a_strong_one_is_kept(
    open_memory: Callable[..., Memory],
) -> None:
    """The second half of a two-part question is answered by a memory that shares no word with
    it: the bundled model scores it about as low as filler (~0.01). Once the first half found a
    clear answer, recall keeps it rather than cutting at a fixed bar (which dropped it)."""
    memory = open_memory()
    _filled(memory)
    hiking = memory.remember("We go hiking in the Cascades most weekends in summer")
    found = memory.recall("What am I allergic to, and what outdoor activities do I enjoy?", 10)
    assert found[0].memory.content == "I'm allergic to penicillin"
    assert hiking.id in [r.memory.id for r in found]
    assert memory.recall("hello there") == []


@pytest.mark.parametrize(
    ("stored", "restated", "unrelated"),
    [
        (
            "I'm allergic to penicillin",
            "I am allergic to penicillin",
            "What time does the bakery open?",
        ),
        ("我每周三晚上去游泳", "每周三晚上我去游泳", "明天的天气怎么样"),
    ],
)
def test_similarity_is_absolute(
    open_memory: Callable[..., Memory], stored: str, restated: str, unrelated: str
) -> None:
    """An exact restatement scores high and an unrelated text low — not 1.00 for whatever
    happens to come first."""
    memory = open_memory()
    _filled(memory)
    [hit] = [r for r in memory.recall(restated, 3) if r.memory.content == stored]
    assert hit.breakdown.similarity >= 0.6
    results = memory.recall(unrelated, 3, threshold=0)
    assert results and max(r.breakdown.similarity for r in results) <= 0.15


def test_the_newer_fact_ranks_above_the_one_it_replaced(
    open_memory: Callable[..., Memory], clock: FakeClock
) -> None:
    memory = open_memory()
    _filled(memory)
    old = memory.remember("I live in Berlin")
    clock.advance(days=200)
    new = memory.remember("We moved to Lisbon, we live there now")
    clock.advance(days=10)
    for query in ("Where do I live?", "Berlin or Lisbon: where is home?", "I live in Berlin"):
        ranked = [r.memory.id for r in memory.recall(query, 5, threshold=0)]
        assert old.id in ranked and new.id in ranked, query
        assert ranked.index(new.id) < ranked.index(old.id), query
    by_id = {r.memory.id: r for r in memory.recall("I live in Berlin", 5, threshold=0)}
    assert by_id[old.id].breakdown.superseded_by == new.id


@pytest.mark.parametrize(
    ("old_text", "new_text", "query"),
    [
        # another language with nothing both spell alike (a shared name such as "Pepper"
        # would queue it) and no change word right before a thing both name ("no longer a
        # foster dog" after 寄养 is queued since lead10, review10 F26): the suspicion rules
        # cannot compare the words, nothing is queued
        (
            "我们在临时寄养一只黑色小狗，是从动物收容所接来的。",
            "We officially adopted the puppy! She's ours now, for good.",
            "那只小狗现在还是寄养的吗？",
        ),
        # same language, but no rule calls it a contradiction: only the change cue (现在)
        # (我不吃香菜 / 我现在能接受香菜了 is queued since queue13c: a negation flipped)
        (
            "妈妈有二型糖尿病，每天早上都要测血糖。",
            "妈妈现在血糖控制得很稳定了，医生给她减了药。",
            "妈妈的糖尿病怎么样了？",
        ),
    ],
)
def test_an_update_nobody_was_asked_about_still_ranks_first(
    open_memory: Callable[..., Memory],
    clock: FakeClock,
    old_text: str,
    new_text: str,
    query: str,
) -> None:
    """A later memory that announces a change ranks above the one it changes even when
    remember() queued no conflict for the pair (most updates are never reviewed)."""
    memory = open_memory()
    _filled(memory)
    old = memory.remember(old_text)
    clock.advance(days=120)
    new = memory.remember(new_text)
    clock.advance(days=10)
    assert not [
        c for c in memory.conflicts() if {c.existing.id, c.candidate.id} == {old.id, new.id}
    ]
    ranked = [r.memory.id for r in memory.recall(query, 5, threshold=0)]
    assert old.id in ranked and new.id in ranked
    assert ranked.index(new.id) < ranked.index(old.id)


@pytest.mark.parametrize(
    ("answer", "changed", "later", "query"),
    [
        (
            "Tom's birthday is July 15th.",
            "We're planning a family trip to Tokyo in April 2026.",
            "We moved the Tokyo trip from April to May 2026 — Tom can't get time off in April.",
            "When is Tom's birthday?",
        ),
        (
            "莉莉的生日是9月12号，她是2017年生的。",
            "莉莉在Lowell小学上学，班主任是Ramirez老师。",
            "莉莉转学到Ballard的Adams小学了，新班主任是Ms. Okafor。",
            "莉莉是哪年出生的？",
        ),
    ],
)
def test_a_later_memory_about_something_else_does_not_jump_the_answer(
    open_memory: Callable[..., Memory],
    clock: FakeClock,
    answer: str,
    changed: str,
    later: str,
    query: str,
) -> None:
    """A new memory changes one fact (the trip's month, the school) and merely differs from
    another fact about the same person (a birthday): asked about that other fact, its answer
    comes first, not the new memory lifted over it as if it were a later version."""
    memory = open_memory()
    _filled(memory)
    old = memory.remember(answer)
    memory.remember(changed)
    clock.advance(days=120)
    new = memory.remember(later)
    clock.advance(days=10)
    ranked = [r.memory.id for r in memory.recall(query, 10, threshold=0)]
    assert ranked[0] == old.id, [memory.get(key).content for key in ranked[:3]]
    assert new.id in ranked


def _at(day: str) -> float:
    return dt.datetime.fromisoformat(day).replace(hour=12, tzinfo=dt.UTC).timestamp()


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("What did we do for Christmas 2025?", "We went skiing with Tom and the kids"),
        ("what did I do last spring?", "We saw the cherry blossoms in Kyoto"),
        ("two weeks ago what did I buy?", "Bought a new road bike"),
        ("2025年圣诞节我们做了什么？", "We went skiing with Tom and the kids"),
        ("去年春天我去了哪里？", "We saw the cherry blossoms in Kyoto"),
        ("上个月我做了什么", "我参加了公司的年会"),
    ],
)
def test_a_period_in_the_query_brings_what_happened_then_first(
    open_memory: Callable[..., Memory], clock: FakeClock, query: str, expected: str
) -> None:
    """Dates and periods in English and Chinese, against a fixed clock (2026-05-28): the memory
    made in the period named comes first, above a newer one of the same kind."""
    memory = open_memory()
    dated = {
        "We went skiing with Tom and the kids": "2025-12-26",
        "We saw the cherry blossoms in Kyoto": "2025-04-06",
        "Bought a new road bike": "2026-05-13",
        "我参加了公司的年会": "2026-04-18",
        "We went to Osaka for the food": "2024-10-10",
        "We went hiking in the Alps with my sister": "2024-08-02",
        "Bought a new winter coat": "2024-11-20",
        "我参加了朋友的婚礼": "2024-06-01",
        # the same kind of thing at another time, newer than the answer: dates must decide
        "We went skiing in Austria with friends": "2026-02-10",
        "We saw the cherry blossoms in Tokyo": "2026-04-02",
        "Bought new running shoes": "2026-05-26",
        "我参加了表妹的生日会": "2026-05-24",
    }
    for text, day in dated.items():
        memory.remember(text, created_at=_at(day))
    assert dt.datetime.fromtimestamp(clock.now, dt.UTC).date() == dt.date(2026, 5, 28)
    results = memory.recall(query, 3)
    assert results and results[0].memory.content == expected, [r.memory.content for r in results]
    assert results[0].breakdown.in_period


@pytest.mark.parametrize(
    ("distractor", "answer", "query"),
    [
        # an English question; the answer was told in Chinese, the distractor shares its words
        (
            "My sister Anna called me on Sunday.",
            "我妹妹安娜比我小四岁，在上海当建筑师。",
            "How much younger than me is my sister?",
        ),
        # the reverse: a Chinese question, the answer in English
        (
            "我妈妈每天早上喝茶，她最喜欢绿茶。",
            "I drink green tea every morning before work.",
            "我每天早上喝什么茶？",
        ),
    ],
)
def test_a_question_finds_the_answer_told_in_the_other_language(
    open_memory: Callable[..., Memory], distractor: str, answer: str, query: str
) -> None:
    """The answer told in the other language comes first, above a memory in the question's own
    language that shares its words but does not answer it: only the meaning connects the
    answer to the question, and for a memory in the other script recall trusts it more."""
    memory = open_memory()
    _filled(memory)
    memory.remember(distractor)
    told = memory.remember(answer)
    results = memory.recall(query, 5)
    assert results and results[0].memory.id == told.id, [r.memory.content for r in results]
    other_script = {r.memory.content: r.breakdown.other_script for r in results}
    assert other_script[answer] and not other_script.get(distractor, False)


def test_a_later_memory_kept_both_is_never_moved_up(
    open_memory: Callable[..., Memory], clock: FakeClock
) -> None:
    """remember() noted the new job as a possible later version of the old one and asked; the
    person kept both: both hold (review11 K1), so neither is moved above the other nor marked,
    whatever the question, and each ranks by its own score."""
    memory = open_memory()
    _filled(memory)
    old = memory.remember("I work at Northwind Logistics as a backend engineer.")
    clock.advance(days=120)
    new = memory.remember("Started my new job at Lumen Health this week, finally out of logistics.")
    clock.advance(days=10)
    for conflict in memory.conflicts():
        memory.resolve_conflict(conflict.id, "keep_both")
    assert memory.conflicts() == []

    both = memory.recall("Which company do I work for, Northwind or Lumen Health?", 5, threshold=0)
    ranked = [r.memory.id for r in both]
    assert ranked.index(old.id) < ranked.index(new.id)
    by_id = {r.memory.id: r.breakdown for r in both}
    assert by_id[new.id].similarity < by_id[old.id].similarity  # by score: the old one first
    assert all(b.superseded_by is None and b.moved_above is None for b in by_id.values())
    assert "listed above it" not in "\n".join(format_result(r) for r in both)

    old_job = memory.recall("my job at Northwind Logistics", 5, threshold=0)
    assert old_job[0].memory.id == old.id and new.id in [r.memory.id for r in old_job]
    assert all(r.breakdown.moved_above is None for r in old_job)  # nothing was moved
    assert "listed above it" not in "\n".join(format_result(r) for r in old_job)


@pytest.mark.parametrize(
    ("language", "unrelated"),
    [
        ("en", "明天的天气怎么样？"),
        ("en", "这首歌叫什么名字？"),
        ("zh", "What time does the bakery open?"),
    ],
)
def test_a_question_in_the_other_language_with_nothing_relevant_returns_nothing(
    open_memory: Callable[..., Memory], language: str, unrelated: str
) -> None:
    """Memories in the other script are judged more by their meaning, but that does not make a
    whole store written in the other language relevant to an unrelated question."""
    memory = open_memory()
    for text in FACTS + FILLER:
        if mostly_cjk(text) == (language == "zh"):
            memory.remember(text)
    assert memory.recall(unrelated) == []
    assert memory.recall(unrelated, 5, threshold=0)  # they are there, for whoever asks for all

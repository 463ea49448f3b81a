"""The fifth personal set (Wendy Lin, a pharmacist in Metro Vancouver with a bilingual family:
about half English, half Chinese; written in session 11 by a helper who did not read the rules)
has the size and mix its brief asks for, and the benchmarks run it only when it is named, as
personal2. (Its updates, restatements and distractors are counted beside the other sets' in
test_personal_data.py, its questions checked with personal2's in test_personal2_data.py.)"""

from __future__ import annotations

import datetime as dt
from collections import Counter

import pytest

from bench import devsets
from bench.hygiene import personal_sets
from bench.personal import QUESTION_KINDS, SETS, PersonalMemory

FIFTH = SETS["personal5"]


@pytest.fixture(scope="module")
def memories() -> list[PersonalMemory]:
    return FIFTH.memories()


def test_memories_span_two_years_in_both_languages(memories: list[PersonalMemory]) -> None:
    assert len(memories) >= 320
    assert [m.id for m in memories] == [f"m{i:03d}" for i in range(1, len(memories) + 1)]
    assert memories[0].date >= dt.date(2025, 1, 1)
    assert (memories[-1].date - memories[0].date).days >= 22 * 30
    languages = Counter(m.lang for m in memories)
    assert min(languages["en"], languages["zh"]) >= 0.45 * len(memories), languages
    assert len({m.text for m in memories}) == len(memories), "a memory is repeated word for word"
    assert sum(m.text.startswith("The user") for m in memories) >= 5, "some assistant notes"


def test_updates_and_restatements_go_both_ways(memories: list[PersonalMemory]) -> None:
    by_id = {m.id: m for m in memories}
    updates = [m for m in memories if m.updates]
    assert {m.lang for m in updates} == {"en", "zh"}
    restated = [m for m in memories if m.restates]
    same = [m for m in restated if by_id[m.restates or ""].lang == m.lang]
    assert len(restated) >= 40 and {m.lang for m in same} == {"en", "zh"}, len(same)


def test_questions_are_many_in_both_languages() -> None:
    questions = FIFTH.questions()
    assert len(questions) >= 160
    kinds = Counter(q.kind for q in questions)
    assert set(kinds) == QUESTION_KINDS and min(kinds.values()) >= 25, kinds
    languages = Counter(q.lang for q in questions)
    assert min(languages.values()) >= 0.45 * len(questions), languages


def test_it_is_a_dev_set_run_only_when_named() -> None:
    default = [s.name for s in devsets.all_sets(madial=False, locomo_wanted=False)]
    only = devsets.all_sets(madial=False, locomo_wanted=False, held_out={"personal5"})
    assert FIFTH.title not in default
    assert [s.name for s in only] == [*default, FIFTH.title]
    assert "dev" in FIFTH.title and "held out" not in FIFTH.title
    assert "personal5" in personal_sets(skip_held_out=False)

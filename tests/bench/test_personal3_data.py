"""The third personal set (Hélène Moreau, a retired teacher in Lyon whose daughter lives in
Taipei: mostly English, about a third Chinese, a few traditional characters) is the final
held-out check: it has the size and mix issue 12 asks for, consistent labels, and the benchmarks
run it only when it is named (checked here for the fourth set, personal4, too). (Its updates,
restatements and distractors are counted beside the other sets' in test_personal_data.py, its
questions are checked with personal2's in test_personal2_data.py.)"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from bench import devsets
from bench.hygiene import personal_sets
from bench.personal import SETS, PersonalMemory
from bench.recall_sets import held_out_named

HELD_OUT = SETS["personal3"]


@pytest.fixture(scope="module")
def memories() -> list[PersonalMemory]:
    return HELD_OUT.memories()


def test_memories_span_eighteen_months_mostly_in_english(memories: list[PersonalMemory]) -> None:
    assert len(memories) >= 300
    assert [m.id for m in memories] == [f"m{i:03d}" for i in range(1, len(memories) + 1)]
    assert (memories[-1].date - memories[0].date).days >= 17 * 30
    languages = Counter(m.lang for m in memories)
    assert 0.3 * len(memories) <= languages["zh"] <= 0.4 * len(memories), languages
    assert len({m.text for m in memories}) == len(memories), "a memory is repeated word for word"
    assert sum(m.text.startswith("The user") for m in memories) >= 5, "some assistant notes"
    # Her in-laws write in traditional characters, she answers in simplified ones.
    assert sum(bool(re.search("[麵傳訊說樂媽親]", m.text)) for m in memories) >= 3


def test_restatements_are_mostly_translations_but_not_only(memories: list[PersonalMemory]) -> None:
    language = {m.id: m.lang for m in memories}
    restated = [m for m in memories if m.restates]
    same = sum(language[m.restates or ""] == m.lang for m in restated)
    assert len(restated) >= 50 and same >= 15, (len(restated), same)


#: The never-tuned-on sets: this one and the fourth (personal4, test_personal4_data.py).
never_tuned_on = pytest.mark.parametrize("name", ["personal3", "personal4"])


@pytest.mark.parametrize(
    ("sets", "named"),
    [
        ("personal", set()),  # a plain "personal" never runs a held-out set by accident
        ("personal3", {"personal3"}),
        ("personal4", {"personal4"}),
        ("personal,personal2", {"personal2"}),
        ("personal3,personal4", {"personal3", "personal4"}),
        ("personal5", {"personal5"}),
        ("held", {"personal2", "personal3", "personal4", "personal5"}),
    ],
)
def test_retrieval_runs_only_the_held_out_sets_named(sets: str, named: set[str]) -> None:
    held = {name for name, chosen in SETS.items() if chosen.held_out}
    assert {"personal3", "personal4"} <= held
    assert held_out_named(sets.split(",")) == named & held


@never_tuned_on
def test_the_benchmarks_leave_it_out_unless_named(name: str) -> None:
    title = SETS[name].title
    default = [s.name for s in devsets.all_sets(madial=False, locomo_wanted=False)]
    only = devsets.all_sets(madial=False, locomo_wanted=False, held_out={name})
    assert "personal (ours)" in default
    assert title not in default
    assert [s.name for s in only] == [*default, title]


@never_tuned_on
def test_hygiene_scores_it_in_rows_of_its_own_unless_skipped(name: str) -> None:
    assert name in personal_sets(skip_held_out=False)
    assert name not in personal_sets(skip_held_out=True)
    assert "personal" in personal_sets(skip_held_out=True)

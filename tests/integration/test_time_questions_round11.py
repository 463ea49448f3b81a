"""Questions that are nothing but a time find what was done then, not habits or the words
(review10 F15, F27; when11). The week of the review's store: Saturday's bouldering and
Sunday's hotpot, each told that day and naming its weekday, Monday's dentist, Tuesday's 1:1,
beside weekly habits, a spring allergy and spring trips. Real encrypted store, sqlite-vec,
FTS5 and the bundled USE-m3 model; the clock stands at Wednesday 2 December 2026."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pytest

from localmind import Memory, NewMemory
from localmind.records import RecallResult
from tests.conftest import FakeClock

pytestmark = pytest.mark.slow  # the model, and about a second a question

WEDNESDAY = dt.datetime(2026, 12, 2, 9, tzinfo=dt.UTC).timestamp()
SATURDAY = "Went bouldering with Mei at Berta Block on Saturday."
SUNDAY = "周日和Mei的父母一起吃了火锅。"
MONDAY = "Dentist appointment on Monday; got a small filling."
TUESDAY = "Had a long 1:1 with Priya about a promotion."
HABITS = {
    "每周日早上我给父母打电话。",
    "I go climbing every Wednesday evening.",
    "I play padel on Thursday evenings.",
}
ALLERGY = "I have a mild pollen allergy in spring."
TRIPS = {"Went to Vienna for a data engineering conference.", "Spent Easter in Lisbon with Mei."}

#: text → when it was told (UTC), and whether it is an event
TOLD = {
    "Visited my parents in Munich for the weekend.": ("2026-11-21T18:00", True),
    SATURDAY: ("2026-11-28T19:00", True),
    SUNDAY: ("2026-11-29T21:00", True),
    MONDAY: ("2026-11-30T12:00", True),
    TUESDAY: ("2026-12-01T17:00", True),
    "每周日早上我给父母打电话。": ("2025-01-10T10:00", False),
    "I go climbing every Wednesday evening.": ("2026-03-01T10:00", False),
    "I play padel on Thursday evenings.": ("2026-01-15T10:00", False),
    "Went to Vienna for a data engineering conference.": ("2026-03-21T10:00", True),
    "Spent Easter in Lisbon with Mei.": ("2026-04-05T10:00", True),
    ALLERGY: ("2026-04-20T10:00", False),
    "My favourite football team is FC St. Pauli.": ("2026-05-10T10:00", False),
    "I live in Prenzlauer Berg in Berlin.": ("2026-09-10T10:00", False),
}


def _at(moment: str) -> float:
    return dt.datetime.fromisoformat(moment).replace(tzinfo=dt.UTC).timestamp()


@pytest.fixture
def week(open_memory: Callable[..., Memory], clock: FakeClock) -> Memory:
    clock.now = WEDNESDAY
    memory = open_memory(llm=None)
    memory.remember_many(
        [
            NewMemory(text, type="episodic" if event else "semantic", created_at=_at(moment))
            for text, (moment, event) in TOLD.items()
        ],
        check=False,
    )
    return memory


def _texts(results: list[RecallResult]) -> list[str]:
    return [r.memory.content for r in results]


@pytest.mark.parametrize("question", ["What did I do last weekend?", "上周末我做了什么？"])
def test_last_weekend_is_saturday_and_sunday_not_a_habit_or_monday(
    week: Memory, question: str
) -> None:
    results = week.recall(question, 5)
    found = _texts(results)
    assert set(found[:2]) == {SATURDAY, SUNDAY}, found
    in_period = {r.memory.content for r in results if r.breakdown.in_period}
    # Monday's dentist and Tuesday's 1:1, told after the weekend, are those days' doings
    assert in_period == {SATURDAY, SUNDAY}, found


def test_yesterday_is_the_days_event_not_a_weekly_habit(week: Memory) -> None:
    found = _texts(week.recall("What did I do yesterday?", 3))
    assert found and found[0] == TUESDAY, found
    assert not HABITS & set(found[:2]), found


def test_a_weekday_named_on_its_own_day_is_that_day(week: Memory) -> None:
    """Saturday's "on Saturday", told that Saturday, is not the Saturday before: "two weeks
    ago" (a window around 18 November) holds the Munich visit, not last weekend's events."""
    results = week.recall("What did I do two weeks ago?", 5)
    in_period = {r.memory.content for r in results if r.breakdown.in_period}
    assert in_period == {"Visited my parents in Munich for the weekend."}, _texts(results)


def test_a_season_asked_about_ranks_its_trips_above_a_condition_of_every_spring(
    week: Memory,
) -> None:
    results = week.recall("Where did I go last spring?", 5)
    found = _texts(results)
    assert found[0] in TRIPS, found
    allergy = [r for r in results if r.memory.content == ALLERGY]
    # told that April, but of every spring: no period term, and below both trips
    assert not any(r.breakdown.in_period for r in allergy)
    assert all(found.index(trip) < found.index(ALLERGY) for trip in TRIPS if ALLERGY in found)
    assert set(found) >= TRIPS, found


@pytest.mark.parametrize("question", ["What did I do yesterday?", "我昨天做了什么？"])
def test_facts_told_this_morning_are_no_answer_to_what_was_done_yesterday(
    week: Memory, clock: FakeClock, question: str
) -> None:
    """review11 Z1: how things are, told in the present the morning after ("我现在住在北京",
    "my work e-mail is …"), is not what was done the day before; the day's own event is."""
    clock.now = WEDNESDAY + 3600
    today = [
        "My work email is mia@zalando.de.",
        "我现在住在柏林。",
        "My sister Anna lives in Lisbon.",
    ]
    for text in today:
        week.remember(text, type="semantic")
    results = week.recall(question, 5)
    assert _texts(results)[0] == TUESDAY
    in_period = {r.memory.content for r in results if r.breakdown.in_period}
    assert not in_period & set(today), in_period


def test_where_i_went_last_summer_is_a_trip_not_where_i_lived_then(
    open_memory: Callable[..., Memory], clock: FakeClock
) -> None:
    """review11 Z4: the earlier text of a changed fact holds in the period asked ("where did I
    live last summer?"), but it is no answer to where the person went then."""
    clock.now = WEDNESDAY
    memory = open_memory(llm=None)
    trip = "Went to Qingdao with Chen to see the sea."
    hamburg = memory.remember(
        "I live in Hamburg.", type="semantic", created_at=_at("2026-06-20T10:00")
    )
    memory.remember(trip, type="episodic", created_at=_at("2026-07-25T10:00"))
    memory.remember("I play the cello.", type="semantic", created_at=_at("2026-03-01T10:00"))
    moved = memory.remember_explained(
        "We moved to Berlin and live in Kreuzberg now.", created_at=_at("2026-10-01T10:00")
    )
    assert moved.conflict_id is not None
    memory.resolve_conflict(moved.conflict_id, "take_new", None)

    went = memory.recall("Where did I go last summer?", 5)
    assert _texts(went)[0] == trip
    assert not [r for r in went if r.memory.id == hamburg.id and r.breakdown.in_period]
    lived = memory.recall("Where did I live last summer?", 5)
    assert any(r.memory.id == hamburg.id and r.breakdown.in_period for r in lived)

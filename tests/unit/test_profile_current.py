"""An extractive profile gives what holds now, each attribute of the user once (review10 F8,
F13): of several memories setting one attribute (where the user lives, their job, partner),
the newest; a restatement in the other language is the same attribute."""

from __future__ import annotations

from localmind.profile import _about_one_thing, _who_first, attributes_set, newest_per_attribute
from localmind.records import MemoryRecord, MemoryType

DAY = 86400.0


def fact(content: str, day: int, kind: MemoryType = MemoryType.SEMANTIC) -> MemoryRecord:
    return MemoryRecord(id=f"m{day}", content=content, type=kind, created_at=day * DAY)


def texts(records: list[MemoryRecord]) -> list[str]:
    return [r.content for r in records]


def test_of_three_jobs_only_the_newest_told_in_chinese_stays() -> None:
    allianz = fact("I work as a backend developer at Allianz in Munich.", 1)
    otto = fact("I started a new job at Otto in Hamburg as a data engineer.", 2)
    zalando = fact("我现在在柏林的 Zalando 做数据工程主管。", 3)
    cat = fact("I have a cat called Pixel.", 0)
    assert texts(newest_per_attribute([allianz, cat, otto, zalando])) == texts([cat, zalando])


def test_the_residence_told_three_times_in_two_languages_is_said_once() -> None:
    tellings = [
        fact("用户住在柏林克罗伊茨贝格区", 3),
        fact("The user lives in Berlin", 1),
        fact("The user moved to Berlin last month and now lives in Kreuzberg", 2),
    ]
    assert texts(newest_per_attribute(tellings)) == ["用户住在柏林克罗伊茨贝格区"]


def test_a_newer_memory_outside_the_candidates_still_makes_an_older_one_outdated() -> None:
    old_job = fact("I work as a nurse.", 1)
    new_job = fact("I started a new job as a teacher.", 5)
    assert newest_per_attribute([old_job], [new_job]) == []
    # a candidate also among the others is not outdated by itself
    assert newest_per_attribute([new_job], [new_job, old_job]) == [new_job]


def test_what_someone_else_has_or_what_happened_sets_no_attribute_of_the_user() -> None:
    assert attributes_set(fact("My brother Felix lives in Zurich.", 1)) == frozenset()
    conference = fact("Went to Vienna for a data engineering conference.", 2, MemoryType.EPISODIC)
    assert attributes_set(conference) == frozenset()
    # the partner, said of the partner or of the user
    assert attributes_set(fact("My girlfriend is called Laura.", 1)) == {"partner"}
    assert attributes_set(fact("I'm engaged to Mei.", 2)) == {"partner"}
    older = [fact("My girlfriend is called Laura.", 1), fact("My brother lives in Zurich.", 2)]
    kept = newest_per_attribute([*older, fact("I'm engaged to Mei.", 3)])
    assert texts(kept) == ["My brother lives in Zurich.", "I'm engaged to Mei."]


def test_same_moment_keeps_the_first_candidate() -> None:
    a, b = fact("I live in Berlin.", 4), fact("用户住在柏林。", 4)
    assert newest_per_attribute([a, b]) == [a]


def test_a_later_version_counts_only_for_the_same_thing() -> None:
    otto = fact("I started a new job at Otto in Hamburg as a data engineer.", 1)
    sale = fact("Sold the Corolla when I moved to Hamburg; I take the U-Bahn now.", 2)
    assert not _about_one_thing(otto, sale)  # a job is not replaced by a move
    laura = fact("My girlfriend is called Laura.", 1)
    assert _about_one_thing(laura, fact("Laura and I broke up.", 2))


def test_who_the_person_is_then_allergies_and_pets_then_the_rest() -> None:
    ordered = sorted(
        [
            fact("My favourite football team is FC St. Pauli.", 1),
            fact("I have a cat called Pixel.", 2),
            fact("I live in Prenzlauer Berg in Berlin.", 3),
            fact("My name is Tom.", 4),
            fact("I'm allergic to peanuts.", 5),
        ],
        key=_who_first,
    )
    assert texts(ordered) == [
        "My name is Tom.",
        "I live in Prenzlauer Berg in Berlin.",
        "I have a cat called Pixel.",
        "I'm allergic to peanuts.",
        "My favourite football team is FC St. Pauli.",
    ]

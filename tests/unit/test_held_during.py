"""Which earlier texts of a memory held in a period (``records.held_during``, fix9 item 1):
each held from when it was told until the next text was told."""

from __future__ import annotations

from dataclasses import replace

from localmind.records import (
    EarlierText,
    MemoryRecord,
    held_during,
    held_until,
    with_replaced,
)

YEAR = 365 * 86_400.0
T2023, T2024, T2025, T2026 = (1_672_531_200.0 + i * YEAR for i in range(4))  # about Jan 1st


def memory(content: str, created_at: float, *replaced: tuple[list[str], float]) -> MemoryRecord:
    metadata: dict[str, object] = {}
    for texts, made in replaced:
        metadata = with_replaced(metadata, texts, made, content)
    return MemoryRecord(id="m1", content=content, created_at=created_at, metadata=metadata)


def held_in(record: MemoryRecord, start: float, end: float) -> tuple[EarlierText, ...]:
    return held_during(record, start, end)


def test_an_earlier_text_holds_from_when_it_was_told_until_the_next_one() -> None:
    porto = memory(
        "I moved to Porto",
        T2026,
        (["I live in Berlin"], T2023),
        (["I moved to Lisbon"], T2024 + 100),
    )

    assert held_in(porto, T2025, T2026) == (EarlierText("I moved to Lisbon", T2024 + 100, T2026),)
    assert [e.text for e in held_in(porto, T2023, T2025)] == [
        "I live in Berlin",
        "I moved to Lisbon",
    ]
    assert held_in(porto, T2026, T2026 + YEAR) == ()  # only the current text held then
    assert held_in(porto, T2023 - YEAR, T2023) == ()  # before anything was told


def test_a_fact_and_its_restatements_told_at_once_count_once() -> None:
    lisbon = memory("I moved to Lisbon", T2026, (["I live in Berlin", "我住在柏林"], T2024))

    assert held_in(lisbon, T2025, T2026) == (EarlierText("I live in Berlin", T2024, T2026),)


def test_undated_and_later_entries_and_odd_values_hold_nothing() -> None:
    record = MemoryRecord(
        id="m1",
        content="I moved to Lisbon",
        created_at=T2025,
        metadata={
            "replaced": [
                "I live in Berlin",  # a bare text: no date
                {"text": "I live in Paris", "created_at": T2026},  # after the memory's own date
                {"text": "", "created_at": T2024},
                {"text": "I live in Rome", "created_at": True},
                7,
            ]
        },
    )

    assert held_in(record, T2023, T2026 + YEAR) == ()
    assert (
        held_in(MemoryRecord(id="m1", content="x", metadata={"replaced": "oops"}), 0, T2026) == ()
    )


def test_of_a_fact_told_in_two_languages_the_preferred_one_stands_for_it() -> None:
    lisbon = memory("I moved to Lisbon", T2026, (["I live in Berlin", "我住在柏林"], T2024))

    chinese = held_during(lisbon, T2025, T2026, preferred=lambda text: "柏林" in text)
    nothing_preferred = held_during(lisbon, T2025, T2026, preferred=lambda text: False)

    assert [e.text for e in chinese] == ["我住在柏林"]
    assert [e.text for e in nothing_preferred] == ["I live in Berlin"]


def test_a_noted_end_shortens_the_newest_earlier_text_and_survives_a_later_replacement() -> None:
    # Hamburg, then Berlin (told T2025) merged with a retelling told later (T2026): the memory
    # is dated T2026, but Hamburg ended with the move
    berlin = memory("I live in Berlin", T2026, (["I live in Hamburg"], T2023))
    berlin = replace(berlin, metadata=held_until(berlin.metadata, T2025))
    assert held_in(berlin, T2023, T2026) == (EarlierText("I live in Hamburg", T2023, T2025),)
    assert held_until(berlin.metadata, T2024) == berlin.metadata  # an earlier note stays

    # a later take-new keeps the note with the text it is about
    metadata = with_replaced(berlin.metadata, ["I live in Berlin"], T2026, "I moved to Rome")
    rome = MemoryRecord(id="m1", content="I moved to Rome", created_at=T2026 + YEAR)
    rome = replace(rome, metadata=metadata)
    assert held_in(rome, T2023, T2026 + YEAR) == (
        EarlierText("I live in Hamburg", T2023, T2025),
        EarlierText("I live in Berlin", T2026, T2026 + YEAR),
    )
    assert held_until({}, T2025) == {}  # nothing replaced: nothing to note

"""Sync, round 12 (review11 L2, U2): a change reaches every copy of the fact it supersedes
on every laptop, and an old copy synced back undoes nothing a newer decision did."""

from __future__ import annotations

from pathlib import Path

import pytest

from localmind import Memory, Status
from tests.integration import test_sync_folder
from tests.integration.test_sync_resolutions import laptops, sync_all

pytestmark = pytest.mark.slow  # the real embedder on two or three stores, several syncs

open_device = test_sync_folder.open_device
__all__ = ["laptops", "open_device"]

ENGLISH = "I live in Berlin, in Kreuzberg"
CHINESE = "我住在柏林，离公司很近"
MOVE = "We moved to Lisbon"


def shown(memory: Memory, question: str) -> list[str]:
    return [line for line in memory.context(question).splitlines() if line.startswith("- ")]


@pytest.mark.parametrize("resolver", ["teller", "other"])
def test_a_move_taken_for_one_copy_of_the_residence_reaches_the_other_on_both_laptops(
    laptops: tuple[Memory, Memory, Path], resolver: str
) -> None:
    """review11 L2: the move is queued against the nearest copy only (the Chinese one); after
    take-new the English copy stayed current and unmarked, the move out of sight, on both
    laptops. Now it is asked about on each laptop, and marked until answered."""
    a, b, shared = laptops
    english = a.remember(ENGLISH).id
    a._clock.advance(seconds=60)  # type: ignore[attr-defined]
    chinese = a.remember(CHINESE).id
    sync_all(shared, a, b)
    for device in (a, b):
        device._clock.advance(days=1)  # type: ignore[attr-defined]
    a.remember(MOVE)
    sync_all(shared, a, b)
    deciding = a if resolver == "teller" else b
    [conflict] = deciding.conflicts()
    assert conflict.existing.id == chinese
    deciding.resolve_conflict(conflict.id, "take_new", None)
    sync_all(shared, a, b)
    for device in (a, b):
        assert device.get(chinese).content == MOVE
        [asked] = device.conflicts()
        assert (asked.existing.id, asked.candidate.id) == (english, chinese)
        lines = shown(device, "Where do I live?")
        assert lines[0].startswith(f'- "{MOVE}"')
        assert f'- "{ENGLISH}"' in lines[1] and "may be outdated" in lines[1]
    # answered on one laptop, the move holds for both copies everywhere
    [asked] = deciding.conflicts()
    deciding.resolve_conflict(asked.id, "take_new", None)
    sync_all(shared, a, b)
    for device in (a, b):
        active = [r.content for r in device.iter_all() if r.status is Status.ACTIVE]
        assert active == [MOVE]
        assert device.conflicts() == []


@pytest.mark.parametrize("resolver", ["teller", "other"])
def test_a_take_new_asks_about_copies_of_the_fact_not_about_what_was_noted_loosely(
    laptops: tuple[Memory, Memory, Path], resolver: str
) -> None:
    """review14 K9: "Dr Lim raised my amlodipine dose" was queued against the 5 mg memory
    and noted as a possible later version of the resignation and of "My doctor is Dr Lim";
    take-new on the dose then asked on both laptops whether the dose change outdates the
    resignation, and context called the resignation "may be outdated"."""
    a, b, shared = laptops
    a.remember("I take amlodipine 5 mg every morning for high blood pressure.")
    a.remember("My doctor is Dr Lim at Bedok Polyclinic.")
    resigned = a.remember("Handed in my resignation to Mr Ravi Pillai at Tan & Lim.", "episodic")
    a._clock.advance(days=8)  # type: ignore[attr-defined]
    a.remember("Dr Lim raised my amlodipine dose to 10 mg a day.")
    sync_all(shared, a, b)
    deciding = a if resolver == "teller" else b
    [conflict] = deciding.conflicts()
    deciding.resolve_conflict(conflict.id, "take_new", None)
    sync_all(shared, a, b)
    for device in (a, b):
        assert device.conflicts() == []
        lines = shown(device, "When did I resign from Tan & Lim?")
        assert not any(resigned.content in line and "outdated" in line for line in lines)


def test_an_old_copy_maintained_on_its_return_undoes_nothing_decided_elsewhere(
    open_device: test_sync_folder.Opener, tmp_path: Path
) -> None:
    """review11 U2: a third laptop, off for two months, runs its maintenance on its old copy
    when it comes back, then syncs. Its decay and archiving, read from that old copy, must not
    archive again what the person brought back on another laptop, rewrite why a memory was
    archived there, or undo a verdict there with a confidence decayed from its old value."""
    shared = tmp_path / "Sync" / "localmind"
    a, b, c = test_sync_folder.joined(open_device, shared, "a", "b", "c")
    archived = a.remember("I take the tram to work").id
    brought_back = a.remember("My sister lives in Porto").id
    confirmed = a.remember("I drink oolong tea").id
    for memory_id in (archived, brought_back):
        a.update(memory_id, importance=0.06)  # decays under the floor within a month
    sync_all(shared, a, b, c)
    for device in (a, b, c):
        device.maintain(trust_clock=True)
    for _ in range(6):  # c is off for 60 days; a and b run their maintenance every 10
        for device in (a, b, c):
            device._clock.advance(days=10)  # type: ignore[attr-defined]
        a.maintain()
        b.maintain()
        sync_all(shared, a, b)
    why = a.archive_reasons([archived])[archived]
    assert a.get(archived).status is Status.EXPIRED
    a.unarchive(brought_back)
    a.feedback(confirmed, "confirm")
    sync_all(shared, a, b)
    decided = {m: b.get(m) for m in (archived, brought_back, confirmed)}
    assert decided[brought_back].status is Status.ACTIVE
    for device in (a, b, c):
        device._clock.advance(seconds=3600)  # type: ignore[attr-defined]
    report = c.maintain()  # back, an hour later: its maintenance first, on its old copy
    assert report.archived == 2 and report.confidence_decayed >= 1
    sync_all(shared, c, a, b)
    for device in (a, b, c):
        assert device.get(archived).status is Status.EXPIRED
        assert device.archive_reasons([archived])[archived] == why
        assert device.get(brought_back).status is Status.ACTIVE
        assert device.get(confirmed).confidence == decided[confirmed].confidence

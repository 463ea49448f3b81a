"""Time that cannot be trusted (issue 17, items 11 and 12): a wall clock that jumps 300 days
either way archives nothing, on this laptop or through sync on another; stamps never outgrow
their fixed width, so a million changes in one millisecond still replicate."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from localmind import Memory, Status
from localmind.hlc import HybridLogicalClock, Stamp
from sync.folder import init_folder, join_folder, sync_once
from tests.conftest import FAST_KDF, PASSPHRASE, FakeClock

TEXTS = [
    "My favourite tea is green tea",
    "I play the cello on Sundays",
    "The cat is called Miso",
    "I cycle to work",
    "My sister lives in Lyon",
    "I am allergic to peanuts",
]


def open_store(path: Path, clock: FakeClock) -> Memory:
    return Memory.open(path, PASSPHRASE, kdf=FAST_KDF, clock=clock)


def active(memory: Memory) -> int:
    return sum(1 for r in memory.iter_all() if r.status is Status.ACTIVE)


@pytest.fixture
def two_laptops(tmp_path: Path) -> Iterator[tuple[FakeClock, Path, Memory, Path]]:
    """Laptop A (closed, its clock given) and B (open), synced with six memories of A's."""
    shared = tmp_path / "Sync"
    a_clock = FakeClock()
    a_path = tmp_path / "a.db"
    with open_store(a_path, a_clock) as a:
        for text in TEXTS:
            a.remember(text, importance=0.3)
        init_folder(a, shared, PASSPHRASE, FAST_KDF)
        sync_once(a, shared)
    b = open_store(tmp_path / "b.db", FakeClock())
    join_folder(b, shared, PASSPHRASE)
    sync_once(b, shared)
    assert active(b) == 6
    yield a_clock, a_path, b, shared
    b.close()


@pytest.mark.parametrize("days", [300, -300])
def test_a_clock_jump_archives_nothing_here_or_on_the_other_laptop(
    two_laptops: tuple[FakeClock, Path, Memory, Path], days: int
) -> None:
    a_clock, a_path, b, shared = two_laptops
    a_clock.advance(days=days)
    with open_store(a_path, a_clock) as a:  # opening runs the daily maintenance
        assert active(a) == 6
        report = a.maintain()
        assert report.refused and "clock" in report.refused
        assert (report.archived, report.expired, report.purged) == (0, 0, 0)
        sync_once(a, shared)
    sync_once(b, shared)
    assert active(b) == 6


def test_a_person_whose_clock_is_right_can_say_so(
    two_laptops: tuple[FakeClock, Path, Memory, Path],
) -> None:
    a_clock, a_path, _, _ = two_laptops
    a_clock.advance(days=300)  # a laptop left in a drawer for ten months
    with open_store(a_path, a_clock) as a:
        report = a.maintain(trust_clock=True)
        assert report.refused is None and report.archived == 6
        assert a.maintain(force=False).skipped  # and the next days run as usual


def test_memories_written_while_the_clock_was_in_the_past_are_not_taken_for_idle(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    path = tmp_path / "a.db"
    with open_store(path, clock) as memory:
        memory.remember("My favourite tea is green tea", importance=0.3)
    clock.advance(days=-3000)  # the RTC battery died: the clock starts over years ago
    with open_store(path, clock) as memory:
        cello = memory.remember("I play the cello on Sundays", importance=0.3)
    clock.advance(days=3000 + 2)  # set right again two days later
    with open_store(path, clock) as memory:
        report = memory.maintain(force=False)
        assert report.refused is None and report.archived == 0
        assert memory.get(cello.id).status is Status.ACTIVE


def test_a_million_stamps_on_a_frozen_clock_keep_their_width_and_order() -> None:
    frozen = 1_780_000_000.0
    millis = int(frozen * 1000)
    device = "01JDEV1CE00000000000000000"
    clock = HybridLogicalClock(device, lambda: frozen, Stamp(millis, 999_998, device))
    stamps = [clock.now() for _ in range(3)]
    texts = [str(s) for s in stamps]
    assert texts == sorted(texts) and stamps == sorted(stamps)
    assert [Stamp.parse(t) for t in texts] == stamps
    assert all(len(t) == len(texts[0]) for t in texts)  # 13.6 digits: sorts as text
    assert stamps[-1].millis == millis + 1  # the counter carried into the milliseconds
    clock.observe(Stamp(millis + 5, 999_999, "01JREM0TE00000000000000000"))
    after = clock.now()
    assert str(after) > str(Stamp(millis + 5, 999_999, "01JREM0TE00000000000000000"))
    assert len(str(after)) == len(texts[0])


def test_a_store_whose_clock_made_a_million_stamps_in_one_millisecond_still_syncs(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    shared = tmp_path / "Sync"
    with open_store(tmp_path / "a.db", clock) as a, open_store(tmp_path / "b.db", clock) as b:
        init_folder(a, shared, PASSPHRASE, FAST_KDF)
        join_folder(b, shared, PASSPHRASE)
        first = a.remember("My favourite tea is green tea")
        # The state a million changes within one millisecond would leave (a clock frozen, or
        # run ahead by a peer): the counter at its last six-digit value.
        a._store._hlc = HybridLogicalClock(
            a.device_id, clock, Stamp(int(clock() * 1000), 999_999, a.device_id)
        )
        cello = a.remember("I play the cello on Sundays")
        a.update(first.id, content="My favourite tea is oolong")
        sync_once(a, shared)
        report = sync_once(b, shared)[1]
        assert report.skipped == []
        assert b.get(cello.id).content == "I play the cello on Sundays"
        assert b.get(first.id).content == "My favourite tea is oolong"

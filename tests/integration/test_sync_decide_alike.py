"""Two laptops decide alike (review10 F19, F18): a pair told one half on each laptop is
judged the same way on both, and is named on both by what they share, the ids of its
memories (each laptop numbers its own conflicts)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from localmind import Memory
from sync import init_folder, join_folder
from sync.folder import sync_once
from tests.conftest import FAST_KDF, PASSPHRASE, FakeClock

pytestmark = pytest.mark.slow  # the real embedder on two stores, several syncs


@pytest.fixture
def two(tmp_path: Path) -> Iterator[tuple[Memory, FakeClock, Memory, FakeClock, Path]]:
    shared = tmp_path / "Sync" / "localmind"
    clocks = FakeClock(), FakeClock()
    a, b = (
        Memory.open(tmp_path / f"{name}.db", PASSPHRASE, kdf=FAST_KDF, clock=clock, llm=None)
        for name, clock in zip("ab", clocks, strict=True)
    )
    init_folder(a, shared, PASSPHRASE, FAST_KDF)
    join_folder(b, shared, PASSPHRASE)
    yield a, clocks[0], b, clocks[1], shared
    a.close()
    b.close()


def sync_all(shared: Path, *devices: Memory) -> None:
    for device in (*devices, *devices):
        sync_once(device, shared)


def asked(memory: Memory) -> set[tuple[str, str, str]]:
    return {(c.existing.id, c.candidate.id, c.reason) for c in memory.conflicts()}


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("My sister Julia lives in Paris.", "我妹妹Julia住在巴黎。"),
        ("我妹妹Julia住在巴黎。", "My sister Julia lives in Paris."),
        ("I drink coffee every morning.", "我每天早上喝咖啡。"),
    ],
)
def test_a_pair_told_half_on_each_laptop_is_asked_alike_on_both(
    two: tuple[Memory, FakeClock, Memory, FakeClock, Path], first: str, then: str
) -> None:
    a, _, b, b_clock, shared = two
    older = a.remember(first).id
    b_clock.advance(seconds=30)  # told later, on the other laptop
    newer = b.remember(then).id
    sync_all(shared, a, b)

    on_a, on_b = asked(a), asked(b)
    assert on_a == on_b  # the same pair, the same way round, for the same reason
    assert {(old, new) for old, new, _ in on_a} == {(older, newer)}
    # each laptop finds it by the newer memory's id, whatever number it gave it
    assert a.find_conflict(newer).existing.id == b.find_conflict(newer).existing.id == older


@pytest.mark.parametrize("first", ["take_new", "merge"])
def test_a_later_keep_both_brings_the_newer_memory_back_under_its_own_id(
    two: tuple[Memory, FakeClock, Memory, FakeClock, Path], first: str
) -> None:
    a, a_clock, b, b_clock, shared = two
    siemens = a.remember("I work at Siemens as an engineer.").id
    bosch = a.remember("I now work at Bosch as a team lead.").id
    sync_all(shared, a, b)
    a_clock.advance(seconds=60)
    merged = "I work at Bosch now (before: Siemens)." if first == "merge" else None
    a.resolve_conflict(a.find_conflict(bosch).id, first, merged)
    b_clock.advance(seconds=120)  # the person's later answer, on the other laptop
    b.resolve_conflict(b.find_conflict(bosch).id, "keep_both")
    sync_all(shared, a, b)

    for device in (a, b):
        assert device.conflicts() == []
        # both texts current, each under the id it always had; nothing lost
        assert device.get(siemens).content == "I work at Siemens as an engineer."
        assert device.get(bosch).content == "I now work at Bosch as a team lead."
        assert len(device.list_memories()) == 2
        if merged:
            assert merged in [v.content for v in device.history(siemens)]


STORY = Path(__file__).parent.parent / "data" / "two_laptops_story.jsonl"


def test_a_change_heard_by_sync_is_asked_against_what_it_was_told_against(
    two: tuple[Memory, FakeClock, Memory, FakeClock, Path],
) -> None:
    """review14 K1: six weeks told on two laptops (dated adds), then synced. The laptop that
    hears "We bought a 3-bedroom condo …" by sync holds memories told *after* it ("We now
    live in the condo", the trip that moved …); they took the places of the older memories
    it had been judged against where it was told, and it was asked against another one."""
    work, work_clock, home, home_clock, shared = two
    told_by = datetime(2026, 12, 1, tzinfo=UTC).timestamp()
    for clock in (work_clock, home_clock):
        clock.advance(seconds=told_by - clock())
    laptops = {"work": work, "home": home}
    ids: dict[str, str] = {}
    for line in STORY.read_text(encoding="utf-8").splitlines():
        told = json.loads(line)
        when = datetime.fromisoformat(told["date"]).replace(hour=12, tzinfo=UTC).timestamp()
        memory = laptops[told["laptop"]].remember(told["content"], told["type"], created_at=when)
        ids[memory.id] = told["key"]
    asked_at_home = {
        c.candidate.id: c.existing.id for c in home.conflicts() if ids[c.candidate.id] == "h5"
    }
    assert asked_at_home  # where it was told, the condo is asked about (against the rent)
    sync_all(shared, work, home)
    asked_at_work = {
        c.candidate.id: c.existing.id for c in work.conflicts() if ids[c.candidate.id] == "h5"
    }
    assert asked_at_work == asked_at_home

"""Capacity, expiry, daily maintenance and the health figures, with an injected clock."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from localmind import Memory, NewMemory, Settings, Status
from localmind.config import GovernanceConfig
from tests.conftest import DAY, FakeClock


def snapshot(memory: Memory) -> list[tuple[str, str, float, float, str]]:
    return [
        (r.id, r.content, r.confidence, r.importance, str(r.status))
        for r in memory.list_memories(status=None)
    ]


def test_capacity_keeps_the_limit_and_evicts_the_lowest_valued_never_pinned(
    open_memory: Callable[..., Memory],
) -> None:
    memory = open_memory()  # default capacity: 500
    # Stored as told: numbered template lines would be judged as numbers changed, and what
    # capacity does with memories awaiting review is test_capacity's.
    first = memory.remember_many(
        [NewMemory(f"Routine note number {n}", importance=0.1) for n in range(489)], check=False
    )
    doubted = first[:10]
    for record in doubted:  # value 0.6 × 1: the lowest
        memory.feedback(record.id, "deny")
    pinned = first[10]
    memory.update(pinned.id, pinned=True, confidence=0.05)  # lowest of all, but pinned
    used = memory.remember("The spare key hides under the blue flowerpot", importance=0.9)
    memory.update(used.id, confidence=0.4)
    # Confirmed: a real use (being recalled is not one): 0.5 × 2 = 1.0, safe.
    assert memory.feedback(used.id, "confirm").access_count == 1

    memory.remember_many(
        [NewMemory(f"Fresh fact number {n}", importance=0.1) for n in range(20)], check=False
    )

    assert memory.count() == 500
    gone = {r.id for r in memory.list_memories(status="expired")}
    assert gone == {r.id for r in doubted}
    assert memory.get(pinned.id).status is Status.ACTIVE
    assert memory.get(used.id).status is Status.ACTIVE
    reasons = [
        reason
        for (reason,) in memory._store.db.execute(
            "SELECT reason FROM events WHERE reason LIKE 'evicted:%'"
        )
    ]
    assert len(reasons) == 10 and "over capacity 500" in reasons[0]
    assert memory.stats()["activity_by_day"]["evicted"]


def test_remember_one_by_one_also_respects_capacity(open_memory: Callable[..., Memory]) -> None:
    memory = open_memory(settings=Settings(governance=GovernanceConfig(capacity=3)))
    for text in ["apples are red", "the sky is blue", "grass is green", "snow is white"]:
        memory.remember(text)
    assert memory.count() == 3
    assert "apples are red" not in [r.content for r in memory.list_memories()]


def aged_store(
    open_memory: Callable[..., Memory], clock: FakeClock
) -> tuple[Memory, dict[str, str]]:
    memory = open_memory()
    ids = {
        "fresh": memory.remember("used every day", importance=0.5).id,
        "faded": memory.remember("a trivial remark", importance=0.06).id,
        "doubtful": memory.remember("maybe the user likes jazz", importance=0.9).id,
        "expiring": memory.remember("the hotel room code is 4711", importance=0.9).id,
        "pinned": memory.remember("the user's name is Ada", importance=0.01).id,
    }
    memory.update(ids["doubtful"], confidence=0.2)
    memory.update(ids["expiring"], expires_at=clock() + 3 * DAY)
    memory.update(ids["pinned"], pinned=True)
    clock.advance(days=40)
    memory.recall("used every day", limit=1)  # touched: fresh again
    return memory, ids


def test_maintenance_expires_archives_and_decays_by_the_rules(
    open_memory: Callable[..., Memory], clock: FakeClock
) -> None:
    memory, ids = aged_store(open_memory, clock)
    report = memory.maintain()
    status = {name: memory.get(i).status for name, i in ids.items()}
    assert status == {
        "fresh": Status.ACTIVE,
        "faded": Status.EXPIRED,  # 0.06 × 0.99^33 < 0.05 floor
        "doubtful": Status.ACTIVE,
        "expiring": Status.EXPIRED,
        "pinned": Status.ACTIVE,  # never archived
    }
    assert (report.expired, report.archived) == (1, 1)
    # 40 days since the store's first maintenance mark, confidence below 0.3: decayed
    assert memory.get(ids["doubtful"]).confidence == pytest.approx(0.2 * 0.99**40)
    assert memory.get(ids["fresh"]).confidence == pytest.approx(0.8)
    assert all(
        r.memory.id != ids["expiring"] for r in memory.recall("hotel room code", touch=False)
    )


def test_maintenance_twice_on_the_same_day_changes_nothing_the_second_time(
    open_memory: Callable[..., Memory], clock: FakeClock
) -> None:
    memory, _ = aged_store(open_memory, clock)
    memory.maintain()
    after_first = snapshot(memory)
    clock.advance(seconds=3600)
    second = memory.maintain()
    assert snapshot(memory) == after_first
    assert (second.expired, second.archived, second.confidence_decayed, second.purged) == (
        0,
        0,
        0,
        0,
    )


def test_archived_memories_are_purged_after_a_configured_retention_period(
    open_memory: Callable[..., Memory], clock: FakeClock
) -> None:
    memory, ids = aged_store(open_memory, clock)
    memory.configure("archive-retention-days", "90")  # default: never
    memory.maintain()
    clock.advance(days=91)
    report = memory.maintain()
    assert report.purged == 2
    faded = memory.get(ids["faded"])
    assert (faded.status, faded.content) == (Status.DELETED, "")


def test_maintenance_runs_on_open_once_a_day(
    open_memory: Callable[..., Memory], clock: FakeClock
) -> None:
    memory = open_memory()
    record = memory.remember("the hotel room code is 4711")
    memory.update(record.id, expires_at=clock() + DAY)
    memory.close()
    clock.advance(days=2)
    reopened = open_memory()
    assert reopened.get(record.id).status is Status.EXPIRED
    last = reopened.stats()["last_maintenance"]
    reopened.close()
    clock.advance(seconds=60)
    assert open_memory().stats()["last_maintenance"] == last  # not again within the day


def test_stats_report_health(open_memory: Callable[..., Memory]) -> None:
    memory = open_memory()
    memory.remember("I like Java")
    memory.remember("I now prefer Go")  # no LLM: a pending conflict
    memory.recall("Java")
    memory.recall("Go")
    stats = memory.stats()
    assert stats["pending_conflicts"] == 1
    assert sum(stats["confidence_histogram"]) == 2 and stats["confidence_histogram"][8] == 2
    latency = stats["recall_latency"]
    assert latency["samples"] == 2 and latency["search_p95_ms"] > 0
    assert latency["total_p50_ms"] >= latency["search_p50_ms"]
    assert stats["capacity"] == 500 and stats["last_maintenance"] is not None
    assert sum(stats["activity_by_day"]["add"].values()) == 2

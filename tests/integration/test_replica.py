"""Replication between devices (localmind.replica): three stores, events exchanged directly."""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from localmind import Memory, Status
from localmind.records import DECLARED, KEPT_WITH, REVIVED, Travel
from localmind.replica import Event
from tests.conftest import FAST_KDF, PASSPHRASE, FakeClock

TEXTS = [
    "I live in Lisbon with 2 cats",
    "My favourite tea is green tea from Shizuoka",
    "The project deadline is on March 14",
    "I play the cello every Sunday morning",
    "My sister works as a nurse in 3 hospitals",
    "用户喜欢 Rust 编程语言",
    "I am allergic to peanuts since 1998",
    "Our team uses PostgreSQL 16 in production",
    "I run 5 kilometres before breakfast",
    "我每天早上喝绿茶",
]


class Device:
    def __init__(self, path: Path, skew: float) -> None:
        self.clock = FakeClock(1_780_000_000.0 + skew)
        self.memory = Memory.open(path, PASSPHRASE, kdf=FAST_KDF, clock=self.clock)
        self.memory.source = f"cli on {path.stem}"  # each device's own: it must travel

    def active_ids(self) -> list[str]:
        return sorted(r.id for r in self.memory.list_memories())

    def pick(self, index: int) -> str | None:
        ids = self.active_ids()
        return ids[index % len(ids)] if ids else None


@contextmanager
def devices(skews: tuple[float, ...] = (0.0, 0.0, 0.0)) -> Iterator[list[Device]]:
    with tempfile.TemporaryDirectory() as folder:
        made = [Device(Path(folder) / f"device{i}.db", skew) for i, skew in enumerate(skews)]
        try:
            yield made
        finally:
            for device in made:
                device.memory.close()


def exchange(source: Device, target: Device) -> None:
    target.memory.apply_remote(source.memory.events_since(0))


def full_exchange(group: list[Device]) -> None:
    for target in group:
        for source in group:
            if source is not target:
                exchange(source, target)


SHARED = [name for name, d in DECLARED.items() if d.travel is not Travel.LOCAL]


def snapshot(device: Device) -> list[tuple[Any, ...]]:
    memory = device.memory
    rows = []
    for record in memory.iter_all():
        history = (
            [(v.version, v.content) for v in memory.history(record.id)]
            if record.status is not Status.DELETED
            else []
        )
        # every field that travels, as declared (localmind.records): a new one is compared too
        fields = tuple(str(record.to_dict().get(name, getattr(record, name))) for name in SHARED)
        rows.append((*fields, tuple(history)))
    return sorted(rows)


def indexed(device: Device) -> tuple[list[int], list[int]]:
    """(rowids in the vector index, rowids of active memories): equal when in step."""
    db = device.memory._store.db
    vec = sorted(r for (r,) in db.execute("SELECT rowid FROM memory_vec"))
    active = sorted(r for (r,) in db.execute("SELECT rowid FROM memories WHERE status='active'"))
    return vec, active


Op = tuple[str, int, int, int]
ops = st.lists(
    st.tuples(
        st.sampled_from(["add", "add", "update", "confirm", "deny", "forget", "revert", "sync"]),
        st.integers(0, 2),  # device
        st.integers(0, 50),  # which memory / which other device
        st.integers(0, len(TEXTS) - 1),  # which text
    ),
    min_size=1,
    max_size=25,
)


def run(group: list[Device], op: Op) -> None:
    kind, who, pick, text = op
    device = group[who]
    device.clock.advance(seconds=pick % 3)  # sometimes the same millisecond: counters decide
    memory = device.memory
    if kind == "add":
        memory.remember(TEXTS[text])
        return
    if kind == "sync":
        source = group[pick % 3]
        if source is not device:
            exchange(source, device)
        return
    memory_id = device.pick(pick)
    if memory_id is None:
        return
    if kind == "update":
        memory.update(memory_id, content=f"{TEXTS[text]} (edit {pick})")
    elif kind in ("confirm", "deny"):
        memory.feedback(memory_id, kind)
    elif kind == "forget":
        memory.forget(memory_id)
    elif kind == "revert":
        history = memory.history(memory_id)
        if history:
            memory.revert(memory_id, history[pick % len(history)].version)


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    script=ops,
    skews=st.tuples(*[st.sampled_from([0.0, -3.0, 2.5, 7.0])] * 3),
    order=st.permutations([0, 1, 2]),
)
def test_three_devices_converge(
    script: list[Op], skews: tuple[float, float, float], order: list[int]
) -> None:
    with devices(skews) as group:
        for op in script:
            run(group, op)
        shuffled = [group[i] for i in order]
        full_exchange(shuffled)
        first = snapshot(group[0])
        for device in group[1:]:
            assert snapshot(device) == first
        for device in group:
            vec, active = indexed(device)
            assert vec == active
        # A second full exchange changes nothing anywhere.
        full_exchange(group)
        assert all(snapshot(device) == first for device in group)


def test_concurrent_edit_resolves_the_same_way_on_both() -> None:
    with devices() as (a, b, _):
        original = a.memory.remember("My favourite tea is green tea")
        exchange(a, b)
        a.clock.advance(seconds=1)
        b.clock.advance(seconds=2)  # b edits later (by the clock): b's text wins
        a.memory.update(original.id, content="My favourite tea is oolong")
        b.memory.update(original.id, content="My favourite tea is jasmine tea")
        a.memory.feedback(original.id, "confirm")  # a's confidence change is the only one
        exchange(a, b)
        exchange(b, a)
        for device in (a, b):
            record = device.memory.get(original.id)
            assert record.content == "My favourite tea is jasmine tea"
            assert record.version == 3  # both edits are versions: neither is lost
            assert record.confidence == a.memory.get(original.id).confidence
            texts = [v.content for v in device.memory.history(original.id)]
            assert texts == ["My favourite tea is green tea", "My favourite tea is oolong"]
            assert [r.memory.id for r in device.memory.recall("jasmine tea")] == [original.id]
        assert snapshot(a) == snapshot(b)


def test_reapplying_a_batch_is_a_no_op() -> None:
    with devices() as (a, b, _):
        first = a.memory.remember("I play the cello every Sunday")
        a.memory.update(first.id, content="I play the cello every Saturday")
        a.memory.feedback(first.id, "deny")
        batch = a.memory.events_since(0)
        report = b.memory.apply_remote(batch)
        assert report.applied == len(batch) == 3 and report.embedded == 1
        before, events = snapshot(b), b.memory.stats()["events"]
        again = b.memory.apply_remote(batch)
        assert again.applied == 0 and again.duplicates == len(batch) and again.memories == 0
        assert snapshot(b) == before and b.memory.stats()["events"] == events
        # Remote events are recorded but never exported again.
        assert b.memory.events_since(0) == []


def test_forget_erases_what_it_saw_and_an_unseen_edit_stays_apart() -> None:
    """A forget wins over the text it was made on, whatever the clocks say; an edit made
    concurrently on another laptop, which the forget never saw, stays as a memory of its own
    (review15b DV1: edit wins over a concurrent delete), with nothing of the forgotten text."""
    with devices() as (a, b, c):
        record = a.memory.remember("The door code is 4711")
        exchange(a, b)
        a.clock.advance(seconds=1)
        a.memory.forget(record.id)
        b.clock.advance(seconds=5)  # later by the clock, yet the forget wins over 4711
        b.memory.update(record.id, content="The door code is 9999")
        b.memory.feedback(record.id, "confirm")
        exchange(b, c)  # c sees the edits before the add and the forget
        exchange(a, c)
        exchange(a, b)
        exchange(b, a)
        exchange(b, c)
        for device in (a, b, c):
            gone = device.memory.get(record.id)
            assert gone.status is Status.DELETED and gone.content == ""
            assert device.memory.history(record.id) == []
            payloads = device.memory._store.db.execute(
                "SELECT payload FROM events WHERE memory_id = ?", (record.id,)
            ).fetchall()
            assert not any("4711" in p or "9999" in p for (p,) in payloads)
            everything = device.memory._store.db.execute("SELECT payload FROM events").fetchall()
            assert not any("4711" in p for (p,) in everything)
            active = [r for r in device.memory.iter_all() if r.status is Status.ACTIVE]
            assert [(r.content, device.memory.history(r.id)) for r in active] == [
                ("The door code is 9999", [])
            ]
            assert active[0].id != record.id
        assert snapshot(a) == snapshot(b) == snapshot(c)


def test_forgotten_before_export_travels_as_a_tombstone() -> None:
    with devices() as (a, b, _):
        record = a.memory.remember("A secret I regret telling")
        a.memory.forget(record.id)
        exchange(a, b)
        assert b.memory.get(record.id).status is Status.DELETED
        assert snapshot(a) == snapshot(b)


def test_the_clock_moves_past_remote_stamps() -> None:
    with devices(skews=(3600.0, 0.0, 0.0)) as (a, b, _):
        ahead = a.memory.remember("Written by a laptop whose clock runs an hour fast")
        exchange(a, b)
        mine = b.memory.remember("Written afterwards on a laptop with the right time")
        assert mine.hlc > ahead.hlc


def test_events_are_checked_when_read_from_outside() -> None:
    payload = {"content": "I like tea"}  # an add carries its memory (checked like typed input)
    event = Event("0000000000001.000000.DEV", "DEV", "me", "M", "add", payload, None, 1.0, 1)
    assert Event.from_dict(event.to_dict()) == event
    bad: list[Callable[[dict[str, Any]], None]] = [
        lambda d: d.update(device_id="OTHER"),
        lambda d: d.update(hlc="garbage"),
        lambda d: d.update(payload=[]),
        lambda d: d.update(memory_id=None),
        lambda d: d.pop("op"),
        lambda d: d.update(payload={"content": ""}),
        lambda d: d.update(payload={"content": "x", "type": "short_term"}),
        lambda d: d.update(payload={"content": "x", "importance": 7}),
        lambda d: d.update(hlc="99999999999999.000000.DEV"),
        # what ties a change to another memory or text is an id (sync9)
        lambda d: d.update(payload={"content": "x", "from": 7}),
        lambda d: d.update(payload={"content": "x", "judged": "h" * 65}),
        lambda d: d.update(op="forget", payload={"into": ["M2"], "seen": []}),
        lambda d: d.update(op="forget", payload={"into": "M2", "seen": "all"}),
        lambda d: d.update(op="forget", payload={"into": "M2", "seen": [1]}),
    ]
    for damage in bad:
        data = event.to_dict()
        damage(data)
        try:
            Event.from_dict(data)
        except ValueError:
            continue
        raise AssertionError(f"accepted {data}")


def settled(device: Device, memory_id: str) -> list[tuple[Any, ...]]:
    """(status, resolution, resolved_at) of the conflicts that involve ``memory_id``."""
    return list(
        device.memory._store.db.execute(
            "SELECT status, resolution, resolved_at FROM conflicts "
            "WHERE existing_id = ? OR candidate_id = ?",
            (memory_id, memory_id),
        )
    )


def test_a_remote_forget_settles_a_conflict_as_a_local_one_does() -> None:
    """The fold writes through the store's own writes: a conflict whose memory another laptop
    forgot is settled ("gone", with the time) exactly as when it is forgotten here."""
    with devices() as (a, b, c):
        old = a.memory.remember("I like Java")
        exchange(a, b)
        exchange(a, c)
        for device in (b, c):
            device.memory.remember("I now prefer Go")  # no model here: the pair waits
            assert len(device.memory.conflicts()) == 1
        b.clock.advance(seconds=60)
        b.memory.forget(old.id)  # here
        a.clock.advance(seconds=60)
        a.memory.forget(old.id)
        c.clock.advance(seconds=60)
        exchange(a, c)  # there
        assert b.memory.conflicts() == c.memory.conflicts() == []
        assert settled(b, old.id) == [("resolved", "gone", b.clock())]
        assert settled(c, old.id) == [("resolved", "gone", c.clock())]


def test_an_archive_settles_a_conflict_here_as_it_does_there() -> None:
    """A memory archived on its own expiry (maintenance) takes its pending conflicts with it,
    set aside until it is brought back (review12 R10), whether the archive ran here or arrived
    from another laptop."""
    with devices() as (a, b, c):
        old = a.memory.remember("I like Java")
        a.memory.update(old.id, expires_at=a.clock() + 3600)
        exchange(a, b)
        exchange(a, c)
        for device in (a, b, c):
            device.clock.advance(seconds=7200)
        for device in (b, c):
            device.memory.remember("I now prefer Go")
            assert len(device.memory.conflicts()) == 1
        assert b.memory.maintain().expired == 1  # here
        assert a.memory.maintain().expired == 1
        exchange(a, c)  # there
        assert b.memory.get(old.id).status is c.memory.get(old.id).status is Status.EXPIRED
        assert b.memory.conflicts() == c.memory.conflicts() == []
        assert settled(b, old.id) == [("resolved", "archived", b.clock())]
        assert settled(c, old.id) == [("resolved", "archived", c.clock())]
        c.memory.unarchive(old.id)  # brought back there: the question is asked again
        assert [(k.existing.id, k.candidate.content) for k in c.memory.conflicts()] == [
            (old.id, "I now prefer Go")
        ]


def test_a_remote_forget_redacts_quotes_of_what_was_merged_in() -> None:
    """A forget from another laptop erases what quotes the texts merged into the memory (its
    restatements) too, as a forget here does."""
    with devices() as (a, b, c):
        tea = a.memory.remember("I like tea", metadata={"restatements": ["I adore Darjeeling"]})
        for device in (b, c):
            exchange(a, device)
            other = device.memory.remember("The office is on the third floor")
            device.memory.update(other.id, importance=0.9, reason="update: Darjeeling fan")
        b.memory.forget(tea.id)  # here
        a.memory.forget(tea.id)
        exchange(a, c)  # there
        for device in (b, c):
            reasons = device.memory._store.db.execute(
                "SELECT reason FROM events WHERE reason IS NOT NULL"
            ).fetchall()
            assert not any("Darjeeling" in reason for (reason,) in reasons)


def test_a_revived_memory_stays_forgotten_when_someone_forgot_it_for_real() -> None:
    # A keep-both brings back a memory a take-new folded away (an add marked revived); a
    # memory a person forgot themselves never comes back, whatever arrives after its forget.
    with devices() as (a, b, c):
        record = a.memory.remember("The door code is 4711")
        exchange(a, b)
        a.clock.advance(seconds=1)
        a.memory.forget(record.id)
        b.clock.advance(seconds=5)
        store = b.memory._store
        with store.db:  # (what a keep-both's author writes)
            payload = {**record.to_dict(), REVIVED: True, KEPT_WITH: "01OTHER"}
            store.record_event(record.namespace, record.id, "add", payload, "keep_both")
        exchange(b, c)
        exchange(a, c)
        gone = c.memory.get(record.id)
        assert gone.status is Status.DELETED and gone.content == ""
        assert c.memory.recall("door code") == []

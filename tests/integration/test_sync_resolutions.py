"""A resolution on one laptop against edits and forgets on another (sync9: review9 D2, D2b,
L2, L1b): an edit the resolving laptop had not seen is carried into the memory kept, a
forget reaches the copy of its text that a concurrent take-new made, and a verdict about an
old text does not land on a correction it never saw."""

from __future__ import annotations

from pathlib import Path

import pytest

from localmind import InvalidInput, Memory, Status
from sync import init_folder, join_folder
from sync.folder import sync_once
from tests.conftest import FAST_KDF, PASSPHRASE
from tests.integration import test_sync_folder

pytestmark = pytest.mark.slow  # the real embedder on two stores, several syncs


open_device = test_sync_folder.open_device  # the fixture: stores on the real embedder


@pytest.fixture
def laptops(open_device: test_sync_folder.Opener, tmp_path: Path) -> tuple[Memory, Memory, Path]:
    shared = tmp_path / "Sync" / "localmind"
    a, b = open_device("a"), open_device("b")
    init_folder(a, shared, PASSPHRASE, FAST_KDF)
    join_folder(b, shared, PASSPHRASE)
    return a, b, shared


def sync_all(shared: Path, *devices: Memory) -> None:
    for device in (*devices, *devices):
        sync_once(device, shared)


def texts_anywhere(memory: Memory) -> str:
    """Every text the store holds for the person: current texts and all earlier versions."""
    parts = []
    for record in memory.iter_all():
        if record.status is Status.DELETED:
            continue
        parts.append(record.content)
        parts.extend(v.content for v in memory.history(record.id))
    return "\n".join(parts)


def queued_move(a: Memory) -> tuple[str, str, int]:
    berlin = a.remember("I live in Berlin").id
    lisbon = a.remember("I moved to Lisbon").id
    [conflict] = a.conflicts()
    assert {conflict.existing.id, conflict.candidate.id} == {berlin, lisbon}
    return berlin, lisbon, conflict.id


@pytest.mark.parametrize("resolution", ["take_new", "merge"])
def test_a_correction_of_the_new_side_survives_a_resolution_it_was_not_seen_by(
    laptops: tuple[Memory, Memory, Path], resolution: str
) -> None:
    a, b, shared = laptops
    berlin, lisbon, conflict = queued_move(a)
    sync_all(shared, a, b)
    corrected = "I moved to Lisbon in March 2026, to the Alfama district"
    b.feedback(lisbon, "correct", corrected)
    merged = "I live in Lisbon now (moved from Berlin)" if resolution == "merge" else None
    a.resolve_conflict(conflict, resolution, merged)
    sync_all(shared, a, b)
    for device in (a, b):
        kept = device.get(berlin)
        assert kept.status is Status.ACTIVE
        assert kept.content == corrected  # the later correction is the current text
        earlier = [v.content for v in device.history(berlin)]
        assert "I live in Berlin" in earlier
        if merged:
            assert merged in earlier
        assert device.get(lisbon).status is Status.DELETED
    assert texts_anywhere(a) == texts_anywhere(b)


def test_a_resolution_that_saw_the_correction_carries_nothing_over(
    laptops: tuple[Memory, Memory, Path],
) -> None:
    a, b, shared = laptops
    berlin, lisbon, conflict = queued_move(a)
    sync_all(shared, a, b)
    b.feedback(lisbon, "correct", "I moved to Lisbon in March")
    sync_all(shared, b, a)
    a.resolve_conflict(conflict, "take_new", None)
    sync_all(shared, a, b)
    for device in (a, b):
        assert device.get(berlin).content == "I moved to Lisbon in March"
        # the new side's own earlier text is kept in the history (review14 K8), once: the
        # correction the resolution saw is not carried over again
        earlier = [v.content for v in device.history(berlin)]
        assert earlier == ["I live in Berlin", "I moved to Lisbon"]


def test_an_edit_the_forget_never_saw_stays_as_a_memory_of_its_own(
    laptops: tuple[Memory, Memory, Path],
) -> None:
    """review15b DV1: one laptop forgets the rent while the other, not yet in step, corrects
    it. The correction is a text the forget never saw: it stays, on both laptops, as a memory
    of its own (edit wins over a concurrent delete, as in Syncthing), and `sync now` on the
    laptop that made it says so; the text the forget saw is erased everywhere."""
    a, b, shared = laptops
    rent = a.remember("We pay 2100 euro rent per month").id
    sync_all(shared, a, b)
    a.forget(rent)
    b.feedback(rent, "correct", "We pay 2300 euro rent per month")
    sync_once(a, shared)
    _, said = sync_once(b, shared)
    sync_all(shared, a, b)
    [kept] = said.kept_edited
    assert kept != rent and said.kept_taken == []
    for device in (a, b):
        active = [(r.id, r.content) for r in device.iter_all() if r.status is Status.ACTIVE]
        assert active == [(kept, "We pay 2300 euro rent per month")]
        assert device.get(rent).status is Status.DELETED
        assert "2100" not in texts_anywhere(device)
        rows = device._store.db.execute("SELECT payload FROM events").fetchall()
        assert not any("2100" in payload for (payload,) in rows)


def test_a_forget_made_on_the_edit_erases_it_everywhere(
    laptops: tuple[Memory, Memory, Path],
) -> None:
    a, b, shared = laptops
    jazz = a.remember("I like jazz").id
    sync_all(shared, a, b)
    b.feedback(jazz, "correct", "I like jazz, especially Coltrane")
    sync_all(shared, b, a)
    a.forget(jazz)  # made on the corrected text: the person's word on it
    sync_all(shared, a, b)
    for device in (a, b):
        assert device.get(jazz).status is Status.DELETED
        assert "Coltrane" not in texts_anywhere(device)
        assert [r for r in device.iter_all() if r.status is Status.ACTIVE] == []


def test_a_forget_reaches_the_text_a_concurrent_take_new_carried(
    laptops: tuple[Memory, Memory, Path],
) -> None:
    a, b, shared = laptops
    berlin = b.remember("I live in Berlin").id
    lover = b.remember("I moved in with my secret lover in Lisbon").id
    [conflict] = b.conflicts()
    sync_all(shared, b, a)
    a.forget(lover)
    b.resolve_conflict(conflict.id, "take_new", None)
    sync_all(shared, a, b)
    for device in (a, b):
        assert device.get(berlin).content == "I live in Berlin"
        assert "lover" not in texts_anywhere(device)
        rows = device._store.db.execute("SELECT payload FROM events").fetchall()
        assert not any("lover" in payload for (payload,) in rows)


def test_a_verdict_on_the_old_text_does_not_lower_a_correction_it_never_saw(
    laptops: tuple[Memory, Memory, Path],
) -> None:
    a, b, shared = laptops
    jazz = a.remember("I like jazz").id
    sync_all(shared, a, b)
    corrected = b.feedback(jazz, "correct", "I like jazz, especially Coltrane")
    # a's verdicts come later, about the text a still shows
    a._clock.advance(seconds=60)  # type: ignore[attr-defined]
    a.feedback(jazz, "deny", None)
    a.feedback(jazz, "deny", None)
    sync_all(shared, a, b)
    for device in (a, b):
        record = device.get(jazz)
        assert record.content == "I like jazz, especially Coltrane"
        assert record.confidence == pytest.approx(corrected.confidence)


def test_a_change_told_on_one_laptop_is_judged_on_the_other_when_it_arrives(
    laptops: tuple[Memory, Memory, Path],
) -> None:
    """S1: both laptops queue the change and mark the old fact, so they answer alike."""
    a, b, shared = laptops
    berlin = a.remember("I live in Berlin").id
    sync_all(shared, a, b)
    b._clock.advance(days=1)  # type: ignore[attr-defined]
    lisbon = b.remember("I moved to Lisbon last month").id
    siemens = b.remember("I work at Siemens as an engineer").id
    sync_all(shared, b, a)
    a._clock.advance(days=2)  # type: ignore[attr-defined]
    google = a.remember("I now work at Google").id
    sync_all(shared, a, b)
    for device in (a, b):
        pairs = {(c.existing.id, c.candidate.id) for c in device.conflicts()}
        assert pairs == {(berlin, lisbon), (siemens, google)}
        where = device.context("where do I live?")
        assert "may be outdated" in where and "Lisbon" in where
    # a resolution on one laptop settles the other's copy of the conflict
    [move] = [c for c in a.conflicts() if c.candidate.id == lisbon]
    a.resolve_conflict(move.id, "take_new", None)
    sync_all(shared, a, b)
    assert [c.candidate.id for c in b.conflicts()] == [google]


def test_the_same_fact_told_on_both_laptops_becomes_one_memory_on_both(
    laptops: tuple[Memory, Memory, Path],
) -> None:
    """S2: merged on arrival, the same way on both laptops."""
    a, b, shared = laptops
    first = a.remember("I have a dog named Rex").id
    second = b.remember("I have a dog named Rex").id
    sync_all(shared, a, b)
    kept, dropped = sorted((first, second))
    for device in (a, b):
        rex = [r for r in device.list_memories() if r.content == "I have a dog named Rex"]
        assert [r.id for r in rex] == [kept]
        assert device.get(dropped).status is Status.DELETED
    assert a.get(kept).confidence == b.get(kept).confidence


def test_sync_now_says_an_edit_was_carried_over(tmp_path: Path) -> None:
    from sync import cli as sync_cli  # noqa: F401  (registers `localmind sync`)
    from tests.cli_support import Cli

    shared = tmp_path / "Sync"
    a, b = Cli(tmp_path / "a.db"), Cli(tmp_path / "b.db")
    berlin = a.add("I live in Berlin")
    a.ok("add", "I moved to Lisbon")
    [conflict] = a.json("conflicts")
    a.ok("sync", "init", str(shared), "--name", "home")
    b.ok("sync", "join", str(shared), "--name", "work")
    b.ok("feedback", conflict["candidate"]["id"], "correct", "I moved to Lisbon in March")
    a.ok("resolve", str(conflict["id"]), "take-new")
    a.ok("sync", "now")
    said = b.ok("sync", "now").stdout
    assert f"Carried an edit made here into memory {berlin}" in said
    a.ok("sync", "now")
    for laptop in (a, b):
        assert "I moved to Lisbon in March" in laptop.contents()


@pytest.mark.parametrize("resolution", ["keep_old", "take_new", "keep_both", "merge"])
def test_a_resolution_of_any_kind_settles_the_other_laptops_copy_of_the_pair(
    laptops: tuple[Memory, Memory, Path], resolution: str
) -> None:
    """sync10 item 1: b judged the pair on arrival and queued it too; a's answer settles it."""
    a, b, shared = laptops
    berlin, lisbon, conflict = queued_move(a)
    sync_all(shared, a, b)
    assert [{c.existing.id, c.candidate.id} for c in b.conflicts()] == [{berlin, lisbon}]
    merged = "I live in Lisbon now (moved from Berlin)" if resolution == "merge" else None
    a.resolve_conflict(conflict, resolution, merged)
    sync_all(shared, a, b)
    for device in (a, b):
        assert device.conflicts() == []
    if resolution == "keep_both":
        for device in (a, b):
            assert {device.get(berlin).status, device.get(lisbon).status} == {Status.ACTIVE}


def test_a_pair_kept_both_is_not_asked_on_a_laptop_that_hears_of_it_afterwards(
    laptops: tuple[Memory, Memory, Path],
) -> None:
    a, b, shared = laptops
    berlin, lisbon, conflict = queued_move(a)
    a.resolve_conflict(conflict, "keep_both", None)
    sync_all(shared, a, b)  # b gets both memories and the answer in one import
    assert b.conflicts() == []
    assert {b.get(berlin).status, b.get(lisbon).status} == {Status.ACTIVE}
    b.remember("I moved to Porto")  # a new pair is still asked as usual
    assert {c.existing.id for c in b.conflicts()} & {berlin, lisbon}


def test_a_fact_told_in_other_words_on_both_laptops_becomes_one_memory_on_both(
    laptops: tuple[Memory, Memory, Path],
) -> None:
    """S2 for rewordings: merged on arrival into the same memory on both laptops; the other
    id still says where its text went; the profile says it once."""
    a, b, shared = laptops
    first = a.remember("I have a dog named Rex").id
    second = b.remember("My dog is called Rex").id
    b.remember("I play the cello")
    sync_all(shared, a, b)
    kept, dropped = sorted((first, second))
    for device in (a, b):
        dogs = [r for r in device.list_memories() if "Rex" in r.content]
        assert [r.id for r in dogs] == [kept]
        assert device.get(dropped).status is Status.DELETED
        with pytest.raises(InvalidInput, match=f"merged into memory {kept}"):
            device.update(dropped, content="I have a dog named Max")
        assert device.conflicts() == []
        assert device.profile().text.count("Rex") == 1
        # the dropped wording still finds the memory
        assert device.recall("Which dog is called Rex?", 1)[0].memory.id == kept
    assert a.get(kept).confidence == b.get(kept).confidence
    assert a.get(kept).metadata == b.get(kept).metadata


def test_a_rewording_no_rule_can_judge_is_asked_on_both_laptops_and_answered_once(
    laptops: tuple[Memory, Memory, Path],
) -> None:
    """Told on two laptops, neither the same by the rules nor different: a model would be
    asked; sync asks the person, on both laptops, and one answer settles both."""
    a, b, shared = laptops
    coffee = a.remember("I drink coffee every morning").id
    b._clock.advance(seconds=60)  # type: ignore[attr-defined]
    cup = b.remember("Every morning I have a cup of coffee").id
    sync_all(shared, a, b)
    for device in (a, b):
        [asked] = device.conflicts()
        assert (asked.existing.id, asked.candidate.id) == (coffee, cup)
        assert "may say the same" in asked.reason
    [asked] = b.conflicts()
    b.resolve_conflict(asked.id, "keep_both", None)
    sync_all(shared, b, a)
    for device in (a, b):
        assert device.conflicts() == []
        assert {device.get(coffee).status, device.get(cup).status} == {Status.ACTIVE}


def test_memories_that_arrive_make_the_profile_stale_as_memories_told_here_do(
    laptops: tuple[Memory, Memory, Path],
) -> None:
    """S2b: the profile is rebuilt after as many arrivals as local changes would take
    (``rebuild_after_changes``: 5), and then says what arrived as it says what was told here.
    Which facts win its few places is the profile's own rule (profile.py), not asserted here."""
    a, b, shared = laptops
    a.remember("I have a dog named Rex")
    sync_all(shared, a, b)
    built = b.profile()
    assert built is not None
    for fact in ("I play the cello", "I am vegetarian", "I work as a nurse", "I speak Dutch"):
        a.remember(fact)
    sync_all(shared, a, b)
    assert b.profile() == built  # four changes: not stale yet
    a.remember("My sister lives in Oslo")
    sync_all(shared, a, b)
    rebuilt = b.profile()
    assert rebuilt is not None and rebuilt.version == built.version + 1
    assert "nurse" in rebuilt.text and "nurse" not in built.text  # the job: always given
    assert rebuilt.text == a.profile().text  # the profile told here of the same memories


def test_sync_now_says_a_conflict_was_settled_by_another_laptops_keep_both(
    tmp_path: Path,
) -> None:
    from sync import cli as sync_cli  # noqa: F401  (registers `localmind sync`)
    from tests.cli_support import Cli

    shared = tmp_path / "Sync"
    a, b = Cli(tmp_path / "a.db"), Cli(tmp_path / "b.db")
    a.add("I live in Berlin")
    a.ok("add", "I moved to Lisbon")
    a.ok("sync", "init", str(shared), "--name", "home")
    b.ok("sync", "join", str(shared), "--name", "work")
    b.ok("sync", "now")
    [asked] = b.json("conflicts")  # judged on arrival
    [conflict] = a.json("conflicts")
    a.ok("resolve", str(conflict["id"]), "keep-both")
    a.ok("sync", "now")
    said = b.ok("sync", "now").stdout
    assert "Settled 1 conflict here that another laptop answered keep-both." in said
    assert b.json("conflicts") == []
    assert asked["existing"]["id"] == conflict["existing"]["id"]


def answered_on_both(
    laptops: tuple[Memory, Memory, Path], b_answer: str, later: str
) -> tuple[str, str]:
    """A move queued on a and (on arrival) on b; a answers take-new, b ``b_answer``, the one
    named ``later`` a minute after the other; then they sync. The pair's (old, new) ids."""
    a, b, shared = laptops
    berlin, lisbon, conflict = queued_move(a)
    sync_all(shared, a, b)
    [on_b] = b.conflicts()
    first, second = (b, a) if later == "take_new" else (a, b)
    for minutes, laptop in ((1, first), (2, second)):  # the second answers a minute later
        laptop._clock.advance(seconds=60 * minutes)  # type: ignore[attr-defined]
        if laptop is a:
            a.resolve_conflict(conflict, "take_new", None)
        else:
            b.resolve_conflict(on_b.id, b_answer, None)
    sync_all(shared, a, b)
    return berlin, lisbon


@pytest.mark.parametrize("later", ["take_new", "keep_old"])
def test_opposite_answers_on_two_laptops_the_later_one_stands_on_both(
    laptops: tuple[Memory, Memory, Path], later: str
) -> None:
    """sync10b F23: b answers keep-old, a take-new (or the other way round in time); the
    later answer stands on both laptops, and a take-new's text is never erased by an earlier
    keep-old."""
    a, b, _ = laptops
    berlin, lisbon = answered_on_both(laptops, "keep_old", later)
    for device in (a, b):
        assert device.conflicts() == []
        assert device.get(lisbon).status is Status.DELETED
        kept = device.get(berlin)
        assert kept.status is Status.ACTIVE
        if later == "take_new":
            assert kept.content == "I moved to Lisbon"
            assert [v.content for v in device.history(berlin)] == ["I live in Berlin"]
        else:
            assert kept.content == "I live in Berlin"
            assert "Lisbon" not in texts_anywhere(device)
    assert texts_anywhere(a) == texts_anywhere(b)


@pytest.mark.parametrize("later", ["keep_both", "take_new"])
def test_a_keep_both_and_a_take_new_on_two_laptops_the_later_one_stands_on_both(
    laptops: tuple[Memory, Memory, Path], later: str
) -> None:
    """sync10b F18: a keep-both on b after a's take-new keeps both texts active on both
    laptops (and nobody is asked again); a take-new after b's keep-both stands."""
    a, b, _ = laptops
    berlin, lisbon = answered_on_both(laptops, "keep_both", later)
    for device in (a, b):
        assert device.conflicts() == []
        active = sorted(r.content for r in device.list_memories())
        if later == "keep_both":
            assert active == ["I live in Berlin", "I moved to Lisbon"]
            assert device.get(berlin).content == "I live in Berlin"
            # kept both, the newer memory is back under its own id (fix11)
            assert device.get(lisbon).content == "I moved to Lisbon"
            assert device.get(lisbon).status is Status.ACTIVE
        else:
            assert device.get(lisbon).status is Status.DELETED
            assert active == ["I moved to Lisbon"]
            assert device.get(berlin).content == "I moved to Lisbon"
    assert texts_anywhere(a) == texts_anywhere(b)
    assert {r.id for r in a.list_memories()} == {r.id for r in b.list_memories()}


def test_a_capacity_lowered_on_one_laptop_archives_nothing_on_the_other(
    laptops: tuple[Memory, Memory, Path],
) -> None:
    """sync10b F30: capacity is each laptop's own; and a memory a take-new just changed counts
    as recent, so it is not the first to go."""
    a, b, shared = laptops
    berlin, _, conflict = queued_move(a)
    for fact in ("I play the cello", "My cat is called Mochi", "I speak Dutch"):
        a._clock.advance(seconds=60)  # type: ignore[attr-defined]
        a.remember(fact)
    a._clock.advance(days=1)  # type: ignore[attr-defined]
    a.resolve_conflict(conflict, "take_new", None)  # berlin: told first, changed last
    sync_all(shared, a, b)
    evicted = a.configure("capacity", "2")
    assert len(evicted) == 2 and berlin not in evicted
    sync_all(shared, a, b)
    assert len(a.list_memories()) == 2
    assert len(b.list_memories()) == 4
    assert b.get(berlin).content == "I moved to Lisbon"
    for memory_id in evicted:
        assert a.get(memory_id).status is Status.EXPIRED
        assert b.get(memory_id).status is Status.ACTIVE
    # review11 U4: purging what capacity archived here erases nothing current elsewhere
    assert a.purge_archived() == 2
    sync_all(shared, a, b)
    for memory_id in evicted:
        assert a.get(memory_id).status is Status.DELETED
        assert b.get(memory_id).status is Status.ACTIVE
    assert len(b.list_memories()) == 4


def test_sync_now_says_the_later_of_two_answers_stands(tmp_path: Path) -> None:
    from sync import cli as sync_cli  # noqa: F401  (registers `localmind sync`)
    from tests.cli_support import Cli

    shared = tmp_path / "Sync"
    a, b = Cli(tmp_path / "a.db"), Cli(tmp_path / "b.db")
    old = a.add("I play the guitar in a band")
    a.ok("add", "I quit the band and now play the piano")
    a.ok("sync", "init", str(shared), "--name", "home")
    b.ok("sync", "join", str(shared), "--name", "work")
    b.ok("sync", "now")
    [on_b] = b.json("conflicts")
    [on_a] = a.json("conflicts")
    b.ok("resolve", str(on_b["id"]), "keep-old")
    a.ok("resolve", str(on_a["id"]), "take-new")  # the later answer
    b.ok("sync", "now")
    for laptop in (a, b):  # each hears of the other's answer
        said = laptop.ok("sync", "now").stdout
        assert f"Memory {old}: its conflict was answered differently on two laptops" in said
        assert "the later answer stands" in said
    for laptop in (a, b):
        assert "I quit the band and now play the piano" in laptop.contents()


@pytest.mark.parametrize("resolution", ["take_new", "merge"])
def test_a_forget_of_the_old_fact_keeps_the_new_one_taken_on_the_other_laptop(
    laptops: tuple[Memory, Memory, Path], resolution: str
) -> None:
    """review11 U1: "forget the old car" on one laptop while the other answers the queue
    take-new (or merge): the newer fact, which the person chose to keep, survives on both as
    a memory of its own; the old one is gone on both."""
    a, b, shared = laptops
    corolla = a.remember("I drive a red Toyota Corolla.").id
    sync_all(shared, a, b)
    polo = b.remember("I sold the Corolla and bought a blue VW Polo.").id
    [conflict] = b.conflicts()
    sync_all(shared, b, a)
    a.forget(corolla)
    merged = "I drive a blue VW Polo now." if resolution == "merge" else None
    b.resolve_conflict(conflict.id, resolution, merged)
    kept = merged or "I sold the Corolla and bought a blue VW Polo."
    sync_once(a, shared)
    _, said = sync_once(b, shared)  # `sync now` on b names the memory kept
    sync_all(shared, a, b)
    assert [b.get(memory_id).content for memory_id in said.kept_taken] == [kept]
    # round 12: under the id it was told under, so references to the Polo still lead to it
    assert said.kept_taken == [polo]
    for device in (a, b):
        active = [(r.id, r.content) for r in device.iter_all() if r.status is Status.ACTIVE]
        assert active == [(polo, kept)]
        assert device.history(polo) == []  # the forgotten Corolla is no version of it
        assert "red Toyota Corolla" not in texts_anywhere(device)
        assert device.get(corolla).status is Status.DELETED
    a.update(polo, pinned=True)  # an assistant's note of the Polo's id still works
    sync_all(shared, a, b)
    assert b.get(polo).pinned


def test_a_chain_settled_newest_link_first_reaches_the_other_laptop_whole(
    laptops: tuple[Memory, Memory, Path],
) -> None:
    """review14 K8: the middle fact of a chain, carried into the memory kept, is in the
    history on both laptops (the loss synced too)."""
    a, b, shared = laptops
    a.remember("Our monthly household budget is 6,500 dollars.")
    a.remember("Our monthly household budget is now 8,000 dollars.")
    a.remember("Our monthly household budget will be 7,500 dollars from January.")
    one, two = sorted(c.id for c in a.conflicts())
    sync_all(shared, a, b)
    a.resolve_conflict(two, "take_new")
    kept = a.resolve_conflict(one, "take_new")
    sync_all(shared, a, b)
    for device in (a, b):
        assert [r.content for r in device.list_memories()] == [kept.content]
        assert "8,000" in texts_anywhere(device)
    assert texts_anywhere(a) == texts_anywhere(b)

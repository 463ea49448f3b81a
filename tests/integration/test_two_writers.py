"""Two writers on one store (two assistants, the app and an assistant): a change decided on a
memory's text is refused, with what it says now, when another program changed that text in
between; nothing is written over unseen (review11 T3). The real encrypted store, sqlite-vec,
FTS5 and the bundled embedder; "another program" is a second Memory on the same file (its own
connection), whose write lands while the first is between reading and its write lock."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from localmind import ChangedMeanwhile, Memory, NewMemory
from localmind.lifecycle import Decision, Resolution
from localmind.records import Status

BERLIN = "I live in Berlin"
LISBON = "I moved to Lisbon last month"
PORTO = "I moved to Porto last month, not Lisbon"


def _queued(memory: Memory) -> tuple[str, str, int]:
    berlin = memory.remember(BERLIN, type="semantic").id
    outcome = memory.remember_explained(LISBON, type="semantic")
    assert outcome.conflict_id is not None, outcome
    return berlin, outcome.record.id, outcome.conflict_id


def _meanwhile(memory: Memory, write: Callable[[], Any]) -> None:
    """Run ``write`` (another program's) the next time ``memory`` embeds a text: after a
    resolution or an update read the memory, before it takes the write lock."""
    writer = memory._writer
    embed = writer.embed_documents

    def embed_then_another_program_writes(contents: Any) -> Any:
        writer.embed_documents = embed  # type: ignore[method-assign]
        write()
        return embed(contents)

    writer.embed_documents = embed_then_another_program_writes  # type: ignore[method-assign]


@pytest.mark.parametrize("resolution", ["take_new", "keep_old", "merge"])
def test_an_update_of_a_side_while_a_resolution_is_under_way_is_not_lost(
    open_memory: Callable[..., Memory], resolution: str
) -> None:
    resolver = open_memory()
    berlin, lisbon, conflict_id = _queued(resolver)
    other = open_memory()
    _meanwhile(resolver, lambda: other.update(lisbon, content=PORTO))
    text = "I moved from Berlin to Lisbon" if resolution == "merge" else None
    with pytest.raises(ChangedMeanwhile) as refused:
        resolver.resolve_conflict_explained(conflict_id, resolution, text)
    message = str(refused.value)
    assert f"Conflict #{conflict_id} changed" in message and lisbon in message
    assert repr(PORTO) in message and "Nothing was settled" in message
    # nothing settled: the update stands, the conflict still asks, Berlin as it was
    assert resolver.get(lisbon).content == PORTO
    assert resolver.get(berlin).content == BERLIN
    assert [c.id for c in resolver.conflicts()] == [conflict_id]
    # asked again, it settles what is stored now: the update survives in the kept memory
    if resolution == "take_new":
        record = resolver.resolve_conflict(conflict_id, resolution)
        assert record is not None and record.content == PORTO
        assert resolver.get(lisbon).status is Status.DELETED


def test_a_resolution_of_texts_the_caller_was_shown_earlier_checks_them(
    open_memory: Callable[..., Memory],
) -> None:
    resolver = open_memory()
    berlin, lisbon, conflict_id = _queued(resolver)
    open_memory().update(lisbon, content=PORTO)  # after the resolver was shown the conflict
    shown = {berlin: BERLIN, lisbon: LISBON}
    with pytest.raises(ChangedMeanwhile, match="Porto"):
        resolver.resolve_conflict_explained(conflict_id, "take_new", expected=shown)
    assert resolver.get(berlin).content == BERLIN
    shown[lisbon] = PORTO
    record = resolver.resolve_conflict_explained(conflict_id, "take_new", expected=shown).record
    assert record.content == PORTO


def test_an_update_of_a_text_changed_meanwhile_is_refused(
    open_memory: Callable[..., Memory],
) -> None:
    writer = open_memory()
    berlin = writer.remember(BERLIN, type="semantic").id
    other = open_memory()
    _meanwhile(writer, lambda: other.update(berlin, content="I live in Hamburg"))
    with pytest.raises(ChangedMeanwhile) as refused:
        writer.update_explained(berlin, content="I live in Berlin-Mitte", expected=BERLIN)
    assert "'I live in Hamburg' (version 2)" in str(refused.value)
    assert "Nothing was changed" in str(refused.value)
    assert writer.get(berlin).content == "I live in Hamburg"
    # without a text it was decided on, an update is the caller's to make, as before
    assert writer.update(berlin, content="I live in Berlin-Mitte").content == (
        "I live in Berlin-Mitte"
    )


def test_the_apps_resolution_waits_out_its_undo_window_against_the_texts_it_showed(
    open_memory: Callable[..., Memory],
) -> None:
    """The Conflicts page settles after its undo window: an assistant's update of a side in
    those seconds makes the person's resolution wait for another look, not erase the update."""
    from tui.screens.conflicts import Waiting, settle_all

    app = open_memory()
    berlin, lisbon, conflict_id = _queued(app)
    decided = Waiting({conflict_id: (Resolution.TAKE_NEW, None)}, {berlin: BERLIN, lisbon: LISBON})
    open_memory().update(lisbon, content=PORTO)  # an assistant, within the undo window
    settled = settle_all(app, [decided])
    assert settled.errors == [
        f"Conflict #{conflict_id} was not settled: memory {lisbon} changed after you decided "
        "(another program or assistant changed it). Look at it again."
    ]
    assert app.get(lisbon).content == PORTO and app.get(berlin).content == BERLIN
    assert [c.id for c in app.conflicts()] == [conflict_id]


def _while_judging(memory: Memory, write: Callable[[], Any]) -> list[int]:
    """Run ``write`` (another program's) while ``memory`` judges its first item; the list
    counts the items judged."""
    lifecycle = memory._lifecycle
    propose = lifecycle.propose
    judged: list[int] = []

    def another_program_writes_meanwhile(*args: Any, **kwargs: Any) -> Any:
        if not judged:
            write()  # on a connection of its own: it would wait for a write lock held here
        judged.append(1)
        return propose(*args, **kwargs)

    lifecycle.propose = another_program_writes_meanwhile  # type: ignore[method-assign]
    return judged


def test_remember_many_judges_before_it_takes_the_write_lock(
    open_memory: Callable[..., Memory],
) -> None:
    """Another program's write while a batch is judged goes through at once (it used to wait
    for the batch's write lock: 10 s, then failed as busy), and the batch is decided as
    before: what that write changed nowhere near its items leaves its decisions standing."""
    writer = open_memory()
    writer.remember(BERLIN, type="semantic")
    other = open_memory()
    judged = _while_judging(writer, lambda: other.remember("My sister collects vintage stamps"))
    batch = writer.remember_many_explained(
        [NewMemory(LISBON, "semantic"), NewMemory("I play the cello on Sundays", "semantic")]
    )
    assert batch.decisions == [Decision.QUEUED, Decision.INSERTED]
    assert len(judged) == 2  # judged once: not decided again
    assert [c.candidate.content for c in writer.conflicts()] == [LISBON]
    assert writer.count() == 4


def test_remember_many_decides_again_when_another_program_wrote_what_it_meets(
    open_memory: Callable[..., Memory],
) -> None:
    writer = open_memory()
    other = open_memory()
    _while_judging(writer, lambda: other.remember(BERLIN, type="semantic"))
    batch = writer.remember_many_explained([NewMemory(LISBON, "semantic")])
    # decided against a store without Berlin, then again with it: the move is queued
    assert batch.decisions == [Decision.QUEUED]
    [conflict] = writer.conflicts()
    assert (conflict.existing.content, conflict.candidate.content) == (BERLIN, LISBON)

"""A text a memory replaced is recognised when it is told again (issue 13, fix7 item 1): a
notes file imported again after its facts were resolved must not bring back what the person
replaced, and one ``remember`` of such a text asks the person instead of making it current.
The real encrypted store and the bundled USE-m3 embedder; no model."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from localmind import Memory, NewMemory
from localmind.errors import ForgottenEarlier
from localmind.lifecycle import Decision
from localmind.llm.ollama import OllamaLLM
from localmind.store.migrations import MIGRATIONS
from tests.cli_support import Cli
from tests.conftest import FAST_KDF, PASSPHRASE, FakeClock
from tests.integration.test_forget_traces import tables_holding
from tests.integration.test_import_judgment import UNRELATED, UPDATES, dated
from tests.integration.test_replica import devices, exchange
from tests.ollama_server import FakeOllama

MERGED_TEXT = "I lived in Berlin until March; now I live in Lisbon"


def imported_and_queued(memory: Memory, old: str, new: str) -> int:
    """The notes file imported once: ``new`` queued against ``old``; the conflict's id."""
    batch = memory.remember_many_explained(dated(old, UNRELATED[0], new))
    assert batch.decisions == [Decision.INSERTED, Decision.INSERTED, Decision.QUEUED]
    [conflict] = memory.conflicts()
    return conflict.id


@pytest.mark.parametrize(("old", "new", "question"), UPDATES, ids=["en", "zh"])
def test_importing_the_file_again_after_take_new_keeps_the_new_fact(
    open_memory: Callable[..., Memory], old: str, new: str, question: str
) -> None:
    memory = open_memory(llm=None)
    conflict_id = imported_and_queued(memory, old, new)
    kept = memory.resolve_conflict(conflict_id, "take-new")
    assert kept is not None and kept.content == new

    again = memory.remember_many_explained(dated(old, UNRELATED[0], new))

    assert again.decisions == [Decision.OUTDATED, Decision.REINFORCED, Decision.REINFORCED]
    assert again.outdated == 1 and again.records[0].id == kept.id
    assert "already known as an earlier version of memory" in again.reasons[0]
    assert "kept the current text" in again.reasons[0]
    assert sorted(r.content for r in memory.list_memories()) == sorted([new, UNRELATED[0]])
    assert memory.conflicts() == []
    found = [result.memory.content for result in memory.recall(question, 5, threshold=0)]
    assert new in found and old not in found  # recall cannot answer with the replaced fact


@pytest.mark.parametrize(
    ("resolution", "text"), [("keep-old", None), ("merge", MERGED_TEXT)], ids=["keep-old", "merge"]
)
def test_a_text_resolved_away_is_not_stored_again_by_an_import(
    open_memory: Callable[..., Memory], resolution: str, text: str | None
) -> None:
    old, new, question = UPDATES[0]
    memory = open_memory(llm=None)
    kept = memory.resolve_conflict(imported_and_queued(memory, old, new), resolution, text)
    assert kept is not None
    current = kept.content

    again = memory.remember_many_explained(dated(old, new))

    # keep-old: the old text is the current one (the same text again); merge: both are gone
    expected_old = Decision.REINFORCED if resolution == "keep-old" else Decision.OUTDATED
    assert again.decisions == [expected_old, Decision.OUTDATED]
    # keep-old set the new text aside; a merge keeps it as a version of the kept memory
    # (review15a TW9), which is how it is recognised
    how = (
        "already set aside for"
        if resolution == "keep-old"
        else "already known as an earlier version of"
    )
    assert f"{how} memory {kept.id} ({resolution.replace('-', '_')})" in again.reasons[1]
    assert [r.content for r in memory.list_memories() if r.content in (old, new, current)] == [
        current
    ]
    assert memory.conflicts() == []
    found = [result.memory.content for result in memory.recall(question, 5, threshold=0)]
    assert found[0] == current and not ({old, new} - {current}) & set(found)


def test_an_import_after_a_correction_does_not_bring_the_corrected_text_back(
    open_memory: Callable[..., Memory],
) -> None:
    memory = open_memory(llm=None)
    [wrong] = memory.remember_many(dated("My dentist is Dr. Klein"))
    memory.feedback(wrong.id, "correct", "My dentist is Dr. Stein")

    again = memory.remember_many_explained(dated("My dentist is Dr. Klein"))

    assert again.decisions == [Decision.OUTDATED]
    assert [r.content for r in memory.list_memories()] == ["My dentist is Dr. Stein"]


@pytest.mark.parametrize(("old", "new", "question"), UPDATES, ids=["en", "zh"])
def test_remembering_a_replaced_text_once_asks_the_person(
    open_memory: Callable[..., Memory], old: str, new: str, question: str
) -> None:
    memory = open_memory(llm=None)
    kept = memory.resolve_conflict(imported_and_queued(memory, old, new), "take-new")
    assert kept is not None

    told = memory.remember_explained(old)

    # stored, not silently current: a conflict with the current memory asks which holds
    assert told.decision is Decision.QUEUED and told.related is not None
    assert told.related.id == kept.id
    assert told.reason == f"you said this before; it was replaced by memory {kept.id} (take_new)"
    [conflict] = memory.conflicts()
    assert (conflict.existing.id, conflict.candidate.id) == (kept.id, told.record.id)
    assert conflict.similarity > 0.3
    # the person really changed back: take-new makes the old text current again
    memory.resolve_conflict(conflict.id, "take-new")
    assert memory.get(kept.id).content == old
    found = [result.memory.content for result in memory.recall(question, 5, threshold=0)]
    assert old in found and new not in found


def test_a_restatement_kept_by_a_fuller_telling_still_merges(
    open_memory: Callable[..., Memory],
) -> None:
    memory = open_memory(llm=None)
    first = memory.remember("I have a dog.")
    memory.remember("I have a dog named Max.")  # the memory takes the fuller text

    again = memory.remember_explained("I have a dog.")

    # the shorter text is among its restatements: the same fact, not a replaced one
    assert again.decision is Decision.MERGED and again.record.id == first.id
    assert memory.conflicts() == []


@pytest.mark.parametrize("resolution", ["take-new", "keep-old"])
def test_after_forget_a_replaced_text_is_no_longer_recognised(
    open_memory: Callable[..., Memory], resolution: str
) -> None:
    old, new, _ = UPDATES[0]
    memory = open_memory(llm=None)
    kept = memory.resolve_conflict(imported_and_queued(memory, old, new), resolution)
    assert kept is not None
    memory.forget(kept.id)
    assert tables_holding(memory, "Berlin") == [] and tables_holding(memory, "Lisbon") == []
    hashes = memory._store.db.execute(
        "SELECT count(*) FROM memory_versions WHERE memory_id = ? UNION ALL "
        "SELECT count(*) FROM set_aside WHERE memory_id = ?",
        (kept.id, kept.id),
    ).fetchall()
    assert hashes == [(0,), (0,)]
    # What the person forgot stays forgotten (review13 J11: by a keyed fingerprint, not these
    # hashes): brought back only when they say so, and then as news, not as earlier versions.
    with pytest.raises(ForgottenEarlier):
        memory.remember_many_explained(dated(old, new))

    again = memory.remember_many_explained(dated(old, new), allow_forgotten=True)

    assert Decision.OUTDATED not in again.decisions
    assert {r.content for r in memory.list_memories()} >= {old, new}


def imported_and_taken(cli: Cli, tmp_path: Path, *lines: str) -> Path:
    """The notes file imported with the CLI and its one conflict settled take-new."""
    notes = tmp_path / "notes.txt"
    notes.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    cli.ok("import", str(notes))
    cli.ok("resolve", "1", "take-new")
    return notes


def test_import_says_how_many_lines_were_earlier_versions(cli: Cli, tmp_path: Path) -> None:
    old, new, _ = UPDATES[0]
    notes = imported_and_taken(cli, tmp_path, old, UNRELATED[1], new)

    result = cli.ok("import", str(notes))

    assert "Imported 0 memories" in result.stdout
    assert (
        "1 already known as an earlier version of a memory (or set aside in a review): "
        "kept the current text, not added again" in result.stdout
    )
    assert sorted(cli.contents()) == sorted([new, UNRELATED[1]])


def test_an_old_store_gets_the_hashes_of_its_earlier_texts(tmp_path: Path) -> None:
    old, new, _ = UPDATES[0]
    path = tmp_path / "old.db"
    memory = Memory.open(path, PASSPHRASE, kdf=FAST_KDF, llm=None)
    kept = memory.resolve_conflict(imported_and_queued(memory, old, new), "take-new")
    assert kept is not None
    db = memory._store.db
    with db:  # as a store made before the earlier texts' hashes was
        db.execute("DROP INDEX memory_versions_by_hash")
        db.execute("ALTER TABLE memory_versions DROP COLUMN content_hash")
        db.execute("DROP TABLE set_aside")
        db.execute("ALTER TABLE memories DROP COLUMN secret")  # nor the later migration 7's
        db.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(EARLIER - 1),))
    memory.close()

    memory = Memory.open(path, PASSPHRASE, kdf=FAST_KDF, llm=None)
    try:
        assert memory._store.get_meta("schema_version") == str(MIGRATIONS[-1].version)
        assert memory.remember_many_explained(dated(old)).decisions == [Decision.OUTDATED]
    finally:
        memory.close()


EARLIER = next(m.version for m in MIGRATIONS if m.name == "earlier texts")


# --- fix7 item 2: with a model, an older-dated item never overwrites a newer memory ----------

START = 1_700_000_000.0
DAY = 86_400.0


@pytest.mark.parametrize(
    ("newer", "older", "question"),
    [
        ("I live in Lisbon", "I live in Berlin", "Where do I live?"),
        ("我的房租是1100欧元", "我的房租是950欧元", "我的房租是多少？"),
    ],
    ids=["en", "zh"],
)
def test_an_older_dated_contradiction_does_not_overwrite_the_newer_memory(
    open_memory: Callable[..., Memory],
    llm: OllamaLLM,
    ollama_server: FakeOllama,
    newer: str,
    older: str,
    question: str,
) -> None:
    ollama_server.when_schema_has("relation", {"relation": "contradicts", "reason": "changed"})
    memory = open_memory(llm=llm)
    current = memory.remember(newer, created_at=START + 30 * DAY)

    told = memory.remember_explained(older, created_at=START)

    assert ollama_server.chat_requests(), "the model was asked"
    assert told.decision is Decision.INSERTED and told.record.id != current.id
    assert "an earlier version of a memory made later" in told.reason
    assert memory.get(current.id).content == newer and memory.get(current.id).version == 1
    assert memory.count() == 2
    [first, *rest] = memory.recall(question, 5, threshold=0)
    assert first.memory.id == current.id
    assert any(r.memory.id == told.record.id for r in rest)
    # the newer memory is noted as its successor (what puts it first in recall)
    [(earlier, later, _)] = memory._store.later_versions(memory.namespace, [told.record.id])
    assert (earlier, later) == (told.record.id, current.id)


def test_another_device_recognises_an_earlier_version_it_received() -> None:
    old, new, _ = UPDATES[0]
    with devices((0.0, 0.0)) as (laptop, phone):
        kept = laptop.memory.resolve_conflict(
            imported_and_queued(laptop.memory, old, new), "take-new"
        )
        assert kept is not None
        exchange(laptop, phone)

        again = phone.memory.remember_many_explained(dated(old))

        # the history the phone rebuilt from the laptop's events carries the texts' hashes
        assert again.decisions == [Decision.OUTDATED] and again.records[0].id == kept.id
        assert [r.content for r in phone.memory.list_memories() if r.content in (old, new)] == [new]


def test_an_import_after_the_model_overwrote_a_memory_keeps_the_new_text(
    open_memory: Callable[..., Memory], llm: OllamaLLM, ollama_server: FakeOllama
) -> None:
    ollama_server.when_schema_has("relation", {"relation": "contradicts", "reason": "moved"})
    memory = open_memory(llm=llm)
    first = memory.remember("I live in Berlin")
    assert memory.remember_explained("I live in Lisbon").decision is Decision.OVERWRITTEN

    again = memory.remember_many_explained(dated("I live in Berlin"))

    assert again.decisions == [Decision.OUTDATED] and again.records[0].id == first.id
    assert "(overwrite)" in again.reasons[0]
    assert [r.content for r in memory.list_memories()] == ["I live in Lisbon"]


def test_a_line_dated_after_the_replacement_is_news_not_an_earlier_version(
    open_memory: Callable[..., Memory], clock: FakeClock
) -> None:
    old, new, _ = UPDATES[0]
    memory = open_memory(llm=None)
    memory.resolve_conflict(imported_and_queued(memory, old, new), "take-new")
    clock.advance(days=200)

    # a journal line written after the review: the person moved back
    again = memory.remember_many_explained([NewMemory(old, created_at=clock())])

    assert again.decisions != [Decision.OUTDATED]
    assert old in [r.content for r in memory.list_memories()]


def test_add_of_a_replaced_text_says_it_was_not_made_current(cli: Cli, tmp_path: Path) -> None:
    old, new, _ = UPDATES[0]
    imported_and_taken(cli, tmp_path, old, new)

    said = cli.ok("add", old).stdout

    assert "not as the current fact: you said this before; it was replaced by memory" in said
    assert "(take_new); review with `localmind conflicts`" in said
    assert new in cli.ok("conflicts").stdout

"""An import judges each memory as ``remember`` does (issue 13, import13): against the store and
the memories before it in the file, a restatement is merged, a plausible contradiction is stored
and queued for review, and recall puts the newer fact first. The real encrypted store and the
bundled USE-m3 embedder; no model (a batch never asks one)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from localmind import Memory, NewMemory
from localmind.lifecycle import Decision
from tests.cli_support import Cli
from tests.conftest import FakeClock

DAY = 86_400.0
START = 1_700_000_000.0

UPDATES = [
    ("I live in Berlin", "We moved to Lisbon", "Where do I live?"),
    ("我住在北京。", "我搬到上海了。", "我住在哪里？"),
]
RESTATED = ("I take vitamin D every morning.", "Every morning I take a vitamin D supplement.")
UNRELATED = [
    "I grew up in Lyon",
    "My sister lives in Munich",
    "I am allergic to peanuts",
    "My favourite film is Spirited Away",
    "I play the cello in an amateur orchestra",
    "我每天早上跑步五公里",
    "我姐姐是一名护士。",
    "I drink green tea every morning",
]


def dated(*texts: str) -> list[NewMemory]:
    """The texts as memories told a day apart, in order."""
    return [NewMemory(text, created_at=START + n * DAY) for n, text in enumerate(texts)]


@pytest.fixture(params=["one embedding batch", "a batch per memory"])
def batch_size(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Both ways an earlier memory of the import is met: in the same embedding batch (compared
    in memory) and in an earlier, committed one (found by the store's search)."""
    if request.param == "a batch per memory":
        monkeypatch.setattr("localmind.writing.EMBED_BATCH", 1)
    return str(request.param)


@pytest.mark.parametrize(("old", "new", "question"), UPDATES, ids=["en", "zh"])
def test_an_imported_update_is_queued_and_recall_puts_the_newer_first(
    open_memory: Callable[..., Memory], batch_size: str, old: str, new: str, question: str
) -> None:
    memory = open_memory(llm=None)
    batch = memory.remember_many_explained(dated(old, UNRELATED[0], new))

    assert batch.decisions == [Decision.INSERTED, Decision.INSERTED, Decision.QUEUED]
    assert (batch.queued, batch.merged) == (1, 0)
    [conflict] = memory.conflicts()
    assert (conflict.existing.content, conflict.candidate.content) == (old, new)
    assert "left for review" in conflict.reason
    found = [result.memory.content for result in memory.recall(question, 3)]
    assert found[0] == new and old in found


def test_an_imported_update_of_a_memory_already_stored_is_queued(
    open_memory: Callable[..., Memory],
) -> None:
    memory = open_memory(llm=None)
    memory.remember("My manager is Tom", created_at=START)
    batch = memory.remember_many_explained(dated(*UNRELATED[:3], "My manager is now Priya"))

    assert batch.decisions[-1] is Decision.QUEUED and batch.queued == 1
    [conflict] = memory.conflicts()
    assert conflict.existing.content == "My manager is Tom"


def test_an_imported_restatement_keeps_one_memory_found_by_both_texts(
    open_memory: Callable[..., Memory], batch_size: str
) -> None:
    memory = open_memory(llm=None)
    batch = memory.remember_many_explained(dated(RESTATED[0], UNRELATED[1], RESTATED[1]))

    assert batch.decisions == [Decision.INSERTED, Decision.INSERTED, Decision.MERGED]
    assert batch.merged == 1 and batch.records[2].id == batch.records[0].id
    assert memory.count() == 2
    kept = memory.get(batch.records[0].id)
    assert kept.metadata["restatements"] == [RESTATED[1]]
    for words in ("supplement", "vitamin D every morning"):
        assert memory.recall(words, 1, threshold=0)[0].memory.id == kept.id
    assert memory.conflicts() == []


def test_an_import_of_unrelated_memories_queues_and_merges_nothing(
    open_memory: Callable[..., Memory], batch_size: str
) -> None:
    memory = open_memory(llm=None)
    batch = memory.remember_many_explained(dated(*UNRELATED))

    assert set(batch.decisions) == {Decision.INSERTED}
    assert memory.count() == len(UNRELATED)
    assert memory.conflicts() == []


def test_an_import_without_the_check_stores_every_item_as_it_is(
    open_memory: Callable[..., Memory],
) -> None:
    memory = open_memory(llm=None)
    texts = [*UPDATES[0][:2], *RESTATED]
    batch = memory.remember_many_explained(dated(*texts), check=False)

    assert set(batch.decisions) == {Decision.INSERTED}
    assert sorted(record.content for record in memory.iter_all()) == sorted(texts)
    assert memory.conflicts() == []


def test_import_says_what_it_merged_and_queued_and_conflicts_lists_them(
    cli: Cli, tmp_path: Path
) -> None:
    source = tmp_path / "notes.txt"
    source.write_text(
        "\n".join([UPDATES[0][0], RESTATED[0], UNRELATED[2], UPDATES[0][1], RESTATED[1]]) + "\n",
        encoding="utf-8",
    )

    result = cli.ok("import", str(source))

    assert "Imported 4 memories" in result.stdout
    assert "1 restated a memory: merged into it" in result.stdout
    assert "1 memory may change an earlier one: queued for review" in result.stdout
    listed = cli.ok("conflicts").stdout
    assert "old  " in listed and UPDATES[0][0] in listed and UPDATES[0][1] in listed
    assert len(cli.contents()) == 4


def test_import_with_no_check_stores_every_line_and_queues_nothing(
    cli: Cli, tmp_path: Path
) -> None:
    source = tmp_path / "transcript.txt"
    source.write_text("\n".join([*UPDATES[0][:2], *RESTATED]) + "\n", encoding="utf-8")

    result = cli.ok("import", str(source), "--no-check")

    assert "Imported 4 memories in" in result.stdout
    assert "merged" not in result.stdout and "queued" not in result.stdout
    assert "No conflicts to review." in cli.ok("conflicts").stdout


def test_an_import_of_events_is_stored_as_told(open_memory: Callable[..., Memory]) -> None:
    """The turns of a conversation were each true when they were said: an import of them (type
    episodic) links and queues nothing, while the same lines as facts would be judged."""
    memory = open_memory(llm=None)
    turns = [*UPDATES[0][:2], *RESTATED]
    batch = memory.remember_many_explained(
        [NewMemory(t, type="episodic", created_at=START + n * DAY) for n, t in enumerate(turns)]
    )

    assert set(batch.decisions) == {Decision.INSERTED}
    assert memory.conflicts() == []
    facts = open_memory(llm=None, path=memory.path.with_name("facts.db"))
    assert Decision.QUEUED in facts.remember_many_explained(dated(*turns)).decisions


def test_an_imported_event_that_changes_a_fact_is_queued_as_add_queues_it(
    cli: Cli, tmp_path: Path
) -> None:
    """io10: `import --type episodic` (a diary) judged nothing, so "where do I live?" gave the
    old fact alone; the events are judged against the facts (never against each other)."""
    told = tmp_path / "told.jsonl"
    told.write_text(json.dumps({"content": "I live in Berlin", "created_at": "2025-01-10"}) + "\n")
    cli.ok("import", str(told))
    diary = tmp_path / "diary.jsonl"
    lines = [
        {"content": "Went to the dentist", "created_at": "2026-02-20"},
        {"content": "We moved to Lisbon", "created_at": "2026-03-01"},
        {"content": "Had lunch with Ana in the old town", "created_at": "2026-03-02"},
    ]
    diary.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")

    result = cli.ok("import", str(diary), "--type", "episodic")

    assert "1 memory may change an earlier one: queued for review" in result.stdout
    (conflict,) = cli.json("conflicts")
    assert conflict["existing"]["content"] == "I live in Berlin"
    assert conflict["candidate"]["content"] == "We moved to Lisbon"


RENT_NEWEST_FIRST = [
    {"content": "My rent is 1400 € a month", "created_at": "2026-04-01"},
    {"content": "My rent is 950 € a month", "created_at": "2025-01-01"},
]


def test_a_newest_first_import_queues_the_older_dated_memory_as_old_and_take_new_keeps_the_newer(
    cli: Cli, tmp_path: Path
) -> None:
    """Old and new follow the dates, not the order of the lines (fix6)."""
    source = tmp_path / "rent.jsonl"
    source.write_text("\n".join(json.dumps(line) for line in RENT_NEWEST_FIRST) + "\n", "utf-8")

    assert "queued for review" in cli.ok("import", str(source)).stdout
    [conflict] = cli.json("conflicts")
    assert conflict["existing"]["content"] == "My rent is 950 € a month"
    assert conflict["candidate"]["content"] == "My rent is 1400 € a month"

    cli.ok("resolve", str(conflict["id"]), "take-new")
    assert cli.contents() == ["My rent is 1400 € a month"]


def test_a_memory_told_with_an_earlier_date_than_a_stored_one_is_its_earlier_version(
    open_memory: Callable[..., Memory],
) -> None:
    """remember of a dated memory older than its stored neighbour: the stored one stays the
    newer, in the queue and in recall."""
    memory = open_memory(llm=None)
    newer, older = (line["content"] for line in RENT_NEWEST_FIRST)
    memory.remember(newer, created_at=START + 400 * DAY)
    outcome = memory.remember_explained(older, created_at=START)

    assert outcome.decision is Decision.QUEUED
    [conflict] = memory.conflicts()
    assert (conflict.existing.content, conflict.candidate.content) == (older, newer)
    found = [result.memory.content for result in memory.recall("How much is my rent?", 2)]
    assert found[0] == newer


def test_the_same_event_on_two_dates_is_two_memories_the_same_fact_one(
    open_memory: Callable[..., Memory], batch_size: str
) -> None:
    """A run on 05-01 and another on 05-08 are two runs; a repeat of the same moment is the
    same telling read again, which changes nothing (review15a TW14: re-imports raised every
    memory's confidence); a fact told again later raises the stored memory's (fix6)."""
    memory = open_memory(llm=None)
    run = "Went running along the Tagus"
    first, later = START, START + 7 * DAY
    runs = [NewMemory(run, type="episodic", created_at=when) for when in (first, later, first)]
    batch = memory.remember_many_explained(runs)

    assert batch.decisions == [Decision.INSERTED, Decision.INSERTED, Decision.REINFORCED]
    stored = sorted(memory.iter_all(), key=lambda record: record.created_at)
    assert [(r.content, r.created_at) for r in stored] == [(run, first), (run, later)]
    assert stored[0].confidence == stored[1].confidence == memory.settings.default_confidence

    facts = open_memory(llm=None, path=memory.path.with_name("facts.db"))
    fact = "My rent is 950 € a month"
    told = facts.remember_many_explained([NewMemory(fact, created_at=w) for w in (first, later)])
    assert told.decisions == [Decision.INSERTED, Decision.REINFORCED]
    [kept] = facts.iter_all()
    assert kept.created_at == first and kept.confidence > facts.settings.default_confidence


def test_remember_of_the_same_event_on_another_date_stores_it(
    open_memory: Callable[..., Memory],
) -> None:
    memory = open_memory(llm=None)
    run = "Went running along the Tagus"
    memory.remember(run, type="episodic", created_at=START)
    again = memory.remember_explained(run, type="episodic", created_at=START + 7 * DAY)

    assert again.decision is Decision.INSERTED
    assert sorted(r.created_at for r in memory.iter_all()) == [START, START + 7 * DAY]
    same = memory.remember_explained(run, type="episodic", created_at=START + 7 * DAY)
    assert same.decision is Decision.REINFORCED and memory.count() == 2


def test_an_event_told_again_a_week_later_is_another_event(
    open_memory: Callable[..., Memory], clock: FakeClock
) -> None:
    """Told by itself, an undated event is told now: the same run told again (in the same or
    other words) a week later is another run, not a restatement of the first; within the same
    conversation it is the same run told twice."""
    memory = open_memory(llm=None)
    first = memory.remember("Went running along the Tagus this morning", type="episodic")
    clock.advance(seconds=3600)
    again = memory.remember_explained(
        "Went for a run along the Tagus this morning", type="episodic"
    )
    assert again.decision is Decision.MERGED and again.record.id == first.id

    clock.advance(days=7)
    reworded = memory.remember_explained(
        "Went for a run along the Tagus this morning", type="episodic"
    )
    repeated = memory.remember_explained(  # told twice in this week's conversation
        "Went for a run along the Tagus this morning", type="episodic"
    )
    assert reworded.decision is Decision.INSERTED
    assert repeated.decision is Decision.REINFORCED and repeated.record.id == reworded.record.id
    assert memory.count() == 2


def test_an_import_of_the_same_undated_events_again_adds_nothing(
    open_memory: Callable[..., Memory], clock: FakeClock
) -> None:
    memory = open_memory(llm=None)
    turns = [NewMemory(t, type="episodic") for t in ("We hiked the coast path", "Ate sardines")]
    memory.remember_many(turns)
    clock.advance(days=7)
    batch = memory.remember_many_explained(turns)
    assert batch.decisions == [Decision.REINFORCED, Decision.REINFORCED]
    assert memory.count() == 2

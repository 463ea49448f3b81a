"""An import judges its lines before it takes the write lock (``Memory.decide``) and only
writes under it (``Memory.apply_decided``), so another program's `add` during a long import
is not refused as busy. The decisions are those of judging under the lock; what another
program changed meanwhile near a line, or in a memory a decision read, is judged again.
The real encrypted store, sqlite-vec, FTS5 and the bundled USE-m3 embedder; "another
program" is a second Memory on the same file (its own connection)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from localmind import Memory, NewMemory
from localmind.lifecycle import Decision, Lifecycle
from localmind.memory import StaleDecisions
from tests.cli_support import Cli
from tests.conftest import FAST_KDF, PASSPHRASE
from tests.integration.test_import_all_or_nothing import fillers, state

# Two batches of one import: the second meets what the first added (a change, a repeat, a
# restatement) only through the plan, since nothing is written before the lock.
BATCHES = [
    ["I live in Berlin", "I drink green tea every morning", *fillers(3)],
    [
        "We moved to Lisbon",
        "I drink green tea every morning",
        "Every morning I drink green tea",
        *fillers(3, "other"),
    ],
]


def _written(memory: Memory) -> tuple[list[tuple[str, str, float]], list[tuple[str, str]]]:
    """Each memory's text, metadata (a merge's restatements) and confidence (raised by a
    repeat and a merge), and the pending conflicts."""
    memories = sorted(
        (r.content, json.dumps(r.metadata, sort_keys=True), round(r.confidence, 6))
        for r, _ in memory.export()
    )
    pairs = sorted((c.existing.content, c.candidate.content) for c in memory.conflicts())
    return memories, pairs


@pytest.mark.slow  # two stores, a dozen lines embedded: ~2 s
def test_lines_decided_before_the_lock_are_judged_as_under_it(
    open_memory: Callable[..., Memory], tmp_path: Path
) -> None:
    seen = []
    for ahead in (False, True):
        path = tmp_path / f"{ahead}.db"
        memory = open_memory(path=path)
        memory.remember("I take vitamin D every morning.")
        batches = [[NewMemory(text) for text in batch] for batch in BATCHES]
        if ahead:
            before = state(path)
            decided = memory.decide(batches)
            assert decided is not None
            assert state(path) == before  # nothing written yet
            with memory.all_or_nothing():
                written = memory.apply_decided(decided)
        else:
            with memory.all_or_nothing():
                written = [memory.remember_many_explained(batch) for batch in batches]
        seen.append(([batch.decisions for batch in written], _written(memory)))
    assert seen[0] == seen[1]
    tea = [m for m in seen[1][1][0] if m[0] == "I drink green tea every morning"]
    assert "Every morning I drink green tea" in tea[0][1]  # merged, with its restatement
    decisions = seen[1][0][1]
    assert decisions[:3] == [Decision.QUEUED, Decision.REINFORCED, Decision.MERGED]
    assert seen[1][1][1] == [("I live in Berlin", "We moved to Lisbon")]


def test_a_change_another_program_made_near_a_line_is_judged_again(
    open_memory: Callable[..., Memory], store_path: Path
) -> None:
    importer = open_memory()
    importer.remember("I drink green tea every morning")
    items = [NewMemory("We moved to Lisbon"), NewMemory("I play the cello on Sundays")]
    decided = importer.decide([items])
    assert decided is not None
    open_memory().remember("I live in Berlin")  # meanwhile, another program
    before = state(store_path)
    with pytest.raises(StaleDecisions), importer.all_or_nothing():
        importer.apply_decided(decided)
    assert state(store_path) == before  # nothing written
    # Decided again (here: judged under the lock), the move is queued against Berlin,
    # which the first decisions never saw.
    with importer.all_or_nothing():
        [written] = importer.apply_decided(decided, judge_again=True)
    assert written.decisions == [Decision.QUEUED, Decision.INSERTED]
    assert _written(importer)[1] == [("I live in Berlin", "We moved to Lisbon")]


def test_what_another_program_changed_elsewhere_leaves_the_decisions_as_they_are(
    open_memory: Callable[..., Memory],
) -> None:
    importer = open_memory()
    berlin = importer.remember("I live in Berlin").id
    decided = importer.decide([[NewMemory("We moved to Lisbon")]])
    assert decided is not None
    other = open_memory()
    other.remember("My sister collects vintage stamps")  # nothing a line would meet
    with importer.all_or_nothing():
        [written] = importer.apply_decided(decided)
    assert written.decisions == [Decision.QUEUED]
    # A memory a decision read, forgotten meanwhile: the decision is stale.
    decided = importer.decide([[NewMemory("I moved to Porto last year")]])
    assert decided is not None
    other.forget(berlin)
    with pytest.raises(StaleDecisions), importer.all_or_nothing():
        importer.apply_decided(decided)


def test_the_cli_import_decides_again_while_another_program_keeps_changing_what_it_read(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each time the import has decided, another program writes what a line is judged
    otherwise against (a fact it changes, the very text of one): twice it decides again, the
    third time it judges under the lock. Each line is counted once in the summary."""
    source = tmp_path / "notes.txt"
    source.write_text("We moved to Lisbon\nI play the cello on Sundays\n", encoding="utf-8")
    told = iter(["I live in Berlin", "I play the cello on Sundays", "My sister lives in Munich"])
    decide = Memory.decide

    def decided_then_another_program_writes(memory: Memory, *args: Any, **kwargs: Any) -> Any:
        decided = decide(memory, *args, **kwargs)
        with Memory.open(cli.db, PASSPHRASE, kdf=FAST_KDF, maintain=False) as other:
            other.remember(next(told))
        return decided

    monkeypatch.setattr(Memory, "decide", decided_then_another_program_writes)
    result = cli.ok("import", str(source))
    assert next(told, None) is None  # decided three times
    assert result.stdout.startswith("Imported 1 memory"), result.stdout
    assert "1 already present (same text)" in result.stdout
    assert "1 memory may change an earlier one" in result.stdout
    assert sorted(cli.contents()) == [
        "I live in Berlin",
        "I play the cello on Sundays",
        "My sister lives in Munich",
        "We moved to Lisbon",
    ]
    pairs = [(c["existing"]["content"], c["candidate"]["content"]) for c in cli.json("conflicts")]
    assert ("I live in Berlin", "We moved to Lisbon") in pairs


def _export_of(tmp_path: Path, *texts: str) -> Path:
    """A localmind export (version 2: it carries its queue) of a store told ``texts``."""
    source = Cli(tmp_path / "source.db")
    for text in texts:
        source.ok("add", text, "--type", "semantic")
    export = tmp_path / "export.jsonl"
    source.ok("export", "-o", str(export))
    return export


def _queue_and_notes(db: Path) -> tuple[list[tuple[str, str, str]], list[tuple[str, str]]]:
    with Memory.open(db, PASSPHRASE, kdf=FAST_KDF, maintain=False) as memory:
        texts = {r.id: r.content for r, _ in memory.export()}
        conflicts, notes = memory.waiting(list(texts))
    return (
        sorted((texts[c.existing_id], texts[c.candidate_id], c.reason) for c in conflicts),
        sorted((texts[n.earlier_id], texts[n.later_id]) for n in notes),
    )


@pytest.mark.slow  # two stores and a source, eight adds and two imports: ~1.5 s
def test_an_exports_memories_judged_before_the_lock_are_judged_as_under_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # polish13: the judging of an export's memories against the store moved before the lock
    seen = []
    for ahead in (True, False):
        target = Cli(tmp_path / f"target-{ahead}.db")
        for text in ("I live in Berlin", "I work as a nurse", "My son is called Liu Zixuan"):
            target.add(text, "--type", "semantic")
        seen.append(target)
    export = _export_of(
        tmp_path,
        "I moved to Lisbon last month",
        "I work as a teacher now",
        "I work as a teacher at a primary school",
        "Our son Liu Zixuan, Leo in English, turns nine this summer",
        "Leo quit the swimming club",
    )
    for ahead, target in zip((True, False), seen, strict=True):
        if not ahead:
            monkeypatch.setattr(Memory, "judge_restored_ahead", lambda *_, **__: None)
        target.ok("import", str(export))
    judged_ahead, judged_under_the_lock = (_queue_and_notes(t.db) for t in seen)
    assert judged_ahead == judged_under_the_lock
    conflicts = [(old, new) for old, new, _ in judged_ahead[0]]
    assert ("I live in Berlin", "I moved to Lisbon last month") in conflicts


def test_another_writer_is_not_kept_waiting_while_an_exports_memories_are_judged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another program's `add` while an export's import judges its memories goes through at
    once (it used to wait for the import's write lock, 10 s, then fail as busy), and the
    import, which read a store that changed, judges again and says the same."""
    target = Cli(tmp_path / "target.db")
    target.add("I live in Berlin", "--type", "semantic")
    export = _export_of(tmp_path, "I moved to Lisbon last month", "I play the cello on Sundays")
    propose = Lifecycle.propose
    wrote: list[str] = []

    def another_program_writes_meanwhile(lifecycle: Lifecycle, *args: Any, **kw: Any) -> Any:
        if not wrote:
            wrote.append("writing")  # (its own add is judged too: once)
            with Memory.open(target.db, PASSPHRASE, kdf=FAST_KDF, maintain=False) as other:
                other.remember("My sister collects vintage stamps")
            wrote.append("written")
        return propose(lifecycle, *args, **kw)

    monkeypatch.setattr(Lifecycle, "propose", another_program_writes_meanwhile)
    result = target.ok("import", str(export))

    assert wrote == ["writing", "written"]
    assert result.stdout.startswith("Imported 2 memories"), result.stdout
    assert "1 memory may change an earlier one" in result.stdout
    pairs = [
        (c["existing"]["content"], c["candidate"]["content"]) for c in target.json("conflicts")
    ]
    assert pairs == [("I live in Berlin", "I moved to Lisbon last month")]
    assert "My sister collects vintage stamps" in target.contents()

"""export -> import keeps what the memories were waiting for (review9 X2): the pending conflicts
travel in the export (format 2) and are queued again, unless the importing store settled them;
an old export (format 1), or an import into a store with memories of its own, is judged as
`add` judges. A memory forgotten here is not brought back, and the import says so (X1). The
real CLI on the real encrypted store and embedder."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from localmind import Memory
from tests.cli_support import Cli
from tests.conftest import FAST_KDF, PASSPHRASE


def _told(cli: Cli, text: str) -> str:
    """The id of a new memory (``add`` may go on to say it is queued for review)."""
    said = re.match(r"Remembered (\w{26}) ", cli.ok("add", text).stdout)
    assert said, "add did not say what it remembered"
    return said.group(1)


def _moved(cli: Cli) -> tuple[str, str, str]:
    """A store that heard of a move (queued for review) and of something else."""
    berlin = _told(cli, "I live in Berlin")
    lisbon = _told(cli, "I moved to Lisbon")
    jazz = _told(cli, "I like jazz")
    return berlin, lisbon, jazz


def _fresh(tmp_path: Path, name: str) -> Cli:
    path = tmp_path / f"{name}.db"
    Memory.open(path, PASSPHRASE, kdf=FAST_KDF).close()
    return Cli(path)


def _pairs(cli: Cli) -> list[tuple[str, str]]:
    return [(c["existing"]["id"], c["candidate"]["id"]) for c in cli.json("conflicts")]


@pytest.mark.slow  # (context loads the recall models: ~2 s)
def test_a_round_trip_keeps_the_pending_conflicts_and_context_marks_the_old_fact(
    cli: Cli, tmp_path: Path
) -> None:
    berlin, lisbon, _ = _moved(cli)
    dump = tmp_path / "t.jsonl"

    exported = cli.ok("export", "-o", str(dump))
    assert "Exported 3 memories and 1 pending conflict (import queues it again)" in (
        exported.stderr
    )
    fresh = _fresh(tmp_path, "fresh")
    imported = fresh.ok("import", str(dump))

    assert "Imported 3 memories" in imported.stdout
    assert "1 pending conflict of the export queued again for review" in imported.stdout
    assert _pairs(fresh) == [(berlin, lisbon)]
    context = fresh.ok("context", "where do I live?").stdout
    assert '"I live in Berlin" (told' in context and "may be outdated" in context


def test_an_import_does_not_reopen_a_conflict_the_store_settled(cli: Cli, tmp_path: Path) -> None:
    _moved(cli)
    dump = tmp_path / "t.jsonl"
    cli.ok("export", "-o", str(dump))
    cli.ok("resolve", "1", "keep-both")

    again = cli.ok("import", str(dump))

    assert "3 already present (same id)" in again.stdout and "queued" not in again.stdout
    assert _pairs(cli) == []


def test_an_old_export_without_the_queue_is_judged_as_add_judges(cli: Cli, tmp_path: Path) -> None:
    berlin, lisbon, _ = _moved(cli)
    lines = [json.loads(line) for line in cli.ok("export").stdout.splitlines()]
    old = [dict(line, format="localmind-export/1") for line in lines if "content" in line]
    dump = tmp_path / "old.jsonl"
    dump.write_text("".join(json.dumps(line) + "\n" for line in old), encoding="utf-8")
    fresh = _fresh(tmp_path, "fresh")

    imported = fresh.ok("import", str(dump))

    assert "1 memory may change an earlier one: queued for review" in imported.stdout
    assert _pairs(fresh) == [(berlin, lisbon)]
    assert "judged when imported" in fresh.json("conflicts")[0]["reason"]


def test_restored_memories_are_judged_against_the_importing_stores_own(
    cli: Cli, tmp_path: Path
) -> None:
    berlin = cli.add("I live in Berlin")
    dump = tmp_path / "t.jsonl"
    cli.ok("export", "-o", str(dump))
    other = _fresh(tmp_path, "other")
    lisbon = _told(other, "I moved to Lisbon")

    imported = other.ok("import", str(dump))

    assert "1 memory may change an earlier one: queued for review" in imported.stdout
    assert _pairs(other) == [(berlin, lisbon)]


def test_a_memory_forgotten_since_the_export_is_not_brought_back_and_the_import_says_so(
    cli: Cli, tmp_path: Path
) -> None:
    """review9 X1: it said "2 already present (same id)" of a memory that was not there."""
    _, _, jazz = _moved(cli)
    dump = tmp_path / "t.jsonl"
    cli.ok("export", "-o", str(dump))
    cli.ok("forget", jazz)

    again = cli.ok("import", str(dump))

    assert "Imported 0 memories" in again.stdout
    assert "2 already present (same id), left as they are" in again.stdout
    assert "1 forgotten here: not brought back" in again.stdout
    assert "I like jazz" not in cli.contents()


def test_a_markdown_export_says_the_pending_conflicts_are_not_in_it(
    cli: Cli, tmp_path: Path
) -> None:
    _moved(cli)
    result = cli.ok("export", "--format", "markdown", "-o", str(tmp_path / "m.md"))
    assert "1 pending conflict is not in it (export JSON lines to keep them)" in result.stderr

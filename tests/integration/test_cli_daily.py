"""Daily use of the ``localmind`` command line as a new user meets it (issue 16): a typo in the
store's path, reading memories from standard input or a file, ids by prefix, the profile and the
context from the command line, and messages that say what happened. The real encrypted store and
the bundled embedding model, run in-process through click as the other CLI tests do."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_support import Cli, assert_error

TYPO_COMMANDS = [
    (),  # `localmind` alone, without a terminal
    ("recall", "what do I drink?"),
    ("list",),
    ("stats",),
    ("show", "01ABC"),
    ("forget", "01ABC"),
    ("history", "01ABC"),
    ("conflicts",),
    ("export",),
    ("maintain",),
    ("mcp",),
]


# --- a typo in --db / LOCALMIND_DB creates nothing ------------------------------------------------


@pytest.mark.parametrize("command", TYPO_COMMANDS, ids=lambda c: " ".join(c[:1]) or "home")
def test_a_store_that_is_not_there_is_an_error_and_nothing_is_created(
    tmp_path: Path, command: tuple[str, ...]
):
    typo = Cli(tmp_path / "memroy.db")

    result = typo(*command)

    assert_error(result, f"No store at {typo.db}")
    assert "localmind add" in result.stderr  # … and how to make one
    assert list(tmp_path.iterdir()) == []


def test_the_global_option_names_the_store_that_is_missing(cli: Cli, tmp_path: Path):
    cli.add("I prefer green tea over coffee")
    typo = tmp_path / "nested" / "memroy.db"

    result = cli("--db", str(typo), "recall", "tea")

    assert_error(result, f"No store at {typo}")
    assert not typo.parent.exists()
    assert cli.contents() == ["I prefer green tea over coffee"]  # the real store is untouched


def test_add_and_import_create_the_store(tmp_path: Path):
    added = Cli(tmp_path / "added.db")
    first = added.ok("add", "I prefer green tea over coffee")
    assert "Created a new encrypted store" in first.stderr
    assert added.contents() == ["I prefer green tea over coffee"]

    source = tmp_path / "facts.txt"
    source.write_text("I live in Porto\n", encoding="utf-8")
    imported = Cli(tmp_path / "imported.db")
    assert "Created a new encrypted store" in imported.ok("import", str(source)).stderr
    assert imported.contents() == ["I live in Porto"]


# --- polish ---------------------------------------------------------------------------------------


def test_counts_of_one_are_singular(cli: Cli, tmp_path: Path):
    source = tmp_path / "one.jsonl"
    source.write_text('{"content": "I live in Porto"}\n{"content": 3}\n', encoding="utf-8")

    imported = cli.ok("import", str(source))
    home = cli.ok()
    exported = cli.ok("export", "-o", str(tmp_path / "out.jsonl"))

    assert imported.stdout.startswith("Imported 1 memory in")
    assert imported.stdout.rstrip().endswith("skipped 1 bad line.")
    assert "— 1 memory in" in home.stdout
    assert "Exported 1 memory to" in exported.stderr

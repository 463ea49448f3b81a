"""Daily use of the ``localmind`` command line as a new user meets it (issue 16): a typo in the
store's path, reading memories from standard input or a file, ids by prefix, the profile and the
context from the command line, and messages that say what happened. The real encrypted store and
the bundled embedding model, run in-process through click as the other CLI tests do."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
from pathlib import Path

import pytest

from localmind.keys import UNSAFE_TEST_KDF_ENV
from tests.cli_support import Cli, assert_error
from tests.conftest import PASSPHRASE

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

    imported = cli.skipping("import", str(source))
    home = cli.ok()
    exported = cli.ok("export", "-o", str(tmp_path / "out.jsonl"))

    assert imported.stdout.startswith("Imported 1 memory in")
    assert imported.stdout.rstrip().endswith("skipped 1 bad line.")
    assert "— 1 memory in" in home.stdout
    assert "Exported 1 memory to" in exported.stderr


def test_importing_the_same_file_twice_says_nothing_new_was_added(cli: Cli, tmp_path: Path):
    source = tmp_path / "chat.jsonl"
    source.write_text(
        '{"content": "User: I live in Porto", "created_at": "2026-11-20T19:00:00"}\n'
        '{"content": "User: My dog is called Bruno", "created_at": "2026-11-20T19:00:00"}\n',
        encoding="utf-8",
    )
    assert cli.ok("import", str(source)).stdout.startswith("Imported 2 memories in")

    again = cli.ok("import", str(source)).stdout

    assert again.startswith("Imported 0 memories in"), again
    assert "2 already present (same text)" in again
    assert len(cli.json("list")) == 2


def confidences(cli: Cli) -> dict[str, float]:
    return {item["content"]: item["confidence"] for item in cli.json("list")}


@pytest.mark.parametrize(
    ("name", "lines"),
    [
        ("chat.jsonl", '{"content": "I live in Porto", "created_at": "2026-11-20T19:00:00"}\n'),
        ("notes.txt", "I live in Porto\n"),
    ],
)
def test_importing_the_same_file_again_is_no_new_telling(
    cli: Cli, tmp_path: Path, name: str, lines: str
):
    """review15a TW14: each re-import of a file raised the confidence of every memory in it,
    as if the person had said each thing again; `add` of the same text still does."""
    source = tmp_path / name
    source.write_text(lines, encoding="utf-8")
    cli.ok("import", str(source))
    first = confidences(cli)
    for _ in range(3):
        assert "1 already present (same text)" in cli.ok("import", str(source)).stdout
    assert confidences(cli) == first
    cli.ok("add", "I live in Porto")  # the person says it again
    assert confidences(cli)["I live in Porto"] > first["I live in Porto"]


# --- adding from standard input or a file; importing a Markdown export ---------------------------


def test_add_dash_reads_the_memory_from_standard_input(cli: Cli):
    result = cli.ok("add", "-", "--type", "semantic", input="I prefer green tea\nover coffee\n")

    assert result.stdout.startswith("Remembered ")
    assert cli.contents() == ["I prefer green tea\nover coffee"]


def test_add_file_reads_the_memory_from_a_file(cli: Cli, tmp_path: Path):
    note = tmp_path / "note.txt"
    note.write_text("我住在波尔图\n", encoding="utf-8")

    cli.ok("add", "--file", str(note))

    assert cli.contents() == ["我住在波尔图"]


def test_add_file_that_is_not_utf8_is_refused_and_creates_nothing(tmp_path: Path):
    note = tmp_path / "note.txt"
    note.write_bytes("café".encode("latin-1"))
    fresh = Cli(tmp_path / "memory.db")

    assert_error(fresh("add", "--file", str(note)), "is not UTF-8 text; nothing was added")
    assert list(tmp_path.iterdir()) == [note]


@pytest.mark.parametrize("args", [("add",), ("add", "text", "--file", "note.txt")])
def test_add_wants_exactly_one_source(cli: Cli, tmp_path: Path, args: tuple[str, ...]):
    (tmp_path / "note.txt").write_text("hello", encoding="utf-8")
    result = cli(*[str(tmp_path / a) if a == "note.txt" else a for a in args])

    assert_error(result, "Give the memory's TEXT, - to read it from standard input", 2)
    assert cli.contents() == []


def test_importing_a_markdown_export_is_refused_pointing_to_the_jsonl_export(
    cli: Cli, tmp_path: Path
):
    cli.add("I prefer green tea over coffee")
    exported = tmp_path / "memories.md"
    cli.ok("export", "--format", "markdown", "-o", str(exported))
    other = Cli(tmp_path / "other.db")

    result = other("import", str(exported))

    assert_error(result, "is a Markdown export, which is for reading: nothing was imported")
    assert "localmind export -o memories.jsonl" in result.stderr
    assert not other.db.exists()


# --- ids by a prefix, forgotten memories ---------------------------------------------------------


@pytest.fixture
def three(cli: Cli) -> list[str]:
    return [cli.add(text) for text in ("I live in Porto", "I cycle to work", "I keep bees")]


def test_an_id_can_be_a_unique_beginning_of_it_in_any_case(cli: Cli, three: list[str]):
    first, *others = three
    length = next(n for n in range(1, 27) if all(o[:n] != first[:n] for o in others))
    prefix = first[:length].lower()

    shown = cli.json("show", prefix)
    cli.ok("feedback", prefix, "confirm")
    forgot = cli.ok("forget", first.lower())

    assert shown["id"] == first
    assert forgot.stdout.strip() == f"Forgot {first}"
    assert len(cli.contents()) == 2


def test_an_ambiguous_beginning_lists_the_memories_it_could_be(cli: Cli, three: list[str]):
    shared = next(n for n in range(26, 0, -1) if len({i[:n] for i in three}) == 1)

    result = cli("forget", three[0][:shared].lower())

    assert_error(result, f"The id '{three[0][:shared].lower()}' is ambiguous")
    assert all(memory_id in result.stderr for memory_id in sorted(three))
    assert len(cli.contents()) == 3


def test_a_beginning_shorter_than_four_characters_names_nothing(cli: Cli):
    only = cli.add("I keep bees")

    result = cli("forget", only[:3].lower())

    assert_error(result, "is too short: give at least 4 characters")
    assert cli.contents() == ["I keep bees"]
    assert cli.json("show", only[:4])["id"] == only


def test_history_of_a_forgotten_memory_and_forgetting_it_again_say_so(cli: Cli, three: list[str]):
    cli.ok("forget", three[0])

    assert_error(cli("history", three[0]), "it was forgotten (its text and history are erased)")
    assert_error(cli("forget", three[0]), f"Memory {three[0]} was already forgotten")
    assert_error(cli("show", three[0][:-3]), "it was forgotten")


# --- profile and context from the command line --------------------------------------------------


def test_profile_and_context_show_what_an_assistant_is_told(cli: Cli):
    assert "No profile yet" in cli.ok("profile").stdout
    cli.add("I work as a data engineer", "--type", "semantic")
    cli.add("I prefer green tea over coffee", "--type", "semantic")

    built = cli.ok("profile", "--rebuild")
    described = cli.json("profile")
    context = cli.ok("context", "what should I drink?").stdout

    assert "data engineer" in built.stdout and "green tea" in built.stdout
    assert "version 1" in built.stderr and "extractive" in built.stderr  # Ollama is down
    assert described["version"] == 1 and described["text"] in built.stdout
    assert "About the user:" in context and '"I prefer green tea over coffee"' in context


# --- messages that say why ----------------------------------------------------------------------


def test_threshold_help_gives_its_scale_and_range_and_out_of_range_is_refused(cli: Cli):
    shown = " ".join(cli.ok("recall", "--help").stdout.split())

    assert "The least relevance a result needs, from 0 to 1" in shown
    assert "estimated chance that a memory is relevant" in shown
    assert_error(cli("recall", "tea", "--threshold", "5"), "--threshold", 2)


def test_an_empty_passphrase_variable_is_treated_as_unset(cli: Cli):
    cli.add("I keep bees")

    result = cli("list", LOCALMIND_PASSPHRASE="")

    assert_error(result, "No passphrase: set LOCALMIND_PASSPHRASE")


def test_chat_with_no_llm_says_the_flag_is_why_there_is_no_reply(cli: Cli):
    result = cli("--no-llm", "chat", input="what do I drink?\n/quit\n")

    assert result.exit_code == 0, result.output
    assert "the local model is off because of --no-llm" in result.stderr
    assert "No language model is configured" not in result.stderr


def test_add_help_explains_the_memory_types(cli: Cli):
    shown = " ".join(cli.ok("add", "--help").stdout.split())

    assert "semantic: a fact about you" in shown
    assert "episodic: something that happened" in shown
    assert "long_term: anything else worth keeping" in shown


def test_stats_by_type_counts_only_the_active_memories(cli: Cli, three: list[str]):
    cli.ok("forget", three[0])
    cli.add("I am a nurse", "--type", "semantic")

    figures = cli.json("stats")
    shown = cli.ok("stats").stdout

    assert figures["by_type"] == {"long_term": 2, "semantic": 1}
    assert sum(figures["by_type"].values()) == figures["active"]
    assert "by type     long_term 2, semantic 1" in shown


def test_a_fastembed_directory_that_is_not_there_is_named_without_api_words(tmp_path: Path):
    fresh = Cli(tmp_path / "memory.db")
    missing = tmp_path / "models" / "minilm"

    result = fresh("--embedder", f"fastembed:{missing}", "add", "I keep bees")

    assert_error(result, f"No model directory at {missing}")
    assert "model_dir" not in result.stderr and "specific_model_path" not in result.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_passwd_asks_for_the_current_passphrase_by_that_name(cli: Cli):
    """In a real terminal (a pseudo-terminal): the prompt says which passphrase it wants."""
    cli.add("I keep bees")
    controller, terminal = pty.openpty()
    environment = {k: v for k, v in os.environ.items() if not k.startswith("LOCALMIND_")}
    environment |= {
        "LOCALMIND_DB": str(cli.db),
        "LOCALMIND_NEW_PASSPHRASE": "a new passphrase",
        UNSAFE_TEST_KDF_ENV: "1",  # the test store's cheap key derivation (conftest.py)
    }
    with subprocess.Popen(
        [sys.executable, "-m", "localmind", "passwd"],
        stdin=terminal,
        stdout=terminal,
        stderr=terminal,
        env=environment,
    ) as process:
        os.close(terminal)
        shown = _read_until(controller, b"assphrase: ")
        os.write(controller, PASSPHRASE.encode() + b"\n")
        shown += _read_until(controller, b"Passphrase changed.")
        assert process.wait(timeout=60) == 0, shown
    os.close(controller)

    assert shown.splitlines()[0].strip() == b"Current passphrase:"
    assert Cli(cli.db, "a new passphrase").contents() == ["I keep bees"]


def _read_until(fd: int, marker: bytes) -> bytes:
    """What the terminal shows up to ``marker`` (or all of it, if the program ends first)."""
    seen = b""
    while marker not in seen:
        ready, _, _ = select.select([fd], [], [], 60)
        assert ready, f"no {marker!r} in {seen!r}"
        try:
            seen += os.read(fd, 1024)
        except OSError:  # the program closed the terminal: it has ended
            break
    return seen

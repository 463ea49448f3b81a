"""The ``localmind`` command line as a person uses it: the real encrypted store and the real
bundled embedding model, no mocks.

Most tests run the CLI in-process with click's ``CliRunner`` (the model is loaded once per
process). Their store is created beforehand with the cheapest KDF so that every command does not
spend 0.2 s deriving the key; the tests of first use let the CLI create the store itself. A few
``slow`` tests run the installed ``localmind`` console script in a real subprocess.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from localmind import Memory, NewMemory
from localmind.cli import cli as localmind_cli
from tests.cli_support import Cli, assert_error, files_of
from tests.conftest import PASSPHRASE

RUST = "用户喜欢 Rust 编程语言"
ENGINEER = "用户是软件工程师"
HIKING = "I love hiking in the mountains"
BREAKDOWN_FACTORS = ("similarity", "importance", "recency", "frequency", "confidence")


@pytest.fixture
def seeded(cli: Cli) -> dict[str, str]:
    """Three memories, in English and Chinese, added in this order; text → id. Added through
    the library in one batch (one model call); ``add`` itself has its own tests."""
    with Memory.open(cli.db, PASSPHRASE) as memory:
        records = memory.remember_many(
            [
                NewMemory(RUST, "semantic", importance=0.8),
                NewMemory(ENGINEER, "semantic"),
                NewMemory(HIKING, "episodic"),
            ]
        )
    return {record.content: record.id for record in records}


# --- add and recall ---------------------------------------------------------------------------


def test_recall_puts_the_memory_sharing_the_chinese_word_first(cli: Cli, seeded: dict[str, str]):
    result = cli.ok("recall", "编程")

    first_line = result.stdout.splitlines()[0]
    assert seeded[RUST] in first_line
    assert RUST in first_line
    assert "relevance" in result.stdout.splitlines()[1]


def test_recall_finds_a_chinese_memory_from_an_english_question(cli: Cli, seeded: dict[str, str]):
    results = cli.json("recall", "programming language")

    assert results[0]["content"] == RUST


def test_recall_json_explains_each_score(cli: Cli, seeded: dict[str, str]):
    results = cli.json("recall", "编程")

    assert results[0]["content"] == RUST
    assert {r["id"] for r in results} <= set(seeded.values())
    scores = [r["score"] for r in results]
    assert scores == sorted(scores, reverse=True)
    for result in results:
        breakdown = result["breakdown"]
        assert breakdown["score"] == result["score"]
        for factor in BREAKDOWN_FACTORS:
            assert 0.0 <= breakdown[factor] <= 1.0, factor
        assert result["breakdown"]["importance"] == result["importance"]
    assert results[0]["importance"] == 0.8
    assert results[0]["type"] == "semantic"


def test_recall_returns_at_most_limit_results(cli: Cli, seeded: dict[str, str]):
    everything = ("--threshold", "0")
    assert len(cli.json("recall", "user", "--limit", "2", *everything)) == 2
    assert len(cli.json("recall", "user", "-n", "1", *everything)) == 1
    assert len(cli.json("recall", "user", *everything)) == 3


def test_recall_leaves_out_what_is_unrelated(cli: Cli, seeded: dict[str, str]):
    assert cli.json("recall", "hello there") == []
    assert cli.ok("recall", "hello there").stdout.strip() == "Nothing relevant remembered."


def test_recall_keeps_to_the_types_asked_for(cli: Cli, seeded: dict[str, str]):
    episodic = cli.json("recall", "编程", "--type", "episodic", "--threshold", "0")
    assert [r["content"] for r in episodic] == [HIKING]

    two_types = cli.json(
        "recall", "编程", "--type", "episodic", "--type", "semantic", "--threshold", "0"
    )
    assert {r["type"] for r in two_types} == {"episodic", "semantic"}
    assert len(two_types) == 3

    assert cli.json("recall", "编程", "--type", "long_term") == []


def test_recall_on_an_empty_store_says_nothing_is_remembered(cli: Cli):
    result = cli.ok("recall", "anything")

    assert result.stdout.strip() == "Nothing relevant remembered."


def test_recall_is_noted_but_is_not_a_use(cli: Cli, seeded: dict[str, str]):
    """A recall notes when a memory was last found (maintenance keeps what is still found) but
    does not count as a use: only real use lifts a memory's rank."""
    cli.ok("recall", "编程", "--limit", "1")

    shown = cli.json("show", seeded[RUST])
    assert shown["access_count"] == 0
    assert shown["last_accessed"] is not None
    cli.ok("feedback", seeded[RUST], "confirm")
    assert cli.json("show", seeded[RUST])["access_count"] == 1


def test_recall_shows_when_each_memory_was_made(cli: Cli, seeded: dict[str, str]):
    shown = cli.ok("recall", "编程").stdout
    assert "made 20" in shown
    [first, *_] = cli.json("recall", "编程")
    assert first["created_at"] > 0 and first["updated_at"] >= first["created_at"]


def test_recall_says_why_a_question_about_now_scores_above_one(cli: Cli, seeded: dict[str, str]):
    now = cli.ok("recall", "Do I still love hiking in the mountains now?", "--limit", "1").stdout
    plain = cli.ok("recall", "Do I love hiking in the mountains?", "--limit", "1").stdout

    assert HIKING in now and HIKING in plain
    assert "(weighed 2: a question about now)" in now
    assert float(now.split()[0]) > 1  # what the note explains
    assert "question about now" not in plain


def test_add_json_and_metadata(cli: Cli):
    record = cli.json("add", "Tea, not coffee", "--meta", "source=chat", "--meta", "lang=en")

    assert record["content"] == "Tea, not coffee"
    assert record["type"] == "long_term"
    assert record["importance"] == 0.5
    assert record["metadata"] == {"source": "chat", "lang": "en"}
    assert cli.json("show", record["id"])["metadata"] == {"source": "chat", "lang": "en"}


def test_adding_the_same_text_again_reinforces_instead_of_duplicating(cli: Cli):
    first = cli.add("I prefer tea over coffee")
    again = cli.ok("add", "  i prefer TEA over coffee! ").stdout

    assert again.startswith(f"Already remembered as {first}; confidence now 0.85")
    assert cli.contents() == ["I prefer tea over coffee"]
    assert cli.json("show", first)["confidence"] > 0.8


# --- list, show, forget, stats ----------------------------------------------------------------


def test_list_shows_newest_first(cli: Cli, seeded: dict[str, str]):
    assert cli.contents() == [HIKING, ENGINEER, RUST]

    text = cli.ok("list").stdout.splitlines()
    assert [line.split()[0] for line in text] == [seeded[HIKING], seeded[ENGINEER], seeded[RUST]]


def test_list_filters_by_type(cli: Cli, seeded: dict[str, str]):
    assert cli.contents("--type", "semantic") == [ENGINEER, RUST]
    assert cli.contents("--type", "episodic") == [HIKING]
    assert cli.contents("--type", "long_term") == []


def test_list_pages_with_limit_and_offset(cli: Cli, seeded: dict[str, str]):
    assert cli.contents("--limit", "2") == [HIKING, ENGINEER]
    assert cli.contents("--limit", "2", "--offset", "1") == [ENGINEER, RUST]
    assert cli.contents("--offset", "3") == []

    page = cli.ok("list", "-n", "1")
    assert len(page.stdout.splitlines()) == 1
    assert "2 more" in page.stderr


def test_list_of_an_empty_store_says_how_to_add(cli: Cli):
    assert "No memories yet" in cli.ok("list").stdout
    assert cli.json("list") == []


def test_show_prints_a_memory(cli: Cli, seeded: dict[str, str]):
    text = cli.ok("show", seeded[RUST]).stdout

    assert RUST in text.splitlines()
    assert re.search(r"type: semantic$", text, re.M)
    assert re.search(r"importance: 0\.80$", text, re.M)
    assert re.search(r"status: active$", text, re.M)


def test_show_json_includes_earlier_versions(cli: Cli, seeded: dict[str, str]):
    with Memory.open(cli.db, PASSPHRASE) as memory:
        memory.update(seeded[ENGINEER], content="用户是数据工程师", reason="correct")

    shown = cli.json("show", seeded[ENGINEER])

    assert shown["content"] == "用户是数据工程师"
    assert shown["version"] == 2
    assert [(h["version"], h["content"], h["reason"]) for h in shown["history"]] == [
        (1, ENGINEER, "correct")
    ]
    assert "--- version 1 (correct" in cli.ok("show", seeded[ENGINEER]).stdout
    assert cli.json("show", seeded[RUST])["history"] == []


def test_forget_removes_a_memory_from_list_recall_and_show(cli: Cli, seeded: dict[str, str]):
    result = cli.ok("forget", seeded[RUST])

    assert result.stdout.strip() == f"Forgot {seeded[RUST]}"
    assert cli.contents() == [HIKING, ENGINEER]
    assert RUST not in [r["content"] for r in cli.json("recall", "编程")]
    assert_error(cli("show", seeded[RUST]), "No memory with id")
    assert cli.json("stats")["active"] == 2


def test_forget_of_an_unknown_id_changes_nothing(cli: Cli, seeded: dict[str, str]):
    before = files_of(cli.db)

    assert_error(cli("forget", "01HZZZZZZZZZZZZZZZZZZZZZZZ"), "No memory with id")
    assert files_of(cli.db) == before


def test_stats_json_counts_memories_by_type(cli: Cli, seeded: dict[str, str]):
    stats = cli.json("stats")

    assert stats["active"] == 3
    assert stats["by_type"] == {"semantic": 2, "episodic": 1}
    assert stats["namespace"] == "me"
    assert stats["embedder"] == "use-multilingual-v3:512"
    assert stats["path"] == str(cli.db)
    assert "memories:   3 active" in cli.ok("stats").stdout


# --- import -----------------------------------------------------------------------------------

MIXED_JSONL = "\n".join(
    [
        json.dumps({"content": "Likes green tea", "type": "semantic", "importance": 0.9}),
        "{not json",
        json.dumps({"type": "semantic"}),
        json.dumps({"content": ""}),
        json.dumps({"content": "A rocket", "type": "rocket"}),
        json.dumps({"content": "Too important", "importance": 2}),
        json.dumps({"content": "Painted fence", "colour": "red"}),
        json.dumps("A plain JSON string is a memory too"),
        "",
        json.dumps({"content": "Moved to Berlin", "type": "episodic", "created_at": "2024-01-02"}),
        json.dumps({"content": "Unix time", "created_at": 1_700_000_000}),
    ]
)
BAD_LINES = {
    2: "not valid JSON",
    3: "missing the 'content' field",
    4: "empty",
    5: "Unknown memory type 'rocket'",
    6: "importance must be between 0 and 1",
    7: "unknown field(s): colour",
}


def test_import_keeps_good_lines_and_reports_bad_ones_by_number(cli: Cli, tmp_path: Path):
    source = tmp_path / "memories.jsonl"
    source.write_text(MIXED_JSONL + "\n", encoding="utf-8")

    result = cli.skipping("import", str(source))

    reported = [line for line in result.stderr.splitlines() if ": skipped: " in line]
    assert len(reported) == len(BAD_LINES)
    for line, (number, reason) in zip(reported, sorted(BAD_LINES.items()), strict=True):
        assert line.startswith(f"{source}:{number}: skipped: ")
        assert reason in line
    assert "Imported 4 memories" in result.stdout
    assert "skipped 6 bad lines" in result.stdout

    stored = {item["content"]: item for item in cli.json("list")}
    assert set(stored) == {
        "Likes green tea",
        "A plain JSON string is a memory too",
        "Moved to Berlin",
        "Unix time",
    }
    assert stored["Likes green tea"]["type"] == "semantic"
    assert stored["Likes green tea"]["importance"] == 0.9
    assert stored["Moved to Berlin"]["type"] == "episodic"
    assert stored["A plain JSON string is a memory too"]["type"] == "long_term"


def test_import_keeps_the_date_a_memory_was_made(cli: Cli, tmp_path: Path):
    source = tmp_path / "dated.jsonl"
    source.write_text(MIXED_JSONL, encoding="utf-8")
    cli.skipping("import", str(source))
    by_content = {item["content"]: item["id"] for item in cli.json("list")}

    berlin = cli.json("show", by_content["Moved to Berlin"])

    assert berlin["created_at"] == datetime(2024, 1, 2, tzinfo=UTC).timestamp()
    assert "created: 2024-01-02 00:00" in cli.ok("show", berlin["id"]).stdout
    assert cli.json("show", by_content["Unix time"])["created_at"] == 1_700_000_000
    # the oldest memories come last
    assert cli.contents()[-2:] == ["Moved to Berlin", "Unix time"]


def test_import_plain_text_one_memory_a_line(cli: Cli, tmp_path: Path):
    source = tmp_path / "notes.txt"
    source.write_text(
        "I drink green tea every morning\n\n   \n  My cat is called Miso  \n我住在上海\n",
        encoding="utf-8",
    )

    result = cli.ok("import", str(source), "--type", "semantic")

    assert "Imported 3 memories" in result.stdout
    assert "skipped" not in result.stdout
    assert sorted(cli.contents()) == sorted(
        ["I drink green tea every morning", "My cat is called Miso", "我住在上海"]
    )
    assert cli.json("stats")["by_type"] == {"semantic": 3}
    assert cli.json("recall", "上海")[0]["content"] == "我住在上海"


def test_import_reads_standard_input(cli: Cli):
    result = cli.ok("import", "-", input="first from stdin\nsecond from stdin\n")

    assert "Imported 2 memories" in result.stdout
    assert sorted(cli.contents()) == ["first from stdin", "second from stdin"]


def test_import_jsonl_from_standard_input_reports_bad_lines(cli: Cli):
    lines = [json.dumps({"content": "kept"}), json.dumps({"content": "x", "importance": -1})]

    result = cli.skipping("import", "-", input="\n".join(lines))

    assert ":2: skipped: importance must be between 0 and 1" in result.stderr
    assert cli.contents() == ["kept"]


def test_import_of_only_bad_lines_fails_and_stores_nothing(cli: Cli, tmp_path: Path):
    source = tmp_path / "bad.jsonl"
    source.write_text('{"content": ""}\n{"nope": 1}\n[1, 2]\n', encoding="utf-8")
    before = files_of(cli.db)

    result = cli("import", str(source))

    assert result.exit_code == 1
    assert "Error: No memory to import" in result.stderr
    assert [line.split(":")[1] for line in result.stderr.splitlines() if "skipped" in line] == [
        "1",
        "2",
        "3",
    ]
    assert files_of(cli.db) == before


def test_import_of_only_bad_lines_into_a_new_path_creates_no_store(tmp_path: Path):
    source = tmp_path / "bad.txt"
    source.write_text("   \n\n", encoding="utf-8")
    target = tmp_path / "new" / "memory.db"
    runner = CliRunner()
    result = runner.invoke(
        localmind_cli,
        ["--db", str(target), "import", str(source)],
        env={"LOCALMIND_PASSPHRASE": PASSPHRASE},
    )
    assert result.exit_code == 1
    assert not target.parent.exists()


def test_import_tells_a_script_by_its_exit_status_that_lines_were_skipped(cli: Cli, tmp_path: Path):
    """review15b DV5: an import that skipped bad lines exited 0, as if all went in."""
    clean, damaged = tmp_path / "clean.txt", tmp_path / "damaged.jsonl"
    clean.write_text("I swim on Tuesdays\n", encoding="utf-8")
    damaged.write_text('{"content": "My locker is 112"}\n{"content": ""}\n', encoding="utf-8")
    assert cli("import", str(clean)).exit_code == 0
    result = cli("import", str(damaged))
    assert result.exit_code == 3
    assert result.stdout.strip().endswith("skipped 1 bad line.")
    assert sorted(cli.contents()) == ["I swim on Tuesdays", "My locker is 112"]


def test_short_term_is_refused_by_add_and_by_import_lines(cli: Cli, tmp_path: Path):
    result = cli("add", "a passing thought", "--type", "short_term")
    assert result.exit_code == 2
    source = tmp_path / "mixed.jsonl"
    source.write_text(
        '{"content": "kept", "type": "semantic"}\n{"content": "lost", "type": "short_term"}\n',
        encoding="utf-8",
    )
    result = cli.skipping("import", str(source))
    assert ":2: skipped: short_term memories only live inside a running session" in result.stderr
    assert cli.contents() == ["kept"]


def test_import_of_a_file_that_is_not_utf8_text_fails_cleanly(cli: Cli, tmp_path: Path):
    source = tmp_path / "latin1.txt"
    source.write_bytes("Café au lait\nCrème brûlée\n".encode("latin-1"))
    before = files_of(cli.db)

    assert_error(cli("import", str(source)), "is not UTF-8 text")
    assert files_of(cli.db) == before


def test_a_file_saved_with_a_byte_order_mark_imports_without_it(cli: Cli, tmp_path: Path):
    """review15a TW10: Windows Notepad starts UTF-8 text with a byte order mark; it went into
    the first memory (an invisible character no search or `forget` by text could match) or
    made a JSON-lines file's first line "bad"."""
    lines = tmp_path / "notepad.jsonl"
    lines.write_bytes(
        b"\xef\xbb\xbf"
        + '{"content": "我的牙醫是陳醫師"}\n{"content": "I swim on Tuesdays"}\n'.encode()
    )
    text = tmp_path / "note.txt"
    text.write_bytes(b"\xef\xbb\xbf" + b"My locker is number 112\n")

    assert cli.ok("import", str(lines)).stdout.startswith("Imported 2 memories")
    cli.ok("add", "--file", str(text))
    assert sorted(cli.contents()) == [
        "I swim on Tuesdays",
        "My locker is number 112",
        "我的牙醫是陳醫師",
    ]


def test_a_big5_file_is_refused_with_how_to_convert_it(cli: Cli, tmp_path: Path):
    source = tmp_path / "big5.txt"
    source.write_bytes("我住在臺中市北區\n".encode("big5"))
    before = files_of(cli.db)

    assert_error(cli("import", str(source)), "is not UTF-8 text; nothing was imported")
    assert "iconv -f BIG5 -t UTF-8" in cli("import", str(source)).stderr
    assert files_of(cli.db) == before


# --- bad input: a one-line error and nothing changed ------------------------------------------


@pytest.mark.parametrize(
    ("args", "exit_code", "message"),
    [
        (["add", ""], 1, "Memory content is empty"),
        (["add", "  \n\t  "], 1, "Memory content is empty"),
        (["add", "x" * 8_001], 1, "8,001 characters long; the limit is 8,000"),
        (["add", "x", "--type", "rocket"], 2, "'rocket' is not one of"),
        (["add", "x", "--importance", "1.5"], 1, "importance must be between 0 and 1"),
        (["add", "x", "--importance", "-0.1"], 1, "importance must be between 0 and 1"),
        (["add", "x", "--importance", "high"], 2, "'high' is not a valid float"),
        (["add", "x", "--meta", "no-equals-sign"], 2, "is not KEY=VALUE"),
        (["recall", "x", "--limit", "0"], 1, "limit must be at least 1"),
        (["recall", "x", "--limit", "1001"], 1, "limit must be at most 1000"),
        (["recall", " "], 1, "The query is empty"),
        (["recall", "x", "--type", "rocket"], 2, "'rocket' is not one of"),
        (["list", "--limit", "0"], 2, "--limit"),
        (["list", "--offset", "-1"], 2, "--offset"),
        (["show", "01HZZZZZZZZZZZZZZZZZZZZZZZ"], 1, "No memory with id"),
        (["import", "no-such-file.jsonl"], 2, "No such file or directory"),
        (["--embedder", "word2vec", "list"], 1, "Unknown embedder 'word2vec'"),
        (["--user", "two words", "list"], 1, "Namespace 'two words' is not valid"),
        (["frobnicate"], 2, "No such command 'frobnicate'"),
        (["init"], 1, "There is no `localmind init`: a store is made the first time"),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(
    cli: Cli, args: list[str], exit_code: int, message: str
):
    with Memory.open(cli.db, PASSPHRASE) as memory:
        memory.remember("An existing memory")
    before = files_of(cli.db)

    assert_error(cli(*args), message, exit_code)

    assert files_of(cli.db) == before
    assert cli.contents() == ["An existing memory"]


def test_bad_input_does_not_create_a_store(tmp_path: Path):
    fresh = Cli(tmp_path / "fresh.db")

    assert_error(fresh("add", "   "), "Memory content is empty")
    assert_error(fresh("recall", "x", "--limit", "0"), "limit must be at least 1")
    assert_error(fresh("--embedder", "nonsense", "add", "x"), "Unknown embedder")
    assert_error(fresh("init"), "`localmind add")  # says how a store is made, makes none

    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args", [["list"], ["add", "a new memory"], ["recall", "x"], []])
def test_a_wrong_passphrase_is_refused_and_the_store_is_untouched(
    cli: Cli, seeded: dict[str, str], args: list[str]
):
    before = files_of(cli.db)

    assert_error(cli(*args, LOCALMIND_PASSPHRASE="not the passphrase"), "Wrong passphrase")

    assert files_of(cli.db) == before


def test_a_file_that_is_not_a_store_is_refused_and_left_alone(cli: Cli, tmp_path: Path):
    notes = tmp_path / "notes.txt"
    notes.write_text("my shopping list\n", encoding="utf-8")

    assert_error(cli("--db", str(notes), "list"), "is not a localmind store")
    assert_error(cli("--db", str(notes), "add", "x"), "is not a localmind store")

    assert notes.read_text(encoding="utf-8") == "my shopping list\n"
    assert sorted(p.name for p in tmp_path.glob("notes.txt*")) == ["notes.txt"]


def test_a_damaged_database_next_to_a_real_key_file_is_refused(cli: Cli, tmp_path: Path):
    damaged = tmp_path / "damaged.db"
    damaged.write_bytes(b"not an sqlite file at all " * 200)
    damaged.with_name("damaged.db.key").write_bytes(
        cli.db.with_name(cli.db.name + ".key").read_bytes()
    )
    before = files_of(damaged)

    assert_error(cli("--db", str(damaged), "list"), "is damaged")
    assert files_of(damaged) == before


def test_a_directory_is_not_a_store(cli: Cli, tmp_path: Path):
    folder = tmp_path / "folder"
    folder.mkdir()

    result = cli("--db", str(folder), "list")

    assert result.exit_code == 2
    assert "is a directory" in result.stderr.splitlines()[-1]
    assert list(folder.iterdir()) == []


# --- passwd -----------------------------------------------------------------------------------


def test_passwd_changes_the_passphrase_and_keeps_the_memories(cli: Cli, seeded: dict[str, str]):
    database_before = cli.db.read_bytes()

    result = cli("passwd", LOCALMIND_NEW_PASSPHRASE="a brand new passphrase")

    assert result.exit_code == 0, result.output
    changed, warning = result.stdout.strip().splitlines()
    assert changed == "Passphrase changed."
    assert warning.startswith("The old passphrase still opens old copies of this store")
    assert cli.db.read_bytes() == database_before  # only the key file is rewritten
    assert_error(cli("list"), "Wrong passphrase")
    renewed = Cli(cli.db, "a brand new passphrase")
    assert renewed.contents() == [HIKING, ENGINEER, RUST]
    assert renewed.json("recall", "编程")[0]["content"] == RUST


def test_passwd_with_a_wrong_old_passphrase_changes_nothing(cli: Cli, seeded: dict[str, str]):
    before = files_of(cli.db)

    result = cli(
        "passwd", LOCALMIND_PASSPHRASE="a wrong guess", LOCALMIND_NEW_PASSPHRASE="whatever"
    )

    assert_error(result, "Wrong passphrase")
    assert files_of(cli.db) == before
    assert cli.contents() == [HIKING, ENGINEER, RUST]


def test_passwd_help_says_where_a_script_gives_the_new_passphrase(cli: Cli):
    """review15b DV6: a script cannot answer the prompt, and nothing said how else to give it."""
    said = " ".join(cli.ok("passwd", "--help").stdout.split())
    assert "the new one from LOCALMIND_NEW_PASSPHRASE" in said


def test_passwd_refuses_an_empty_new_passphrase(cli: Cli, seeded: dict[str, str]):
    before = files_of(cli.db)

    assert_error(cli("passwd", LOCALMIND_NEW_PASSPHRASE="   "), "must not be empty")
    assert files_of(cli.db) == before


def test_passwd_without_a_store_says_so(tmp_path: Path):
    fresh = Cli(tmp_path / "nothing.db")

    assert_error(fresh("passwd", LOCALMIND_NEW_PASSPHRASE="new"), "No localmind store")
    assert list(tmp_path.iterdir()) == []


# --- reindex, first run, namespaces -----------------------------------------------------------


def test_reindex_reports_how_many_memories_and_recall_still_works(cli: Cli, seeded: dict[str, str]):
    result = cli.ok("reindex")

    assert result.stdout.strip() == "Re-embedded 3 memories."
    assert cli.json("recall", "编程")[0]["content"] == RUST
    assert cli.json("recall", "programming language")[0]["content"] == RUST
    assert cli.contents() == [HIKING, ENGINEER, RUST]


def test_the_first_add_creates_the_store_and_home_says_how_many_memories(tmp_path: Path):
    # The default location (the user data directory), whose folder is made as needed.
    data = tmp_path / "xdg" / "localmind"
    fresh = Cli(data / "memory.db")

    first = fresh.ok(
        "add", "I prefer tea over coffee", LOCALMIND_DB=None, XDG_DATA_HOME=str(tmp_path / "xdg")
    )

    assert "Created a new encrypted store" in first.stderr
    assert (data / "memory.db").is_file()
    assert (data / "memory.db.key").is_file()
    assert b"SQLite format" not in (data / "memory.db").read_bytes()[:100]

    second = fresh.ok()
    assert "1 memory in" in second.stdout
    assert "Created" not in second.stderr


def test_memories_of_another_user_are_not_visible(cli: Cli, seeded: dict[str, str]):
    alice_id = cli.add("Alice keeps her diary in a blue notebook", LOCALMIND_USER="alice")

    assert "Alice" not in " ".join(cli.contents())
    assert all("Alice" not in r["content"] for r in cli.json("recall", "diary notebook"))
    assert_error(cli("show", alice_id), "No memory with id")
    assert_error(cli("forget", alice_id), "No memory with id")

    alices = cli.json("--user", "alice", "list")
    assert [(m["content"], m["namespace"]) for m in alices] == [
        ("Alice keeps her diary in a blue notebook", "alice")
    ]
    everything = ("--threshold", "0")
    assert [r["id"] for r in cli.json("--user", "alice", "recall", "编程", *everything)] == [
        alice_id
    ]
    stats = cli.json("stats")
    assert stats["active"] == 3
    assert stats["namespaces"] == {"me": 3, "alice": 1}


# --- the installed command, in a real process -------------------------------------------------


def run_installed(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    command = Path(sys.executable).with_name("localmind")
    assert command.is_file(), (
        f"the localmind console script is not installed next to {sys.executable}"
    )
    environment = {k: v for k, v in os.environ.items() if not k.startswith("LOCALMIND_")}
    environment.update(env)
    return subprocess.run(
        [str(command), *args],
        env=environment,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.slow
def test_without_a_passphrase_or_a_terminal_it_fails_and_creates_nothing(tmp_path: Path):
    db = tmp_path / "memory.db"

    result = run_installed("add", "hello", env={"LOCALMIND_DB": str(db)})

    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        "Error: No passphrase: set LOCALMIND_PASSPHRASE or run localmind in a terminal to be asked."
    ]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_the_installed_command_remembers_and_recalls(tmp_path: Path):
    env = {"LOCALMIND_DB": str(tmp_path / "memory.db"), "LOCALMIND_PASSPHRASE": PASSPHRASE}

    source = tmp_path / "memories.txt"
    source.write_text(f"{RUST}\n{HIKING}\n", encoding="utf-8")

    imported = run_installed("import", str(source), "--type", "semantic", env=env)
    assert imported.returncode == 0, imported.stderr
    assert "Imported 2 memories" in imported.stdout
    assert "Created a new encrypted store" in imported.stderr

    recalled = run_installed("recall", "编程", "--json", env=env)

    assert recalled.returncode == 0, recalled.stderr
    results = json.loads(recalled.stdout)
    assert [r["content"] for r in results] == [RUST]  # the unrelated hike is left out
    assert results[0]["type"] == "semantic"
    assert set(BREAKDOWN_FACTORS) <= set(results[0]["breakdown"])

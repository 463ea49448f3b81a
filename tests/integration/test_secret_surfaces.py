"""Where a secret (or a forgotten text) could still show or stay, surface by surface (leak11,
issue 13 item 4): the CLI's review list, what `add` says, and every file the commands leave
on disk. Real store, real embedder, the real CLI in-process."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

from localmind import Memory
from localmind.cli.memories import TYPED_SECRET
from localmind.cli.review import HIDDEN
from localmind.lifecycle import Resolution
from localmind.records import KEPT_WITH, content_hash
from sync.folder import init_folder, sync_once
from tests.cli_support import Cli
from tests.conftest import FAST_KDF, PASSPHRASE
from tests.integration.test_forget_traces import table_rows
from tests.ollama_server import FakeOllama

DOOR, DOOR_NEW = "The door code of the flat is 7391#", "The door code of the flat changed to 2280#"
PIN = "我的银行卡PIN是4821"
RENT, RENT_NEW = "My rent is 1200 euros a month", "My rent went up to 1450 euros a month"
RENT_LATER = "My rent is 1300 euros a month"
BERLIN, LISBON = "I live in Berlin", "We moved to Lisbon last spring, so I live in Lisbon now"
DIGITS = ("7391", "2280")


@pytest.mark.slow  # a second: four adds, five commands
def test_cli_conflicts_shows_a_secret_pair_only_with_reveal(cli: Cli) -> None:
    """The review list shows every pending pair at once: a secret side is dots (and the
    reason, which may quote it, waits too) unless --reveal, in text and JSON alike."""
    for text in (RENT, RENT_NEW, DOOR, DOOR_NEW):
        cli.ok("add", "-", input=text)
    listed = cli.ok("conflicts").stdout
    assert not any(d in listed for d in DIGITS)
    assert listed.count(HIDDEN) == 2 and "(with the texts: --reveal)" in listed
    assert RENT_NEW in listed and "why  may contradict" in listed  # a plain pair as it was
    document = cli.json("conflicts")
    assert not any(d in str(document) for d in DIGITS)
    secret = next(c for c in document if c["existing"]["secret"])
    assert secret["existing"]["content"] is None and secret["reason"] is None
    assert document[0]["existing"]["content"] == RENT

    revealed = cli.ok("conflicts", "--reveal").stdout
    assert DOOR in revealed and DOOR_NEW in revealed and HIDDEN not in revealed
    assert DOOR in str(cli.json("conflicts", "--reveal"))
    settled = cli.ok("resolve", str(secret["id"]), "take-new").stdout
    assert "is now version 2 — (a secret: `localmind show` shows it)" in settled
    assert not any(d in settled for d in DIGITS)


def test_add_names_a_pending_secret_without_its_text(cli: Cli) -> None:
    for text in (DOOR, DOOR_NEW):
        cli.ok("add", "-", input=text)
    again = cli.ok("add", "-", input=DOOR_NEW)  # told again: "it is in pending conflict #1"
    assert "pending conflict #1" in again.stdout and "(a secret)" in again.stdout
    assert "7391" not in again.output


@pytest.mark.slow  # seconds: the first Chinese text loads jieba's dictionary
def test_a_secret_typed_on_the_command_line_is_said_to_be_in_the_shell_history(
    cli: Cli,
) -> None:
    typed = cli.ok("add", PIN)
    assert "looks like a secret" in typed.stderr and TYPED_SECRET in typed.stderr
    piped = cli.ok("add", "-", input=DOOR + "\n")
    assert "looks like a secret" in piped.stderr and TYPED_SECRET not in piped.stderr
    assert DOOR in cli.contents()  # read whole from standard input, the line's end dropped
    plain = cli.ok("add", RENT)
    assert "history" not in plain.output
    assert "stays in your shell's history: give - instead" in " ".join(
        cli.ok("add", "--help").stdout.split()
    )


def _files_holding(root: Path, fragments: tuple[str, ...]) -> list[str]:
    paths = [root] if root.is_file() else sorted(root.rglob("*"))
    return [
        f"{fragment!r} in {path}"
        for path in paths
        if path.is_file()
        for fragment in fragments
        if fragment.encode() in path.read_bytes()
    ]


FORGOTTEN = "My gym buddy's nickname is zqxwvplor"  # an ordinary memory, forgotten


@pytest.mark.slow  # a dozen commands, a sync folder and a backup
def test_no_file_the_commands_leave_holds_a_secret_or_a_forgotten_text_in_the_clear(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every file under the store's folder, the user's cache, configuration and temporary
    folders, the sync folder and a backup, after the commands a person runs: no secret and
    no forgotten text in plain text (FTS's CJK bigrams included), nor in what the commands
    printed for an assistant or the screen (context, profile, stats, list, conflicts), nor in
    what a failed export left."""
    from sync import cli as sync_cli  # registers `localmind sync`

    assert sync_cli.sync_group is not None
    for name in ("cache", "config", "state", "tmp"):
        (tmp_path / name).mkdir()
    env = {f"XDG_{n.upper()}_HOME": str(tmp_path / n) for n in ("cache", "config", "state")}
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    env |= {"TMPDIR": str(tmp_path / "tmp"), "SQLITE_TMPDIR": str(tmp_path / "tmp")}
    printed = []

    def run(*args: str, input: str | None = None) -> str:
        result = cli.ok(*args, input=input, **env)
        printed.append(result.output)
        return result.output

    run("add", "-", input=DOOR)
    run("add", "-", input=DOOR_NEW)  # a pending conflict between two secrets
    run("add", "-", input=PIN)
    run("add", RENT, "--type", "semantic")
    forgotten = cli.add(FORGOTTEN, **env)
    run("recall", "the door code of the flat")
    run("sync", "init", str(tmp_path / "Sync"))
    run("sync", "now")
    run("forget", forgotten)
    run("sync", "now")
    run("backup", str(tmp_path / "backup.db"))
    for where in (tmp_path / "missing" / "x.jsonl", tmp_path / "tmp"):  # no folder; a folder
        failed = cli("export", "-o", str(where), **env)
        assert failed.exit_code != 0 and not (tmp_path / "missing").exists()
    shown = [run(*c) for c in (("context", "door code"), ("profile",), ("stats",), ("list",))]
    shown += [run("conflicts"), run("recall", "gym buddy nickname")]

    secrets = ("7391", "2280", "4821", "银行", "行卡", "door code")
    # whole texts and made-up words everywhere; the caches (the model's, jieba's in the
    # temporary folder) are the packages' words and tables, which hold "银行" and hex digits
    whole = ("7391#", "2280#", "PIN是4821", "door code of", "zqxwvplor", "gym buddy")
    assert _files_holding(tmp_path, whole) == []
    ours = [p for p in tmp_path.iterdir() if p.name not in ("cache", "tmp")]
    assert [hit for path in ours for hit in _files_holding(path, secrets)] == []
    for output in shown[:3] + shown[4:5]:  # what an assistant is sent; the review list
        assert not any(s in output for s in secrets), output
    assert "7391" in shown[3]  # the person's own list shows them (so the check has teeth)
    assert not any("zqxwvplor" in output for output in printed[printed.index(shown[0]) :])
    assert {p.name for p in (tmp_path / "Sync").rglob("*") if p.is_file()}  # it was written


def test_a_forget_leaves_neither_the_text_nor_its_hash_in_any_table(
    open_memory: Callable[..., Memory], tmp_path: Path
) -> None:
    """This session's tables and columns too: a forgotten memory's texts (current, earlier
    versions, one a keep-old set aside for it) leave memory_versions and its hashes,
    set_aside, conflicts, events and the sync rows; a keep-both partner's note keeps only its
    id (kept_with). A hash is a trace: whoever guesses a short text can confirm it."""
    memory = open_memory()
    rent = memory.remember(RENT, "semantic")
    raised = memory.remember_explained(RENT_NEW, "semantic")
    assert raised.conflict_id is not None
    memory.resolve_conflict_explained(raised.conflict_id, Resolution.KEEP_OLD, None)
    memory.update(rent.id, content=RENT_LATER)
    berlin = memory.remember(BERLIN, "semantic")
    moved = memory.remember_explained(LISBON, "semantic")
    assert moved.conflict_id is not None
    memory.resolve_conflict_explained(moved.conflict_id, Resolution.KEEP_BOTH, None)
    init_folder(memory, tmp_path / "Sync", PASSPHRASE, FAST_KDF)
    sync_once(memory, tmp_path / "Sync")
    texts = {RENT: rent.id, RENT_NEW: rent.id, RENT_LATER: rent.id, BERLIN: berlin.id}
    before = {text: _traces(memory, text) for text in texts}
    assert "memory_versions" in before[RENT] and "memories" in before[RENT_LATER]
    assert "set_aside" in before[RENT_NEW]  # only its hash: the text was forgotten
    assert any(KEPT_WITH in row for row in table_rows(memory)["events"])  # the keep-both note

    memory.forget(rent.id)
    memory.forget(berlin.id)
    sync_once(memory, tmp_path / "Sync")

    assert [text for text in texts if _traces(memory, text)] == []
    assert memory.get(moved.record.id).content == LISBON  # the partner is whole


def _traces(memory: Memory, text: str) -> set[str]:
    """The tables with a row that holds ``text`` or its hash."""
    found = content_hash(text)
    return {
        table
        for table, rows in table_rows(memory).items()
        for row in rows
        if text in row or found in row
    }


@pytest.mark.slow  # the chat against the model server
def test_chat_show_memories_hides_a_recalled_secret(cli: Cli, ollama_server: FakeOllama) -> None:
    """As the app's sidebar does: the model never read it, and the screen may be shared."""
    ollama_server.when_schema_has("facts", {"facts": []})
    ollama_server.when(lambda body: bool(body.get("stream")), "Look it up in localmind.")
    cli.ok("add", "-", input="My bank PIN is 4821")
    cli.ok("add", "My bank is the Sparkasse on Kastanienallee")
    result = cli.ok(
        "chat",
        "--show-memories",
        input="Which bank am I with, and what is my bank PIN?\n/quit\n",
        OLLAMA_HOST=ollama_server.host,
    )
    assert "recalled" in result.stderr and "Sparkasse" in result.stderr
    assert "(a secret: localmind show" in result.stderr and "4821" not in result.output


@pytest.mark.slow  # a second: six commands
def test_a_correction_and_a_merge_read_their_text_from_standard_input(cli: Cli) -> None:
    """`-` for the new text of `feedback ID correct` and `resolve ID merge --text`, as for
    `add`: a changed code typed there stays out of the shell's history."""
    for text in (DOOR, DOOR_NEW):
        cli.ok("add", "-", input=text)
    [door] = [r["id"] for r in cli.json("list") if r["content"] == DOOR]
    cli.ok("feedback", door, "correct", "-", input="The door code of the flat is 7392#\n")
    assert "The door code of the flat is 7392#" in cli.contents()
    merged = "The door code of the flat is 5555#, since May"
    cli.ok("resolve", door, "merge", "--text", "-", input=merged)
    assert merged in cli.contents() and DOOR_NEW not in cli.contents()


def test_an_error_names_the_line_not_the_secret_on_it(cli: Cli, tmp_path: Path) -> None:
    """Bad input is refused in words that do not quote it: the error goes to a terminal, a log
    or a bug report."""
    lines = tmp_path / "notes.jsonl"
    lines.write_text(
        '{"content": "my bank PIN is 4821", "importance": 7}\n'
        '{"content": "my door code is 7391#"\n'
        '{"content": "my bank PIN is 4821", "type": "short_term"}\n'
        '{"content": "my bank PIN is 4821", "created_at": 99999999999}\n',
        encoding="utf-8",
    )
    refused = cli("import", str(lines))
    assert refused.exit_code != 0 and "notes.jsonl:1" in refused.output
    assert "4821" not in refused.output and "7391" not in refused.output
    assert cli.contents() == []
    too_much = cli("add", "-", "--importance", "3", input="my bank PIN is 4821")
    assert too_much.exit_code != 0 and "4821" not in too_much.output

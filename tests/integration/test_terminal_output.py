"""Text from memories is data, never control: escape sequences in a memory reach the terminal
as visible escapes, through every command that prints memory text (issue 18 item 7)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from localmind import Memory
from localmind.terminal import printable
from tests.cli_support import Cli
from tests.conftest import FAST_KDF, PASSPHRASE
from tests.ollama_server import FakeOllama

# An OSC 52 clipboard write, a screen clear, an 8-bit CSI, a bidi override, a carriage return
# that would overwrite the line, and a bell.
EVIL = (
    "My note \x1b]52;c;cm0gLXJmIH4=\x07 then \x1b[2J\x1b[H cleared \x9b31m red "
    "\u202eevil\u202c back\rfake line \x7f end"
)
RAW = ("\x1b", "\x07", "\x9b", "\u202e", "\u202c", "\r", "\x7f")


def assert_inert(output: str) -> None:
    for char in RAW:
        assert char not in output, repr(char)
    assert "\\u001b]52;c;cm0gLXJmIH4=\\u0007" in output  # shown, not obeyed


def test_printable_escapes_controls_and_keeps_text_newlines_and_tabs() -> None:
    assert printable("a\tb\nc 用户 é") == "a\tb\nc 用户 é"
    assert printable("a\tb\nc", newlines=False) == "a\\u0009b\\u000ac"
    assert printable("\x1b[2J\x9b\u202e\u2066\u2028") == "\\u001b[2J\\u009b\\u202e\\u2066\\u2028"
    # JSON reads the escapes back as the characters: JSON output stays exact.
    assert json.loads(printable(json.dumps(EVIL, ensure_ascii=False))) == EVIL


@pytest.fixture
def evil_store(store: Path) -> tuple[Cli, str]:
    with Memory.open(store, PASSPHRASE, kdf=FAST_KDF) as memory:
        record = memory.remember(EVIL)
        memory.update(record.id, content=EVIL + " (edited)")
        memory.remember("My rent is 1200 euros a month \x1b[5m")
        memory.remember("My rent went up to 1450 euros a month \x1b]0;pwned\x07")
    return Cli(store), record.id


@pytest.mark.parametrize(
    "command",
    [
        ["list"],
        ["list", "--json"],
        ["recall", "my note cleared red"],
        ["recall", "my note cleared red", "--json"],
        ["show", "ID"],
        ["show", "ID", "--json"],
        ["history", "ID"],
        ["history", "ID", "--json"],
        ["export"],
        ["export", "--format", "markdown"],
    ],
    ids=lambda c: " ".join(c),
)
def test_escape_sequences_in_memories_are_printed_as_text(
    evil_store: tuple[Cli, str], command: list[str]
) -> None:
    cli, memory_id = evil_store
    result = cli.ok(*[memory_id if part == "ID" else part for part in command])
    assert_inert(result.stdout)
    assert not any(char in result.stderr for char in RAW)


def test_json_output_still_holds_the_exact_text(evil_store: tuple[Cli, str]) -> None:
    cli, memory_id = evil_store
    assert cli.json("show", memory_id)["content"] == EVIL + " (edited)"
    exported = [json.loads(line) for line in cli.ok("export").stdout.splitlines()]
    # (an export's lines after the memories carry their pending conflicts: no "content")
    assert EVIL + " (edited)" in [item.get("content") for item in exported]


def test_conflicts_print_both_memories_as_text(evil_store: tuple[Cli, str]) -> None:
    cli, _ = evil_store
    output = cli.ok("conflicts").stdout
    assert "1450 euros" in output and "\\u001b]0;pwned\\u0007" in output
    assert "\x1b" not in output and "\x07" not in output


def test_chat_prints_the_model_reply_and_recalled_memories_as_text(
    evil_store: tuple[Cli, str], ollama_server: FakeOllama
) -> None:
    cli, _ = evil_store
    ollama_server.when_schema_has("facts", {"facts": [{"content": "Likes \x1b]0;title\x07 tea"}]})
    ollama_server.when_schema_has("relation", {"relation": "compatible", "reason": "-"})
    ollama_server.when(
        lambda body: bool(body.get("stream")), "Sure \x1b]52;c;cm0gLXJmIH4=\x07 done \u202eevil"
    )
    result = cli.ok(
        "chat",
        "--show-memories",
        input="What did my note say?\n/quit\n",
        OLLAMA_HOST=ollama_server.host,
    )
    assert_inert(result.stdout)
    assert not any(char in result.stderr for char in RAW)
    assert "Likes \\u001b]0;title\\u0007 tea" in result.stderr

"""Where a memory came from (``source``): set by the front end that wrote it, kept with the
memory, and a filter of ``list`` and ``recall`` (how it travels and is exported:
test_declared_fields.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mcp import Client

from localmind import Memory
from localmind.errors import InvalidInput
from localmind.mcp.front import FirstMessage
from localmind.mcp.server import build_server
from localmind.writing import NewMemory
from tests.cli_support import Cli
from tests.integration.test_mcp_front import initialize


def test_a_memory_keeps_the_source_it_was_written_from(memory: Memory) -> None:
    assert memory.remember("I like green tea").source == ""  # the library alone names none
    memory.source = "cli"
    tea = memory.remember("I drink sencha every morning")
    memory.source = "mcp:Claude Desktop"
    cello = memory.remember("I play the cello on Sundays")
    [imported] = memory.remember_many([NewMemory("I was born in Porto", source="import:notes.txt")])
    assert memory.get(tea.id).source == "cli"
    assert memory.get(cello.id).source == "mcp:Claude Desktop"
    assert memory.get(imported.id).source == "import:notes.txt"

    def listed(source: str) -> list[str]:
        return [record.content for record in memory.list_memories(source=source)]

    assert listed("cli") == ["I drink sencha every morning"]
    assert listed("mcp") == ["I play the cello on Sundays"]  # every MCP client
    assert listed("mcp:Claude Desktop") == ["I play the cello on Sundays"]
    assert listed("mcp:Claude") == []  # a source's kind, not a prefix of its name
    assert listed("import") == ["I was born in Porto"]
    assert memory.count(source="mcp") == 1 and memory.count(source="import:other.txt") == 0

    everything = [r.memory.content for r in memory.recall("what do I drink or play?", 5)]
    assert "I play the cello on Sundays" in everything
    from_cli = memory.recall("what do I drink or play?", 5, source="cli")
    assert [r.memory.content for r in from_cli] == ["I drink sencha every morning"]


@pytest.mark.parametrize("bad", ["line\nbreak", "x" * 201, 7])
def test_a_bad_source_is_refused_and_nothing_is_written(memory: Memory, bad: object) -> None:
    with pytest.raises(InvalidInput, match="source must be one printable line"):
        memory.source = bad  # type: ignore[assignment]
    with pytest.raises(InvalidInput, match="source must be one printable line"):
        memory.remember_many([NewMemory("I like tea", source=bad)])  # type: ignore[arg-type]
    with pytest.raises(InvalidInput, match="source must be one printable line"):
        memory.list_memories(source=bad)  # type: ignore[arg-type]
    assert memory.count() == 0


def test_the_command_line_names_itself_and_the_file_it_imported(cli: Cli, tmp_path: Path) -> None:
    added = cli.add("I drink sencha every morning")
    notes = tmp_path / "notes.txt"
    notes.write_text("I was born in Porto\nMy sister lives in Lyon\n", encoding="utf-8")
    cli.ok("import", str(notes))

    assert cli.json("show", added)["source"] == "cli"
    assert "source: cli" in cli.ok("show", added).stdout
    assert cli.contents("--source", "import") == ["My sister lives in Lyon", "I was born in Porto"]
    assert cli.contents("--source", "import:notes.txt") == cli.contents("--source", "import")
    assert cli.contents("--source", "cli") == ["I drink sencha every morning"]
    assert cli.ok("list", "--source", "tui").stdout.strip() == "No memories from tui."
    found = cli.json("recall", "where was I born?", "--source", "cli", "--threshold", "0")
    assert [item["content"] for item in found] == ["I drink sencha every morning"]
    refused = cli("list", "--source", "two\nlines")
    assert refused.exit_code != 0 and "source must be one printable line" in refused.output


async def test_an_assistant_s_memories_name_its_client(memory: Memory) -> None:
    async with Client(build_server(memory, client="Claude Desktop")) as client:
        result = await client.call_tool("remember", {"content": "I prefer green tea"})
    [record] = memory.list_memories()
    assert not result.is_error and record.source == "mcp:Claude Desktop"
    # a client's name is not ours to trust: one printable line, cut to fit
    build_server(memory, client="evil\n\x1b[31mname" + "x" * 500)
    assert memory.source.startswith("mcp:evil[31mname") and len(memory.source) == 200


def test_the_client_name_comes_from_its_first_message() -> None:
    line = json.dumps(initialize("2025-06-18")).encode() + b"\n"
    assert FirstMessage(line).client == "a client"
    assert FirstMessage(b"").client is None

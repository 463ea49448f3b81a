"""Where a memory came from (``source``): set by the front end that wrote it, kept with the
memory, and a filter of ``list`` and ``recall`` (how it travels and is exported:
test_declared_fields.py)."""

from __future__ import annotations

import pytest

from localmind import Memory
from localmind.errors import InvalidInput
from localmind.writing import NewMemory


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

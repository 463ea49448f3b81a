"""One limit on how deep metadata nests, enforced where it comes in (add, update, import, sync
apply), and small enough that nothing later (export, sync segments) can fail on what passed
(issue 17, item 13)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from localmind import InvalidInput, Memory
from localmind.config import Limits
from sync import codec
from sync import folder as sync_folder
from sync.folder import import_new, init_folder, join_folder, sync_once
from tests.cli_support import Cli
from tests.conftest import FAST_KDF, PASSPHRASE, FakeClock
from tests.fuzz.test_fuzz_sync import add_event

DEPTH = Limits().max_metadata_depth


def nested(depth: int) -> dict[str, Any]:
    """An object ``depth`` levels deep (the object itself is level 1)."""
    value: dict[str, Any] = {"leaf": 1}
    for _ in range(depth - 1):
        value = {"n": value}
    return value


def nested_json(depth: int) -> str:
    """``nested(depth)`` as JSON text, written out without recursion."""
    return '{"n": ' * (depth - 1) + '{"leaf": 1}' + "}" * (depth - 1)


def test_add_and_update_refuse_deeper_metadata_and_change_nothing(memory: Memory) -> None:
    with pytest.raises(InvalidInput, match=f"nested more than {DEPTH} levels"):
        memory.remember("My favourite tea is green tea", metadata=nested(DEPTH + 1))
    assert memory.list_memories() == []
    with pytest.raises(InvalidInput, match=f"nested more than {DEPTH} levels"):
        memory.remember("My favourite tea is green tea", metadata=nested(975))
    tea = memory.remember("My favourite tea is green tea", metadata=nested(DEPTH))
    with pytest.raises(InvalidInput, match=f"nested more than {DEPTH} levels"):
        memory.update(tea.id, metadata={"list": [nested(DEPTH)]})
    assert memory.get(tea.id).metadata == nested(DEPTH)


def test_import_reports_the_line_with_the_reason(cli: Cli, tmp_path: Path) -> None:
    source = tmp_path / "memories.jsonl"
    lines = [
        f'{{"content": "My favourite tea is green tea", "metadata": {nested_json(DEPTH)}}}',
        f'{{"content": "I play the cello on Sundays", "metadata": {nested_json(DEPTH + 1)}}}',
        f'{{"content": "The cat is called Miso", "metadata": {nested_json(975)}}}',
    ]
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = cli.skipping("import", str(source))
    assert f"{source}:2: skipped: metadata is nested more than {DEPTH} levels" in result.stderr
    assert f"{source}:3: skipped: " in result.stderr and "nested" in result.stderr
    assert "Imported 1 memor" in result.stdout


def test_the_deepest_metadata_allowed_travels_and_deeper_is_refused_on_arrival(
    tmp_path: Path,
) -> None:
    shared = tmp_path / "Sync"
    with (
        Memory.open(tmp_path / "a.db", PASSPHRASE, kdf=FAST_KDF, clock=FakeClock()) as a,
        Memory.open(tmp_path / "b.db", PASSPHRASE, kdf=FAST_KDF, clock=FakeClock()) as b,
    ):
        init_folder(a, shared, PASSPHRASE, FAST_KDF)
        join_folder(b, shared, PASSPHRASE)
        tea = a.remember("My favourite tea is green tea", metadata=nested(DEPTH))
        sync_once(a, shared)
        assert sync_once(b, shared)[1].skipped == []
        assert b.get(tea.id).metadata == nested(DEPTH)
        # A device holding the key that writes deeper metadata anyway: refused on arrival.
        stranger = "01JSTRANGER000000000000000"
        (shared / stranger).mkdir()
        key = sync_folder.sync_key(a)
        for number, depth in ((1, DEPTH + 1), (2, 975)):
            event = add_event(stranger, number, f"deep {depth}")
            event["payload"]["metadata"] = "METADATA"
            line = json.dumps(event).replace('"METADATA"', nested_json(depth))
            plain = (line + "\n").encode()
            blob = codec.seal_plain(key, codec.segment_aad(stranger, number), plain)
            (shared / stranger / codec.segment_name(number)).write_bytes(blob)
        report = import_new(b, shared)
        assert report.segments == 0 and len(report.skipped) == 2
        assert all("nested" in why for _, why in report.skipped), report.skipped
        assert [m.content for m in b.list_memories()] == ["My favourite tea is green tea"]

"""Small things a new user noticed (issue 13, import9 item 3): an empty context says so, in the
question's language; times are shown in the computer's own zone, named; an export carries
readable ISO 8601 dates beside its exact seconds, and an import reads either (and old exports
without them). The real CLI, MCP server and encrypted store."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from localmind import Memory
from localmind.profile import NOTHING_REMEMBERED
from tests.cli_support import Cli
from tests.conftest import FAST_KDF, PASSPHRASE

# 2026-05-28 20:26:40 UTC: 04:26 the next day in Shanghai.
MOMENT = 1_780_000_000.0


@pytest.mark.slow  # (a first Chinese question loads jieba: seconds)
def test_a_context_with_nothing_to_give_says_so_in_the_language_asked(cli: Cli) -> None:
    assert cli.ok("context", "what should I cook tonight?").stdout == (
        NOTHING_REMEMBERED["en"] + "\n"
    )
    assert cli.ok("context", "我今晚该做什么菜？").stdout == NOTHING_REMEMBERED["zh"] + "\n"
    cli.add("I am vegetarian")
    assert NOTHING_REMEMBERED["en"] not in cli.ok("context", "what should I cook tonight?").stdout


@pytest.mark.slow  # (the MCP client's start: seconds)
async def test_the_mcp_context_tool_says_so_too(store: Path) -> None:
    from mcp import Client

    from localmind.mcp.server import build_server
    from tests.integration.test_mcp import call

    with Memory.open(store, PASSPHRASE, kdf=FAST_KDF) as memory:
        async with Client(build_server(memory)) as client:
            said = await call(client, "context", query="what should I cook tonight?")
    assert said == NOTHING_REMEMBERED["en"]


@pytest.fixture
def in_shanghai(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TZ", "Asia/Shanghai")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def dated(cli: Cli, tmp_path: Path, text: str, when: object) -> str:
    source = tmp_path / "dated.jsonl"
    source.write_text(json.dumps({"content": text, "created_at": when}) + "\n", encoding="utf-8")
    cli.ok("import", str(source))
    [item] = [item for item in cli.json("list") if item["content"] == text]
    return str(item["id"])


def test_list_and_show_print_times_in_the_local_zone_and_name_it(
    cli: Cli, tmp_path: Path, in_shanghai: None
) -> None:
    assert os.environ["TZ"] == "Asia/Shanghai"
    memory_id = dated(cli, tmp_path, "I moved to Shanghai", MOMENT)

    assert "created: 2026-05-29 04:26 CST" in cli.ok("show", memory_id).stdout
    assert "2026-05-29 04:26 CST  I moved to Shanghai" in cli.ok("list").stdout


def test_an_export_gives_iso_dates_and_an_import_reads_them_or_old_exports_without(
    cli: Cli, tmp_path: Path
) -> None:
    memory_id = dated(cli, tmp_path, "I moved to Shanghai", MOMENT + 0.25)
    cli.ok("feedback", memory_id, "correct", "I moved to Shanghai in May")
    [line] = cli.ok("export").stdout.splitlines()
    document = json.loads(line)
    assert document["created_at"] == MOMENT + 0.25
    assert document["created_at_iso"] == "2026-05-28T20:26:40.250000Z"
    assert document["updated_at_iso"].endswith("Z")
    assert document["history"][0]["at_iso"].endswith("Z")

    only_iso = {k: v for k, v in document.items() if k not in ("created_at", "updated_at")}
    old = {k: v for k, v in document.items() if not k.endswith("_iso")}
    old["history"] = [{k: v for k, v in h.items() if k != "at_iso"} for h in old["history"]]
    for name, written in (("iso", only_iso), ("old", old)):
        other = Cli(tmp_path / f"{name}.db")
        Memory.open(other.db, PASSPHRASE, kdf=FAST_KDF).close()
        source = tmp_path / f"{name}.jsonl"
        source.write_text(json.dumps(written) + "\n", encoding="utf-8")
        assert other.ok("import", str(source)).stdout.startswith("Imported 1 memory")
        restored = other.json("show", memory_id)
        assert restored["created_at"] == MOMENT + 0.25, name
        # (seconds restore exactly; ISO 8601 to the microsecond)
        exact = document["updated_at"]
        assert restored["updated_at"] == (
            exact if name == "old" else pytest.approx(exact, abs=1e-6)
        )
        assert restored["content"] == "I moved to Shanghai in May"

"""export and import: a JSON-lines round trip restores memories exactly; Markdown reads well."""

from __future__ import annotations

import json
from pathlib import Path

from localmind import Memory
from tests.cli_support import Cli
from tests.conftest import FAST_KDF, PASSPHRASE


def fill(cli: Cli) -> dict[str, str]:
    ids = {
        "java": cli.add("I like Java", "--type", "semantic"),
        "trip": cli.add("Went to Kyoto in April 2025", "--type", "episodic"),
        "zh": cli.add("用户喜欢 Rust 编程语言", "--type", "semantic", "--importance", "0.9"),
    }
    cli.ok("feedback", ids["java"], "correct", "I now prefer Go")
    cli.ok("feedback", ids["zh"], "confirm")
    return ids


def test_jsonl_export_then_import_restores_ids_versions_history_and_confidence(
    cli: Cli, tmp_path: Path
) -> None:
    ids = fill(cli)
    before = {item["id"]: item for item in cli.json("list")}
    exported = cli.ok("export")
    assert "NOT encrypted" in exported.stderr
    lines = [json.loads(line) for line in exported.stdout.splitlines()]
    assert {line["id"] for line in lines} == set(ids.values())

    dump = tmp_path / "memories.jsonl"
    dump.write_text(exported.stdout, encoding="utf-8")
    other = tmp_path / "other.db"
    Memory.open(other, PASSPHRASE, kdf=FAST_KDF).close()
    fresh = Cli(other)
    result = fresh.ok("import", str(dump))
    assert "Imported 3 memories" in result.stdout

    after = {item["id"]: item for item in fresh.json("list")}
    for memory_id, item in before.items():
        for field in (
            "content",
            "type",
            "version",
            "confidence",
            "importance",
            "created_at",
            "updated_at",
            "metadata",
            "pinned",
        ):
            assert after[memory_id][field] == item[field], field
    history = fresh.json("history", ids["java"])
    assert [(v["version"], v["content"], v["reason"]) for v in history["earlier"]] == [
        (1, "I like Java", "correct")
    ]
    # Searchable again, in both languages.
    assert fresh.json("recall", "编程")[0]["id"] == ids["zh"]
    assert fresh.json("recall", "Go")[0]["id"] == ids["java"]

    again = fresh.ok("import", str(dump))
    assert "3 already present" in again.stdout
    assert len(fresh.json("list")) == 3


def test_damaged_export_lines_are_reported_and_the_rest_restored(cli: Cli, tmp_path: Path) -> None:
    fill(cli)
    lines = cli.ok("export").stdout.splitlines()
    broken = json.loads(lines[0])
    broken["confidence"] = 7
    lines[0] = json.dumps(broken)
    dump = tmp_path / "memories.jsonl"
    dump.write_text("\n".join(lines) + "\n", encoding="utf-8")
    other = tmp_path / "other.db"
    Memory.open(other, PASSPHRASE, kdf=FAST_KDF).close()
    result = Cli(other).skipping("import", str(dump))
    assert "memories.jsonl:1: skipped: confidence must be between 0 and 1" in result.stderr
    assert "Imported 2 memories" in result.stdout


def test_markdown_export_to_a_private_file(cli: Cli, tmp_path: Path) -> None:
    fill(cli)
    target = tmp_path / "memories.md"
    cli.ok("export", "--format", "markdown", "--output", str(target))
    text = target.read_text(encoding="utf-8")
    assert text.startswith("# Memories of me")
    assert "## Semantic (2)" in text and "## Episodic (1)" in text
    assert "- I now prefer Go" in text and "v1 (correct): I like Java" in text
    assert "用户喜欢 Rust 编程语言" in text
    assert target.stat().st_mode & 0o777 == 0o600

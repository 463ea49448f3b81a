"""Import files, hostile: random bytes, invalid UTF-8, truncated and wrongly typed JSON lines,
huge numbers and strings, NUL bytes, deep nesting, tampered export lines.

The contract (``localmind import``): a file that is not UTF-8 is refused whole; otherwise every
bad line is reported with its number and skipped, and the good lines are imported; a file with
no good line is an error that changes nothing. Whatever is imported can be shown and exported
afterwards. The library's ``remember_many`` is all-or-nothing: one bad item stops the call
before anything is written.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import event, example, given
from hypothesis import strategies as st

from localmind import InvalidInput, Memory, NewMemory
from localmind.importing import BadLine, read_lines
from localmind.transfer import EXPORT_FORMAT
from tests.cli_support import Cli
from tests.conftest import FAST_KDF, PASSPHRASE
from tests.fuzz.support import (
    budget,
    deeply_nested,
    fingerprint,
    hostile_text,
    json_values,
    numbers,
    still_usable,
)

FIELDS = ["content", "type", "importance", "metadata", "created_at", "time", "format", "other"]
EXPORT_FIELDS = [
    "id",
    "content",
    "type",
    "metadata",
    "importance",
    "confidence",
    "access_count",
    "created_at",
    "updated_at",
    "last_accessed",
    "expires_at",
    "version",
    "status",
    "pinned",
    "history",
]
VALID_EXPORT: dict[str, Any] = {
    "id": "01JB0000000000000000000000",
    "content": "I keep bees on the roof",
    "type": "semantic",
    "namespace": "someone else",
    "metadata": {"source": "fuzz"},
    "importance": 0.5,
    "confidence": 0.8,
    "access_count": 2,
    "created_at": 1_700_000_000.0,
    "updated_at": 1_700_000_100.0,
    "last_accessed": None,
    "expires_at": None,
    "version": 2,
    "status": "active",
    "pinned": False,
    "format": EXPORT_FORMAT,
    "history": [{"version": 1, "content": "I keep wasps", "reason": "update", "at": 1.7e9}],
}
SKIPPED = re.compile(r"^.*:(\d+): skipped: ")
IMPORTED = re.compile(r"^Imported (\d+) memor(?:y|ies) in [\d.]+ s")
# Lines already in the store: an export line by its id, any line by its text (one summary
# may say both: two clauses, each counted).
PRESENT = re.compile(r"; (\d+) already present \(same (?:id|text)\)")
# A line that restates a memory (one stored by an earlier example) is merged into it.
MERGED = re.compile(r"; (\d+) restated a memory: merged into it")
# An export line whose memory was forgotten here (or merged away in a review) stays out, and
# so does a line whose text a memory here replaced (an earlier version).
KEPT_OUT = re.compile(
    r"; (\d+) (?:forgotten here|merged into another memory \(or set aside\)"
    r"|already known as an earlier version)"
)
# The same memory twice, as a line of text and an export line: one import says both
# "already present (same id)" and "already present (same text)".
PLAIN_AND_EXPORTED = '{"content": "a plain fact"}\n' + json.dumps(
    {**VALID_EXPORT, "id": "01J00000000000000000000000"}
)


@pytest.fixture(scope="module")
def cli(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cli]:
    db = tmp_path_factory.mktemp("fuzz-import") / "memory.db"
    with Memory.open(db, PASSPHRASE, kdf=FAST_KDF) as memory:
        memory.remember("I prefer green tea over coffee", "semantic")
    yield Cli(db)


def state(cli: Cli) -> dict[str, Any]:
    with Memory.open(cli.db, PASSPHRASE) as memory:
        return fingerprint(memory)


# --- lines --------------------------------------------------------------------------------------


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


@st.composite
def tampered_export(draw: st.DrawFn) -> str:
    """A line of a localmind export with some fields replaced, removed or added."""
    document = dict(VALID_EXPORT, id=draw(st.from_regex(r"\A01J[0-9A-Z]{23}\Z")))
    for name in draw(st.lists(st.sampled_from(EXPORT_FIELDS), max_size=3, unique=True)):
        if draw(st.booleans()):
            document[name] = draw(json_values)
        else:
            document.pop(name, None)
    return dumps(document)


@st.composite
def memory_object(draw: st.DrawFn) -> str:
    """A JSON object that looks like a memory, its fields valid or not."""
    document: dict[str, Any] = {"content": draw(st.one_of(st.just("a plain fact"), hostile_text))}
    for name in draw(st.lists(st.sampled_from(FIELDS), max_size=3, unique=True)):
        document[name] = draw(st.one_of(json_values, st.sampled_from(["semantic", 0.3, 1e9])))
    return dumps(document)


one_line = st.one_of(
    memory_object(),
    tampered_export(),
    json_values.map(dumps),
    hostile_text,
    st.sampled_from(
        [
            deeply_nested(),
            '{"content": ' + "[" * 5_000,
            '{"content": "cut short',
            '{"content": "big", "created_at": ' + "9" * 400 + "}",
            '{"content": "digits", "importance": ' + "1" * 5_000 + "}",
            '{"content": "nul \\u0000 inside"}',
            '{"content": "lone \\ud800 surrogate"}',
            '{"content": "x", "metadata": {"\\udcff": 1}}',
            '{"content": "far future", "created_at": 1e300}',
            '{"content": "long ago", "created_at": "0001-01-01T00:00:00+14:00"}',
            '{"content": "' + "x" * 9_000 + '"}',
        ]
    ),
).map(lambda line: line.replace("\n", " ").replace("\r", " "))


# --- the parser ---------------------------------------------------------------------------------


@budget(300)
@given(lines=st.lists(one_line, max_size=6), jsonl=st.booleans())
def test_every_line_becomes_a_memory_or_a_numbered_problem(lines: list[str], jsonl: bool):
    parsed = list(read_lines([line + "\n" for line in lines], jsonl=jsonl, default_type="semantic"))

    expected = [number for number, line in enumerate(lines, start=1) if line.strip()]
    assert [number for number, _ in parsed] == expected
    for number, item in parsed:
        if isinstance(item, BadLine):
            event("bad line")
            assert item.line == number
            assert item.reason and "\n" not in item.reason
        else:
            event(type(item).__name__)


# --- the command --------------------------------------------------------------------------------


file_contents = st.one_of(
    # (a lone surrogate in a line becomes bytes that are not UTF-8)
    st.lists(one_line, min_size=1, max_size=5).map(
        lambda lines: "\n".join(lines).encode("utf-8", "surrogatepass")
    ),
    st.binary(max_size=200),
)


@pytest.mark.slow
@budget(80)
@given(
    content=file_contents,
    suffix=st.sampled_from([".jsonl", ".txt", ".md", ""]),
    fmt=st.sampled_from(["auto", "jsonl", "text"]),
)
@example(content=deeply_nested().encode(), suffix=".jsonl", fmt="auto")  # was RecursionError
@example(content=b'{"content": "big", "created_at": ' + b"9" * 400 + b"}", suffix="", fmt="auto")
@example(content=b'{"content": "x", "created_at": 1e300}', suffix=".jsonl", fmt="auto")
@example(content=b'{"content": "\\ud800"}', suffix=".jsonl", fmt="auto")
@example(
    content=dumps({**VALID_EXPORT, "created_at": float("nan")}).encode(), suffix="", fmt="auto"
)
@example(content=dumps({**VALID_EXPORT, "access_count": 2**64}).encode(), suffix="", fmt="auto")
@example(  # was miscounted: only the first "already present" was read
    content=f"{PLAIN_AND_EXPORTED}\n{PLAIN_AND_EXPORTED}".encode(), suffix=".jsonl", fmt="auto"
)
def test_import_keeps_good_lines_reports_bad_ones_and_never_crashes(
    cli: Cli, tmp_path_factory: pytest.TempPathFactory, content: bytes, suffix: str, fmt: str
):
    path = tmp_path_factory.mktemp("import") / f"memories{suffix}"
    path.write_bytes(content)
    before = state(cli)

    result = cli("import", str(path), "--format", fmt)

    event(f"exit code {result.exit_code}")
    assert result.exit_code in (0, 1, 3), result.output[-2000:]
    assert "Traceback" not in result.output
    lines = result.stderr.splitlines()
    problems = [int(m.group(1)) for line in lines if (m := SKIPPED.match(line))]
    # read as the command reads it: text mode, universal newlines (\n, \r, \r\n only)
    written = io.TextIOWrapper(io.BytesIO(content), encoding="utf-8", errors="replace").readlines()
    for number in problems:
        assert written[number - 1].strip(), f"line {number} is blank but was reported"
    if result.exit_code == 1:
        assert lines[-1].startswith("Error: ")
        assert len(lines) == len(problems) + 1, "only the numbered problems and one error"
        assert state(cli) == before
        return
    summary = IMPORTED.match(result.stdout.strip())
    assert summary, result.stdout
    imported = int(summary.group(1))
    present = sum(int(n) for n in PRESENT.findall(result.stdout))
    merged = sum(int(n) for n in MERGED.findall(result.stdout))
    merged += sum(int(n) for n in KEPT_OUT.findall(result.stdout))
    non_blank = sum(1 for line in written if line.strip())
    assert imported + present + merged + len(problems) == non_blank
    # a script is told, by the exit status, whether any line was skipped (review15b DV5)
    assert result.exit_code == (3 if problems else 0)
    cli.ok("list")
    cli.ok("export", "--format", "markdown")
    for record in cli.json("list", "--limit", "5"):
        cli.ok("show", record["id"])
        cli.ok("history", record["id"])


# --- the library --------------------------------------------------------------------------------


@budget(60)
@given(
    good=st.lists(st.sampled_from(["tea", "bees", "rust"]), max_size=3),
    bad=st.builds(
        NewMemory,
        content=st.one_of(hostile_text, json_values),
        type=st.one_of(st.sampled_from(["semantic", "episodic"]), json_values),
        importance=st.one_of(st.none(), numbers, json_values),
        metadata=st.one_of(st.none(), json_values),
        created_at=st.one_of(st.none(), numbers, json_values),
    ),
    position=st.integers(0, 3),
)
def test_remember_many_writes_nothing_when_one_item_is_bad(
    cli: Cli, good: list[str], bad: NewMemory, position: int
):
    items = [NewMemory(f"I like {word} (batch)") for word in good]
    items.insert(min(position, len(items)), bad)
    with Memory.open(cli.db, PASSPHRASE) as memory:
        before = fingerprint(memory)
        try:
            memory.remember_many(items)
        except InvalidInput as error:
            event("refused")
            assert f"item {min(position, len(good)) + 1}:" in str(error)
            assert fingerprint(memory) == before
        else:
            event("accepted")
            still_usable(memory)

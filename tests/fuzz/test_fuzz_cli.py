"""Every ``localmind`` argument, hostile: the command works, or it exits 1 or 2 with one
``Error:`` line on stderr (never a Python traceback), and a refused command leaves the store
exactly as it was.

The CLI runs in-process (click's runner, tests/cli_support.py) against one store per module,
made with the cheap test KDF; the store is fingerprinted through the library before and after.
An unexpected exception escapes the runner and fails the example with its traceback.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from click.testing import Result
from hypothesis import event, example, given
from hypothesis import strategies as st

from localmind import Memory, NewMemory
from localmind.transfer import PLAINTEXT_WARNING
from tests.cli_support import Cli
from tests.conftest import FAST_KDF, PASSPHRASE
from tests.fuzz.support import budget, file_name, fingerprint, hostile_text, numbers

TYPES = ["long_term", "episodic", "semantic", "short_term", "SEMANTIC"]
SEEDED = [
    "I prefer green tea over coffee",
    "用户喜欢 Rust 编程语言",
    "My sister lives in Lisbon",
]


@pytest.fixture(scope="module")
def cli(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cli]:
    """A store with a few memories (one of them with an earlier version) shared by the module."""
    db = tmp_path_factory.mktemp("fuzz-cli") / "memory.db"
    with Memory.open(db, PASSPHRASE, kdf=FAST_KDF) as memory:
        records = memory.remember_many([NewMemory(text, "semantic") for text in SEEDED])
        memory.update(records[0].id, content="I prefer black tea over coffee")
        # close to "My sister lives in Lisbon" and no LLM to ask: a conflict waits for review
        memory.remember("My sister lives in Porto", "semantic")
        assert memory.pending_conflicts() > 0
    yield Cli(db)


def state(cli: Cli) -> dict[str, Any]:
    with Memory.open(cli.db, PASSPHRASE) as memory:
        return fingerprint(memory)


def ids(cli: Cli) -> list[str]:
    with Memory.open(cli.db, PASSPHRASE) as memory:
        return [record.id for record in memory.list_memories()]


def check(result: Result) -> None:
    """Success, or a usage error (2) or a localmind error (1) told in one ``Error:`` line."""
    assert result.exit_code in (0, 1, 2), (result.exit_code, result.output[-2000:])
    assert "Traceback" not in result.output
    event(f"exit code {result.exit_code}")
    if result.exit_code == 0:
        return
    lines = result.stderr.splitlines()
    assert lines, "an error with no message"
    assert lines[-1].startswith("Error: "), result.stderr[-2000:]
    if result.exit_code == 1:
        # export warns that its output is plaintext before it opens the store
        assert lines[:-1] in ([], [PLAINTEXT_WARNING]), result.stderr[-2000:]
        assert result.stdout == ""


def run_and_check(cli: Cli, *args: str) -> Result:
    before = state(cli)
    result = cli(*args)
    check(result)
    if result.exit_code != 0:
        assert state(cli) == before, f"refused {args!r:.300} but the store changed"
    return result


def still_readable(cli: Cli) -> None:
    """What was accepted can be shown: every date and text in it prints."""
    cli.ok("list")
    cli.ok("stats")
    cli.ok("export", "--format", "markdown")
    for memory_id in ids(cli)[:3]:
        cli.ok("show", memory_id)


def option(name: str, value: str | None) -> list[str]:
    return [] if value is None else [name, value]


# Option values: hostile text, or a number or a valid choice written out as the shell would.
number_text = st.one_of(
    hostile_text, numbers.map(str), st.floats(0, 1).map(str), st.integers(1, 20).map(str)
)
type_text = st.one_of(st.sampled_from(TYPES), st.sampled_from(TYPES), hostile_text)


key_value = st.tuples(hostile_text, hostile_text).map("=".join)


def optional(strategy: st.SearchStrategy[str]) -> st.SearchStrategy[str | None]:
    """Mostly left out, so that the other arguments get their turn at being hostile."""
    return st.one_of(st.none(), st.none(), strategy)


@budget(120)
@given(
    text=hostile_text,
    type_=optional(type_text),
    importance=optional(number_text),
    meta=st.lists(st.one_of(key_value, key_value, hostile_text), max_size=2),
    as_json=st.booleans(),
)
@example(text="tea \udcff", type_=None, importance=None, meta=[], as_json=False)  # bad byte
@example(text="tea", type_=None, importance=None, meta=["k\ud800=v"], as_json=False)
@example(text="tea", type_=None, importance="1" + "0" * 400, meta=[], as_json=False)
def test_add(
    cli: Cli, text: str, type_: str | None, importance: str | None, meta: list[str], as_json: bool
):
    args = ["add", text, *option("--type", type_), *option("--importance", importance)]
    for pair in meta:
        args += ["--meta", pair]
    if as_json:
        args.append("--json")
    count_before = len(ids(cli))

    result = run_and_check(cli, *args)

    if result.exit_code == 0:
        assert len(ids(cli)) <= count_before + 1, "one add stored more than one memory"
        still_readable(cli)


@budget(80)
@given(
    query=hostile_text,
    limit=optional(number_text),
    types=st.lists(type_text, max_size=2),
    threshold=optional(number_text),
    as_json=st.booleans(),
)
@example(query="tea", limit=None, types=[], threshold="1" + "0" * 400, as_json=False)
@example(query="\udcff", limit=None, types=[], threshold=None, as_json=False)
def test_recall(
    cli: Cli,
    query: str,
    limit: str | None,
    types: list[str],
    threshold: str | None,
    as_json: bool,
):
    args = ["recall", query, *option("--limit", limit), *option("--threshold", threshold)]
    for kind in types:
        args += ["--type", kind]
    if as_json:
        args.append("--json")
    run_and_check(cli, *args)


@budget(60)
@given(
    limit=st.none() | number_text,
    offset=st.none() | number_text,
    types=st.lists(type_text, max_size=2),
    user=st.none() | hostile_text,
    command=st.sampled_from(["list", "stats", "conflicts", "export"]),
)
@example(limit=None, offset=str(2**63), types=[], user=None, command="list")  # was OverflowError
@example(limit=None, offset=None, types=[], user="\udcff", command="list")
def test_reading_commands_never_change_the_store(
    cli: Cli,
    limit: str | None,
    offset: str | None,
    types: list[str],
    user: str | None,
    command: str,
):
    args = [*option("--user", user), command]
    if command == "list":
        args += [*option("--limit", limit), *option("--offset", offset)]
        for kind in types:
            args += ["--type", kind]
    before = state(cli)

    result = cli(*args)

    check(result)
    assert state(cli) == before


MANGLE = [
    lambda real: real,
    str.lower,
    lambda real: f" {real} ",
    lambda real: real[:-1],
    lambda real: real + "0",
    lambda real: real + "\x00",
]


@budget(100)
@given(
    command=st.sampled_from(["show", "history", "revert", "feedback", "forget"]),
    pick=st.none() | st.tuples(st.integers(0, 9), st.integers(0, len(MANGLE) - 1)),
    hostile_id=hostile_text,
    verdict=st.one_of(st.sampled_from(["confirm", "deny", "correct", "DENY"]), hostile_text),
    text=st.none() | hostile_text,
    version=number_text,
)
@example(  # an id that SQLite cannot encode was a UnicodeEncodeError
    command="show", pick=None, hostile_id="\ud800", verdict="", text=None, version=""
)
def test_commands_on_an_id(
    cli: Cli,
    command: str,
    pick: tuple[int, int] | None,
    hostile_id: str,
    verdict: str,
    text: str | None,
    version: str,
):
    """An id is a near-miss of a real one (other case, padding, cut short, longer) or hostile."""
    before_ids = ids(cli)
    target = hostile_id
    if pick is not None and before_ids:
        target = MANGLE[pick[1]](before_ids[pick[0] % len(before_ids)])
    args = [command, target]
    if command == "revert":
        args.append(version)
    elif command == "feedback":
        args += [verdict, *([] if text is None else [text])]

    result = run_and_check(cli, *args)

    after_ids = set(ids(cli))
    if command == "forget" and result.exit_code == 0:
        # An id may be given by a beginning only it has, in any case (issue 16): forget removes
        # that one memory and never another.
        removed = set(before_ids) - after_ids
        wanted = target.strip().upper()
        named = {i for i in before_ids if wanted and i.startswith(wanted)}
        assert len(removed) <= 1 and removed <= named, "forget removed another memory"
    elif command != "forget":
        assert after_ids == set(before_ids)
    if result.exit_code == 0:
        still_readable(cli)


@budget(25)
@given(
    conflict=st.one_of(st.integers(0, 3).map(str), number_text),
    resolution=st.one_of(
        st.sampled_from(["keep-old", "take-new", "merge", "keep_both"]), hostile_text
    ),
    text=st.none() | hostile_text,
)
def test_resolve(cli: Cli, conflict: str, resolution: str, text: str | None):
    run_and_check(cli, "resolve", conflict, resolution, *option("--text", text))


@budget(25)
@given(name=hostile_text, fmt=optional(st.sampled_from(["jsonl", "markdown", "JSON"])))
@example(name="x" * 300, fmt=None)  # too long a name was an OSError traceback
@example(name="two\nlines", fmt="markdown")
def test_export_to_a_hostile_file_name(
    cli: Cli, name: str, fmt: str, tmp_path_factory: pytest.TempPathFactory
):
    target = tmp_path_factory.mktemp("export") / file_name(name)

    result = run_and_check(cli, "export", *option("--format", fmt), "--output", str(target))

    if result.exit_code == 0:
        assert target.is_file()

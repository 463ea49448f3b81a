"""``localmind add --date``: a memory told later than it happened (review13 J15), dated and judged
as a dated import line is."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tests.cli_support import Cli, assert_error, files_of
from tests.ollama_server import FakeOllama

NOV_4 = datetime(2026, 11, 4, tzinfo=UTC).timestamp()


def test_a_dated_add_is_dated_so(cli: Cli) -> None:
    told = cli.add(
        "Did the Anmeldung at the Bürgeramt", "--type", "episodic", "--date", "2026-11-04"
    )
    assert cli.json("show", told)["created_at"] == NOV_4
    at_nine = cli.add("Picked up the Aufenthaltstitel", "--date", "2026-11-05T09:30:00+01:00")
    assert cli.json("show", at_nine)["created_at"] == NOV_4 + 86_400 + 8.5 * 3600
    in_seconds = cli.add("Signed the Mietvertrag", "--date", str(int(NOV_4)))
    assert cli.json("show", in_seconds)["created_at"] == NOV_4


@pytest.mark.slow
def test_an_old_fact_added_later_is_an_earlier_version_when_the_model_says_they_contradict(
    cli: Cli, ollama_server: FakeOllama
) -> None:
    ollama_server.when_schema_has("relation", {"relation": "contradicts"})
    berlin = cli.add("I live in Berlin", "--type", "semantic", OLLAMA_HOST=ollama_server.host)
    told = cli.ok(
        "add", "I live in Shanghai", "--type", "semantic", "--date", "2025-01-01",
        OLLAMA_HOST=ollama_server.host,
    ).stdout  # fmt: skip
    assert f"as an earlier version of {berlin}, made later, which stays the current one" in told
    # Berlin was not overwritten by the older fact: it is still version 1 and answers first
    assert cli.json("show", berlin)["version"] == 1
    assert cli.json("recall", "Where do I live?")[0]["id"] == berlin
    assert cli.json("conflicts") == []


def test_without_a_model_it_is_queued_as_a_dated_import_line_is(cli: Cli, tmp_path: Path) -> None:
    berlin = cli.add("I live in Berlin", "--type", "semantic")
    told = cli.ok("add", "I live in Hamburg", "--type", "semantic", "--date", "2025-01-01").stdout
    assert f"it may be an earlier version of {berlin}, made later" in told
    [by_add] = cli.json("conflicts")

    imported = Cli(tmp_path / "imported.db")
    imported.add("I live in Berlin", "--type", "semantic")
    line = {"content": "I live in Hamburg", "type": "semantic", "created_at": "2025-01-01"}
    (tmp_path / "old.jsonl").write_text(json.dumps(line) + "\n", encoding="utf-8")
    imported.ok("import", str(tmp_path / "old.jsonl"))
    [by_import] = imported.json("conflicts")

    # the same judgment: the dated memory the older side, the reason the same
    for conflict in (by_add, by_import):
        assert conflict["existing"]["content"] == "I live in Hamburg"
        assert conflict["candidate"]["content"] == "I live in Berlin"
        assert conflict["existing"]["created_at"] == datetime(2025, 1, 1, tzinfo=UTC).timestamp()
    assert by_add["reason"].split(";")[0] == by_import["reason"].split(";")[0]


@pytest.mark.parametrize(
    ("date", "said", "exit_code"),
    [
        ("last Tuesday", "'last Tuesday' is not an ISO 8601 date", 2),
        ("2026-13-01", "is not an ISO 8601 date", 2),
        ("2099-01-01", "is in the future", 1),
        ("1975-05-01", "is before 1980", 1),
        ("2026", "is before 1980", 1),  # a year read as seconds, as an import line's
        ("nan", "--date must be a Unix time", 2),
    ],
)
def test_a_date_it_cannot_take_is_refused_and_nothing_is_stored(
    cli: Cli, date: str, said: str, exit_code: int
) -> None:
    cli.add("I live in Berlin")
    before = files_of(cli.db)
    assert_error(cli("add", "Did the Anmeldung", "--date", date), said, exit_code)
    assert files_of(cli.db) == before
    assert cli.contents() == ["I live in Berlin"]


def test_a_refused_date_creates_no_store(tmp_path: Path) -> None:
    fresh = Cli(tmp_path / "new.db")
    assert_error(fresh("add", "Did the Anmeldung", "--date", "yesterday"), "yesterday", 2)
    assert not list(tmp_path.glob("new.db*"))


@pytest.mark.parametrize(
    "question", ["What did I do in the first week of last month?", "我上个月第一周做了什么？"]
)
def test_a_week_of_last_month_finds_what_was_dated_in_it_only(cli: Cli, question: str) -> None:
    # review13 J13 addendum and J15 together: memories caught up on with --date, then a
    # question about one week of the month (read as the whole month before)
    today = datetime.now(UTC).date()
    last_month = (today.replace(day=1) - timedelta(days=1)).replace(day=1)
    for text, day in [
        ("Did the Anmeldung at the Bürgeramt in Friedrichshain", 4),
        ("Went to the Bauhaus exhibition with Lena", 20),
        ("Cooked Rotkohl for the first time", 28),
    ]:
        cli.add(text, "--type", "episodic", "--date", last_month.replace(day=day).isoformat())
    found = cli.json("recall", question, "--threshold", "0")
    in_period = [r["content"] for r in found if r["breakdown"]["in_period"]]
    assert in_period == ["Did the Anmeldung at the Bürgeramt in Friedrichshain"]
    assert found[0]["content"] == in_period[0]

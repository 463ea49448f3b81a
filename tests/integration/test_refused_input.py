"""Bad input is refused with a clear message and changes nothing (review7 finding 10): an
import line dated in the future, a one-character passphrase for a new store, a --db path in a
folder that does not exist. The real CLI on the real encrypted store."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from localmind.keys import KeyFile, key_file_for
from tests.cli_support import Cli, files_of
from tests.conftest import PASSPHRASE
from tests.integration.test_import_all_or_nothing import state

HOUR = 3600.0


def _iso(when: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(when))


def _lines(path: Path, documents: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(d) + "\n" for d in documents), encoding="utf-8")
    return path


def test_an_import_line_dated_in_the_future_is_refused_by_its_number_and_nothing_changes(
    cli: Cli, store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cli.add("I live in Berlin")
    before = state(store)
    monkeypatch.setattr("localmind.cli.transfer.IMPORT_BATCH", 4)  # a few batches in first
    documents: list[dict[str, object]] = [
        {"content": f"note {n} about sourdough", "created_at": "2025-01-10"} for n in range(9)
    ]
    documents.append({"content": "I moved to Lisbon", "created_at": "2030-01-01T00:00:00Z"})
    source = _lines(tmp_path / "dated.jsonl", documents)

    result = cli("import", str(source))

    assert result.exit_code == 1
    assert f"{source}:10: created_at 2030-01-01 00:00 UTC is in the future" in result.stderr
    assert "Nothing was imported." in result.stderr
    assert state(store) == before


@pytest.mark.parametrize(
    ("date", "said"),
    [
        ("03/20/2025", "created_at '03/20/2025' is not an ISO 8601 date"),
        (1e20, "created_at must be a Unix time in seconds (years 1 to 9999), not 1e+20"),
    ],
)
def test_an_import_line_whose_date_cannot_be_read_is_refused_by_its_number_like_a_future_one(
    cli: Cli,
    store: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    date: object,
    said: str,
) -> None:
    """Not skipped while the rest is kept: a file's dates are written alike, so the other
    lines' dates would be as wrong (read as made today)."""
    cli.add("I live in Berlin")
    before = state(store)
    monkeypatch.setattr("localmind.cli.transfer.IMPORT_BATCH", 4)  # a few batches in first
    documents: list[dict[str, object]] = [
        {"content": f"note {n} about sourdough", "created_at": "2025-01-10"} for n in range(9)
    ]
    documents.append({"content": "I moved to Lisbon", "created_at": date})
    source = _lines(tmp_path / "dated.jsonl", documents)

    result = cli("import", str(source))

    assert result.exit_code == 1 and result.stdout == ""
    error = result.stderr.splitlines()[-1]
    assert error.startswith(f"Error: {source}:10: {said}"), error
    assert "dates are ISO 8601 (2025-03-20" in error and error.endswith("Nothing was imported.")
    assert ": skipped: " not in result.stderr
    assert state(store) == before


@pytest.mark.parametrize(
    ("date", "shown"),
    [
        (-5, "1969-12-31 23:59 UTC"),  # a negative Unix time
        ("1850-01-01T00:00:00Z", "1850-01-01 00:00 UTC"),  # a mistyped year
        (20250320, "1970-08-23 09:05 UTC"),  # a date written as a number of seconds
    ],
)
def test_an_import_line_dated_before_1980_is_refused_by_its_number_like_a_future_one(
    cli: Cli, store: Path, tmp_path: Path, date: object, shown: str
) -> None:
    """review9 E2: such dates were taken silently and listed as 1969 or 1850."""
    cli.add("I live in Berlin")
    before = state(store)
    documents: list[dict[str, object]] = [
        {"content": "note about sourdough", "created_at": "2025-01-10"},
        {"content": "I moved to Lisbon", "created_at": date},
    ]
    source = _lines(tmp_path / "dated.jsonl", documents)

    result = cli("import", str(source))

    assert result.exit_code == 1 and result.stdout == ""
    error = result.stderr.splitlines()[-1]
    assert error.startswith(f"Error: {source}:2: created_at {shown} is before 1980: "), error
    assert error.endswith("Nothing was imported.")
    assert state(store) == before


def test_an_import_line_dated_an_hour_ahead_is_taken_clocks_drift(cli: Cli, tmp_path: Path) -> None:
    source = _lines(
        tmp_path / "soon.jsonl",
        [{"content": "I moved to Lisbon", "created_at": _iso(time.time() + HOUR)}],
    )
    assert "Imported 1 memory" in cli.ok("import", str(source)).stdout


def test_a_future_date_given_to_the_api_is_refused(cli: Cli, store: Path) -> None:
    from localmind import Memory, NewMemory
    from localmind.errors import InFuture

    with Memory.open(store, PASSPHRASE) as memory:
        with pytest.raises(InFuture, match="in the future"):
            memory.remember_many([NewMemory("I moved to Lisbon", created_at=time.time() + 3e8)])
        assert memory.count() == 0


def test_a_new_store_with_a_one_character_passphrase_is_refused(tmp_path: Path) -> None:
    fresh = Cli(tmp_path / "memory.db", passphrase="a")

    result = fresh("add", "I like tea")

    assert result.exit_code == 1
    assert "The passphrase is too short: choose one of at least 8 characters" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_store_made_with_a_short_passphrase_before_still_opens(cli: Cli, store: Path) -> None:
    cli.add("I like tea")
    key_path = key_file_for(store)  # as a store made before the minimum had it
    KeyFile.load(key_path).rewrap(PASSPHRASE, "a").save(key_path)
    old = Cli(store, passphrase="a")

    assert old.contents() == ["I like tea"]
    refused = old("passwd", LOCALMIND_NEW_PASSPHRASE="b")
    assert refused.exit_code == 1 and "too short" in refused.stderr
    assert old.contents() == ["I like tea"]  # still "a"


def test_db_in_a_folder_that_does_not_exist_is_refused_and_creates_nothing(
    tmp_path: Path,
) -> None:
    missing = tmp_path / "no such folder" / "deeper"
    fresh = Cli(missing / "memory.db")

    for args in (["add", "foo"], ["--db", str(missing / "x.db"), "add", "foo"]):
        result = fresh(*args)
        assert result.exit_code == 1
        assert "No folder" in result.stderr and "Nothing was created." in result.stderr
    assert not (tmp_path / "no such folder").exists()


def test_db_in_an_existing_folder_still_creates_the_store(tmp_path: Path) -> None:
    fresh = Cli(tmp_path / "memory.db")
    fresh.ok("add", "I like tea")
    assert set(files_of(tmp_path / "memory.db")) >= {"memory.db", "memory.db.key"}

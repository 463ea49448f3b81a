"""A derived table's cache file (localmind.derived_tables): read back as written; a damaged,
truncated or mismatched one (format, package or localmind version, source file) is never used
and is rebuilt; one that cannot be written costs only the speed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from localmind import derived_tables
from localmind.derived_tables import CacheInvalid, Derived


@pytest.fixture
def source(tmp_path: Path) -> Path:
    path = tmp_path / "package" / "words.txt"
    path.parent.mkdir()
    path.write_text("apple fruit\n")
    return path


class Builder:
    """Builds the table from the 'package' and counts how often it had to."""

    def __init__(self, table: dict[str, str]) -> None:
        self.table = table
        self.builds = 0

    def build(self) -> dict[str, str]:
        self.builds += 1
        return dict(self.table)


def _same(payload: Any) -> dict[str, str]:
    if not isinstance(payload, dict):
        raise CacheInvalid("not a dict")
    return payload


def load(derived: Derived, builder: Builder, directory: Path) -> dict[str, str]:
    return derived_tables.load(derived, builder.build, dict, _same, directory)


def test_the_first_load_builds_and_writes_later_loads_read_the_file(
    source: Path, tmp_path: Path
) -> None:
    derived = Derived("words", "1.0", source, 1)
    builder = Builder({"apple": "fruit"})

    assert load(derived, builder, tmp_path / "cache") == {"apple": "fruit"}
    assert load(derived, builder, tmp_path / "cache") == {"apple": "fruit"}

    assert builder.builds == 1
    assert derived.path(tmp_path / "cache").is_file()


@pytest.mark.parametrize(
    "damage",
    [
        "flipped byte",
        "truncated",
        "not a table",
        "other format",
        "other package version",
        "other localmind version",
        "source file changed",
        "payload that does not unpack",
    ],
)
def test_a_damaged_or_mismatched_file_is_never_used_and_is_rebuilt(
    source: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    directory = tmp_path / "cache"
    derived = Derived("words", "1.0", source, 1)
    path = derived.path(directory)
    derived_tables.write(derived, {"apple": "stale"}, directory)
    data = path.read_bytes()
    if damage == "flipped byte":
        at = len(data) - 3
        path.write_bytes(data[:at] + bytes([data[at] ^ 0x40]) + data[at + 1 :])
    elif damage == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "not a table":
        path.write_text("hello")
    elif damage == "other format":
        derived_tables.write(Derived("words", "1.0", source, 2), {"apple": "stale"}, directory)
        path.write_bytes(Derived("words", "1.0", source, 2).path(directory).read_bytes())
    elif damage == "other package version":
        derived_tables.write(Derived("words", "0.9", source, 1), {"apple": "stale"}, directory)
        path.write_bytes(Derived("words", "0.9", source, 1).path(directory).read_bytes())
    elif damage == "other localmind version":
        with monkeypatch.context() as patch:
            patch.setattr(derived_tables, "localmind_version", lambda: "0.0.1")
            derived_tables.write(derived, {"apple": "stale"}, directory)
            path.write_bytes(derived.path(directory).read_bytes())
    elif damage == "source file changed":
        source.write_text("apple fruit\nbanana fruit\n")
    else:
        derived_tables.write(derived, ["not", "a", "dict"], directory)
    builder = Builder({"apple": "fruit"})

    assert load(derived, builder, directory) == {"apple": "fruit"}

    assert builder.builds == 1
    assert derived_tables.read(derived, directory) == {"apple": "fruit"}  # rebuilt in place


def test_a_file_that_cannot_be_written_costs_speed_not_the_table(
    source: Path, tmp_path: Path
) -> None:
    blocked = tmp_path / "not-a-directory"
    blocked.write_text("a file where the cache directory would go")
    derived = Derived("words", "1.0", source, 1)
    builder = Builder({"apple": "fruit"})

    assert load(derived, builder, blocked) == {"apple": "fruit"}
    assert load(derived, builder, blocked) == {"apple": "fruit"}

    assert builder.builds == 2
    assert blocked.read_text() == "a file where the cache directory would go"


def test_a_new_file_removes_this_installs_older_ones_only(source: Path, tmp_path: Path) -> None:
    directory = tmp_path / "cache"
    older = Derived("words", "0.9", source, 1)
    other_install = Derived("words", "0.9", tmp_path / "elsewhere" / "words.txt", 1)
    other_table = Derived("names", "0.9", source, 1)
    derived_tables.write(older, {}, directory)
    for stale in (other_install, other_table):
        stale.path(directory).write_bytes(b"x")
    current = Derived("words", "1.0", source, 1)

    load(current, Builder({"apple": "fruit"}), directory)

    assert sorted(p.name for p in directory.iterdir()) == sorted(
        d.path(directory).name for d in (current, other_install, other_table)
    )


def test_a_new_file_removes_this_installs_file_under_a_former_name_only(
    source: Path, tmp_path: Path
) -> None:
    # (the lemma table's pre-cold12 name stayed behind, 4 MB, after every upgrade)
    directory = tmp_path / "cache"
    directory.mkdir()
    current = Derived("words", "1.0", source, 1, ("old-words-{place}-*.bin",))
    elsewhere = Derived("words", "1.0", tmp_path / "elsewhere" / "words.txt", 1)
    former = directory / f"old-words-{current.place}-v3.bin"
    kept = [
        directory / f"old-words-{elsewhere.place}-v3.bin",  # another install's
        directory / f"old-words-{current.place}-v3.bin.note",  # not the pattern
        directory / "readme.txt",
    ]
    for path in (former, *kept):
        path.write_bytes(b"x")

    load(current, Builder({"apple": "fruit"}), directory)

    assert sorted(p.name for p in directory.iterdir()) == sorted(
        [current.path(directory).name, *(p.name for p in kept)]
    )

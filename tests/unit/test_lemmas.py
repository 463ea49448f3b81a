"""English lemmas from the cached dictionary (localmind.lemmas): simplemma's own, for every
word of its dictionary, and a damaged or mismatched cache file is never used."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
import simplemma
from simplemma.strategies.dictionaries.dictionary_factory import DEFAULT_DICTIONARY_FACTORY

from localmind import derived_tables, lemmas


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A user cache directory of the test's own, and no table loaded yet in this process."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    lemmas.english.cache_clear()
    yield tmp_path
    lemmas.english.cache_clear()


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A valid cache file written once for the module by ``load`` (each test damages a copy)."""
    directory = tmp_path_factory.mktemp("lemmas")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(directory))
        lemmas.load()
        path = lemmas.cache_file()
    assert path.is_relative_to(directory) and _valid(path)
    return path


def _words() -> list[str]:
    """Every word of simplemma's English dictionary, as written and capitalized, their -ing
    forms, and words it does not know."""
    known = list(DEFAULT_DICTIONARY_FACTORY.get_dictionary("en"))
    return [
        *known,
        *(word.capitalize() for word in known[::7]),
        *(word + "ing" for word in known[::11]),
        "Zorblaxing",
        "HATE",
        "iPhone",
        "don't",
        "co-operated",
    ]


@pytest.mark.slow
def test_every_word_gets_simplemmas_own_lemma_from_the_cache(cache_home: Path) -> None:
    lemmas.load()  # writes the cache
    lemmas.english.cache_clear()
    assert isinstance(lemmas.english(), lemmas.BucketedDictionary)  # read back from it

    for word in _words():
        assert lemmas.lemmatize(word) == simplemma.lemmatize(word, lang="en"), word
        assert lemmas.is_known(word) == simplemma.is_known(word, lang="en"), word


def _valid(path: Path) -> bool:
    try:
        lemmas._read(path)
    except lemmas.CacheInvalid:
        return False
    return True


@pytest.mark.parametrize(
    "damage",
    [
        "flipped byte",
        # (each rebuilds the whole table, ~0.5 s: the quick loop meets these damages in
        # unit/test_derived_tables.py, on a small table; polish13)
        *(
            pytest.param(damage, marks=pytest.mark.slow)
            for damage in ("truncated", "not a table", "other format", "other source file")
        ),
    ],
)
def test_a_damaged_or_mismatched_cache_is_never_used_and_is_rebuilt(
    cache_home: Path, pristine: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    path = lemmas.cache_file()
    path.parent.mkdir(parents=True)
    shutil.copyfile(pristine, path)  # what load() wrote, without writing it again
    assert _valid(path)
    data = path.read_bytes()
    if damage == "flipped byte":
        at = len(data) // 2
        path.write_bytes(data[:at] + bytes([data[at] ^ 0x40]) + data[at + 1 :])
    elif damage == "truncated":
        path.write_bytes(data[: len(data) // 3])
    elif damage == "not a table":
        path.write_text("hello")
    elif damage == "other format":  # a file of the next format, put where this one goes
        with monkeypatch.context() as patch:
            patch.setattr(lemmas, "FORMAT", lemmas.FORMAT + 1)
            lemmas._write(lemmas.cache_file(), {"living": "wrong"})
            path.write_bytes(lemmas.cache_file().read_bytes())
    else:  # built from a data file of another size or time than the installed one
        with monkeypatch.context() as patch:
            patch.setattr(derived_tables.Derived, "stamp", lambda self: [1, 2])
            lemmas._write(path, {"living": "wrong"})
    assert not _valid(path)

    table = lemmas.load()

    assert table.get("went") == "go" and table.get("living") != "wrong"
    assert _valid(path)  # rebuilt in place
    assert lemmas._read(path).get("children") == "child"


def test_a_cache_that_cannot_be_written_costs_speed_not_the_lemmas(
    cache_home: Path,
) -> None:
    blocked = cache_home / "not-a-directory"
    blocked.write_text("a file where the cache directory would go")

    table = lemmas.load(blocked)

    assert table.get("went") == "go"
    assert blocked.read_text() == "a file where the cache directory would go"


def test_a_new_table_removes_this_installs_older_ones_only(cache_home: Path) -> None:
    path = lemmas.cache_file()
    path.parent.mkdir(parents=True)
    place = path.name.split("-")[3]
    older = path.parent / f"simplemma-en-1.9.0+localmind0.0.1-{place}-f1.bin"
    # the name the file had before cold12 made it a derived table: 4 MB left behind
    before_cold12 = path.parent / f"simplemma-2.0.0-en-{place}-f1.bin"
    other_install = path.parent / "simplemma-en-2.0.0+localmind0.1.0-00000000-f1.bin"
    other_install_before = path.parent / "simplemma-2.0.0-en-00000000-f1.bin"
    someone_elses = path.parent / f"notes-en-{place}-f1.bin"
    kept = [other_install, other_install_before, someone_elses]
    for stale in (older, before_cold12, *kept):
        stale.write_bytes(b"x")

    lemmas.load()

    assert sorted(p.name for p in path.parent.iterdir()) == sorted(
        [path.name, *(p.name for p in kept)]
    )

"""jieba's dictionary and tags, and CC-CEDICT, from their derived cache files (review12 R8):
the real packages and files. What the cache gives is exactly what the packages give; a damaged
file is never used and is rebuilt."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jieba
import pytest

from localmind import bilingual, derived_tables, jieba_tables

# Each test parses a package's dictionary from scratch (seconds): the full run's, not the quick
# loop's.
pytestmark = pytest.mark.slow

DATA = Path(__file__).resolve().parents[1] / "data"
_CJK = re.compile(r"[\u4e00-\u9fff]")


def _chinese_texts() -> list[str]:
    """Every Chinese text of the test pairs files (~1,000 sentences people tell)."""
    texts: set[str] = set()
    for name in ("hygiene_pairs.jsonl", "hygiene_pairs_cross.jsonl", "memory_pairs.jsonl"):
        for line in (DATA / name).read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            texts.update(
                value for value in record.values() if isinstance(value, str) and _CJK.search(value)
            )
    return sorted(texts)


def _cutter(freq: Any, total: int) -> jieba.Tokenizer:
    cutter = jieba.Tokenizer()
    cutter.FREQ, cutter.total, cutter.initialized = freq, total, True
    return cutter


def _refuse() -> Any:
    raise AssertionError("built from the package, not read from the cache")


def test_jieba_from_the_cache_cuts_and_tags_as_jieba_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import jieba.posseg

    own = jieba.Tokenizer()
    own.tmp_dir = str(tmp_path / "jieba-own-cache")  # jieba's own loading, not ours
    (tmp_path / "jieba-own-cache").mkdir()
    own.initialize()
    jieba_tables.tables(tmp_path / "cache")  # writes the file
    monkeypatch.setattr(jieba_tables, "_from_package", _refuse)

    freq, total, tags = jieba_tables.tables(tmp_path / "cache")

    assert isinstance(freq, jieba_tables.Frequencies)
    cached = _cutter(freq, total)
    texts = _chinese_texts()
    assert len(texts) > 500
    for text in texts:
        assert cached.lcut(text) == own.lcut(text), text
    assert total == own.total
    assert dict(tags) == jieba.posseg.dt.word_tag_tab
    # jieba's add_word writes to the table in memory: the next process still reads the file's
    cached.add_word("林小雨", tag="n")
    assert "林小雨" in cached.lcut("闺蜜林小雨来了")
    assert "林小雨" not in jieba_tables.tables(tmp_path / "cache")[0]


def test_cc_cedict_from_the_cache_gives_every_words_senses_and_readings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    parsed_senses, parsed_readings = bilingual._Dictionary()._parse()
    bilingual._Dictionary().senses("咖啡")  # writes the file
    monkeypatch.setattr(bilingual._Dictionary, "_parse", lambda self: _refuse())

    dictionary = bilingual._Dictionary()

    assert dictionary.senses("咖啡").startswith("coffee")
    assert dictionary.readings("乐") == frozenset({"le", "yue"})
    for word, senses in parsed_senses.items():
        assert dictionary.senses(word) == senses, word
    assert dictionary.senses("没有这个词") == ""
    assert dictionary._readings == parsed_readings


@pytest.mark.parametrize("table", ["jieba", "cedict"])
def test_a_damaged_table_file_is_never_used_and_is_rebuilt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, table: str
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    load = (
        (lambda: jieba_tables.tables()[2])
        if table == "jieba"
        else (lambda: bilingual._Dictionary()._loaded())
    )
    derived = (
        jieba_tables._derived()
        if table == "jieba"
        else derived_tables.Derived(
            "cedict", bilingual._cedict_version(), bilingual._cedict_file(), bilingual._CACHE_FORMAT
        )
    )
    load()  # writes the file
    (path,) = derived_tables.cache_root().glob(f"{table}-*.bin")
    assert path == derived.path()
    data = path.read_bytes()
    at = len(data) // 2
    path.write_bytes(data[:at] + bytes([data[at] ^ 0x01]) + data[at + 1 :])
    with pytest.raises(derived_tables.CacheInvalid, match="checksum"):
        derived_tables.read(derived)

    found = load()

    assert found.get("咖啡", "").startswith(("n", "coffee"))
    derived_tables.read(derived)  # rebuilt: whole again

"""jieba's dictionary, ready to cut, and its part-of-speech tags, from a derived cache file.

The first Chinese text a process read used to cost ~1 s of CPU (review12 R8): jieba loads its
prefix dictionary from its own cache (a 9 MB ``marshal`` file in the system's temporary
directory, ~0.7 s to load, shared by every user and keyed by nothing but its name), and
``jieba.posseg`` parses the 350k-line ``dict.txt`` again at import for the tags (~0.3 s), with
HMM tables we never use (:mod:`localmind.statement` looks the tags up). Both tables are pure
functions of jieba's ``dict.txt``, so the first process writes them to the user cache directory
(:mod:`localmind.derived_tables`) in buckets by a word's first character; later processes read
the file and unpack a bucket when a word first looks into it. jieba's own cutter runs over them
unchanged (a test cuts texts both ways), and ``jieba.posseg`` is no longer imported.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from localmind import derived_tables
from localmind.buckets import FirstCharacterBuckets, by_first_character

FORMAT = 1
_LOADING = threading.Lock()


class Frequencies(FirstCharacterBuckets[int]):
    """jieba's ``Tokenizer.FREQ`` (word or word prefix -> count): it reads it with ``in``,
    ``[]`` and ``get``, and ``add_word`` writes to it (in memory only)."""

    _unpacking = threading.Lock()

    def _bucket(self, index: int) -> dict[str, Any]:
        """As the base's, but a bucket is put in place once: a word ``add_word`` wrote into it
        is never replaced by another thread's fresh copy of the same bucket."""
        bucket = self._buckets[index]
        if bucket is None:
            unpacked = self.unpack(self._packed[index])
            with self._unpacking:
                bucket = self._buckets[index]
                if bucket is None:
                    bucket = self._buckets[index] = unpacked
        return bucket

    def __setitem__(self, key: str, value: int) -> None:
        self._bucket(by_first_character(key))[key] = value


def _derived() -> derived_tables.Derived:
    import jieba

    return derived_tables.Derived("jieba", jieba.__version__, _dict_file(), FORMAT)


def _dict_file() -> Path:
    import jieba

    return Path(jieba.__file__).parent / jieba.DEFAULT_DICT_NAME


def _from_package() -> tuple[Mapping[str, int], int, Mapping[str, str]]:
    """What jieba builds itself: its prefix dictionary and ``jieba.posseg``'s tags."""
    import jieba
    import jieba.posseg

    freq, total = jieba.dt.gen_pfdict(jieba.dt.get_dict_file())
    return freq, total, jieba.posseg.dt.word_tag_tab


def _pack(built: tuple[Mapping[str, int], int, Mapping[str, str]]) -> dict[str, Any]:
    freq, total, tags = built
    return {
        "freq": FirstCharacterBuckets.pack(freq),
        "total": total,
        "tags": FirstCharacterBuckets.pack(tags),
    }


def _unpack(payload: dict[str, Any]) -> tuple[Mapping[str, int], int, Mapping[str, str]]:
    total = payload["total"]
    if not isinstance(total, int) or total <= 0:
        raise derived_tables.CacheInvalid("no total")
    tags: FirstCharacterBuckets[str] = FirstCharacterBuckets.of(payload["tags"])
    return Frequencies.of(payload["freq"]), total, tags


def tables(directory: Path | None = None) -> tuple[Mapping[str, int], int, Mapping[str, str]]:
    """jieba's prefix dictionary, its total count and the tags: from the cache file when it is
    valid, else from the package (and the file is written). Never fails because of the file."""
    return derived_tables.load(_derived(), _from_package, _pack, _unpack, directory)


def load(directory: Path | None = None) -> tuple[Any, Mapping[str, str]]:
    """jieba, its default cutter initialized from :func:`tables`, and the tags."""
    import jieba

    with _LOADING:
        freq, total, tags = tables(directory)
        cutter = jieba.dt
        with cutter.lock:
            if not cutter.initialized:
                cutter.FREQ, cutter.total = freq, total
                cutter.initialized = True
    return jieba, tags

"""English lemmas for :mod:`localmind.statement`: simplemma's, over its dictionary read from a
derived cache.

simplemma decodes its whole English dictionary (181k entries, front-coded and lzma-compressed)
at the first lemma a process asks for: ~0.12 s of CPU, paid by every ``localmind add`` whose
new memory has a neighbour to compare with. The decoded table is a pure function of the
installed package's data file, so the first process that needs it writes it to the user cache
directory in 1,024 buckets (by CRC-32 of the word); later processes read that file (~4 MB,
checked against its CRC-32) and unpack a bucket only when a word looks into it.

The lemmas are the package's own: simplemma's strategies run unchanged over the same entries (a
test compares every word of the dictionary). The file is a :mod:`localmind.derived_tables` one:
named after simplemma's version, localmind's and the install; a file of another format,
version, source or checksum is never used: it is rebuilt. Any failure to read or write it falls
back to simplemma's own loading. It holds the package's dictionary and nothing else: never a
memory's words.
"""

from __future__ import annotations

import logging
import marshal
import zlib
from collections.abc import Mapping
from functools import cache
from pathlib import Path

import platformdirs
import simplemma
from simplemma.strategies import DefaultStrategy, DictionaryLookupStrategy
from simplemma.strategies.dictionaries.dictionary_factory import (
    DATA_FOLDER,
    DEFAULT_DICTIONARY_FACTORY,
)
from simplemma.utils import normalize_token

from localmind import derived_tables
from localmind.buckets import LazyBuckets
from localmind.derived_tables import CacheInvalid

log = logging.getLogger(__name__)

LANG = "en"
#: Bumped whenever what is written (or how it is read back) changes.
FORMAT = 1
BUCKETS = 1024


def cache_dir() -> Path:
    return Path(platformdirs.user_cache_dir("localmind", appauthor=False)) / "lemmas"


def _data_file() -> Path:
    return DATA_FOLDER / f"{LANG}.plzma"


#: The file's name before it was a derived_tables one (cold12): 4 MB an upgrade left behind.
_FORMER_NAME = f"simplemma-*-{LANG}-{{place}}-f*.bin"


def _derived() -> derived_tables.Derived:
    return derived_tables.Derived(
        f"simplemma-{LANG}", simplemma.__version__, _data_file(), FORMAT, (_FORMER_NAME,)
    )


def cache_file(directory: Path | None = None) -> Path:
    """Where this install's table is kept: two virtual environments get a file each (their data
    files differ in modification time: one shared file would be rebuilt by each in turn)."""
    return _derived().path(directory or cache_dir())


def bucket_of(key: str) -> int:
    return zlib.crc32(key.encode("utf-8", "surrogatepass")) % BUCKETS


class BucketedDictionary(LazyBuckets[str]):
    """Word -> lemma, each bucket unpacked at its first lookup (simplemma calls only ``get``)."""

    bucket_of = staticmethod(bucket_of)

    def unpack(self, packed: bytes) -> dict[str, str]:
        bucket: dict[str, str] = marshal.loads(packed)
        return bucket


def _packed(table: Mapping[str, str]) -> list[bytes]:
    buckets: list[dict[str, str]] = [{} for _ in range(BUCKETS)]
    for word in table:
        buckets[bucket_of(word)][word] = table[word]
    return [marshal.dumps(bucket, 4) for bucket in buckets]


def _read(path: Path) -> BucketedDictionary:
    return _unpack(derived_tables.read(_derived(), path.parent))


def _unpack(buckets: object) -> BucketedDictionary:
    if not isinstance(buckets, list) or len(buckets) != BUCKETS:
        raise CacheInvalid("no buckets")
    return BucketedDictionary(buckets)


def _write(path: Path, table: Mapping[str, str]) -> None:
    derived_tables.write(_derived(), _packed(table), path.parent)


def load(directory: Path | None = None) -> Mapping[str, str]:
    """The English dictionary: from the cache when it is valid, else from the package (and the
    cache is then written for the next process). Never fails because of the cache."""
    return derived_tables.load(
        _derived(),
        lambda: DEFAULT_DICTIONARY_FACTORY.get_dictionary(LANG),
        _packed,
        _unpack,
        directory or cache_dir(),
    )


class _CachedDictionaries:
    """simplemma's ``DictionaryFactory``: English from :func:`load`, other languages its own."""

    def get_dictionary(self, lang: str) -> Mapping[str, str]:
        return english() if lang == LANG else DEFAULT_DICTIONARY_FACTORY.get_dictionary(lang)


@cache
def english() -> Mapping[str, str]:
    return load()


_FACTORY = _CachedDictionaries()
_LEMMATIZER = simplemma.Lemmatizer(
    lemmatization_strategy=DefaultStrategy(dictionary_factory=_FACTORY)
)
_LOOKUP = DictionaryLookupStrategy(_FACTORY)


def lemmatize(word: str) -> str:
    """``simplemma.lemmatize(word, lang="en")``."""
    return str(_LEMMATIZER.lemmatize(word, LANG))


def is_known(word: str) -> bool:
    """``simplemma.is_known(word, lang="en")``."""
    return _LOOKUP.get_lemma(normalize_token(word), LANG) is not None

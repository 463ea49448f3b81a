"""English lemmas for :mod:`localmind.statement`: simplemma's, over its dictionary read from a
derived cache.

simplemma decodes its whole English dictionary (181k entries, front-coded and lzma-compressed)
at the first lemma a process asks for: ~0.12 s of CPU, paid by every ``localmind add`` whose
new memory has a neighbour to compare with. The decoded table is a pure function of the
installed package's data file, so the first process that needs it writes it to the user cache
directory in 1,024 buckets (by CRC-32 of the word); later processes read that file (~4 MB,
checked against its CRC-32) and unpack a bucket only when a word looks into it.

The lemmas are the package's own: simplemma's strategies run unchanged over the same entries (a
test compares every word of the dictionary). The file is named after simplemma's version and
the install; it records the data file's size and modification time, and a file of another
format, source or checksum is never used: it is rebuilt. Any failure to read or write it falls
back to simplemma's own loading. It holds the package's dictionary and nothing else: never a
memory's words.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import marshal
import os
import tempfile
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

from localmind.buckets import LazyBuckets

log = logging.getLogger(__name__)

LANG = "en"
#: Bumped whenever what is written (or how it is read back) changes.
FORMAT = 1
BUCKETS = 1024
_MAGIC = b"localmind lemmas\n"


class CacheInvalid(Exception):
    """The file on disk cannot be used as it is; the message says why."""


def cache_dir() -> Path:
    return Path(platformdirs.user_cache_dir("localmind", appauthor=False)) / "lemmas"


def _data_file() -> Path:
    return DATA_FOLDER / f"{LANG}.plzma"


def cache_file(directory: Path | None = None) -> Path:
    """Where this install's table is kept: two virtual environments get a file each (their data
    files differ in modification time: one shared file would be rebuilt by each in turn)."""
    place = hashlib.sha256(str(_data_file()).encode()).hexdigest()[:8]
    name = f"simplemma-{simplemma.__version__}-{LANG}-{place}-f{FORMAT}.bin"
    return (directory or cache_dir()) / name


def _stamp() -> list[int]:
    stat = _data_file().stat()
    return [stat.st_size, stat.st_mtime_ns]


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
    try:
        data = path.read_bytes()
    except OSError as error:
        raise CacheInvalid(f"unreadable: {error}") from None
    head = len(_MAGIC) + 4
    if data[: len(_MAGIC)] != _MAGIC or len(data) < head:
        raise CacheInvalid("not a lemma table")
    if zlib.crc32(data[head:]) != int.from_bytes(data[len(_MAGIC) : head], "big"):
        raise CacheInvalid("damaged (checksum)")
    try:
        content = marshal.loads(data[head:])
    except (EOFError, ValueError, TypeError) as error:
        raise CacheInvalid(f"unreadable: {error}") from None
    expected = {"format": FORMAT, "version": simplemma.__version__, "source": _stamp()}
    for field, value in expected.items():
        if not isinstance(content, dict) or content.get(field) != value:
            raise CacheInvalid(f"{field} is not {value!r}")
    buckets = content.get("buckets")
    if not isinstance(buckets, list) or len(buckets) != BUCKETS:
        raise CacheInvalid("no buckets")
    return BucketedDictionary(buckets)


def _write(path: Path, table: Mapping[str, str]) -> None:
    """Written to a temporary sibling and renamed into place: another process sees no file or
    a complete one. Files of other versions or formats of this install go."""
    content = {
        "format": FORMAT,
        "version": simplemma.__version__,
        "source": _stamp(),
        "buckets": _packed(table),
    }
    payload = marshal.dumps(content, 4)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, staging = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(_MAGIC + zlib.crc32(payload).to_bytes(4, "big") + payload)
        os.replace(staging, path)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(staging)
    place = path.name.split("-")[3]
    for sibling in path.parent.glob(f"simplemma-*-{LANG}-{place}-*.bin"):
        if sibling != path:
            with contextlib.suppress(OSError):
                sibling.unlink()


def load(directory: Path | None = None) -> Mapping[str, str]:
    """The English dictionary: from the cache when it is valid, else from the package (and the
    cache is then written for the next process). Never fails because of the cache."""
    path = cache_file(directory)
    try:
        return _read(path)
    except CacheInvalid as error:
        if path.exists():
            log.info("lemma cache %s not used (%s): rebuilding it", path, error)
    except OSError as error:  # the package's data file itself: let simplemma report it
        log.info("lemma cache not used: %s", error)
    table = DEFAULT_DICTIONARY_FACTORY.get_dictionary(LANG)
    try:
        _write(path, table)
    except OSError as error:
        log.info("lemma cache not written (%s): simplemma loads its own next time", error)
    return table


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

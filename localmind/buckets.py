"""A big str-keyed table kept packed in buckets, each unpacked at its first lookup: a process
that looks up a few keys (a query's pieces, a memory's words) unpacks a few buckets, not the
whole table (the bundled model's prefix table, simplemma's English dictionary)."""

from __future__ import annotations

import marshal
from abc import abstractmethod
from collections.abc import Iterator, Mapping
from typing import Any, TypeVar

V = TypeVar("V")


class LazyBuckets(Mapping[str, V]):
    """Its users call ``get``; anything else unpacks the whole table. Unpacking a bucket twice
    from two threads gives equal dicts, so no lock is needed."""

    def __init__(self, packed: list[bytes]) -> None:
        self._packed = packed
        self._buckets: list[dict[str, V] | None] = [None] * len(packed)

    @staticmethod
    @abstractmethod
    def bucket_of(key: str) -> int:
        """Which bucket holds ``key``."""

    @abstractmethod
    def unpack(self, packed: bytes) -> dict[str, V]:
        """A bucket's entries from its packed form."""

    def _bucket(self, index: int) -> dict[str, V]:
        bucket = self._buckets[index]
        if bucket is None:
            bucket = self._buckets[index] = self.unpack(self._packed[index])
        return bucket

    def get(self, key: str, default: Any = None) -> Any:
        return self._bucket(self.bucket_of(key)).get(key, default)

    def __getitem__(self, key: str) -> V:
        return self._bucket(self.bucket_of(key))[key]

    def __iter__(self) -> Iterator[str]:
        for index in range(len(self._packed)):
            yield from self._bucket(index)

    def __len__(self) -> int:
        return sum(len(self._bucket(index)) for index in range(len(self._packed)))


FIRST_CHARACTER_BUCKETS = 4096


def by_first_character(key: str) -> int:
    """A Chinese dictionary's bucket of ``key``: jieba looks up every prefix of a text from one
    position on, all in one bucket."""
    return ord(key[0]) % FIRST_CHARACTER_BUCKETS if key else 0


class FirstCharacterBuckets(LazyBuckets[V]):
    """A str-keyed table in buckets by the key's first character, each a marshalled dict."""

    bucket_of = staticmethod(by_first_character)

    def unpack(self, packed: bytes) -> dict[str, V]:
        bucket: dict[str, V] = marshal.loads(packed)
        return bucket

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and key in self._bucket(by_first_character(key))

    @staticmethod
    def pack(table: Mapping[str, Any]) -> list[bytes]:
        buckets: list[dict[str, Any]] = [{} for _ in range(FIRST_CHARACTER_BUCKETS)]
        for key, value in table.items():
            buckets[by_first_character(key)][key] = value
        return [marshal.dumps(bucket, 4) for bucket in buckets]

    @classmethod
    def of(cls, packed: object) -> FirstCharacterBuckets[V]:
        """The table from :meth:`pack`'s buckets; ValueError if they are not that."""
        if not (isinstance(packed, list) and len(packed) == FIRST_CHARACTER_BUCKETS):
            raise ValueError("not a table's buckets")
        return cls(packed)

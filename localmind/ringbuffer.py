"""The short-term memory: a fixed-capacity ring buffer of the session's recent items."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Generic, TypeVar

from localmind.embedders.base import Vectors
from localmind.records import MemoryRecord

T = TypeVar("T")


@dataclass(slots=True)
class ShortTerm:
    """A memory in the session's ring buffer, with its vector (written by ``writing``, searched
    by ``recall``: declared here, below both)."""

    record: MemoryRecord
    vector: Vectors


class RingBuffer(Generic[T]):
    """Keeps the newest ``capacity`` items; pushing onto a full buffer drops the oldest, in O(1)."""

    def __init__(self, capacity: int) -> None:
        if capacity < 1:
            raise ValueError("a ring buffer needs a capacity of at least 1")
        self._items: deque[T] = deque(maxlen=capacity)

    @property
    def capacity(self) -> int:
        assert self._items.maxlen is not None
        return self._items.maxlen

    def push(self, item: T) -> T | None:
        """Add ``item``; return the item dropped to make room, if any."""
        dropped = self._items[0] if len(self._items) == self._items.maxlen else None
        self._items.append(item)
        return dropped

    def remove_if(self, predicate: object) -> int:
        keep = [item for item in self._items if not predicate(item)]  # type: ignore[operator]
        removed = len(self._items) - len(keep)
        self._items.clear()
        self._items.extend(keep)
        return removed

    def clear(self) -> None:
        self._items.clear()

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[T]:
        """Oldest first."""
        return iter(self._items)

    def newest_first(self) -> Iterator[T]:
        return reversed(self._items)

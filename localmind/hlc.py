"""Hybrid logical clock: change stamps that order events across devices even when wall clocks
disagree. A stamp sorts as text: ``<13-digit ms>.<6-digit counter>.<device id>``.

The counter never needs a seventh digit: past ``MAX_COUNTER`` it carries into the
milliseconds (the clock runs one millisecond ahead of the wall, as it does after observing a
stamp from a clock ahead of it). The order stays the numeric one, the text keeps its width,
and every device keeps accepting the stamps."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True, order=True)
class Stamp:
    millis: int
    counter: int
    device: str

    def __str__(self) -> str:
        return f"{self.millis:013d}.{self.counter:06d}.{self.device}"

    @classmethod
    def parse(cls, text: str) -> Stamp:
        millis, counter, device = text.split(".", 2)
        return cls(int(millis), int(counter), device)


MAX_COUNTER = 999_999  # six digits


def _next(millis: int, counter: int) -> tuple[int, int]:
    return (millis, counter + 1) if counter < MAX_COUNTER else (millis + 1, 0)


class HybridLogicalClock:
    def __init__(self, device: str, wall: Callable[[], float], last: Stamp | None = None) -> None:
        self._device = device
        self._wall = wall
        self._millis = last.millis if last else 0
        self._counter = last.counter if last else 0
        self._lock = threading.Lock()

    def now(self) -> Stamp:
        """A stamp later than every stamp this clock has issued or seen."""
        with self._lock:
            wall = int(self._wall() * 1000)
            if wall > self._millis:
                self._millis, self._counter = wall, 0
            else:
                self._millis, self._counter = _next(self._millis, self._counter)
            return Stamp(self._millis, self._counter, self._device)

    def observe(self, remote: Stamp) -> None:
        """Move past a stamp received from another device."""
        with self._lock:
            if (remote.millis, remote.counter) > (self._millis, self._counter):
                self._millis, self._counter = remote.millis, remote.counter

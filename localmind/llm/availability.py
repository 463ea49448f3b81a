"""Whether a model server can be asked, checked at most every 30 s: ``available()`` sits on the
path of every remember and every chat turn, and a check is an HTTP round trip."""

from __future__ import annotations

import time
from collections.abc import Callable

TTL_S = 30.0


class Availability:
    """``check`` returns why the model cannot be asked, or "" when it can; it never raises."""

    def __init__(
        self, check: Callable[[], str], clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._check = check
        self._clock = clock
        self._checked_at: float | None = None
        self.status = "not checked yet"

    def available(self) -> bool:
        now = self._clock()
        if self._checked_at is None or now - self._checked_at > TTL_S:
            self.status = self._check()
            self._checked_at = now
        return not self.status

    def lost(self, reason: str) -> None:
        """A request just failed for ``reason``: say so until the next check is due."""
        self.status, self._checked_at = reason, self._clock()

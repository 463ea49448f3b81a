"""How commands print: counts with their nouns, dates, one-line texts, JSON, a progress bar."""

from __future__ import annotations

import json
import sys
from contextlib import ExitStack
from datetime import UTC, datetime
from typing import Any

import click

from localmind.terminal import printable


def plural(count: int, one: str, many: str | None = None) -> str:
    """``1 memory``, ``2 memories``: the count with the noun it needs."""
    return f"{count} {one if count == 1 else many or one + 's'}"


def n_memories(count: int) -> str:
    return plural(count, "memory", "memories")


def when(timestamp: float | None) -> str:
    """The moment in this computer's time zone, named (``2026-12-01 23:40 CET``): an
    unlabelled UTC time read as local was hours off."""
    if not timestamp:
        return "-"
    return _local(timestamp).strftime("%Y-%m-%d %H:%M %Z").rstrip()


def one_line(text: str, width: int = 72) -> str:
    flat = printable(" ".join(text.split()), newlines=False)
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def echo_json(document: object) -> None:
    # JSON escapes C0 controls itself, not C1, DEL or bidi marks; printable's escapes are JSON.
    click.echo(printable(json.dumps(document, ensure_ascii=False, indent=2)))


def day(timestamp: float | None) -> str:
    """The day in this computer's time zone (as :func:`when`)."""
    if not timestamp:
        return "-"
    return _local(timestamp).strftime("%Y-%m-%d")


def _local(timestamp: float) -> datetime:
    return datetime.fromtimestamp(timestamp, UTC).astimezone()


class PagesBar:
    """A progress bar of pages copied, shown only when the copy takes more than one step (its
    length, the store's pages, is known after the first)."""

    def __init__(self, stack: ExitStack, label: str) -> None:
        self._stack = stack
        self._label = label
        self._bar: Any = None

    def __call__(self, done: int, total: int) -> None:
        if self._bar is None:
            if done >= total:
                return
            self._bar = self._stack.enter_context(
                click.progressbar(length=total, label=self._label, file=sys.stderr)
            )
        self._bar.update(done - self._bar.pos)

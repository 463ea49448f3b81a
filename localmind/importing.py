"""Reading memories from a file a person wrote: JSON lines or plain text, one memory a line.
Bad lines are reported with their line numbers; good ones are kept. A date that cannot be
read is different (:attr:`BadLine.whole_file`): a file's dates are usually all written alike,
so the rest would be wrong too, and the whole file is refused."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from localmind import validation
from localmind.config import Limits
from localmind.errors import InvalidInput
from localmind.records import MemoryType, Status, content_hash
from localmind.transfer import Carried, Restorable, from_export_line, is_export
from localmind.writing import NewMemory

_FIELDS = {"content", "type", "importance", "metadata", "created_at", "time"}


@dataclass(frozen=True, slots=True)
class BadLine:
    line: int
    reason: str
    whole_file: bool = False  # the file is refused, not only this line (a date's problem)


class BadDate(ValueError):
    """A line's ``created_at`` (or ``time``) is not a date localmind can read."""


#: What a date in a file may be, said with every date that is not.
DATE_FORMS = "dates are ISO 8601 (2025-03-20, 2025-03-20T09:30:00+01:00) or Unix seconds"


#: Distinct texts an import's count keeps at most (~100 bytes each); past them each line counts
#: as new, so the count stays an upper bound and its memory bounded whatever the file's size.
COUNTED_DISTINCT = 200_000


@dataclass(slots=True)
class MostAdded:
    """The most active memories an import's items could add, counted as the file is read once
    before any embedding or judging (review12 R12: a first import over the capacity was refused
    only after minutes of both). A text counts once (an event once per moment it is dated: the
    same run on another day is another run), an exported memory once by its id; a text or an
    exported memory already in the store (:meth:`here`) counts none. Merges of restatements and
    texts a memory replaced may leave fewer: the import's own end checks the exact count."""

    texts: dict[str, None] = field(default_factory=dict)  # facts' content hashes, in order
    events: set[tuple[str, float | None]] = field(default_factory=set)
    exported: dict[str, None] = field(default_factory=dict)  # active exported memories' ids
    uncounted: int = 0  # items past COUNTED_DISTINCT, each counted as new

    def note(self, item: NewMemory | Restorable | Carried) -> None:
        if isinstance(item, NewMemory):
            if item.type is MemoryType.SHORT_TERM:
                return  # (the session's buffer: never stored)
            hashed = content_hash(item.content)
            if hashed in self.texts or (hashed, item.created_at) in self.events:
                return
            if len(self.texts) + len(self.events) + len(self.exported) >= COUNTED_DISTINCT:
                self.uncounted += 1
            elif item.type is MemoryType.EPISODIC:
                self.events.add((hashed, item.created_at))
            else:
                self.texts[hashed] = None
        elif isinstance(item, Restorable) and item.record.status is Status.ACTIVE:
            if item.record.id in self.exported:
                return
            if len(self.texts) + len(self.events) + len(self.exported) >= COUNTED_DISTINCT:
                self.uncounted += 1
            else:
                self.exported[item.record.id] = None
        # (what an export's memories wait for adds no memory)

    def here(self, active_text: Callable[[str], bool], stored: Callable[[str], bool]) -> int:
        """The count, less the facts whose text is ``active_text`` in the store (a repeat
        raises its confidence) and the exported ids already ``stored`` (skipped, or forgotten
        here: never brought back)."""
        facts = sum(1 for hashed in self.texts if not active_text(hashed))
        exported = sum(1 for memory_id in self.exported if not stored(memory_id))
        return facts + len(self.events) + exported + self.uncounted


def detect_jsonl(path: Path, first_line: str) -> bool:
    return path.suffix.lower() in (".jsonl", ".ndjson") or first_line.lstrip().startswith("{")


def read_lines(
    handle: Iterable[str], *, jsonl: bool, default_type: str, namespace: str = "me"
) -> Iterator[tuple[int, NewMemory | Restorable | Carried | BadLine]]:
    """(line number, memory or problem) for every non-blank line. A line of a localmind export
    becomes a :class:`Restorable` (restored as it was, into ``namespace``), or what its
    memories were waiting for (:data:`Carried`: a pending conflict, a later-version note)."""
    for number, raw in enumerate(handle, start=1):
        line = raw.strip()
        if not line:
            continue
        if not jsonl:
            yield number, NewMemory(content=line, type=default_type)
            continue
        try:
            yield number, _from_json(line, default_type, namespace)
        except BadDate as error:
            yield number, BadLine(number, f"{error} ({DATE_FORMS}).", whole_file=True)
        except ValueError as error:
            yield number, BadLine(number, str(error))


def _from_json(line: str, default_type: str, namespace: str) -> NewMemory | Restorable | Carried:
    try:
        document: Any = json.loads(line)
    except json.JSONDecodeError as error:
        raise ValueError(f"not valid JSON ({error.msg} at column {error.colno})") from None
    except RecursionError:
        raise ValueError("not valid JSON (nested too deeply)") from None
    if isinstance(document, dict) and is_export(document):
        return from_export_line(document, namespace, Limits())
    if isinstance(document, str):
        return NewMemory(content=document, type=default_type)
    if not isinstance(document, dict):
        raise ValueError("expected a JSON object with a 'content' field")
    if "content" not in document:
        raise ValueError("missing the 'content' field")
    unknown = set(document) - _FIELDS
    if unknown:
        raise ValueError(f"unknown field(s): {', '.join(sorted(unknown))}")
    when = document.get("created_at", document.get("time"))
    return NewMemory(
        content=document["content"],
        type=document.get("type", default_type),
        importance=document.get("importance"),
        metadata=document.get("metadata"),
        created_at=_timestamp(when),
    )


def _timestamp(value: object) -> float | None:
    """Unix seconds, or an ISO 8601 date/time (naive times are taken as UTC)."""
    return None if value is None else read_date(value)


def read_date(value: object, name: str = "created_at") -> float:
    """A memory's date as Unix seconds: a number of them, or an ISO 8601 date/time (naive
    times are taken as UTC), or :class:`BadDate` naming ``name`` (an import line's field,
    ``add --date``: both read dates alike)."""
    if isinstance(value, bool):
        raise BadDate(f"{name} must be a date or Unix time, not {value!r}")
    if isinstance(value, (int, float)):
        try:
            seconds = float(value)
        except OverflowError:
            raise BadDate(f"{name} is too large to be a Unix time") from None
        try:
            return validation.timestamp(seconds, name)
        except InvalidInput as error:
            raise BadDate(str(error).rstrip(".")) from None
    if isinstance(value, str):
        try:
            parsed = datetime.fromisoformat(value.strip())
        except ValueError:
            raise BadDate(f"{name} {value!r} is not an ISO 8601 date") from None
        if parsed.tzinfo is None:
            parsed = parsed.replace(tzinfo=UTC)
        return parsed.timestamp()
    raise BadDate(f"{name} must be a date or Unix time, not {value!r}")

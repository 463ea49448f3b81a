"""Reading memories from a file a person wrote: JSON lines or plain text, one memory a line.
Bad lines are reported with their line numbers; good ones are kept. A date that cannot be
read is different (:attr:`BadLine.whole_file`): a file's dates are usually all written alike,
so the rest would be wrong too, and the whole file is refused."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from localmind import validation
from localmind.config import Limits
from localmind.errors import InvalidInput
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
    if value is None:
        return None
    if isinstance(value, bool):
        raise BadDate(f"created_at must be a date or Unix time, not {value!r}")
    if isinstance(value, (int, float)):
        try:
            seconds = float(value)
        except OverflowError:
            raise BadDate("created_at is too large to be a Unix time") from None
        try:
            return validation.timestamp(seconds, "created_at")
        except InvalidInput as error:
            raise BadDate(str(error).rstrip(".")) from None
    if isinstance(value, str):
        try:
            parsed = datetime.fromisoformat(value.strip())
        except ValueError:
            raise BadDate(f"created_at {value!r} is not an ISO 8601 date") from None
        if parsed.tzinfo is None:
            parsed = parsed.replace(tzinfo=UTC)
        return parsed.timestamp()
    raise BadDate(f"created_at must be a date or Unix time, not {value!r}")

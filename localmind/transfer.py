"""Export for humans and other tools (JSON lines, Markdown), and the JSON-lines import that
restores an export exactly: ids, versions with their history, confidence, timestamps.

Exports are plaintext: whoever holds the file can read every memory.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import MISSING, asdict, dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from localmind import validation
from localmind.config import Limits
from localmind.errors import InvalidInput
from localmind.records import (
    DECLARED,
    EXPORTED,
    MemoryRecord,
    MemoryType,
    Status,
    Version,
    default_of,
)

#: Version 2 (io10) adds lines for what the export's memories were waiting for: each pending
#: conflict between two of them, and each later-version note (a newer memory that may replace
#: an earlier one), after the memory lines. Version 1 files (memories only) still import.
EXPORT_FORMAT = "localmind-export/2"
_FORMAT_1 = "localmind-export/1"
PLAINTEXT_WARNING = (
    "Warning: the export is NOT encrypted. Anyone who can read the file can read these "
    "memories; keep it somewhere safe and delete it when done."
)


@dataclass(frozen=True, slots=True)
class Restorable:
    """One exported memory, checked, ready to be written back. ``carries_queue``: its file
    (version 2) carries the pending conflicts and later-version notes between its memories,
    so those pairs are restored from it, not judged again."""

    record: MemoryRecord
    history: list[Version]
    carries_queue: bool = False


@dataclass(frozen=True, slots=True)
class CarriedConflict:
    """A pending conflict between two exported memories: queued again on import, unless the
    importing store already has (or had) a conflict about the pair, or one of the two is not
    active there (a person settled it)."""

    existing_id: str
    candidate_id: str
    similarity: float
    reason: str
    queued_at: float


@dataclass(frozen=True, slots=True)
class CarriedNote:
    """A later-version note: the memory ``later_id`` may replace ``earlier_id`` (recall ranks
    it first)."""

    earlier_id: str
    later_id: str
    similarity: float | None


#: What an export line may be besides a memory: what its memories were waiting for.
Carried = CarriedConflict | CarriedNote


@dataclass(frozen=True, slots=True)
class Restored:
    """What :meth:`Memory.restore` did: how many were written back, the ids already present
    (left as they were), the ids the capacity limit archived to make room, the ids of those
    written back that are marked secret (kept from assistants), and the ids forgotten here
    (not brought back: a forget is final), those a review here settled away (merged into
    another memory, or set aside) apart, and the ids written back."""

    restored: int
    skipped: list[str]
    evicted: list[str]
    secret: list[str] = field(default_factory=list)
    forgotten: list[str] = field(default_factory=list)
    settled_away: list[str] = field(default_factory=list)
    written: list[str] = field(default_factory=list)  # the ids written back


#: Beside each time of an export (Unix seconds, which restore exactly), the same moment in
#: ISO 8601 UTC under this suffix, for people and other tools; an import reads it when the
#: seconds are missing.
ISO_SUFFIX = "_iso"


def to_document(record: MemoryRecord, history: Iterable[Version]) -> dict[str, Any]:
    document = record.to_dict()
    for name in [name for name in document if DECLARED[name].kind in _TIMES]:
        if document[name] is not None:
            document[name + ISO_SUFFIX] = iso(document[name])
    document["format"] = EXPORT_FORMAT
    document["history"] = [
        {
            "version": v.version,
            "content": v.content,
            "reason": v.reason,
            "at": v.replaced_at,
            "at" + ISO_SUFFIX: iso(v.replaced_at),
        }
        for v in history
    ]
    return document


_TIMES = ("time", "optional_time")


def iso(timestamp: float) -> str:
    """``2026-12-01T22:36:40.123456Z``: ISO 8601 in UTC, to the microsecond."""
    return datetime.fromtimestamp(timestamp, UTC).isoformat().replace("+00:00", "Z")


_CONFLICT = "pending_conflict"
_NOTE = "later_version"


def carried_document(item: Carried) -> dict[str, Any]:
    """An export line for what its memories wait for: its fields under the kind's key."""
    fields = asdict(item)
    if isinstance(item, CarriedConflict):
        fields["queued_at" + ISO_SUFFIX] = iso(item.queued_at)
        return {"format": EXPORT_FORMAT, _CONFLICT: fields}
    return {"format": EXPORT_FORMAT, _NOTE: fields}


def is_export(document: dict[str, Any]) -> bool:
    return document.get("format") in (EXPORT_FORMAT, _FORMAT_1)


def from_export_line(
    document: dict[str, Any], namespace: str, limits: Limits
) -> Restorable | Carried:
    """Check a line of an export (:func:`is_export`): a memory, or what they waited for."""
    if document.get("format") == EXPORT_FORMAT and _CONFLICT in document:
        return _carried_conflict(document[_CONFLICT])
    if document.get("format") == EXPORT_FORMAT and _NOTE in document:
        return _carried_note(document[_NOTE])
    restorable = from_document(document, namespace, limits)
    if document.get("format") == EXPORT_FORMAT:
        return replace(restorable, carries_queue=True)
    return restorable


def _carried_conflict(value: object) -> CarriedConflict:
    if not isinstance(value, dict):
        raise InvalidInput(f"'{_CONFLICT}' must be an object")
    reason = value.get("reason", "")
    if not isinstance(reason, str) or len(reason) > 2000 or not validation.is_unicode(reason):
        raise InvalidInput("a pending conflict's 'reason' must be a short text")
    return CarriedConflict(
        _memory_id(value, "existing_id"),
        _memory_id(value, "candidate_id"),
        _similarity(value.get("similarity")),
        reason,
        _required_time(value, "queued_at"),
    )


def _carried_note(value: object) -> CarriedNote:
    if not isinstance(value, dict):
        raise InvalidInput(f"'{_NOTE}' must be an object")
    similarity = value.get("similarity")
    return CarriedNote(
        _memory_id(value, "earlier_id"),
        _memory_id(value, "later_id"),
        None if similarity is None else _similarity(similarity),
    )


def _memory_id(value: dict[str, Any], key: str) -> str:
    return validation.identifier(value.get(key), f"'{key}'")


def _similarity(value: object) -> float:
    """A cosine as stored (within -1 to 1, give or take float rounding)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not abs(value) <= 1.001:
        raise InvalidInput(f"'similarity' must be a number from -1 to 1, not {value!r:.40}")
    return max(-1.0, min(1.0, float(value)))


def from_document(document: dict[str, Any], namespace: str, limits: Limits) -> Restorable:
    """Check an exported line; the memory goes into ``namespace`` (the importing user)."""
    try:
        values = {name: _field(document, name, limits) for name in EXPORTED if name != "namespace"}
        record = MemoryRecord(**values, namespace=namespace)
    except ValueError as error:
        raise InvalidInput(str(error)) from None
    if record.type is MemoryType.SHORT_TERM or record.status is Status.DELETED:
        raise InvalidInput(f"a {record.status} {record.type} memory cannot be imported")
    history = []
    raw_history = document.get("history", [])
    if not isinstance(raw_history, list):
        raise InvalidInput("'history' must be a list")
    for item in raw_history:
        if not isinstance(item, dict):
            raise InvalidInput("each 'history' entry must be an object")
        version = validation.whole_number(item.get("version", 1), "'version'", minimum=1)
        if version >= record.version:
            raise InvalidInput(f"history version {version} is not before {record.version}")
        reason = item.get("reason", "update")
        if not isinstance(reason, str) or len(reason) > 200 or not validation.is_unicode(reason):
            raise InvalidInput("a history entry's 'reason' must be a short text")
        history.append(
            Version(
                version,
                validation.content(item.get("content"), limits, what="A history entry"),
                reason,
                _required_time(item, "at"),
            )
        )
    return Restorable(record, history)


def _field(document: dict[str, Any], name: str, limits: Limits) -> Any:
    """One declared field of an exported line, checked; a field the line lacks takes its
    default, except a required time (``created_at``, ``updated_at``)."""
    if DECLARED[name].kind == "time":
        return _required_time(document, name)
    if DECLARED[name].kind == "optional_time" and document.get(name) is None:
        return None if document.get(name + ISO_SUFFIX) is None else _required_time(document, name)
    if name not in document:
        default = default_of(name)
        if default is not MISSING:
            return default
    return validation.field_value(name, document.get(name), limits, label=f"'{name}'")


def _required_time(document: dict[str, Any], key: str) -> float:
    """The seconds under ``key`` (exact), else its ISO 8601 twin (``key`` + ISO_SUFFIX)."""
    value = document.get(key)
    if value is None:
        written = document.get(key + ISO_SUFFIX)
        if written is None:
            raise InvalidInput(f"'{key}' is missing")
        if not isinstance(written, str):
            raise InvalidInput(f"'{key}{ISO_SUFFIX}' must be an ISO 8601 date")
        try:
            parsed = datetime.fromisoformat(written.strip())
        except ValueError:
            raise InvalidInput(
                f"'{key}{ISO_SUFFIX}' {written[:40]!r} is not an ISO 8601 date"
            ) from None
        value = (parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)).timestamp()
    return validation.timestamp(value, f"'{key}'")


def markdown(records: Iterable[tuple[MemoryRecord, list[Version]]], title: str) -> Iterator[str]:
    """A readable document: memories grouped by type, newest first, with their history."""
    by_type: dict[MemoryType, list[tuple[MemoryRecord, list[Version]]]] = {}
    for record, history in records:
        by_type.setdefault(record.type, []).append((record, history))
    yield f"# {title}\n"
    yield f"Exported {_date(datetime.now(UTC).timestamp())}{_MARKDOWN_STAMP}\n"
    for kind in (MemoryType.SEMANTIC, MemoryType.LONG_TERM, MemoryType.EPISODIC):
        entries = sorted(by_type.get(kind, []), key=lambda e: e[0].created_at, reverse=True)
        if not entries:
            continue
        yield f"\n## {kind.value.replace('_', ' ').capitalize()} ({len(entries)})\n"
        for record, history in entries:
            flags = [f"confidence {record.confidence:.2f}", f"importance {record.importance:.2f}"]
            if record.pinned:
                flags.append("pinned")
            if record.status is not Status.ACTIVE:
                flags.append(record.status.shown)
            details = " · ".join([_date(record.created_at), *flags, f"`{record.id}`"])
            yield f"\n- {record.content}  \n  <sub>{details}</sub>\n"
            for version in history:
                yield f"  - v{version.version} ({version.reason}): {version.content}\n"


_MARKDOWN_STAMP = ". Plain text: keep it safe."
_MARKDOWN_HEAD = re.compile(r"Exported \d{4}-\d{2}-\d{2}" + re.escape(_MARKDOWN_STAMP))


def is_markdown_export(first_lines: Sequence[str]) -> bool:
    """Whether a file's first two non-blank lines are those :func:`markdown` writes: a title and
    its "Exported <date>" line. Such a file is for reading; imported as text, every heading and
    detail line would become a memory."""
    lines = [line.strip() for line in first_lines[:2]]
    return (
        len(lines) == 2 and lines[0].startswith("# ") and bool(_MARKDOWN_HEAD.fullmatch(lines[1]))
    )


def _date(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, UTC).strftime("%Y-%m-%d")

"""Checks at the edge of the library: every bad input becomes a clear InvalidInput, before any
write."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from localmind.config import Limits
from localmind.errors import InFuture, InvalidInput, TooEarly
from localmind.records import DECLARED, MemoryType, Status

_NAMESPACE = re.compile(r"^[^\s/\\\x00-\x1f\ud800-\udfff]{1,64}$")
# Unix times that a date can be printed for (years 1 to 9999): anything else is a mistake, and
# `datetime.fromtimestamp` would fail on it wherever the memory is shown.
EARLIEST_TIME = -62_135_596_800.0
LATEST_TIME = 253_402_300_799.0


def content(text: object, limits: Limits, what: str = "Memory content") -> str:
    if not isinstance(text, str):
        raise InvalidInput(f"{what} must be text, not {type(text).__name__}.")
    stripped = text.strip()
    if not stripped:
        raise InvalidInput(f"{what} is empty.")
    if "\x00" in stripped:
        raise InvalidInput(f"{what} contains a NUL character.")
    if not is_unicode(stripped):
        raise InvalidInput(f"{what} is not valid Unicode text (it has a lone surrogate).")
    if len(stripped) > limits.max_content_chars:
        raise InvalidInput(
            f"{what} is {len(stripped):,} characters long; the limit is "
            f"{limits.max_content_chars:,}. Split it into smaller memories."
        )
    return stripped


def is_unicode(text: str) -> bool:
    """False for text SQLite cannot store: lone surrogates (invalid bytes in a command-line
    argument decode to them, and JSON can spell them as ``\\ud800``)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _finite(value: object) -> float | None:
    """``value`` as a float when it is a finite real number (not a bool), else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        number = float(value)
    except OverflowError:  # an int beyond float range
        return None
    return number if math.isfinite(number) else None


def memory_type(value: object) -> MemoryType:
    if isinstance(value, MemoryType):
        return value
    try:
        return MemoryType(str(value).strip().lower().replace("-", "_"))
    except ValueError:
        known = ", ".join(t.value for t in MemoryType)
        raise InvalidInput(f"Unknown memory type {_short(value)}; use one of: {known}.") from None


def memory_types(values: Iterable[object] | object | None) -> list[MemoryType] | None:
    if values is None:
        return None
    if isinstance(values, (str, MemoryType)) or not isinstance(values, Iterable):
        values = [values]
    parsed = [memory_type(value) for value in values]
    return list(dict.fromkeys(parsed)) or None


def unit_interval(value: object, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidInput(f"{name} must be a number between 0 and 1, not {_short(value)}.")
    number = _finite(value)
    if number is None or not 0.0 <= number <= 1.0:
        raise InvalidInput(f"{name} must be between 0 and 1, not {_short(value)}.")
    return number


def limit(value: object, limits: Limits) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"limit must be a whole number, not {_short(value)}.")
    if value <= 0:
        raise InvalidInput(f"limit must be at least 1, not {value}.")
    if value > limits.max_recall_limit:
        raise InvalidInput(f"limit must be at most {limits.max_recall_limit}, not {value}.")
    return value


def metadata(value: object, limits: Limits) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InvalidInput(f"metadata must be a JSON object (a dict), not {type(value).__name__}.")
    _check_shape(value, limits)
    try:
        encoded = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise InvalidInput(f"metadata must be JSON-serialisable: {error}.") from None
    except RecursionError:
        raise InvalidInput("metadata is nested too deeply.") from None
    if not is_unicode(encoded):
        raise InvalidInput("metadata is not valid Unicode text (it has a lone surrogate).")
    if len(encoded.encode()) > limits.max_metadata_bytes:
        raise InvalidInput(f"metadata is larger than {limits.max_metadata_bytes:,} bytes.")
    decoded: dict[str, Any] = json.loads(encoded)
    return decoded


def _check_shape(value: object, limits: Limits) -> None:
    """Refuse metadata nested more than ``max_metadata_depth`` deep (the object itself is level
    1) or with more items than could fit in ``max_metadata_bytes``. Iterative, so any depth is
    measured without recursion; a cycle only ever gets deeper, so it is refused too."""
    pending: list[tuple[object, int]] = [(value, 1)]
    items = 0
    while pending:
        item, depth = pending.pop()
        items += 1
        if items > limits.max_metadata_bytes:  # every item takes at least a byte of JSON
            raise InvalidInput(f"metadata is larger than {limits.max_metadata_bytes:,} bytes.")
        if not isinstance(item, (dict, list, tuple)):
            continue
        if depth > limits.max_metadata_depth:
            raise InvalidInput(
                f"metadata is nested more than {limits.max_metadata_depth} levels deep; flatten it."
            )
        children = item.values() if isinstance(item, dict) else item
        pending.extend((child, depth + 1) for child in children)


def namespace(value: object) -> str:
    if not isinstance(value, str) or not _NAMESPACE.match(value):
        raise InvalidInput(
            f"Namespace {_short(value)} is not valid: use 1–64 characters without spaces or "
            "slashes."
        )
    return value


def threshold(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidInput(f"threshold must be a number, not {_short(value)}.")
    if isinstance(value, float) and math.isnan(value):
        raise InvalidInput("threshold must be a number, not nan.")
    try:
        return float(value)
    except OverflowError:  # a huge int: no score reaches it
        return math.inf


def timestamp(value: object, name: str) -> float:
    """A Unix time in seconds, within the years 1 to 9999."""
    number = _finite(value)
    if number is None or not EARLIEST_TIME <= number <= LATEST_TIME:
        raise InvalidInput(
            f"{name} must be a Unix time in seconds (years 1 to 9999), not {_short(value)}."
        )
    return number


#: How far past this computer's clock a memory's date may be: a date written without a time
#: zone is read as UTC, up to 14 h ahead of the local time meant, and clocks drift. Beyond
#: it, a date is wrong (a typo, milliseconds read as seconds): a memory told "in 2030" would
#: rank as the newest of all, and count as recent for years.
FUTURE_SLACK = 86_400.0


def not_in_future(when: float, name: str, now: float) -> float:
    if when > now + FUTURE_SLACK:
        shown = datetime.fromtimestamp(when, UTC).strftime("%Y-%m-%d %H:%M UTC")
        today = datetime.fromtimestamp(now, UTC).strftime("%Y-%m-%d")
        raise InFuture(
            f"{name} {shown} is in the future (today is {today}): a memory is dated when it "
            "was told or happened."
        )
    return when


#: The earliest date a new memory may have (1980-01-01 UTC). A memory is dated when it was told
#: or happened, and nothing a person tells an assistant now was told before it; an earlier date
#: is a mistake that would rank the memory as the oldest of all: an unset (0) or negative Unix
#: time (-5 reads as 1969-12-31), a year or a 20250320 written as a number of seconds (both
#: read as 1970), a mistyped century ("1850-01-01"). Something that happened earlier (a birth,
#: a school year) keeps its year in the text. Restored exports keep their dates as they were.
EARLIEST_TOLD = 315_532_800.0


def not_too_early(when: float, name: str) -> float:
    if when < EARLIEST_TOLD:
        shown = datetime.fromtimestamp(when, UTC).strftime("%Y-%m-%d %H:%M UTC")
        raise TooEarly(
            f"{name} {shown} is before 1980: a memory is dated when it was told or happened, "
            "so the date is wrong (an unset or negative Unix time, a year or 20250320 written "
            "as a number of seconds, a mistyped year); an older event keeps its year in the "
            "text."
        )
    return when


# SQLite keeps integers in 64 bits; no version or access count comes near this.
_MAX_COUNT = 10**12


def whole_number(value: object, name: str, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= _MAX_COUNT:
        raise InvalidInput(f"{name} must be a whole number of at least {minimum}")
    return value


def identifier(value: object, name: str) -> str:
    if (
        not isinstance(value, str)
        or not value.strip()
        or len(value) > 64
        or not value.isprintable()
        or not is_unicode(value)
    ):
        raise InvalidInput(f"{name} must be a non-empty id")
    return value.strip()


def flag(value: object, name: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidInput(f"{name} must be true or false")
    return value


SOURCE_CHARS = 200


def source(value: object) -> str:
    """Where a memory came from (``cli``, ``mcp:<client>``, ``import:<file>``): one short line."""
    if (
        not isinstance(value, str)
        or len(value) > SOURCE_CHARS
        or not value.isprintable()
        or not is_unicode(value)
    ):
        raise InvalidInput(
            f"source must be one printable line of at most {SOURCE_CHARS} characters, "
            f"not {_short(value)}."
        )
    return value


def source_of(kind: str, name: str) -> str:
    """A source naming where within its kind (``mcp:<client>``, ``import:<file>``), from a name
    that is not ours (a client's, a file's): cut to one printable line that fits."""
    cleaned = "".join(char for char in name if char.isprintable()).strip()
    cleaned = cleaned.encode("utf-8", "replace").decode("utf-8")  # lone surrogates go
    return f"{kind}:{cleaned}"[:SOURCE_CHARS] if cleaned else kind


def status(value: object) -> Status:
    for known in Status:
        if value == known.value:
            return known
    names = ", ".join(s.value for s in Status)
    raise InvalidInput(f"Unknown status {_short(value)}; use one of: {names}.")


def field_value(name: str, value: object, limits: Limits, label: str | None = None) -> Any:
    """A field of a memory (``localmind.records.DECLARED``) as JSON carries it (an export line,
    an event's payload), checked by its declared kind: the value to keep, or ``InvalidInput``."""
    label = label or name
    match DECLARED[name].kind:
        case "id":
            return identifier(value, label)
        case "content":
            return content(value, limits)
        case "type":
            return memory_type(value)
        case "status":
            return status(value)
        case "json":
            return metadata(value, limits)
        case "unit":
            return unit_interval(value, name)
        case "time":
            return timestamp(value, label)
        case "optional_time":
            return None if value is None else timestamp(value, label)
        case "count":
            return whole_number(value, label)
        case "version":
            return whole_number(value, label, minimum=1)
        case "flag":
            return flag(value, label)
        case "source":
            return source(value)
        case kind:  # namespace and text fields are not read from outside as such
            raise AssertionError(f"no check for a {kind} field ({name})")


def _short(value: object, width: int = 60) -> str:
    """``repr`` of a value cut to one short line: error messages echo what they refuse."""
    text = repr(value)
    return text if len(text) <= width else text[: width - 1] + "…"

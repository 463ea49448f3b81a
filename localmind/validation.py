"""Checks at the edge of the library: every bad input becomes a clear InvalidInput, before any
write."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from typing import Any

from localmind.config import Limits
from localmind.errors import InvalidInput
from localmind.records import MemoryType

_NAMESPACE = re.compile(r"^[^\s/\\\x00-\x1f]{1,64}$")


def content(text: object, limits: Limits, what: str = "Memory content") -> str:
    if not isinstance(text, str):
        raise InvalidInput(f"{what} must be text, not {type(text).__name__}.")
    stripped = text.strip()
    if not stripped:
        raise InvalidInput(f"{what} is empty.")
    if "\x00" in stripped:
        raise InvalidInput(f"{what} contains a NUL character.")
    if len(stripped) > limits.max_content_chars:
        raise InvalidInput(
            f"{what} is {len(stripped):,} characters long; the limit is "
            f"{limits.max_content_chars:,}. Split it into smaller memories."
        )
    return stripped


def memory_type(value: object) -> MemoryType:
    if isinstance(value, MemoryType):
        return value
    try:
        return MemoryType(str(value).strip().lower().replace("-", "_"))
    except ValueError:
        known = ", ".join(t.value for t in MemoryType)
        raise InvalidInput(f"Unknown memory type {value!r}; use one of: {known}.") from None


def memory_types(values: Iterable[object] | object | None) -> list[MemoryType] | None:
    if values is None:
        return None
    if isinstance(values, (str, MemoryType)) or not isinstance(values, Iterable):
        values = [values]
    parsed = [memory_type(value) for value in values]
    return list(dict.fromkeys(parsed)) or None


def unit_interval(value: object, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidInput(f"{name} must be a number between 0 and 1, not {value!r}.")
    number = float(value)
    if math.isnan(number) or not 0.0 <= number <= 1.0:
        raise InvalidInput(f"{name} must be between 0 and 1, not {value!r}.")
    return number


def limit(value: object, limits: Limits) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"limit must be a whole number, not {value!r}.")
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
    try:
        encoded = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise InvalidInput(f"metadata must be JSON-serialisable: {error}.") from None
    if len(encoded.encode()) > limits.max_metadata_bytes:
        raise InvalidInput(f"metadata is larger than {limits.max_metadata_bytes:,} bytes.")
    decoded: dict[str, Any] = json.loads(encoded)
    return decoded


def namespace(value: object) -> str:
    if not isinstance(value, str) or not _NAMESPACE.match(value):
        raise InvalidInput(
            f"Namespace {value!r} is not valid: use 1–64 characters without spaces or slashes."
        )
    return value


def threshold(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
        raise InvalidInput(f"threshold must be a number, not {value!r}.")
    return float(value)


def timestamp(value: object, name: str) -> float:
    """A Unix time in seconds."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise InvalidInput(f"{name} must be a Unix time in seconds, not {value!r}.")
    return float(value)

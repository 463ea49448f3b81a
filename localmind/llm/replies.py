"""Reading what a model sent back, the same way for every backend: text made storable, JSON
objects checked against the schema asked for, errors shortened to one line."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from localmind.llm.base import LLMBadReply

_SURROGATE = re.compile("[\ud800-\udfff]")
# Small models asked for JSON sometimes wrap it in a Markdown code fence anyway.
_FENCED = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL | re.IGNORECASE)


def unicode_text(text: str) -> str:
    """``text`` with lone surrogates (which JSON can spell as ``\\ud800``, and SQLite cannot
    store) replaced by U+FFFD."""
    return _SURROGATE.sub("\ufffd", text)


def json_object(text: str, schema: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON object a model answered with ``text``, when asked for one following ``schema``:
    a code fence around it is tolerated; anything else that is not an object holding the
    schema's required keys is :class:`LLMBadReply`."""
    fenced = _FENCED.match(text)
    if fenced:
        text = fenced.group(1)
    try:
        document = json.loads(text)
    except (ValueError, RecursionError):  # not JSON, nested too deeply, a 5000-digit number
        raise LLMBadReply(f"The model's answer is not JSON: {text[:80]!r}") from None
    if not isinstance(document, dict):
        raise LLMBadReply(f"The model's answer is not a JSON object: {text[:80]!r}")
    shown = json.dumps(document, ensure_ascii=False)
    if unicode_text(shown) != shown:
        raise LLMBadReply("The model's answer is not valid Unicode (a lone surrogate).")
    missing = [key for key in schema.get("required", []) if key not in document]
    if missing:
        raise LLMBadReply(f"The model's answer lacks {', '.join(missing)}: {text[:80]!r}")
    return document


def short(error: BaseException) -> str:
    """The first line of ``error``'s message (its type's name when it has none), at most 120
    characters: enough for a status bar."""
    text = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return text[:120]

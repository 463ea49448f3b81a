"""Settings a person changes without code (``localmind config``), kept in the store's ``meta``
table: the store carries them, so the CLI, the app and the MCP server all obey the same
capacity. Each overrides its default in :class:`~localmind.config.GovernanceConfig`; a setting
never stored keeps the default (or what the program passed in ``Settings``).

They stay on this laptop: ``meta`` does not replicate (sync keeps its own cursors there).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from localmind.config import Settings
from localmind.errors import InvalidInput

META_PREFIX = "config."


@dataclass(frozen=True, slots=True)
class Preference:
    name: str  # as typed on the command line
    field: str  # the GovernanceConfig field it sets
    help: str
    unlimited_word: str  # what None is called: "unlimited", "never"


PREFERENCES = (
    Preference(
        "capacity",
        "capacity",
        "active memories kept per user; beyond it the lowest-valued are archived",
        "unlimited",
    ),
    Preference(
        "archive-retention-days",
        "retention_days",
        "days after which archived memories are purged by maintenance",
        "never",
    ),
    Preference(
        "mcp-writes-per-minute",
        "mcp_writes_per_minute",
        "memory writes an assistant may make over MCP in any minute",
        "unlimited",
    ),
)
_BY_NAME = {preference.name: preference for preference in PREFERENCES}


def find(name: str) -> Preference:
    preference = _BY_NAME.get(name.strip().lower().replace("_", "-"))
    if preference is None:
        known = ", ".join(_BY_NAME)
        raise InvalidInput(f"Unknown setting {name!r}; the settings are: {known}.")
    return preference


def parse(preference: Preference, text: str) -> int | None:
    """The value typed for ``preference``: a whole number of at least 1, or its unlimited
    word (None)."""
    word = text.strip().lower()
    if word == preference.unlimited_word:
        return None
    try:
        value = int(word)
    except ValueError:
        value = 0
    if value < 1 or value > 10**9:
        raise InvalidInput(
            f"{preference.name} must be a whole number from 1 to 1000000000 or "
            f"{preference.unlimited_word!r}, not {text!r}."
        )
    return value


def show(value: int | float | None, preference: Preference) -> str:
    return preference.unlimited_word if value is None else f"{value:g}"


def stored(settings: Settings, get_meta: Callable[[str], str | None]) -> Settings:
    """``settings`` with every preference the store holds applied."""
    changes: dict[str, Any] = {}
    for preference in PREFERENCES:
        text = get_meta(META_PREFIX + preference.name)
        if text == "":
            changes[preference.field] = None
        elif text is not None and text.isdigit():  # anything else: not ours, the default holds
            changes[preference.field] = int(text)
    if not changes:
        return settings
    return replace(settings, governance=replace(settings.governance, **changes))


def to_meta(value: int | None) -> str:
    return "" if value is None else str(value)

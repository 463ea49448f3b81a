"""The fuzz tests explore: each runs dozens of generated examples through real stores, about a
minute and a half for the folder on two cores. They belong to the full run (CI runs every one,
with the same examples each time), not to the quick loop of `-m "not slow"`."""

from __future__ import annotations

from pathlib import Path

import pytest

_HERE = Path(__file__).parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if _HERE in item.path.parents:
            item.add_marker(pytest.mark.slow)

"""A pytest plugin that selects the quick loop as it was before polish13, for timing it beside
today's (docs/benchmarks.md, "The quick loop, round 13"): the tests polish13 marked slow are
unmarked, its combined layer test is left out, and the SQL check parses every module again.
Run from the repository root: ``PYTHONPATH=bench/results pytest -p quick_loop_before_polish13``.
"""

from __future__ import annotations

import re
import sys
from typing import Any

import pytest

#: (node id prefix, node id suffix) of the tests polish13 marked slow.
MARKED = [
    ("tests/tui/test_snapshots.py::", "[120x34]"),
    ("tests/tui/test_conflict_review.py::test_when_the_model_gives_no_usable_answer", ""),
    ("tests/unit/test_lemmas.py::test_a_damaged_or_mismatched_cache", ""),
    ("tests/bench/test_bench_smoke.py::test_retrieval_without_its_outside_data", ""),
    ("tests/unit/test_layers.py::test_an_import_up_the_layers_is_refused", ""),
    ("tests/unit/test_layers.py::test_a_new_core_module_must_be_given_a_layer", ""),
]
COMBINED = "tests/unit/test_layers.py::test_imports_up_the_layers_and_a_module_without_a_layer"


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    dropped = [item for item in items if item.nodeid.startswith(COMBINED)]
    items[:] = [item for item in items if not item.nodeid.startswith(COMBINED)]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
    for item in items:
        if any(item.nodeid.startswith(a) and item.nodeid.endswith(b) for a, b in MARKED):
            item.own_markers[:] = [mark for mark in item.own_markers if mark.name != "slow"]


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: Any) -> None:
    layers = sys.modules.get("tests.unit.test_layers")
    if layers is not None:
        layers.MAY_NAME_SQL = re.compile("")  # every module parsed, as before polish13

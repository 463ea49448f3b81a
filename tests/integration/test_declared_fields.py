"""A memory's fields are declared once (``localmind.records.MemoryRecord``): every declared
field reaches another laptop and an export as its declaration says, so a field added to the
record and forgotten in the store, the replica or the import fails here, not on a user's
second laptop."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from dataclasses import fields
from typing import Any

from localmind import Memory
from localmind.importing import read_lines
from localmind.records import DECLARED, EXPORTED, MemoryRecord, Status, Travel, Version
from localmind.transfer import Restorable, to_document
from tests.conftest import FakeClock

NAMESPACE = "alice"  # not the default: the namespace travels too
T0 = 1_780_000_000.0

# A value unlike the field's default, by declared kind: a kind without a sample fails the test
# until one is written here (and with it, the author has to look at how the kind travels).
SAMPLES: dict[str, Callable[[str], Any]] = {
    "id": lambda name: "01JDECLAREDFIELDSROUNDTRIP",
    "content": lambda name: "I brew green tea from Shizuoka every morning",
    "namespace": lambda name: NAMESPACE,
    "type": lambda name: "semantic",
    "status": lambda name: "expired",
    "json": lambda name: {"topic": "tea", "nested": {"cups": [1, 2]}},
    "unit": lambda name: {"importance": 0.9, "confidence": 0.65}.get(name, 0.3),
    "time": lambda name: T0 - 86_400.0 * (3 if name == "created_at" else 1),
    "optional_time": lambda name: T0 + 86_400.0 * (30 if name == "expires_at" else -2),
    "count": lambda name: 7,
    "version": lambda name: 3,
    "flag": lambda name: True,
    "source": lambda name: "mcp:Claude Desktop",
    "text": lambda name: "",  # derived fields: recomputed, never read from outside
}


def every_field_set() -> dict[str, Any]:
    """An exported memory whose every declared field differs from its default."""
    values = {name: SAMPLES[declared.kind](name) for name, declared in DECLARED.items()}
    for name, value in values.items():
        default = next(f for f in fields(MemoryRecord) if f.name == name).default
        if DECLARED[name].travel is not Travel.DERIVED:
            assert value != default, f"the sample of {name} is its default"
    return values


HISTORY = [Version(1, "I drink tea", "update", T0 - 80_000), Version(2, "I brew tea", "merge", T0)]


def exported_line(values: dict[str, Any]) -> str:
    record = MemoryRecord(**values)
    return json.dumps(to_document(record, HISTORY), ensure_ascii=False) + "\n"


def imported(memory: Memory, line: str) -> MemoryRecord:
    [(_, item)] = list(
        read_lines(io.StringIO(line), jsonl=True, default_type="long_term", namespace=NAMESPACE)
    )
    assert isinstance(item, Restorable), item
    assert memory.restore([item]).restored == 1
    return memory.get(item.record.id)


def fields_of(record: MemoryRecord, names: tuple[str, ...] | list[str]) -> dict[str, Any]:
    return {name: record.to_dict().get(name, getattr(record, name)) for name in names}


def test_every_exported_field_survives_export_and_import(
    open_memory: Callable[..., Memory], tmp_path: Any
) -> None:
    values = every_field_set()
    first = open_memory(namespace=NAMESPACE)
    restored = imported(first, exported_line(values))
    expected = {name: MemoryRecord(**values).to_dict()[name] for name in EXPORTED}
    assert fields_of(restored, EXPORTED) == expected
    assert first.history(restored.id) == HISTORY

    # and once more, from what the store exports (not from the record the test made)
    [(record, history)] = list(first.export())
    second = open_memory(path=tmp_path / "second.db", namespace=NAMESPACE)
    again = imported(second, json.dumps(to_document(record, history)) + "\n")
    assert fields_of(again, EXPORTED) == expected


def by_travel(*travels: Travel) -> list[str]:
    return [name for name, declared in DECLARED.items() if declared.travel in travels]


def test_every_field_reaches_another_laptop_as_declared(
    open_memory: Callable[..., Memory], tmp_path: Any
) -> None:
    values = every_field_set()
    here = open_memory(namespace=NAMESPACE)
    there = open_memory(path=tmp_path / "there.db", namespace=NAMESPACE, clock=FakeClock(T0))
    made = imported(here, exported_line(values))
    there.apply_remote(here.events_since(0))
    arrived = there.get(made.id)

    travelling = by_travel(Travel.FIELD, Travel.VERSIONED, Travel.ENVELOPE, Travel.DERIVED)
    assert fields_of(arrived, travelling) == fields_of(made, travelling)
    local = by_travel(Travel.LOCAL)
    assert local, "access counts stay local: a declaration says so"
    blank = MemoryRecord(id="x", content="x")
    assert fields_of(arrived, local) == fields_of(blank, local)
    assert fields_of(arrived, local) != fields_of(made, local)

    # an update of every field a local change may write travels too, field by field
    changed: dict[str, Any] = {
        "type": "episodic",
        "metadata": {"topic": "coffee"},
        "importance": 0.2,
        "confidence": 0.95,
        "expires_at": T0 + 86_400.0 * 90,
        "pinned": False,
        "status": "active",
    }
    travelling_update = set(by_travel(Travel.FIELD)) - set(changed)
    # what a memory is made with and never changes after; every other travelling field is
    # changed above (a new one must be added there)
    assert travelling_update == {"created_at", "updated_at", "source"}
    here.unarchive(made.id)
    here.update(
        made.id,
        type=changed["type"],
        metadata=changed["metadata"],
        importance=changed["importance"],
        confidence=changed["confidence"],
        expires_at=changed["expires_at"],
        pinned=changed["pinned"],
        content="I brew green tea and sencha every morning",
    )
    there.apply_remote(here.events_since(0))
    updated, arrived = here.get(made.id), there.get(made.id)
    assert arrived.status is Status.ACTIVE
    assert fields_of(updated, list(changed)) == changed
    assert fields_of(arrived, travelling) == fields_of(updated, travelling)
    # the new version's history entry travels; versions restored from an export record no
    # events, so they stay on the laptop that imported them (as before: docs/design.md)
    new_history = [v for v in here.history(made.id) if v.version >= values["version"]]
    assert there.history(made.id) == new_history != []

"""An event and a later fact the queue paired are never made one by take-new: the event would
become the fact and leave recall as what happened that day (review13 J10). The real encrypted
store and the bundled model, through the CLI, the library, and a model's verdict from the
Ollama-speaking test server."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from localmind import Memory, NewMemory
from localmind.errors import InvalidInput
from localmind.lifecycle import Decision, Resolution
from localmind.llm.ollama import OllamaLLM
from tests.cli_support import Cli
from tests.ollama_server import FakeOllama

EVENT = "Tobias took me to my first design review; we went through the onboarding flow redesign"
FACT = "My work now is mainly the checkout flow redesign"


def _paired(memory: Memory) -> int:
    """The event, then the fact, and the conflict the queue made of them (made here if the
    reader no longer pairs them: what is tested is the answer to such a conflict)."""
    event = memory.remember(EVENT, type="episodic")
    fact = memory.remember(FACT, type="semantic")
    for conflict in memory.conflicts():
        if {conflict.existing.id, conflict.candidate.id} == {event.id, fact.id}:
            return conflict.id
    return memory._store.add_conflict(memory.namespace, event.id, fact.id, 0.6, "test", 0.0)


def test_take_new_on_an_event_and_a_fact_is_refused_and_changes_nothing(
    open_memory: Callable[..., Memory],
) -> None:
    memory = open_memory(llm=None)
    conflict = _paired(memory)
    before = sorted((m.id, m.content, str(m.type)) for m in memory.list_memories())
    with pytest.raises(InvalidInput, match=r"event.*keep-both"):
        memory.resolve_conflict(conflict, Resolution.TAKE_NEW)
    assert sorted((m.id, m.content, str(m.type)) for m in memory.list_memories()) == before
    assert conflict in [c.id for c in memory.conflicts()]
    # keep-both settles it; both stay as told
    memory.resolve_conflict(conflict, Resolution.KEEP_BOTH)
    assert {m.content for m in memory.list_memories()} == {EVENT, FACT}
    assert memory.conflicts() == []


def test_the_cli_says_why_and_what_to_answer(
    store_path, open_memory: Callable[..., Memory], cli: Cli
) -> None:
    memory = open_memory(path=cli.db)
    conflict = _paired(memory)
    memory.close()
    refused = cli("resolve", str(conflict), "take-new")
    assert refused.exit_code != 0
    assert "keep-both" in refused.output and "event" in refused.output
    assert sorted(cli.contents()) == sorted([EVENT, FACT])


def test_a_models_contradicts_keeps_both_the_event_and_the_fact(
    open_memory: Callable[..., Memory], llm: OllamaLLM, ollama_server: FakeOllama
) -> None:
    memory = open_memory(llm=llm)
    ollama_server.when_schema_has(
        "relation", json.dumps({"relation": "contradicts", "reason": "the work changed"})
    )
    memory.remember_many([NewMemory(EVENT, type="episodic")], check=False)
    told = memory.remember_explained(FACT, type="semantic")
    assert told.decision is not Decision.OVERWRITTEN
    assert {m.content for m in memory.list_memories()} == {EVENT, FACT}

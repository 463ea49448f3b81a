"""What remember() proposes for a new memory given its neighbours and the model's answer
(``Lifecycle.propose``): pure logic, run against the in-process FakeLLM and a store with nothing
queued for review, no database and no server.
The same decisions over real HTTP and a real store are in tests/integration/test_lifecycle.py."""

from __future__ import annotations

import pytest

from localmind.config import LifecycleConfig
from localmind.embedders.base import Embedder
from localmind.lifecycle import Lifecycle, Relation, ask_relation
from localmind.llm.base import LLM, LLMBadReply, LLMUnavailable
from localmind.records import MemoryRecord, MemoryType
from localmind.store import StoredMemory
from tests.fakes import FakeEmbedder, FakeLLM


def neighbour(content: str, similarity: float) -> tuple[StoredMemory, float]:
    record = MemoryRecord(id=f"id-{abs(hash(content))}", content=content, type=MemoryType.SEMANTIC)
    return StoredMemory(rowid=1, record=record), similarity


class NothingQueued:
    """The one thing propose reads from the store: which changes already wait for review."""

    def pending_pairs(self, namespace: str, ids: list[str]) -> list[tuple[str, str]]:
        return []

    def pending_conflicts_of(self, memory_id: str) -> list[object]:
        return []


def lifecycle(llm: FakeLLM | None) -> Lifecycle:
    return Lifecycle(NothingQueued(), LifecycleConfig(), lambda: 0.0, llm)  # type: ignore[arg-type]


def test_the_fakes_implement_the_ports() -> None:
    assert isinstance(FakeLLM(), LLM)
    assert isinstance(FakeEmbedder(), Embedder)


def test_nothing_similar_is_inserted_without_asking() -> None:
    llm = FakeLLM()
    proposal = lifecycle(llm).propose("I play the cello", [])
    assert proposal.relation is Relation.COMPATIBLE and proposal.neighbour is None
    assert llm.asked == []


def test_a_restatement_merges_without_asking_the_model() -> None:
    llm = FakeLLM()
    proposal = lifecycle(llm).propose(
        "My cat is named Mochi", [neighbour("My cat is called Mochi", 0.9)]
    )
    assert proposal.relation is Relation.SAME
    assert llm.asked == []


@pytest.mark.parametrize("word", ["contradicts", "Contradicts.", " CONTRADICTS! "])
def test_a_suspected_contradiction_is_settled_by_the_model_s_word(word: str) -> None:
    llm = FakeLLM([{"relation": word, "reason": "moved"}])
    proposal = lifecycle(llm).propose("I live in Munich", [neighbour("I live in Berlin", 0.8)])
    assert proposal.relation is Relation.CONTRADICTS
    assert proposal.why == "moved"
    assert len(llm.asked) == 1
    assert "I live in Berlin" in llm.asked[0][0]["content"]


@pytest.mark.parametrize(
    ("llm", "why"),
    [
        (None, "no LLM configured"),
        (FakeLLM(offline="Ollama is not running"), "Ollama is not running"),
        (FakeLLM([LLMUnavailable("did not answer in time")]), "did not answer in time"),
        (FakeLLM([LLMBadReply("not JSON")]), "not JSON"),
        (FakeLLM([{"relation": "perhaps"}]), "Unknown relation 'perhaps'"),
    ],
    ids=["none", "offline", "timeout", "garbage", "off-enum"],
)
def test_without_a_usable_answer_a_contradiction_waits_for_the_person(
    llm: FakeLLM | None, why: str
) -> None:
    proposal = lifecycle(llm).propose("I live in Munich", [neighbour("I live in Berlin", 0.8)])
    assert proposal.relation is None  # queued as a conflict
    assert why in proposal.why


def test_the_model_calling_a_negation_a_restatement_is_not_believed() -> None:
    llm = FakeLLM([{"relation": "same", "reason": "same topic"}])
    proposal = lifecycle(llm).propose(
        "I do not live in Berlin", [neighbour("I live in Berlin", 0.9)]
    )
    assert proposal.relation is None
    assert "one of them is negated" in proposal.why


def test_a_close_rewording_is_put_to_the_model_once() -> None:
    llm = FakeLLM([{"relation": "same", "reason": "says the same"}])
    proposal = lifecycle(llm).propose(
        "I play the cello every day",
        [neighbour("I play the cello", 0.8), neighbour("I play the cello well", 0.75)],
    )
    assert proposal.relation is Relation.SAME
    assert len(llm.asked) == 1


def test_without_a_model_a_close_rewording_is_inserted() -> None:
    proposal = lifecycle(None).propose(
        "I play the cello every day", [neighbour("I play the cello", 0.8)]
    )
    assert proposal.relation is Relation.COMPATIBLE


def test_the_model_s_reason_is_kept_short() -> None:
    llm = FakeLLM([{"relation": "compatible", "reason": "x" * 1000}])
    relation, reason = ask_relation(llm, "a", "b")
    assert relation is Relation.COMPATIBLE and len(reason) == 300

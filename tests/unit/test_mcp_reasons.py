"""Reasons an assistant reads over MCP say once that no local model judged a memory, without the
model's setup commands (review7 finding 9: an assistant with a shell may run `ollama serve`)."""

from __future__ import annotations

import pytest

from localmind.llm.ollama import how_to_start
from localmind.mcp.server import NO_MODEL
from localmind.unchecked import setup_of, without_setup

HOST = "http://127.0.0.1:11434"
STATUSES = [
    f"Ollama is not running at {HOST}. " + how_to_start("qwen2.5:3b"),
    f"Ollama is not reachable at {HOST} (timed out). " + how_to_start("qwen2.5:3b"),
    "Ollama has no model 'qwen2.5:3b': run `ollama pull qwen2.5:3b`.",
    "Start your OpenAI-compatible server at http://127.0.0.1:8080/v1 (for example "
    "`llama-server -m MODEL.gguf`, or LM Studio's local server), or choose Ollama with "
    "`localmind config set llm.backend ollama`.",
]


@pytest.mark.parametrize("status", STATUSES)
def test_a_queued_reason_loses_the_setup_text_and_keeps_why(status: str) -> None:
    reason = f"may contradict the older memory: both set the residence; no LLM to check ({status})"
    assert without_setup(reason, NO_MODEL) == (
        f"may contradict the older memory: both set the residence; {NO_MODEL}"
    )


@pytest.mark.parametrize("status", STATUSES)
def test_a_status_given_as_a_part_of_its_own_goes_too(status: str) -> None:
    said = without_setup(f"worded differently: 'tea' vs 'coffee'; {status}", NO_MODEL)
    assert "`" not in said and "ollama serve" not in said
    assert said.startswith("worded differently: 'tea' vs 'coffee'")
    assert said.endswith(NO_MODEL)


def test_a_reason_without_setup_text_is_unchanged() -> None:
    reason = "may contradict the older memory: one negates the other; the LLM said so"
    assert without_setup(reason, NO_MODEL) == reason


@pytest.mark.parametrize("status", STATUSES)
def test_a_person_reads_no_llm_to_check_and_the_setup_once_beside_it(status: str) -> None:
    reason = f"may contradict the older memory: both set the residence; no LLM to check ({status})"
    assert without_setup(reason) == "may contradict the older memory: both set the residence; " + (
        "no LLM to check"
    )
    assert setup_of(reason) == status


def test_a_reason_a_model_judged_has_no_setup() -> None:
    assert setup_of("may contradict the older memory: one negates the other") is None

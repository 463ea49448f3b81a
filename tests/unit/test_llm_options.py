"""The backends on a model server share one options record, built once from the configuration:
a setting reaches every backend the same way, and a misspelt one is refused. Pure logic, no
server is contacted."""

from __future__ import annotations

import pytest

from localmind.llm.ollama import DEFAULT_HOST, OllamaLLM
from localmind.llm.openai_compatible import DEFAULT_BASE_URL, OpenAICompatibleLLM
from localmind.llm.registry import BACKENDS, LLMConfig, make_llm
from localmind.llm.served import ServedLLM, ServerOptions


@pytest.mark.parametrize("backend", sorted(BACKENDS))
def test_every_backend_carries_the_whole_configuration(backend: str) -> None:
    config = LLMConfig(
        backend,
        model="gemma-3-270m",
        base_url="http://10.0.0.5:8080/v1",
        api_key="sk-local",
        timeout_s=7.5,
        max_reply_tokens=64,
        max_verdict_tokens=16,
    )
    llm = make_llm(config)
    assert isinstance(llm, ServedLLM)
    assert llm.options == ServerOptions.from_config(config)
    assert llm.options.timeout_s == 7.5
    assert llm.options.max_verdict_tokens == 16
    assert llm.address == "http://10.0.0.5:8080/v1"
    assert llm.model == "gemma-3-270m"


def test_with_no_address_each_backend_uses_its_usual_one() -> None:
    assert OllamaLLM().host == DEFAULT_HOST
    assert OpenAICompatibleLLM().base_url == DEFAULT_BASE_URL


def test_the_address_goes_by_each_client_s_own_name() -> None:
    assert OllamaLLM(host="http://10.0.0.5:11434").host == "http://10.0.0.5:11434"
    served = OpenAICompatibleLLM(base_url="http://10.0.0.5:1234/v1/")
    assert served.base_url == "http://10.0.0.5:1234/v1"  # the trailing slash dropped, as before


def test_a_misspelt_option_is_refused() -> None:
    with pytest.raises(TypeError, match="timeout"):
        OllamaLLM(timeout=5.0)

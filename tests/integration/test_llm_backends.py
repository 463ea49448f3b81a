"""Every LLM backend over real HTTP against the test server, which speaks both Ollama's API and
the OpenAI-compatible one (llama-server, LM Studio, vLLM): answers, structured output, streaming,
and every way the server can fail. Each test runs once per backend of the registry."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from localmind import composition, configuration
from localmind.llm import LLM, LLMBadReply, LLMUnavailable
from localmind.llm.registry import BACKENDS, LLMConfig, make_llm
from tests.ollama_server import Fail, FakeOllama, Garbage, Hang, unused_port_host

ASK = [{"role": "user", "content": "Say hi"}]
YES_NO = {
    "type": "object",
    "properties": {"contradicts": {"type": "boolean"}},
    "required": ["contradicts"],
}


@dataclass(frozen=True)
class Backend:
    """What differs between backends, as a person would see it."""

    name: str
    listing: str  # the path that lists the models (the availability check)
    down_hint: str  # how the message for a server that is down tells them to start it
    missing_model_hint: str  # ... and for a model it lacks ({model} is filled in)

    def address(self, host: str) -> str:
        return host + "/v1" if self.name == "openai-compatible" else host

    def make(self, host: str, **options: Any) -> LLM:
        return make_llm(LLMConfig(self.name, base_url=self.address(host), **options))


KNOWN = {
    "ollama": Backend("ollama", "/api/tags", "ollama serve", "ollama pull {model}"),
    "openai-compatible": Backend(
        "openai-compatible", "/v1/models", "llama-server", "does not serve the model '{model}'"
    ),
}


def test_every_backend_of_the_registry_is_tested_here() -> None:
    assert set(KNOWN) == set(BACKENDS)


@pytest.fixture(params=sorted(KNOWN))
def backend(request: pytest.FixtureRequest) -> Backend:
    return KNOWN[request.param]


@pytest.fixture
def llm(backend: Backend, ollama_server: FakeOllama) -> LLM:
    return backend.make(ollama_server.host, model="qwen2.5:3b", timeout_s=5.0)


def test_complete_returns_the_answer_and_sends_the_conversation(
    llm: LLM, ollama_server: FakeOllama
) -> None:
    ollama_server.reply("Hello there!")
    assert llm.complete(ASK) == "Hello there!"
    request = ollama_server.chat_requests()[-1]
    assert request.body["model"] == "qwen2.5:3b"
    assert request.messages == ASK
    assert request.body["stream"] is False


def test_stream_yields_the_answer_in_pieces(llm: LLM, ollama_server: FakeOllama) -> None:
    ollama_server.reply("A streamed answer, piece by piece.")
    pieces = list(llm.stream(ASK))
    assert len(pieces) > 1
    assert "".join(pieces) == "A streamed answer, piece by piece."


def test_json_sends_the_schema_and_parses_the_object(llm: LLM, ollama_server: FakeOllama) -> None:
    ollama_server.reply({"contradicts": True})
    assert llm.json(ASK, YES_NO) == {"contradicts": True}
    assert ollama_server.chat_requests()[-1].schema == YES_NO


def test_every_request_caps_the_answer_s_length(
    backend: Backend, ollama_server: FakeOllama
) -> None:
    """A small model must not generate until its context is full: replies and verdicts each
    carry their configured cap."""
    llm = backend.make(ollama_server.host, max_reply_tokens=300, max_verdict_tokens=40)
    ollama_server.reply("Hello there!")
    llm.complete(ASK)
    ollama_server.reply("A streamed answer, piece by piece.")
    list(llm.stream(ASK))
    ollama_server.reply({"contradicts": True})
    llm.json(ASK, YES_NO)
    assert [request.token_cap for request in ollama_server.chat_requests()] == [300, 300, 40]


def test_the_caps_come_from_the_configuration_file(
    backend: Backend, ollama_server: FakeOllama, tmp_path: Path
) -> None:
    path = tmp_path / "localmind.toml"
    path.write_text(
        f'[llm]\nbackend = "{backend.name}"\nbase_url = "{backend.address(ollama_server.host)}"\n'
        "max_reply_tokens = 64\nmax_verdict_tokens = 16\n"
    )
    llm = composition.make_llm(configuration.load({}, {}, path))
    ollama_server.reply("Hello there!")
    llm.complete(ASK)
    ollama_server.reply({"contradicts": True})
    llm.json(ASK, YES_NO)
    assert [request.token_cap for request in ollama_server.chat_requests()] == [64, 16]


def test_the_caps_have_defaults(llm: LLM, ollama_server: FakeOllama) -> None:
    ollama_server.reply("Hello there!")
    llm.complete(ASK)
    ollama_server.reply({"contradicts": True})
    llm.json(ASK, YES_NO)
    assert [request.token_cap for request in ollama_server.chat_requests()] == [1024, 512]


def test_json_in_a_code_fence_is_read(llm: LLM, ollama_server: FakeOllama) -> None:
    ollama_server.reply('```json\n{"contradicts": false}\n```')
    assert llm.json(ASK, YES_NO) == {"contradicts": False}


@pytest.mark.parametrize(
    "reply", ["not json at all", "[1, 2]", '{"something": "else"}'], ids=["text", "array", "off"]
)
def test_json_that_does_not_fit_is_a_bad_reply(
    llm: LLM, ollama_server: FakeOllama, reply: str
) -> None:
    ollama_server.reply(reply)
    with pytest.raises(LLMBadReply):
        llm.json(ASK, YES_NO)


def test_available_when_the_model_is_served(llm: LLM) -> None:
    assert llm.available()
    assert llm.status == ""


def test_a_missing_model_is_unavailable_with_what_to_do(
    backend: Backend, ollama_server: FakeOllama
) -> None:
    llm = backend.make(ollama_server.host, model="llama3.2:1b")
    hint = backend.missing_model_hint.format(model="llama3.2:1b")
    assert not llm.available()
    assert hint in llm.status
    with pytest.raises(LLMUnavailable) as raised:
        llm.complete(ASK)
    assert hint in str(raised.value)


def test_a_server_that_is_down_is_unavailable_with_how_to_start_it(backend: Backend) -> None:
    llm = backend.make(unused_port_host())
    assert not llm.available()
    assert llm.status
    assert backend.down_hint in llm.how_to_start()
    with pytest.raises(LLMUnavailable, match=backend.down_hint):
        llm.complete(ASK)
    with pytest.raises(LLMUnavailable):
        list(llm.stream(ASK))
    with pytest.raises(LLMUnavailable):
        llm.json(ASK, YES_NO)


def test_a_slow_server_times_out_as_unavailable(
    backend: Backend, ollama_server: FakeOllama
) -> None:
    llm = backend.make(ollama_server.host, timeout_s=0.3)
    ollama_server.reply(Hang(5.0))
    with pytest.raises(LLMUnavailable, match="did not answer in time"):
        llm.complete(ASK)


def test_server_errors_and_garbage_are_clear_errors(llm: LLM, ollama_server: FakeOllama) -> None:
    ollama_server.reply(Fail(500, "out of memory"), Garbage())
    with pytest.raises(LLMUnavailable, match="out of memory"):
        llm.complete(ASK)
    with pytest.raises(LLMBadReply):
        llm.complete(ASK)


def test_a_stream_cut_by_an_error_is_unavailable(llm: LLM, ollama_server: FakeOllama) -> None:
    ollama_server.reply(Fail(503, "loading model"))
    with pytest.raises(LLMUnavailable, match="loading model"):
        list(llm.stream(ASK))


def test_availability_is_cached_between_checks(
    llm: LLM, backend: Backend, ollama_server: FakeOllama
) -> None:
    for _ in range(5):
        assert llm.available()
    assert sum(1 for r in ollama_server.requests if r.path == backend.listing) == 1


def test_an_openai_compatible_server_s_own_model_is_used_when_none_is_configured(
    ollama_server: FakeOllama,
) -> None:
    """llama-server and LM Studio name their model after its file: nobody should have to."""
    ollama_server.models[:] = ["/models/gemma-3-270m-it-Q4_K_M.gguf"]
    llm = KNOWN["openai-compatible"].make(ollama_server.host)
    ollama_server.reply("hi")
    assert llm.complete(ASK) == "hi"
    assert ollama_server.chat_requests()[-1].body["model"] == ollama_server.models[0]
    assert llm.model == ollama_server.models[0]


def test_an_api_key_is_sent_when_configured(ollama_server: FakeOllama) -> None:
    llm = KNOWN["openai-compatible"].make(ollama_server.host, api_key="sk-local-123")
    llm.complete(ASK)
    assert ollama_server.chat_requests()[-1].headers.get("authorization") == "Bearer sk-local-123"


def test_a_server_without_json_schema_gets_the_schema_as_json_object(
    ollama_server: FakeOllama,
) -> None:
    """llama-cpp-python's server takes {"type": "json_object", "schema": ...} only: the first
    verdict is asked again that way, and every later one that way at once."""
    ollama_server.response_formats = ("text", "json_object")
    llm = KNOWN["openai-compatible"].make(ollama_server.host)
    ollama_server.reply({"contradicts": True}, {"contradicts": False})
    assert llm.json(ASK, YES_NO) == {"contradicts": True}
    assert llm.json(ASK, YES_NO) == {"contradicts": False}
    sent = [r.body["response_format"]["type"] for r in ollama_server.chat_requests()]
    assert sent == ["json_schema", "json_object", "json_object"]
    assert ollama_server.chat_requests()[-1].schema == YES_NO
    assert llm.available()  # a refused format is not a server that is down


def test_a_server_failing_either_way_is_reported_as_its_first_refusal(
    ollama_server: FakeOllama,
) -> None:
    llm = KNOWN["openai-compatible"].make(ollama_server.host)
    ollama_server.reply(Fail(500, "out of memory"), Fail(500, "still out of memory"))
    with pytest.raises(LLMUnavailable, match="out of memory"):
        llm.json(ASK, YES_NO)
    ollama_server.reply({"contradicts": True})
    llm.json(ASK, YES_NO)
    sent = [r.body["response_format"]["type"] for r in ollama_server.chat_requests()]
    assert sent == ["json_schema", "json_object", "json_schema"]  # kept the standard form

"""OllamaLLM over real HTTP against the Ollama-speaking test server: answers, structured output,
streaming, and every way the server can fail."""

from __future__ import annotations

import pytest

from localmind.llm import LLMBadReply, LLMUnavailable
from localmind.llm.ollama import OllamaLLM
from tests.ollama_server import Fail, FakeOllama, Garbage, Hang, unused_port_host

ASK = [{"role": "user", "content": "Say hi"}]
YES_NO = {
    "type": "object",
    "properties": {"contradicts": {"type": "boolean"}},
    "required": ["contradicts"],
}


def test_complete_returns_the_answer_and_sends_the_conversation(
    llm: OllamaLLM, ollama_server: FakeOllama
) -> None:
    ollama_server.reply("Hello there!")
    assert llm.complete(ASK) == "Hello there!"
    request = ollama_server.chat_requests()[-1]
    assert request.body["model"] == "qwen2.5:3b"
    assert request.messages == ASK
    assert request.body["stream"] is False


def test_stream_yields_the_answer_in_pieces(llm: OllamaLLM, ollama_server: FakeOllama) -> None:
    ollama_server.reply("A streamed answer, piece by piece.")
    pieces = list(llm.stream(ASK))
    assert len(pieces) > 1
    assert "".join(pieces) == "A streamed answer, piece by piece."


def test_json_sends_the_schema_and_parses_the_object(
    llm: OllamaLLM, ollama_server: FakeOllama
) -> None:
    ollama_server.reply({"contradicts": True})
    assert llm.json(ASK, YES_NO) == {"contradicts": True}
    assert ollama_server.chat_requests()[-1].body["format"] == YES_NO


@pytest.mark.parametrize(
    "reply", ["not json at all", "[1, 2]", '{"something": "else"}'], ids=["text", "array", "off"]
)
def test_json_that_does_not_fit_is_a_bad_reply(
    llm: OllamaLLM, ollama_server: FakeOllama, reply: str
) -> None:
    ollama_server.reply(reply)
    with pytest.raises(LLMBadReply):
        llm.json(ASK, YES_NO)


def test_available_when_the_model_is_pulled(llm: OllamaLLM) -> None:
    assert llm.available()
    assert llm.status == ""


def test_a_missing_model_is_unavailable_with_the_pull_command(ollama_server: FakeOllama) -> None:
    llm = OllamaLLM(model="llama3.2:1b", host=ollama_server.host)
    assert not llm.available()
    assert "ollama pull llama3.2:1b" in llm.status
    with pytest.raises(LLMUnavailable, match=r"ollama pull llama3\.2:1b"):
        llm.complete(ASK)


def test_a_server_that_is_down_is_unavailable_with_how_to_start_it() -> None:
    llm = OllamaLLM(host=unused_port_host())
    assert not llm.available()
    assert "ollama serve" in llm.status
    with pytest.raises(LLMUnavailable, match="ollama serve"):
        llm.complete(ASK)
    with pytest.raises(LLMUnavailable):
        list(llm.stream(ASK))


def test_a_slow_server_times_out_as_unavailable(ollama_server: FakeOllama) -> None:
    llm = OllamaLLM(host=ollama_server.host, timeout_s=0.3)
    ollama_server.reply(Hang(5.0))
    with pytest.raises(LLMUnavailable, match="did not answer in time"):
        llm.complete(ASK)


def test_server_errors_and_garbage_are_clear_errors(
    llm: OllamaLLM, ollama_server: FakeOllama
) -> None:
    ollama_server.reply(Fail(500, "out of memory"), Garbage())
    with pytest.raises(LLMUnavailable, match="out of memory"):
        llm.complete(ASK)
    with pytest.raises(LLMBadReply):
        llm.complete(ASK)


def test_availability_is_cached_between_checks(llm: OllamaLLM, ollama_server: FakeOllama) -> None:
    for _ in range(5):
        assert llm.available()
    assert sum(1 for r in ollama_server.requests if r.path == "/api/tags") == 1


def test_host_and_model_come_from_the_environment(
    ollama_server: FakeOllama, monkeypatch: pytest.MonkeyPatch
) -> None:
    ollama_server.models.append("qwen2.5:7b")
    monkeypatch.setenv("OLLAMA_HOST", ollama_server.host)
    monkeypatch.setenv("LOCALMIND_MODEL", "qwen2.5:7b")
    llm = OllamaLLM()
    assert llm.available()
    llm.complete(ASK)
    assert ollama_server.chat_requests()[-1].body["model"] == "qwen2.5:7b"

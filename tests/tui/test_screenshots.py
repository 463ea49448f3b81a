"""The README's screenshot script asks the model the configuration names, as the app does
(OLLAMA_HOST included), and falls back to the demo's scripted server only when none answers."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ollama_server import FakeOllama, unused_port_host
from tui.screenshots import ANSWER, demo_model

ASK = [{"role": "user", "content": "What should I drink?"}]


def test_the_model_at_ollama_host_is_the_one_asked(
    ollama_server: FakeOllama, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ollama_server.reply("Coffee, from the Ollama at OLLAMA_HOST.")
    monkeypatch.setenv("OLLAMA_HOST", ollama_server.host)
    monkeypatch.setenv("LOCALMIND_CONFIG", str(tmp_path / "none.toml"))
    for variable in ("LOCALMIND_LLM", "LOCALMIND_LLM_URL", "LOCALMIND_MODEL", "LOCALMIND_NO_LLM"):
        monkeypatch.delenv(variable, raising=False)
    with demo_model() as llm:  # as `python -m tui.screenshots` runs it
        assert llm.complete(ASK) == "Coffee, from the Ollama at OLLAMA_HOST."
    assert [request.messages for request in ollama_server.chat_requests()] == [ASK]


def test_with_nothing_at_ollama_host_the_demo_answers(tmp_path: Path) -> None:
    environ = {"OLLAMA_HOST": unused_port_host(), "LOCALMIND_CONFIG": str(tmp_path / "none.toml")}
    with demo_model(environ) as llm:
        assert llm.complete(ASK) == ANSWER

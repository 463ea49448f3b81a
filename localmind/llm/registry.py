"""Which language model backend to use, by name: one line per backend.

A backend is a class implementing the :class:`~localmind.llm.base.LLM` port with a
``from_config(LLMConfig)`` constructor; it is imported only when chosen, so the ``openai``
client costs nothing to someone who runs Ollama."""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from localmind.errors import InvalidInput
from localmind.llm.base import LLM


@dataclass(frozen=True, slots=True)
class LLMConfig:
    """How to reach the model: the backend's name, and what it needs. None: the backend's
    default (its usual local address; for Ollama qwen2.5:3b, for an OpenAI-compatible server the
    model it serves)."""

    backend: str = "ollama"
    model: str | None = None
    base_url: str | None = None
    api_key: str | None = None
    timeout_s: float = 60.0
    # Token caps: without one a small model may generate until its context is full, and a
    # single-slot llama-server keeps generating after the client has given up.
    max_reply_tokens: int = 1024  # chat replies, summaries (complete, stream)
    max_verdict_tokens: int = 512  # structured answers (json): 8 batched verdicts with reasons


#: the caps a backend built without a configuration uses
DEFAULT_CAPS = LLMConfig()


#: backend name -> "module:class" of its implementation
BACKENDS = {
    "ollama": "localmind.llm.ollama:OllamaLLM",
    "openai-compatible": "localmind.llm.openai_compatible:OpenAICompatibleLLM",
}


def check_backend(name: str) -> str:
    """``name`` when it names a backend; otherwise :class:`InvalidInput` listing them."""
    if name not in BACKENDS:
        raise InvalidInput(
            f"Unknown LLM backend {name!r}; the backends are: {', '.join(BACKENDS)}."
        )
    return name


def make_llm(config: LLMConfig) -> LLM:
    """The model ``config`` describes. Nothing is contacted yet: a server that is down shows
    as ``available() == False`` later, never as an error here."""
    module, _, name = BACKENDS[check_backend(config.backend)].partition(":")
    backend = getattr(importlib.import_module(module), name)
    llm: LLM = backend.from_config(config)
    return llm

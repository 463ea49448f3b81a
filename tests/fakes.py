"""In-process fakes of the ports, for fast unit tests of pure logic (what to decide given a
model's answer, which settings apply given an embedder). Integration tests keep the real parts:
the bundled embedder, the real ollama/openai clients against tests/ollama_server.py."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from localmind.embedders.base import Vectors, normalise
from localmind.llm.base import LLMBadReply, LLMError, LLMUnavailable, Message


@dataclass
class FakeLLM:
    """A model that answers from a script: each reply is text (``complete``/``stream``), a dict
    (``json``) or an :class:`LLMError` to raise. ``offline`` makes it unavailable with that
    status. Every conversation it was sent is kept in ``asked``."""

    replies: list[str | dict[str, Any] | LLMError] = field(default_factory=list)
    offline: str = ""
    model: str = "fake-model"
    asked: list[list[Message]] = field(default_factory=list)

    @property
    def status(self) -> str:
        return self.offline

    def available(self) -> bool:
        return not self.offline

    def how_to_start(self) -> str:
        return "Start the fake model."

    def _next(self, messages: Sequence[Message]) -> str | dict[str, Any]:
        self.asked.append(list(messages))
        if self.offline:
            raise LLMUnavailable(self.offline)
        if not self.replies:
            raise AssertionError("FakeLLM was asked more often than the test scripted")
        reply = self.replies.pop(0)
        if isinstance(reply, LLMError):
            raise reply
        return reply

    def complete(self, messages: Sequence[Message], *, temperature: float = 0.2) -> str:
        reply = self._next(messages)
        return reply if isinstance(reply, str) else json.dumps(reply)

    def stream(self, messages: Sequence[Message], *, temperature: float = 0.7) -> Iterator[str]:
        text = self.complete(messages, temperature=temperature)
        yield from (text[i : i + 4] for i in range(0, len(text), 4))

    def json(
        self, messages: Sequence[Message], schema: Mapping[str, Any], *, temperature: float = 0.0
    ) -> dict[str, Any]:
        reply = self._next(messages)
        if not isinstance(reply, dict):
            raise LLMBadReply(f"The model's answer is not JSON: {reply[:80]!r}")
        return reply


@dataclass
class FakeEmbedder:
    """Unit vectors from a hash of each text: equal texts embed equally, different ones almost
    orthogonally. Enough for logic that needs an embedder's shape, not its sense of meaning.
    ``lifecycle_thresholds`` is the optional calibration a real embedder may declare."""

    dim: int = 16
    name: str = "fake"
    lifecycle_thresholds: tuple[float, float] | None = None

    @property
    def identity(self) -> str:
        return f"{self.name}:{self.dim}"

    def embed_documents(self, texts: list[str]) -> Vectors:
        rows = [
            np.frombuffer(hashlib.shake_256(t.encode()).digest(self.dim), dtype=np.uint8) - 127.5
            for t in texts
        ]
        return normalise(np.array(rows).reshape(len(texts), self.dim))

    def embed_query(self, texts: list[str]) -> Vectors:
        return self.embed_documents(texts)

"""The LLM port on a user-run Ollama server, through the official ``ollama`` client."""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from localmind.llm.base import LLMBadReply, LLMUnavailable, Message

DEFAULT_HOST = "http://127.0.0.1:11434"
# Qwen2.5 3B instruct: trained on Chinese and English alike, follows JSON schemas well enough
# for yes/no checks and fact extraction, and answers at a usable speed on a laptop CPU
# (about 2 GB at Ollama's default 4-bit quantisation). Override with LOCALMIND_MODEL.
DEFAULT_MODEL = "qwen2.5:3b"
AVAILABILITY_TTL_S = 30.0
_SURROGATE = re.compile("[\ud800-\udfff]")
# Small models asked for JSON sometimes wrap it in a Markdown code fence anyway.
_FENCED = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL | re.IGNORECASE)


def how_to_start(model: str) -> str:
    return (
        f"Start Ollama with `ollama serve`, then fetch the model once with `ollama pull {model}`."
    )


class OllamaLLM:
    """Talks to Ollama's HTTP API. Every failure becomes :class:`LLMUnavailable` or
    :class:`LLMBadReply` with a message a person can act on."""

    def __init__(
        self,
        model: str | None = None,
        host: str | None = None,
        *,
        timeout_s: float = 60.0,
        connect_timeout_s: float = 2.0,
        check_timeout_s: float = 1.5,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        import httpx
        import ollama

        self._model = model or os.environ.get("LOCALMIND_MODEL") or DEFAULT_MODEL
        self.host = host or os.environ.get("OLLAMA_HOST") or DEFAULT_HOST
        self._client = ollama.Client(
            host=self.host, timeout=httpx.Timeout(timeout_s, connect=connect_timeout_s)
        )
        self._checker = ollama.Client(host=self.host, timeout=httpx.Timeout(check_timeout_s))
        self._clock = clock
        self._checked_at: float | None = None
        self._status = "not checked yet"

    @property
    def model(self) -> str:
        return self._model

    @property
    def status(self) -> str:
        return self._status

    def available(self) -> bool:
        now = self._clock()
        if self._checked_at is None or now - self._checked_at > AVAILABILITY_TTL_S:
            self._status = self._check()
            self._checked_at = now
        return not self._status

    def _check(self) -> str:
        try:
            listed = self._checker.list()
        except ConnectionError:
            return f"Ollama is not running at {self.host}. " + how_to_start(self.model)
        except Exception as error:  # any failure means "not available", with a reason
            return f"Ollama is not reachable at {self.host} ({_short(error)}). " + how_to_start(
                self.model
            )
        names = {m.model for m in listed.models if m.model}
        wanted = {self.model, self.model if ":" in self.model else f"{self.model}:latest"}
        if not names & wanted:
            return f"Ollama has no model {self.model!r}: run `ollama pull {self.model}`."
        return ""

    def _forget_availability(self, reason: str) -> None:
        self._status, self._checked_at = reason, self._clock()

    @contextmanager
    def _translated_errors(self) -> Iterator[None]:
        """Map the client's and httpx's exceptions to the port's two errors."""
        import httpx
        import ollama
        import pydantic

        try:
            yield
        except (ConnectionError, httpx.ConnectError) as error:
            reason = f"Ollama is not reachable at {self.host}. " + how_to_start(self.model)
            self._forget_availability(reason)
            raise LLMUnavailable(reason) from error
        except ollama.ResponseError as error:
            if error.status_code == 404:
                reason = f"Ollama has no model {self.model!r}: run `ollama pull {self.model}`."
            else:
                reason = f"Ollama refused the request: {error.error} ({error.status_code})."
            self._forget_availability(reason)
            raise LLMUnavailable(reason) from error
        except httpx.TimeoutException as error:
            raise LLMUnavailable(f"Ollama at {self.host} did not answer in time.") from error
        except httpx.TransportError as error:
            raise LLMUnavailable(f"Ollama at {self.host} dropped the connection.") from error
        except (httpx.HTTPError, pydantic.ValidationError, ValueError, RecursionError) as error:
            raise LLMBadReply(
                f"Ollama sent a reply that could not be read ({_short(error)})."
            ) from error

    def complete(self, messages: Sequence[Message], *, temperature: float = 0.2) -> str:
        with self._translated_errors():
            reply = self._client.chat(
                model=self.model, messages=list(messages), options={"temperature": temperature}
            )
        return _unicode(str(reply.message.content or ""))

    def stream(self, messages: Sequence[Message], *, temperature: float = 0.7) -> Iterator[str]:
        with self._translated_errors():
            chunks = self._client.chat(
                model=self.model,
                messages=list(messages),
                stream=True,
                options={"temperature": temperature},
            )
            for chunk in chunks:
                if chunk.message.content:
                    yield _unicode(chunk.message.content)

    def json(
        self, messages: Sequence[Message], schema: Mapping[str, Any], *, temperature: float = 0.0
    ) -> dict[str, Any]:
        with self._translated_errors():
            reply = self._client.chat(
                model=self.model,
                messages=list(messages),
                format=dict(schema),
                options={"temperature": temperature},
            )
        text = str(reply.message.content or "")
        fenced = _FENCED.match(text)
        if fenced:
            text = fenced.group(1)
        try:
            document = json.loads(text)
        except (ValueError, RecursionError):  # not JSON, nested too deeply, a 5000-digit number
            raise LLMBadReply(f"The model's answer is not JSON: {text[:80]!r}") from None
        if not isinstance(document, dict):
            raise LLMBadReply(f"The model's answer is not a JSON object: {text[:80]!r}")
        if _unicode(json.dumps(document, ensure_ascii=False)) != json.dumps(
            document, ensure_ascii=False
        ):
            raise LLMBadReply("The model's answer is not valid Unicode (a lone surrogate).")
        missing = [key for key in schema.get("required", []) if key not in document]
        if missing:
            raise LLMBadReply(f"The model's answer lacks {', '.join(missing)}: {text[:80]!r}")
        return document


def _unicode(text: str) -> str:
    """``text`` with lone surrogates (which JSON can spell as ``\\ud800``, and SQLite cannot
    store) replaced by U+FFFD."""
    return _SURROGATE.sub("\ufffd", text)


def _short(error: BaseException) -> str:
    text = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return text[:120]

"""The LLM port on a user-run Ollama server, through the official ``ollama`` client."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import cached_property
from typing import TYPE_CHECKING, Any

from localmind.llm.availability import Availability
from localmind.llm.base import LLMBadReply, LLMUnavailable, Message
from localmind.llm.registry import DEFAULT_CAPS, LLMConfig
from localmind.llm.replies import json_object, short, unicode_text

if TYPE_CHECKING:
    import ollama

DEFAULT_HOST = "http://127.0.0.1:11434"
# Qwen2.5 3B instruct: trained on Chinese and English alike, follows JSON schemas well enough
# for yes/no checks and fact extraction, and answers at a usable speed on a laptop CPU
# (about 2 GB at Ollama's default 4-bit quantisation). Override with `llm.model`.
DEFAULT_MODEL = "qwen2.5:3b"


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
        max_reply_tokens: int = DEFAULT_CAPS.max_reply_tokens,
        max_verdict_tokens: int = DEFAULT_CAPS.max_verdict_tokens,
        connect_timeout_s: float = 2.0,
        check_timeout_s: float = 1.5,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._model = model or DEFAULT_MODEL
        self.host = host or DEFAULT_HOST
        self._timeout_s, self._connect_timeout_s = timeout_s, connect_timeout_s
        self._check_timeout_s = check_timeout_s
        self._availability = Availability(self._check, clock)
        self._reply_cap, self._verdict_cap = max_reply_tokens, max_verdict_tokens

    # The HTTP clients are made at first use: each builds a TLS context (~20 ms of CPU), and
    # most commands that are handed a model never talk to it.
    @cached_property
    def _client(self) -> ollama.Client:
        import httpx
        import ollama

        timeout = httpx.Timeout(self._timeout_s, connect=self._connect_timeout_s)
        return ollama.Client(host=self.host, timeout=timeout)

    @cached_property
    def _checker(self) -> ollama.Client:
        import httpx
        import ollama

        return ollama.Client(host=self.host, timeout=httpx.Timeout(self._check_timeout_s))

    @classmethod
    def from_config(cls, config: LLMConfig) -> OllamaLLM:
        return cls(
            config.model,
            config.base_url,
            timeout_s=config.timeout_s,
            max_reply_tokens=config.max_reply_tokens,
            max_verdict_tokens=config.max_verdict_tokens,
        )

    @property
    def model(self) -> str:
        return self._model

    def how_to_start(self) -> str:
        return how_to_start(self.model)

    @property
    def status(self) -> str:
        return self._availability.status

    def available(self) -> bool:
        return self._availability.available()

    def _check(self) -> str:
        try:
            listed = self._checker.list()
        except ConnectionError:
            return f"Ollama is not running at {self.host}. " + how_to_start(self.model)
        except Exception as error:  # any failure means "not available", with a reason
            return f"Ollama is not reachable at {self.host} ({short(error)}). " + how_to_start(
                self.model
            )
        names = {m.model for m in listed.models if m.model}
        wanted = {self.model, self.model if ":" in self.model else f"{self.model}:latest"}
        if not names & wanted:
            return f"Ollama has no model {self.model!r}: run `ollama pull {self.model}`."
        return ""

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
            self._availability.lost(reason)
            raise LLMUnavailable(reason) from error
        except ollama.ResponseError as error:
            if error.status_code == 404:
                reason = f"Ollama has no model {self.model!r}: run `ollama pull {self.model}`."
            else:
                reason = f"Ollama refused the request: {error.error} ({error.status_code})."
            self._availability.lost(reason)
            raise LLMUnavailable(reason) from error
        except httpx.TimeoutException as error:
            raise LLMUnavailable(f"Ollama at {self.host} did not answer in time.") from error
        except httpx.TransportError as error:
            raise LLMUnavailable(f"Ollama at {self.host} dropped the connection.") from error
        except (httpx.HTTPError, pydantic.ValidationError, ValueError, RecursionError) as error:
            raise LLMBadReply(
                f"Ollama sent a reply that could not be read ({short(error)})."
            ) from error

    def complete(self, messages: Sequence[Message], *, temperature: float = 0.2) -> str:
        with self._translated_errors():
            reply = self._client.chat(
                model=self.model,
                messages=list(messages),
                options={"temperature": temperature, "num_predict": self._reply_cap},
            )
        return unicode_text(str(reply.message.content or ""))

    def stream(self, messages: Sequence[Message], *, temperature: float = 0.7) -> Iterator[str]:
        with self._translated_errors():
            chunks = self._client.chat(
                model=self.model,
                messages=list(messages),
                stream=True,
                options={"temperature": temperature, "num_predict": self._reply_cap},
            )
            for chunk in chunks:
                if chunk.message.content:
                    yield unicode_text(chunk.message.content)

    def json(
        self, messages: Sequence[Message], schema: Mapping[str, Any], *, temperature: float = 0.0
    ) -> dict[str, Any]:
        with self._translated_errors():
            reply = self._client.chat(
                model=self.model,
                messages=list(messages),
                format=dict(schema),
                options={"temperature": temperature, "num_predict": self._verdict_cap},
            )
        return json_object(str(reply.message.content or ""), schema)

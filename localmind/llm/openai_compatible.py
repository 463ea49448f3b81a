"""The LLM port on any OpenAI-compatible local server — llama.cpp's ``llama-server``, LM Studio,
vLLM, LocalAI, Jan — through the official ``openai`` client.

Such a server usually serves the one model it was started with, under a name of its own (a file
path, an alias): with no ``model`` configured, the first one it lists is used. Verdicts ask for
``response_format = json_schema`` (llama.cpp turns the schema into a grammar); the reply is still
read defensively, as from Ollama (:mod:`localmind.llm.replies`)."""

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
    import openai

# llama-server's default address; LM Studio listens on :1234/v1, vLLM on :8000/v1.
DEFAULT_BASE_URL = "http://127.0.0.1:8080/v1"
# Local servers ignore the key; the client refuses to start without one.
NO_API_KEY = "not-needed"
# The two ways servers take a JSON schema for the answer (see OpenAICompatibleLLM.json).
JSON_SCHEMA, JSON_OBJECT = "json_schema", "json_object"


class OpenAICompatibleLLM:
    """Talks to ``/v1/models`` and ``/v1/chat/completions``. Every failure becomes
    :class:`LLMUnavailable` or :class:`LLMBadReply` with a message a person can act on."""

    def __init__(
        self,
        model: str | None = None,
        base_url: str | None = None,
        *,
        api_key: str | None = None,
        timeout_s: float = 60.0,
        max_reply_tokens: int = DEFAULT_CAPS.max_reply_tokens,
        max_verdict_tokens: int = DEFAULT_CAPS.max_verdict_tokens,
        connect_timeout_s: float = 2.0,
        check_timeout_s: float = 1.5,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.base_url = (base_url or DEFAULT_BASE_URL).rstrip("/")
        self._configured_model = model
        self._served: list[str] = []
        self._api_key = api_key or NO_API_KEY
        self._timeout_s, self._connect_timeout_s = timeout_s, connect_timeout_s
        self._check_timeout_s = check_timeout_s
        self._availability = Availability(self._check, clock)
        self._style = JSON_SCHEMA
        self._reply_cap, self._verdict_cap = max_reply_tokens, max_verdict_tokens

    # Made at first use, as Ollama's: each client builds a TLS context (~20 ms of CPU) that
    # commands never talking to the model would pay for nothing.
    @cached_property
    def _client(self) -> openai.OpenAI:
        return self._new_client(self._timeout_s, self._connect_timeout_s)

    @cached_property
    def _checker(self) -> openai.OpenAI:
        return self._new_client(self._check_timeout_s)

    def _new_client(self, timeout_s: float, connect_s: float | None = None) -> openai.OpenAI:
        import httpx2  # the openai client's own fork of httpx
        import openai

        timeout = httpx2.Timeout(timeout_s, connect=timeout_s if connect_s is None else connect_s)
        # No retries: a model that is down should say so at once, and a slow one has its timeout.
        return openai.OpenAI(
            base_url=self.base_url, api_key=self._api_key, timeout=timeout, max_retries=0
        )

    @classmethod
    def from_config(cls, config: LLMConfig) -> OpenAICompatibleLLM:
        return cls(
            config.model,
            config.base_url,
            api_key=config.api_key,
            timeout_s=config.timeout_s,
            max_reply_tokens=config.max_reply_tokens,
            max_verdict_tokens=config.max_verdict_tokens,
        )

    @property
    def model(self) -> str:
        if self._configured_model:
            return self._configured_model
        return self._served[0] if self._served else "the model it serves"

    @property
    def status(self) -> str:
        return self._availability.status

    def available(self) -> bool:
        return self._availability.available()

    def how_to_start(self) -> str:
        return (
            f"Start your OpenAI-compatible server at {self.base_url} (for example "
            "`llama-server -m MODEL.gguf`, or LM Studio's local server), or choose Ollama with "
            "`localmind config set llm.backend ollama`."
        )

    def _check(self) -> str:
        try:
            self._served = [entry.id for entry in self._checker.models.list().data]
        except Exception as error:  # any failure means "not available", with a reason
            return f"No OpenAI-compatible server answers at {self.base_url} ({short(error)})."
        if not self._served:
            return f"The server at {self.base_url} serves no model: load one."
        if self._configured_model and self._configured_model not in self._served:
            return self._not_served()
        return ""

    def _not_served(self) -> str:
        served = f" (it serves {', '.join(self._served[:5])})" if self._served else ""
        return (
            f"The server at {self.base_url} does not serve the model {self.model!r}{served}: "
            "load it, or set llm.model to one it serves."
        )

    def _model_to_ask(self) -> str:
        """The configured model, or the one the server serves (asked once)."""
        if not self._configured_model and not self._served:
            self._availability.available()
        return self._configured_model or (self._served[0] if self._served else "default")

    @contextmanager
    def _translated_errors(self) -> Iterator[None]:
        """Map the client's and httpx's exceptions to the port's two errors. The timeout is
        caught before the connection error it subclasses."""
        import httpx2
        import openai
        import pydantic

        try:
            yield
        except (openai.APITimeoutError, httpx2.TimeoutException) as error:
            reason = f"The server at {self.base_url} did not answer in time."
            raise LLMUnavailable(reason) from error
        except openai.APIConnectionError as error:
            reason = f"No OpenAI-compatible server answers at {self.base_url}. " + (
                self.how_to_start()
            )
            self._availability.lost(reason)
            raise LLMUnavailable(reason) from error
        except openai.NotFoundError as error:
            reason = self._not_served()
            self._availability.lost(reason)
            raise LLMUnavailable(reason) from error
        except openai.APIStatusError as error:
            reason = (
                f"The server at {self.base_url} refused the request: {_message(error)} "
                f"({error.status_code})."
            )
            self._availability.lost(reason)
            raise LLMUnavailable(reason) from error
        except httpx2.TransportError as error:  # mid-stream: not wrapped by the client
            reason = f"The server at {self.base_url} dropped the connection."
            raise LLMUnavailable(reason) from error
        except (
            openai.APIError,
            httpx2.HTTPError,
            pydantic.ValidationError,
            ValueError,
            RecursionError,
            AttributeError,
            IndexError,
            TypeError,
        ) as error:
            raise LLMBadReply(
                f"The server at {self.base_url} sent a reply that could not be read "
                f"({short(error)})."
            ) from error

    def _answer(
        self, messages: Sequence[Message], temperature: float, cap: int, **extra: Any
    ) -> str:
        """The text of the first choice of a whole (not streamed) completion; the client's
        errors pass through."""
        from openai.types.chat import ChatCompletion

        reply = self._client.chat.completions.create(
            model=self._model_to_ask(),
            messages=[dict(m) for m in messages],  # type: ignore[misc]
            temperature=temperature,
            max_tokens=cap,  # the long-standing name; every local server reads it
            stream=False,
            **extra,
        )
        # A body that is not JSON comes back as its text, not as a completion.
        if not isinstance(reply, ChatCompletion) or not reply.choices:
            raise ValueError(f"not a chat completion: {str(reply)[:60]!r}")
        return str(reply.choices[0].message.content or "")

    def complete(self, messages: Sequence[Message], *, temperature: float = 0.2) -> str:
        with self._translated_errors():
            return unicode_text(self._answer(messages, temperature, self._reply_cap))

    def stream(self, messages: Sequence[Message], *, temperature: float = 0.7) -> Iterator[str]:
        from openai.types.chat import ChatCompletionChunk

        with self._translated_errors():
            chunks = self._client.chat.completions.create(
                model=self._model_to_ask(),
                messages=[dict(m) for m in messages],  # type: ignore[misc]
                temperature=temperature,
                max_tokens=self._reply_cap,
                stream=True,
            )
            for chunk in chunks:
                if not isinstance(chunk, ChatCompletionChunk):
                    raise ValueError(f"not a chat completion chunk: {str(chunk)[:60]!r}")
                # the last chunk of some servers carries only usage, no choice
                piece = chunk.choices[0].delta.content if chunk.choices else None
                if piece:
                    yield unicode_text(piece)

    def json(
        self, messages: Sequence[Message], schema: Mapping[str, Any], *, temperature: float = 0.0
    ) -> dict[str, Any]:
        """The answer as an object following ``schema``, which the server is asked to enforce:
        as OpenAI's ``json_schema`` (llama-server, LM Studio, vLLM), or, when the server refuses
        that, as ``json_object`` with a ``schema`` (llama-cpp-python's server, which answers the
        other form with a 500; older llama-servers), which is then used from the next request
        on if it worked."""
        import openai

        with self._translated_errors():
            try:
                text = self._answer(
                    messages,
                    temperature,
                    self._verdict_cap,
                    response_format=_response_format(self._style, schema),
                )
            except openai.APIStatusError as refused:
                if self._style != JSON_SCHEMA:
                    raise
                try:
                    text = self._answer(
                        messages,
                        temperature,
                        self._verdict_cap,
                        response_format=_response_format(JSON_OBJECT, schema),
                    )
                except openai.APIStatusError:
                    raise refused from None  # the server's trouble is not the format
                self._style = JSON_OBJECT
        return json_object(text, schema)


def _response_format(style: str, schema: Mapping[str, Any]) -> dict[str, Any]:
    if style == JSON_SCHEMA:
        return {"type": JSON_SCHEMA, "json_schema": {"name": "answer", "schema": dict(schema)}}
    return {"type": JSON_OBJECT, "schema": dict(schema)}


def _message(error: Any) -> str:
    """What the server said in its error body ({"error": {"message": ...}} or {"error": ...})."""
    body = error.body
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict):
            inner = inner.get("message", inner)
        return short(ValueError(str(inner)))
    return short(error)

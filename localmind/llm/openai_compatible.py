"""The LLM port on any OpenAI-compatible local server — llama.cpp's ``llama-server``, LM Studio,
vLLM, LocalAI, Jan — through the official ``openai`` client.

Such a server usually serves the one model it was started with, under a name of its own (a file
path, an alias): with no ``model`` configured, the first one it lists is used. Verdicts ask for
``response_format = json_schema`` (llama.cpp turns the schema into a grammar); the reply is still
read defensively, as from Ollama (:mod:`localmind.llm.replies`)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from localmind.llm.base import LLMBadReply, LLMUnavailable, Message
from localmind.llm.replies import json_object, short, unicode_text
from localmind.llm.served import ServedLLM

if TYPE_CHECKING:
    import openai

# llama-server's default address; LM Studio listens on :1234/v1, vLLM on :8000/v1.
DEFAULT_BASE_URL = "http://127.0.0.1:8080/v1"
# Local servers ignore the key; the client refuses to start without one.
NO_API_KEY = "not-needed"
# The two ways servers take a JSON schema for the answer (see OpenAICompatibleLLM.json).
JSON_SCHEMA, JSON_OBJECT = "json_schema", "json_object"


class OpenAICompatibleLLM(ServedLLM["openai.OpenAI"]):
    """Talks to ``/v1/models`` and ``/v1/chat/completions``. Every failure becomes
    :class:`LLMUnavailable` or :class:`LLMBadReply` with a message a person can act on."""

    default_address = DEFAULT_BASE_URL
    address_keyword = "base_url"

    # What the server serves, by its availability check; and the JSON style it took last.
    _served: Sequence[str] = ()
    _style: str = JSON_SCHEMA

    @property
    def base_url(self) -> str:
        return self.address.rstrip("/")

    def _new_client(self, timeout_s: float, connect_timeout_s: float) -> openai.OpenAI:
        import httpx2  # the openai client's own fork of httpx
        import openai

        timeout = httpx2.Timeout(timeout_s, connect=connect_timeout_s)
        # No retries: a model that is down should say so at once, and a slow one has its timeout.
        return openai.OpenAI(
            base_url=self.base_url,
            api_key=self.options.api_key or NO_API_KEY,
            timeout=timeout,
            max_retries=0,
        )

    @property
    def model(self) -> str:
        if self.options.model:
            return self.options.model
        return self._served[0] if self._served else "the model it serves"

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
        if self.options.model and self.options.model not in self._served:
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
        if not self.options.model and not self._served:
            self._availability.available()
        return self.options.model or (self._served[0] if self._served else "default")

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
            return unicode_text(self._answer(messages, temperature, self.options.max_reply_tokens))

    def stream(self, messages: Sequence[Message], *, temperature: float = 0.7) -> Iterator[str]:
        from openai.types.chat import ChatCompletionChunk

        with self._translated_errors():
            chunks = self._client.chat.completions.create(
                model=self._model_to_ask(),
                messages=[dict(m) for m in messages],  # type: ignore[misc]
                temperature=temperature,
                max_tokens=self.options.max_reply_tokens,
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
                    self.options.max_verdict_tokens,
                    response_format=_response_format(self._style, schema),
                )
            except openai.APIStatusError as refused:
                if self._style != JSON_SCHEMA:
                    raise
                try:
                    text = self._answer(
                        messages,
                        temperature,
                        self.options.max_verdict_tokens,
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

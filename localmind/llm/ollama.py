"""The LLM port on a user-run Ollama server, through the official ``ollama`` client."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from localmind.llm.base import LLMBadReply, LLMUnavailable, Message
from localmind.llm.replies import json_object, short, unicode_text
from localmind.llm.served import ServedLLM

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


class OllamaLLM(ServedLLM["ollama.Client"]):
    """Talks to Ollama's HTTP API. Every failure becomes :class:`LLMUnavailable` or
    :class:`LLMBadReply` with a message a person can act on."""

    default_address = DEFAULT_HOST
    address_keyword = "host"

    @property
    def host(self) -> str:
        return self.address

    def _new_client(self, timeout_s: float, connect_timeout_s: float) -> ollama.Client:
        import httpx
        import ollama

        timeout = httpx.Timeout(timeout_s, connect=connect_timeout_s)
        return ollama.Client(host=self.host, timeout=timeout)

    @property
    def model(self) -> str:
        return self.options.model or DEFAULT_MODEL

    def how_to_start(self) -> str:
        return how_to_start(self.model)

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
                options={"temperature": temperature, "num_predict": self.options.max_reply_tokens},
            )
        return unicode_text(str(reply.message.content or ""))

    def stream(self, messages: Sequence[Message], *, temperature: float = 0.7) -> Iterator[str]:
        with self._translated_errors():
            chunks = self._client.chat(
                model=self.model,
                messages=list(messages),
                stream=True,
                options={"temperature": temperature, "num_predict": self.options.max_reply_tokens},
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
                options={
                    "temperature": temperature,
                    "num_predict": self.options.max_verdict_tokens,
                },
            )
        return json_object(str(reply.message.content or ""), schema)

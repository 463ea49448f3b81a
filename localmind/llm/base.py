"""The LLM port: what localmind asks of a language model, and how it fails."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from localmind.errors import LocalmindError

Message = Mapping[str, str]  # {"role": "system" | "user" | "assistant", "content": ...}


class LLMError(LocalmindError):
    """The model could not give a usable answer. Callers degrade instead of failing the user's
    action (a remember still stores, a recall still returns)."""


class LLMUnavailable(LLMError):
    """No model to ask: the server is down or unreachable, too slow, or lacks the model."""


class LLMBadReply(LLMError):
    """The model answered, but not in the shape asked for (malformed or off-schema JSON)."""


@runtime_checkable
class LLM(Protocol):
    """A chat model.

    Contract:
    - ``available()`` is cheap (cached for a short while) and never raises; ``status`` says in
      one line why it is not available (for the status bar), or is empty.
    - ``complete`` and ``stream`` return the assistant's text; ``json`` returns an object that
      follows ``schema`` (a JSON Schema object). All three raise :class:`LLMUnavailable` when
      there is no model to ask and ``json`` raises :class:`LLMBadReply` when the reply does not
      parse; no other exception escapes.
    """

    @property
    def model(self) -> str: ...

    @property
    def status(self) -> str: ...

    def available(self) -> bool: ...

    def how_to_start(self) -> str:
        """One sentence telling the person how to bring this model up (start the server,
        fetch the model), for when it is not available and ``status`` says nothing."""
        ...

    def complete(self, messages: Sequence[Message], *, temperature: float = 0.2) -> str: ...

    def stream(self, messages: Sequence[Message], *, temperature: float = 0.7) -> Iterator[str]: ...

    def json(
        self, messages: Sequence[Message], schema: Mapping[str, Any], *, temperature: float = 0.0
    ) -> dict[str, Any]: ...

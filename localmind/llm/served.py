"""What the backends that talk to a model server over HTTP share: one record of how to reach the
server, built once from the configuration, its availability check, and the two HTTP clients
made at first use."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, ClassVar, Generic, Self, TypeVar

from localmind.llm.availability import Availability
from localmind.llm.registry import DEFAULT_CAPS, LLMConfig

Client = TypeVar("Client")


@dataclass(frozen=True, slots=True)
class ServerOptions:
    """How to reach one model server. None: the backend's default (its usual local address; its
    default model, or the one the server serves)."""

    model: str | None = None
    address: str | None = None
    api_key: str | None = None  # only OpenAI-compatible servers take one
    timeout_s: float = 60.0  # a whole answer
    connect_timeout_s: float = 2.0  # a server that is down says so at once
    check_timeout_s: float = 1.5  # the availability check sits on the path of every remember
    max_reply_tokens: int = DEFAULT_CAPS.max_reply_tokens
    max_verdict_tokens: int = DEFAULT_CAPS.max_verdict_tokens

    @classmethod
    def from_config(cls, config: LLMConfig) -> ServerOptions:
        return cls(
            model=config.model,
            address=config.base_url,
            api_key=config.api_key,
            timeout_s=config.timeout_s,
            max_reply_tokens=config.max_reply_tokens,
            max_verdict_tokens=config.max_verdict_tokens,
        )


class ServedLLM(Generic[Client]):
    """The shared half of a backend on a model server. A backend names its default address, the
    keyword its own client calls the address by (Ollama's ``host``, the openai client's
    ``base_url``), how to make a client, and how to check the server."""

    default_address: ClassVar[str]
    address_keyword: ClassVar[str]

    def __init__(
        self,
        options: ServerOptions | None = None,
        /,
        *,
        clock: Callable[[], float] = time.monotonic,
        **changes: Any,
    ) -> None:
        """``changes`` set fields of ``options`` by name (``model=``, ``timeout_s=`` …); the
        address goes by the backend's own keyword. A name that is no field raises TypeError."""
        if self.address_keyword in changes:
            changes["address"] = changes.pop(self.address_keyword)
        self.options = replace(options or ServerOptions(), **changes)
        self.address = self.options.address or self.default_address
        self._availability = Availability(self._check, clock)

    @classmethod
    def from_config(cls, config: LLMConfig) -> Self:
        return cls(ServerOptions.from_config(config))

    @property
    def status(self) -> str:
        return self._availability.status

    def available(self) -> bool:
        return self._availability.available()

    # The HTTP clients are made at first use: each builds a TLS context (~20 ms of CPU), and
    # most commands that are handed a model never talk to it.
    @cached_property
    def _client(self) -> Client:
        return self._new_client(self.options.timeout_s, self.options.connect_timeout_s)

    @cached_property
    def _checker(self) -> Client:
        return self._new_client(self.options.check_timeout_s, self.options.check_timeout_s)

    def _new_client(self, timeout_s: float, connect_timeout_s: float) -> Client:
        raise NotImplementedError

    def _check(self) -> str:
        """Why the model cannot be asked, or "" when it can; never raises."""
        raise NotImplementedError

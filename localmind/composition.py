"""The composition root: every front end — the command line and its MCP server, the TUI, sync —
builds its :class:`Memory` and its language model here, from one
:class:`~localmind.configuration.Configuration`. Front ends choose nothing themselves: a new
backend, setting or default is wired in this one place."""

from __future__ import annotations

from typing import Any

from localmind.configuration import Configuration
from localmind.embedders.base import Embedder
from localmind.llm import registry
from localmind.llm.base import LLM
from localmind.memory import Memory


def make_llm(configuration: Configuration) -> LLM | None:
    """The configured model, or None when the person turned models off. A server that is down
    is not an error here: the library degrades (conflicts queue, chat says how to start it)."""
    if not configuration.llm_enabled:
        return None
    return registry.make_llm(configuration.llm)


def open_memory(
    configuration: Configuration,
    passphrase: str,
    *,
    llm: LLM | None = None,
    embedder: Embedder | str | None = None,
    **options: Any,
) -> Memory:
    """Open (or create) the configured store for the configured user, with the configured
    numbers. ``llm``: the model to use (:func:`make_llm`'s, or a test's), None for none;
    ``embedder``: an embedder instance instead of the configured one (tests); ``options``:
    the rest of :meth:`Memory.open`'s (``create``, ``clock``, ``kdf``, ``maintain``, …)."""
    return Memory.open(
        configuration.store,
        passphrase,
        embedder=embedder if embedder is not None else configuration.embedder,
        namespace=configuration.user,
        settings=configuration.settings,
        llm=llm,
        **options,
    )

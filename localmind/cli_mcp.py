"""``localmind mcp``: serve the memory to an MCP-capable assistant over stdio.

The MCP SDK is imported only when this command runs, so ``import localmind.cli`` stays free of
it. The store is opened before serving: a wrong passphrase or a missing store key fails at once
with a one-line error and exit code 1, instead of surfacing later as a broken tool call.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable
from types import ModuleType

import click

from localmind import configuration
from localmind.cli import PASSPHRASE_ENV, Context, cli, friendly_errors, n_memories
from localmind.memory import Memory
from localmind.remembered_key import remembered_data_key


@cli.command("mcp")
@click.pass_obj
@friendly_errors
def mcp_command(obj: Context) -> None:
    """Serve this memory to an assistant over MCP (stdio). The passphrase comes from
    LOCALMIND_PASSPHRASE, or the key from the OS keyring after `localmind unlock --remember`:
    an MCP server has no terminal to ask in."""
    # Never a prompt: stdin is the protocol's channel (a stale remembered key is an error).
    obj.may_ask = False
    if not configuration.passphrase() and remembered_data_key(obj.db) is None:  # or empty
        raise click.ClickException(
            f"No passphrase: set {PASSPHRASE_ENV} in the MCP client's configuration for "
            "localmind, or run `localmind unlock --remember` once (an MCP server cannot ask "
            "for it)."
        )
    obj.require_store()  # an assistant must not write into a store a typo made
    # The MCP SDK takes about half a second to import (pydantic builds its protocol models);
    # opening the store (Argon2id: a fifth of one) runs side by side with it, so the server is
    # ready to answer `initialize` sooner.
    sdk = _Import("localmind.mcp_server")
    with obj.open(llm=True) as memory:
        serve = _serve_function(sdk)
        click.echo(
            f"localmind MCP server: {n_memories(memory.count())} of {memory.namespace!r} in "
            f"{memory.path}",
            err=True,
        )
        serve(memory)


def _serve_function(sdk: _Import) -> Callable[[Memory], None]:
    try:
        serve: Callable[[Memory], None] = sdk.result().serve
    except ImportError as error:
        raise click.ClickException(
            f"The MCP server needs the mcp package ({error}): pip install 'mcp>=2.3'"
        ) from None
    return serve


class _Import:
    """A module imported in a background thread; ``result()`` waits for it (and raises what
    the import raised)."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._module: ModuleType | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name=f"import {name}", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._module = importlib.import_module(self._name)
        except BaseException as error:  # handed to the caller, who decides
            self._error = error

    def result(self) -> ModuleType:
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._module is not None
        return self._module

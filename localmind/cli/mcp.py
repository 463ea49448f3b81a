"""``localmind mcp``: serve the memory to an MCP-capable assistant over stdio.

The MCP SDK is imported only when this command runs, so ``import localmind.cli`` stays free of
it. The store is opened before serving: a wrong passphrase or a missing store key fails at once
with a one-line error and exit code 1, instead of surfacing later as a broken tool call.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType

import click

from localmind import configuration
from localmind.cli.context import Context
from localmind.cli.errors import friendly_errors
from localmind.cli.output import n_memories
from localmind.cli.root import cli
from localmind.configuration import PASSPHRASE_ENV
from localmind.mcp.front import FirstMessage, InBackground, answer_first_message
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
    with_model = not obj.no_llm  # (the configuration is read here, where its errors show)
    # The assistant waits for the answer to `initialize`: the front gives it at once, from
    # what is known already, while the store's key is derived (Argon2id) and the MCP SDK is
    # imported (~0.45 s CPU: pydantic builds its protocol models), side by side.
    front = InBackground(lambda: answer_first_message(with_model), "mcp front")
    sdk = InBackground(lambda: importlib.import_module("localmind.mcp.server"), "import sdk")
    with obj.open(llm=True) as memory:
        serve = _serve_function(sdk)
        click.echo(
            f"localmind MCP server: {n_memories(memory.count())} of {memory.namespace!r} in "
            f"{memory.path}",
            err=True,
        )
        serve(memory, front.result())


def _serve_function(sdk: InBackground[ModuleType]) -> Callable[[Memory, FirstMessage], None]:
    try:
        serve: Callable[[Memory, FirstMessage], None] = sdk.result().serve
    except ImportError as error:
        raise click.ClickException(
            f"The MCP server needs the mcp package ({error}): pip install 'mcp>=2.3'"
        ) from None
    return serve

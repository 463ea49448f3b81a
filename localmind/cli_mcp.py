"""``localmind mcp``: serve the memory to an MCP-capable assistant over stdio.

The MCP SDK is imported only when this command runs, so ``import localmind.cli`` stays free of
it. The store is opened before serving: a wrong passphrase or a missing store key fails at once
with a one-line error and exit code 1, instead of surfacing later as a broken tool call.
"""

from __future__ import annotations

import os

import click

from localmind.cli import PASSPHRASE_ENV, Context, cli, friendly_errors, n_memories
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
    if not os.environ.get(PASSPHRASE_ENV) and remembered_data_key(obj.db) is None:  # or empty
        raise click.ClickException(
            f"No passphrase: set {PASSPHRASE_ENV} in the MCP client's configuration for "
            "localmind, or run `localmind unlock --remember` once (an MCP server cannot ask "
            "for it)."
        )
    obj.require_store()  # an assistant must not write into a store a typo made
    try:
        from localmind.mcp_server import serve
    except ImportError as error:
        raise click.ClickException(
            f"The MCP server needs the mcp package ({error}): pip install 'mcp>=2.3'"
        ) from None
    with obj.open(llm=True) as memory:
        click.echo(
            f"localmind MCP server: {n_memories(memory.count())} of {memory.namespace!r} in "
            f"{memory.path}",
            err=True,
        )
        serve(memory)

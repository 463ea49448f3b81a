"""``localmind profile`` and ``localmind context``: what an assistant is told about you, from the
command line (the TUI and MCP show the same)."""

from __future__ import annotations

import click

from localmind import validation
from localmind.cli.context import Context
from localmind.cli.errors import friendly_errors
from localmind.cli.output import echo_json, when
from localmind.cli.root import cli
from localmind.config import Limits
from localmind.profile import nothing_remembered
from localmind.terminal import printable


@cli.command()
@click.option("--rebuild", is_flag=True, help="Build it again from the memories now.")
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
@friendly_errors
def profile(obj: Context, rebuild: bool, as_json: bool) -> None:
    """Your profile (role, domain, communication style, current focus) as the local model
    summed it up from your memories, or, without a model, your most valuable memories. It is
    rebuilt by itself after enough changes."""
    with obj.open(llm=True) as memory:
        current = memory.profile(rebuild=rebuild)
    if as_json:
        echo_json(
            None
            if current is None
            else {
                "text": current.text,
                "version": current.version,
                "method": current.method,
                "built_at": current.at,
            }
        )
        return
    if current is None:
        click.echo('No profile yet: there is no memory to build one from (localmind add "...").')
        return
    click.echo(printable(current.text))
    click.echo(f"(version {current.version}, built {when(current.at)}, {current.method})", err=True)


@cli.command()
@click.argument("query")
@click.pass_obj
@friendly_errors
def context(obj: Context, query: str) -> None:
    """The background an assistant gets for QUERY: your profile, then the memories relevant to
    it, each quoted with the day it was told; one a newer memory may replace is marked "may be
    outdated", naming the newer one (the text MCP's `context` tool returns)."""
    validation.content(query, Limits(), what="The query")
    with obj.open(llm=True) as memory:
        text = memory.context(query) or nothing_remembered(query)
    click.echo(printable(text))

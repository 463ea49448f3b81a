"""``localmind config``: the configuration file (``config show|path|set|unset``) and, as before,
the store's own settings (``config [NAME [VALUE]]``: capacity, archive retention, the MCP write
rate; :mod:`localmind.cli.capacity`)."""

from __future__ import annotations

from typing import Any

import click

from localmind import configuration
from localmind.cli.context import Context
from localmind.cli.errors import friendly_errors
from localmind.cli.output import echo_json
from localmind.cli.root import cli
from localmind.terminal import printable

STORE_COMMAND = "store"


class ConfigGroup(click.Group):
    """A group whose first argument, when it names no subcommand, is a store setting: so
    ``localmind config capacity 100`` keeps working beside ``localmind config set ...``."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args or (args[0] not in self.commands and args[0] not in ("-h", "--help")):
            args = [STORE_COMMAND, *args]
        return super().parse_args(ctx, args)


@cli.group("config", cls=ConfigGroup)
def config_group() -> None:
    """Settings. The configuration file, for every store and front end:

    \b
      localmind config show            every setting, its value and where it came from
      localmind config path            where the file is (LOCALMIND_CONFIG overrides it)
      localmind config set KEY VALUE   e.g. llm.backend openai-compatible, llm.model NAME,
                                       llm.base_url http://127.0.0.1:8080/v1,
                                       governance.capacity 1000, fusion.min_relevance 0.03
      localmind config unset KEY       back to the default

    Precedence, lowest first: defaults, the file, environment variables, options.

    This store's own settings (kept in the store, above the file's governance.*):

    \b
      localmind config [--json]        show them
      localmind config NAME [VALUE]    show or set one:
        capacity                active memories kept per user (default 500, or unlimited);
                                beyond it the lowest-valued are archived, never erased
        archive-retention-days  purge archived memories after N days (default never)
        mcp-writes-per-minute   writes an assistant may make over MCP in any minute
                                (default 60, or unlimited)
    """


@config_group.command("path")
def path_command() -> None:
    """Where the configuration file is (it may not exist yet)."""
    where = configuration.config_path()
    click.echo(str(where))
    if not where.exists():
        click.echo("(no file yet: `localmind config set KEY VALUE` makes it)", err=True)


@config_group.command("show")
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
@friendly_errors
def show_command(obj: Context, as_json: bool) -> None:
    """Every setting: its value and where it came from (default, file, environment, option)."""
    rows = configuration.shown(obj.configuration)
    if as_json:
        echo_json({name: {"value": value, "from": source} for name, value, source in rows})
        return
    width = max(len(name) for name, _, _ in rows)
    for name, value, source in rows:
        click.echo(f"{name:<{width}}  {printable(value, newlines=False)}  ({source})")
    click.echo(
        "\nThis store's own capacity, archive-retention-days and mcp-writes-per-minute "
        "(`localmind config`) override governance.* above.",
        err=True,
    )


@config_group.command("set")
@click.argument("key")
@click.argument("value")
@friendly_errors
def set_command(key: str, value: str) -> None:
    """Set KEY to VALUE in the configuration file (made if missing; its comments are kept)."""
    where = configuration.config_path()
    stored = configuration.set_value(where, key, value)
    click.echo(f"{key} = {_shown(key, stored)} in {where}")


@config_group.command("unset")
@click.argument("key")
@friendly_errors
def unset_command(key: str) -> None:
    """Remove KEY from the configuration file: its default (or environment variable) holds."""
    where = configuration.config_path()
    configuration.set_value(where, key, None)
    click.echo(f"{key} removed from {where}")


def _shown(key: str, value: Any) -> str:
    if configuration.find(key).secret:
        return "****"
    return "none" if value is None else printable(str(value), newlines=False)

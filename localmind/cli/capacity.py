"""Capacity a person controls: ``config`` (capacity, archive retention, the MCP write rate) and
``unarchive`` (bring back what the capacity limit or decay archived). ``restore`` already names
bringing back a backup, hence ``unarchive``."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import click

from localmind import preferences
from localmind.cli.config import STORE_COMMAND, config_group
from localmind.cli.context import Context
from localmind.cli.errors import friendly_errors
from localmind.cli.memories import eviction_note
from localmind.cli.output import echo_json, n_memories, one_line
from localmind.cli.root import cli
from localmind.governance import WouldArchive


# "-5" is a value (refused with the allowed range), not an unknown option.
@config_group.command(STORE_COMMAND, hidden=True, context_settings={"ignore_unknown_options": True})
@click.argument("name", required=False)
@click.argument("value", required=False)
@click.option("--json", "as_json", is_flag=True)
@click.option(
    "--archive",
    "allow_archive",
    is_flag=True,
    help="When a lower capacity leaves more memories than it allows, archive the "
    "lowest-valued over it (without --archive that is refused and nothing changes).",
)
@click.pass_obj
@friendly_errors
def config_command(
    obj: Context, name: str | None, value: str | None, as_json: bool, allow_archive: bool
) -> None:
    """Show this store's settings, or set NAME to VALUE. The settings:

    \b
      capacity                active memories kept per user (default 500, or unlimited);
                              beyond it the lowest-valued are archived, never erased
      archive-retention-days  purge archived memories after N days (default never)
      mcp-writes-per-minute   writes an assistant may make over MCP in any minute
                              (default 60, or unlimited)
    """
    if name is not None:
        preference = preferences.find(name)  # bad input fails before the store is opened
        if value is not None:
            preferences.parse(preference, value)
    with obj.open() as memory, _refused_lowering(value):
        evicted = (
            memory.configure(name, value, allow_archive=allow_archive)
            if name is not None and value is not None
            else []
        )
        current = memory.preferences()
        capacity = memory.settings.governance.capacity
    shown = {
        p.name: preferences.show(current[p.name], p)
        for p in preferences.PREFERENCES
        if name is None or p.name == preferences.find(name).name
    }
    if as_json:
        echo_json({key: current[key] for key in shown})
        return
    for key, text in shown.items():
        click.echo(f"{key} = {text}" if value is None else f"{key} is now {text}.")
    if evicted:
        click.echo(f"Lowering it, {eviction_note(evicted, capacity)}.")


@contextmanager
def _refused_lowering(value: str | None) -> Iterator[None]:
    """A capacity below what the store holds, without --archive: how many it would archive,
    and how to go on."""
    try:
        yield
    except WouldArchive as over:
        raise click.ClickException(
            f"A capacity of {value} would archive {n_memories(over.excess)} of the "
            f"{over.total} you have (the lowest-valued; archived memories can be brought back "
            "with `localmind unarchive`). Nothing changed. To do it, run the same command "
            "with --archive."
        ) from None


@cli.command()
@click.argument("memory_ids", nargs=-1, required=True, metavar="ID...")
@click.pass_obj
@friendly_errors
def unarchive(obj: Context, memory_ids: tuple[str, ...]) -> None:
    """Bring archived memories back (see `localmind list --archived`). At capacity, the
    lowest-valued others are archived in their place, and said so."""
    evicted: list[str] = []
    with obj.open() as memory:
        for memory_id in memory_ids:
            record, displaced = memory.unarchive(memory.resolve_id(memory_id))
            evicted += displaced
            click.echo(f"Unarchived {record.id}: {one_line(record.content)}")
        capacity = memory.settings.governance.capacity
    if evicted:
        click.echo(f"To make room, {eviction_note(evicted, capacity)}.")

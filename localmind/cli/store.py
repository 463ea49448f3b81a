"""The store as a whole: ``stats``, ``maintain``, ``reindex``, ``passwd``."""

from __future__ import annotations

import sys
from contextlib import ExitStack

import click

from localmind import composition, configuration
from localmind.cli.context import Context, read_passphrase
from localmind.cli.errors import friendly_errors
from localmind.cli.keyring import refresh_remembered
from localmind.cli.memories import eviction_note
from localmind.cli.output import PagesBar, echo_json, n_memories, plural, when
from localmind.cli.root import cli
from localmind.configuration import NEW_PASSPHRASE_ENV
from localmind.errors import NotAStore
from localmind.keys import key_file_for
from localmind.memory import Memory
from localmind.records import status_counts_shown
from localmind.swap import finish_interrupted


@cli.command()
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
@friendly_errors
def stats(obj: Context, as_json: bool) -> None:
    """Counts, size and the embedding model of the store."""
    with obj.open() as memory:
        figures = memory.stats()
    if as_json:
        echo_json(figures)
        return
    click.echo(f"store:      {figures['path']} ({figures['size_bytes'] / 1e6:.1f} MB)")
    click.echo(f"user:       {figures['namespace']}")
    click.echo(f"memories:   {figures['active']} active")
    by_status = status_counts_shown(figures["by_status"], figures["merged_away"])
    for label, counts in (("by type", figures["by_type"]), ("by status", by_status)):
        parts = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
        click.echo(f"{label:<11} {parts or '-'}")
    click.echo(f"embedder:   {figures['embedder']}")
    capacity = figures["capacity"]
    click.echo(f"capacity:   {figures['active']} of {capacity if capacity else 'unlimited'}")
    if over := figures["over_capacity"]:
        click.echo(
            # two causes: sync never archives on arrival, and a capacity lowered in the
            # config file archives nothing until the next write
            f"            {over} over (memories that arrive by sync, or a capacity lowered in "
            f"localmind.toml, archive nothing by themselves): `localmind maintain` or the next "
            f"write archives the {over} "
            "lowest-valued (confidence × uses), unless you raise the capacity "
            "(localmind config capacity N)"
        )
    click.echo(f"conflicts:  {figures['pending_conflicts']} pending")
    latency = figures["recall_latency"]
    if latency["samples"]:
        click.echo(
            f"recall:     search p50 {latency['search_p50_ms']} ms, p95 "
            f"{latency['search_p95_ms']} ms; embedding the query p50 {latency['embed_p50_ms']} "
            f"ms ({plural(latency['samples'], 'recall')})"
        )
        if latency["model_loads"]:
            click.echo(
                f"model load: p50 {latency['load_p50_ms']} ms, p95 {latency['load_p95_ms']} ms "
                f"({latency['model_loads']} of those recalls started a process and loaded it; "
                "not counted above)"
            )
    histogram = " ".join(str(n) for n in figures["confidence_histogram"])
    click.echo(f"confidence: {histogram}  (0.0-0.1 … 0.9-1.0)")
    click.echo(f"maintained: {when(figures['last_maintenance'])}")
    click.echo(f"events:     {figures['events']}")


@cli.command()
@click.option(
    "--purge-archived",
    is_flag=True,
    help="Also erase every archived memory of the user for good, on this laptop (nothing else "
    "purges them, unless `localmind config archive-retention-days N` is set; archiving and "
    "purging are each laptop's own: use `forget` to erase a memory on every laptop).",
)
@click.option("--json", "as_json", is_flag=True)
@click.option(
    "--trust-clock",
    is_flag=True,
    help="Run even though the clock moved a lot since the last run (it is right).",
)
@click.pass_obj
@friendly_errors
def maintain(obj: Context, purge_archived: bool, as_json: bool, trust_clock: bool) -> None:
    """Run the daily maintenance now (for cron or a systemd timer): expire, archive what decayed
    under the floor, decay doubtful or unused memories, purge archives older than the configured
    retention (default: never), and archive the lowest-valued memories over the capacity (sync
    brings memories in without archiving any). Safe to repeat. Refused, changing nothing, when
    the clock jumped (see --trust-clock)."""
    with obj.open() as memory:
        report = memory.maintain(trust_clock=trust_clock)
        capacity = memory.settings.governance.capacity
        purged = memory.purge_archived() if purge_archived and not report.refused else 0
    if as_json:
        echo_json({**report.to_dict(), "purged": report.purged + purged})
        return
    if report.refused:
        raise click.ClickException(
            f"Maintenance refused: {report.refused}. Nothing was changed. Fix the clock; if it "
            "is right, run `localmind maintain --trust-clock`."
        )
    click.echo(
        f"Maintenance done: {report.expired} expired, "
        f"{report.archived} archived (importance decayed), "
        f"{report.confidence_decayed} with less confidence, {report.purged + purged} purged."
    )
    if report.evicted:
        click.echo(f"Over capacity: {eviction_note(report.evicted, capacity)}.")


@cli.command()
@click.pass_obj
@friendly_errors
def reindex(obj: Context) -> None:
    """Re-embed every memory (after choosing another --embedder)."""
    with obj.open(accept_new_embedder=True) as memory:
        total = memory.stored_in_all_namespaces()
        with click.progressbar(
            length=total, label=f"Embedding with {memory.embedder.identity}", file=sys.stderr
        ) as bar:
            done = memory.reindex(progress=bar.update)
    click.echo(f"Re-embedded {n_memories(done)}.")


OLD_COPIES_STILL_OPEN = (
    "The old passphrase still opens old copies of this store together with their key file "
    "(a backup, a cloud drive's earlier version, a copy of {key}). To make the store itself "
    "need a new key, run: localmind passwd --rotate"
)


@cli.command()
@click.option(
    "--rotate",
    is_flag=True,
    help="Also give the store a new data key: the database is re-encrypted, so old copies of "
    "its key file no longer open it (close the app and other localmind programs first).",
)
@click.pass_obj
@friendly_errors
def passwd(obj: Context, rotate: bool) -> None:
    """Change the passphrase. Without --rotate only the data key's wrapping changes (instant);
    with it the store is re-encrypted under a new data key.

    In a terminal both passphrases are asked for. In a script, the current one is read from
    LOCALMIND_PASSPHRASE and the new one from LOCALMIND_NEW_PASSPHRASE (at least 8
    characters); afterwards, scripts need LOCALMIND_PASSPHRASE set to the new one."""
    finish_interrupted(obj.db)
    if not obj.db.exists():
        raise NotAStore(f"No localmind store at {obj.db}.")
    old = read_passphrase(creating=False, db=obj.db, prompt="Current passphrase")
    new = configuration.passphrase(new=True)
    if new is None:
        if not sys.stdin.isatty():
            raise click.ClickException(
                f"No new passphrase: set {NEW_PASSPHRASE_ENV} or run in a terminal."
            )
        new = click.prompt("New passphrase", hide_input=True, confirmation_prompt=True, err=True)
    if rotate:
        with ExitStack() as stack:
            report = Memory.rotate_key(
                obj.db, old, str(new), progress=PagesBar(stack, "Re-encrypting")
            )
        click.echo(
            f"Passphrase changed and the store re-encrypted under a new key "
            f"({n_memories(report.memories)}). Old copies of its key file no longer open it."
        )
        if refresh_remembered(obj.db, str(new)):
            click.echo("The OS keyring now holds the new key.")
    else:
        Memory.change_passphrase(obj.db, old, str(new))
        click.echo("Passphrase changed.")
        click.echo(OLD_COPIES_STILL_OPEN.format(key=key_file_for(obj.db).name))
    with composition.open_memory(obj.configuration, str(new), maintain=False) as memory:
        folder = memory.get_meta("sync.folder")  # the sync package's key; the core only reads it
    if folder:
        click.echo(
            f"This store syncs through {folder}: run `localmind sync rekey` so laptops that join "
            "later use the new passphrase (the old one opens that folder until then)."
        )

"""Reviewing what the memory decided: versions, feedback, conflicts."""

from __future__ import annotations

from collections import Counter

import click

from localmind.cli.context import Context
from localmind.cli.errors import friendly_errors
from localmind.cli.memories import ID_HELP, not_forgotten, text_argument
from localmind.cli.output import echo_json, one_line, when
from localmind.cli.root import cli
from localmind.lifecycle import Conflict, Feedback, Resolution
from localmind.records import MemoryRecord
from localmind.terminal import printable
from localmind.unchecked import setup_of, without_setup


@cli.command(epilog=ID_HELP)
@click.argument("memory_id", metavar="ID")
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
@friendly_errors
def history(obj: Context, memory_id: str, as_json: bool) -> None:
    """Every version of a memory, oldest first, and why each was replaced."""
    with obj.open() as memory:
        record = not_forgotten(memory, memory_id)
        versions = memory.history(record.id)
    if as_json:
        echo_json(
            {
                "id": record.id,
                "current": {"version": record.version, "content": record.content},
                "earlier": [
                    {
                        "version": v.version,
                        "content": v.content,
                        "reason": v.reason,
                        "replaced_at": v.replaced_at,
                    }
                    for v in versions
                ],
            }
        )
        return
    for v in versions:
        reason = printable(v.reason, newlines=False)
        click.echo(
            f"v{v.version}  replaced {when(v.replaced_at)} ({reason})  {printable(v.content)}"
        )
    click.echo(
        f"v{record.version}  current                              {printable(record.content)}"
    )
    if versions:
        click.echo(f"Bring one back with: localmind revert {record.id} VERSION", err=True)


@cli.command(epilog=ID_HELP)
@click.argument("memory_id", metavar="ID")
@click.argument("version", type=int)
@click.pass_obj
@friendly_errors
def revert(obj: Context, memory_id: str, version: int) -> None:
    """Bring back an earlier VERSION of a memory (the current text is kept in its history)."""
    with obj.open() as memory:
        record = memory.revert(not_forgotten(memory, memory_id).id, version)
    click.echo(f"{record.id} is now version {record.version}: {one_line(record.content)}")


@cli.command(epilog=ID_HELP)
@click.argument("memory_id", metavar="ID")
@click.argument("verdict", type=click.Choice([f.value for f in Feedback], case_sensitive=False))
@click.argument("text", required=False)
@click.pass_obj
@friendly_errors
def feedback(obj: Context, memory_id: str, verdict: str, text: str | None) -> None:
    """Tell the memory it is right (confirm, +0.1 confidence), wrong (deny, -0.2), or how it is
    wrong (correct TEXT: a new version at confidence 0.9; - reads TEXT from standard input,
    which keeps a new password out of your shell's history)."""
    text = text_argument(text, "the corrected text")
    with obj.open() as memory:
        settlement = memory.feedback_explained(not_forgotten(memory, memory_id).id, verdict, text)
    record = settlement.record
    click.echo(
        f"{record.id}: confidence {record.confidence:.2f}, version {record.version}: "
        f"{one_line(record.content)}"
    )
    for settled in settlement.settled:
        click.echo(
            f"Settled conflict #{settled}: the new text says what its other memory said, "
            f"which is set aside for {record.id}."
        )
    for other in settlement.repointed:
        click.echo(f"Also: conflict #{other} now asks about {record.id}.")
    for other, why in settlement.closed:
        click.echo(f"Also closed conflict #{other}: {why}.")


#: A memory marked secret in the review list, unless ``--reveal``: the list shows many texts at
#: once, and someone may be looking over the person's shoulder (as the app hides it, leak11).
HIDDEN = "•••••••• (a secret: --reveal shows it, as does `localmind show ID`)"


@cli.command()
@click.option("--json", "as_json", is_flag=True)
@click.option(
    "--reveal",
    is_flag=True,
    help="Show the texts of memories marked secret (a password, PIN, key or code); without it "
    "they are dots, and what changed between the two is not said.",
)
@click.pass_obj
@friendly_errors
def conflicts(obj: Context, as_json: bool, reveal: bool) -> None:
    """Memories that may contradict each other, waiting for you to decide."""
    with obj.open() as memory:
        pending = memory.conflicts()
    if as_json:
        echo_json(
            [
                {
                    "id": c.id,
                    "existing": _side(c.existing, reveal),
                    "candidate": _side(c.candidate, reveal),
                    "similarity": c.similarity,
                    "reason": c.reason if reveal or not _has_secret(c) else None,
                }
                for c in pending
            ]
        )
        return
    if not pending:
        click.echo("No conflicts to review.")
        return
    setups: Counter[str] = Counter()
    for c in pending:
        click.echo(f"#{c.id}  similarity {c.similarity:.2f}")
        for label, record in (("old", c.existing), ("new", c.candidate)):
            text = HIDDEN if record.secret and not reveal else one_line(record.content)
            click.echo(f"   {label}  {record.id}  {when(record.created_at)}  {text}")
        # why the two were paired, as MCP and the app say: a person cannot judge a pair (a job
        # queued against a move) without it; a reason may quote a word of a secret
        if c.reason and _has_secret(c) and not reveal:
            click.echo("   why  (with the texts: --reveal)")
        elif c.reason:
            # the model's setup text, said once below, not with every pair (review13 J15)
            setup = setup_of(c.reason)
            setups.update([setup] if setup else [])
            said = without_setup(c.reason)
            click.echo(f"   why  {one_line(said, width=500)}")  # whole: it is the point
    for setup, count in setups.items():
        checked = "this pair when it was" if count == 1 else f"{count} of these when they were"
        click.echo(f"No LLM could check {checked} queued: {one_line(setup, width=500)}")
    # numbers are this store's own: a laptop that synced the same pair gave it another one
    # (review10 F19), while the memory ids are the same on every laptop
    click.echo(
        "Resolve with: localmind resolve ID keep-old|take-new|keep-both|merge [--text TEXT] "
        "(ID: either memory's id, the same on every synced laptop, or the #number, which is "
        "this laptop's own)",
        err=True,
    )


def _has_secret(conflict: Conflict) -> bool:
    return conflict.existing.secret or conflict.candidate.secret


def _side(record: MemoryRecord, reveal: bool) -> dict[str, object]:
    """One memory of a conflict in JSON: a secret's text (and the earlier texts its metadata
    keeps) null unless ``reveal``; ``secret`` says which."""
    document = {**record.to_dict(), "secret": record.secret}
    if record.secret and not reveal:
        document.update(content=None, metadata=None)
    return document


@cli.command()
@click.argument("conflict")
@click.argument(
    "resolution",
    type=click.Choice(
        [r.value.replace("_", "-") for r in Resolution] + [r.value for r in Resolution],
        case_sensitive=False,
    ),
)
@click.option(
    "--text",
    help="For merge: the one text that replaces both (- reads it from standard input, which "
    "keeps a secret out of your shell's history).",
)
@click.pass_obj
@friendly_errors
def resolve(obj: Context, conflict: str, resolution: str, text: str | None) -> None:
    """Settle CONFLICT (its number, as `conflicts` shows it, or the id of either memory in it):
    keep-old (forget the new), take-new (it becomes the old memory's next version), keep-both,
    or merge (--text replaces both)."""
    text = text_argument(text, "the merged text")
    with obj.open() as memory:
        found = memory.find_conflict(conflict)
        settled = Resolution(resolution.lower().replace("-", "_"))
        settlement = memory.resolve_conflict_explained(found.id, settled, text)
    record = settlement.record
    click.echo(f"Resolved #{found.id}: {_settled(found, settled, record)}")
    for other in settlement.repointed:
        click.echo(
            f"Also: conflict #{other} now asks about {record.id} in place of {found.candidate.id}."
        )
    for other, why in settlement.closed:
        click.echo(f"Also closed conflict #{other}: {why}.")


def _settled(conflict: Conflict, resolution: Resolution, record: MemoryRecord) -> str:
    """What became of both memories: the bare "Resolved #4: <old id> — <old text>" said the
    same for keep-both as for keep-old, and nothing of the other memory."""
    old, new = conflict.existing.id, conflict.candidate.id
    text = "(a secret: `localmind show` shows it)" if record.secret else one_line(record.content)
    if resolution is Resolution.KEEP_BOTH:
        return f"kept both {old} and {new}"
    if resolution is Resolution.KEEP_OLD:
        return f"kept {old} — {text} (forgot {new})"
    return f"{record.id} is now version {record.version} — {text} ({new} went into it)"

"""Memories one at a time: ``add``, ``recall``, ``list``, ``show``, ``forget``."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import click

from localmind import validation
from localmind.cli.context import Context
from localmind.cli.errors import friendly_errors, not_utf8
from localmind.cli.output import day, echo_json, n_memories, one_line, plural, when
from localmind.cli.root import cli
from localmind.config import FusionConfig, Limits
from localmind.currency import newer_named
from localmind.errors import ForgottenEarlier, NotFound
from localmind.importing import DATE_FORMS, BadDate, read_date
from localmind.lifecycle import Decision, Outcome
from localmind.memory import Memory
from localmind.recall import PRESENT_RECENCY
from localmind.records import (
    MemoryRecord,
    MemoryType,
    RecallResult,
    Status,
    replaced,
)
from localmind.secrets_check import told_to_person
from localmind.terminal import printable
from localmind.writing import EARLIER_VERSION, MAY_BE_EARLIER, TOLD_AGAIN

TYPES = click.Choice([t.value for t in MemoryType], case_sensitive=False)
# short_term memories live in a running session's ring buffer (chat, TUI); a one-shot command
# would lose them on exit, so add and import store the other types only.
STORED_TYPES = click.Choice(
    [t.value for t in MemoryType if t is not MemoryType.SHORT_TERM], case_sensitive=False
)
SHORT_TERM_REFUSED = (
    "short_term memories only live inside a running session (chat); store it as "
    "long_term, episodic or semantic"
)
F = TypeVar("F", bound=Callable[..., Any])
TYPES_HELP = (
    'semantic: a fact about you ("I am a nurse", "I prefer tea"); episodic: something that '
    'happened ("We hiked the coast path on Sunday"; an import stores events as told); '
    "long_term: anything else worth keeping (short_term memories live only inside a chat)."
)


def stored_type_option(help_first: str) -> Callable[[F], F]:
    """``--type`` of the commands that store memories, its help explaining the types."""
    return click.option(
        "--type",
        "type_",
        type=STORED_TYPES,
        default="long_term",
        show_default=True,
        help=help_first + TYPES_HELP,
    )


@cli.command()
@click.argument("text", required=False)
@click.option(
    "--file",
    "source",
    # utf-8-sig: a file saved by Windows Notepad starts with a byte order mark, which is no
    # part of the memory (review15a TW10)
    type=click.File("r", encoding="utf-8-sig"),
    help="Remember the whole text of this file (one memory; to add one per line: import).",
)
@stored_type_option("")
@click.option("--importance", type=float, help="0 to 1 (default 0.5).")
@click.option("--meta", multiple=True, metavar="KEY=VALUE", help="Metadata; repeatable.")
@click.option(
    "--date",
    "told_on",
    metavar="DATE",
    help="When it was told or happened, if not now: 2026-11-04, 2026-11-04T09:30, "
    "2026-11-04T09:30:00+01:00 (no zone: UTC) or Unix seconds, as an import line's "
    "created_at. It is judged as that import line would be: an old fact that a later "
    "memory changed is stored as its earlier version, not as a change.",
)
@click.option(
    "--allow-forgotten",
    is_flag=True,
    help="Add it even if you forgot this text earlier (`forget`): without it, a text you "
    "forgot is recognised and not brought back.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the stored memory as JSON.")
@click.pass_obj
@friendly_errors
def add(
    obj: Context,
    text: str | None,
    source: Any,
    type_: str,
    importance: float | None,
    meta: tuple[str, ...],
    told_on: str | None,
    allow_forgotten: bool,
    as_json: bool,
) -> None:
    """Remember TEXT (- reads it from standard input, as does --file FILE from a file). The
    first `add` creates the store.

    A password, PIN or code typed as TEXT stays in your shell's history: give - instead, and
    type it at the prompt (then Ctrl+D)."""
    if (text is None) == (source is None):
        raise click.UsageError(
            "Give the memory's TEXT, - to read it from standard input, or --file FILE."
        )
    typed = source is None and text != "-"  # on the command line: in the shell's history
    if source is None and text == "-":
        source = standard_input("the memory")
    if source is not None:
        try:
            text = source.read().removeprefix(BOM)
        except UnicodeDecodeError:
            raise not_utf8(source.name, "nothing was added") from None
    assert text is not None
    metadata = {}
    for pair in meta:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"{pair!r} is not KEY=VALUE", param_hint="--meta")
        metadata[key] = value
    # Checked before the store is opened, so bad input never creates or touches a store.
    validation.content(text, Limits())
    if importance is not None:
        validation.unit_interval(importance, "importance")
    created_at = None if told_on is None else told_date(told_on)
    with obj.open(llm=True, create=True) as memory:
        try:
            outcome = memory.remember_explained(
                text,
                type=type_,
                importance=importance,
                metadata=metadata,
                created_at=created_at,
                allow_forgotten=allow_forgotten,
            )
        except ForgottenEarlier as refused:
            raise click.ClickException(
                f"{refused} Pass --allow-forgotten to add it again."
            ) from None
        capacity = memory.settings.governance.capacity
        pending = memory.still_pending(outcome)
    record = outcome.record
    if as_json:
        echo_json(
            {
                **record.to_dict(),
                "secret": record.secret,
                "decision": str(outcome.decision),
                "reason": outcome.reason,
                "evicted": list(outcome.evicted),
            }
        )
        return
    click.echo(describe_outcome(outcome))
    for waiting in pending[:1]:
        other = waiting.candidate if waiting.existing.id == record.id else waiting.existing
        # the other memory may be a secret: the person did not ask to see it (leak11)
        said = "a secret" if other.secret else f"“{one_line(other.content, 60)}”"
        click.echo(
            f"It is in pending conflict #{waiting.id} with {other.id} ({said}): telling it "
            "again does not settle that; review with `localmind conflicts`"
        )
    if record.secret:
        click.echo(told_to_person([record.id]), err=True)
        if typed:
            click.echo(TYPED_SECRET, err=True)
    if outcome.evicted:
        click.echo(f"To make room, {eviction_note(outcome.evicted, capacity)}.")


def told_date(given: str) -> float:
    """``add --date`` as Unix seconds: read as an import line's ``created_at`` is (a number of
    seconds, or ISO 8601), and held to the same bounds (not in the future, not before 1980),
    so a date refused there is refused here, before any store is opened."""
    try:
        seconds: object = float(given)
    except ValueError:
        seconds = given
    try:
        when = read_date(seconds, "--date")
    except BadDate as error:
        raise click.BadParameter(f"{error} ({DATE_FORMS}); nothing was added.") from None
    validation.not_in_future(when, "--date", time.time())
    return validation.not_too_early(when, "--date")


#: A byte order mark: Windows tools start UTF-8 text with it; it is no part of a memory.
BOM = "\ufeff"


def standard_input(what: str) -> Any:
    """Standard input, for a TEXT given as ``-`` (a secret typed there stays out of the shell's
    history); a person at a terminal is told how to end it."""
    if sys.stdin.isatty():
        click.echo(f"Type {what}, then Ctrl+D on a line of its own:", err=True)
    return sys.stdin


def text_argument(text: str | None, what: str) -> str | None:
    """``text`` as given, or read from standard input when it is ``-``."""
    if text != "-":
        return text
    try:
        return str(standard_input(what).read()).removeprefix(BOM)
    except UnicodeDecodeError:
        raise not_utf8("Standard input", "nothing was changed") from None


#: Said after a secret given as ``add TEXT`` (leak11): the command line, the secret with it,
#: is in the shell's history file (and, while it runs, in the process list).
TYPED_SECRET = (
    "It was typed on the command line, so your shell's history keeps it: remove that line "
    "(e.g. bash's `history -d`). Next time, `localmind add -` reads it from standard input."
)


def eviction_note(evicted: Sequence[str], capacity: int | None) -> str:
    """How every front end announces what the capacity limit archived."""
    n = len(evicted)
    return (
        f"capacity {capacity} archived {n_memories(n)} "
        "(list them: localmind list --archived; bring one back: localmind unarchive ID)"
    )


def describe_outcome(outcome: Outcome) -> str:
    record, related = outcome.record, outcome.related
    if outcome.decision is Decision.REINFORCED:
        return f"Already remembered as {record.id}; confidence now {record.confidence:.2f}"
    if outcome.decision is Decision.MERGED:
        return f"Merged into {record.id} (said the same); confidence now {record.confidence:.2f}"
    if outcome.decision is Decision.OVERWRITTEN:
        return f"Updated {record.id} to version {record.version} (it contradicted the old text)"
    if outcome.decision is Decision.QUEUED and outcome.reason.startswith(TOLD_AGAIN):
        return (
            f"Remembered {record.id} ({record.type}), not as the current fact: "
            f"{outcome.reason}; review with `localmind conflicts`"
        )
    if outcome.decision is Decision.QUEUED and related is not None and older_than(outcome):
        return (
            f"Remembered {record.id} ({record.type}); it may be an earlier version of "
            f"{related.id}, made later: review with `localmind conflicts`"
        )
    if outcome.decision is Decision.INSERTED and related is not None and older_than(outcome):
        return (
            f"Remembered {record.id} ({record.type}) as an earlier version of {related.id}, "
            "made later, which stays the current one"
        )
    if outcome.decision is Decision.QUEUED and related is not None:
        return (
            f"Remembered {record.id} ({record.type}); it may contradict {related.id}: "
            f"review with `localmind conflicts`"
        )
    if outcome.may_restate and related is not None:
        # what MCP asks the assistant, said to the person too (review10 F19)
        return (
            f"Remembered {record.id} ({record.type}); it may say the same as {related.id} "
            f"(“{one_line(related.content, 60)}”) in other words or another language: "
            f"if it does, `localmind forget {record.id}`"
        )
    return f"Remembered {record.id} ({record.type})"


def older_than(outcome: Outcome) -> bool:
    """Whether a dated memory was found older than the memory it relates to (``add --date``
    of an old fact): an earlier version, not a change."""
    return outcome.reason.startswith((EARLIER_VERSION, MAY_BE_EARLIER))


SOURCE_HELP = (
    "Only memories from this source: cli, tui, chat, mcp (or mcp:CLIENT), import (or import:FILE)."
)


@cli.command()
@click.argument("query")
@click.option("--limit", "-n", type=int, default=5, show_default=True)
@click.option("--type", "types", type=TYPES, multiple=True, help="Only these types; repeatable.")
@click.option(
    "--threshold",
    type=click.FloatRange(0, 1),
    default=None,
    help="The least relevance a result needs, from 0 to 1: relevance is the estimated chance "
    "that a memory is relevant to the query (the 'relevance' each result shows) "
    f"[default: nothing unless the best reaches {FusionConfig().min_relevance:g} "
    f"({FusionConfig().min_relevance_unmatched:g} when no memory holds a word of the query), "
    f"then {FusionConfig().relative_relevance:g} of the best; 0 returns everything].",
)
@click.option("--source", help=SOURCE_HELP)
@click.option("--json", "as_json", is_flag=True, help="JSON with each score's breakdown.")
@click.pass_obj
@friendly_errors
def recall(
    obj: Context,
    query: str,
    limit: int,
    types: tuple[str, ...],
    threshold: float | None,
    source: str | None,
    as_json: bool,
) -> None:
    """Find the memories most relevant to QUERY (by meaning and by words). Memories that are
    probably unrelated are left out, so the answer may be shorter than --limit, or empty."""
    validation.content(query, Limits(), what="The query")
    validation.limit(limit, Limits())
    with obj.open() as memory:
        results = memory.recall(
            query, limit, types=types or None, threshold=threshold, source=source
        )
    if as_json:
        echo_json([result.to_dict() for result in results])
        return
    if not results:
        click.echo("Nothing relevant remembered.")
    for result in results:
        click.echo(format_result(result))


def format_result(result: RecallResult) -> str:
    b, memory = result.breakdown, result.memory
    dates = f"made {day(memory.created_at)}"
    if day(memory.updated_at) != day(memory.created_at):
        dates += f", changed {day(memory.updated_at)}"
    recency = f"recency {b.recency:.2f}"
    if b.recency_weight is not None and b.recency_weight >= PRESENT_RECENCY:
        # says why a question about now scores above 1 (README, "How recall ranks")
        recency += f" (weighed {b.recency_weight:g}: a question about now)"
    lines = [
        f"{b.score:.3f}  {memory.id}  {memory.type:<10}  {one_line(memory.content, 60)}",
        f"       {dates} · relevance {b.similarity:.2f} · importance {b.importance:.2f} · "
        f"{recency} · frequency {b.frequency:.2f} · confidence {b.confidence:.2f}",
    ]
    for earlier in result.earlier:
        lines.append(
            f"       earlier (told {day(earlier.told_at)}, until {day(earlier.until)}): "
            f"{one_line(earlier.text, 60)}"
        )
    if b.superseded_by:
        lines.append(f"       may be outdated: {newer_named(b)} is newer")
    if b.moved_above:
        lines.append(f"       newer than {b.moved_above}: listed above it")
    return "\n".join(lines)


@cli.command("list")
@click.option("--type", "types", type=TYPES, multiple=True, help="Only these types; repeatable.")
@click.option("--limit", "-n", type=click.IntRange(1, 10**12), default=50, show_default=True)
@click.option("--offset", type=click.IntRange(0, 10**12), default=0)
@click.option(
    "--archived",
    is_flag=True,
    help="The archived memories instead (evicted by capacity, decayed or expired), each with "
    "the date it was archived; bring one back with `localmind unarchive ID`.",
)
@click.option("--source", help=SOURCE_HELP)
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
@friendly_errors
def list_(
    obj: Context,
    types: tuple[str, ...],
    limit: int,
    offset: int,
    archived: bool,
    source: str | None,
    as_json: bool,
) -> None:
    """List memories, newest first."""
    status = Status.EXPIRED if archived else Status.ACTIVE
    with obj.open() as memory:
        records = memory.list_memories(
            types or None, status=status, limit=limit, offset=offset, source=source
        )
        total = memory.count(types or None, status=status, source=source)
        why = memory.archive_reasons([r.id for r in records]) if archived else {}
    if as_json:
        echo_json(
            [
                # when and why, as the text listing says it (review15b DV4: a script had
                # neither)
                {
                    **record.to_dict(),
                    "archived_at": record.updated_at,
                    "archived_because": why.get(record.id, ""),
                }
                if archived
                else record.to_dict()
                for record in records
            ]
        )
        return
    if not records:
        click.echo(
            "No archived memories."
            if archived
            else f"No memories from {printable(source, newlines=False)}."
            if source
            else 'No memories yet. Add one with: localmind add "..."'
        )
        return
    for record in records:
        row = format_row(record)
        if archived:
            because = one_line(why.get(record.id, ""), 40)
            row += f"  (archived {when(record.updated_at)}{': ' + because if because else ''})"
        click.echo(row)
    if offset + len(records) < total:
        click.echo(f"… {total - offset - len(records)} more (use --offset / --limit)", err=True)


def format_row(record: MemoryRecord) -> str:
    return (
        f"{record.id}  {record.type:<10}  conf {record.confidence:.2f}  imp "
        f"{record.importance:.2f}  {when(record.created_at)}  {one_line(record.content, 60)}"
    )


def not_forgotten(memory: Memory, reference: str, *, again: bool = False) -> MemoryRecord:
    """The memory ``reference`` names (its id, or a beginning of it only it has, in any case);
    a forgotten one is refused, saying so (``again``: the command was to forget it)."""
    record = memory.get(memory.resolve_id(reference))
    if record.status is Status.DELETED:
        gone = memory.gone(record.id)
        if gone is not None:  # a resolution dropped it: say for which memory
            raise NotFound(f"Memory {record.id} {gone}" + ("; nothing changed." if again else "."))
        raise NotFound(
            f"Memory {record.id} was already forgotten (its text and history are erased); "
            "nothing changed."
            if again
            else f"No memory with id {record.id!r}: it was forgotten (its text and history "
            "are erased)."
        )
    return record


ID_HELP = "ID: a memory's id, or enough of its beginning to be the only one (any case)."


@cli.command(epilog=ID_HELP)
@click.argument("memory_id", metavar="ID")
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
@friendly_errors
def show(obj: Context, memory_id: str, as_json: bool) -> None:
    """Show one memory, with its earlier versions."""
    with obj.open() as memory:
        record = not_forgotten(memory, memory_id)
        history = memory.history(record.id) if record.type is not MemoryType.SHORT_TERM else []
    if as_json:
        document = {**record.to_dict(), "secret": record.secret}
        document["history"] = [
            {"version": v.version, "content": v.content, "reason": v.reason, "at": v.replaced_at}
            for v in history
        ]
        echo_json(document)
        return
    for name, value in (
        ("id", record.id),
        ("type", record.type),
        ("status", record.status),
        ("importance", f"{record.importance:.2f}"),
        ("confidence", f"{record.confidence:.2f}"),
        ("accessed", f"{plural(record.access_count, 'time')}, last {when(record.last_accessed)}"),
        ("created", when(record.created_at)),
        ("updated", when(record.updated_at)),
        ("version", record.version),
        ("pinned", "yes" if record.pinned else "no"),
        ("source", record.source or "unknown (made before sources were kept)"),
        ("secret", "yes: never sent to assistants" if record.secret else "no"),
        ("metadata", json.dumps(record.metadata, ensure_ascii=False)),
    ):
        click.echo(f"{name:>10}: {printable(str(value), newlines=False)}")
    click.echo()
    click.echo(printable(record.content))
    made = {text: at for text, at in replaced(record.metadata) if at is not None}
    for v in history:
        version, content, reason, at = v.version, v.content, v.reason, v.replaced_at
        # an earlier fact a newer one replaced keeps the date it was told (records.REPLACED)
        told = f"told {when(made[content])}, " if content in made else ""
        heading = (
            f"--- version {version} ({printable(reason, newlines=False)}, {told}"
            f"replaced {when(at)})"
        )
        click.echo(f"\n{heading}\n{printable(content)}")


@cli.command(epilog=ID_HELP)
@click.argument("memory_id", metavar="ID")
@click.option("--secret", "secret", is_flag=True, help="Keep it from assistants.")
@click.option(
    "--not-secret",
    "not_secret",
    is_flag=True,
    help="It was taken for a secret (a password, PIN, key or code) but is not, so it may be "
    "sent to assistants again.",
)
@click.pass_obj
@friendly_errors
def update(obj: Context, memory_id: str, secret: bool, not_secret: bool) -> None:
    """Change how a memory is treated. Secrets are never sent to an assistant (`context`, MCP);
    you still see them in recall, list and show."""
    if secret == not_secret:
        # both: the one said last used to win quietly, and "not secret" sends it to assistants
        raise click.UsageError("Say --secret or --not-secret (one of them); nothing was changed.")
    with obj.open() as memory:
        record = memory.mark_secret(not_forgotten(memory, memory_id).id, secret)
    if record.secret:
        click.echo(f"{record.id} is a secret: never sent to assistants.")
    else:
        click.echo(f"{record.id} is not a secret: assistants may be sent it.")


@cli.command(epilog=ID_HELP)
@click.argument("memory_id", metavar="ID")
@click.pass_obj
@friendly_errors
def forget(obj: Context, memory_id: str) -> None:
    """Forget a memory: its text and history are erased."""
    with obj.open() as memory:
        record = not_forgotten(memory, memory_id, again=True)
        memory.forget(record.id)
    click.echo(f"Forgot {record.id}")

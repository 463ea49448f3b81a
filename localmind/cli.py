"""The ``localmind`` command line. Wiring only: every behaviour lives in the library."""

from __future__ import annotations

import errno
import json
import shutil
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import apsw
import click

from localmind import __version__, composition, configuration, validation
from localmind.config import FusionConfig, Limits
from localmind.configuration import NEW_PASSPHRASE_ENV, PASSPHRASE_ENV
from localmind.db import DAMAGE_ERRORS, damaged
from localmind.errors import LocalmindError, NotAStore, NotFound, StoreError, WrongPassphrase
from localmind.keys import key_file_for
from localmind.lifecycle import Decision, Outcome
from localmind.llm.registry import BACKENDS
from localmind.memory import Memory
from localmind.records import MemoryRecord, MemoryType, RecallResult, Status
from localmind.swap import finish_interrupted
from localmind.terminal import printable

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
    'happened ("I moved to Porto in May"); long_term: anything else worth keeping '
    "(short_term memories live only inside a chat)."
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


class Context:
    """What every command shares: the configuration, layered from ``localmind.toml``, the
    environment and the global options (:mod:`localmind.configuration`). Read on first use, so
    that ``localmind config path`` still answers when the file is broken."""

    def __init__(self, flags: dict[str, Any]) -> None:
        self._flags = flags
        self._configuration: configuration.Configuration | None = None
        # Whether a passphrase may be asked for in a terminal: not by `localmind mcp`, whose
        # stdin is the protocol's channel.
        self.may_ask = True

    @property
    def configuration(self) -> configuration.Configuration:
        if self._configuration is None:
            self._configuration = configuration.load(self._flags)
        return self._configuration

    @property
    def db(self) -> Path:
        return self.configuration.store

    @property
    def namespace(self) -> str:
        return self.configuration.user

    @property
    def embedder(self) -> str | None:
        return self.configuration.embedder

    @property
    def no_llm(self) -> bool:
        return not self.configuration.llm_enabled

    def known_db(self) -> Path | None:
        """The store, when the configuration has been read (error messages never read it)."""
        return self._configuration.store if self._configuration else None

    def require_store(self) -> None:
        """Refuse, creating nothing, when there is no store at ``db``: only the commands that
        put memories in (add, import) create one, so a typo in --db or LOCALMIND_DB is an
        error instead of a new, empty store that answers every question with nothing."""
        finish_interrupted(self.db)  # a restore a crash cut short: finish it, never create
        if not self.db.exists() and not key_file_for(self.db).exists():
            raise NotAStore(no_store_message(self.db))

    @contextmanager
    def open(
        self, *, accept_new_embedder: bool = False, llm: bool = False, create: bool = False
    ) -> Iterator[Memory]:
        """The store, unlocked; ``create``: make it when there is none yet (else NotAStore)."""
        try:
            if create:
                finish_interrupted(self.db)  # a restore a crash cut short: finish it first
            else:
                self.require_store()
            creating = not self.db.exists() and not key_file_for(self.db).exists()
            options: dict[str, Any] = {
                "accept_new_embedder": accept_new_embedder,
                "llm": composition.make_llm(self.configuration) if llm else None,
            }
            memory = None
            if not creating:
                memory = open_remembered(self.configuration, may_ask=self.may_ask, **options)
            if memory is None:
                passphrase = read_passphrase(creating=creating, db=self.db, may_ask=self.may_ask)
                memory = composition.open_memory(
                    self.configuration, passphrase, create=create, **options
                )
                del passphrase
        except OSError as error:  # a name too long, a folder not readable or writable, …
            raise StoreError(
                f"Cannot open a store at {str(self.db)!r}: {error.strerror or error}."
            ) from None
        if creating:
            click.echo(f"Created a new encrypted store at {self.db}", err=True)
        report = memory.maintained_on_open
        if report is not None and (report.archived or report.expired or report.purged):
            click.echo(
                f"Daily maintenance: {report.archived} archived (importance decayed), "
                f"{report.expired} expired, {report.purged} purged (list the archived: "
                "localmind list --archived).",
                err=True,
            )
        try:
            yield memory
        finally:
            memory.close()


def open_remembered(
    configured: configuration.Configuration, *, may_ask: bool = True, **options: Any
) -> Memory | None:
    """The store opened with the data key `localmind unlock --remember` kept in the OS
    keyring; None when none is (or LOCALMIND_PASSPHRASE is set, which always wins), or when
    it no longer opens the store (said on stderr; the passphrase is asked for then). Without
    ``may_ask`` a key that no longer opens the store is a one-line error instead."""
    if configuration.passphrase():
        return None
    from localmind.remembered_key import remembered_data_key

    key = remembered_data_key(configured.store)
    if key is None:
        return None
    try:
        return composition.open_memory(configured, "", data_key=key, **options)
    except WrongPassphrase as error:
        if not may_ask:
            raise click.ClickException(
                f"The key remembered in the OS keyring no longer opens {configured.store} (its "
                "key was changed since): run `localmind unlock --remember` again, or set "
                f"{PASSPHRASE_ENV}."
            ) from None
        click.echo(f"{error} (`localmind unlock --remember` remembers the new key)", err=True)
        return None


def no_store_message(db: Path) -> str:
    where = printable(str(db), newlines=False)
    return (
        f"No store at {where}. Check --db / LOCALMIND_DB; to start a new store there, add a "
        'memory (localmind add "...") or import a file (localmind import FILE).'
    )


def read_passphrase(
    *, creating: bool, db: Path, prompt: str = "Passphrase", may_ask: bool = True
) -> str:
    """The passphrase from LOCALMIND_PASSPHRASE, else asked for in the terminal (unless
    ``may_ask`` is false, or there is no terminal: then a one-line error)."""
    from_env = configuration.passphrase()
    if from_env:  # set but empty (LOCALMIND_PASSPHRASE=) is unset: no passphrase is empty
        return from_env
    if not (may_ask and sys.stdin.isatty() and sys.stderr.isatty()):
        raise click.ClickException(
            f"No passphrase: set {PASSPHRASE_ENV} or run localmind in a terminal to be asked."
        )
    if creating:
        where = printable(str(db), newlines=False)
        click.echo(f"No store at {where} yet: choose a passphrase to create it.", err=True)
        click.echo("It cannot be recovered if you lose it.", err=True)
        return str(
            click.prompt("New passphrase", hide_input=True, confirmation_prompt=True, err=True)
        )
    return str(click.prompt(prompt, hide_input=True, err=True))


def friendly_errors(function: F) -> F:
    """Turn localmind's errors into a one-line message and exit code 1."""
    import functools

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except LocalmindError as error:
            raise click.ClickException(printable(str(error))) from None
        except DAMAGE_ERRORS:  # a damaged page met outside a query (e.g. while committing)
            raise click.ClickException(str(damaged(_store_shown() or "The store"))) from None
        except (apsw.FullError, apsw.IOError) as error:  # disk full; or I/O failed (often: full)
            raise click.ClickException(_disk_problem(error)) from None
        except OSError as error:
            if error.errno not in (errno.ENOSPC, errno.EDQUOT):
                raise
            raise click.ClickException(_disk_problem(error)) from None
        except click.Abort:
            raise
        except KeyboardInterrupt:
            click.echo("\nInterrupted.", err=True)
            sys.exit(130)

    return wrapper  # type: ignore[return-value]


def _store_shown() -> Path | None:
    context = click.get_current_context(silent=True)
    store = context.find_object(Context) if context else None
    return store.known_db() if store else None


def _disk_problem(error: BaseException) -> str:
    """One line for a write the disk refused: SQLite rolled its transaction back, files are
    written under temporary names, so what was there before is whole."""
    store = _store_shown()
    where = store.parent if store else Path.cwd()
    try:
        free = shutil.disk_usage(where if where.exists() else Path.cwd()).free
    except OSError:
        free = None
    full = isinstance(error, apsw.FullError) or getattr(error, "errno", None) in (
        errno.ENOSPC,
        errno.EDQUOT,
    )
    if full or (free is not None and free < LOW_DISK_BYTES):
        shown = f" ({free / 1e6:.1f} MB free)" if free is not None else ""
        return (
            f"The disk holding {where} is full{shown}: the change that needed the space was "
            "not saved, and what was saved before is whole. Free some space and try again."
        )
    return (
        f"Reading or writing {store or 'a file'} failed ({error}); what was saved before is "
        "whole. Check the disk, then try again."
    )


#: Less free space than this makes an I/O error a "disk full" (SQLite reports some of those,
#: e.g. growing its shared-memory index, as a plain I/O error).
LOW_DISK_BYTES = 4 * 1024 * 1024


def plural(count: int, one: str, many: str | None = None) -> str:
    """``1 memory``, ``2 memories``: the count with the noun it needs."""
    return f"{count} {one if count == 1 else many or one + 's'}"


def n_memories(count: int) -> str:
    return plural(count, "memory", "memories")


def when(timestamp: float | None) -> str:
    if not timestamp:
        return "-"
    return datetime.fromtimestamp(timestamp, UTC).strftime("%Y-%m-%d %H:%M")


def one_line(text: str, width: int = 72) -> str:
    flat = printable(" ".join(text.split()), newlines=False)
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def echo_json(document: object) -> None:
    # JSON escapes C0 controls itself, not C1, DEL or bidi marks; printable's escapes are JSON.
    click.echo(printable(json.dumps(document, ensure_ascii=False, indent=2)))


@click.group(invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
# Each global option overrides the configuration file and its environment variable
# (localmind.configuration reads both; `localmind config show` says where each value came from).
@click.option(
    "--db",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The store file. Default: your user data directory (env LOCALMIND_DB; store).",
)
@click.option(
    "--user",
    "namespace",
    help="Whose memories (a namespace in the store; default me; env LOCALMIND_USER; user).",
)
@click.option(
    "--embedder",
    help="Embedding model: 'use' (bundled), 'e5-small' (optional), 'fastembed:<model>' or "
    "'fastembed:<directory>'. "
    "Default: the one the store was made with (env LOCALMIND_EMBEDDER; embedder).",
)
@click.option(
    "--llm",
    "backend",
    type=click.Choice(list(BACKENDS)),
    help="The language model's server: Ollama (default) or any OpenAI-compatible one "
    "(llama-server, LM Studio, vLLM; address: llm.base_url or LOCALMIND_LLM_URL; env "
    "LOCALMIND_LLM; llm.backend).",
)
@click.option(
    "--model",
    help="The model for contradiction checks, fact extraction and chat (default qwen2.5:3b "
    "on Ollama, at OLLAMA_HOST or http://127.0.0.1:11434; env LOCALMIND_MODEL; llm.model).",
)
@click.option(
    "--no-llm",
    is_flag=True,
    default=None,
    help="Never call a language model: possible contradictions wait for review instead "
    "(env LOCALMIND_NO_LLM=1; llm.enabled = false).",
)
@click.version_option(__version__, prog_name="localmind")
@click.pass_context
def cli(
    ctx: click.Context,
    db: Path | None,
    namespace: str | None,
    embedder: str | None,
    backend: str | None,
    model: str | None,
    no_llm: bool | None,
) -> None:
    """localmind: a private, offline, long-term memory for your AI assistant.

    Memories live in an encrypted file on this computer. The passphrase is asked for, or read
    from LOCALMIND_PASSPHRASE in scripts.

    \b
    Examples:
      localmind add "I prefer tea over coffee" --type semantic
      localmind add "用户喜欢 Rust 编程语言" --type semantic --importance 0.8
      localmind recall "what do I like to drink?"
      localmind recall 编程 --json
    """
    flags = {
        "store": str(db) if db else None,
        "user": namespace,
        "embedder": embedder,
        "llm.backend": backend,
        "llm.model": model,
        "llm.enabled": False if no_llm else None,
    }
    ctx.obj = Context(flags)
    if ctx.invoked_subcommand is None:
        ctx.invoke(home)


@click.command("home", hidden=True)
@click.pass_obj
@friendly_errors
def home(obj: Context) -> None:
    """Show where things stand (the store must exist: `add` or `import` creates it, and so
    does the app, asking first, when `localmind` runs in a terminal)."""
    with obj.open() as memory:
        stats = memory.stats()
    click.echo(f"localmind {__version__} — {n_memories(stats['active'])} in {stats['path']}")
    click.echo('Try: localmind add "...", localmind recall "...", localmind --help')


@cli.command()
@click.argument("text", required=False)
@click.option(
    "--file",
    "source",
    type=click.File("r", encoding="utf-8"),
    help="Remember the whole text of this file (one memory; to add one per line: import).",
)
@stored_type_option("")
@click.option("--importance", type=float, help="0 to 1 (default 0.5).")
@click.option("--meta", multiple=True, metavar="KEY=VALUE", help="Metadata; repeatable.")
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
    as_json: bool,
) -> None:
    """Remember TEXT (- reads it from standard input, as does --file FILE from a file). The
    first `add` creates the store."""
    if (text is None) == (source is None):
        raise click.UsageError(
            "Give the memory's TEXT, - to read it from standard input, or --file FILE."
        )
    if source is None and text == "-":
        source = sys.stdin
    if source is not None:
        try:
            text = source.read()
        except UnicodeDecodeError:
            raise click.ClickException(
                f"{source.name} is not UTF-8 text; nothing was added."
            ) from None
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
    with obj.open(llm=True, create=True) as memory:
        outcome = memory.remember_explained(
            text, type=type_, importance=importance, metadata=metadata
        )
        capacity = memory.settings.governance.capacity
    record = outcome.record
    if as_json:
        echo_json(
            {
                **record.to_dict(),
                "decision": str(outcome.decision),
                "reason": outcome.reason,
                "evicted": list(outcome.evicted),
            }
        )
        return
    click.echo(describe_outcome(outcome))
    if outcome.evicted:
        click.echo(f"To make room, {eviction_note(outcome.evicted, capacity)}.")


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
    if outcome.decision is Decision.QUEUED and related is not None:
        return (
            f"Remembered {record.id} ({record.type}); it may contradict {related.id}: "
            f"review with `localmind conflicts`"
        )
    return f"Remembered {record.id} ({record.type})"


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
@click.option("--json", "as_json", is_flag=True, help="JSON with each score's breakdown.")
@click.pass_obj
@friendly_errors
def recall(
    obj: Context,
    query: str,
    limit: int,
    types: tuple[str, ...],
    threshold: float | None,
    as_json: bool,
) -> None:
    """Find the memories most relevant to QUERY (by meaning and by words). Memories that are
    probably unrelated are left out, so the answer may be shorter than --limit, or empty."""
    validation.content(query, Limits(), what="The query")
    validation.limit(limit, Limits())
    with obj.open() as memory:
        results = memory.recall(query, limit, types=types or None, threshold=threshold)
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
    lines = [
        f"{b.score:.3f}  {memory.id}  {memory.type:<10}  {one_line(memory.content, 60)}",
        f"       {dates} · relevance {b.similarity:.2f} · importance {b.importance:.2f} · "
        f"recency {b.recency:.2f} · frequency {b.frequency:.2f} · confidence {b.confidence:.2f}",
    ]
    if b.superseded_by:
        lines.append(f"       may be outdated: {b.superseded_by} is newer")
    return "\n".join(lines)


def day(timestamp: float | None) -> str:
    if not timestamp:
        return "-"
    return datetime.fromtimestamp(timestamp, UTC).strftime("%Y-%m-%d")


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
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
@friendly_errors
def list_(
    obj: Context, types: tuple[str, ...], limit: int, offset: int, archived: bool, as_json: bool
) -> None:
    """List memories, newest first."""
    status = Status.EXPIRED if archived else Status.ACTIVE
    with obj.open() as memory:
        records = memory.list_memories(types or None, status=status, limit=limit, offset=offset)
        total = memory.count(types or None, status=status)
        why = memory.archive_reasons([r.id for r in records]) if archived else {}
    if as_json:
        echo_json(
            [
                {**record.to_dict(), "archived_because": why.get(record.id, "")}
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
        document = record.to_dict()
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
        ("metadata", json.dumps(record.metadata, ensure_ascii=False)),
    ):
        click.echo(f"{name:>10}: {printable(str(value), newlines=False)}")
    click.echo()
    click.echo(printable(record.content))
    for v in history:
        version, content, reason, at = v.version, v.content, v.reason, v.replaced_at
        heading = (
            f"--- version {version} ({printable(reason, newlines=False)}, replaced {when(at)})"
        )
        click.echo(f"\n{heading}\n{printable(content)}")


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
    for label in ("by_type", "by_status"):
        parts = ", ".join(f"{k} {v}" for k, v in sorted(figures[label].items()))
        click.echo(f"{label.replace('_', ' '):<11} {parts or '-'}")
    click.echo(f"embedder:   {figures['embedder']}")
    capacity = figures["capacity"]
    click.echo(f"capacity:   {figures['active']} of {capacity if capacity else 'unlimited'}")
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
    help="Also erase every archived memory of the user for good (nothing else purges them, "
    "unless `localmind config archive-retention-days N` is set).",
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
    retention (default: never). Safe to repeat. Refused, changing nothing, when the clock jumped
    (see --trust-clock)."""
    with obj.open() as memory:
        report = memory.maintain(trust_clock=trust_clock)
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
        f"Maintenance done: {report.expired} expired, {report.archived} archived, "
        f"{report.confidence_decayed} with less confidence, {report.purged + purged} purged."
    )


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


class PagesBar:
    """A progress bar of pages copied, shown only when the copy takes more than one step (its
    length, the store's pages, is known after the first)."""

    def __init__(self, stack: ExitStack, label: str) -> None:
        self._stack = stack
        self._label = label
        self._bar: Any = None

    def __call__(self, done: int, total: int) -> None:
        if self._bar is None:
            if done >= total:
                return
            self._bar = self._stack.enter_context(
                click.progressbar(length=total, label=self._label, file=sys.stderr)
            )
        self._bar.update(done - self._bar.pos)


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
    with it the store is re-encrypted under a new data key."""
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
        from localmind.cli_keyring import refresh_remembered  # (registered at the bottom)

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


def main() -> None:
    cli(prog_name="localmind")


# Further commands live in their own modules; importing them registers them on `cli`.
from localmind import (  # noqa: E402
    cli_backup,
    cli_capacity,
    cli_chat,
    cli_config,
    cli_keyring,
    cli_mcp,
    cli_models,
    cli_profile,
    cli_review,
    cli_transfer,
)

__all__ = [
    "cli",
    "cli_backup",
    "cli_capacity",
    "cli_chat",
    "cli_config",
    "cli_keyring",
    "cli_mcp",
    "cli_models",
    "cli_profile",
    "cli_review",
    "cli_transfer",
    "main",
]

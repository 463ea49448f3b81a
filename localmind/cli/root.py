"""The ``localmind`` group: its global options (each over the configuration file and its
environment variable), and what it says with no command."""

from __future__ import annotations

from pathlib import Path

import click

from localmind import __version__
from localmind.cli.context import Context
from localmind.cli.errors import friendly_errors
from localmind.cli.output import n_memories
from localmind.llm.registry import BACKENDS


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


@cli.command("init", hidden=True, context_settings={"ignore_unknown_options": True})
@click.argument("ignored", nargs=-1, type=click.UNPROCESSED)
def init(ignored: tuple[str, ...]) -> None:
    """Not a command: say how a store is made (review12 R13: "No such command 'init'." with
    no hint, the only "init" in the README being `sync init`)."""
    raise click.ClickException(
        "There is no `localmind init`: a store is made the first time you use one. Run "
        '`localmind` (the app) or `localmind add "..."` / `localmind import FILE`, which ask '
        "for the new store's passphrase. To sync a store between laptops: `localmind sync "
        "init FOLDER`."
    )


def main() -> None:
    cli(prog_name="localmind")

"""``localmind chat``: a plain terminal conversation that remembers, for people who do not want
the full-screen app."""

from __future__ import annotations

import click

from localmind.chat import Session
from localmind.chat.session import WITHHELD_NOTE
from localmind.cli.context import Context
from localmind.cli.errors import friendly_errors
from localmind.cli.memories import describe_outcome, eviction_note
from localmind.cli.root import cli
from localmind.errors import InvalidInput
from localmind.terminal import printable

QUIT = {"/quit", "/exit", ":q"}
NO_LLM = (
    "No replies: the local model is off because of --no-llm (or LOCALMIND_NO_LLM, or llm.enabled "
    "= false in localmind.toml). What you say is still recalled against and kept for this "
    "session."
)


@cli.command()
@click.option("--show-memories", is_flag=True, help="Print the memories recalled each turn.")
@click.pass_obj
@friendly_errors
def chat(obj: Context, show_memories: bool) -> None:
    """Talk with your local model; it recalls what matters and remembers what you tell it.
    End with /quit or Ctrl-D."""
    with obj.open(llm=True) as memory:
        session = Session(memory, memory.llm)
        if obj.no_llm:
            click.secho(NO_LLM, fg="yellow", err=True)
        elif memory.llm is not None and not memory.llm.available():
            click.secho(f"LLM offline: {memory.llm.status}", fg="yellow", err=True)
            click.echo("Your messages are still kept for this session.", err=True)
        while True:
            try:
                message = click.prompt("you", prompt_suffix="> ", err=True)
            except (EOFError, click.Abort):
                click.echo(err=True)
                break
            if message.strip() in QUIT:
                break
            try:
                turn = session.turn(
                    message, on_token=lambda piece: click.echo(printable(piece), nl=False)
                )
            except InvalidInput as error:
                click.secho(str(error), fg="red", err=True)
                continue
            if turn.reply:
                click.echo()
            if turn.withheld:
                click.secho(WITHHELD_NOTE, fg="yellow", err=True)
            if turn.offline:
                why = NO_LLM.split(".")[0] + "." if obj.no_llm else turn.offline
                click.secho(why, fg="yellow", err=True)
            if show_memories:
                for result in turn.recalled:
                    # a secret is hidden as in the app's sidebar: it was never the model's
                    text = (
                        f"•••••••• (a secret: localmind show {result.memory.id})"
                        if result.memory.secret
                        else printable(result.memory.content, newlines=False)
                    )
                    click.echo(f"  · recalled {result.score:.2f} {text}", err=True)
            for outcome in turn.remembered:
                text = printable(outcome.record.content, newlines=False)
                click.echo(f"  + {describe_outcome(outcome)}: {text}", err=True)
            for fact in turn.not_kept:
                click.secho(
                    f"  - {printable(fact.describe(), newlines=False)}", fg="yellow", err=True
                )
                if outcome.evicted:
                    capacity = memory.settings.governance.capacity
                    click.echo(f"    {eviction_note(outcome.evicted, capacity)}", err=True)

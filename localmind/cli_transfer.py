"""Getting memories in and out: ``import`` (a person's own lists, or a localmind export) and
``export`` (JSON lines that import restores exactly, or Markdown to read)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import click

from localmind.cli import (
    SHORT_TERM_REFUSED,
    STORED_TYPES,
    Context,
    cli,
    eviction_note,
    friendly_errors,
)
from localmind.config import Settings
from localmind.errors import InvalidInput
from localmind.importing import BadLine, detect_jsonl, read_lines
from localmind.memory import NewMemory, validate_new
from localmind.records import MemoryType
from localmind.terminal import printable
from localmind.transfer import PLAINTEXT_WARNING, Restorable, markdown, to_document


@cli.command("import")
@click.argument("file", type=click.File("r", encoding="utf-8"))
@click.option(
    "--type",
    "type_",
    type=STORED_TYPES,
    default="long_term",
    show_default=True,
    help="Type of lines that do not say.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["auto", "jsonl", "text"]),
    default="auto",
    show_default=True,
)
@click.pass_obj
@friendly_errors
def import_(obj: Context, file: Any, type_: str, fmt: str) -> None:
    """Add memories from FILE: JSON lines ({"content": ..., "type": ..., "importance": ...,
    "metadata": {...}, "created_at": ...}) or plain text, one memory a line; or a `localmind
    export` file, restored as it was (ids, versions, confidence). Bad lines are reported with
    their numbers; the good ones are kept. Use - for standard input."""
    try:
        lines = file.readlines()
    except UnicodeDecodeError:
        raise click.ClickException(
            f"{file.name} is not UTF-8 text; nothing was imported."
        ) from None
    first = next((line for line in lines if line.strip()), "")
    jsonl = fmt == "jsonl" or (fmt == "auto" and detect_jsonl(Path(file.name), first))
    new: list[NewMemory] = []
    restorable: list[Restorable] = []
    bad: list[BadLine] = []
    for number, item in read_lines(lines, jsonl=jsonl, default_type=type_, namespace=obj.namespace):
        if isinstance(item, BadLine):
            bad.append(item)
        elif isinstance(item, Restorable):
            restorable.append(item)
        else:
            try:
                checked = validate_new(item, Settings())
            except InvalidInput as error:
                bad.append(BadLine(number, str(error)))
                continue
            if checked.type is MemoryType.SHORT_TERM:
                bad.append(BadLine(number, SHORT_TERM_REFUSED))
            else:
                new.append(checked)
    for problem in bad:
        reason = printable(problem.reason, newlines=False)  # may quote the line
        click.echo(f"{printable(file.name)}:{problem.line}: skipped: {reason}", err=True)
    if not new and not restorable:
        raise click.ClickException(f"No memory to import from {file.name}; nothing was changed.")
    with obj.open() as memory:
        started = time.perf_counter()
        total = len(new) + len(restorable)
        with click.progressbar(length=total, label="Importing", file=sys.stderr) as bar:
            added = memory.remember_many_explained(new, progress=bar.update)
            report = memory.restore(restorable, progress=bar.update)
        elapsed = time.perf_counter() - started
        capacity = memory.settings.governance.capacity
    summary = f"Imported {len(new) + report.restored} memories in {elapsed:.1f} s"
    if report.skipped:
        summary += f"; {len(report.skipped)} already present (same id), left as they are"
    if evicted := added.evicted + report.evicted:
        summary += f"; {eviction_note(evicted, capacity)}"
    if bad:
        summary += f"; skipped {len(bad)} bad line(s)"
    click.echo(summary + ".")


@cli.command()
@click.option(
    "--format", "fmt", type=click.Choice(["jsonl", "markdown"]), default="jsonl", show_default=True
)
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    help="Write to this file (created with owner-only permissions) instead of standard output.",
)
@click.pass_obj
@friendly_errors
def export(obj: Context, fmt: str, output: Path | None) -> None:
    """Write every memory of the user out in plain text: JSON lines (which `localmind import`
    restores exactly) or Markdown to read. The export is NOT encrypted."""
    click.secho(PLAINTEXT_WARNING, fg="yellow", err=True)
    with obj.open() as memory:
        entries = list(memory.export())
    if fmt == "jsonl":
        lines = [json.dumps(to_document(r, h), ensure_ascii=False) + "\n" for r, h in entries]
    else:
        lines = list(markdown(entries, f"Memories of {obj.namespace}"))
    if output is None:
        # To a terminal (or a pipe): escapes instead of control characters; JSON reads them back.
        click.echo(printable("".join(lines)), nl=False)
    else:
        try:
            output.touch(mode=0o600, exist_ok=True)
            output.write_text("".join(lines), encoding="utf-8")
        except OSError as error:
            raise click.ClickException(
                f"Cannot write the export to {str(output)!r}: {error.strerror or error}."
            ) from None
        click.echo(f"Exported {len(entries)} memories to {output}.", err=True)

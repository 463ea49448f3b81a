"""Getting memories in and out: ``import`` (a person's own lists, or a localmind export) and
``export`` (JSON lines that import restores exactly, or Markdown to read)."""

from __future__ import annotations

import errno
import io
import itertools
import json
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from localmind import validation
from localmind.arrivals import JudgedAhead
from localmind.cli.context import Context
from localmind.cli.errors import friendly_errors, not_utf8
from localmind.cli.memories import BOM, SHORT_TERM_REFUSED, eviction_note, stored_type_option
from localmind.cli.output import n_memories, plural
from localmind.cli.root import cli
from localmind.config import Settings
from localmind.errors import (
    ImplausibleDate,
    InterruptedAfterSaving,
    InvalidInput,
    LocalmindError,
    WouldArchive,
)
from localmind.files import write_atomically
from localmind.importing import BadLine, MostAdded, detect_jsonl, read_lines
from localmind.keys import key_file_for
from localmind.memory import Decided, Memory, NewMemory, StaleDecisions, validate_new
from localmind.records import MemoryType
from localmind.secrets_check import told_to_person
from localmind.terminal import printable
from localmind.transfer import (
    PLAINTEXT_WARNING,
    Carried,
    CarriedConflict,
    CarriedNote,
    Restorable,
    carried_document,
    is_markdown_export,
    markdown,
    to_document,
)
from localmind.writing import DECIDED_AHEAD, DECIDING_ATTEMPTS, Batch


@cli.command("import")
@click.argument("file", type=click.File("r", encoding="utf-8"))
@stored_type_option("The type of lines that do not say. ")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["auto", "jsonl", "text"]),
    default="auto",
    show_default=True,
)
@click.option(
    "--no-check",
    "raw",
    is_flag=True,
    help="Store every line unjudged: no merging of restatements, no review queue. A line "
    "with exactly the text of a stored fact still only raises that fact's confidence. Events "
    "(--type episodic, e.g. chat transcripts) are judged only against facts, never against "
    "each other (each was true when it happened); the same event on another date is another "
    "memory.",
)
@click.option(
    "--allow-evict",
    is_flag=True,
    help="When the import would take the store over its capacity, archive the memories of "
    "least value to make room (those you added one by one go last) instead of refusing.",
)
@click.option(
    "--allow-forgotten",
    is_flag=True,
    help="Bring back lines whose text you forgot earlier (`forget`). Without it they are "
    "recognised, left out and counted in the summary.",
)
@click.pass_obj
@friendly_errors
def import_(
    obj: Context,
    file: Any,
    type_: str,
    fmt: str,
    raw: bool,
    allow_evict: bool,
    allow_forgotten: bool,
) -> None:
    """Add memories from FILE: JSON lines ({"content": ..., "type": ..., "importance": ...,
    "metadata": {...}, "created_at": ...}) or plain text, one memory a line; or a `localmind
    export` file, restored as it was (ids, versions, confidence). Bad lines are reported with
    their numbers; the good ones are kept. Use - for standard input.

    Each new memory is judged as `add` judges it, against the store and the lines before it
    (without asking a model): one that restates a memory is merged into it, one that may
    change a memory is stored and queued for review (`localmind conflicts`), and one whose
    text a memory replaced (an earlier version, or one set aside in a review) is not added
    again. An export's memories are written back as they were and judged against the store's
    own; its pending conflicts are queued again (not one this store settled), and a memory
    forgotten here is not brought back. Nor is a line whose text you forgot (`forget`), unless
    --allow-forgotten.

    An import that would take the store over its capacity imports nothing and says how many
    memories it would archive, unless --allow-evict (or raise the capacity first: `localmind
    config capacity N`).

    Exit status: 0 when every line was imported (or recognised), 3 when the good lines were
    imported and bad ones skipped (each reported on stderr), 1 when nothing was imported (an
    error), 130 when interrupted (nothing imported)."""
    if file.seekable():
        # Refuse a file that is not UTF-8 whole, before anything is imported: one pass that
        # decodes and drops (memory stays bounded), then back to the start.
        try:
            for _ in file:
                pass
        except UnicodeDecodeError:
            raise not_utf8(file.name, "nothing was imported") from None
        file.seek(0)
    lines = _Lines(file)
    first_lines = lines.peek(2)
    if fmt != "jsonl" and is_markdown_export(first_lines):
        raise click.ClickException(
            f"{file.name} is a Markdown export, which is for reading: nothing was imported. "
            "Import a JSON-lines export instead (localmind export -o memories.jsonl), which "
            "restores every memory as it was."
        )
    first = first_lines[0] if first_lines else ""
    jsonl = fmt == "jsonl" or (fmt == "auto" and detect_jsonl(Path(file.name), first))
    # The most it could add, counted before anything is embedded or judged (review12 R12: an
    # import over the capacity was refused only after minutes of both). Not for standard
    # input, which is read once: there the import's end is the check.
    most = None
    if file.seekable() and not allow_evict:
        most = _most_added(lines, jsonl=jsonl, default_type=type_, namespace=obj.namespace)
    reader = _Batches(
        read_lines(lines, jsonl=jsonl, default_type=type_, namespace=obj.namespace), file.name
    )
    batches = iter(reader)
    # The first batch with a memory in it, before the store is opened (or created).
    pending = next(batches, None)
    while pending is not None and pending.empty:
        pending = next(batches, None)
    if pending is None:
        raise click.ClickException(f"No memory to import from {file.name}; nothing was changed.")
    new_store = not obj.db.exists() and not key_file_for(obj.db).exists()
    with obj.open(create=True) as memory:
        memory.source = validation.source_of("import", Path(file.name).name)
        if most is not None:
            with _refused_over_capacity(file.name, obj.db if new_store else None):
                memory.refuse_over_capacity(most)
        started = time.perf_counter()
        # Half the bar reads, prepares and judges (no lock held), the other half writes.
        bar = click.progressbar(length=2 * (lines.size or 1), label="Importing", file=sys.stderr)
        with _nothing_left_if_stopped(), bar:
            progress = _Progress(bar, lines)
            ahead = _prepared_ahead(
                memory,
                pending,
                batches,
                progress,
                check=not raw,
                allow_forgotten=allow_forgotten,
            )
            following = next(batches, None)  # (a file longer than what is prepared ahead)
            whole = following is None
            if following is not None:
                batches = itertools.chain([following], batches)
            decided = _decided(memory, ahead, raw)
            restored = _restored_judged_ahead(memory, ahead) if whole and decided is None else None
            attempt = 1
            while True:
                tally = _Tally()
                try:
                    with (
                        _refused_over_capacity(file.name, obj.db if new_store else None),
                        memory.all_or_nothing(archive=allow_evict) as evicted,
                    ):
                        if restored is not None and attempt < DECIDING_ATTEMPTS:
                            memory.check_ahead(restored)  # (the lock held, nothing written)
                        elif restored is not None:
                            restored = None  # the last time: judged under the lock
                        if decided is not None:
                            last = attempt >= DECIDING_ATTEMPTS
                            written = memory.apply_decided(decided, judge_again=last)
                            for pending, added in zip(ahead, written, strict=True):
                                memory.unforget(pending.brought_back)
                                tally.add(added, len(pending.new), pending.forgotten)
                                progress.written(pending)
                            rest = _prepared(memory, batches, progress, raw, allow_forgotten)
                        else:
                            rest = itertools.chain(
                                ahead, _prepared(memory, batches, progress, raw, allow_forgotten)
                            )
                        # (past PREPARED_AHEAD memories, the rest is prepared and judged under
                        # the lock: memory stays bounded)
                        for pending in rest:
                            tally.write(memory, pending, raw)
                            progress.written(pending)
                        # Written back as they were, then judged as `add` judges, against
                        # the rest of the store (what the export's own memories waited for,
                        # it carried): judged before the lock when they could be.
                        tally.queued += memory.judge_restored(
                            tally.restored, tally.spoken_for, restored
                        )
                    break
                except StaleDecisions:
                    # Another program changed what the decisions read (nothing was written):
                    # decide again against the store as it is now, holding no lock.
                    attempt += 1
                    decided = _decided(memory, ahead, raw)
                    if restored is not None:
                        restored = _restored_judged_ahead(memory, ahead)
            bad = reader.bad
        elapsed = time.perf_counter() - started
        capacity = memory.settings.governance.capacity
    summary = f"Imported {n_memories(tally.imported)} in {elapsed:.1f} s"
    if tally.skipped:
        summary += f"; {tally.skipped} already present (same id), left as they are"
    if tally.forgotten:
        # a forget is final: an old export must not bring the memory back
        summary += f"; {tally.forgotten} forgotten here: not brought back"
    if tally.forgotten_texts:
        # the person's own file, imported again after a forget (review13 J11)
        summary += (
            f"; {tally.forgotten_texts} forgotten earlier: not brought back (pass "
            "--allow-forgotten to keep them)"
        )
    if tally.settled_away:
        summary += (
            f"; {tally.settled_away} merged into another memory (or set aside) in a review here: "
            "not brought back"
        )
    if tally.repeated:
        # a file imported twice must not look like twice the memories
        summary += f"; {tally.repeated} already present (same text): not added again"
    if tally.outdated:
        # a file imported again after its facts were resolved must not bring them back
        summary += (
            f"; {tally.outdated} already known as an earlier version of a memory (or set aside in "
            "a review): kept the current text, not added again"
        )
    if tally.merged:
        summary += f"; {tally.merged} restated a memory: merged into it"
    if tally.queued:
        summary += (
            f"; {n_memories(tally.queued)} may change an earlier one: "
            "queued for review (localmind conflicts)"
        )
    if tally.requeued:
        summary += (
            f"; {plural(tally.requeued, 'pending conflict')} of the export queued again for review "
            "(localmind conflicts)"
        )
    if evicted:
        summary += f"; {eviction_note(evicted, capacity)}"
    if bad:
        summary += f"; skipped {plural(bad, 'bad line')}"
    click.echo(summary + ".")
    if tally.secret:
        click.echo(told_to_person(list(tally.secret)), err=True)
    if bad:  # a script must see that not every line went in (review15b DV5)
        sys.exit(SOME_LINES_SKIPPED)


#: ``import``'s exit status when it imported the good lines and skipped bad ones.
SOME_LINES_SKIPPED = 3


NOTHING_IMPORTED = "nothing imported; the store is as it was."


@contextmanager
def _refused_over_capacity(name: str, new_store: Path | None = None) -> Iterator[None]:
    """An import over the capacity, not allowed to archive: say by how much, and the two
    ways on. ``new_store``: the store this import made, kept (empty) so that its capacity
    can be raised, and said so (review12 R12: it was left behind unannounced)."""
    try:
        yield
    except WouldArchive as over:
        kept = (
            f" The new store at {printable(str(new_store))} is kept, empty, for that."
            if new_store is not None
            else ""
        )
        # Counted before the work (over.at_most), merges of restatements may leave fewer: the
        # figures are the most it could be, and the capacity advised is enough either way.
        up_to = "up to " if over.at_most else ""
        least = "what is over it" if over.at_most else f"the {over.excess}"
        raise click.ClickException(
            f"Importing {printable(name)} would leave {up_to}{n_memories(over.total)}, over "
            f"the capacity of {over.capacity}: {up_to}{n_memories(over.excess)} would be "
            f"archived to make room. Nothing was imported. Raise the capacity first (localmind "
            f"config capacity {over.total}), or import with --allow-evict to archive {least} "
            f"of least value (memories you added one by one go last).{kept}"
        ) from None


@contextmanager
def _nothing_left_if_stopped() -> Iterator[None]:
    """Say that an import stopped part way (Ctrl-C, an error) left nothing behind: it is one
    transaction (``Memory.all_or_nothing``), which rolled back."""
    try:
        yield
    except InterruptedAfterSaving:
        click.echo("\nInterrupted as the import was being saved: it was saved whole.", err=True)
        sys.exit(130)
    except KeyboardInterrupt:
        click.echo(f"\nInterrupted: {NOTHING_IMPORTED}", err=True)
        sys.exit(130)
    except LocalmindError as error:
        raise click.ClickException(
            f"{printable(str(error))} The import stopped: {NOTHING_IMPORTED}"
        ) from None


#: Lines turned into memories, embedded and written at a time: memory use is bounded by one
#: batch whatever the file's size (a 200 MB file of short lines once took 4 GB).
IMPORT_BATCH = 1024


#: Memories read, prepared (embedded, their statements read) and judged before the import
#: takes the write lock: what other programs' writes wait for is then only the writes. Bounded
#: (``writing.DECIDED_AHEAD``): a longer file prepares and judges what is past this under the
#: lock. An import decides again up to ``DECIDING_ATTEMPTS`` times, as remember_many does.
PREPARED_AHEAD = DECIDED_AHEAD


@dataclass(slots=True)
class _Batch:
    new: list[NewMemory] = field(default_factory=list)
    restorable: list[Restorable] = field(default_factory=list)
    carried: list[Carried] = field(default_factory=list)  # what an export's memories wait for
    end: int = 0  # bytes of the file read up to its last line
    forgotten: int = 0  # lines left out: the person forgot their text
    brought_back: list[NewMemory] = field(default_factory=list)  # ones --allow-forgotten keeps

    @property
    def empty(self) -> bool:
        return not self.new and not self.restorable and not self.carried

    def __len__(self) -> int:
        return len(self.new) + len(self.restorable) + len(self.carried)


@dataclass(slots=True)
class _Tally:
    """What an import did, for its summary (counted afresh if it is decided again)."""

    imported: int = 0
    skipped: int = 0
    forgotten: int = 0
    settled_away: int = 0
    repeated: int = 0
    merged: int = 0
    queued: int = 0
    outdated: int = 0
    forgotten_texts: int = 0  # lines whose text the person forgot: left out
    requeued: int = 0  # pending conflicts an export carried, queued again
    secret: dict[str, None] = field(default_factory=dict)  # ids that look like secrets, in order
    restored: list[str] = field(default_factory=list)  # ids an export wrote back: judged last
    spoken_for: set[str] = field(default_factory=set)  # a version 2 export carries their queue

    def add(self, added: Batch, lines: int, forgotten: int = 0) -> None:
        """Count what ``lines`` new lines came to (and the ``forgotten`` ones left out)."""
        self.forgotten_texts += forgotten
        self.imported += lines - added.reinforced - added.merged - added.outdated
        self.repeated += added.reinforced
        self.outdated += added.outdated
        self.merged += added.merged
        self.queued += added.queued
        self.secret.update(dict.fromkeys(r.id for r in added.records if r.secret))

    def write(self, memory: Memory, batch: _Batch, raw: bool) -> None:
        """Judge and write ``batch`` under the lock: its new lines, an export's memories and
        what they wait for."""
        memory.unforget(batch.brought_back)
        self.add(
            memory.remember_many_explained(batch.new, check=not raw, allow_forgotten=True),
            len(batch.new),
            batch.forgotten,
        )
        report = memory.restore(batch.restorable)
        self.requeued += memory.restore_waiting(batch.carried)
        self.restored += report.written
        self.spoken_for.update(r.record.id for r in batch.restorable if r.carries_queue)
        self.imported += report.restored
        self.skipped += len(report.skipped)
        self.forgotten += len(report.forgotten)
        self.settled_away += len(report.settled_away)
        self.secret.update(dict.fromkeys(report.secret))


class _Progress:
    """The import's bar: the first half is reading and preparing, the second writing."""

    def __init__(self, bar: Any, lines: _Lines) -> None:
        self._bar = bar
        self._lines = lines
        self._half = lines.size or 1

    def read(self, batch: _Batch) -> None:
        batch.end = self._lines.consumed
        self._to(min(batch.end, self._half))

    def written(self, batch: _Batch) -> None:
        self._to(self._half + min(batch.end, self._half))

    def _to(self, position: int) -> None:
        self._bar.update(max(0, position - self._bar.pos))


def _most_added(
    lines: _Lines, *, jsonl: bool, default_type: str, namespace: str
) -> MostAdded | None:
    """One pass over the file before the import's own: the most memories it could add. None
    when a line refuses the whole file: the import's pass says so, after the bad lines before
    it (each said once, by that pass)."""
    most = MostAdded()
    items = read_lines(lines, jsonl=jsonl, default_type=default_type, namespace=namespace)
    try:
        for batch in _Batches(items, lines.name, quiet=True):
            for item in batch.new:
                most.note(item)
            for restorable in batch.restorable:
                most.note(restorable)
    except _RefusedWhole:
        return None
    finally:
        lines.rewind()
    return most


class _RefusedWhole(Exception):
    """A line refuses the whole file (a pass that only counts: the import's own says why)."""


def _prepare(
    memory: Memory, batch: _Batch, progress: _Progress, check: bool, allow_forgotten: bool
) -> None:
    progress.read(batch)
    forgotten = memory.forgotten_among(batch.new)
    if allow_forgotten:
        batch.brought_back = [
            item for item, at in zip(batch.new, forgotten, strict=True) if at is not None
        ]
    else:
        # a line whose text the person forgot stays forgotten (review13 J11): left out here,
        # counted in the summary
        batch.forgotten = sum(1 for at in forgotten if at is not None)
        batch.new = [item for item, at in zip(batch.new, forgotten, strict=True) if at is None]
    memory.prepare(batch.new, check=check)
    contents = [NewMemory(item.record.content, item.record.type) for item in batch.restorable]
    memory.prepare(contents, check=False)


def _prepared_ahead(
    memory: Memory,
    first: _Batch,
    rest: Iterator[_Batch],
    progress: _Progress,
    *,
    check: bool,
    allow_forgotten: bool,
) -> list[_Batch]:
    """``first`` and the batches after it, up to PREPARED_AHEAD memories, prepared."""
    ahead: list[_Batch] = []
    count = 0
    batch: _Batch | None = first
    while batch is not None:
        _prepare(memory, batch, progress, check, allow_forgotten)
        ahead.append(batch)
        count += len(batch)
        if count >= PREPARED_AHEAD:
            break
        batch = next(rest, None)
    return ahead


def _decided(memory: Memory, ahead: list[_Batch], raw: bool) -> Decided | None:
    """``ahead``'s lines judged before the write lock (``Memory.decide``); None for an
    export's memories, which are restored and judged under it."""
    if any(batch.restorable or batch.carried for batch in ahead):
        return None
    return memory.decide([batch.new for batch in ahead], check=not raw)


def _restored_judged_ahead(memory: Memory, ahead: list[_Batch]) -> JudgedAhead | None:
    """An export's memories (the whole file in ``ahead``) judged before the write lock, as
    they are judged once restored (``Memory.judge_restored_ahead``). None for a file with
    lines of its own too (judged under the lock: they change what the export's memories are
    judged against) or with nothing to restore."""
    if any(batch.new for batch in ahead):
        return None
    items = [item for batch in ahead for item in batch.restorable]
    if not items:
        return None
    return memory.judge_restored_ahead(items, [item for batch in ahead for item in batch.carried])


def _prepared(
    memory: Memory,
    batches: Iterator[_Batch],
    progress: _Progress,
    raw: bool,
    allow_forgotten: bool,
) -> Iterator[_Batch]:
    for batch in batches:
        _prepare(memory, batch, progress, not raw, allow_forgotten)
        yield batch


class _Lines:
    """The file's lines, read as they are needed, counting the bytes consumed (for the
    progress bar)."""

    def __init__(self, file: Any) -> None:
        self._file = file
        self.name = str(file.name)
        self._lines = self._read()
        self._first: list[str] = []
        self.consumed = 0
        try:
            self.size = os.fstat(file.fileno()).st_size if file.seekable() else 0
        except (OSError, ValueError, io.UnsupportedOperation):
            self.size = 0

    def peek(self, count: int) -> list[str]:
        """The first ``count`` lines that are not blank (fewer if the file has fewer), kept to
        be read again."""
        found: list[str] = []
        for line in self._lines:
            self._first.append(line)
            if line.strip():
                found.append(line)
                if len(found) == count:
                    break
        return found

    def __iter__(self) -> Iterator[str]:
        for line in itertools.chain(self._first, self._lines):
            self.consumed += len(line.encode("utf-8", "surrogateescape"))
            yield line
        self._first = []

    def rewind(self) -> None:
        """Back to the first line (a seekable file, read to its end)."""
        self._file.seek(0)
        self._lines = self._read()
        self._first = []
        self.consumed = 0

    def _read(self) -> Iterator[str]:
        """The file's lines, without the byte order mark Windows Notepad starts UTF-8 text
        with (review15a TW10: it went into the first memory, or made a JSON line "bad")."""
        lines = iter(self._file)
        first = next(lines, None)
        if first is None:
            return
        self.consumed += len(BOM.encode()) if first.startswith(BOM) else 0
        yield first.removeprefix(BOM)
        # not `yield from`: closing this generator (a pass given up half way) would close
        # the file with it
        for line in lines:  # noqa: UP028
            yield line


class _Batches:
    """The memories of ``items`` in batches of at most IMPORT_BATCH; bad lines are reported
    (and counted) as they are met, never kept."""

    def __init__(
        self,
        items: Iterator[tuple[int, NewMemory | Restorable | Carried | BadLine]],
        name: str,
        *,
        quiet: bool = False,
    ) -> None:
        self._items = items
        self._name = name
        self._quiet = quiet  # a pass that only counts: the import's own pass reports
        self.bad = 0

    def _report(self, problem: BadLine) -> None:
        self.bad += 1
        if self._quiet:
            return
        reason = printable(problem.reason, newlines=False)  # may quote the line
        click.echo(f"{printable(self._name)}:{problem.line}: skipped: {reason}", err=True)

    def __iter__(self) -> Iterator[_Batch]:
        batch = _Batch()
        for number, item in self._items:
            if isinstance(item, BadLine) and item.whole_file:
                if self._quiet:
                    raise _RefusedWhole
                raise click.ClickException(
                    f"{printable(self._name)}:{number}: {printable(item.reason, newlines=False)} "
                    "Nothing was imported."
                )
            if isinstance(item, BadLine):
                self._report(item)
                continue
            if isinstance(item, Restorable):
                batch.restorable.append(item)
            elif isinstance(item, CarriedConflict | CarriedNote):
                batch.carried.append(item)
            else:
                try:
                    checked = validate_new(item, Settings())
                except ImplausibleDate as error:
                    if self._quiet:
                        raise _RefusedWhole from None
                    # Not one bad line to skip: a file's dates are usually all off alike (a
                    # time zone, milliseconds for seconds), and the rest would be kept wrong
                    # (a date that cannot be read at all: BadLine.whole_file, above).
                    raise click.ClickException(
                        f"{printable(self._name)}:{number}: {error} Nothing was imported."
                    ) from None
                except InvalidInput as error:
                    self._report(BadLine(number, str(error)))
                    continue
                if checked.type is MemoryType.SHORT_TERM:
                    self._report(BadLine(number, SHORT_TERM_REFUSED))
                    continue
                batch.new.append(checked)
            if len(batch) >= IMPORT_BATCH:
                yield batch
                batch = _Batch()
        yield batch


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
    restores exactly, with the pending conflicts) or Markdown to read. The export is NOT
    encrypted."""
    obj.require_store()  # before the warning: a missing store is the one line said
    click.secho(PLAINTEXT_WARNING, fg="yellow", err=True)
    with obj.open() as memory:
        entries = list(memory.export())
        # What the memories wait for goes with them: a round trip keeps the review queue.
        conflicts, notes = memory.waiting([record.id for record, _ in entries])
    if fmt == "jsonl":
        documents = [to_document(r, h) for r, h in entries]
        carried: list[Carried] = [*conflicts, *notes]
        documents += [carried_document(item) for item in carried]
        lines = [json.dumps(d, ensure_ascii=False) + "\n" for d in documents]
    else:
        lines = list(markdown(entries, f"Memories of {obj.namespace}"))
    if output is None:
        # To a terminal (or a pipe): escapes instead of control characters; JSON reads them back.
        click.echo(printable("".join(lines)), nl=False)
    else:
        try:
            # Owner-only, whatever mode a file already there had (0644: readable by all).
            write_atomically(output, "".join(lines).encode("utf-8"))
        except OSError as error:
            if error.errno in (errno.ENOSPC, errno.EDQUOT):
                raise  # friendly_errors says the disk is full, in its one line
            raise click.ClickException(
                f"Cannot write the export to {str(output)!r}: {error.strerror or error}."
            ) from None
        click.echo(
            f"Exported {n_memories(len(entries))}{_queue_said(fmt, conflicts)} to {output}.",
            err=True,
        )


def _queue_said(fmt: str, conflicts: list[CarriedConflict]) -> str:
    """The pending conflicts an export carries (JSON lines, queued again on import) or leaves
    out (Markdown): a round trip must not drop the review queue without a word."""
    if not conflicts:
        return ""
    count = plural(len(conflicts), "pending conflict")
    if fmt == "jsonl":
        return f" and {count} (import queues {'it' if len(conflicts) == 1 else 'them'} again)"
    verb = "is" if len(conflicts) == 1 else "are"
    return f"; {count} {verb} not in it (export JSON lines to keep them)"

"""Memories that may contradict each other, side by side with their dates: keep the old one,
take the new one, keep both, or merge them into one text you write; mark several and settle
them at once; let the local model settle them. Every settlement waits out an undo window
before it touches the store (like forget on the Memories page): an undone resolution leaves
both memories exactly as they were. A memory marked secret shows as dots, as on the Memories
page, until r reveals the selected pair for a few seconds (leak11)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.timer import Timer
from textual.widgets import DataTable, Label, Static

from localmind.errors import ChangedMeanwhile, LocalmindError
from localmind.lifecycle import Conflict, Resolution
from localmind.memory import Memory
from localmind.records import MemoryRecord, event_and_fact
from localmind.terminal import printable
from localmind.unchecked import without_setup
from tui.format import (
    SECRET_MARK,
    day,
    one_line,
    plural,
    reads_as_an_edit,
    shown,
    word_diff,
)
from tui.screens.base import Page
from tui.widgets.editor import EditorModal
from tui.widgets.table import Table
from tui.wrapping import Wrapped

# How long a resolution can be undone (the notification stays as long); leaving the page or
# quitting carries it out at once.
UNDO_WINDOW_S = 8.0
# How long r shows a pair with a secret side: long enough to compare the two, short enough
# that a screen left open (or shared) does not keep showing it.
REVEAL_S = 10.0
#: A secret side until r reveals the pair: someone may be looking over the person's shoulder.
HIDDEN = f"{SECRET_MARK} •••••••• (a secret: r shows the pair for {REVEAL_S:g} s)"
#: Terminals shorter than this get the short layout (class ``-short``).
SHORT_BELOW = 32
HEIGHTS = [(0, "-short"), (SHORT_BELOW, "-tall")]
NAMES = {
    Resolution.KEEP_OLD: "keep old",
    Resolution.TAKE_NEW: "take new",
    Resolution.KEEP_BOTH: "keep both",
    Resolution.MERGE: "merge",
}


@dataclass(eq=False)
class Waiting:
    """Resolutions decided together (one key press), carried out together after the window."""

    settles: dict[int, tuple[Resolution, str | None]]  # conflict id -> how, merged text
    # memory id -> the text the page showed when the person decided: an assistant that changes
    # a side in the undo window makes that resolution wait for another look (review11 T3)
    shown: dict[str, str] = field(default_factory=dict)
    timer: Timer | None = None
    done: bool = field(default=False)


@dataclass
class Settled:
    """What carrying out waiting resolutions said: errors (a conflict another program settled
    meanwhile, a memory forgotten since) and notes (another conflict a resolution re-pointed
    or closed: a chain's link must not end silently), one line each."""

    errors: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def settle_all(memory: Memory, waiting: list[Waiting]) -> Settled:
    """Carry out waiting resolutions."""
    settled, ended = Settled(), set[int]()
    for batch in waiting:
        for conflict_id, (resolution, text) in batch.settles.items():
            if conflict_id in ended:  # closed by one settled before it: its note says why
                continue
            try:
                done = memory.resolve_conflict_explained(
                    conflict_id, resolution, text, expected=batch.shown
                )
            except ChangedMeanwhile as error:
                # (no text: the side may be a secret; the page shows it again as it is now)
                settled.errors.append(
                    f"Conflict #{conflict_id} was not settled: memory {error.memory_id} changed "
                    "after you decided (another program or assistant changed it). Look at it "
                    "again."
                )
                continue
            except LocalmindError as error:
                settled.errors.append(str(error))
                continue
            settled.notes += [
                f"Conflict #{c} now asks about {done.record.id}." for c in done.repointed
            ]
            settled.notes += [f"Also closed conflict #{c}: {why}." for c, why in done.closed]
            ended.update(c for c, _ in done.closed)
    return settled


class ConflictsScreen(Page):
    PAGE = "conflicts"
    # Below this height (the default 80x24 among them) the list gets fewer rows (``-short``):
    # the pair, its reason and what changed must all be in view (review11 A3).
    VERTICAL_BREAKPOINTS = HEIGHTS
    # Short names keep the footer whole at 80 columns; the panels' headings say what o and n
    # do, the count line names the marking keys, and help lists every key.
    BINDINGS: ClassVar = [
        # what becomes of the other memory is said where there is room (the tooltip, the help,
        # the toast with its undo): "o Old" read as "leave the old one alone", and 13 true
        # newer memories were forgotten in three keys (review13 J14)
        Binding(
            "o",
            "resolve('keep_old')",
            "Old",
            tooltip="Keep the old memory and forget the newer one (u undoes it for a few seconds)",
        ),
        Binding(
            "n",
            "resolve('take_new')",
            "New",
            tooltip="The newer text replaces the old memory's (kept in its history)",
        ),
        Binding("b", "resolve('keep_both')", "Both"),
        Binding("m", "merge", "Merge…"),
        Binding("u", "undo", "Undo"),
        Binding("a", "ask", "Ask model"),
        # in the footer only while the selected pair has a secret side (check_action), where
        # "Ask model" leaves room for it: the model is never asked about a secret
        Binding("r", "reveal", "Reveal", tooltip=f"Show a pair with a secret for {REVEAL_S:g} s"),
        Binding("space", "mark", "Mark / unmark", show=False),
        Binding("v", "mark_below", "Mark all at or below this similarity", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.pending: dict[str, Conflict] = {}
        self.marked: set[int] = set()
        # the row the next reload selects: an undone conflict is back where the person was
        self.reselect: int | None = None
        # the conflict whose secret side r shows, until its timer, r again or leaving the page
        self.revealed: int | None = None
        self._hide_timer: Timer | None = None

    def body(self) -> ComposeResult:
        with Vertical(id="conflicts-page"):
            yield Label("", id="conflicts-count", classes="heading")
            yield Table(id="conflicts", cursor_type="row", zebra_stripes=True)
            # Long texts scroll under the list instead of squeezing it out of an 80x24 terminal.
            with VerticalScroll(id="conflict-detail", can_focus=False):
                # The reason first: long texts push what comes after them below an 80x24 screen,
                # and a pair shown without its reason cannot be judged (review11 A3).
                yield Static(id="why")
                with Horizontal(id="pair"):
                    with Vertical(classes="side"):
                        yield Label("Old  (o keeps it)", id="old-heading", classes="heading")
                        yield Static(id="old")
                    with Vertical(classes="side"):
                        yield Label("New  (n takes it)", id="new-heading", classes="heading")
                        yield Static(id="new")
                yield Static(id="changes")

    def on_mount(self) -> None:
        table = self.table
        # fixed widths: the two texts share the rest and end "…" where they are cut
        table.add_column("✓", key="mark", width=1)
        table.add_column("Sim", key="sim", width=4)
        table.add_column("Written old → new", key="dates", width=23)
        table.add_column("Old", key="old")
        table.add_column("New", key="new")
        table.focus()

    def on_table_resized(self, event: Table.Resized) -> None:
        self._show([*self.pending.values()])  # the texts cut to the table's new width

    @property
    def table(self) -> Table:
        return self.query_one("#conflicts", Table)

    @property
    def waiting(self) -> list[Waiting]:
        return self.lm.waiting_resolutions

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        conflict = self.selected()
        secret = conflict is not None and _has_secret(conflict)
        if action == "ask":  # offered only with a local model, and for a pair it may read
            return self.lm.llm is not None and (bool(self.marked) or not secret)
        if action == "reveal":
            return secret
        return True

    # --- loading ------------------------------------------------------------------------------

    def reload(self) -> None:
        self.in_background(self.memory.conflicts, self._show)

    def _show(self, conflicts: list[Conflict]) -> None:
        """Show the pending conflicts, less those waiting out their undo window. The cursor
        stays on the row it was on (or the one that took its place)."""
        table = self.table
        row, selected = table.cursor_row, self.selected()
        table.clear()
        hidden = {cid for batch in self.waiting for cid in batch.settles}
        shown = [c for c in conflicts if c.id not in hidden]
        self.pending = {str(c.id): c for c in shown}
        self.marked &= {c.id for c in shown}
        for c in shown:
            table.add_row(*self._cells(c), key=str(c.id))
        wanted, self.reselect = self.reselect, None
        if wanted is not None and str(wanted) in self.pending:
            table.move_cursor(row=table.get_row_index(str(wanted)))
        elif selected is not None and str(selected.id) in self.pending:
            table.move_cursor(row=table.get_row_index(str(selected.id)))
        elif shown:
            table.move_cursor(row=min(max(row, 0), len(shown) - 1))
        self._show_count()
        self._show_pair()

    def _cells(self, c: Conflict) -> list[object]:
        room = self.table.room("old", "new") or 50
        return [
            "✓" if c.id in self.marked else "",
            f"{c.similarity:.2f}",
            f"{day(c.existing.created_at)} → {day(c.candidate.created_at)}",
            Text(one_line(self._text_of(c, c.existing), room)),
            Text(one_line(self._text_of(c, c.candidate), room)),
        ]

    def _hidden(self, conflict: Conflict) -> bool:
        """Whether the pair's secret side is hidden (it has one, and r did not reveal it)."""
        return _has_secret(conflict) and conflict.id != self.revealed

    def _text_of(self, conflict: Conflict, record: MemoryRecord) -> str:
        """A side's text, or ``HIDDEN`` for a secret the person did not reveal."""
        if record.secret and self._hidden(conflict):
            return HIDDEN
        return record.content

    def _show_count(self) -> None:
        count = len(self.pending)
        settling = sum(len(batch.settles) for batch in self.waiting if not batch.done)
        if count:
            text = plural(count, "pending conflict")
        elif settling:  # all settled, but not yet written: nothing is "without contradiction"
            text = f"No conflicts left to review · {plural(settling, 'conflict')} settled: u undoes"
        else:
            text = "No conflicts to review: nothing contradicts anything else."
        if self.marked:
            text += f" · {len(self.marked)} marked: o n b a settle them all"
        elif count > 1:
            text += " · space marks, v marks all at or below this similarity"
        self.query_one("#conflicts-count", Label).update(text)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        selected = self.selected()
        if self.revealed is not None and (selected is None or selected.id != self.revealed):
            self._hide()  # the reveal was for that pair only
        self._show_pair()
        self.refresh_bindings()  # r shows in the footer for a pair with a secret side

    def selected(self) -> Conflict | None:
        table = self.table
        if not self.pending or not 0 <= table.cursor_row < table.row_count:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return self.pending.get(key or "")

    def targets(self) -> list[Conflict]:
        """The marked conflicts, or else the selected one."""
        if self.marked:
            return [c for c in self.pending.values() if c.id in self.marked]
        conflict = self.selected()
        return [conflict] if conflict else []

    def _show_pair(self) -> None:
        conflict = self.selected()
        old, new, why, changes = (
            self.query_one(f"#{n}", Static) for n in ("old", "new", "why", "changes")
        )
        # No pair, no boxes: empty ones kept the last pair's headings and dates.
        self.query_one("#conflict-detail").display = conflict is not None
        if conflict is None:
            for panel in (old, new, why, changes):
                panel.update("")
            return
        newer = conflict.candidate.created_at >= conflict.existing.created_at
        for side, record, keys, is_newer in (
            ("old", conflict.existing, "o keeps", not newer),
            ("new", conflict.candidate, "n takes", newer),
        ):
            heading = f"{side.title()} · {day(record.created_at)}"
            heading += " · newer" if is_newer else ""
            self.query_one(f"#{side}-heading", Label).update(f"{heading} · {keys}")
        old.update(Wrapped(shown(self._text_of(conflict, conflict.existing))))
        new.update(Wrapped(shown(self._text_of(conflict, conflict.candidate))))
        if self._hidden(conflict):
            # the changed words are the secret's (a PIN's old and new digits), and a reason may
            # quote a word of it: both wait for r with the texts
            why.update(Text(f"Why it is here: r shows the pair for {REVEAL_S:g} s", "dim"))
            changes.update("")
            return
        # without the model's setup text: the Chat page says how to start one (review13 J15)
        said = printable(without_setup(conflict.reason))
        why.update(Wrapped(Text(f"Why it is here: {said}", "dim")))
        old_text, new_text = conflict.existing.content, conflict.candidate.content
        if not reads_as_an_edit(old_text, new_text):
            # two languages, or hardly a word shared: a diff would read as an edit (J15)
            changes.update("")
            return
        diff = word_diff(old_text, new_text)
        changes.update(Wrapped(Text.assemble(("What changed: ", "bold"), diff)))

    # --- revealing a secret -------------------------------------------------------------------

    def action_reveal(self) -> None:
        """Show the selected pair's secret side for ``REVEAL_S`` seconds (r again hides it)."""
        conflict = self.selected()
        if conflict is None or not _has_secret(conflict):
            self.notify("Only a pair with a memory marked secret is hidden.", severity="warning")
            return
        if self.revealed == conflict.id:
            self._hide()
            return
        self._hide()
        self.revealed = conflict.id
        self._hide_timer = self.set_timer(REVEAL_S, self._hide)
        self._redraw(conflict)

    def _hide(self) -> None:
        """Hide the revealed pair again (its time is up, r, another pair, leaving the page)."""
        if self._hide_timer is not None:
            self._hide_timer.stop()
            self._hide_timer = None
        revealed, self.revealed = self.revealed, None
        conflict = self.pending.get(str(revealed)) if revealed is not None else None
        if conflict is not None and self.is_mounted:
            self._redraw(conflict)

    def _redraw(self, conflict: Conflict) -> None:
        """One pair's row and, if it is selected, the panels under the list."""
        cells = self._cells(conflict)
        for key, cell in (("old", cells[3]), ("new", cells[4])):
            self.table.update_cell(str(conflict.id), key, cell)
        self._show_pair()

    # --- marking ------------------------------------------------------------------------------

    def action_mark(self) -> None:
        conflict = self.selected()
        if conflict is None:
            return
        self.marked ^= {conflict.id}
        self.table.update_cell(str(conflict.id), "mark", "✓" if conflict.id in self.marked else "")
        self._show_count()
        if self.table.cursor_row < self.table.row_count - 1:
            self.table.move_cursor(row=self.table.cursor_row + 1)

    def action_mark_below(self) -> None:
        """Mark every conflict at or below the selected one's similarity (the weakest are the
        likeliest to be two compatible facts: b then keeps both)."""
        conflict = self.selected()
        if conflict is None:
            return
        self.marked = {c.id for c in self.pending.values() if c.similarity <= conflict.similarity}
        for c in self.pending.values():
            self.table.update_cell(str(c.id), "mark", "✓" if c.id in self.marked else "")
        self._show_count()

    # --- settling -----------------------------------------------------------------------------

    def action_resolve(self, resolution: str) -> None:
        chosen = self.targets()
        if not chosen:
            self.notify("No conflict selected.", severity="warning")
            return
        how = Resolution(resolution)
        if how is Resolution.TAKE_NEW:
            chosen = self._without_event_and_fact(chosen)
            if not chosen:
                return
        what = NAMES[how]
        if how is Resolution.KEEP_OLD:
            what += f": {plural(len(chosen), 'newer memory', 'newer memories')} forgotten"
        self._settle_later({c.id: (how, None) for c in chosen}, what)

    def _without_event_and_fact(self, chosen: list[Conflict]) -> list[Conflict]:
        """``chosen`` less the conflicts take-new cannot settle, said at once: an event and a
        fact, where one does not replace the other (the store refuses it). The page said
        "Settled" and refused eight seconds later, when the undo window ended (review15a TW8)."""
        refused = [c for c in chosen if event_and_fact(c.existing, c.candidate)]
        if refused:
            numbers = ", ".join(f"#{c.id}" for c in refused)
            self.notify(
                f"Take new does not settle {numbers}: an event and a fact, one does not replace "
                "the other. Press b to keep both, o to keep the old one, or m to merge.",
                severity="warning",
                timeout=UNDO_WINDOW_S,
            )
        return [c for c in chosen if c not in refused]

    def action_merge(self) -> None:
        conflict = self.selected()
        if conflict is None:
            self.notify("No conflict selected.", severity="warning")
            return
        if self._hidden(conflict):  # the editor would show the secret
            self.notify("r shows the pair first; then m merges it.", severity="warning")
            return
        both = f"{conflict.existing.content}\n{conflict.candidate.content}"

        def merged(text: str | None) -> None:
            if text is not None:
                self._settle_later({conflict.id: (Resolution.MERGE, text)}, "merge")

        self.app.push_screen(EditorModal("Write the merged memory", both), merged)

    def action_ask(self) -> None:
        chosen = self.targets()
        if not chosen:
            self.notify("No conflict selected.", severity="warning")
            return
        self.notify(f"Asking the local model about {plural(len(chosen), 'conflict')}…")
        memory = self.memory

        def ask() -> list[tuple[Conflict, tuple[Resolution, str] | None]]:
            return list(zip(chosen, memory.ask_model_many(chosen), strict=True))

        def answered(answers: list[tuple[Conflict, tuple[Resolution, str] | None]]) -> None:
            takes = [c for c, verdict in answers if verdict and verdict[0] is Resolution.TAKE_NEW]
            allowed = {c.id for c in self._without_event_and_fact(takes)}
            settled: dict[int, tuple[Resolution, str | None]] = {
                c.id: (verdict[0], None)
                for c, verdict in answers
                if verdict and (verdict[0] is not Resolution.TAKE_NEW or c.id in allowed)
            }
            unanswered = sum(1 for _, verdict in answers if not verdict)
            if not settled:
                if unanswered == len(answers):  # (else: the refused take-new was said)
                    self.notify(
                        "The local model did not answer; nothing was settled.", severity="warning"
                    )
                return
            counts: dict[str, int] = {}
            for how, _ in settled.values():
                counts[NAMES[how]] = counts.get(NAMES[how], 0) + 1
            summary = ", ".join(f"{n} {name}" for name, n in counts.items())
            left = f"; {unanswered} left (no answer)" if unanswered else ""
            self._settle_later(settled, f"the model: {summary}{left}")

        self.in_background(ask, answered)

    def _settle_later(self, settles: dict[int, tuple[Resolution, str | None]], what: str) -> None:
        shown = {
            side.id: side.content
            for conflict_id in settles
            if (conflict := self.pending.get(str(conflict_id))) is not None
            for side in (conflict.existing, conflict.candidate)
        }
        batch = Waiting(settles, shown)
        batch.timer = self.set_timer(UNDO_WINDOW_S, lambda: self._carry_out([batch]))
        self.waiting.append(batch)
        self.marked -= set(settles)
        self.notify(
            f"Settled {plural(len(settles), 'conflict')} ({what}). Press u to undo.",
            timeout=UNDO_WINDOW_S,
        )
        self._show([*self.pending.values()])
        self.lm.refresh_status()  # the status bar counts what is left, as the list does

    def _carry_out(self, batches: list[Waiting]) -> None:
        """Write waiting resolutions now (in a thread: the write may wait for a lock)."""
        due = [b for b in batches if not b.done]
        for batch in due:
            batch.done = True
            if batch.timer is not None:
                batch.timer.stop()
        if not due:
            return
        memory = self.memory

        def written(settled: Settled) -> None:
            for batch in due:
                if batch in self.waiting:
                    self.waiting.remove(batch)
            for error in settled.errors:
                self.notify(error, severity="error", markup=False)
            for note in settled.notes:
                self.notify(note, markup=False)
            if self.is_current:
                self.reload()

        self.in_background(lambda: settle_all(memory, due), written)

    def action_undo(self) -> None:
        batch = next((b for b in reversed(self.waiting) if not b.done), None)
        if batch is None:
            self.notify("Nothing to undo.", severity="warning")
            return
        if batch.timer is not None:
            batch.timer.stop()
        self.waiting.remove(batch)
        self.reselect = min(batch.settles)
        self.notify(f"Undone: {plural(len(batch.settles), 'conflict')} pending again.")
        self.reload()
        self.lm.refresh_status()

    def on_screen_suspend(self) -> None:
        self._carry_out(list(self.waiting))  # leaving the page ends the undo window
        self._hide()  # and hides a revealed secret


def _has_secret(conflict: Conflict) -> bool:
    return conflict.existing.secret or conflict.candidate.secret


__all__ = ["HIDDEN", "REVEAL_S", "UNDO_WINDOW_S", "ConflictsScreen", "Waiting", "settle_all"]

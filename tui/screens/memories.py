"""Every memory in a table: search as you type, filter, sort, and act on the selected one
(confirm, deny, correct, forget with undo, pin, history and revert, reveal a secret)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Input, Label, Static

from localmind.lifecycle import Outcome
from localmind.profile import value
from localmind.records import MemoryRecord, MemoryType, Status, Version
from sync.watch import SyncReport
from tui.format import SECRET_MARK, age, ago, archived_note, one_line, shown
from tui.screens.base import Columns, Page
from tui.widgets.adding import add_memory
from tui.widgets.editor import EditorModal
from tui.widgets.history import HistoryModal
from tui.widgets.table import Table

# How long a forget can be undone (the notification stays as long); leaving the page ends it.
UNDO_WINDOW_S = 8.0

TYPE_FILTERS: tuple[MemoryType | None, ...] = (None, *MemoryType)
STATUS_FILTERS = (Status.ACTIVE, Status.SUPERSEDED, Status.EXPIRED)
SORTS = ("newest", "confidence", "importance", "value", "uses")
SEARCH_LIMIT = 50
#: What a memory marked secret shows until the person reveals it (r): someone may be looking
#: over their shoulder, or sharing the screen.
HIDDEN = "•••••••• (a secret: r shows it)"
#: What an empty page says: the way to a first memory (most people start without a model).
EMPTY = "No memory here yet — press a to add one."

COLUMNS: Columns = (
    ("type", "Type"),
    ("conf", "Conf"),
    ("imp", "Imp"),
    ("value", "Value"),
    ("age", "Age"),
    ("uses", "Uses"),
    ("pin", "📌"),
    ("content", "Content"),
)
#: The columns a narrow terminal shows: the content gets the room (the detail has the rest).
NARROW_COLUMNS = tuple(c for c in COLUMNS if c[0] in ("type", "conf", "age", "pin", "content"))


@dataclass(frozen=True, slots=True)
class Row:
    record: MemoryRecord
    relevance: float | None = None  # the search score, when searching
    rank: int = 0  # the place recall gave it, when searching


class MemoriesScreen(Page):
    PAGE = "memories"
    DEBOUNCE_S: ClassVar[float] = 0.25
    # Plain words in the footer: terminals disagree on an emoji's width (✏️ is one cell to
    # Textual and two to most terminals), and the footer shifted and clipped with them.
    # The footer holds what fits at 80 columns (it was cut after "h"): the filter keys are on
    # the filter line, the feedback keys under the selected memory, and help lists them all.
    BINDINGS: ClassVar = [
        Binding("a", "add", "Add"),
        # the search field says "( / )" itself: the footer's room went to Add (tui10)
        Binding("slash", "search", "Search", show=False),
        Binding("y", "feedback('confirm')", "Confirm", show=False),
        Binding("n", "feedback('deny')", "Deny", show=False),
        Binding("e", "correct", "Correct"),
        Binding("x,delete", "forget", "Forget"),
        Binding("u", "undo", "Undo"),
        Binding("p", "pin", "Pin", show=False),
        Binding("h", "history", "History"),
        Binding("t", "cycle_type", "Type", show=False),
        Binding("s", "cycle_status", "Status", show=False),
        Binding("o", "cycle_sort", "Sort", show=False),
        # archived memories show with status archived (s); the footer has no room for it.
        # b (bring back): a adds, the key a person without a model needs first (tui10)
        Binding("b", "unarchive", "Unarchive (bring back)", show=False),
        # a secret says so where it is hidden; the footer has no room for it either
        Binding("r", "reveal", "Reveal or hide a secret", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.type_filter: MemoryType | None = None
        self.status_filter = Status.ACTIVE
        self.sort = "newest"
        self.rows: dict[str, Row] = {}
        self.forgotten: list[MemoryRecord] = []  # most recent last: what undo brings back
        self.reselect: str | None = None  # the row the next reload selects (an undone forget)
        self.revealed: set[str] = set()  # the secrets shown, until r again or the page is left
        self._generation = 0
        self.columns = COLUMNS
        # what the rows shown were asked with (search, type, status): a new question selects
        # its first row; a reload of the same one keeps the selection
        self._shown_for: tuple[str, MemoryType | None, Status] | None = None

    def body(self) -> ComposeResult:
        with Vertical(id="memories-page"):
            yield Input(placeholder="Search by meaning and words…  ( / )", id="search")
            yield Label("", id="filters")
            with Horizontal(id="memories-body"):
                yield Table(id="memories", cursor_type="row", zebra_stripes=True)
                yield Static(id="detail")

    def on_mount(self) -> None:
        self.on_resize()
        self.table.focus()

    def on_resize(self) -> None:
        if self.fit_columns(self.table, COLUMNS, NARROW_COLUMNS):
            self.columns = NARROW_COLUMNS if self.narrow else COLUMNS
            self._show([*self.rows.values()])

    def on_table_resized(self, event: Table.Resized) -> None:
        self._show([*self.rows.values()])  # the texts cut to the table's new width

    @property
    def table(self) -> Table:
        return self.query_one("#memories", Table)

    @property
    def query_text(self) -> str:
        return self.query_one("#search", Input).value.strip()

    # --- loading ------------------------------------------------------------------------------

    def reload(self) -> None:
        self.load(delay=0.0)

    def synced(self, report: SyncReport) -> None:
        if report.imported.memories:  # the selection and filters stay
            self.reload()

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "search":
            self.load(delay=self.DEBOUNCE_S)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "search":
            self.table.focus()

    @work(exclusive=True, group="load")
    async def load(self, delay: float) -> None:
        """Fetch and show the rows. Exclusive: a newer keystroke cancels this one; the
        generation check drops a result that arrives after a newer one anyway."""
        self._generation += 1
        generation = self._generation
        if delay:
            await asyncio.sleep(delay)
        query, kind, status = self.query_text, self.type_filter, self.status_filter
        rows = await asyncio.to_thread(self._fetch, query, kind, status)
        if generation == self._generation:
            asked = (query, kind, status)
            fresh, self._shown_for = asked != self._shown_for, asked
            self._show(rows, fresh=fresh)

    def _fetch(self, query: str, kind: MemoryType | None, status: Status) -> list[Row]:
        if query:
            # The same recall as `localmind recall` (its threshold and its order), only not
            # noted as a use: browsing is not the assistant recalling.
            results = self.memory.recall(query, SEARCH_LIMIT, types=kind, touch=False)
            return [Row(r.memory, r.score, rank) for rank, r in enumerate(results)]
        records = self.memory.list_memories(kind, status=status)
        return [Row(record) for record in records]

    def _sorted(self, rows: list[Row]) -> list[Row]:
        if self.query_text and self.sort == "newest":
            # recall's order: by score, but a newer memory above one it may replace
            return sorted(rows, key=lambda row: row.rank)
        keys = {
            "newest": lambda row: row.record.created_at,
            "confidence": lambda row: row.record.confidence,
            "importance": lambda row: row.record.importance,
            "value": lambda row: value(row.record),
            "uses": lambda row: row.record.access_count,
        }
        return sorted(rows, key=keys[self.sort], reverse=True)

    def _show(self, rows: list[Row], *, fresh: bool = False) -> None:
        """Show ``rows``, keeping the selected memory selected, unless the rows answer a new
        search or filter (``fresh``): then the first, best one is selected. A search that kept
        the memory selected before (often the newest, 40th of 50 hits) left the best hit
        scrolled out of view, and `e` edited the wrong memory (review15a TW12)."""
        table = self.table
        selected = None if fresh else self.selected_id()
        table.clear()
        self.rows = {}
        # forgotten ones in their undo window stay out
        kept = [row for row in self._sorted(rows) if row.record.id not in self.lm.pending_forgets]
        room = self._content_room([row.record for row in kept])
        for row in kept:
            self.rows[row.record.id] = row
            cells = self._cells(row.record, room)
            table.add_row(*(cells[key] for key, _ in self.columns), key=row.record.id)
        wanted, self.reselect = self.reselect, None
        if wanted in self.rows:
            table.move_cursor(row=table.get_row_index(wanted))
        elif selected in self.rows:
            table.move_cursor(row=table.get_row_index(selected))
        elif fresh and self.rows:
            table.move_cursor(row=0)
            table.scroll_home(animate=False)
        self._show_filters()
        self._show_detail()

    def _facts(self, record: MemoryRecord) -> dict[str, str]:
        """The cells of every column but the content."""
        now = self.lm.clock()
        return {
            "type": str(record.type),
            "conf": f"{record.confidence:.2f}",
            "imp": f"{record.importance:.2f}",
            "value": f"{value(record):.2f}",
            "age": age(now - record.created_at),
            "uses": str(record.access_count),
            "pin": "📌" if record.pinned else "",
        }

    def _content_room(self, records: list[MemoryRecord]) -> int:
        """The cells the content column has once the other columns are as wide as these
        records make them: a text cut there ends "…" instead of at the terminal's edge."""
        facts = [self._facts(record) for record in records]
        widths = {
            key: max([cell_len(label), *(cell_len(cells[key]) for cells in facts)])
            for key, label in self.columns
            if key != "content"
        }
        return self.table.room("content", widths=widths) or 200

    def _cells(self, record: MemoryRecord, room: int | None = None) -> dict[str, object]:
        width = room or self.table.room("content") or 200
        if not record.secret:
            return {**self._facts(record), "content": Text(self._text_of(record, width))}
        mark = f"{SECRET_MARK} "
        text = f"{mark}{self._text_of(record, width - cell_len(mark))}"
        return {**self._facts(record), "content": Text(text)}

    def _text_of(self, record: MemoryRecord, width: int = 200) -> str:
        """A memory's text on one line, or ``HIDDEN`` for a secret not revealed."""
        if record.secret and record.id not in self.revealed:
            return one_line(HIDDEN, width)
        return one_line(record.content, width)

    def _show_filters(self) -> None:
        kind = str(self.type_filter) if self.type_filter else "all"
        sort = "relevance" if self.query_text and self.sort == "newest" else self.sort
        scope = "search: active only" if self.query_text else f"status: {self.status_filter.shown}"
        self.query_one("#filters", Label).update(
            f"type: {kind} (t) · {scope} (s) · sort: {sort} (o) · {len(self.rows)} shown"
        )

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._show_detail()

    def _show_detail(self) -> None:
        detail = self.query_one("#detail", Static)
        record = self.selected()
        if record is None:
            detail.update(Text(EMPTY if not self.query_text else "No match."))
            return
        hidden = record.secret and record.id not in self.revealed
        text = shown((HIDDEN if hidden else record.content) + "\n\n", style="bold")
        now = self.lm.clock()
        facts = [
            ("type", str(record.type)),
            ("status", str(record.status)),
            ("confidence", f"{record.confidence:.2f}"),
            ("importance", f"{record.importance:.2f}"),
            ("version", str(record.version)),
            ("created", ago(now - record.created_at)),
            ("used", f"{record.access_count} times"),
            ("pinned", "yes" if record.pinned else "no"),
        ]
        if record.source:  # (none on memories made before sources were kept)
            facts.append(("source", record.source))
        if record.secret:
            said = "hidden (r shows it)" if hidden else "shown (r hides it)"
            facts.append(("secret", f"{SECRET_MARK} yes, never sent to an assistant; {said}"))
        relevance = self.rows[record.id].relevance
        if relevance is not None:
            facts.append(("relevance", f"{relevance:.3f}"))
        if self.columns is NARROW_COLUMNS:  # under the table: the facts on a line or two
            for name, fact in facts:
                text.append(f"{name} ", style="dim")
                text.append(fact + "  ")
            text.append("\n")
        else:
            for name, fact in facts:
                text.append(f"{name:>10}  ", style="dim")
                text.append(fact + "\n")
        if record.status is Status.EXPIRED:
            text.append("\narchived: b brings it back\n", style="yellow")
        elif record.type is not MemoryType.SHORT_TERM:  # the keys the footer has no room for
            text.append("y confirms · n denies · p pins or unpins\n", style="dim")
        detail.update(text)

    # --- the selected memory ------------------------------------------------------------------

    def selected_id(self) -> str | None:
        table = self.table
        if not self.rows or table.cursor_row < 0 or table.cursor_row >= table.row_count:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return key if key in self.rows else None

    def selected(self) -> MemoryRecord | None:
        memory_id = self.selected_id()
        return self.rows[memory_id].record if memory_id else None

    def _replace_row(self, record: MemoryRecord) -> None:
        if record.id not in self.rows:
            return
        old = self.rows[record.id]
        self.rows[record.id] = Row(record, old.relevance, old.rank)
        cells = self._cells(record)
        for key, _ in self.columns:
            # a revealed secret is longer than its mask: the column grows to show it
            self.table.update_cell(record.id, key, cells[key], update_width=True)
        self._show_detail()

    def _stored(self) -> MemoryRecord | None:
        """The selected memory, when it can take feedback (short-term ones cannot)."""
        record = self.selected()
        if record is None:
            self.notify("Select a memory first.", severity="warning")
            return None
        if record.type is MemoryType.SHORT_TERM:
            self.notify("Short-term memories live only for this session.", severity="warning")
            return None
        return record

    # --- actions ------------------------------------------------------------------------------

    def action_add(self) -> None:
        def added(outcome: Outcome) -> None:
            self.reselect = outcome.record.id
            self.reload()

        add_memory(self, done=added)

    def action_search(self) -> None:
        self.query_one("#search", Input).focus()

    def action_feedback(self, kind: str) -> None:
        record = self._stored()
        if record is not None:
            memory_id = record.id
            self.in_background(lambda: self.memory.feedback(memory_id, kind), self._replace_row)

    def action_correct(self) -> None:
        record = self._stored()
        if record is None:
            return
        if record.secret and record.id not in self.revealed:  # the editor would show it
            self.notify("r shows the secret first; then e corrects it.", severity="warning")
            return
        memory_id = record.id

        def corrected(text: str | None) -> None:
            if text is not None and text != record.content:
                self.in_background(
                    lambda: self.memory.feedback(memory_id, "correct", text), self._replace_row
                )

        self.app.push_screen(EditorModal("Correct this memory", record.content), corrected)

    def action_pin(self) -> None:
        record = self._stored()
        if record is not None:
            memory_id, pinned = record.id, not record.pinned
            self.in_background(
                lambda: self.memory.update(memory_id, pinned=pinned), self._replace_row
            )

    def action_forget(self) -> None:
        record = self.selected()
        if record is None:
            return
        self.forgotten.append(record)
        self.lm.forget_later(record.id)
        if record.id in self.rows:
            del self.rows[record.id]
            self.table.remove_row(record.id)
        self._show_filters()
        self._show_detail()
        self.notify(
            f"Forgetting “{self._text_of(record, 40)}”. Press u to undo.",
            timeout=UNDO_WINDOW_S,
            markup=False,
        )

    def action_undo(self) -> None:
        if not self.forgotten:
            self.notify("Nothing to undo.", severity="warning")
            return
        record = self.forgotten.pop()
        if self.lm.cancel_forget(record.id):  # still in its window: nothing was erased
            self.reselect = record.id
            self.notify(f"Kept “{self._text_of(record, 40)}”.", markup=False)
            self.reload()
            return

        def restore() -> tuple[MemoryRecord, int]:  # forgotten already: back as new
            outcome = self.memory.remember_explained(
                record.content,
                record.type,
                record.importance,
                record.metadata,
                created_at=record.created_at,
                source=record.source or None,
                allow_forgotten=True,  # undoing the forget is the person bringing it back
            )
            again, evicted = outcome.record, len(outcome.evicted)
            if record.type is MemoryType.SHORT_TERM:
                return again, evicted
            again = self.memory.update(
                again.id, confidence=record.confidence, pinned=record.pinned, reason="undo forget"
            )
            return again, evicted

        def restored(result: tuple[MemoryRecord, int]) -> None:
            again, evicted = result
            note = f"; {archived_note(evicted)}" if evicted else ""
            self.notify(
                f"Brought back “{self._text_of(again, 40)}” as a new memory "
                f"(its history went with the forget){note}.",
                markup=False,
            )
            self.reload()

        self.in_background(restore, restored)

    def action_unarchive(self) -> None:
        record = self.selected()
        if record is None or record.status is not Status.EXPIRED:
            self.notify(
                "Only archived memories come back: show them with s (status archived).",
                severity="warning",
            )
            return
        memory_id = record.id

        def back(result: tuple[MemoryRecord, list[str]]) -> None:
            again, evicted = result
            note = f"; {archived_note(len(evicted))}" if evicted else ""
            self.notify(f"Unarchived “{self._text_of(again, 40)}”{note}")
            self.reload()

        self.in_background(lambda: self.memory.unarchive(memory_id), back)

    def on_screen_suspend(self) -> None:
        self.lm.forget_pending()  # leaving the page ends the undo window
        self.revealed.clear()  # and hides the secrets shown again

    def action_reveal(self) -> None:
        record = self.selected()
        if record is None or not record.secret:
            self.notify("Only a memory marked secret is hidden.", severity="warning")
            return
        self.revealed ^= {record.id}
        self._replace_row(record)

    def action_history(self) -> None:
        record = self._stored()
        if record is None:
            return
        memory_id = record.id

        def show(versions: list[Version]) -> None:
            current = self.rows[memory_id].record if memory_id in self.rows else record
            hidden = current.secret and memory_id not in self.revealed
            history = HistoryModal(current, versions, self.lm.clock, hidden=hidden)
            self.app.push_screen(history, revert)

        def revert(version: int | None) -> None:
            if version is None:
                return

            def reverted(again: MemoryRecord) -> None:
                self._replace_row(again)
                self.notify(f"Reverted: version {again.version} has the text of version {version}.")

            self.in_background(lambda: self.memory.revert(memory_id, version), reverted)

        self.in_background(lambda: self.memory.history(memory_id), show)

    def action_cycle_type(self) -> None:
        index = TYPE_FILTERS.index(self.type_filter)
        self.type_filter = TYPE_FILTERS[(index + 1) % len(TYPE_FILTERS)]
        self.reload()

    def action_cycle_status(self) -> None:
        index = STATUS_FILTERS.index(self.status_filter)
        self.status_filter = STATUS_FILTERS[(index + 1) % len(STATUS_FILTERS)]
        self.reload()

    def action_cycle_sort(self) -> None:
        self.sort = SORTS[(SORTS.index(self.sort) + 1) % len(SORTS)]
        self._show([*self.rows.values()])

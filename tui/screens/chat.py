"""The conversation: your messages and the model's streamed replies; beside them, the memories
recalled for the turn (with why they ranked there, and keys for feedback) and what was
remembered from your message."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import DataTable, Input, Label, Static

from localmind.chat import Turn
from localmind.chat.session import WITHHELD_NOTE
from localmind.currency import newer_named
from localmind.errors import LocalmindError
from localmind.lifecycle import Decision, Outcome
from localmind.records import MemoryRecord, RecallResult
from localmind.secrets_check import told_to_person
from localmind.terminal import printable
from tui.format import SECRET_MARK, archived_note, day, one_line, shown
from tui.screens.base import Columns, Page
from tui.widgets.adding import add_memory
from tui.widgets.editor import EditorModal
from tui.widgets.table import Table

RECALLED_COLUMNS: Columns = (
    ("content", "Memory"),
    ("score", "Score"),
    ("sim", "Sim"),
    ("imp", "Imp"),
    ("rec", "Rec"),
    ("freq", "Freq"),
    ("conf", "Conf"),
)
#: A narrow terminal's: the score line under the table has every figure.
NARROW_RECALLED = tuple(c for c in RECALLED_COLUMNS if c[0] in ("content", "score", "conf"))
DECISIONS = {
    Decision.INSERTED: "new",
    Decision.REINFORCED: "again",
    Decision.MERGED: "merged",
    Decision.OVERWRITTEN: "updated",
    Decision.QUEUED: "to review",
}

#: What a turn without a model says under the message: how to keep it (review10 F29).
KEEP_KEY = "Ctrl+S keeps your last message as a memory (or a on Memories)."
NOT_KEPT = f"No language model: nothing is extracted from chat. {KEEP_KEY}"

#: A recalled memory marked secret, in the sidebar (secret10): hidden as on the Memories page.
HIDDEN = f"{SECRET_MARK} •••••••• (a secret: the Memories page shows it)"

RELATED = {
    Decision.MERGED: "same as",
    Decision.OVERWRITTEN: "was",
    Decision.QUEUED: "may contradict",
}


def describe(outcome: Outcome) -> Text:
    text = Text(f"{DECISIONS[outcome.decision]:>9}  ", style="bold")
    text.append(printable(outcome.record.content))
    label = RELATED.get(outcome.decision)
    if outcome.related is not None and label:
        # another memory, maybe a secret the person did not just say (leak11)
        related = one_line(_text_of(outcome.related), 60)
        text.append(f"\n{'':>11}{label}: {related}", style="dim")
    if outcome.evicted:
        text.append(f"\n{'':>11}{archived_note(len(outcome.evicted))}", style="yellow")
    if outcome.record.secret:
        text.append(f"\n{'':>11}{told_to_person([outcome.record.id])}", style="yellow")
    return text


def _text_of(record: MemoryRecord) -> str:
    return HIDDEN if record.secret else record.content


class ChatScreen(Page):
    PAGE = "chat"
    BINDINGS: ClassVar = [
        Binding("y", "feedback('confirm')", "Confirm"),
        Binding("n", "feedback('deny')", "Deny"),
        Binding("e", "correct", "Correct"),
        Binding("i", "focus_message", "Message"),
        # what a person without a model needs: nothing is picked out of a message then (tui10)
        Binding("ctrl+s", "keep_message", "Keep as memory"),
        Binding("tab", "app.focus_next", "Recalled", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.recalled: dict[str, RecallResult] = {}
        self.last_message = ""  # what ctrl+s offers to keep

    def body(self) -> ComposeResult:
        with Horizontal(id="chat-page"):
            with Vertical(id="conversation"):
                yield VerticalScroll(id="messages")
                yield Static(id="offline")
                yield Input(placeholder="Say something…  (Enter sends)", id="message")
            with Vertical(id="sidebar"):
                yield Label("Recalled this turn  (y · n · e)", classes="heading")
                yield Table(id="recalled", cursor_type="row")
                yield Static(id="breakdown")
                yield Label("Remembered from your message", classes="heading")
                yield Static(Text("Nothing yet.", style="dim"), id="remembered")

    def on_mount(self) -> None:
        self.on_resize()
        self.query_one("#offline").display = False
        self.query_one("#message", Input).focus()

    def reload(self) -> None:
        self.check_model()

    @work(thread=True, exclusive=True, group="model")
    def check_model(self) -> None:
        llm = self.lm.llm
        if llm is None:
            reason = (
                "The language model is off (--no-llm, LOCALMIND_NO_LLM, or llm.enabled = false "
                "in localmind.toml)."
            )
        elif llm.available():
            reason = ""
        else:
            reason = llm.status or llm.how_to_start()
        self.app.call_from_thread(self._show_offline, reason)

    def _show_offline(self, reason: str) -> None:
        panel = self.query_one("#offline", Static)
        panel.display = bool(reason)
        if reason:
            # short: at 80×24 a long banner would push the message field off the screen
            panel.update(
                Text.assemble(
                    ("Model offline: ", "bold"), reason, " Every other page works without it."
                )
            )

    def on_resize(self) -> None:
        table = self.query_one("#recalled", DataTable)
        if self.fit_columns(table, RECALLED_COLUMNS, NARROW_RECALLED):
            self._show_recalled([*self.recalled.values()])

    # --- a turn -------------------------------------------------------------------------------

    def action_focus_message(self) -> None:
        self.query_one("#message", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if event.input.id != "message" or not text:
            return
        event.input.value = ""
        event.input.disabled = True
        self.last_message = text
        self._add("user", text)
        reply = self._add("assistant", "…")
        self.turn(text, reply)

    def _add(self, who: str, text: str) -> Static:
        message = Static(shown(text), classes=f"message {who}")
        messages = self.query_one("#messages", VerticalScroll)
        messages.mount(message)
        messages.scroll_end(animate=False)
        return message

    @work(thread=True, exclusive=True, group="turn")
    def turn(self, text: str, reply: Static) -> None:
        session = self.lm.session
        assert session is not None
        pieces: list[str] = []

        def on_token(piece: str) -> None:
            pieces.append(piece)
            self.app.call_from_thread(self._stream, reply, "".join(pieces))

        try:
            turn = session.turn(text, on_token=on_token)
        except LocalmindError as error:
            self.app.call_from_thread(self._failed, reply, str(error))
            return
        self.app.call_from_thread(self._finished, reply, turn)
        self.app.call_from_thread(self.lm.refresh_status)

    def _stream(self, reply: Static, text: str) -> None:
        reply.update(shown(text))
        self.query_one("#messages", VerticalScroll).scroll_end(animate=False)

    def _failed(self, reply: Static, message: str) -> None:
        reply.update(Text(message, style="red"))
        self._ready()

    def _finished(self, reply: Static, turn: Turn) -> None:
        if turn.withheld:
            # said above the reply: the model answered a message with the secret taken out
            note = Static(Text(WITHHELD_NOTE, style="yellow"), classes="message withheld")
            self.query_one("#messages", VerticalScroll).mount(note, before=reply)
        if turn.offline and not turn.reply:
            reply.update(
                Text.assemble((f"(no reply: {turn.offline})\n", "dim italic"), (NOT_KEPT, "yellow"))
            )
            self._show_offline(turn.offline)
        else:
            reply.update(shown(turn.reply))
        self._show_recalled(turn.recalled)
        remembered = self.query_one("#remembered", Static)
        if turn.remembered or turn.not_kept:
            remembered.update(
                Text("\n").join(
                    [describe(o) for o in turn.remembered]
                    + [Text(fact.describe(), style="yellow") for fact in turn.not_kept]
                )
            )
        elif turn.offline:
            remembered.update(Text(f"Nothing: no language model to pick facts out. {KEEP_KEY}"))
        else:
            remembered.update(Text("Nothing new this turn.", style="dim"))
        self._ready()

    def action_keep_message(self) -> None:
        """Offer the last message to keep as a memory: shown in the add dialog first, so nothing
        is stored without the person seeing what and saving it (judged as ``add`` judges)."""
        if not self.last_message:
            self.notify("Send a message first: ctrl+s keeps it as a memory.", severity="warning")
            return

        def kept(outcome: Outcome) -> None:
            self.query_one("#remembered", Static).update(describe(outcome))

        add_memory(self, self.last_message, done=kept)

    def _ready(self) -> None:
        field = self.query_one("#message", Input)
        field.disabled = False
        field.focus()

    # --- the recalled memories ----------------------------------------------------------------

    def _show_recalled(self, results: list[RecallResult]) -> None:
        table = self.query_one("#recalled", DataTable)
        table.clear()
        self.recalled = {r.memory.id: r for r in results}
        for result in results:
            cells = self._cells(result)
            table.add_row(*(cells[key] for key in self._columns(table)), key=result.memory.id)
        self._show_breakdown()

    @staticmethod
    def _columns(table: DataTable[object]) -> list[str]:
        return [str(key.value) for key in table.columns]

    def _cells(self, result: RecallResult) -> dict[str, object]:
        b = result.breakdown
        return {
            "content": Text(one_line(_text_of(result.memory), 20 if self.narrow else 24)),
            "score": f"{b.score:.2f}",
            "sim": f"{b.similarity:.2f}",
            "imp": f"{b.importance:.2f}",
            "rec": f"{b.recency:.2f}",
            "freq": f"{b.frequency:.2f}",
            "conf": f"{result.memory.confidence:.2f}",
        }

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._show_breakdown()

    def _selected(self) -> RecallResult | None:
        table = self.query_one("#recalled", DataTable)
        if not self.recalled or table.row_count == 0:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return self.recalled.get(key or "")

    def _show_breakdown(self) -> None:
        panel = self.query_one("#breakdown", Static)
        result = self._selected()
        if result is None:
            panel.update(Text("Memories recalled for a turn show here.", style="dim"))
            return
        b = result.breakdown
        memory = result.memory
        w = self.memory.settings.ranking
        # a question about now was ranked with a higher recency weight: show the one it used
        recency_weight = w.recency if b.recency_weight is None else b.recency_weight
        text = shown(_text_of(memory) + "\n", style="bold")
        text.append(
            f"score {b.score:.3f} = confidence {b.confidence:.2f} × "
            f"relevance {b.similarity:.2f} × (1 + {w.importance:g}×importance {b.importance:.2f}"
            f" + {recency_weight:g}×recency {b.recency:.2f} + {w.frequency:g}×frequency "
            f"{b.frequency:.2f})\n",
            style="dim",
        )
        text.append(f"made {day(memory.created_at)}", style="dim")
        if day(memory.updated_at) != day(memory.created_at):
            text.append(f", changed {day(memory.updated_at)}", style="dim")
        if b.superseded_by:
            text.append(f" · may be outdated: {newer_named(b)} is newer", style="yellow")
        if b.moved_above:
            text.append(f" · newer than {b.moved_above}: listed above it", style="dim")
        for earlier in result.earlier if not memory.secret else ():  # held in the period asked
            text.append(f"\nearlier (told {day(earlier.told_at)}, until {day(earlier.until)}): ")
            text.append_text(shown(earlier.text))
        panel.update(text)

    def _replace(self, record: MemoryRecord) -> None:
        """Show ``record`` after feedback: its row and score line, rescored (the confidence and
        uses it has now, the relevance it was recalled with)."""
        old = self.recalled.get(record.id)
        if old is None:
            return
        self.recalled[record.id] = self.memory.rescored(old, record)
        table = self.query_one("#recalled", DataTable)
        cells = self._cells(self.recalled[record.id])
        for key in self._columns(table):
            table.update_cell(record.id, key, cells[key])
        self._show_breakdown()

    def action_feedback(self, kind: str) -> None:
        result = self._selected()
        if result is None:
            self.notify("No recalled memory selected.", severity="warning")
            return
        memory_id = result.memory.id
        self.in_background(lambda: self.memory.feedback(memory_id, kind), self._replace)

    def action_correct(self) -> None:
        result = self._selected()
        session = self.lm.session
        if result is None or session is None:
            self.notify("No recalled memory selected.", severity="warning")
            return
        if result.memory.secret:  # hidden here, and the editor would show it
            self.notify("Correct a secret on the Memories page (F3), where r shows it.")
            return
        memory_id, content = result.memory.id, result.memory.content

        def corrected(text: str | None) -> None:
            if text is not None and text != content:
                self.in_background(lambda: session.correct(memory_id, text), self._replace)

        self.app.push_screen(EditorModal("Correct this memory", content), corrected)

"""The data table every page uses: Textual's, with headings that always line up with the rows."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from textual import events
from textual.message import Message
from textual.widgets import DataTable
from textual.widgets.data_table import RowKey


class Table(DataTable[Any]):
    """A ``DataTable`` that redraws its cells when new rows widen a column.

    Textual measures the rows added since the last pass only when the table goes idle, and it
    caches each drawn cell under a key without the column's width. A frame drawn between
    ``add_row`` and that idle pass (on a busy machine the screen's refresh can come first)
    caches the headings at their old widths, and nothing clears them: the headings stay
    narrow over wider rows ("v  how  ago" above "1  extractive  now") until the next change.
    Clearing the drawn cells whenever the widths change makes the next frame right.
    """

    def _update_dimensions(self, new_rows: Iterable[RowKey]) -> None:
        before = self._render_widths()
        super()._update_dimensions(new_rows)
        if self._render_widths() != before:
            self._clear_caches()
            self.refresh()

    def _render_widths(self) -> list[int]:
        return [column.get_render_width(self) for column in self.ordered_columns]

    class Resized(Message):
        """The table's width changed: texts cut to its room (``room``) are to be cut again."""

    def room(self, *shared: str, widths: Mapping[str, int] | None = None) -> int | None:
        """The cells each of the ``shared`` columns has for its text when the other columns
        take theirs (``widths``: the content widths they are about to get; else what they
        have) and the texts must not run past the table's edge (where the terminal would cut
        them without an ellipsis). None before the first layout."""
        width = self.scrollable_content_region.width
        if width <= 0:
            return None
        known = widths or {}
        others = sum(
            known[key] + 2 * self.cell_padding
            if (key := str(column.key.value)) in known
            else column.get_render_width(self)
            for column in self.ordered_columns
            if column.key.value not in shared
        )
        share = (width - others) // max(len(shared), 1) - 2 * self.cell_padding
        return max(share, 8)

    def on_resize(self, event: events.Resize) -> None:
        if event.size.width != getattr(self, "_fitted_width", None):
            self._fitted_width = event.size.width
            self.post_message(self.Resized())

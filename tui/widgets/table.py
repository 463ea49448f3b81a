"""The data table every page uses: Textual's, with headings that always line up with the rows."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

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

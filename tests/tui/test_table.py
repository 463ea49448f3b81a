"""Table headings line up with their rows even when a frame is drawn before the table has
measured its new rows (what a busy machine does: a profile snapshot caught "v  how  ago" above
"1  extractive  now")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from textual.geometry import Region

from tests.conftest import FakeClock
from tests.tui.conftest import make_app, on_page, screen_text
from tui.widgets.table import Table


@pytest.fixture
def frame_after_each_row(monkeypatch: pytest.MonkeyPatch) -> None:
    """Draw the table right after every ``add_row``, before its idle pass measures the row:
    the order a loaded machine may take, made certain."""
    add_row = Table.add_row

    def add_row_then_draw(self: Table, *cells: Any, **options: Any) -> Any:
        key = add_row(self, *cells, **options)
        self.render_lines(Region(0, 0, self.size.width, self.size.height))
        return key

    monkeypatch.setattr(Table, "add_row", add_row_then_draw)


def column_of(text: str, screen: str) -> int:
    """The terminal column where ``text`` starts on the first row that shows it."""
    line = next(line for line in screen.splitlines() if text in line)
    return cell_len(line[: line.index(text)])


async def test_profile_headings_sit_over_their_columns(
    frame_after_each_row: None, store_path: Path, clock: FakeClock, seeded: dict[str, str]
) -> None:
    app = make_app(store_path, clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await on_page("f5", "r")(pilot)
        screen = screen_text(app)
        assert column_of(" how ", screen) == column_of(" extractive ", screen), screen
        assert column_of(" ago ", screen) == column_of(" now ", screen), screen

"""Texts too long for their column end with "…" where they are cut, by terminal cells (a
Chinese character takes two), at the default 80×24 (review9 Q3: "…in the Mun", "…每天")."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.cells import cell_len

from localmind import Memory
from tests.conftest import FAST_KDF, PASSPHRASE, FakeClock
from tests.tui.conftest import make_app, screen_text, settle
from tui.format import one_line
from tui.widgets.bars import fit_status

MUNICH = "I work at Siemens as a software engineer in the Munich office near Marienplatz"
BERLIN = "我住在柏林的一个小公寓里，离公司很近，每天骑自行车上班，周末去湖边散步"
MOVED = "我搬到了里斯本，现在住在 Alfama 区的一栋老房子里，上班要坐二十分钟的电车"


@pytest.mark.parametrize(
    ("text", "width", "expected"),
    [
        ("short enough", 12, "short enough"),
        (MUNICH, 20, "I work at Siemens a…"),
        # 我住在柏 is 8 cells, the ninth cell is the ellipsis; 林 would overhang: left out whole
        (BERLIN, 10, "我住在柏…"),
        (BERLIN, 11, "我住在柏林…"),
        ("line\none", 40, "line one"),
    ],
)
def test_one_line_cuts_by_cells_and_ends_with_an_ellipsis(
    text: str, width: int, expected: str
) -> None:
    cut = one_line(text, width)
    assert cut == expected
    assert cell_len(cut) <= width


def rows_with(screen: str, start: str) -> list[str]:
    return [line for line in screen.splitlines() if start in line]


@pytest.mark.slow
async def test_at_80x24_long_texts_end_with_an_ellipsis_inside_the_screen(
    store_path: Path, clock: FakeClock
) -> None:
    with Memory.open(store_path, PASSPHRASE, kdf=FAST_KDF, clock=clock) as memory:
        memory.remember(MUNICH, "semantic")
        memory.remember(BERLIN, "semantic")
        clock.advance(days=30)
        assert memory.remember_explained(MOVED, "semantic").conflict_id is not None
    app = make_app(store_path, clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for page in ("f3", "f4"):
            await pilot.press(page)
            await settle(pilot)
            screen = screen_text(app)
            starts = (
                ("I work at Siemens", "我住在柏林") if page == "f3" else ("我住在柏林", "我搬到了")
            )
            for start in starts:
                row = rows_with(screen, start)[0]  # the table's (the detail may follow)
                assert cell_len(row.rstrip()) <= 80
                text = row[row.index(start) :].split("  ")[0].rstrip("▅▇█▁▂▃▄▆ ")
                assert text.endswith("…"), (page, row)
        # both sides of the pair are in the list, not one pushed off the screen
        assert "Old" in rows_with(screen, "Written old → new")[0]
        assert "New" in rows_with(screen, "Written old → new")[0]


STATUS = "/home/mia/.local/share/localmind/memory.db · 4 memories + 1 this session · LLM off"


@pytest.mark.parametrize(
    ("width", "expected"),
    [
        (100, STATUS),
        (70, "…cal/share/localmind/memory.db · 4 memories + 1 this session · LLM off"),
        (50, "memory.db · 4 memories + 1 this session · LLM off"),
        (45, "4 memories + 1 this session · LLM off"),
    ],
)
def test_the_status_bar_gives_up_the_store_path_before_the_counts(
    width: int, expected: str
) -> None:
    assert fit_status(STATUS, width) == expected

"""The Conflicts page for a person who writes only Chinese, at the default 80×24 (review11 A3):
the reason for the pairing and what changed stay in view, the panels' headings are whole,
lines break as Chinese does (never "。" alone at the start of a line), and Health does not
count a memory folded into another by a take-new as "deleted"."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.text import Text

from localmind import Memory
from localmind.currency import day_of
from localmind.records import MERGED_AWAY, status_counts_shown
from tests.conftest import DAY, FAST_KDF, PASSPHRASE, FakeClock
from tests.tui.conftest import make_app, screen_text, settle, until
from tui.wrapping import NO_START, line_starts, wrap

HOME = "我住在上海浦东张江，租了一套一室一厅。"
MOVED = "我搬到北京了，现在住在海淀区五道口。"
# the old home's text with the new place: an edit of it, whose word diff the page shows (a
# diff of HOME and MOVED, which share three characters, is not shown: review13 J15)
HOME_EDITED = "我住在北京海淀区五道口，租了一套一室一厅。"
CAT = "我养了一只橘猫，名字叫团子。"


# --- line breaking (pure) ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "width", "lines"),
    [
        # all but "。" fits: the break moves back one character so that "。" does not start a line
        (MOVED, 34, ["我搬到北京了，现在住在海淀区五道", "口。"]),
        (HOME, 36, ["我住在上海浦东张江，租了一套一室一", "厅。"]),
        (HOME, 38, [HOME]),
        # a line breaks between Chinese characters, not only at spaces: the label keeps words
        ("What changed: 我在拼多多", 20, ["What changed: 我在拼", "多多"]),
        # English still breaks at spaces only
        ("My rent is 1200 euros a month", 12, ["My rent is", "1200 euros a", "month"]),
        # never inside a diff mark, never after an opening quote
        ("我[-在-]{+从+}拼多多", 6, ["我", "[-在-]", "{+从+}", "拼多多"]),
        ("他说“你好”。", 6, ["他说", "“你", "好”。"]),
        ("", 10, [""]),
    ],
)
def test_lines_break_between_chinese_characters_but_not_before_closing_punctuation(
    text: str, width: int, lines: list[str]
) -> None:
    assert [line.plain for line in wrap(Text(text), width)] == lines


def test_no_line_starts_with_closing_punctuation_at_any_width() -> None:
    text = f"{HOME}{MOVED}{CAT}"
    for width in range(4, 40):
        starts = line_starts(text, width)
        assert all(text[i] not in NO_START for i in starts), width
        pieces = [text[a:b] for a, b in zip([0, *starts], [*starts, len(text)], strict=True)]
        assert "".join(pieces) == text  # nothing lost, nothing repeated
        assert all(Text(piece).cell_len <= width for piece in pieces), width


def test_a_memory_folded_into_another_is_not_counted_as_deleted() -> None:
    counts = {"active": 95, "deleted": 1}
    assert status_counts_shown(counts, 1) == {"active": 95, MERGED_AWAY: 1}
    assert status_counts_shown({"active": 3, "deleted": 4}, 1) == {
        "active": 3,
        "deleted": 3,
        MERGED_AWAY: 1,
    }
    assert status_counts_shown({"active": 2, "expired": 1}, 0) == {"active": 2, "archived": 1}


# --- the page ------------------------------------------------------------------------------


@pytest.fixture
def chinese_pairs(store_path: Path, clock: FakeClock) -> None:
    """A Chinese-only store: a new home queued against the old one, among other memories."""
    with Memory.open(store_path, PASSPHRASE, kdf=FAST_KDF, clock=clock) as memory:
        memory.remember(CAT, "semantic")
        memory.remember(HOME, "semantic")
        clock.advance(days=60)
        assert memory.remember_explained(HOME_EDITED, "semantic").conflict_id is not None


@pytest.mark.slow
async def test_at_80x24_the_reason_and_what_changed_are_in_view(
    store_path: Path, clock: FakeClock, chinese_pairs: None
) -> None:
    app = make_app(store_path, clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("f4")
        await settle(pilot)
        rows = screen_text(app).splitlines()
        screen = "\n".join(rows)
        assert "Why it is here: may contradict the older memory" in screen
        assert "n takes" in screen and "o keeps" in screen  # the headings are whole
        changed = next(i for i, row in enumerate(rows) if "What changed:" in row)
        # the changed characters follow the label on its own row, not below the screen
        assert "[-" in rows[changed] and "{+" in rows[changed]
        assert "北京" in screen and "浦东" in screen
        # no line of the panels or of the diff starts with "。" or "，"
        for row in rows[changed - 4 : changed + 3]:
            for inside in row.split("│"):
                assert not inside.strip() or inside.strip()[0] not in NO_START, row

        await pilot.press("n")  # take the move: the old home is folded into it, not lost
        await pilot.press("f6")  # leaving the page carries the resolution out at once
        assert await until(
            pilot, lambda: MERGED_AWAY in str(app.screen.query_one("#counts").render())
        )
        counts = str(app.screen.query_one("#counts").render())
        assert f"by status: active 2, {MERGED_AWAY} 1\n" in counts
        assert "deleted" not in counts


@pytest.fixture
def in_taichung(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TZ", "Asia/Taipei")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.mark.slow
async def test_the_pair_is_dated_by_the_local_day(
    store_path: Path, clock: FakeClock, chinese_pairs: None, in_taichung: None
) -> None:
    """review15a TW14: the page dated each side by its UTC day; 04:26 in Taichung (20:26 UTC
    the evening before) showed as the day before, unlike `conflicts` and the context block."""
    told = dt.datetime.fromtimestamp(clock.now - 60 * DAY).astimezone()
    assert (told.hour, told.tzname()) == (4, "CST")  # the morning after in UTC's eyes
    app = make_app(store_path, clock)
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        await pilot.press("f4")
        await settle(pilot)
        screen = screen_text(app)
        older, newer = day_of(clock.now - 60 * DAY), day_of(clock.now)
        assert (older, newer) == ("2026-05-29", "2026-07-28")
        assert f"{older} → {newer}" in screen
        assert "2026-05-28" not in screen and "2026-07-27" not in screen

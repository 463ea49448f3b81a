"""What each page looks like, against deterministic data (a fixed clock, relative store path,
no ids on screen), in the default terminal (80×24) and a large one. Update after an intended
change with ``pytest --snapshot-update``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, TextArea

from localmind import Memory
from localmind.llm.ollama import OllamaLLM
from tests.conftest import FAST_KDF, PASSPHRASE, FakeClock
from tests.ollama_server import FakeOllama
from tests.tui.conftest import make_app, on_page, screen_text, seed, settle, until

SnapCompare = Callable[..., bool]
SLOW = pytest.mark.slow
#: Every page in the smallest terminal the app supports (the usual default) and a large one.
#: The quick loop takes the small one, where a layout breaks first (polish13: the large one,
#: the same screens, is the full run's; ~1.5 s each).
SIZES = pytest.mark.parametrize(
    "size",
    [pytest.param((80, 24), id="80x24"), pytest.param((120, 34), id="120x34", marks=SLOW)],
)
Size = tuple[int, int]


@pytest.fixture(autouse=True)
def steady_cursor(monkeypatch: pytest.MonkeyPatch) -> None:
    """A focused field shows its cursor and does not blink: the screenshot is taken when the
    run is over, and on a busy machine that can fall in the blink's off half-second."""
    monkeypatch.setattr(Input, "_toggle_cursor", lambda self: None)


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clock: FakeClock) -> Path:
    """A seeded store at the relative path ``memory.db`` (the status bar shows the path)."""
    monkeypatch.chdir(tmp_path)
    seed(Path("memory.db"), clock, conflict=True)
    return Path("memory.db")


@SIZES
def test_unlock_screen(snap_compare: SnapCompare, size: Size, here: Path, clock: FakeClock) -> None:
    assert snap_compare(make_app(here, clock, passphrase=None), terminal_size=size)


@SIZES
def test_create_screen(
    snap_compare: SnapCompare,
    size: Size,
    tmp_path: Path,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    app = make_app(Path("new.db"), clock, passphrase=None)
    assert snap_compare(app, terminal_size=size)


@SIZES
def test_memories_page(snap_compare: SnapCompare, size: Size, here: Path, clock: FakeClock) -> None:
    assert snap_compare(make_app(here, clock), terminal_size=size, run_before=on_page("f3"))


@pytest.mark.slow
@SIZES
def test_memories_page_with_a_secret(
    snap_compare: SnapCompare, size: Size, here: Path, clock: FakeClock
) -> None:
    """The newest memory is a secret: 🔒 and dots in the table and the detail."""
    with Memory.open(here, PASSPHRASE, kdf=FAST_KDF, clock=clock) as memory:
        assert memory.remember("My bank password is Tulip!Rain", "semantic").secret
    assert snap_compare(make_app(here, clock), terminal_size=size, run_before=on_page("f3"))


@SIZES
def test_memories_search(
    snap_compare: SnapCompare, size: Size, here: Path, clock: FakeClock
) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await on_page("f3")(pilot)
        pilot.app.screen.query_one("#search", Input).value = "tea"
        await settle(pilot)

    assert snap_compare(make_app(here, clock), terminal_size=size, run_before=run_before)


@SIZES
def test_history_modal(snap_compare: SnapCompare, size: Size, here: Path, clock: FakeClock) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        app = pilot.app
        memory = app.memory  # type: ignore[attr-defined]
        newest = memory.list_memories()[0]  # the one the cursor starts on
        memory.update(newest.id, content=newest.content.replace("1450", "1500"))
        await on_page("f3")(pilot)
        await pilot.press("h")
        await settle(pilot)

    assert snap_compare(make_app(here, clock), terminal_size=size, run_before=run_before)


@SIZES
def test_chat_page(
    snap_compare: SnapCompare, size: Size, here: Path, clock: FakeClock, ollama_server: FakeOllama
) -> None:
    ollama_server.when_schema_has(
        "facts", {"facts": [{"content": "The user drinks tea every afternoon"}]}
    )
    ollama_server.when_schema_has("relation", {"relation": "compatible", "reason": "both true"})
    ollama_server.default_reply = "Green tea, as you told me. Shall I brew some?"
    app = make_app(here, clock, llm=OllamaLLM(host=ollama_server.host, timeout_s=5.0))

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        pilot.app.screen.query_one("#message", Input).value = "What do I like to drink?"
        await pilot.press("enter")
        await settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@SIZES
def test_conflicts_page(
    snap_compare: SnapCompare, size: Size, here: Path, clock: FakeClock
) -> None:
    assert snap_compare(make_app(here, clock), terminal_size=size, run_before=on_page("f4"))


@pytest.mark.slow
@SIZES
def test_conflicts_page_with_a_secret(
    snap_compare: SnapCompare, size: Size, here: Path, clock: FakeClock
) -> None:
    """The selected pair is two door codes: dots in the list and both panels, r in the footer
    (leak11)."""
    with Memory.open(here, PASSPHRASE, kdf=FAST_KDF, clock=clock) as memory:
        memory.remember("The door code of the flat is 7391#", "semantic")
        queued = memory.remember_explained("The door code of the flat changed to 2280#")
        assert queued.record.secret and queued.conflict_id is not None

    async def run_before(pilot: Pilot[None]) -> None:
        await on_page("f4")(pilot)
        await pilot.press("down")
        # the footer follows the selection a moment later
        assert await until(pilot, lambda: "r Reveal" in screen_text(pilot.app))

    app = make_app(here, clock)
    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.slow
def test_conflicts_page_in_chinese(
    snap_compare: SnapCompare, tmp_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Chinese-only store at 80×24: the reason above the pair, whole headings, lines broken
    between characters and never before "。", the changed characters under the pair
    (review11 A3)."""
    monkeypatch.chdir(tmp_path)
    with Memory.open(Path("memory.db"), PASSPHRASE, kdf=FAST_KDF, clock=clock) as memory:
        memory.remember("我住在上海浦东张江，租了一套一室一厅。", "semantic")
        clock.advance(days=60)
        # (an edit of the old text: a diff is shown only for one, review13 J15)
        moved = memory.remember_explained("我住在北京海淀区五道口，租了一套一室一厅。", "semantic")
        assert moved.conflict_id is not None
    app = make_app(Path("memory.db"), clock)
    assert snap_compare(app, terminal_size=(80, 24), run_before=on_page("f4"))


@pytest.mark.slow
def test_conflicts_page_across_languages(
    snap_compare: SnapCompare, tmp_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two memories in two languages sharing a place name (queued: "终于" announces a change):
    no "What changed:" word diff, which would read as if one were an edit of the other
    (review13 J15)."""
    monkeypatch.chdir(tmp_path)
    with Memory.open(Path("memory.db"), PASSPHRASE, kdf=FAST_KDF, clock=clock) as memory:
        memory.remember("I'm looking for a Wohnung in Friedrichshain or Kreuzberg", "semantic")
        clock.advance(days=20)
        told = memory.remember_explained(
            "终于约到了Anmeldung，11月4日早上9点在Bürgeramt Friedrichshain", "semantic"
        )
        assert told.conflict_id is not None
    app = make_app(Path("memory.db"), clock)
    assert snap_compare(app, terminal_size=(80, 24), run_before=on_page("f4"))


@SIZES
def test_chat_page_offline(
    snap_compare: SnapCompare, size: Size, here: Path, clock: FakeClock
) -> None:
    """Without a model: the banner says so in a few lines, the message field stays in view."""
    assert snap_compare(make_app(here, clock), terminal_size=size, run_before=on_page("f2"))


@SIZES
def test_profile_page(snap_compare: SnapCompare, size: Size, here: Path, clock: FakeClock) -> None:
    run_before = on_page("f5", "r")
    assert snap_compare(make_app(here, clock), terminal_size=size, run_before=run_before)


@SIZES
def test_health_page(snap_compare: SnapCompare, size: Size, here: Path, clock: FakeClock) -> None:
    assert snap_compare(make_app(here, clock), terminal_size=size, run_before=on_page("f6"))


@SIZES
def test_help_screen(snap_compare: SnapCompare, size: Size, here: Path, clock: FakeClock) -> None:
    assert snap_compare(make_app(here, clock), terminal_size=size, run_before=on_page("f1"))


@SIZES
def test_add_modal(snap_compare: SnapCompare, size: Size, here: Path, clock: FakeClock) -> None:
    """Memories a (tui10): the type to pick above the text, the keys under it."""

    async def run_before(pilot: Pilot[None]) -> None:
        await on_page("f3", "a")(pilot)
        editor = pilot.app.screen.query_one("#add-text", TextArea)
        editor.cursor_blink = False  # as the Input's: the screenshot may fall in the blink
        editor.text = "I have a cat named Pixel."
        await settle(pilot)

    assert snap_compare(make_app(here, clock), terminal_size=size, run_before=run_before)

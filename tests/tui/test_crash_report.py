"""A crash of the app prints where it happened, not what was in memory (leak11): Textual's
report showed every frame's local variables, so a secret the page was hiding went to the
terminal (and into any bug report it was pasted into). Pilot against the real store."""

from __future__ import annotations

from pathlib import Path

import pytest

from localmind import Memory
from tests.conftest import FAST_KDF, PASSPHRASE, FakeClock
from tests.tui.conftest import make_app, settle
from tui.screens import memories as memories_page

PASSWORD = "My bank password is Tulip!Rain"


class Bug(RuntimeError):
    """The bug the test plants."""


@pytest.mark.slow  # a few seconds: the app started, crashed and shut down
async def test_a_crash_report_names_the_code_not_the_secret_it_held(
    store_path: Path,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    with Memory.open(store_path, PASSPHRASE, kdf=FAST_KDF, clock=clock) as memory:
        assert memory.remember(PASSWORD, "semantic").secret
        memory.remember("I prefer green tea over coffee", "semantic")

    def broken(seconds: float) -> str:  # called while the selected secret is a local variable
        raise Bug("planted")

    app = make_app(store_path, clock)
    with pytest.raises(Bug):
        async with app.run_test(size=(120, 34)) as pilot:
            await settle(pilot)
            await pilot.press("f3")
            await settle(pilot)
            monkeypatch.setattr(memories_page, "ago", broken)
            await pilot.press("down", "up")
            await settle(pilot)
    report = capsys.readouterr().err
    assert "planted" in report and "_show_detail" in report  # the report was printed
    assert "Tulip" not in report

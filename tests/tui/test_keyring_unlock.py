"""The app opens a store whose key `localmind unlock --remember` kept in the OS keyring without
asking for the passphrase (issue 16 item 12); a stale key falls back to the unlock screen."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import keyring
import pytest
from keyrings.alt.file import PlaintextKeyring
from textual.widgets import Label

from localmind.keys import KeyFile, key_file_for
from localmind.remembered_key import remember_data_key
from tests.conftest import PASSPHRASE, FakeClock
from tests.tui.conftest import make_app, settle
from tui.screens.chat import ChatScreen
from tui.screens.unlock import UnlockScreen


@pytest.fixture
def os_keyring(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data-home"))
    before = keyring.get_keyring()
    keyring.set_keyring(PlaintextKeyring())
    try:
        yield
    finally:
        keyring.set_keyring(before)


async def test_a_remembered_key_opens_the_app_without_the_passphrase(
    store_path: Path, clock: FakeClock, seeded: dict[str, str], os_keyring: None
) -> None:
    remember_data_key(store_path, KeyFile.load(key_file_for(store_path)).unwrap(PASSPHRASE))
    app = make_app(store_path, clock, passphrase=None)
    async with app.run_test() as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ChatScreen)
        assert app.memory is not None and app.memory.count() == 4


async def test_a_stale_remembered_key_leaves_the_unlock_screen_saying_why(
    store_path: Path, clock: FakeClock, seeded: dict[str, str], os_keyring: None
) -> None:
    remember_data_key(store_path, bytes(32))
    app = make_app(store_path, clock, passphrase=None)
    async with app.run_test() as pilot:
        await settle(pilot)
        assert isinstance(app.screen, UnlockScreen)
        said = str(app.screen.query_one("#unlock-message", Label).render())
        assert "The key remembered in the OS keyring no longer opens" in said
        assert app.memory is None

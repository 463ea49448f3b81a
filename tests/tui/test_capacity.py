"""The app says when capacity archived memories (chat) and brings an archived one back
(Memories page, status archived, a)."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import DataTable, Label

from localmind import Memory, Status
from localmind.llm.ollama import OllamaLLM
from tests.conftest import FAST_KDF, PASSPHRASE, FakeClock
from tests.ollama_server import FakeOllama
from tests.tui.conftest import make_app, settle
from tests.tui.test_chat import FACT, say
from tui.screens.memories import MemoriesScreen


def set_capacity(path: Path, clock: FakeClock, capacity: int) -> list[str]:
    with Memory.open(path, PASSPHRASE, kdf=FAST_KDF, clock=clock) as memory:
        return memory.configure("capacity", str(capacity))


async def test_a_chat_turn_that_archives_says_so(
    store_path: Path, clock: FakeClock, seeded: dict[str, str], ollama_server: FakeOllama
) -> None:
    set_capacity(store_path, clock, len(seeded))
    ollama_server.when_schema_has("facts", {"facts": [{"content": FACT, "type": "semantic"}]})
    ollama_server.when_schema_has("relation", {"relation": "compatible", "reason": "both"})
    ollama_server.default_reply = "Noted."
    app = make_app(store_path, clock, llm=OllamaLLM(host=ollama_server.host, timeout_s=5.0))
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        await say(pilot, app, "I drink tea every afternoon")
        remembered = str(app.screen.query_one("#remembered").render())
        assert FACT in remembered
        assert "capacity archived 1 memory to make room" in remembered
        assert app.memory is not None
        assert len(app.memory.list_memories(status=Status.EXPIRED)) == 1


async def test_an_archived_memory_comes_back_from_the_memories_page(
    store_path: Path, clock: FakeClock, seeded: dict[str, str]
) -> None:
    [archived] = set_capacity(store_path, clock, len(seeded) - 1)
    app = make_app(store_path, clock)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        await pilot.press("f3")
        await settle(pilot)
        await pilot.press("b")  # an active memory: nothing to bring back
        await settle(pilot)
        assert any("Only archived memories" in n.message for n in app._notifications)
        await pilot.press("s", "s")  # active -> superseded -> archived
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, MemoriesScreen)
        assert list(screen.rows) == [archived]
        assert "status: archived (s)" in str(screen.query_one("#filters").render())
        assert "b brings it back" in str(screen.query_one("#detail").render())
        screen.query_one("#memories", DataTable).focus()
        await pilot.press("b")
        await settle(pilot)
        assert app.memory is not None
        assert app.memory.get(archived).status is Status.ACTIVE
        # At capacity, bringing one back archived another in its place, and said so.
        assert any(
            "Unarchived" in n.message and "capacity archived 1 memory" in n.message
            for n in app._notifications
        )
        assert archived not in screen.rows and len(screen.rows) == 1


async def press_and_read_capacity(pilot: Pilot[None], key: str) -> str:
    """Press ``key`` once the app has settled; the Health page's capacity line after it."""
    await settle(pilot)
    await pilot.press(key)
    await settle(pilot)
    return str(pilot.app.screen.query_one("#capacity-label", Label).render())


async def test_health_says_how_many_are_archived(
    store_path: Path, clock: FakeClock, seeded: dict[str, str]
) -> None:
    set_capacity(store_path, clock, len(seeded) - 1)
    app = make_app(store_path, clock)
    async with app.run_test(size=(140, 50)) as pilot:
        label = await press_and_read_capacity(pilot, "f6")
    assert (
        label
        == f"Capacity: {len(seeded) - 1} of {len(seeded) - 1} memories · 1 archived (Memories, s)"
    )


async def test_health_says_when_sync_left_the_store_over_capacity_and_m_archives_it(
    store_path: Path, clock: FakeClock, seeded: dict[str, str], tmp_path: Path
) -> None:
    set_capacity(store_path, clock, len(seeded))
    with (
        Memory.open(tmp_path / "other.db", PASSPHRASE, kdf=FAST_KDF, clock=clock) as other,
        Memory.open(store_path, PASSPHRASE, kdf=FAST_KDF, clock=clock) as here,
    ):
        other.remember("I keep bees on the roof")
        here.apply_remote(other.events_since(0))  # arrives over capacity, archives nothing
    app = make_app(store_path, clock)
    async with app.run_test(size=(140, 50)) as pilot:
        over = await press_and_read_capacity(pilot, "f6")
        after = await press_and_read_capacity(pilot, "m")
        said = [n.message for n in app._notifications]
    full = f"Capacity: {len(seeded) + 1} of {len(seeded)} memories"
    assert over == f"{full} · 1 over: maintenance (m) archives the 1 lowest-valued"
    assert any("1 over capacity archived" in message for message in said)
    assert after.endswith("· 1 archived (Memories, s)") and "over" not in after

"""Screenshots of every page for the README: ``python -m tui.screenshots [DIR]`` (default
``assets/``). Builds a demo store in a temporary directory with a fixed clock; the chat page
talks to Ollama when it runs (OLLAMA_HOST), and otherwise shows how to start it."""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

from localmind.keys import KdfParams
from localmind.llm.registry import LLMConfig, make_llm
from localmind.memory import Memory
from tui.app import LocalmindApp

DAY = 86_400.0
DEMO = (
    ("Went hiking in the Alps with my sister last August", "episodic", 0.4),
    ("The user is a software engineer working on databases", "semantic", 0.9),
    ("用户喜欢 Rust 编程语言", "semantic", 0.8),
    ("Prefers short answers with code examples", "semantic", 0.7),
    ("Is preparing a talk on SQLite internals for March", "long_term", 0.8),
    ("I prefer green tea over coffee", "semantic", 0.6),
    ("My rent is 1200 euros a month", "semantic", 0.5),
    ("My rent went up to 1450 euros a month", "semantic", 0.5),
)
PASSPHRASE = "demo passphrase"
CHEAP_KDF = KdfParams(memory_cost_kib=8, iterations=1, lanes=1)  # a throwaway demo store


class Clock:
    def __init__(self, now: float = 1_780_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def build(path: Path, clock: Clock) -> None:
    with Memory.open(path, PASSPHRASE, kdf=CHEAP_KDF, clock=clock) as memory:
        for content, kind, importance in DEMO:
            memory.remember(content, kind, importance)
            clock.now += 1.5 * DAY
        memory.recall("what do I drink?")
        memory.recall("Rust")


async def shoot(target: Path) -> list[Path]:
    target.mkdir(parents=True, exist_ok=True)
    saved: list[Path] = []
    with tempfile.TemporaryDirectory() as tmp:
        clock = Clock()
        path = Path(tmp) / "memory.db"
        build(path, clock)
        app = LocalmindApp(path, llm=make_llm(LLMConfig()), clock=clock, passphrase=None)
        async with app.run_test(size=(130, 36)) as pilot:

            async def settle() -> None:
                for _ in range(2):
                    await app.workers.wait_for_complete()
                    await pilot.pause()

            def save(name: str) -> None:
                saved.append(Path(app.save_screenshot(f"tui-{name}.svg", str(target))))

            save("unlock")
            app.screen.query_one("#passphrase").value = PASSPHRASE  # type: ignore[attr-defined]
            await pilot.press("enter")
            await settle()
            app.screen.query_one("#message").value = "What should I drink?"  # type: ignore[attr-defined]
            await pilot.press("enter")
            await settle()
            save("chat")
            for key, name in (("f3", "memories"), ("f4", "conflicts"), ("f6", "health")):
                await pilot.press(key)
                await settle()
                save(name)
            await pilot.press("f5", "r")
            await settle()
            save("profile")
            await pilot.press("f1")
            await settle()
            save("help")
    return saved


def main() -> None:
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("assets")
    for path in asyncio.run(shoot(target)):
        print(path)


if __name__ == "__main__":
    main()

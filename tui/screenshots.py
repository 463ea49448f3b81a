"""Screenshots of every page for the README: ``python -m tui.screenshots [DIR]`` (default
``assets/``). Builds a demo store in a temporary directory with a fixed clock; the chat page
talks to the configured model when it runs (as the app: Ollama at OLLAMA_HOST, or what
localmind.toml and the LOCALMIND_* variables choose), and otherwise, in a checkout, to the test
suite's server speaking Ollama's API (``tests/ollama_server.py``) with scripted demo answers, so
the pictures are the same on any machine."""

from __future__ import annotations

import asyncio
import sys
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from localmind import configuration
from localmind.llm import LLM
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
QUESTION = "What should I drink?"
ANSWER = "Green tea: you prefer it over coffee, and it keeps you going while you write your talk."
PROFILE = (
    "A software engineer working on databases, preparing a talk on SQLite internals for March. "
    "Likes Rust; prefers short answers with code examples. Drinks green tea rather than coffee."
)
PASSPHRASE = "demo passphrase"


class Clock:
    def __init__(self, now: float = 1_780_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def build(path: Path, clock: Clock) -> None:
    # The default key derivation: a cheaper one is refused (the KDF floor), and costs ~1 s here.
    with Memory.open(path, PASSPHRASE, clock=clock) as memory:
        for content, kind, importance in DEMO:
            memory.remember(content, kind, importance)
            clock.now += 1.5 * DAY
        memory.recall("what do I drink?")
        memory.recall("Rust")


@contextmanager
def demo_model(environ: Mapping[str, str] | None = None) -> Iterator[LLM]:
    """The configured model (``environ``: the process's) when it runs; otherwise the test
    suite's server with the demo's answers (when the checkout's tests are there), or else the
    model that is not running, and the chat page says how to start it."""
    llm = make_llm(configuration.load({}, environ).llm)
    if llm.available():
        yield llm
        return
    try:
        from tests.ollama_server import FakeOllama  # a development checkout only
    except ImportError:
        yield llm
        return
    server = FakeOllama(default_reply=ANSWER)
    server.when_schema_has("facts", {"facts": []})  # the chat's question holds no new fact
    for words in ("user profile", "用户画像"):
        server.when_prompt_contains(words, PROFILE)
    server.start()
    try:
        yield make_llm(LLMConfig(base_url=server.host))  # the demo's model, whatever is chosen
    finally:
        server.stop()


async def shoot(target: Path) -> list[Path]:
    target.mkdir(parents=True, exist_ok=True)
    saved: list[Path] = []
    with tempfile.TemporaryDirectory() as tmp:
        clock = Clock()
        path = Path(tmp) / "memory.db"
        build(path, clock)
        with demo_model() as llm:
            app = LocalmindApp(path, llm=llm, clock=clock, passphrase=None)
            saved += await _shoot_pages(app, target)
    return saved


async def _shoot_pages(app: LocalmindApp, target: Path) -> list[Path]:
    saved: list[Path] = []
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
        app.screen.query_one("#message").value = QUESTION  # type: ignore[attr-defined]
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

"""What a model that is down costs ``remember``: the same contradictions told to a store with
no model configured and to one whose Ollama address has nothing listening. Each is queued as a
conflict either way; the difference is the availability check (one refused connection, then
cached for 30 s). The unit tests assert the behaviour (one try, no chat), this the time.

    python -m bench.llm_down [--runs N]    # one line per situation: wall and CPU ms per remember
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from bench.perf import settings_without_capacity
from bench.stores import BENCH_KDF
from localmind import Memory
from localmind.lifecycle import Decision
from localmind.llm.ollama import OllamaLLM

OLD = "I like Java"
NEW = [f"I now prefer {language}" for language in ("Go", "Rust", "Kotlin", "Swift", "Zig")]


def unused_address() -> str:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}"


def time_run(directory: Path, llm: OllamaLLM | None) -> tuple[list[float], list[float]]:
    """Wall and CPU ms of each remember of a contradiction, on a fresh store."""
    memory = Memory.open(
        directory / "store.db",
        "llm-down-bench",
        embedder="use",
        settings=settings_without_capacity(),
        kdf=BENCH_KDF,
        llm=llm,
        maintain=False,
    )
    wall, cpu = [], []
    try:
        memory.remember(OLD)
        for text in NEW:
            started, used = time.perf_counter(), time.process_time()
            decision = memory.remember_explained(text).decision
            wall.append((time.perf_counter() - started) * 1000)
            cpu.append((time.process_time() - used) * 1000)
            assert decision is Decision.QUEUED, (text, decision)
    finally:
        memory.close()
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    situations = {
        "no model configured": lambda: None,
        "Ollama down": lambda: OllamaLLM(host=unused_address()),
    }
    for name, make in situations.items():
        first_wall, rest_wall, rest_cpu = [], [], []
        for _ in range(runs):
            with tempfile.TemporaryDirectory() as directory:
                wall, cpu = time_run(Path(directory), make())
            first_wall.append(wall[0])
            rest_wall.extend(wall[1:])
            rest_cpu.extend(cpu[1:])
        print(
            f"{name}: first remember {statistics.median(first_wall):.1f} ms wall; "
            f"later ones {statistics.median(rest_wall):.1f} ms wall, "
            f"{statistics.median(rest_cpu):.1f} ms CPU (medians of {runs} runs)"
        )


if __name__ == "__main__":
    main()

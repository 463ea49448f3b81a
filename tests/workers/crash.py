"""A process for the crash tests to kill: it writes to a store through the real ``Memory`` API
and says on stdout where it is, so the parent can kill it at a random point and then check
what survived.

    python -m tests.workers.crash remember PREFIX COUNT
    python -m tests.workers.crash sync FOLDER

It loads the embedding model, prints ``ready`` and reads the store's path from stdin (so the
parent can start the next child while it checks the last one). Then it opens the store, prints
``started`` and writes, saying after each transaction commits what it committed: ``remember``
prints ``committed <json ids>`` per batch, ``sync`` prints ``applied <json cursor>`` per
segment; both print ``done`` at the end.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from localmind import Memory
from localmind.embedders import default_embedder
from localmind.memory import EMBED_BATCH, NewMemory
from sync import import_new
from tests.conftest import PASSPHRASE

TOPICS = ("green tea", "the cello", "Rust lifetimes", "hiking boots", "sourdough", "chess")


def items(prefix: str, count: int) -> list[NewMemory]:
    """``count`` distinct memories named by ``prefix``; every 16th repeats an earlier one of
    the same run (a reinforcement: an update of a row written before)."""
    made = []
    for i in range(count):
        n = i - 40 if i % 16 == 15 and i >= 40 else i
        topic = TOPICS[n % len(TOPICS)]
        made.append(NewMemory(f"{prefix} item {n}: a note about {topic}, number {n * 7919}"))
    return made


def say(line: str) -> None:
    print(line, flush=True)


def store_path() -> Path:
    # The model is loaded once per process (Memory.open reuses it): load it before waiting.
    default_embedder().embed_documents(["warm up"])
    say("ready")
    return Path(sys.stdin.readline().strip())


def remember(prefix: str, count: int) -> None:
    with Memory.open(store_path(), PASSPHRASE) as memory:
        say("started")
        batch = items(prefix, count)
        for start in range(0, len(batch), EMBED_BATCH):
            records = memory.remember_many(batch[start : start + EMBED_BATCH])
            say("committed " + json.dumps([r.id for r in records]))
    say("done")


def sync(folder: Path) -> None:
    with Memory.open(store_path(), PASSPHRASE) as memory:
        apply_remote = memory.apply_remote

        def apply_and_say(events: Any, *, meta: dict[str, str] | None = None) -> Any:
            applied = apply_remote(events, meta=meta)
            say("applied " + json.dumps(meta))  # committed, with the cursor it moved to
            return applied

        memory.apply_remote = apply_and_say  # type: ignore[method-assign]
        say("started")
        report = import_new(memory, folder)
    assert not report.skipped, report.skipped
    say(f"done {report.segments}")


def main(argv: list[str]) -> None:
    mode, *rest = argv
    if mode == "remember":
        remember(rest[0], int(rest[1]))
    elif mode == "sync":
        sync(Path(rest[0]))
    else:
        raise SystemExit(f"unknown mode {mode!r}")


if __name__ == "__main__":
    main(sys.argv[1:])

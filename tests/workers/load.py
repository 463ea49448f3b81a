"""One of several processes working on one store at once (what the TUI, the MCP server, the
sync watcher and a script do to a person's store), for the concurrency test.

    python -m tests.workers.load writer NAME DB SECONDS SHARED_IDS
    python -m tests.workers.load cli-writer NAME DB SECONDS
    python -m tests.workers.load reader NAME DB SECONDS
    python -m tests.workers.load sync NAME DB SECONDS FOLDER
    python -m tests.workers.load confirmer NAME DB SECONDS

Each loads its model, prints ``ready`` and waits for a line on stdin (so all start together),
works for SECONDS, and prints one JSON line: what it did and every error it met. Errors are
collected, not raised: the test wants all of them, from every process.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
import traceback
from dataclasses import asdict, dataclass, field
from pathlib import Path

from localmind import Memory, NewMemory
from localmind.embedders import default_embedder
from sync import sync_once
from tests.conftest import PASSPHRASE
from tests.workers.crash import TOPICS

# A writer forgets one of its own memories when it has more than this many: the store stays
# under the default capacity (500), whose eviction would archive memories the test checks.
OWN_ACTIVE_LIMIT = 60


@dataclass
class Report:
    name: str
    ops: int = 0
    errors: list[str] = field(default_factory=list)
    remembered: list[str] = field(default_factory=list)
    forgotten: list[str] = field(default_factory=list)
    content_updates: dict[str, int] = field(default_factory=dict)  # shared id → new versions


def say(line: str) -> None:
    print(line, flush=True)


def wait_for_start() -> None:
    default_embedder().embed_documents(["warm up"])  # loaded once per process
    say("ready")
    sys.stdin.readline()


def note(rng: random.Random, name: str, n: int) -> str:
    # Distinct numbers: the no-LLM lifecycle never merges texts whose numbers differ.
    return f"{name} note {n}: about {rng.choice(TOPICS)}, code {rng.randrange(10**6)}"


def writer(name: str, db: Path, seconds: float, shared: list[str]) -> Report:
    rng = random.Random(name)
    report = Report(name)
    active: list[str] = []
    with Memory.open(db, PASSPHRASE) as memory:
        deadline = time.monotonic() + seconds
        n = 0
        while time.monotonic() < deadline:
            n += 1
            roll = rng.random()
            try:
                if len(active) > OWN_ACTIVE_LIMIT or (active and roll < 0.12):
                    victim = active.pop(rng.randrange(len(active)))
                    memory.forget(victim)
                    report.forgotten.append(victim)
                elif roll < 0.35:
                    record = memory.remember(note(rng, name, n))
                    report.remembered.append(record.id)
                    active.append(record.id)
                elif roll < 0.45:
                    batch = [NewMemory(note(rng, name, n * 10 + i)) for i in range(4)]
                    for record in memory.remember_many(batch):
                        report.remembered.append(record.id)
                        active.append(record.id)
                elif roll < 0.60:
                    target = rng.choice(shared)
                    memory.update(target, content=f"shared fact, as {name} put it at {n}")
                    report.content_updates[target] = report.content_updates.get(target, 0) + 1
                elif roll < 0.75:
                    memory.feedback(rng.choice(shared), rng.choice(["confirm", "deny"]))
                elif roll < 0.85 and active:
                    memory.update(rng.choice(active), content=note(rng, name, n) + " (edited)")
                elif roll < 0.92:
                    # (above the decay floor: the readers' maintenance archives what is below)
                    importance = rng.uniform(0.2, 1.0)
                    memory.update(rng.choice(shared), importance=importance, pinned=n % 2 == 0)
                elif active:
                    memory.feedback(rng.choice(active), "confirm")
            except Exception:
                report.errors.append(traceback.format_exc(limit=-4))
            report.ops += 1
    return report


def reader(name: str, db: Path, seconds: float) -> Report:
    """Recalls (which count accesses: small writes), lists, stats; and it reopens the store
    now and then, running the maintenance pass as the TUI's Health page does."""
    rng = random.Random(name)
    report = Report(name)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with Memory.open(db, PASSPHRASE) as memory:
                for _ in range(25):
                    if time.monotonic() >= deadline:
                        break
                    roll = rng.random()
                    if roll < 0.5:
                        results = memory.recall(f"what about {rng.choice(TOPICS)}?", 5)
                        for result in results[:2]:
                            memory.get(result.memory.id)
                    elif roll < 0.75:
                        memory.list_memories(limit=20, offset=rng.randrange(50))
                    elif roll < 0.9:
                        memory.stats()
                    elif roll < 0.95:
                        memory.profile()  # rebuilt (extractive, no LLM) as memories change
                    else:
                        memory.maintain()
                    report.ops += 1
        except Exception:
            report.errors.append(traceback.format_exc(limit=-4))
            report.ops += 1
    return report


def cli_writer(name: str, db: Path, seconds: float) -> Report:
    """The ``localmind`` command, run as a person (or a script) would while the rest works:
    each command is its own process that opens the store, writes and closes it."""
    rng = random.Random(name)
    report = Report(name)
    env = {
        **os.environ,
        "LOCALMIND_DB": str(db),
        "LOCALMIND_PASSPHRASE": PASSPHRASE,
        "LOCALMIND_NO_LLM": "1",
    }
    active: list[str] = []

    def run(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "localmind", *args], env=env, capture_output=True, text=True
        )
        report.ops += 1
        if done.returncode != 0:
            report.errors.append(
                f"localmind {' '.join(args)} exited {done.returncode}: {done.stderr.strip()}"
            )
        return done.stdout

    deadline = time.monotonic() + seconds
    n = 0
    while time.monotonic() < deadline:
        n += 1
        if active and n % 4 == 0:
            victim = active.pop(0)
            run("forget", victim)
            report.forgotten.append(victim)
        elif active and n % 4 == 2:
            run("feedback", rng.choice(active), "confirm")
        else:
            output = run("add", note(rng, name, n), "--json")
            if output.strip():
                memory_id = json.loads(output)["id"]
                report.remembered.append(memory_id)
                active.append(memory_id)
    return report


def syncer(name: str, db: Path, seconds: float, folder: Path) -> Report:
    """The sync watcher's work: export this store's changes, import the other devices'.
    It starts once the others are busy: its first import applies a whole segment of another
    laptop's memories (a thousand events, embedded) while they write."""
    report = Report(name)
    deadline = time.monotonic() + seconds
    time.sleep(seconds / 5)
    with Memory.open(db, PASSPHRASE) as memory:
        while time.monotonic() < deadline:
            try:
                _, imported = sync_once(memory, folder)
                report.errors.extend(f"skipped {path}: {why}" for path, why in imported.skipped)
            except Exception:
                report.errors.append(traceback.format_exc(limit=-4))
            report.ops += 1
            time.sleep(1.0)
    return report


def confirmer(name: str, db: Path, seconds: float) -> Report:
    """Changes as fast as it can (feedback on one memory: no model in the loop), so that two
    of these write in the same millisecond many times."""
    report = Report(name)
    with Memory.open(db, PASSPHRASE) as memory:
        # (texts far apart: the lifecycle must not merge the two confirmers' memories)
        memory_id = memory.remember(f"{name}: {TOPICS[len(name) % len(TOPICS)]} {name * 3}").id
        report.remembered.append(memory_id)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                memory.feedback(memory_id, "confirm" if report.ops % 2 else "deny")
            except Exception:
                report.errors.append(traceback.format_exc(limit=-4))
            report.ops += 1
    return report


def main(argv: list[str]) -> None:
    role, name, db, seconds, *rest = argv
    wait_for_start()
    report: Report
    if role == "writer":
        report = writer(name, Path(db), float(seconds), json.loads(rest[0]))
    elif role == "reader":
        report = reader(name, Path(db), float(seconds))
    elif role == "cli-writer":
        report = cli_writer(name, Path(db), float(seconds))
    elif role == "confirmer":
        report = confirmer(name, Path(db), float(seconds))
    elif role == "sync":
        report = syncer(name, Path(db), float(seconds), Path(rest[0]))
    else:
        raise SystemExit(f"unknown role {role!r}")
    say(json.dumps(asdict(report)))


if __name__ == "__main__":
    main(sys.argv[1:])

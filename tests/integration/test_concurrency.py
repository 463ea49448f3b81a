"""Several processes on one store at once, as when the TUI, the MCP server, the sync watcher and
a script all have it open: writers (one of them the ``localmind`` command), readers and a sync
watcher work together for a while. No process may see "database is locked" or any other
error, no write may be lost, and the vector and keyword indexes must match the rows at the
end."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from localmind import Memory, NewMemory
from sync import export_pending, init_folder, join_folder
from tests.conftest import FAST_KDF, PASSPHRASE
from tests.workers import start_worker
from tests.workers.invariants import check_store, raw_store

pytestmark = pytest.mark.slow

# How long the processes run together; a longer soak: LOCALMIND_SOAK_SECONDS=600 pytest ...
SECONDS = float(os.environ.get("LOCALMIND_SOAK_SECONDS", "30"))
STARTUP_TIMEOUT_S = 120.0


def start(
    role: str, name: str, store: Path, *extra: str, seconds: float = SECONDS
) -> subprocess.Popen[str]:
    return start_worker("load", role, name, str(store), str(seconds), *extra)


def run_together(processes: dict[str, subprocess.Popen[str]]) -> tuple[dict[str, Any], float]:
    """Start the workers together once each has loaded its model; return their reports and
    how many process-minutes they ran."""
    for name, process in processes.items():
        assert process.stdout is not None
        line = process.stdout.readline()
        if line.strip() != "ready":
            process.kill()
            raise AssertionError(f"{name} did not start: {line}{process.communicate()[1]}")
    started = time.monotonic()
    for process in processes.values():
        assert process.stdin is not None
        process.stdin.write("go\n")
        process.stdin.flush()
    reports = {}
    for name, process in processes.items():
        stdout, stderr = process.communicate(timeout=SECONDS + STARTUP_TIMEOUT_S)
        assert process.returncode == 0, f"{name} exited {process.returncode}:\n{stderr}"
        reports[name] = json.loads(stdout.strip().splitlines()[-1])
    return reports, len(processes) * (time.monotonic() - started) / 60


def assert_no_errors(reports: dict[str, Any]) -> None:
    errors = {name: report["errors"] for name, report in reports.items() if report["errors"]}
    assert not errors, "errors reached the processes:\n" + "\n".join(
        f"--- {name}: {len(found)} errors ({sorted({e.strip().splitlines()[-1] for e in found})}),"
        f" the first:\n{found[0]}"
        for name, found in errors.items()
    )


def other_laptop(tmp_path: Path) -> tuple[Path, int]:
    """A sync folder holding one segment of another laptop's changes (1000 events: 480 new
    memories, 100 new texts and 420 other edits, in the namespace ``work``), and how many
    memories it adds."""
    folder = tmp_path / "Sync"
    with Memory.open(tmp_path / "laptop.db", PASSPHRASE, kdf=FAST_KDF, namespace="work") as laptop:
        init_folder(laptop, folder, PASSPHRASE, FAST_KDF)
        records = laptop.remember_many(
            NewMemory(f"work note {i}: the quarterly plan, item {i * 31}") for i in range(480)
        )
        for i, record in enumerate(records[:100]):
            laptop.update(record.id, content=f"work note {i}, revised: budget line {i * 7}")
        for i in range(420):
            laptop.update(records[i % 480].id, importance=round(0.5 + (i % 5) / 10, 1))
        assert export_pending(laptop, folder) == 1000
    return folder, len(records)


def test_writers_readers_and_sync_in_separate_processes_share_one_store(tmp_path: Path) -> None:
    store = tmp_path / "memory.db"
    folder, synced = other_laptop(tmp_path)
    with Memory.open(store, PASSPHRASE, kdf=FAST_KDF) as memory:
        # Stored as told: judged, the three read as one fact with changed numbers, and the
        # writers' edits of one into the other's words would settle that question by merging
        # one away (docs/design.md, "Earlier versions, continued") — this test is about
        # processes sharing a store, not about the review queue.
        facts = [NewMemory(f"shared fact number {i}") for i in range(3)]
        shared = [record.id for record in memory.remember_many(facts, check=False)]
        join_folder(memory, folder, PASSPHRASE)
    processes = {
        "writer-1": start("writer", "writer-1", store, json.dumps(shared)),
        "writer-2": start("writer", "writer-2", store, json.dumps(shared)),
        "cli-writer": start("cli-writer", "cli-writer", store),
        "reader-1": start("reader", "reader-1", store),
        "reader-2": start("reader", "reader-2", store),
        "sync": start("sync", "sync", store, str(folder)),
    }
    reports, held_minutes = run_together(processes)

    assert_no_errors(reports)
    summary = check_store(store)
    with raw_store(store) as db:
        status = dict(db.execute("SELECT id, status FROM memories").fetchall())
        versions = dict(db.execute("SELECT id, version FROM memories").fetchall())
        arrived = db.execute(
            "SELECT count(*) FROM memories WHERE namespace = 'work' AND status = 'active'"
        ).fetchone()[0]
    assert arrived == synced, "the other laptop's memories did not all arrive"
    for name, report in reports.items():
        forgotten = set(report["forgotten"])
        for memory_id in report["remembered"]:
            expected = "deleted" if memory_id in forgotten else "active"
            assert status.get(memory_id) == expected, f"{name}'s {memory_id}: lost write"
    # Every new text a writer gave a shared memory is one version: none overwritten unseen.
    for memory_id in shared:
        updates = sum(r["content_updates"].get(memory_id, 0) for r in reports.values())
        assert versions[memory_id] == 1 + updates, f"{memory_id}: content updates lost"
    ops = {name: report["ops"] for name, report in reports.items()}
    assert all(count > 0 for count in ops.values()), ops
    print(
        f"\n{len(processes)} processes for {held_minutes:.2f} process-minutes, ops {ops}, "
        f"{summary.active} active memories, {summary.events} events: no error, nothing lost"
    )


def test_processes_writing_in_the_same_millisecond_never_share_a_stamp(tmp_path: Path) -> None:
    """Every process with the store open stamps events with the store's one device id: each
    must move past the others' stamps, or another device would take the second event of a
    shared stamp for one it already has, and never apply it."""
    store = tmp_path / "memory.db"
    Memory.open(store, PASSPHRASE, kdf=FAST_KDF).close()
    processes = {name: start("confirmer", name, store, seconds=4.0) for name in ("one", "three")}
    reports, _ = run_together(processes)
    assert_no_errors(reports)
    check_store(store)  # which asserts that no stamp is there twice
    with raw_store(store) as db:
        logged = dict(
            db.execute("SELECT memory_id, count(*) FROM events GROUP BY memory_id").fetchall()
        )
    for report in reports.values():
        (memory_id,) = report["remembered"]
        assert logged[memory_id] == 1 + report["ops"]  # its add, then one update per feedback

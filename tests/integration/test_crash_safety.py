"""Crash safety: a process writing to the store is killed (SIGKILL, no chance to clean up) at
random points of a large import and of a sync import, many times. After every kill the store
opens, SQLite and FTS5 find it whole, and every memory is all there (row, vector, sign bits,
keyword entry, event) or not there at all; what the killed process saw committed is kept; a
sync import, resumed after any number of kills, ends exactly where an uninterrupted one does.

The seed of the random kill points is in every failure message; set LOCALMIND_CRASH_SEED to
replay it.
"""

from __future__ import annotations

import json
import os
import queue
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import pytest

from localmind import Memory, Status
from localmind.memory import EMBED_BATCH, NewMemory
from sync import codec, import_new, init_folder, join_folder
from sync import folder as sync_folder
from sync.folder_transport import FolderTransport
from tests.conftest import FAST_KDF, PASSPHRASE
from tests.ollama_server import unused_port_host
from tests.workers.crash import TOPICS, items
from tests.workers.invariants import StoreSummary, check_store, raw_store

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
SEED = int(os.environ.get("LOCALMIND_CRASH_SEED") or random.SystemRandom().getrandbits(32))

REMEMBER_KILLS = 14
CLI_IMPORT_KILLS = 4
SYNC_KILLS = 14
IMPORT_SIZE = 1000  # memories per import: 16 batches of EMBED_BATCH
STARTUP_TIMEOUT_S = 120.0


# --- running and killing a child --------------------------------------------------------------


class Child:
    """A child process whose stdout and stderr lines are collected as they come."""

    def __init__(self, *args: str, env: dict[str, str] | None = None) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", *args],
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.lines: queue.Queue[tuple[str, str]] = queue.Queue()
        self.ran_for = 0.0
        self.stdout: list[str] = []
        self.stderr: list[str] = []
        self._readers = [
            threading.Thread(target=self._read, args=(name, stream), daemon=True)
            for name, stream in (("stdout", self.process.stdout), ("stderr", self.process.stderr))
        ]
        for reader in self._readers:
            reader.start()

    def _read(self, name: str, stream: IO[str] | None) -> None:
        assert stream is not None
        for line in stream:
            (self.stdout if name == "stdout" else self.stderr).append(line.rstrip("\n"))
            self.lines.put((name, line))
        self.lines.put((name, ""))  # end of stream

    def wait_for(self, stream: str, text: str) -> None:
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        ended = set()
        while len(ended) < 2:
            name, line = self.lines.get(timeout=max(0.1, deadline - time.monotonic()))
            if not line:
                ended.add(name)
            elif name == stream and text in line:
                return
        self.process.wait()
        raise AssertionError(f"the child ended before saying {text!r}:\n{self.output()}")

    def go(self, store: Path) -> None:
        """Let a worker that said ``ready`` open ``store`` and start writing."""
        self.wait_for("stdout", "ready")
        assert self.process.stdin is not None
        self.process.stdin.write(f"{store}\n")
        self.process.stdin.flush()
        self.wait_for("stdout", "started")

    def kill_after(self, delay: float) -> bool:
        """SIGKILL after ``delay`` seconds; False when it had already finished by itself (then
        ``ran_for`` says how long it took)."""
        started = time.monotonic()
        try:
            self.process.wait(timeout=delay)
            self.ran_for = time.monotonic() - started
        except subprocess.TimeoutExpired:
            os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait()
        for reader in self._readers:
            reader.join()
        return self.process.returncode == -signal.SIGKILL

    def output(self) -> str:
        return "\n".join(self.stdout + self.stderr)


@dataclass
class Tally:
    """Kills, and the window the random kill points are drawn from: it shrinks to the length
    of any run that finished first, so a fast machine still kills most runs midway."""

    window: float
    kills: int = 0
    finished: int = 0  # runs that ended by themselves before their kill point
    log: list[str] = field(default_factory=list)

    def kill_point(self, rng: random.Random) -> float:
        return rng.uniform(0.0, self.window)

    def count(self, child: Child, killed: bool, *, whole_run: bool = True) -> None:
        self.kills += killed
        self.finished += not killed
        if not killed and whole_run:
            self.window = min(self.window, child.ran_for)


@contextmanager
def trial(scenario: str, number: int, delay: float) -> Iterator[None]:
    """Failures inside name the seed and the kill point, so the run can be replayed."""
    try:
        yield
    except AssertionError as error:
        raise AssertionError(
            f"{scenario} trial {number} (LOCALMIND_CRASH_SEED={SEED}, killed {delay:.3f} s "
            f"after it started): {error}"
        ) from error


def reopens(path: Path, summary: StoreSummary) -> None:
    """The store opens through the library and serves what the tables hold."""
    with Memory.open(path, PASSPHRASE) as memory:
        assert memory.count() == summary.active


def contents_like(path: Path, pattern: str) -> set[str]:
    with raw_store(path) as db:
        rows = db.execute("SELECT content FROM memories WHERE content LIKE ?", (pattern,))
        return {content for (content,) in rows}


def batch_prefixes(contents: list[str]) -> list[set[str]]:
    """The distinct contents of the first 0, 1, 2, ... batches of an import."""
    prefixes, seen = [set()], set()
    for start in range(0, len(contents), EMBED_BATCH):
        seen |= set(contents[start : start + EMBED_BATCH])
        prefixes.append(set(seen))
    return prefixes


# --- a large import ---------------------------------------------------------------------------


@pytest.fixture
def store(tmp_path: Path) -> Path:
    path = tmp_path / "memory.db"
    Memory.open(path, PASSPHRASE, kdf=FAST_KDF).close()
    return path


def test_killing_a_large_import_loses_nothing_it_committed_and_leaves_no_half_memory(
    store: Path,
) -> None:
    rng = random.Random(SEED)
    tally = Tally(window=2.5)

    def worker(number: int) -> Child:
        return Child("tests.workers.crash", "remember", f"run{number}", str(IMPORT_SIZE))

    following = worker(0)
    for number in range(REMEMBER_KILLS):
        prefix = f"run{number}"
        delay = tally.kill_point(rng)
        child = following
        child.go(store)
        killed = child.kill_after(delay)
        # The next worker loads its model while this kill is checked.
        following = worker(number + 1)
        with trial("remember_many", number, delay):
            if not killed:
                assert child.process.returncode == 0, child.output()
            committed = [
                json.loads(line.removeprefix("committed "))
                for line in child.stdout
                if line.startswith("committed ")
            ]
            summary = check_store(store)
            reopens(store, summary)
            with raw_store(store) as db:
                for ids in committed:
                    for memory_id in ids:
                        row = db.execute(
                            "SELECT status FROM memories WHERE id = ?", (memory_id,)
                        ).fetchone()
                        # Active, or archived by the capacity limit (500) in a later batch.
                        assert row in (("active",), ("expired",)), f"{memory_id} is {row}"
            # Batches commit whole and in order: what is there is the first j batches, j the
            # batches the child reported or one more (committed, killed before it could say).
            present = contents_like(store, f"{prefix} item %")
            prefixes = batch_prefixes([item.content for item in items(prefix, IMPORT_SIZE)])
            allowed = prefixes[len(committed) : len(committed) + 2]
            assert present in allowed, (
                f"{len(present)} memories of the import are present; after {len(committed)} "
                f"committed batches there may be {[len(p) for p in allowed]}"
            )
        tally.count(child, killed)
    following.process.kill()
    following.process.wait()
    print(
        f"\nremember_many (seed {SEED}): {tally.kills} kills survived, "
        f"{tally.finished} runs finished first"
    )
    assert tally.kills >= REMEMBER_KILLS // 2, f"seed {SEED}: too few runs were cut short"


def test_killing_the_cli_import_leaves_all_of_it_or_nothing(store: Path, tmp_path: Path) -> None:
    rng = random.Random(SEED + 1)
    tally = Tally(window=4.0)  # the model loads inside the import
    env = {
        "LOCALMIND_DB": str(store),
        "LOCALMIND_PASSPHRASE": PASSPHRASE,
        "LOCALMIND_NO_LLM": "1",
        "OLLAMA_HOST": unused_port_host(),
    }
    for number in range(CLI_IMPORT_KILLS):
        lines = [item.content for item in items(f"cli{number}", IMPORT_SIZE)]
        source = tmp_path / f"import{number}.txt"
        source.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        delay = tally.kill_point(rng)
        # 1000 lines over the capacity of 500: archiving is allowed, as a person would say
        child = Child("localmind", "import", "--allow-evict", str(source), env=env)
        child.wait_for("stderr", "Importing")
        killed = child.kill_after(delay)
        with trial("cli import", number, delay):
            if not killed:
                assert child.process.returncode == 0, child.output()
                # every 16th line repeats an earlier one: it reinforces, and the summary says so
                repeats = IMPORT_SIZE - len(set(lines))
                assert f"Imported {IMPORT_SIZE - repeats} memories" in child.output()
                assert f"{repeats} already present (same text)" in child.output()
            summary = check_store(store)
            reopens(store, summary)
            present = contents_like(store, f"cli{number} item %")
            # One transaction (Memory.all_or_nothing): the whole file or none of it.
            assert present in (set(), set(lines)), (
                f"{len(present)} of the file's {len(set(lines))} lines are present"
            )
        tally.count(child, killed)
    print(
        f"\ncli import (seed {SEED}): {tally.kills} kills survived, "
        f"{tally.finished} runs finished first"
    )
    assert tally.kills >= CLI_IMPORT_KILLS // 2, f"seed {SEED}: too few runs were cut short"


# --- a sync import ----------------------------------------------------------------------------


@dataclass(frozen=True)
class SyncSource:
    folder: Path
    device_id: str
    segments: dict[int, set[str]]  # segment number → the stamps of its events
    template: Path  # an empty store that has joined the folder
    reference: dict[str, Any]  # a copy of the template after one uninterrupted import


def copy_store(source: Path, target: Path) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    for file in source.parent.glob(source.name + "*"):
        shutil.copyfile(file, target.parent / file.name.replace(source.name, target.name, 1))
    return target


def state(path: Path) -> dict[str, Any]:
    """Everything an import writes: memories, history, events and the sync cursor."""
    with raw_store(path) as db:
        return {
            "memories": db.execute(
                "SELECT id, namespace, content, type, metadata, importance, confidence, "
                "created_at, updated_at, expires_at, version, status, pinned, content_hash, hlc "
                "FROM memories ORDER BY id"
            ).fetchall(),
            "versions": db.execute(
                "SELECT memory_id, version, content, reason, at FROM memory_versions "
                "ORDER BY memory_id, version"
            ).fetchall(),
            "events": db.execute(
                "SELECT hlc, device_id, namespace, memory_id, op, payload, reason, at FROM events "
                "WHERE op IN ('add', 'update', 'forget') ORDER BY hlc"
            ).fetchall(),
            # The notes judging the arrivals writes (later versions, conflicts: sync9) are
            # this laptop's own, stamped by its clock when written: each exactly once, with
            # the same content, but their stamps differ from run to run.
            "notes": sorted(
                db.execute(
                    "SELECT namespace, memory_id, op, payload, reason FROM events "
                    "WHERE op NOT IN ('add', 'update', 'forget')"
                ).fetchall()
            ),
            "vectors": db.execute("SELECT count(*) FROM memory_vec").fetchall(),
            "cursor": db.execute(
                "SELECT key, value FROM meta WHERE key LIKE 'sync.cursor.%' "
                "OR key LIKE 'sync.done.%' ORDER BY key"
            ).fetchall(),
        }


@pytest.fixture(scope="module")
def sync_source(tmp_path_factory: pytest.TempPathFactory) -> SyncSource:
    """A device that wrote ~2300 events (adds, edits, new versions, feedback, forgets) into a
    sync folder, in segments of 250 events."""
    root = tmp_path_factory.mktemp("sync")
    folder = root / "Sync"
    with Memory.open(root / "laptop.db", PASSPHRASE, kdf=FAST_KDF) as laptop:
        init_folder(laptop, folder, PASSPHRASE, FAST_KDF)
        records = laptop.remember_many(
            NewMemory(f"synced note {i} about {TOPICS[i % len(TOPICS)]}, number {i * 104729}")
            for i in range(1200)
        )
        for i, record in enumerate(records):
            if i % 2 == 0:
                laptop.update(record.id, importance=0.3 + (i % 7) / 10)
            if i % 10 == 1:
                laptop.update(record.id, content=f"synced note {i}, revised: {TOPICS[i % 3]}")
            # Capacity (500) archived the oldest: feedback is for active memories only.
            if i % 5 == 2 and laptop.get(record.id).status is Status.ACTIVE:
                laptop.feedback(record.id, "confirm")
            if i % 10 == 3:
                laptop.forget(record.id)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(sync_folder, "SEGMENT_EVENTS", 250)
            assert sync_folder.export_pending(laptop, folder) > 2000
        device_id = laptop.device_id
        key = sync_folder.sync_key(laptop)
    directory = folder / device_id
    segments = {
        number: {
            event.hlc
            for event in codec.unseal(
                key, device_id, number, (directory / codec.segment_name(number)).read_bytes()
            )
        }
        for number in sync_folder.segment_numbers(FolderTransport(folder), device_id)
    }
    template = root / "template" / "desktop.db"
    with Memory.open(template, PASSPHRASE, kdf=FAST_KDF) as desktop:
        join_folder(desktop, folder, PASSPHRASE)
    reference = copy_store(template, root / "reference" / "desktop.db")
    with Memory.open(reference, PASSPHRASE) as desktop:
        report = import_new(desktop, folder)
    assert report.segments == len(segments) >= 9 and not report.skipped
    return SyncSource(folder, device_id, segments, template, state(reference))


def applied_segments(meta: dict[str, str], source: SyncSource) -> set[int]:
    """The segments of ``source`` that a store's sync cursor (its ``meta``) counts as applied."""
    cursor = int(meta.get(f"sync.cursor.{source.device_id}", 0))
    done = set(json.loads(meta.get(f"sync.done.{source.device_id}", "[]")))
    return {n for n in source.segments if n <= cursor or n in done}


def check_cursor(path: Path, source: SyncSource) -> set[int]:
    """Segments the cursor counts as applied have every event here; the others none (the
    cursor moves in the transaction that applies a segment). Returns the applied ones."""
    with raw_store(path) as db:
        stamps = {hlc for (hlc,) in db.execute("SELECT hlc FROM events")}
        meta = dict(db.execute("SELECT key, value FROM meta WHERE key LIKE 'sync.%'").fetchall())
    applied = applied_segments(meta, source)
    for number, segment in source.segments.items():
        here = segment & stamps
        if number in applied:
            assert here == segment, f"segment {number} counted as applied lacks events"
        else:
            assert not here, f"segment {number} not counted as applied has {len(here)} events"
    return applied


def test_killing_a_sync_import_never_skips_or_repeats_a_segment(
    sync_source: SyncSource, tmp_path: Path
) -> None:
    rng = random.Random(SEED + 2)
    tally = Tally(window=4.0)
    rounds = 0
    store = copy_store(sync_source.template, tmp_path / "round0" / "desktop.db")

    def worker() -> Child:
        return Child("tests.workers.crash", "sync", str(sync_source.folder))

    following = worker()
    fresh = True  # the store has applied nothing yet: this run imports the whole folder
    for number in range(SYNC_KILLS):
        delay = tally.kill_point(rng)
        child = following
        child.go(store)
        killed = child.kill_after(delay)
        following = worker()
        with trial("sync import", number, delay):
            summary = check_store(store)
            reopens(store, summary)
            applied = check_cursor(store, sync_source)
            said = [line for line in child.stdout if line.startswith("applied ")]
            if said:  # what the child saw committed is still there
                committed = json.loads(said[-1].removeprefix("applied "))
                assert applied_segments(committed, sync_source) <= applied
            tally.log.append(f"{len(applied)}/{len(sync_source.segments)}(+{len(said)})")
            if not killed:  # the import ran to its end: it must equal the uninterrupted one
                assert child.process.returncode == 0, child.output()
                assert state(store) == sync_source.reference
                rounds += 1
                store = copy_store(sync_source.template, tmp_path / f"round{rounds}" / "d.db")
        tally.count(child, killed, whole_run=fresh)
        fresh = not killed
    following.process.kill()
    following.process.wait()
    with Memory.open(store, PASSPHRASE) as desktop:  # resume the last, interrupted round
        import_new(desktop, sync_source.folder)
    check_store(store)
    assert state(store) == sync_source.reference, f"seed {SEED}: resumed import differs"
    print(
        f"\nsync import (seed {SEED}): {tally.kills} kills survived, {tally.finished} imports "
        f"finished; segments applied at each kill (+ by that run): {' '.join(tally.log)}"
    )
    assert tally.kills >= SYNC_KILLS // 2, f"seed {SEED}: too few imports were cut short"

"""How long another program's ``localmind add`` waits while a long write runs:
``python -m bench import-wait --lines 5000 [--way import|remember-many|export-import|sync]``.

The long write (``--way``): ``import``, a real ``localmind import`` of the lines;
``remember-many``, a Python process calling ``Memory.remember_many`` with them (the API);
``export-import``, a real ``localmind import`` of an export (``localmind export``) of a store
that holds the lines (restored, then judged against the store); ``sync``, a Python process
importing the sync events of a laptop that holds the lines (``sync.folder.import_new``: each
arrival embedded and judged, at most ``arrivals.MAX_JUDGED``). The source store, the export
and the sync folder are made before the timing starts.

Synthetic memories (:mod:`bench.synthetic`, as facts, so every line is judged) are written to
a JSON-lines file and imported by a real ``localmind import`` process into a store of one
memory; meanwhile this process runs ``localmind add`` after ``localmind add``, each a new
process, until the import ends. Reported: the import's own summary and time, and each add's
start (seconds after the import started), wall time and outcome. An add that waits for the
write lock longer than the busy timeout (10 s) fails as busy. The synthetic lines are built
from templates, so they are much alike: most are queued for review (the worst case).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import synthetic
from localmind.writing import NewMemory

PASSPHRASE = "import-wait-bench"
WAYS = ("import", "remember-many", "export-import", "sync")


def _localmind(db: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "localmind", "--db", str(db), *args]
    return subprocess.run(command, env=env, capture_output=True, text=True, check=False)


def run(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="bench-import-wait-") as folder:
        directory = Path(folder)
        env = dict(
            os.environ,
            LOCALMIND_PASSPHRASE=PASSPHRASE,
            LOCALMIND_UNSAFE_TEST_KDF="1",  # a cheap KDF: the bench measures the lock
            LOCALMIND_NO_LLM="1",
            LOCALMIND_CONFIG=str(directory / "localmind.toml"),
        )
        db = directory / "memory.db"
        _localmind(db, env, "add", "I live in Berlin")
        _localmind(db, env, "config", "capacity", str(args.lines + 1000))
        source = directory / "lines.jsonl"
        lines = [
            json.dumps({"content": m.content, "type": "semantic"}, ensure_ascii=False) + "\n"
            for m in synthetic.memories(args.lines)
        ]
        source.write_text("".join(lines), encoding="utf-8")
        command = _long_write(args.way, db, source, directory, env)
        stop = directory / "stop"
        adder = None
        if args.adder == "loop":  # one process, its model loaded before the write starts
            adder = subprocess.Popen(
                [sys.executable, "-m", "bench.import_wait", "adder", str(db), str(stop)],
                env=env,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            assert adder.stdout is not None and adder.stdin is not None
            assert adder.stdout.readline().strip() == "ready"
        started = time.perf_counter()
        importing = subprocess.Popen(
            command, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
        )
        adds: list[tuple[float, float, bool]] = []
        if adder is not None:
            assert adder.stdin is not None
            adder.stdin.write(f"{time.time() - (time.perf_counter() - started)}\n")
            adder.stdin.flush()
            importing.wait()
            stop.touch()
            adds = [tuple(add) for add in json.loads(adder.communicate()[0])]  # type: ignore[misc]
        while importing.poll() is None:
            at = time.perf_counter()
            told = _localmind(db, env, "add", f"I watered the plants ({len(adds) + 1})")
            adds.append((at - started, time.perf_counter() - at, told.returncode == 0))
        summary = (importing.communicate()[0] or "").strip()
        print(f"{args.way} of {args.lines} lines: {time.perf_counter() - started:.1f} s wall")
        print(f"  {summary}")
        for at, wall, ok in adds:
            print(f"  add at {at:6.1f} s: {wall:5.1f} s, {'ok' if ok else 'failed (busy)'}")
        failed = sum(not ok for _, _, ok in adds)
        print(f"{len(adds)} adds meanwhile, {failed} failed as busy")
        if adds:
            walls = sorted(wall for _, wall, _ in adds)
            each = (
                "each a new process, start-up included"
                if adder is None
                else "each Memory.remember in one process, its model loaded"
            )
            print(
                f"add wall ({each}): median {statistics.median(walls):.2f} s, "
                f"worst {walls[-1]:.2f} s"
            )
    return 0


def _long_write(
    way: str, db: Path, source: Path, directory: Path, env: dict[str, str]
) -> list[str]:
    """The command that writes ``source``'s lines into ``db`` the ``way`` asked for (what it
    needs made first is made here, untimed)."""
    if way == "import":
        return [sys.executable, "-m", "localmind", "--db", str(db), "import", str(source)]
    if way == "remember-many":
        return [sys.executable, "-m", "bench.import_wait", "remember-many", str(db), str(source)]
    holder = directory / "holder.db"  # another store (laptop) that holds the lines
    subprocess.run(
        [sys.executable, "-m", "bench.import_wait", "hold", str(holder), str(source)],
        env=env,
        check=True,
    )
    if way == "export-import":
        exported = directory / "export.jsonl"
        _localmind(holder, env, "export", "-o", str(exported)).check_returncode()
        return [sys.executable, "-m", "localmind", "--db", str(db), "import", str(exported)]
    folder = directory / "sync"
    subprocess.run(
        [sys.executable, "-m", "bench.import_wait", "share", str(holder), str(db), str(folder)],
        env=env,
        check=True,
    )
    return [sys.executable, "-m", "bench.import_wait", "sync", str(db), str(folder)]


def _lines(source: Path) -> list[NewMemory]:
    return [
        NewMemory(line["content"], line["type"])
        for line in map(json.loads, source.read_text(encoding="utf-8").splitlines())
    ]


def _writer(way: str, *paths: str) -> None:
    """The long write's own process (and the untimed steps before it)."""
    from localmind import Memory
    from sync.folder import export_pending, import_new, init_folder, join_folder

    if way == "remember-many":
        with Memory.open(paths[0], PASSPHRASE) as memory:
            batch = memory.remember_many_explained(_lines(Path(paths[1])))
        print(f"remembered {len(batch.records)}: queued {batch.queued}, merged {batch.merged}")
    elif way == "hold":  # a store of the lines, written as they are (quick: nothing judged)
        with Memory.open(paths[0], PASSPHRASE, create=True) as memory:
            memory.configure("capacity", "unlimited")
            memory.remember_many(_lines(Path(paths[1])), check=False)
    elif way == "share":  # the holder's events in a sync folder the store has joined
        with Memory.open(paths[0], PASSPHRASE) as holder, Memory.open(paths[1], PASSPHRASE) as db:
            init_folder(holder, paths[2], PASSPHRASE)
            export_pending(holder, paths[2])
            join_folder(db, paths[2], PASSPHRASE)
    elif way == "adder":  # Memory.remember after Memory.remember until told to stop
        from localmind.errors import LocalmindError
        from localmind.store.connection import BUSY_ERRORS

        adds: list[tuple[float, float, bool]] = []
        with Memory.open(paths[0], PASSPHRASE) as memory:
            memory.remember("I water the plants on Sundays")  # (the model loaded)
            print("ready", flush=True)
            started = float(sys.stdin.readline())  # the write's start, on the wall clock
            while not Path(paths[1]).exists():
                at = time.time()
                try:
                    memory.remember(f"I watered the plants ({len(adds) + 1})")
                    ok = True
                except (LocalmindError, *BUSY_ERRORS):
                    ok = False
                adds.append((at - started, time.time() - at, ok))
        print(json.dumps(adds))
    elif way == "sync":
        with Memory.open(paths[0], PASSPHRASE) as memory:
            report = import_new(memory, paths[1])
        print(f"imported {report.events} events")


if __name__ == "__main__":
    _writer(*sys.argv[1:])

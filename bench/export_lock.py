"""How long an export's import holds the write lock: ``python -m bench export-lock``.

Dev personal sets only (never a held-out set): the store of ``--exported`` (each set's memories
told one by one as facts, judged: it carries a review queue) is exported, then imported into a
store of ``--into``, twice from the same files: its memories judged under the write lock (as
before polish13) and judged before it (``Memory.judge_restored_ahead``), each in one
``all_or_nothing`` as ``localmind import`` does, the vectors prepared first either way. Reported:
CPU seconds judging ahead (no lock held) and with the lock held (restore, the export's queue,
judging), and whether the two leave the same pending conflicts and later-version notes.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from pathlib import Path

from bench.stores import BENCH_KDF
from localmind import Memory, NewMemory
from localmind.importing import read_lines
from localmind.transfer import Restorable, carried_document, to_document

DATA = Path(__file__).resolve().parent / "data"
PASSPHRASE = "bench export lock"


def _facts(names: list[str]) -> list[NewMemory]:
    items = []
    for name in names:
        with open(DATA / name / "memories.jsonl", encoding="utf-8") as lines:
            items += [NewMemory(json.loads(line)["text"], "semantic") for line in lines if line]
    return items


def _export_lines(path: Path, names: list[str]) -> list[str]:
    with Memory.open(path, PASSPHRASE, kdf=BENCH_KDF) as source:
        source.remember_many(_facts(names))
        entries = list(source.export())
        conflicts, notes = source.waiting([record.id for record, _ in entries])
    documents = [to_document(r, h) for r, h in entries]
    documents += [carried_document(item) for item in [*conflicts, *notes]]
    return [json.dumps(document, ensure_ascii=False) for document in documents]


def _queue(memory: Memory) -> list[tuple[str, ...]]:
    ids = [record.id for record, _ in memory.export()]
    conflicts, notes = memory.waiting(ids)
    return sorted(
        [("conflict", c.existing_id, c.candidate_id, c.reason) for c in conflicts]
        + [("note", n.earlier_id, n.later_id) for n in notes]
    )


def run(args: argparse.Namespace) -> int:
    exported, into = args.exported.split(","), args.into.split(",")
    with tempfile.TemporaryDirectory(prefix="export-lock-") as folder:
        root = Path(folder)
        lines = _export_lines(root / "source.db", exported)
        items = [item for _, item in read_lines(lines, jsonl=True, default_type="semantic")]
        restorable = [item for item in items if isinstance(item, Restorable)]
        carried = [item for item in items if not isinstance(item, Restorable)]
        spoken = {item.record.id for item in restorable if item.carries_queue}
        with Memory.open(root / "target.db", PASSPHRASE, kdf=BENCH_KDF) as target:
            target.remember_many(_facts(into))
        for path in root.glob("target.db*"):
            shutil.copy(path, root / path.name.replace("target.db", "ahead.db"))
        print(f"{len(restorable)} exported memories ({args.exported}) into {args.into}")
        queues = []
        for name, ahead in (("target.db", False), ("ahead.db", True)):
            with Memory.open(root / name, PASSPHRASE, kdf=BENCH_KDF) as memory:
                contents = [NewMemory(i.record.content, i.record.type) for i in restorable]
                memory.prepare(contents, check=False)
                started = time.process_time()
                plan = memory.judge_restored_ahead(restorable, carried) if ahead else None
                deciding = time.process_time() - started
                with memory.all_or_nothing():
                    started = time.process_time()
                    if plan is not None:
                        memory.check_ahead(plan)
                    report = memory.restore(restorable)
                    memory.restore_waiting(carried)
                    queued = memory.judge_restored(report.written, spoken, plan)
                    locked = time.process_time() - started
                queues.append(_queue(memory))
            way = "judged before the lock" if ahead else "judged under the lock"
            print(
                f"  {way:24} ahead {deciding:5.2f} s CPU, lock held {locked:5.2f} s CPU, "
                f"{queued} conflicts queued, {len(queues[-1])} conflicts and notes in all"
            )
        print(f"  same conflicts and notes: {queues[0] == queues[1]}")
    return 0 if queues[0] == queues[1] else 1

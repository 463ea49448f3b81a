"""Why a real update is not queued, and a fast replay of the queue's rules:
``python -m bench.queue_replay dump FILE`` then ``python -m bench.queue_replay replay FILE``.

``dump`` embeds every text of the labelled pair files and of the personal sets once (bundled
USE-m3) and writes, per pair, its cosine and, per personal memory, its nearest earlier memories
(cosine ≥ the conflict threshold, as ``Lifecycle.neighbours`` finds them: exact cosine, up to
``SUCCESSOR_NEIGHBOURS``). ``replay`` then runs what :meth:`Lifecycle.propose` decides without
an LLM — the sameness guard, :func:`localmind.suspicion.suspect`, a change already waiting —
on those neighbours, in seconds instead of the minutes of ``python -m bench hygiene``, and
classifies every missed update by the rule that stops it (``--misses``) and every compatible
memory queued (``--false``). It assumes what the hygiene run shows on these sets: no memory of a
personal set merges (no restatement does; a merge would change later neighbours), so its store
holds every earlier memory. ``python -m bench hygiene`` stays the measure; this is for finding
causes and iterating.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from bench import hygiene
from localmind.config import LifecycleConfig
from localmind.lifecycle import NEIGHBOURS, SUCCESSOR_NEIGHBOURS, newest_change
from localmind.sameness import compare
from localmind.statement import read
from localmind.suspicion import changes_more_than, suspect

PAIR_FILES = {
    "memory_pairs": hygiene.MEMORY_PAIRS,
    "queue_pairs": hygiene.QUEUE_PAIRS,
    "hygiene_pairs": hygiene.HYGIENE_PAIRS,
    "hygiene_pairs_cross": hygiene.CROSS_PAIRS,
}
PERSONAL_SETS = ("personal", "personal2")
CONFIG = LifecycleConfig()


def _embed(texts: list[str]) -> np.ndarray:
    from localmind.embedders.use import UseEmbedder

    unique = list(dict.fromkeys(texts))
    vectors = UseEmbedder().embed_documents(unique)
    index = {text: row for row, text in enumerate(unique)}
    return np.stack([vectors[index[text]] for text in texts])


def dump(out: Path, sets: Sequence[str] = PERSONAL_SETS) -> None:
    data: dict[str, Any] = {"pairs": {}, "personal": {}}
    for name, path in PAIR_FILES.items():
        if not path.exists():
            continue
        labelled = name in ("memory_pairs", "queue_pairs")
        read_pairs = hygiene.memory_pairs if labelled else hygiene.hygiene_pairs
        cases = read_pairs(path)
        old = _embed([case.old for case in cases])
        new = _embed([case.new for case in cases])
        cosines = np.einsum("ij,ij->i", old, new)
        data["pairs"][name] = [
            {"old": c.old, "new": c.new, "kind": c.kind, "lang": c.lang, "cosine": float(s)}
            for c, s in zip(cases, cosines, strict=True)
        ]
    from bench.personal import SETS

    for name in sets:
        items = SETS[name].memories()
        vectors = _embed([item.text for item in items])
        rows = []
        for position, item in enumerate(items):
            cosines = vectors[:position] @ vectors[position] if position else np.zeros(0)
            order = np.argsort(-cosines, kind="stable")[:SUCCESSOR_NEIGHBOURS]
            near = [
                [items[i].id, float(cosines[i])]
                for i in order
                if cosines[i] >= CONFIG.conflict_threshold
            ]
            rows.append(
                {
                    "id": item.id,
                    "lang": item.lang,
                    "text": item.text,
                    "updates": item.updates,
                    "restates": item.restates,
                    "near": near,
                }
            )
        data["personal"][name] = rows
    out.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


@dataclass(frozen=True, slots=True)
class Decided:
    decision: str  # merged / queued / inserted
    why: str
    neighbour: str | None = None


def decide(text: str, near: list[tuple[str, str, float]], waiting: set[tuple[str, str]]) -> Decided:
    """:meth:`Lifecycle.propose` without a model: ``near`` is (id, text, cosine), nearest
    first; ``waiting`` the (older, newer) pairs queued so far."""
    near = near[:NEIGHBOURS]
    for memory_id, old, cosine in near:
        if cosine < CONFIG.merge_threshold:
            break
        if compare(old, text, cosine).same:
            return Decided("merged", "restates it", memory_id)
    close = {memory_id for memory_id, _, cosine in near if cosine >= CONFIG.merge_threshold}
    texts = {memory_id: old for memory_id, old, _ in near}
    for memory_id, old, _ in _current_version_first(near, text, waiting):
        suspicion = suspect(old, text)
        if not suspicion.contradicts:
            continue
        told_again = any(
            earlier == memory_id
            and newer in close
            and not suspect(texts[newer], text).contradicts
            and not changes_more_than(old, texts[newer], text)
            for earlier, newer in waiting
        )
        if told_again:
            continue
        return Decided("queued", suspicion.why, memory_id)
    return Decided("inserted", "compatible")


def _current_version_first(
    near: list[tuple[str, str, float]], text: str, waiting: set[tuple[str, str]]
) -> list[tuple[str, str, float]]:
    """As ``Lifecycle._current_version_first``: the first suspect neighbour's newest change
    waiting for review, when ``text`` is suspect against it too, comes first."""
    suspects = [n for n in near if suspect(n[1], text).contradicts]
    if len(suspects) < 2:
        return near
    by_id = {n[0]: n for n in suspects}
    later: dict[str, list[str]] = {}
    for earlier, newer in waiting:
        if (
            earlier in by_id
            and newer in by_id
            and not changes_more_than(by_id[earlier][1], by_id[newer][1], text)
        ):
            later.setdefault(earlier, []).append(newer)
    current = newest_change(suspects[0][0], later, _added_order)
    if current == suspects[0][0]:
        return near
    return [by_id[current], *(n for n in near if n[0] != current)]


def _added_order(memory_id: str) -> float:
    """A personal set's ids sort by when each memory was added: m001, m002 …"""
    digits = "".join(c for c in memory_id if c.isdigit())
    return float(digits) if digits else 0.0


def _miss_cause(item: dict[str, Any], by_id: dict[str, dict[str, Any]]) -> str:
    """The rule that keeps an update out of the queue, as one of a few kinds."""
    old_id = item["updates"]
    cosines = {memory_id: cosine for memory_id, cosine in item["near"]}
    if old_id not in cosines:
        return "cosine below 0.35"
    if list(cosines).index(old_id) >= NEIGHBOURS:
        return "not among the 5 nearest"
    old = by_id[old_id]
    if old["lang"] != item["lang"]:
        return "other language"
    why = suspect(old["text"], item["text"]).why
    if why.startswith("about someone else"):
        return "subject differs"
    a, b = read(old["text"]), read(item["text"])
    if a.single_slots & b.single_slots:
        return "shared slot, value rule"
    if b.cues:
        return "cue, nothing shared enough"
    if a.slots & b.slots:
        return "shared topic slot, no cue"
    return "no shared slot, no cue"


def replay(path: Path, show_misses: bool, show_false: bool) -> int:
    data = json.loads(path.read_text(encoding="utf-8"))
    rows: list[list[str]] = []
    for name, cases in data["pairs"].items():
        counts, queued, merged, wrong = Counter[str](), Counter[str](), Counter[str](), 0
        for case in cases:
            counts[case["kind"]] += 1
            if case["cosine"] < CONFIG.conflict_threshold:
                continue
            got = decide(case["new"], [("old", case["old"], case["cosine"])], set())
            if got.decision == "merged":
                merged[case["kind"]] += 1
                wrong += case["kind"] != hygiene.SAME
            if got.decision == "queued":
                queued[case["kind"]] += 1
            elif show_misses and case["kind"] == hygiene.UPDATE:
                print(f"MISS {name} ({case['cosine']:.2f})\n  {case['old']}\n  {case['new']}")
            if show_false and got.decision == "queued" and case["kind"] == hygiene.COMPATIBLE:
                print(f"FALSE {name} [{got.why}]\n  {case['old']}\n  {case['new']}")
        rows.append(_row(name, counts, merged, queued, wrong, queued[hygiene.UPDATE]))
    for name, items in data["personal"].items():
        by_id = {item["id"]: item for item in items}
        waiting: set[tuple[str, str]] = set()
        counts, queued, merged, wrong = Counter[str](), Counter[str](), Counter[str](), 0
        causes: Counter[str] = Counter()
        for item in items:
            kind = (
                hygiene.UPDATE
                if item["updates"]
                else hygiene.SAME
                if item["restates"]
                else hygiene.COMPATIBLE
            )
            counts[kind] += 1
            near = [(i, by_id[i]["text"], cosine) for i, cosine in item["near"]]
            got = decide(item["text"], near, waiting)
            if got.decision == "merged":
                merged[kind] += 1
                wrong += kind != hygiene.SAME
            elif got.decision == "queued":
                queued[kind] += 1
                assert got.neighbour is not None
                waiting.add((got.neighbour, item["id"]))
                if show_false and kind != hygiene.UPDATE:
                    old = by_id[got.neighbour]
                    print(f"FALSE {name} {item['id']} {kind} [{got.why}]")
                    print(f"  {old['text']}\n  {item['text']}")
            if kind == hygiene.UPDATE and got.decision != "queued":
                cause = _miss_cause(item, by_id)
                causes[cause] += 1
                if show_misses:
                    old = by_id[item["updates"]]
                    cosine = dict(item["near"]).get(item["updates"])
                    shown = "–" if cosine is None else f"{cosine:.2f}"
                    print(f"MISS {name} {item['id']} ({cause}, {shown})")
                    print(f"  {old['text']}\n  {item['text']}")
        rows.append(_row(name, counts, merged, queued, wrong, len(waiting)))
        print(f"{name} missed updates by cause: {dict(causes.most_common())}")
    print(hygiene.table(rows))
    return 0


def _row(
    name: str,
    counts: Counter[str],
    merged: Counter[str],
    queued: Counter[str],
    wrong: int,
    pending: int,
) -> list[str]:
    def share(table: Counter[str], kind: str) -> str:
        total = counts[kind]
        return f"{table[kind]}/{total} ({100 * table[kind] / total:.0f} %)" if total else "–"

    updates = counts[hygiene.UPDATE]
    return [
        name,
        str(wrong),
        share(merged, hygiene.SAME),
        share(queued, hygiene.UPDATE),
        f"{pending / updates:.2f}" if updates else "–",
        share(queued, hygiene.COMPATIBLE),
        share(queued, hygiene.DIFFERENT),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.queue_replay", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    dumping = commands.add_parser("dump")
    dumping.add_argument("file")
    dumping.add_argument(
        "--sets",
        default=",".join(PERSONAL_SETS),
        help="comma-separated personal sets to dump (default: personal,personal2)",
    )
    replaying = commands.add_parser("replay")
    replaying.add_argument("file")
    replaying.add_argument("--misses", action="store_true", help="print every missed update")
    replaying.add_argument("--false", action="store_true", help="print every compatible queued")
    args = parser.parse_args(argv)
    if args.command == "dump":
        dump(Path(args.file), [name for name in args.sets.split(",") if name])
        return 0
    return replay(Path(args.file), args.misses, args.false)


if __name__ == "__main__":
    sys.exit(main())

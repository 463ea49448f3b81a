"""What remember() decides without an LLM: ``python -m bench hygiene [--skip-timing]``.

Three kinds of input, all in the repository:

- labelled pairs: ``tests/data/memory_pairs.jsonl`` (paraphrase / contradiction / related /
  unrelated), ``tests/data/hygiene_pairs.jsonl`` (same / different, when present) and
  ``tests/data/hygiene_pairs_cross.jsonl`` (the same, across languages). Each pair
  goes into an empty store: the old text, then the new one through ``remember_explained``;
  then both are forgotten;
- the personal set (``bench/data/personal``, see :mod:`bench.personal`), added one by one in
  date order into one store, with its ``updates`` / ``restates`` labels; the held-out personal
  sets (``bench/data/personal2``, ``personal3`` and ``personal4``, other people) the same way, in
  rows of their own (report them, never tune on them; ``--skip-held-out`` leaves them out);
  ``personal6`` (a fresh held-out set) only when ``--sets`` names it;
- timing: ``remember`` of new memories into a store of 10,000 synthetic ones
  (:mod:`bench.synthetic`).

Scores: wrong merges (merged although not a restatement), restatements merged, real updates
queued, pending conflicts per real update, compatible facts queued. Printed, and written to
``bench/results/hygiene-<date>.md`` (``--out``); ``--label`` names the run (before / after).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import statistics
import tempfile
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.perf import settings_without_capacity
from bench.personal import PersonalMemory
from bench.stores import BENCH_KDF
from localmind import Memory, NewMemory
from localmind.lifecycle import Decision

ROOT = Path(__file__).resolve().parent.parent
MEMORY_PAIRS = ROOT / "tests" / "data" / "memory_pairs.jsonl"
HYGIENE_PAIRS = ROOT / "tests" / "data" / "hygiene_pairs.jsonl"
# The same kinds of pair told in the other language (en → zh, zh → en).
CROSS_PAIRS = ROOT / "tests" / "data" / "hygiene_pairs_cross.jsonl"
# Updates and compatible facts that share words, by the structure of a change (queue13d).
QUEUE_PAIRS = ROOT / "tests" / "data" / "queue_pairs.jsonl"
RESULTS = Path(__file__).resolve().parent / "results"
PASSPHRASE = "hygiene-bench"
TIMING_STORE_SIZE = 10_000
TIMING_SAMPLES = 150

# What each label of a pair file means for remember(): a restatement (should merge), an update
# (should be queued), compatible (must not be queued) or different (must not merge; a queue is
# fine: the hygiene set's "different" pairs mix contradictions with compatible facts).
SAME, UPDATE, COMPATIBLE, DIFFERENT = "same", "update", "compatible", "different"
MEMORY_PAIR_KINDS = {
    "paraphrase": SAME,
    "contradiction": UPDATE,
    "related": COMPATIBLE,
    "unrelated": COMPATIBLE,
}


@dataclass(frozen=True, slots=True)
class Case:
    old: str
    new: str
    kind: str
    lang: str
    why: str = ""


@dataclass(slots=True)
class Score:
    """Counts of one set; ``decisions`` keeps every decision by kind for the report."""

    name: str
    counts: dict[str, int] = field(default_factory=dict)  # cases per kind
    merged: dict[str, int] = field(default_factory=dict)
    queued: dict[str, int] = field(default_factory=dict)
    pending: int = 0
    wrong_merges: list[str] = field(default_factory=list)
    # updates not queued and compatible memories queued, with what was decided (``--misses``)
    misses: list[str] = field(default_factory=list)
    # updates queued against the very memory they update (one by one; ``--misses``)
    paired: str = ""
    # pending conflicts that are no update with the memory it updates, each with what the
    # newer side is (one by one; ``--misses``): what makes the pending per update above 1
    other_pending: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def add(self, kind: str, decision: Decision, text: str) -> None:
        self.counts[kind] = self.counts.get(kind, 0) + 1
        if (kind == UPDATE) != (decision is Decision.QUEUED) and kind in (UPDATE, COMPATIBLE):
            self.misses.append(f"{kind} {decision.value}: {text}")
        if decision in (Decision.MERGED, Decision.REINFORCED):  # reinforced: the same text
            self.merged[kind] = self.merged.get(kind, 0) + 1
            if kind != SAME:
                self.wrong_merges.append(text)
        if decision is Decision.QUEUED:
            self.queued[kind] = self.queued.get(kind, 0) + 1

    def share(self, table: dict[str, int], kind: str) -> str:
        total = self.counts.get(kind, 0)
        if not total:
            return "–"
        hit = table.get(kind, 0)
        return f"{hit}/{total} ({100 * hit / total:.0f} %)"

    def row(self) -> list[str]:
        updates = self.counts.get(UPDATE, 0)
        per_update = f"{self.pending / updates:.2f}" if updates else "–"
        return [
            self.name,
            str(len(self.wrong_merges)),
            self.share(self.merged, SAME),
            self.share(self.queued, UPDATE),
            per_update,
            self.share(self.queued, COMPATIBLE),
            self.share(self.queued, DIFFERENT),
        ]


HEADER = [
    "set",
    "wrong merges",
    "restatements merged",
    "updates queued",
    "pending per update",
    "compatible queued",
    "different queued",
]


# --- data -------------------------------------------------------------------------------------


def _jsonl(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if line.strip():
                try:
                    yield json.loads(line)
                except ValueError as error:
                    raise SystemExit(f"{path}:{number}: not JSON ({error})") from None


def memory_pairs(path: Path = MEMORY_PAIRS) -> list[Case]:
    return [
        Case(row["a"], row["b"], MEMORY_PAIR_KINDS[row["label"]], row["lang"], row.get("note", ""))
        for row in _jsonl(path)
    ]


def hygiene_pairs(path: Path = HYGIENE_PAIRS) -> list[Case]:
    kinds = {"same": SAME, "different": DIFFERENT}
    return [
        Case(row["old"], row["new"], kinds[row["label"]], row["lang"], row.get("why", ""))
        for row in _jsonl(path)
    ]


# --- runs -------------------------------------------------------------------------------------


@contextmanager
def fresh_memory(directory: Path, name: str, namespace: str = "me") -> Iterator[Memory]:
    memory = Memory.open(
        directory / f"{name}.db",
        PASSPHRASE,
        embedder="use",
        namespace=namespace,
        settings=settings_without_capacity(),
        kdf=BENCH_KDF,
        llm=None,
        maintain=False,
    )
    try:
        yield memory
    finally:
        memory.close()


def score_pairs(name: str, cases: Sequence[Case], directory: Path) -> Score:
    """Each pair on its own: the old memory, then the new one; both forgotten afterwards (a
    reset, not a person's forget: a text another pair tells again is allowed back)."""
    score = Score(name)
    started = time.perf_counter()
    with fresh_memory(directory, name) as memory:
        for case in cases:
            old = memory.remember(case.old, allow_forgotten=True)
            outcome = memory.remember_explained(case.new, allow_forgotten=True)
            score.add(case.kind, outcome.decision, f"{case.old} → {case.new}")
            score.pending += memory.pending_conflicts()
            for memory_id in {old.id, outcome.record.id}:
                memory.forget(memory_id)
    score.seconds = time.perf_counter() - started
    return score


def score_personal(directory: Path, name: str = "personal", imported: bool = False) -> list[Score]:
    """A personal set (``bench.personal.SETS``) one by one, each memory dated: one labelled
    ``updates`` should be queued (there is no LLM), one labelled ``restates`` merged, any other
    must not be queued. Scored twice: all memories, and restatements split by language (most
    restate a memory told in the other language). ``imported``: the whole set in one
    ``remember_many`` instead, in date order (what ``localmind import`` of the list does)."""
    from bench.personal import SETS

    chosen = SETS[name]
    items = chosen.memories()
    language = {item.id: item.lang for item in items}
    # the title says whether the set is held out or a dev set (personal2 became one)
    role = chosen.title.partition("(")[2].rstrip(")")
    how = "imported in one batch" if imported else "one by one"
    score = Score(f"{name} set ({role}), {how}")
    same_language = Score(f"{name}: restatements in the same language")
    across = Score(f"{name}: restatements across languages")
    started = time.perf_counter()
    with fresh_memory(directory, f"{name}-{'batch' if imported else 'single'}") as memory:
        dated = [
            (item, dt.datetime.combine(item.date, dt.time(12), dt.UTC).timestamp())
            for item in items
        ]
        if imported:
            batch = memory.remember_many_explained(
                NewMemory(item.text, created_at=created) for item, created in dated
            )
            decisions = batch.decisions
        else:
            outcomes = [
                memory.remember_explained(item.text, created_at=created) for item, created in dated
            ]
            decisions = [outcome.decision for outcome in outcomes]
            stored = {
                item.id: outcome.record.id for item, outcome in zip(items, outcomes, strict=True)
            }
            waiting = {(c.existing.id, c.candidate.id) for c in memory.conflicts()}
            updates = [item for item in items if item.updates]
            paired = sum((stored[item.updates], stored[item.id]) in waiting for item in updates)
            score.paired = f"{paired}/{len(updates)}"
            score.other_pending = _other_pending(items, stored, waiting)
        for item, decision in zip(items, decisions, strict=True):
            kind = UPDATE if item.updates else SAME if item.restates else COMPATIBLE
            score.add(kind, decision, f"{item.id}: {item.text}")
            if item.restates:
                split = same_language if language[item.restates] == item.lang else across
                split.add(kind, decision, item.text)
        score.pending = memory.pending_conflicts()
    score.seconds = time.perf_counter() - started
    return [score, same_language, across]


def _other_pending(
    items: Sequence[PersonalMemory], stored: dict[str, str], waiting: set[tuple[str, str]]
) -> list[str]:
    """Every pending pair of a personal set that is not an update with the memory it updates,
    with what its newer side is: a restatement (of an update, or of another memory), an update
    paired with another memory than the one it updates, or a compatible memory."""
    item_of: dict[str, PersonalMemory] = {}
    for item in items:  # a merged memory's record is the one it was merged into: the first's
        item_of.setdefault(stored[item.id], item)
    kinds = {item.id: item for item in items}
    lines = []
    for older_id, newer_id in sorted(waiting, key=lambda pair: item_of[pair[1]].id):
        older, newer = item_of[older_id], item_of[newer_id]
        if newer.updates == older.id:
            continue
        if newer.restates:
            told = kinds[newer.restates]
            kind = "restates an update" if told.updates else "restates a memory"
        elif newer.updates:
            kind = "update, paired with another memory"
        else:
            kind = "compatible"
        lines.append(f"{kind}: {older.id} {older.text} → {newer.id} {newer.text}")
    return lines


def time_remember(directory: Path) -> dict[str, float]:
    """Milliseconds per ``remember`` (no LLM) into a store of 10,000 synthetic memories. The
    new texts' vectors are cached first (stored in another namespace), so the figure is the
    search and the decision, not the model's time."""
    from bench import synthetic

    pool = synthetic.memories(TIMING_STORE_SIZE + TIMING_SAMPLES)
    stored, new = pool[:TIMING_STORE_SIZE], pool[TIMING_STORE_SIZE:]
    with fresh_memory(directory, "timing", namespace="warm-up") as warm_up:
        warm_up.remember_many((NewMemory(m.content) for m in new), check=False)
    with fresh_memory(directory, "timing") as memory:
        memory.remember_many(  # a store to time remember in: loaded as before, unjudged
            (
                NewMemory(m.content, importance=m.importance, created_at=m.created_at)
                for m in stored
            ),
            check=False,
        )
        samples = []
        for item in new:
            started = time.perf_counter()
            memory.remember(item.content, created_at=item.created_at)
            samples.append((time.perf_counter() - started) * 1000)
    return {
        "store_size": TIMING_STORE_SIZE,
        "samples": len(samples),
        "median_ms": statistics.median(samples),
        "mean_ms": statistics.fmean(samples),
        "p95_ms": sorted(samples)[int(0.95 * len(samples)) - 1],
    }


# --- report -----------------------------------------------------------------------------------


def table(rows: Iterable[list[str]]) -> str:
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def report(
    label: str, scores: Sequence[Score], timing: dict[str, float] | None, misses: bool = False
) -> str:
    stamp = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    parts = [
        f"# Memory hygiene ({label or 'unlabelled run'}, {stamp})",
        "",
        "No LLM. `python -m bench hygiene`; see bench/hygiene.py for what each column counts.",
        "",
        table(score.row() for score in scores),
        "",
    ]
    if timing:
        parts += [
            f"remember() at {timing['store_size']:,} memories, {timing['samples']} samples: "
            f"median {timing['median_ms']:.1f} ms, mean {timing['mean_ms']:.1f} ms, "
            f"p95 {timing['p95_ms']:.1f} ms",
            "",
        ]
    for score in scores:
        if score.wrong_merges:
            parts += [f"Wrong merges in {score.name}:", ""]
            parts += [f"- {text}" for text in score.wrong_merges]
            parts.append("")
        if misses and score.paired:
            parts += [
                f"Updates queued against the memory they update, {score.name}: {score.paired}",
                "",
            ]
        if misses and score.misses and "restatements" not in score.name:
            parts += [f"Updates not queued, compatible memories queued, in {score.name}:", ""]
            parts += [f"- {text}" for text in score.misses]
            parts.append("")
        if misses and score.other_pending:
            parts += [f"Pending pairs that are no update with its older memory, {score.name}:", ""]
            parts += [f"- {text}" for text in sorted(score.other_pending)]
            parts.append("")
    return "\n".join(parts)


def personal_sets(skip_held_out: bool) -> list[str]:
    """The personal sets to score without ``--sets``, in order: every one but those run only by
    their key (personal6), or with ``skip_held_out`` only those that may be tuned on."""
    from bench.personal import SETS

    return [
        name
        for name, chosen in SETS.items()
        if not chosen.named_only and not (chosen.held_out and skip_held_out)
    ]


def chosen_sets(sets: str | None, skip_held_out: bool) -> list[str]:
    """The personal sets a run scores: those ``--sets`` names (any key of ``bench.personal.SETS``,
    personal6 too), else :func:`personal_sets`."""
    from bench.personal import SETS

    if not sets:
        return personal_sets(skip_held_out)
    named = [name for name in sets.split(",") if name]
    unknown = sorted(set(named) - set(SETS))
    if unknown:
        raise SystemExit(f"unknown personal sets: {', '.join(unknown)}")
    return named


def run(args: argparse.Namespace) -> int:
    scores: list[Score] = []
    with tempfile.TemporaryDirectory(prefix="hygiene-") as tmp:
        directory = Path(tmp)
        scores.append(score_pairs("memory_pairs.jsonl", memory_pairs(), directory))
        if QUEUE_PAIRS.exists():
            queue = memory_pairs(QUEUE_PAIRS)
            scores.append(score_pairs("queue_pairs.jsonl", queue, directory))
        if HYGIENE_PAIRS.exists():
            scores.append(score_pairs("hygiene_pairs.jsonl", hygiene_pairs(), directory))
        if CROSS_PAIRS.exists():
            cross = hygiene_pairs(CROSS_PAIRS)
            scores.append(score_pairs("hygiene_pairs_cross.jsonl", cross, directory))
        for name in chosen_sets(getattr(args, "sets", None), args.skip_held_out):
            scores += score_personal(directory, name)
            if getattr(args, "imported", False):
                scores += score_personal(directory, name, imported=True)
        timing = None if args.skip_timing else time_remember(directory)
    text = report(args.label, scores, timing, misses=getattr(args, "misses", False))
    print(text)
    out = Path(args.out) if args.out else RESULTS / f"hygiene-{dt.date.today().isoformat()}.md"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    print(f"wrote {out}")
    return 0

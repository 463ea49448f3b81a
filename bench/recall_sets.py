"""``python -m bench retrieval``: recall quality on every dev set at once, side by side.

For each dev set (``bench.devsets``): BM25 only (the store's FTS5 leg), dense only (its vector
leg) and recall as shipped (``Memory.recall(query, 10)`` with default settings), R@1/5/10 per set
and per question kind, and, on questions whose answer changed, how often an outdated memory
ranks above the current one. Every figure comes from the public API of one store per set.

``--dump FILE`` also writes every question's candidates with both searches' scores, which
``python -m bench fit`` reads to fit the fusion.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import platform
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bench import devsets
from bench.embedders import CHOICES, CachingEmbedder, load
from localmind import Memory, RecallResult
from localmind.config import FusionConfig
from localmind.embedders.base import Embedder
from localmind.fts_terms import query_terms
from localmind.store import SqliteStore

KS = (1, 5, 10)
SHIPPED_LIMIT = 10
#: Candidates kept per question for the legs' orders and the fitting dump.
PROBE_LIMIT = 200
BM25, DENSE, SHIPPED = "BM25 only", "dense only", "localmind recall (as shipped)"
SECOND = "second model, dense only"
#: How deep the second model's own list is kept to see what gold it finds outside the pool.
SECOND_DEPTH = 50


@dataclass
class Rankings:
    """Best-first memory ids per question, for one system."""

    system: str
    lists: list[list[str]] = field(default_factory=list)


@dataclass
class SetResult:
    name: str
    embedder: str
    questions: list[devsets.Question]
    gold: list[frozenset[str]]
    outdated: list[frozenset[str]]
    rankings: dict[str, Rankings]
    timing: dict[str, float]
    #: gold the second model's top 50 holds that the candidate pool (both legs) lacks
    second_only_gold: float = 0.0
    empty_shipped: int = 0  # questions for which shipped recall returned nothing
    #: another set's questions asked of this set's store: (asked, answered with nothing,
    #: results returned in all)
    unrelated: tuple[int, int, int] = (0, 0, 0)


def recall_at(ranked: Sequence[str], gold: frozenset[str], k: int) -> float:
    return len(set(ranked[:k]) & gold) / len(gold) if gold else 0.0


def outdated_first(ranked: Sequence[str], gold: frozenset[str], outdated: frozenset[str]) -> bool:
    """An outdated memory is listed and ranks above every current one (or no current one is
    listed)."""
    for key in ranked:
        if key in gold:
            return False
        if key in outdated:
            return True
    return False


def _leg_order(results: Sequence[RecallResult], vector: bool) -> list[str]:
    ranked = [
        (r.breakdown.vector_rank if vector else r.breakdown.keyword_rank, r.memory.id)
        for r in results
    ]
    return [key for rank, key in sorted(p for p in ranked if p[0] is not None) if rank]


def _features(result: RecallResult, cos2: dict[str, float]) -> dict[str, Any]:
    b, m = result.breakdown, result.memory
    second = {"cos2": cos2.get(m.id, 0.0)} if cos2 else {}
    return second | {
        "id": m.id,
        "cos": b.vector_similarity,
        "bm25": getattr(b, "keyword_score", None),  # (absent before the score fusion)
        "coverage": getattr(b, "keyword_coverage", 0.0),
        "in_period": getattr(b, "in_period", False),
        "other_script": getattr(b, "other_script", False),
        # the best relevance of a memory told together with it (FusionConfig.context's input)
        "context": getattr(b, "from_context", 0.0) / (FusionConfig().context or 1.0),
        "vrank": b.vector_rank,
        "krank": b.keyword_rank,
        "created": m.created_at,
        "updated": m.updated_at,
        "importance": m.importance,
        "confidence": m.confidence,
        "uses": m.access_count,
        "superseded_by": getattr(b, "superseded_by", None),
    }


class SecondLeg:
    """Another model's cosines over one namespace's memories, beside the store's own: its own
    dense-only ranking (brute force over every memory) and a cosine for each candidate of the
    store's two legs, for ``bench fit`` to weigh as a feature."""

    def __init__(self, embedder: Embedder, memory: Memory) -> None:
        self.embedder = embedder
        records = memory.list_memories()
        self.ids = [r.id for r in records]
        self.row = {key: i for i, key in enumerate(self.ids)}
        self.vectors = embedder.embed_documents([r.content for r in records])

    def cosines(self, query: str) -> np.ndarray:
        return self.vectors @ self.embedder.embed_query([query])[0]

    def ranked(self, cosines: np.ndarray) -> list[str]:
        return [self.ids[i] for i in np.argsort(-cosines, kind="stable")[:PROBE_LIMIT]]


def run_set(
    built: devsets.BuiltSet,
    label: str,
    dump: list[dict[str, Any]] | None,
    second: Embedder | None = None,
) -> SetResult:
    devset = built.devset
    by_namespace: dict[str, list[int]] = defaultdict(list)
    for index, question in enumerate(devset.questions):
        by_namespace[question.namespace].append(index)
    n = len(devset.questions)
    systems = (BM25, DENSE, SHIPPED, SECOND) if second else (BM25, DENSE, SHIPPED)
    lists: dict[str, list[list[str]]] = {s: [[] for _ in range(n)] for s in systems}
    seconds: list[float] = []
    outside: list[float] = []
    for namespace, indices in by_namespace.items():
        with built.open(namespace) as memory:
            leg = SecondLeg(second, memory) if second else None
            for index in indices:
                question = devset.questions[index]
                started = time.perf_counter()
                shipped = memory.recall(question.text, SHIPPED_LIMIT, touch=False)
                seconds.append(time.perf_counter() - started)
                probe = memory.recall(question.text, PROBE_LIMIT, threshold=0, touch=False)
                lists[SHIPPED][index] = [r.memory.id for r in shipped]
                lists[DENSE][index] = _leg_order(probe, vector=True)
                lists[BM25][index] = _leg_order(probe, vector=False)
                cos2: dict[str, float] = {}
                if leg is not None:
                    cosines = leg.cosines(question.text)
                    lists[SECOND][index] = leg.ranked(cosines)
                    cos2 = {key: float(cosines[leg.row[key]]) for key in leg.ids}
                    gold = built.gold(question)
                    pool = {r.memory.id for r in probe}
                    if gold:
                        own = set(lists[SECOND][index][:SECOND_DEPTH])
                        outside.append(len((own - pool) & gold) / len(gold))
                if dump is not None:
                    dump.append(
                        {
                            "set": devset.name,
                            "kind": question.kind,
                            "query": question.text[:2000],
                            "terms": len(query_terms(question.text)),
                            "now": devset.now,
                            "gold": sorted(built.gold(question)),
                            "outdated": sorted(built.outdated(question)),
                            "shipped": lists[SHIPPED][index],
                            "candidates": [_features(r, cos2) for r in probe],
                        }
                    )
    result = SetResult(
        devset.name,
        label,
        devset.questions,
        [built.gold(q) for q in devset.questions],
        [built.outdated(q) for q in devset.questions],
        {name: Rankings(name, ranked) for name, ranked in lists.items()},
        {
            "load_s": built.load_seconds,
            "recall_median_ms": 1000 * statistics.median(seconds) if seconds else 0.0,
        },
    )
    result.empty_shipped = sum(1 for ranked in lists[SHIPPED] if not ranked)
    result.second_only_gold = statistics.mean(outside) if outside else 0.0
    return result


UNRELATED_QUESTIONS = 40


@contextlib.contextmanager
def unlinked() -> Iterator[None]:
    """Recall as if ``remember`` had linked no update: every store answers that no pending
    conflict and no later-version note involves any memory. What recall does for a set whose
    updates the review queue missed (on a new person's data it links fewer of them than on the
    dev sets its rules were written on)."""
    saved = SqliteStore.conflicts_involving, SqliteStore.later_versions
    SqliteStore.conflicts_involving = _none_linked  # type: ignore[method-assign,assignment]
    SqliteStore.later_versions = _none_linked  # type: ignore[method-assign,assignment]
    try:
        yield
    finally:
        SqliteStore.conflicts_involving, SqliteStore.later_versions = saved  # type: ignore[method-assign]


def _none_linked(self: SqliteStore, namespace: str, ids: Sequence[str]) -> list[Any]:
    return []


def ask_unrelated(
    built: devsets.BuiltSet, others: Sequence[devsets.Question]
) -> tuple[int, int, int]:
    """Questions of another data set asked of this set's store (its first namespace): nothing
    there answers them, so recall as shipped should mostly return nothing."""
    namespace = built.devset.items[0].namespace
    step = max(1, len(others) // UNRELATED_QUESTIONS)
    chosen = list(others)[::step][:UNRELATED_QUESTIONS]
    empty = returned = 0
    with built.open(namespace) as memory:
        for question in chosen:
            found = memory.recall(question.text, SHIPPED_LIMIT, touch=False)
            empty += not found
            returned += len(found)
    return len(chosen), empty, returned


def scores(result: SetResult, system: str, kind: str | None = None) -> dict[str, float]:
    chosen = [
        i
        for i, q in enumerate(result.questions)
        if (kind is None or q.kind == kind) and result.gold[i]
    ]
    ranked = result.rankings[system].lists
    row: dict[str, float] = {"n": len(chosen)}
    for k in KS:
        row[f"R@{k}"] = (
            sum(recall_at(ranked[i], result.gold[i], k) for i in chosen) / len(chosen)
            if chosen
            else 0.0
        )
    updates = [i for i in chosen if result.outdated[i]]
    if updates:
        row["outdated first"] = sum(
            outdated_first(ranked[i], result.gold[i], result.outdated[i]) for i in updates
        ) / len(updates)
        row["updates"] = len(updates)
    return row


def peer_lines(langs: Sequence[str]) -> list[str]:
    """MADial-Bench's own retrieval lists for other embedders (dense top-20 on the raw
    history), scored with the same R@k: the "plain recall" rows compare with these."""
    from bench import madial
    from bench.metrics import evaluate

    lines = ["", "## MADial-Bench peers (the paper's lists, raw history as query)", ""]
    lines += ["| lang | system | R@1 | R@5 | R@10 |", "|---|---|---:|---:|---:|"]
    root = madial.data_dir()
    for lang in langs:
        for peer in madial.load_peers(root, lang):
            found = evaluate(peer.top, peer.gold)
            r = found.recall
            lines.append(f"| {lang} | {peer.name} | {r[1]:.3f} | {r[5]:.3f} | {r[10]:.3f} |")
    return lines


def markdown(results: Sequence[SetResult], meta: dict[str, Any]) -> str:
    out = [
        f"# Retrieval on every dev set — {meta['date']}",
        "",
        f"Command: `{meta['command']}`. Machine: {meta['machine']}, Python {meta['python']}. "
        f"Embedder: {meta['embedder']}. No LLM (none runs here): no HyDE, no reranker. "
        f"Total {meta['total_s']:.0f} s.",
        "",
        "| set | system | n | R@1 | R@5 | R@10 | outdated first |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for result in results:
        for system in result.rankings:
            row = scores(result, system)
            out.append(_line(result.name, system, row))
    out += [
        "",
        "## Per kind",
        "",
        "| set | kind | system | n | R@1 | R@5 | R@10 | outdated first |",
    ]
    out.append("|---|---|---|---:|---:|---:|---:|---:|")
    for result in results:
        kinds = sorted({q.kind for q in result.questions})
        if len(kinds) < 2:
            continue
        for kind in kinds:
            for system in result.rankings:
                row = scores(result, system, kind)
                out.append(_line(f"{result.name} | {kind}", system, row))
    if any(SECOND in r.rankings for r in results):
        out += ["", f"## The second model ({meta['second']})", ""]
        out.append(
            f"Share of the gold that its own top {SECOND_DEPTH} holds and the candidate pool "
            f"of the store's two legs ({PROBE_LIMIT} deep) does not: "
            + ", ".join(f"{r.name} {r.second_only_gold:.3f}" for r in results)
            + "."
        )
    out += ["", "## Timing, empty answers and unrelated questions", ""]
    out.append(
        "Unrelated: questions of another set asked of this set's store (its first user or "
        "conversation); nothing there answers them, so recall should mostly return nothing."
    )
    out.append("")
    out.append(
        "| set | load s | recall median ms | own questions answered with nothing | "
        "unrelated questions answered with nothing | results per unrelated question |"
    )
    out.append("|---|---:|---:|---:|---:|---:|")
    for result in results:
        asked, empty, returned = result.unrelated
        out.append(
            f"| {result.name} | {result.timing['load_s']:.1f} | "
            f"{result.timing['recall_median_ms']:.1f} | {result.empty_shipped} of "
            f"{len(result.questions)} | {empty} of {asked} | {returned / max(asked, 1):.1f} |"
        )
    langs = [lang for lang in ("en", "zh") if any(f"MADial {lang}" in r.name for r in results)]
    if langs:
        out += peer_lines(langs)
    return "\n".join(out) + "\n"


def _line(name: str, system: str, row: dict[str, float]) -> str:
    first = f"{row['outdated first']:.2f} of {int(row['updates'])}" if "updates" in row else "—"
    bold = "**" if system == SHIPPED else ""
    return (
        f"| {name} | {bold}{system}{bold} | {int(row['n'])} | {row['R@1']:.3f} | "
        f"{bold}{row['R@5']:.3f}{bold} | {row['R@10']:.3f} | {first} |"
    )


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def held_out_named(wanted: Sequence[str]) -> set[str]:
    """The held-out personal sets a ``--sets`` list names: by key (``personal3``) or all of them
    with a part of "held out" (but those run only by their key, as personal6). A plain
    ``personal`` names none, so it never runs one by accident."""
    from bench.personal import SETS

    held = [(name, chosen.named_only) for name, chosen in SETS.items() if chosen.held_out]
    return {
        name
        for name, by_key_only in held
        for o in wanted
        if name in o or ("held" in o and not by_key_only)
    }


def dumped(name: str) -> bool:
    """Whether a set's questions (``name``, as reports show it, its imported row too) go into the
    ``--dump`` that ``bench fit`` reads: every set's but those run only by their key (personal6),
    so no fit is tuned on them."""
    from bench.personal import SETS

    return not any(name.startswith(c.title) for c in SETS.values() if c.named_only)


def run(
    embedder_key: str,
    out: Path | None,
    dump_path: Path | None,
    locomo: Path | None,
    only: Sequence[str] = (),
    questions: int | None = None,
    second_key: str | None = None,
    personal_imported: bool = False,
    without_links: bool = False,
) -> int:
    started = time.perf_counter()
    wanted = [o.lower() for o in only]
    try:
        sets = devsets.all_sets(
            locomo,
            madial=not wanted or any("madial" in o for o in wanted),
            locomo_wanted=not wanted or any("locomo" in o for o in wanted),
            held_out=held_out_named(wanted),
            time_wanted=not wanted or any("time" in o for o in wanted),
        )
    except FileNotFoundError as missing:  # a dev set kept outside the repository
        raise SystemExit(f"error: {missing}") from None
    if wanted:
        sets = [s for s in sets if any(o in s.name.lower() for o in wanted)]
    if not sets:
        raise SystemExit(
            f"No dev set matches {', '.join(only)}: try madial, locomo, personal, personal2, "
            "personal3, personal4, personal5, personal6, time."
        )
    if personal_imported:  # each beside its one-by-one row
        sets = [x for s in sets for x in ([s, devsets.imported(s)] if s.one_by_one else [s])]
    if questions:
        for devset in sets:
            devset.questions = devset.questions[:questions]
    dump: list[dict[str, Any]] | None = [] if dump_path else None
    results = []
    with tempfile.TemporaryDirectory(prefix="localmind-dev-") as scratch:
        model = load(embedder_key, Path(scratch))
        if isinstance(model, str):
            raise SystemExit(f"{CHOICES[embedder_key].label} is not available: {model}")
        embedder = CachingEmbedder(model)
        second = load(second_key, Path(scratch)) if second_key else None
        if isinstance(second, str):
            raise SystemExit(f"{CHOICES[str(second_key)].label} is not available: {second}")
        built_items: dict[int, devsets.BuiltSet] = {}
        for devset in sets:
            # The two MADial views of a language share their memories: one store.
            key = id(devset.items)
            if key not in built_items:
                log(f"loading {devset.name}: {len(devset.items)} memories")
                built_items[key] = devsets.build(devset, Path(scratch), embedder)
            built = built_items[key]
            view = devsets.BuiltSet(
                devset, built.path, embedder, built.memory_of, built.load_seconds
            )
            log(f"recalling {devset.name}: {len(devset.questions)} questions")
            # a set run only by its key (personal6) never reaches the dumps `bench fit` reads
            kept = dump if dumped(devset.name) else None
            with unlinked() if without_links else contextlib.nullcontext():
                result = run_set(view, CHOICES[embedder_key].label, kept, second)
            others = [s for s in sets if s.items is not devset.items]
            if others:
                other = others[sets.index(devset) % len(others)]
                result.unrelated = ask_unrelated(view, other.questions)
            results.append(result)
    meta = {
        "date": dt.date.today().isoformat(),
        "command": "python -m bench retrieval"
        + (f" --embedder {embedder_key}" if embedder_key != "use" else "")
        + (f" --sets {','.join(only)}" if only else "")
        + (f" --questions {questions}" if questions else "")
        + (f" --second-embedder {second_key}" if second_key else "")
        + (" --personal-imported" if personal_imported else "")
        + (" --without-links" if without_links else ""),
        "machine": f"{platform.machine()}, {_cpus()} cores",
        "python": platform.python_version(),
        "embedder": CHOICES[embedder_key].label,
        "second": CHOICES[second_key].label if second_key else "",
        "total_s": time.perf_counter() - started,
    }
    text = markdown(results, meta)
    print(text)
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
        summary = {
            "meta": meta,
            "sets": {
                r.name: {
                    system: {
                        "all": scores(r, system),
                        **{
                            kind: scores(r, system, kind)
                            for kind in sorted({q.kind for q in r.questions})
                        },
                    }
                    for system in r.rankings
                }
                for r in results
            },
        }
        out.with_suffix(".json").write_text(json.dumps(summary, indent=1) + "\n", "utf-8")
        log(f"wrote {out} and its .json")
    if dump_path is not None:
        dump_path.write_text(json.dumps(dump, ensure_ascii=False), encoding="utf-8")
        log(f"wrote {dump_path} ({len(dump or [])} questions)")
    return 0


def _cpus() -> int:
    import os

    return os.cpu_count() or 1

"""``python -m bench.floor``: what the bar "is anything relevant at all?" costs and buys.

Recall returns nothing when even its best candidate is less likely than
``FusionConfig.min_relevance`` to be relevant (``min_relevance_unmatched`` when no candidate
holds a word of the query: ``recall._default_threshold``). Every question of a dev set has a
relevant memory, so a higher bar can only lose right answers there; the questions of
``bench/data/unrelated_questions.jsonl`` (20 English, 20 Chinese: greetings, general knowledge,
how-to) have none anywhere, so every result they get is junk. For each set this asks both
kinds of question of its store and reports, for a grid of the two bars, the share of the gold
found in the top 10 that a question left empty would lose, and how many unrelated questions
still get an answer (asked of the first, middle and last user or conversation of each store, and
of a small store: each personal set's first memories, as a new user's).

    python -m bench.floor --sets personal,personal2,personal5,madial,locomo

The bars are read off each recall as shipped (the best candidate's plain relevance, and whether
any candidate holds a word of the query), so one pass prices every pair of bars.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench import devsets
from bench.embedders import CachingEmbedder, load
from bench.recall_sets import held_out_named, recall_at
from localmind import recall as recall_module
from localmind.config import FusionConfig

UNRELATED = Path(__file__).resolve().parent / "data" / "unrelated_questions.jsonl"
MATCHED = (0.025, 0.03, 0.035, 0.04, 0.045, 0.05, 0.06)
UNMATCHED = (0.048, 0.05, 0.055, 0.06, 0.065, 0.07, 0.08)
#: memories of each personal set's small store: a new user's first days
SMALL_STORE = 15


@dataclass(frozen=True, slots=True)
class Asked:
    """One question as recall saw it: its best candidate's plain relevance, whether any
    candidate held one of its words, and (own questions) the gold found in the top 10."""

    plain: float
    matched: bool
    found: float = 0.0
    results: int = 0
    lang: str = ""


@contextmanager
def bars_seen() -> Iterator[list[tuple[float, bool]]]:
    """Each recall's (best plain relevance, matched), as ``_default_threshold`` reads them."""
    seen: list[tuple[float, bool]] = []
    original = recall_module._default_threshold

    def noting(relevant: Any, found: Any, fusion: FusionConfig) -> float:
        plain = (
            max(
                (r.probability if r.plain_probability is None else r.plain_probability)
                for r in relevant
            )
            if relevant
            else 0.0
        )
        seen.append((plain, any(found.coverage.values())))
        return original(relevant, found, fusion)

    recall_module._default_threshold = noting  # type: ignore[assignment]
    try:
        yield seen
    finally:
        recall_module._default_threshold = original  # type: ignore[assignment]


def unrelated_questions() -> list[dict[str, str]]:
    lines = UNRELATED.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def ask(memory: Any, text: str, seen: list[tuple[float, bool]]) -> tuple[list[str], float, bool]:
    before = len(seen)
    found = memory.recall(text, 10, touch=False)
    plain, matched = seen[before] if len(seen) > before else (0.0, False)
    return [r.memory.id for r in found], plain, matched


def lost(asked: Sequence[Asked], matched_bar: float, unmatched_bar: float) -> float:
    """The share of the gold found in the top 10 that questions left empty at these bars lose."""
    total = sum(a.found for a in asked)
    dropped = sum(a.found for a in asked if a.plain < (matched_bar if a.matched else unmatched_bar))
    return dropped / total if total else 0.0


def answered(asked: Sequence[Asked], matched_bar: float, unmatched_bar: float) -> int:
    return sum(
        1 for a in asked if a.results and a.plain >= (matched_bar if a.matched else unmatched_bar)
    )


def run(args: argparse.Namespace) -> int:
    wanted = [s.strip().lower() for s in args.sets.split(",") if s.strip()]
    sets = devsets.all_sets(
        madial=any("madial" in o for o in wanted),
        locomo_wanted=any("locomo" in o for o in wanted),
        held_out=held_out_named(wanted),
    )
    sets = [s for s in sets if any(o in s.name.lower() for o in wanted)]
    junk = unrelated_questions()
    own: dict[str, list[Asked]] = {}
    unrelated: dict[str, list[Asked]] = {}
    with tempfile.TemporaryDirectory(prefix="localmind-floor-") as scratch:
        model = load("use", Path(scratch))
        assert not isinstance(model, str), model
        embedder = CachingEmbedder(model)
        built_items: dict[int, devsets.BuiltSet] = {}
        with bars_seen() as seen:
            for devset in sets:
                key = id(devset.items)
                if key not in built_items:
                    print(f"loading {devset.name}", file=sys.stderr, flush=True)
                    built_items[key] = devsets.build(devset, Path(scratch), embedder)
                built = devsets.BuiltSet(
                    devset, built_items[key].path, embedder, built_items[key].memory_of
                )
                print(f"asking {devset.name}", file=sys.stderr, flush=True)
                rows = own.setdefault(devset.name, [])
                by_namespace: dict[str, list[devsets.Question]] = {}
                for question in devset.questions:
                    by_namespace.setdefault(question.namespace, []).append(question)
                for namespace, questions in by_namespace.items():
                    with built.open(namespace) as memory:
                        for question in questions:
                            ids, plain, matched = ask(memory, question.text, seen)
                            gold = built.gold(question)
                            if gold:
                                rows.append(Asked(plain, matched, recall_at(ids, gold, 10)))
                spaces = list(dict.fromkeys(item.namespace for item in devset.items))
                chosen = list(dict.fromkeys([spaces[0], spaces[len(spaces) // 2], spaces[-1]]))
                if key in {id(s.items) for s in sets[: sets.index(devset)]}:
                    continue  # the other view of the same store: asked already
                junk_rows = unrelated.setdefault(devset.name.split(",")[0], [])
                for namespace in chosen:
                    with built.open(namespace) as memory:
                        for question in junk:
                            ids, plain, matched = ask(memory, question["text"], seen)
                            junk_rows.append(Asked(plain, matched, 0.0, len(ids), question["lang"]))
                if devset.one_by_one:
                    small = devsets.DevSet(
                        f"{devset.name}, first {SMALL_STORE} memories",
                        sorted(devset.items, key=lambda i: i.created_at)[:SMALL_STORE],
                        [],
                        one_by_one=True,
                    )
                    little = devsets.build(small, Path(scratch), embedder, tag="-small")
                    rows_small = unrelated.setdefault(small.name, [])
                    with little.open(small.items[0].namespace) as memory:
                        for question in junk:
                            ids, plain, matched = ask(memory, question["text"], seen)
                            rows_small.append(
                                Asked(plain, matched, 0.0, len(ids), question["lang"])
                            )
    print(report(own, unrelated, len(junk)))
    return 0


def report(own: dict[str, list[Asked]], unrelated: dict[str, list[Asked]], junk: int) -> str:
    fusion = FusionConfig()
    out = [
        "# The bar on the best candidate: gold lost and unrelated questions answered",
        "",
        f"Shipped bars: {fusion.min_relevance} (a candidate holds a word of the query), "
        f"{fusion.min_relevance_unmatched} (none does).",
        "",
        "## Own questions: share of the gold found in the top 10 lost",
        "",
    ]
    head = "| matched bar | unmatched bar | " + " | ".join(own) + " |"
    out += [head, "|---|---|" + "---:|" * len(own)]
    for m in MATCHED:
        for u in UNMATCHED:
            cells = " | ".join(f"{lost(rows, m, u):.3f}" for rows in own.values())
            out.append(f"| {m} | {u} | {cells} |")
    out += ["", f"## Unrelated questions ({junk} per store asked) answered with something", ""]
    out += ["| matched bar | unmatched bar | " + " | ".join(unrelated) + " | en | zh |"]
    out += ["|---|---|" + "---:|" * (len(unrelated) + 2)]
    for m in MATCHED:
        for u in UNMATCHED:
            cells = " | ".join(
                f"{answered(rows, m, u)} of {len(rows)}" for rows in unrelated.values()
            )
            every = [a for rows in unrelated.values() for a in rows]
            by_lang = " | ".join(
                str(answered([a for a in every if a.lang == lang], m, u)) for lang in ("en", "zh")
            )
            out.append(f"| {m} | {u} | {cells} | {by_lang} |")
    out += ["", "## Own questions: how many matched, and their best relevance", ""]
    for name, rows in own.items():
        matched = [a.plain for a in rows if a.matched]
        unmatched = sorted(a.plain for a in rows if not a.matched)
        out.append(
            f"- {name}: {len(matched)} matched, {len(unmatched)} unmatched "
            f"(lowest unmatched best: {', '.join(f'{p:.3f}' for p in unmatched[:5])})"
        )
    return "\n".join(out) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.floor", description=__doc__)
    parser.add_argument("--sets", default="personal,personal2,personal5,madial,locomo")
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())

"""``python -m bench fit DUMP...``: fit the recall fusion on every dev set at once.

Reads the candidate dumps written by ``python -m bench retrieval --dump FILE`` (each question's
candidates with what both searches said of them) and fits ``FusionConfig``, the logistic
relevance model of ``localmind.ranking.relevance``:

    z = bias + w_cos·cos + w_gap·(cos − best cos) + w_kw·bm25/best bm25 + w_bm25·log(1 + bm25)
        + w_cov·coverage + w_period·[made in the period the query names]
        + w_unmatched·(cos − best cos)·(1 − best coverage)
        + w_script·cos·[the memory is written in another script than the question]
        + w_context·(best relevance of a memory told together with it)

in two steps, so that ranking and calibration each get the objective they need:

1. the weights, by coordinate search on the ranking itself: the worst set's margin of R@5 over
   its best single leg (BM25 only or dense only) — no set may be sacrificed for the others —
   plus 0.3 × the mean margin and a little R@1 and R@10. Every set weighs the same, whatever
   its number of questions;
2. the scale and bias, by logistic regression of "gold" on the fitted score (every set weighing
   the same), so that ``similarity`` reads as a probability of relevance; then the default
   ``min_relevance``, the highest threshold that keeps 97 % of the gold found in the top 10.

It reports each set with both legs, the fitted fusion, and the fusion fitted without that set
(leave-one-set-out: what generalizes to data it was not fitted on). Pure numpy; no store opened.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from localmind.cjk import mostly_cjk
from localmind.config import DecayConfig, FusionConfig, RankingWeights
from localmind.ranking import across_scripts, relative_keyword_weight

NAMES = (
    "cosine",
    "cosine_gap",
    "keyword",
    "keyword_strength",
    "coverage",
    "period",
    "cosine_gap_unmatched",
    "other_script_cosine",
    "context",
)
KS = (1, 5, 10)
KEEP_GOLD = 0.97  # share of the top-10 gold the default threshold must keep
STEPS = (2.0, 1.0, 0.5, 0.25, 0.125)
RIDGE = 1e-4  # on the calibration's scale: keeps it finite when a set is nearly separable


@dataclass
class Question:
    set: str
    kind: str
    x: np.ndarray  # candidates × NAMES
    gold: np.ndarray  # candidates, bool
    gold_count: int  # gold memories, found among the candidates or not
    #: per candidate: confidence, importance, uses, days since made or last changed
    record: np.ndarray | None = None
    outdated: np.ndarray | None = None  # per candidate: replaced by a gold memory
    #: per candidate: a second model's cosine (``--second-embedder``), when the dump has it
    second: np.ndarray | None = None


def load(paths: Sequence[Path]) -> list[Question]:
    questions = []
    for path in paths:
        for q in json.loads(path.read_text(encoding="utf-8")):
            candidates = q["candidates"]
            gold_ids = set(q["gold"])
            if not gold_ids:
                continue
            if not candidates:
                questions.append(
                    Question(q["set"], q["kind"], np.zeros((0, len(NAMES))), np.zeros(0), 1)
                )
                continue
            cos = np.array([c["cos"] if c["cos"] is not None else 0.0 for c in candidates])
            bm25 = np.array([c["bm25"] if c["bm25"] is not None else 0.0 for c in candidates])
            best = bm25.max()
            coverage = [c.get("coverage", 0.0) for c in candidates]
            # as recall weighs it: FusionConfig.keyword × this column (ranking.relevance)
            relative = relative_keyword_weight(coverage, 1.0)
            x = np.stack(
                [
                    cos,
                    cos - cos.max(),
                    relative * bm25 / best if best > 0 else np.zeros_like(bm25),
                    np.log1p(np.maximum(bm25, 0.0)),
                    np.array([c.get("coverage", 0.0) for c in candidates]),
                    np.array([float(c.get("in_period", False)) for c in candidates]),
                    (cos - cos.max()) * (1 - max(c.get("coverage", 0.0) for c in candidates)),
                    # as recall lifts them: the other-script memories nearest the question
                    cos
                    * np.array(
                        across_scripts(
                            cos.tolist(), [c.get("other_script", False) for c in candidates]
                        )
                    ),
                    np.array([c.get("context", 0.0) for c in candidates]),
                ],
                axis=1,
            )
            gold = np.array([c["id"] in gold_ids for c in candidates])
            record = np.array(
                [
                    [
                        c.get("confidence", 0.8),
                        c.get("importance", 0.5),
                        c.get("uses", 0),
                        max(0.0, q["now"] - max(c["created"], c["updated"])) / 86_400.0,
                    ]
                    for c in candidates
                ]
            )
            stale = set(q.get("outdated", []))
            outdated = np.array([c["id"] in stale for c in candidates]) if stale else None
            second = None
            if all("cos2" in c for c in candidates):
                latin = 0.0 if mostly_cjk(q["query"]) else 1.0
                second = np.array([[c["cos2"], c["cos2"] * latin] for c in candidates])
            questions.append(
                Question(q["set"], q["kind"], x, gold, len(gold_ids), record, outdated, second)
            )
    return questions


def recalls(questions: Sequence[Question], score: Callable[[Question], np.ndarray]) -> dict:
    """Per set: mean R@1, R@5, R@10 of the order ``score`` gives."""
    totals: dict[str, np.ndarray] = defaultdict(lambda: np.zeros(len(KS)))
    counts: dict[str, int] = defaultdict(int)
    for q in questions:
        counts[q.set] += 1
        if not len(q.gold):
            continue
        top = q.gold[np.argsort(-score(q), kind="stable")[: max(KS)]]
        totals[q.set] += np.array([top[:k].sum() for k in KS]) / q.gold_count
    return {name: totals[name] / counts[name] for name in counts}


def outdated_first(questions: Sequence[Question], score: Callable[[Question], np.ndarray]) -> str:
    """Of the questions whose answer changed: how often an outdated memory ranks above every
    current one in the top 10."""
    asked = first = 0
    for q in questions:
        if q.outdated is None or not len(q.gold):
            continue
        asked += 1
        for i in np.argsort(-score(q), kind="stable")[: max(KS)]:
            if q.gold[i]:
                break
            if q.outdated[i]:
                first += 1
                break
    return f"{first} of {asked}" if asked else "—"


def weights_score(weights: np.ndarray) -> Callable[[Question], np.ndarray]:
    return lambda q: q.x @ weights


def leg(column: int) -> Callable[[Question], np.ndarray]:
    # candidates the leg did not find (0) sort last, in the dump's order
    return lambda q: np.where(q.x[:, column] != 0, q.x[:, column], -np.inf)


def best_legs(questions: Sequence[Question]) -> dict[str, float]:
    dense, bm25 = recalls(questions, leg(0)), recalls(questions, leg(3))
    return {name: max(dense[name][1], bm25[name][1]) for name in dense}


def objective(questions: Sequence[Question], weights: np.ndarray, best: dict) -> float:
    found = recalls(questions, weights_score(weights))
    margins = [found[name][1] - best[name] for name in found]
    edges = [found[name][0] + found[name][2] for name in found]
    return float(min(margins) + 0.3 * np.mean(margins) + 0.05 * np.mean(edges))


def fit_weights(questions: Sequence[Question], start: np.ndarray) -> np.ndarray:
    best = best_legs(questions)
    weights, value = start.copy(), objective(questions, start, best)
    for step in STEPS:
        improved = True
        while improved:
            improved = False
            for i in range(1, len(weights)):  # the cosine weight fixes the scale
                for delta in (step, -step):
                    trial = weights.copy()
                    trial[i] += delta
                    trial_value = objective(questions, trial, best)
                    if trial_value > value + 1e-6:
                        weights, value, improved = trial, trial_value, True
    return weights


def calibrate(questions: Sequence[Question], weights: np.ndarray) -> tuple[float, float]:
    """(scale, bias) of σ(scale·z + bias) fitted to the gold labels, sets weighing the same."""
    per_set: dict[str, int] = defaultdict(int)
    for q in questions:
        per_set[q.set] += 1
    zs, ys, ws = [], [], []
    for q in questions:
        if not len(q.gold):
            continue
        zs.append(q.x @ weights)
        ys.append(q.gold.astype(float))
        ws.append(np.full(len(q.gold), 1.0 / (per_set[q.set] * len(q.gold))))
    z, y, w = np.concatenate(zs), np.concatenate(ys), np.concatenate(ws)
    x = np.stack([z, np.ones_like(z)], axis=1)
    theta = np.array([1.0, -5.0])

    def loss(t: np.ndarray) -> float:
        m = x @ t
        return float(np.sum(w * (np.logaddexp(0.0, m) - y * m)) + 0.5 * RIDGE * t[0] ** 2)

    for _ in range(200):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ theta, -50, 50)))
        gradient = x.T @ (w * (p - y)) + np.array([RIDGE * theta[0], 0.0])
        hessian = (x * (w * p * (1 - p))[:, None]).T @ x + np.diag([RIDGE, 1e-9])
        step = np.linalg.solve(hessian, gradient)
        size = 1.0
        while size > 1e-4 and loss(theta - size * step) > loss(theta):
            size /= 2  # damped Newton: never a step that makes the fit worse
        theta = theta - size * step
        if np.abs(size * step).max() < 1e-9:
            break
    return float(theta[0]), float(theta[1])


def threshold_for(questions: Sequence[Question], config: FusionConfig) -> float:
    weights = np.array([getattr(config, n) for n in NAMES])
    kept_at: list[float] = []
    for q in questions:
        if not len(q.gold):
            continue
        p = 1.0 / (1.0 + np.exp(-(config.bias + q.x @ weights)))
        top = np.argsort(-p)[: max(KS)]
        kept_at.extend(float(p[i]) for i in top if q.gold[i])
    return float(np.quantile(kept_at, 1 - KEEP_GOLD)) if kept_at else 0.0


def fit(questions: Sequence[Question]) -> FusionConfig:
    default = FusionConfig()
    start = np.array([getattr(default, n) for n in NAMES], dtype=float)
    weights = fit_weights(questions, start)
    scale, bias = calibrate(questions, weights)
    values = dict(zip(NAMES, (round(float(v) * scale, 3) for v in weights), strict=True))
    config = FusionConfig(bias=round(bias, 3), **values)
    threshold = threshold_for(questions, config)
    return FusionConfig(bias=config.bias, **values, min_relevance=round(max(threshold, 0.01), 3))


def ranked_score(config: FusionConfig, ranking: RankingWeights, decay: DecayConfig) -> Callable:
    """The full ranking of ``localmind.ranking.score`` over the fitted relevance."""
    weights = np.array([getattr(config, n) for n in NAMES])

    def score(q: Question) -> np.ndarray:
        assert q.record is not None
        p = 1.0 / (1.0 + np.exp(-np.clip(config.bias + q.x @ weights, -50, 50)))
        confidence, importance, uses, idle = q.record.T
        past_grace = np.maximum(idle - decay.grace_period_days, 0.0)
        importance = importance * (1.0 - decay.daily_rate) ** past_grace
        recency = 0.5 ** (idle / ranking.recency_half_life_days)
        frequency = np.minimum(1.0, np.log1p(uses) / np.log1p(ranking.frequency_saturation))
        return (
            confidence
            * p
            * (
                1.0
                + ranking.importance * importance
                + ranking.recency * recency
                + ranking.frequency * frequency
            )
        )

    return score


def report(questions: Sequence[Question]) -> str:
    config = fit(questions)
    weights = np.array([getattr(config, n) for n in NAMES])
    systems = {
        "BM25 only": recalls(questions, leg(3)),
        "dense only": recalls(questions, leg(0)),
        "fitted fusion": recalls(questions, weights_score(weights)),
        "fitted fusion + default ranking": recalls(
            questions, ranked_score(config, RankingWeights(), DecayConfig())
        ),
    }
    for weight, half_life in ((0.1, 30.0), (0.2, 30.0), (0.2, 90.0), (0.3, 365.0)):
        ranking = RankingWeights(
            importance=weight,
            recency=weight,
            frequency=weight,
            recency_half_life_days=half_life,
        )
        systems[f"+ ranking {weight:g} each, half-life {half_life:g} d"] = recalls(
            questions, ranked_score(config, ranking, DecayConfig())
        )
    sets = sorted(systems["fitted fusion"])
    held_out = {}
    for name in sets if len(sets) > 2 else []:
        without = fit([q for q in questions if q.set != name])
        held = np.array([getattr(without, n) for n in NAMES])
        held_out[name] = recalls([q for q in questions if q.set == name], weights_score(held))[name]
    scorers = {
        "dense only": leg(0),
        "fitted fusion": weights_score(weights),
        "fitted fusion + default ranking": ranked_score(config, RankingWeights(), DecayConfig()),
    }
    lines = ["| system | outdated above current (update questions) |", "|---|---:|"]
    lines += [f"| {name} | {outdated_first(questions, f)} |" for name, f in scorers.items()]
    lines += ["", "| set | system | R@1 | R@5 | R@10 |", "|---|---|---:|---:|---:|"]
    for name in sets:
        rows = {system: figures[name] for system, figures in systems.items()}
        if name in held_out:
            rows["fitted without this set"] = held_out[name]
        for system, row in rows.items():
            lines.append(f"| {name} | {system} | " + " | ".join(f"{v:.3f}" for v in row) + " |")
    fields = ", ".join(f"{n}={getattr(config, n)}" for n in ("bias", *NAMES, "min_relevance"))
    lines += ["", f"FusionConfig({fields})"]
    return "\n".join(lines)


# The second model's cosine for every query, and again for queries not mostly in Chinese (an
# English-only model's cosines of Chinese text are noise). Its gap to the query's best would
# rank exactly as the cosine does (a constant per query), so it is not a feature here.
SECOND_NAMES = ("second_cosine", "second_cosine_latin")


def _table(rows: dict[str, dict[str, np.ndarray]], sets: Sequence[str]) -> list[str]:
    lines = ["| set | system | R@1 | R@5 | R@10 |", "|---|---|---:|---:|---:|"]
    for name in sets:
        for system, figures in rows.items():
            if name in figures:
                values = " | ".join(f"{v:.3f}" for v in figures[name])
                lines.append(f"| {name} | {system} | {values} |")
    return lines


def second_leg_report(questions: Sequence[Question]) -> str:
    """A second dense model's cosine as more features of the fusion (the dumps' ``cos2``):
    the shipped weights, the same coordinate search without the new features (what refitting
    alone gives) and with them, each set's and kind's R@k, and leave-one-set-out."""
    from dataclasses import replace

    wide = [
        replace(q, x=np.hstack([q.x, q.second]) if len(q.gold) else np.zeros((0, len(NAMES) + 2)))
        for q in questions
        if q.second is not None or not len(q.gold)
    ]
    shipped = np.array([getattr(FusionConfig(), n) for n in NAMES], dtype=float)
    refit = fit_weights(questions, shipped)
    with_second = fit_weights(wide, np.concatenate([shipped, [0.0, 0.0]]))
    systems = {
        "BM25 only": recalls(questions, leg(3)),
        "dense only": recalls(questions, leg(0)),
        "second model only (in the pool)": recalls(wide, leg(len(NAMES))),
        "shipped fusion": recalls(questions, weights_score(shipped)),
        "refitted, no second": recalls(questions, weights_score(refit)),
        "refitted with second": recalls(wide, weights_score(with_second)),
    }
    sets = sorted(systems["shipped fusion"])
    held: dict[str, np.ndarray] = {}
    for name in sets if len(sets) > 2 else []:
        trained = fit_weights(
            [q for q in wide if q.set != name], np.concatenate([shipped, [0.0, 0.0]])
        )
        held[name] = recalls([q for q in wide if q.set == name], weights_score(trained))[name]
    systems["with second, fitted without this set"] = held
    lines = ["## A second dense model as features", ""]
    lines += _table(systems, sets)
    scorers = {
        "BM25 only": (questions, leg(3)),
        "dense only": (questions, leg(0)),
        "second model only (in the pool)": (wide, leg(len(NAMES))),
        "shipped fusion": (questions, weights_score(shipped)),
        "refitted, no second": (questions, weights_score(refit)),
        "refitted with second": (wide, weights_score(with_second)),
    }
    lines += ["", "R@5 per kind:", "", "| set | kind | " + " | ".join(scorers) + " |"]
    lines.append("|---|---|" + "---:|" * len(scorers))
    kinds = sorted({(q.set, q.kind) for q in questions})
    for name, kind in kinds if len({k for _, k in kinds}) > 1 else []:
        cells = []
        for chosen, score in scorers.values():
            subset = [q for q in chosen if q.set == name and q.kind == kind]
            cells.append(f"{recalls(subset, score)[name][1]:.3f}" if subset else "—")
        lines.append(f"| {name} | {kind} | " + " | ".join(cells) + " |")
    for label, weights, names in (
        ("refitted, no second", refit, NAMES),
        ("refitted with second", with_second, NAMES + SECOND_NAMES),
    ):
        pairs = ", ".join(f"{n}={w:.3f}" for n, w in zip(names, weights, strict=True))
        lines += ["", f"{label}: {pairs}"]
    return "\n".join(lines)


def main(argv: Sequence[str]) -> int:
    paths = [Path(a) for a in argv]
    if not paths:
        print(
            "usage: python -m bench fit DUMP.json [DUMP.json ...] (from `bench retrieval --dump`)",
            file=sys.stderr,
        )
        return 2
    questions = load(paths)
    print(report(questions))
    if any(q.second is not None for q in questions):
        print()
        print(second_leg_report(questions))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

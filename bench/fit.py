"""``python -m bench fit``: fit the recall fusion on every dev set at once.

Reads the candidate dumps of ``python -m bench retrieval --dump`` (each question's candidates with
their cosine and BM25), and fits the logistic relevance model of ``localmind.ranking.relevance``

    z = bias + w_cos·cos + w_gap·(cos − best cos) + w_kw·bm25/best bm25 + w_bm25·log(1 + bm25)

by weighted logistic regression in which every set weighs the same and every question within a
set the same (so LoCoMo's 759 questions do not outvote the personal set's 170). It then reports,
per set, R@1/5/10 of the fitted relevance beside each leg alone, and leave-one-set-out: the model
fitted without a set, scored on it, to show what generalizes. Prints the numbers to paste into
``FusionConfig``. Pure numpy; no store is opened.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

FEATURES = ("cos", "gap", "kw", "bm25log")
KS = (1, 5, 10)
L2 = 0.01  # ridge on the weights (not the bias): keeps them from chasing one set's quirks


@dataclass
class Question:
    set: str
    kind: str
    x: np.ndarray  # candidates × features
    gold: np.ndarray  # candidates, bool
    ids: list[str]
    gold_ids: frozenset[str]
    outdated: frozenset[str]
    created: np.ndarray
    now: float


def load(paths: Sequence[Path]) -> list[Question]:
    questions = []
    for path in paths:
        for q in json.loads(path.read_text(encoding="utf-8")):
            cands = q["candidates"]
            if not cands:
                continue
            cos = np.array([c["cos"] if c["cos"] is not None else 0.0 for c in cands])
            bm25 = np.array([c["bm25"] if c["bm25"] is not None else 0.0 for c in cands])
            best_bm25 = bm25.max()
            kw = bm25 / best_bm25 if best_bm25 > 0 else np.zeros_like(bm25)
            x = np.stack([cos, cos - cos.max(), kw, np.log1p(np.maximum(bm25, 0))], axis=1)
            gold_ids = frozenset(q["gold"])
            questions.append(
                Question(
                    q["set"],
                    q["kind"],
                    x,
                    np.array([c["id"] in gold_ids for c in cands]),
                    [c["id"] for c in cands],
                    gold_ids,
                    frozenset(q.get("outdated", [])),
                    np.array([c["created"] for c in cands]),
                    q["now"],
                )
            )
    return questions


def fit(questions: Sequence[Question], l2: float = L2) -> np.ndarray:
    """Weights [bias, *FEATURES] by Newton's method on the weighted logistic loss."""
    per_set: dict[str, int] = defaultdict(int)
    for q in questions:
        per_set[q.set] += 1
    xs, ys, ws = [], [], []
    for q in questions:
        weight = 1.0 / (per_set[q.set] * len(q.gold))
        xs.append(np.hstack([np.ones((len(q.gold), 1)), q.x]))
        ys.append(q.gold.astype(float))
        ws.append(np.full(len(q.gold), weight))
    x, y, w = np.vstack(xs), np.concatenate(ys), np.concatenate(ws)
    w = w / w.sum() * len(per_set)
    theta = np.zeros(x.shape[1])
    ridge = np.full(x.shape[1], l2)
    ridge[0] = 0.0
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(x @ theta)))
        gradient = x.T @ (w * (p - y)) + ridge * theta
        hessian = (x * (w * p * (1 - p))[:, None]).T @ x + np.diag(ridge)
        step = np.linalg.solve(hessian, gradient)
        theta -= step
        if np.abs(step).max() < 1e-8:
            break
    return theta


def probabilities(q: Question, theta: np.ndarray) -> np.ndarray:
    z = theta[0] + q.x @ theta[1:]
    return 1.0 / (1.0 + np.exp(-z))


def recall_at(order: Sequence[str], gold: frozenset[str], k: int) -> float:
    return len(set(order[:k]) & gold) / len(gold)


def ranked(q: Question, scores: np.ndarray) -> list[str]:
    return [q.ids[i] for i in np.argsort(-scores, kind="stable")]


def evaluate(questions: Sequence[Question], score: Any) -> dict[str, dict[str, float]]:
    by_set: dict[str, list[dict[str, float]]] = defaultdict(list)
    for q in questions:
        order = ranked(q, score(q))
        by_set[q.set].append({f"R@{k}": recall_at(order, q.gold_ids, k) for k in KS})
    return {
        name: {key: float(np.mean([r[key] for r in rows])) for key in rows[0]}
        for name, rows in by_set.items()
    }


def leg(index: int) -> Any:
    return lambda q: q.x[:, index] + (q.x[:, index] != 0) * 1e-9


def report(questions: Sequence[Question]) -> str:
    theta = fit(questions)
    sets = sorted({q.set for q in questions})
    held_out: dict[str, dict[str, float]] = {}
    for name in sets if len(sets) > 1 else []:
        rest = [q for q in questions if q.set != name]
        theta_without = fit(rest)
        held_out[name] = evaluate(
            [q for q in questions if q.set == name], lambda q, t=theta_without: probabilities(q, t)
        )[name]
    systems = {
        "BM25 only": evaluate(questions, leg(2)),
        "dense only": evaluate(questions, leg(0)),
        "fitted fusion": evaluate(questions, lambda q: probabilities(q, theta)),
    }
    lines = [
        "| set | system | R@1 | R@5 | R@10 |",
        "|---|---|---:|---:|---:|",
    ]
    for name in sets:
        for system, figures in systems.items():
            row = figures[name]
            lines.append(
                f"| {name} | {system} | {row['R@1']:.3f} | {row['R@5']:.3f} | {row['R@10']:.3f} |"
            )
        if name not in held_out:
            continue
        row = held_out[name]
        lines.append(
            f"| {name} | fitted without this set | {row['R@1']:.3f} | {row['R@5']:.3f} | "
            f"{row['R@10']:.3f} |"
        )
    names = ("bias", *FEATURES)
    lines.append("")
    lines.append("FusionConfig(" + ", ".join(f"{n}={v:.3f}" for n, v in zip(names, theta)) + ")")
    lines.append(calibration(questions, theta))
    return "\n".join(lines)


def calibration(questions: Sequence[Question], theta: np.ndarray) -> str:
    """What each relevance threshold keeps: gold recall within the top 10 and the share of
    questions left with an answer."""
    out = ["", "| threshold | gold kept in top 10 (share of R@10) | questions answered |"]
    out.append("|---:|---:|---:|")
    for threshold in (0.0, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3):
        kept, total, answered = 0.0, 0.0, 0
        for q in questions:
            p = probabilities(q, theta)
            order = np.argsort(-p)[:10]
            hits = [i for i in order if q.gold[i]]
            total += len(hits)
            kept += sum(1 for i in hits if p[i] >= threshold)
            answered += int((p >= threshold).any())
        out.append(
            f"| {threshold:g} | {kept / max(total, 1):.3f} | {answered / len(questions):.3f} |"
        )
    return "\n".join(out)


def main(argv: Sequence[str]) -> int:
    paths = [Path(a) for a in argv] or sorted(Path("/tmp").glob("dump-*.json"))
    if not paths:
        print("give the dump files of `python -m bench retrieval --dump FILE`", file=sys.stderr)
        return 2
    questions = load(paths)
    print(report(questions))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""``python -m bench.ceiling``: what is left to MADial's plain rows, measured without a store
change (docs/benchmarks.md, "Recall, round 14").

- ``dense LEGS``: the dense leg alone over every memory of a ``bench.legs dump``, with the
  memory side changed: vectors centred on their store's mean, a hub's cosine lowered by how near
  it is to its own neighbours (CSLS), each vector smoothed towards its nearest neighbours.
- ``features DUMP…``: ``bench retrieval --dump`` files replayed with one more fusion feature (an
  interaction of the legs, their agreement, a relative or squared coverage) at fixed weights,
  every set side by side.
- ``refit DUMP``: the fusion's weights fitted (``bench fit``'s search) on MADial's plain rows
  alone: how far any weighting of today's features could take them, in-sample.
- ``emotion``: the ceiling of a shared feeling, with MADial's own labels (an oracle no
  recall has): recall's first 60 reordered so that memories whose feeling matches the gold's
  move up by N places.
"""

from __future__ import annotations

import collections
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np

from bench import devsets, fit, madial
from bench.embedders import CachingEmbedder, load
from bench.legs import Asked, read
from localmind.config import FusionConfig

#: MADial's labels of a pleasant feeling (the others: anxious, sad, angry, disappointed …)
PLEASANT = frozenset({"Happy", "Anticipation", "开心", "兴奋", "期待"})


def _ids(a: Asked, scores: np.ndarray) -> list[str]:
    return [str(a.space.ids[i]) for i in np.argsort(-scores, kind="stable")]


def plain_order(a: Asked) -> list[str]:
    return _ids(a, a.space.vectors @ a.query)


def centred_order(a: Asked) -> list[str]:
    """Every memory's vector less its store's mean, renormalised: what all memories share
    ("… and felt very happy") counts for none."""
    moved = a.space.vectors - a.space.vectors.mean(axis=0)
    moved /= np.linalg.norm(moved, axis=1, keepdims=True)
    return _ids(a, moved @ a.query)


def csls_order(a: Asked, neighbours: int, weight: float) -> list[str]:
    """Cross-domain similarity local scaling on the memory side: a memory's cosine less
    ``weight`` × its mean cosine to its ``neighbours`` nearest memories (scaled to the query's
    spread of cosines), so that a hub near everything ranks lower."""
    vectors = a.space.vectors
    between = vectors @ vectors.T
    np.fill_diagonal(between, -np.inf)
    k = min(neighbours, len(vectors) - 1)
    hubness = np.sort(between, axis=1)[:, -k:].mean(axis=1) if k > 0 else np.zeros(len(vectors))
    cosines = vectors @ a.query
    scale = float(np.std(cosines)) / max(float(np.std(hubness)), 1e-9)
    return _ids(a, cosines - weight * scale * hubness)


def smoothed_order(a: Asked, neighbours: int, weight: float) -> list[str]:
    """Every memory's vector plus ``weight`` × the mean of its ``neighbours`` nearest memories'
    (document expansion in the embedding: a memory inherits what its like are near)."""
    vectors = a.space.vectors
    between = vectors @ vectors.T
    np.fill_diagonal(between, -np.inf)
    nearest = np.argsort(-between, axis=1)[:, :neighbours]
    moved = vectors + weight * vectors[nearest].mean(axis=1)
    moved /= np.linalg.norm(moved, axis=1, keepdims=True)
    return _ids(a, moved @ a.query)


def recall_at_5(order: Sequence[str], gold: frozenset[str]) -> float:
    return len(set(order[:5]) & gold) / len(gold)


def dense(legs: Path) -> str:
    asked = [a for a in read(legs) if a.question.set.startswith("MADial")]
    variants: dict[str, Callable[[Asked], list[str]]] = {
        "dense as shipped": plain_order,
        "centred memories": centred_order,
        **{
            f"CSLS k={k} β={b}": (lambda a, k=k, b=b: csls_order(a, k, b))
            for k in (5, 10, 20)
            for b in (0.5, 1.0)
        },
        **{
            f"smoothed k={k} γ={g}": (lambda a, k=k, g=g: smoothed_order(a, k, g))
            for k in (1, 3, 5)
            for g in (0.2, 0.5)
        },
    }
    sets = sorted({a.question.set for a in asked})
    lines = ["| dense leg, R@5 | " + " | ".join(sets) + " |", "|---" + "|---:" * len(sets) + "|"]
    for name, order in variants.items():
        per = collections.defaultdict(list)
        for a in asked:
            per[a.question.set].append(recall_at_5(order(a), a.gold))
        lines.append(f"| {name} | " + " | ".join(f"{np.mean(per[s]):.3f}" for s in sets) + " |")
    return "\n".join(lines)


#: One more fusion feature, from the columns ``bench.fit`` reads (``fit.NAMES``: 0 cosine,
#: 1 its gap to the best, 2 relative BM25, 3 log(1 + BM25), 4 coverage).
def _agreement(x: np.ndarray) -> np.ndarray:
    cosine = (x[:, 0] - x[:, 0].min()) / max(float(np.ptp(x[:, 0])), 1e-9)
    bm25 = np.expm1(x[:, 3])
    return np.minimum(cosine, bm25 / max(float(bm25.max()), 1e-9))


FEATURES: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "gap × coverage": lambda x: x[:, 1] * x[:, 4],
    "cosine × coverage": lambda x: x[:, 0] * x[:, 4],
    "relative BM25 × exp(10 gap)": lambda x: x[:, 2] * np.exp(10 * x[:, 1]),
    "agreement (min of both legs, scaled)": _agreement,
    # the lesser of e^(gap / 0.2) and BM25 / best: what was run live for one-line questions
    "agreement (e^(gap/0.2) vs relative BM25)": lambda x: np.minimum(
        np.exp(x[:, 1] / 0.2), np.expm1(x[:, 3]) / max(float(np.expm1(x[:, 3]).max()), 1e-9)
    ),
    "coverage / best coverage": lambda x: x[:, 4] / max(float(x[:, 4].max()), 1e-9),
    "coverage²": lambda x: x[:, 4] ** 2,
}
WEIGHTS = (-1.0, -0.5, 0.5, 1.0, 2.0)


def _widened(questions: Sequence[fit.Question], feature: Callable) -> list[fit.Question]:
    return [
        replace(q, x=np.hstack([q.x, feature(q.x)[:, None] if len(q.x) else np.zeros((0, 1))]))
        for q in questions
    ]


def features(dumps: Sequence[Path]) -> str:
    questions = fit.load(list(dumps))
    shipped = np.array([getattr(FusionConfig(), n) for n in fit.NAMES], dtype=float)
    base = fit.recalls(questions, fit.weights_score(shipped))
    sets = sorted(base)
    lines = [
        "| feature | weight | " + " | ".join(sets) + " |",
        "|---|---:" + "|---:" * len(sets) + "|",
        "| (none: the shipped weights) | | " + " | ".join(f"{base[s][1]:.3f}" for s in sets) + " |",
    ]
    for name, feature in FEATURES.items():
        wide = _widened(questions, feature)
        for weight in WEIGHTS:
            found = fit.recalls(wide, fit.weights_score(np.append(shipped, weight)))
            lines.append(
                f"| {name} | {weight} | " + " | ".join(f"{found[s][1]:.3f}" for s in sets) + " |"
            )
    return "\n".join(lines)


def refit(dump: Path) -> str:
    questions = [q for q in fit.load([dump]) if q.set.startswith("MADial") and "plain" in q.set]
    shipped = np.array([getattr(FusionConfig(), n) for n in fit.NAMES], dtype=float)
    fitted = fit.fit_weights(questions, shipped)
    before = fit.recalls(questions, fit.weights_score(shipped))
    after = fit.recalls(questions, fit.weights_score(fitted))
    changed = ", ".join(
        f"{n} {a:.3g} → {b:.3g}"
        for n, a, b in zip(fit.NAMES, shipped, fitted, strict=True)
        if abs(a - b) > 1e-9
    )
    rows = [f"| {s} | {before[s][1]:.3f} | {after[s][1]:.3f} |" for s in sorted(before)]
    return "\n".join(["| set | shipped | refitted on these rows |", "|---|---:|---:|", *rows]) + (
        f"\n\nweights changed: {changed or 'none'}"
    )


def reordered(ranked: Sequence[str], matches: Callable[[str], bool], places: int) -> list[str]:
    """``ranked`` with each memory that ``matches`` moved up by ``places`` (stable)."""
    position = {key: i for i, key in enumerate(ranked)}
    return sorted(ranked, key=lambda key: position[key] - places * matches(key))


def emotion(shifts: Sequence[int] = (0, 2, 3, 5, 10, 100)) -> str:
    root = madial.data_dir()
    lines = ["| places moved up | " + " | ".join(madial.LANGUAGES) + " |", "|---:|---:|---:|"]
    table: dict[int, list[float]] = {shift: [] for shift in shifts}
    with tempfile.TemporaryDirectory(prefix="localmind-ceiling-") as scratch:
        model = load("use", Path(scratch))
        assert not isinstance(model, str), model
        embedder = CachingEmbedder(model)
        for lang in madial.LANGUAGES:
            feeling = {
                value["event"].strip(): value["emotion"]
                for value in madial._raw_memories(root, lang).values()
            }
            plain = next(s for s in devsets.madial_sets(lang, root) if "plain" in s.name)
            built = devsets.build(plain, Path(scratch), embedder)
            runs: list[tuple[list[str], frozenset[str], dict[str, bool]]] = []
            for namespace in sorted({q.namespace for q in plain.questions}):
                with built.open(namespace) as memory:
                    pleasant = {r.id: feeling.get(r.content) in PLEASANT for r in memory.iter_all()}
                    for question in plain.questions:
                        if question.namespace == namespace:
                            found = memory.recall(question.text, 60, threshold=0, touch=False)
                            gold = built.gold(question)
                            runs.append(([r.memory.id for r in found], gold, pleasant))
            for shift in shifts:
                scores = []
                for ranked, gold, pleasant in runs:
                    wanted = collections.Counter(pleasant[g] for g in gold).most_common(1)[0][0]
                    order = reordered(ranked, lambda key, p=pleasant, w=wanted: p[key] == w, shift)
                    scores.append(recall_at_5(order, gold))
                table[shift].append(float(np.mean(scores)))
    lines += [f"| {s} | " + " | ".join(f"{v:.3f}" for v in table[s]) + " |" for s in shifts]
    return "\n".join(lines)


def main(argv: Sequence[str]) -> int:
    if argv[:1] == ["dense"] and len(argv) == 2:
        print(dense(Path(argv[1])))
    elif argv[:1] == ["features"] and len(argv) >= 2:
        print(features([Path(p) for p in argv[1:]]))
    elif argv[:1] == ["refit"] and len(argv) == 2:
        print(refit(Path(argv[1])))
    elif argv[:1] == ["emotion"]:
        print(emotion())
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Retrieval metrics, the definitions of the data README.

- Recall@k = |top-k ∩ gold| / |gold|
- MRR: 1 / rank of the first gold id in the list (0 when none is in it)
- nDCG@10: binary gains, DCG = Σ_{i≤10} rel_i / log2(i + 1); the ideal ranking puts all gold ids
  first (min(|gold|, 10) of them).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

RECALL_AT = (1, 5, 10)
NDCG_AT = 10
MRR_DEPTH = 20  # peers' lists stop at 20, so ours are cut there too


@dataclass(frozen=True, slots=True)
class Scores:
    recall: dict[int, float]
    mrr: float
    ndcg: float
    n: int

    def as_dict(self) -> dict[str, float]:
        row = {f"R@{k}": v for k, v in self.recall.items()}
        return {**row, "MRR": self.mrr, f"nDCG@{NDCG_AT}": self.ndcg, "n": self.n}


def _dedup(ranked: Iterable[int]) -> list[int]:
    return list(dict.fromkeys(ranked))


def recall_at(ranked: Sequence[int], gold: Collection[int], k: int) -> float:
    return len(set(ranked[:k]) & set(gold)) / len(gold)


def reciprocal_rank(ranked: Sequence[int], gold: Collection[int], depth: int = MRR_DEPTH) -> float:
    for rank, key in enumerate(ranked[:depth], start=1):
        if key in gold:
            return 1.0 / rank
    return 0.0


def ndcg_at(ranked: Sequence[int], gold: Collection[int], k: int = NDCG_AT) -> float:
    dcg = sum(1.0 / math.log2(i + 2) for i, key in enumerate(ranked[:k]) if key in gold)
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(len(gold), k)))
    return dcg / ideal


def evaluate(rankings: Sequence[Sequence[int]], golds: Sequence[Collection[int]]) -> Scores:
    """Mean scores over queries; ``rankings[i]`` is the best-first id list for ``golds[i]``."""
    if len(rankings) != len(golds) or not golds:
        raise ValueError(f"{len(rankings)} rankings for {len(golds)} gold sets")
    lists = [_dedup(r) for r in rankings]
    n = len(golds)
    return Scores(
        recall={
            k: sum(recall_at(r, g, k) for r, g in zip(lists, golds, strict=True)) / n
            for k in RECALL_AT
        },
        mrr=sum(reciprocal_rank(r, g) for r, g in zip(lists, golds, strict=True)) / n,
        ndcg=sum(ndcg_at(r, g) for r, g in zip(lists, golds, strict=True)) / n,
        n=n,
    )

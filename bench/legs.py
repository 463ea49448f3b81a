"""``python -m bench legs dump OUT`` / ``python -m bench legs replay OUT``: what the legs could
find, replayed without a store.

``dump`` loads every dev set as ``bench retrieval`` does and writes, beside the candidate dump
``bench fit`` reads (OUT.json), every question's query vector and every memory's vector and date
(OUT.npz). ``replay`` then tries, in numpy, variants of the search that need more than the
candidates' scores: dense pseudo-relevance feedback (the vectors queried again with the query
moved towards the best fused candidates) and neighbours in time (a memory told minutes after a
relevant one). Each variant is scored per set and per kind beside both legs and the fusion as
shipped (docs/benchmarks.md, "Round 5").
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from bench import devsets
from bench.embedders import CachingEmbedder, load
from bench.fit import NAMES, Question, ranked_score
from bench.fit import load as load_questions
from bench.recall_sets import PROBE_LIMIT, _features
from localmind.config import DecayConfig, FusionConfig, RankingWeights
from localmind.ranking import relative_keyword_weight


def dump(out: Path, only: Sequence[str] = ()) -> None:
    wanted = [o.lower() for o in only]
    sets = devsets.all_sets(
        madial=not wanted or any("madial" in o for o in wanted),
        locomo_wanted=not wanted or any("locomo" in o for o in wanted),
        # personal2 became a dev set (it was held out); personal3 and personal4 are never dumped
        held_out=[o for o in wanted if o == "personal2"],
    )
    if wanted:
        sets = [s for s in sets if any(o in s.name.lower() for o in wanted)]
    entries: list[dict[str, Any]] = []
    query_vectors: list[np.ndarray] = []
    spaces: dict[str, tuple[list[str], np.ndarray, np.ndarray]] = {}
    with tempfile.TemporaryDirectory(prefix="localmind-legs-") as scratch:
        model = load("use", Path(scratch))
        assert not isinstance(model, str), model
        embedder = CachingEmbedder(model)
        built_items: dict[int, devsets.BuiltSet] = {}
        for devset in sets:
            key = id(devset.items)
            if key not in built_items:
                print(f"loading {devset.name}", file=sys.stderr, flush=True)
                built_items[key] = devsets.build(devset, Path(scratch), embedder)
            built = built_items[key]
            print(f"recalling {devset.name}", file=sys.stderr, flush=True)
            by_namespace: dict[str, list[devsets.Question]] = defaultdict(list)
            for question in devset.questions:
                by_namespace[question.namespace].append(question)
            for namespace, questions in by_namespace.items():
                space = f"{devset.name}/{namespace}"
                with built.open(namespace) as memory:
                    if space not in spaces:
                        records = list(memory.iter_all())
                        spaces[space] = (
                            [r.id for r in records],
                            np.asarray(embedder.embed_documents([r.content for r in records])),
                            np.array([r.created_at for r in records]),
                        )
                    for question in questions:
                        probe = memory.recall(question.text, PROBE_LIMIT, threshold=0, touch=False)
                        query_vectors.append(np.asarray(memory.query_vector(question.text)))
                        entries.append(
                            {
                                "set": devset.name,
                                "kind": question.kind,
                                "query": question.text,
                                "space": space,
                                "now": devset.now,
                                "gold": sorted(built.gold(question)),
                                "outdated": sorted(built.outdated(question)),
                                "candidates": [_features(r, {}) for r in probe],
                            }
                        )
    out.with_suffix(".json").write_text(json.dumps(entries, ensure_ascii=False), "utf-8")
    arrays: dict[str, np.ndarray] = {"queries": np.stack(query_vectors)}
    names = sorted(spaces)
    for i, space in enumerate(names):
        ids, vectors, created = spaces[space]
        arrays[f"ids{i}"] = np.array(ids)
        arrays[f"vectors{i}"] = vectors.astype(np.float32)
        arrays[f"created{i}"] = created
    arrays["spaces"] = np.array(names)
    np.savez_compressed(out.with_suffix(".npz"), **arrays)
    print(f"wrote {out.with_suffix('.json')} and .npz ({len(entries)} questions)", file=sys.stderr)


@dataclass
class Space:
    ids: np.ndarray
    index: dict[str, int]
    vectors: np.ndarray
    created: np.ndarray


@dataclass
class Asked:
    """One question with everything a replay needs."""

    question: Question  # bench.fit's features of the candidates
    candidate_ids: list[str]
    candidate_features: list[dict[str, Any]]
    query: np.ndarray
    space: Space
    gold: frozenset[str]
    text: str = ""  # the question (dumps before round 7 did not keep it)


def read(out: Path) -> list[Asked]:
    entries = json.loads(out.with_suffix(".json").read_text("utf-8"))
    arrays = np.load(out.with_suffix(".npz"))
    spaces = {}
    for i, name in enumerate(arrays["spaces"]):
        ids = arrays[f"ids{i}"]
        spaces[str(name)] = Space(
            ids,
            {str(k): n for n, k in enumerate(ids)},
            arrays[f"vectors{i}"],
            arrays[f"created{i}"],
        )
    asked = []
    queries = arrays["queries"]  # read once: an npz member is decompressed at every access
    with tempfile.TemporaryDirectory() as scratch:
        for n, entry in enumerate(entries):
            if not entry["gold"]:
                continue
            single = Path(scratch) / "q.json"
            single.write_text(json.dumps([entry]), "utf-8")
            (question,) = load_questions([single])
            asked.append(
                Asked(
                    question,
                    [c["id"] for c in entry["candidates"]],
                    entry["candidates"],
                    queries[n],
                    spaces[entry["space"]],
                    frozenset(entry["gold"]),
                    entry.get("query", ""),
                )
            )
    return asked


def shipped(config: FusionConfig) -> Callable[[Question], np.ndarray]:
    return ranked_score(config, RankingWeights(), DecayConfig())


def recall_at(order: Sequence[str], gold: frozenset[str], k: int) -> float:
    return len(set(order[:k]) & gold) / len(gold)


def fused_order(a: Asked, config: FusionConfig) -> list[str]:
    if not a.candidate_ids:
        return []
    score = shipped(config)(a.question)
    return [a.candidate_ids[i] for i in np.argsort(-score, kind="stable")]


def leg_order(a: Asked, column: int) -> list[str]:
    values = a.question.x[:, column] if a.candidate_ids else np.zeros(0)
    keep = [i for i in np.argsort(-values, kind="stable") if values[i] != 0]
    return [a.candidate_ids[i] for i in keep]


def _searched_again(a: Asked, vector: np.ndarray) -> tuple[np.ndarray, list[int], list[str]]:
    """Every memory's cosine to ``vector`` (normalised here), the rows of the first 50 by it
    that no search found, and the candidates' ids followed by theirs."""
    every = a.space.vectors @ (vector / np.linalg.norm(vector))
    known = set(a.candidate_ids)
    fresh = [int(i) for i in np.argsort(-every)[:50] if str(a.space.ids[i]) not in known]
    return every, fresh, a.candidate_ids + [str(a.space.ids[i]) for i in fresh]


def feedback_order(
    a: Asked, config: FusionConfig, k: int, alpha: float, weight: float, replace: bool
) -> list[str]:
    """Dense pseudo-relevance feedback: q' = normalize(q + alpha·mean of the top-k fused
    candidates' vectors); every candidate's cosine to q' either replaces its cosine in the
    fusion (``replace``) or adds ``weight``·cos' to its logit. Memories the second vector
    search finds (top 50 by cos') that no search found join with no keyword score."""
    if not a.candidate_ids:
        return []
    top = fused_order(a, config)[:k]
    rows = [a.space.index[key] for key in top if key in a.space.index]
    if not rows:
        return fused_order(a, config)
    every, fresh, ids = _searched_again(a, a.query + alpha * a.space.vectors[rows].mean(axis=0))
    q = a.question
    x = q.x
    record = q.record
    if fresh:
        cos = a.query @ a.space.vectors[fresh].T
        extra = np.zeros((len(fresh), len(NAMES)))
        extra[:, 0] = cos
        extra[:, 1] = cos - x[:, 0].max() + x[:, 1].max() * 0  # gap to the best cosine
        extra[:, 6] = extra[:, 1] * (x[:, 6].min() / x[:, 1].min() if x[:, 1].min() < 0 else 1)
        x = np.vstack([x, extra])
        assert record is not None
        median = np.median(record, axis=0)
        record = np.vstack([record, np.tile(median, (len(fresh), 1))])
    prime = np.array([every[a.space.index[key]] if key in a.space.index else 0.0 for key in ids])
    if replace:
        x = x.copy()
        unmatched_share = 1.0
        if q.x[:, 1].min() < 0:
            unmatched_share = float(q.x[:, 6].min() / q.x[:, 1].min())
        x[:, 0] = prime
        x[:, 1] = prime - prime.max()
        x[:, 6] = x[:, 1] * unmatched_share
    trial = Question(
        q.set, q.kind, x, np.array([key in a.gold for key in ids]), q.gold_count, record
    )
    score = shipped(config)(trial)
    if not replace:
        weights = np.array([getattr(config, n) for n in NAMES])
        z = config.bias + x @ weights + weight * prime
        p = 1 / (1 + np.exp(-np.clip(z, -50, 50)))
        base = 1 / (1 + np.exp(-np.clip(config.bias + x @ weights, -50, 50)))
        score = score * p / np.maximum(base, 1e-12)
    return [ids[i] for i in np.argsort(-score, kind="stable")]


def neighbour_order(
    a: Asked, config: FusionConfig, seconds: float, weight: float, turns: int = 0
) -> list[str]:
    """Neighbours in time: each candidate's logit gains ``weight`` × the best relevance of
    another candidate made within ``seconds`` of it."""
    if not a.candidate_ids:
        return []
    q = a.question
    weights = np.array([getattr(config, n) for n in NAMES])
    p = 1 / (1 + np.exp(-np.clip(config.bias + q.x @ weights, -50, 50)))
    created = np.array(
        [
            a.space.created[a.space.index[key]] if key in a.space.index else -1e18
            for key in a.candidate_ids
        ]
    )
    near = np.abs(created[:, None] - created[None, :]) <= seconds
    if turns:
        order = np.array([a.space.index.get(key, -(10**9)) for key in a.candidate_ids])
        near &= np.abs(order[:, None] - order[None, :]) <= turns
    np.fill_diagonal(near, False)
    best_near = np.where(near, p[None, :], 0.0).max(axis=1)
    z = config.bias + q.x @ weights + weight * best_near
    boosted = 1 / (1 + np.exp(-np.clip(z, -50, 50)))
    score = shipped(config)(q) * boosted / np.maximum(p, 1e-12)
    return [a.candidate_ids[i] for i in np.argsort(-score, kind="stable")]


SHIPPED_DEPTH = 50  # candidates per leg at recall(query, 10): max(10 × 5, 50)


def shipped_pool(a: Asked) -> list[int]:
    """The probe's candidates a shipped recall (limit 10) would have: each leg's first 50 and
    the memories made in the period the query names."""
    q = a.question
    keep = []
    for i, c in enumerate(a.candidate_features):
        vrank, krank = c.get("vrank"), c.get("krank")
        if (vrank and vrank <= SHIPPED_DEPTH) or (krank and krank <= SHIPPED_DEPTH) or q.x[i, 5]:
            keep.append(i)
    return keep


def _sub(q: Question, rows: list[int], gold: np.ndarray) -> Question:
    x = q.x[rows].copy()
    # the legs' relative terms are relative to this pool
    x[:, 1] = x[:, 0] - x[:, 0].max()
    best_bm25 = np.expm1(x[:, 3]).max()
    relative = relative_keyword_weight(list(x[:, 4]), 1.0)  # as ranking.relevance weighs it
    x[:, 2] = relative * np.expm1(x[:, 3]) / best_bm25 if best_bm25 > 0 else 0.0
    share = 1 - x[:, 4].max()
    x[:, 6] = x[:, 1] * share
    record = q.record[rows] if q.record is not None else None
    return Question(q.set, q.kind, x, gold, q.gold_count, record)


def context_order(
    a: Asked, config: FusionConfig, turns: int, weight: float, top: int, seconds: float
) -> list[str]:
    """The shipped pool, plus the memories stored within ``turns`` of the ``top`` most relevant
    ones and made within ``seconds`` of them (one conversation imported together); each
    candidate's logit gains ``weight`` × the best relevance of such a neighbour."""
    if not a.candidate_ids:
        return []
    pool = shipped_pool(a)
    weights = np.array([getattr(config, n) for n in NAMES])
    q = a.question
    first = _sub(q, pool, q.gold[pool])
    p = 1 / (1 + np.exp(-np.clip(config.bias + first.x @ weights, -50, 50)))
    if weight and turns:
        position = {key: i for i, key in enumerate(a.candidate_ids)}
        order = [a.space.index[a.candidate_ids[i]] for i in pool]
        have = set(pool)
        for i in np.argsort(-p)[:top]:
            at = order[i]
            for n in range(at - turns, at + turns + 1):
                if 0 <= n < len(a.space.ids):
                    key = str(a.space.ids[n])
                    same = abs(a.space.created[n] - a.space.created[at]) <= seconds
                    if same and key in position and position[key] not in have:
                        have.add(position[key])
                        pool.append(position[key])
        first = _sub(q, pool, q.gold[pool])
        # a neighbour fetched this way was not in the keyword leg's first 50: no BM25
        for j, i in enumerate(pool):
            c = a.candidate_features[i]
            krank = c.get("krank")
            if not (krank and krank <= SHIPPED_DEPTH):
                first.x[j, 2] = first.x[j, 3] = 0.0
        p = 1 / (1 + np.exp(-np.clip(config.bias + first.x @ weights, -50, 50)))
    score = shipped(config)(first)
    if weight and turns:
        spot = np.array([a.space.index[a.candidate_ids[i]] for i in pool])
        made = a.space.created[spot]
        near = (np.abs(spot[:, None] - spot[None, :]) <= turns) & (
            np.abs(made[:, None] - made[None, :]) <= seconds
        )
        np.fill_diagonal(near, False)
        best_near = np.where(near, p[None, :], 0.0).max(axis=1)
        z = config.bias + first.x @ weights + weight * best_near
        score = score * (1 / (1 + np.exp(-np.clip(z, -50, 50)))) / np.maximum(p, 1e-12)
    return [a.candidate_ids[pool[i]] for i in np.argsort(-score, kind="stable")]


def keyword_shift_order(
    a: Asked, config: FusionConfig, mode: str, value: float, few: float = 0
) -> list[str]:
    """Round 6 (paraphrases): more weight to the cosine when the query's words are found only
    in part. ``share``: the unmatched share that scales ``cosine_gap_unmatched`` becomes
    (1 − best coverage) ** value (below 1: a partial match shifts more to meaning);
    ``damp``: when the best coverage is below ``value``, every keyword term is scaled by
    best coverage / value."""
    if not a.candidate_ids:
        return []
    q = a.question
    x = q.x.copy()
    best = float(x[:, 4].max())
    pool = shipped_pool(a)  # (to replay it: FEW_KEYWORD_MATCHES = -1 in localmind.ranking)
    matched = (x[pool, 4] > 0).sum()
    if few and (matched > few if few >= 1 else matched > few * len(pool)):
        mode = "none"  # only when the keyword search found at most ``few`` memories
    if mode == "none":
        pass
    elif mode == "share":
        x[:, 6] = x[:, 1] * (1 - best) ** value
    elif mode == "relative":
        x[:, 2] *= min(1.0, best / value)
    elif mode == "script":
        x[:, 7] *= min(1.0, best / value)
    elif best < value:
        x[:, 2:5] *= best / value
    trial = Question(q.set, q.kind, x, q.gold, q.gold_count, q.record)
    score = shipped(config)(trial)
    return [a.candidate_ids[i] for i in np.argsort(-score, kind="stable")]


def script_order(
    a: Asked, config: FusionConfig, mode: str, value: float, weight: float
) -> list[str]:
    """Round 7: which memories in the other script get the other-script term, and how much
    (weight ``weight``). ``osramp``: by nearness to the best such memory's cosine, full at it,
    none ``value`` below it (as shipped; a large value is the term before round 7);
    ``osnear``: only those within ``value`` of it; ``osfloor``: ``weight``·max(0, cos − value);
    ``ostop``: only the ``value`` best by cosine."""
    if not a.candidate_ids:
        return []
    q = a.question
    x = q.x.copy()
    cos = x[:, 0]
    other = np.array([bool(c.get("other_script")) for c in a.candidate_features])
    best = cos[other].max() if other.any() else 0.0
    if mode == "osramp":
        x[:, 7] = np.where(other, cos * np.clip(1 - (best - cos) / value, 0, 1), 0.0)
    elif mode == "osnear":
        x[:, 7] = np.where(other & (cos >= best - value), cos, 0.0)
    elif mode == "osfloor":
        x[:, 7] = np.where(other, np.maximum(0.0, cos - value), 0.0)
    else:  # ostop
        order = np.argsort(-np.where(other, cos, -np.inf), kind="stable")[: int(value)]
        x[:, 7] = 0.0
        x[order, 7] = np.where(other[order], cos[order], 0.0)
    trial = Question(q.set, q.kind, x, q.gold, q.gold_count, q.record)
    score = shipped(replace(config, other_script_cosine=weight))(trial)
    return [a.candidate_ids[i] for i in np.argsort(-score, kind="stable")]


class LastLine:
    """Round 7: a query of several lines embedded whole plus ``weight`` × its last line (the
    question a dialogue asks), every memory's cosine to that; memories the new vector finds
    in its first 50 join with no keyword score. Needs dumps that keep the query's text."""

    def __init__(self) -> None:
        self.vectors: dict[str, np.ndarray] = {}
        self.embedder: Any = None

    def vector(self, text: str) -> np.ndarray:
        if text not in self.vectors:
            if self.embedder is None:
                model = load("use", Path(tempfile.mkdtemp(prefix="localmind-legs-")))
                assert not isinstance(model, str), model
                self.embedder = model
            self.vectors[text] = np.asarray(self.embedder.embed_query([text])[0])
        return self.vectors[text]

    def order(self, a: Asked, config: FusionConfig, weight: float) -> list[str]:
        lines = [line for line in a.text.strip().splitlines() if line.strip()]
        if len(lines) < 2 or not a.candidate_ids:
            return fused_order(a, config)
        # a.query is the vector the dump's recall searched with: the whole text for dumps made
        # before round 7 (replay those; later dumps already hold the last line's share)
        every, fresh, ids = _searched_again(a, a.query + weight * self.vector(lines[-1]))
        q = a.question
        assert q.record is not None
        x = np.vstack([q.x, np.zeros((len(fresh), q.x.shape[1]))])
        record = np.vstack([q.record, np.tile(np.median(q.record, axis=0), (len(fresh), 1))])
        other = np.concatenate([q.x[:, 7] != 0, np.zeros(len(fresh), dtype=bool)])
        cos = every[[a.space.index[key] for key in ids]]
        x[:, 0] = cos
        x[:, 1] = cos - cos.max()
        x[:, 6] = x[:, 1] * (1 - x[:, 4].max())
        x[:, 7] = np.where(other, cos, 0.0)
        gold = np.array([key in a.gold for key in ids])
        score = shipped(config)(Question(q.set, q.kind, x, gold, q.gold_count, record))
        return [ids[i] for i in np.argsort(-score, kind="stable")]


class LastLineLeg(LastLine):
    """Round 10: the last line searched as a second dense query whose cosine enters the fusion
    as two features of its own (not summed into the query vector as ``LastLine``): weight
    ``own`` × (cos_last − cos) and ``gap`` × (cos_last − the best cos_last); memories its first
    50 hold that no search found join with no keyword score."""

    def order(self, a: Asked, config: FusionConfig, own: float, gap: float = 0.0) -> list[str]:
        lines = [line for line in a.text.strip().splitlines() if line.strip()]
        if len(lines) < 2 or not a.candidate_ids:
            return fused_order(a, config)
        last = self.vector(lines[-1])
        every, fresh, ids = _searched_again(a, last)
        q = a.question
        assert q.record is not None
        rows = [a.space.index[key] for key in ids]
        cos = (a.space.vectors @ (a.query / np.linalg.norm(a.query)))[rows]
        x = np.vstack([q.x, np.zeros((len(fresh), q.x.shape[1]))])
        x[:, 0] = cos
        x[:, 1] = cos - cos.max()
        x[len(q.x) :, 6] = x[len(q.x) :, 1] * (1 - q.x[:, 4].max())
        record = np.vstack([q.record, np.tile(np.median(q.record, axis=0), (len(fresh), 1))])
        gold = np.array([key in a.gold for key in ids])
        trial = Question(q.set, q.kind, x, gold, q.gold_count, record)
        weights = np.array([getattr(config, n) for n in NAMES])
        base = 1 / (1 + np.exp(-np.clip(config.bias + x @ weights, -50, 50)))
        last_cos = every[rows]
        z = config.bias + x @ weights + own * (last_cos - cos) + gap * (last_cos - last_cos.max())
        score = shipped(config)(trial) * (1 / (1 + np.exp(-np.clip(z, -50, 50)))) / base
        return [ids[i] for i in np.argsort(-score, kind="stable")]


class EveryLine(LastLine):
    """Round 11: every line of a dialogue query embedded on its own; a memory's best cosine to
    any line (``best2``: the mean of its two best) enters the fusion as ``own`` × (that − its
    cosine to the whole query) + ``gap`` × (that − the best candidate's): a memory one turn
    speaks of, which the whole dialogue's vector blurs."""

    def order(
        self, a: Asked, config: FusionConfig, own: float, gap: float = 0.0, two: bool = False
    ) -> list[str]:
        lines = [line for line in a.text.strip().splitlines() if line.strip()]
        if len(lines) < 2 or not a.candidate_ids:
            return fused_order(a, config)
        every = np.stack([self.vector(line) for line in lines])
        every /= np.linalg.norm(every, axis=1, keepdims=True)
        per_line = a.space.vectors[[a.space.index[key] for key in a.candidate_ids]] @ every.T
        ranked = np.sort(per_line, axis=1)[:, ::-1]
        best = ranked[:, :2].mean(axis=1) if two else ranked[:, 0]
        q = a.question
        weights = np.array([getattr(config, n) for n in NAMES])
        z = config.bias + q.x @ weights
        lifted = z + own * (best - q.x[:, 0]) + gap * (best - best.max())
        score = shipped(config)(q) * _sigmoid(lifted) / _sigmoid(z)
        return [a.candidate_ids[i] for i in np.argsort(-score, kind="stable")]


def dialogue_order(a: Asked, config: FusionConfig, keywords: float, gap: float) -> list[str]:
    """Round 11: for a query of three lines or more (a dialogue), the keyword terms (relative
    BM25, log BM25, coverage) weighed ``keywords`` times as shipped and the cosine gaps ``gap``
    times; one-line questions as shipped."""
    lines = [line for line in a.text.strip().splitlines() if line.strip()]
    if len(lines) < 3 or not a.candidate_ids:
        return fused_order(a, config)
    q = a.question
    x = q.x.copy()
    x[:, [2, 3, 4]] *= keywords
    x[:, [1, 6]] *= gap
    score = shipped(config)(Question(q.set, q.kind, x, q.gold, q.gold_count, q.record))
    return [a.candidate_ids[i] for i in np.argsort(-score, kind="stable")]


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-np.clip(z, -50, 50)))


def spread_order(a: Asked, config: FusionConfig, weight: float) -> list[str]:
    """Round 10: per-query leg weighting from the dense leg's score distribution: the cosine
    gap gains ``weight`` × (best cosine − 10th best cosine) / 0.1, so that a peaked dense leg
    decides more and a flat one leaves more to the keywords."""
    if not a.candidate_ids:
        return []
    q = a.question
    top = np.sort(q.x[:, 0])[::-1]
    spread = float(top[0] - top[min(9, len(top) - 1)])
    weights = np.array([getattr(config, n) for n in NAMES])
    base = 1 / (1 + np.exp(-np.clip(config.bias + q.x @ weights, -50, 50)))
    z = config.bias + q.x @ weights + weight * q.x[:, 1] * spread / 0.1
    score = shipped(config)(q) * (1 / (1 + np.exp(-np.clip(z, -50, 50)))) / base
    return [a.candidate_ids[i] for i in np.argsort(-score, kind="stable")]


def diverse_order(
    a: Asked, config: FusionConfig, weight: float, floor: float, together: bool = False
) -> list[str]:
    """Round 10: maximal marginal relevance over the shipped order's first 30: each next result
    is the one whose score × (1 − ``weight`` × how far its cosine to a result already chosen
    exceeds ``floor``, as a share of 1 − floor) is highest, so that near-copies of one memory
    leave room for the other memories a question needs (multi-part questions, MADial's several
    memories per dialogue)."""
    if not a.candidate_ids:
        return []
    score = shipped(config)(a.question)
    ranked = [int(i) for i in np.argsort(-score, kind="stable")]
    head, tail = ranked[:30], ranked[30:]
    vectors = a.space.vectors[[a.space.index[a.candidate_ids[i]] for i in head]]
    alike = vectors @ vectors.T
    if together:  # only memories made at the same moment (one conversation imported at once)
        made = a.space.created[[a.space.index[a.candidate_ids[i]] for i in head]]
        alike = np.where(np.abs(made[:, None] - made[None, :]) < 1.0, alike, -1.0)
    chosen: list[int] = []
    rest = list(range(len(head)))
    while rest and len(chosen) < 10:
        nearest = alike[np.ix_(rest, chosen)].max(axis=1) if chosen else np.zeros(len(rest))
        damp = 1 - weight * np.clip((nearest - floor) / (1 - floor), 0, 1)
        pick = rest[int(np.argmax(score[[head[j] for j in rest]] * damp))]
        chosen.append(pick)
        rest.remove(pick)
    return [a.candidate_ids[i] for i in [head[j] for j in chosen + rest] + tail]


def table(asked: Sequence[Asked], systems: dict[str, Callable[[Asked], list[str]]]) -> str:
    sets = sorted({a.question.set for a in asked})
    lines = ["| set | n | " + " | ".join(systems) + " |", "|---|---:|" + "---:|" * len(systems)]
    orders = {name: [f(a) for a in asked] for name, f in systems.items()}
    for name in sets:
        chosen = [i for i, a in enumerate(asked) if a.question.set == name]
        cells = []
        for system in systems:
            r5 = np.mean([recall_at(orders[system][i], asked[i].gold, 5) for i in chosen])
            r10 = np.mean([recall_at(orders[system][i], asked[i].gold, 10) for i in chosen])
            cells.append(f"{r5:.3f} / {r10:.3f}")
        lines.append(f"| {name} | {len(chosen)} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def replay(out: Path, variants: Sequence[str]) -> None:
    asked = read(out)
    config = FusionConfig()
    systems: dict[str, Callable[[Asked], list[str]]] = {
        "BM25": lambda a: leg_order(a, 3),
        "dense": lambda a: leg_order(a, 0),
        "fused": lambda a: fused_order(a, config),
    }
    every_line = EveryLine()  # one for every variant: each embeds every line of every query
    for variant in variants:
        kind, *args = variant.split(":")
        values = [float(v) for v in args]
        if kind == "prf":  # prf:k:alpha  (replace the cosine)
            systems[variant] = lambda a, v=values: feedback_order(
                a, config, int(v[0]), v[1], 0.0, True
            )
        elif kind == "prfw":  # prfw:k:alpha:weight (a second dense feature)
            systems[variant] = lambda a, v=values: feedback_order(
                a, config, int(v[0]), v[1], v[2], False
            )
        elif kind == "near":  # near:seconds:weight
            systems[variant] = lambda a, v=values: neighbour_order(a, config, v[0], v[1])
        elif kind == "ctx":  # ctx:turns:weight:top:seconds
            systems[variant] = lambda a, v=values: context_order(
                a, config, int(v[0]), v[1], int(v[2]), v[3]
            )
        elif kind in ("share", "damp", "script", "relative"):  # KIND:value[:few]
            systems[variant] = lambda a, k=kind, v=values: keyword_shift_order(
                a, config, k, v[0], v[1] if len(v) > 1 else 0
            )
        elif kind in ("osramp", "osnear", "osfloor", "ostop"):  # KIND:value:weight
            systems[variant] = lambda a, k=kind, v=values: script_order(a, config, k, v[0], v[1])
        elif kind == "lastline":  # lastline:weight
            last_line = LastLine()
            systems[variant] = lambda a, v=values, f=last_line: f.order(a, config, v[0])
        elif kind == "lastleg":  # lastleg:own:gap (round 10)
            last_leg = LastLineLeg()
            systems[variant] = lambda a, v=values, f=last_leg: f.order(a, config, v[0], v[1])
        elif kind in ("mmr", "mmrtold"):  # mmr:weight:floor (round 10)
            systems[variant] = lambda a, v=values, k=kind: diverse_order(
                a, config, v[0], v[1], k == "mmrtold"
            )
        elif kind == "dialogue":  # dialogue:keywords:gap (round 11)
            systems[variant] = lambda a, v=values: dialogue_order(a, config, v[0], v[1])
        elif kind in ("lines", "lines2"):  # lines:own:gap (round 11)
            systems[variant] = lambda a, v=values, f=every_line, k=kind: f.order(
                a, config, v[0], v[1], k == "lines2"
            )
        elif kind == "spread":  # spread:weight (round 10)
            systems[variant] = lambda a, v=values: spread_order(a, config, v[0])
        elif kind == "adj":  # adj:seconds:turns:weight
            systems[variant] = lambda a, v=values: neighbour_order(a, config, v[0], v[2], int(v[1]))
    print(table(asked, systems))
    # the kind the round-6 variants are for, alone (every set's paraphrase questions)
    paraphrases = [a for a in asked if a.question.kind == "paraphrase"]
    if paraphrases:
        print("\nparaphrase questions only:")
        print(table(paraphrases, systems))


def main(argv: Sequence[str]) -> int:
    if argv and argv[0] == "chat":
        chat_queries([int(a) if a.isdigit() else a for a in argv[1:]] or [0, 1, 2, 3, 4])
        return 0
    if len(argv) < 2 or argv[0] not in ("dump", "replay"):
        print(
            "usage: python -m bench.legs dump OUT [SET...] | replay OUT [VARIANT...]"
            " | chat [REPEATS | users+ | users-only | last2 | last4 ...]"
        )
        return 2
    if argv[0] == "dump":
        dump(Path(argv[1]), argv[2:])
    else:
        replay(Path(argv[1]), argv[2:])
    return 0


def _weighted_turns(name: str) -> Callable[[Any], str]:
    """Round 10: the chat builder (every turn, the last user turn twice more) with some turns
    weighted more, by speaker or by recency: ``users+`` the user's turns once more,
    ``users-only`` the user's turns alone, ``lastN`` the last N turns once more."""
    from bench import queries

    def build(dialogue: Any) -> str:
        turns = dialogue.turns
        users = [turn for turn in turns if turn.role == "user"]
        last = (users or turns)[-1].text
        if name == "users-only":
            lines = [turn.text for turn in users]
        elif name == "users+":
            lines = [turn.text for turn in turns + users]
        else:
            lines = [turn.text for turn in turns + turns[-int(name.removeprefix("last")) :]]
        return "\n".join([*lines, last, last]) if turns else queries.window(dialogue)

    return build


def chat_queries(repeats: Sequence[int | str]) -> None:
    """MADial en and zh through the chat session's query builder with the last user turn
    repeated ``repeats`` more times (it weighs the vector query only: BM25 counts a term once),
    or a named builder of ``_weighted_turns``; recall as shipped, R@5 / R@10 per language."""
    from bench import madial, queries

    with tempfile.TemporaryDirectory(prefix="localmind-legs-") as scratch:
        model = load("use", Path(scratch))
        assert not isinstance(model, str), model
        embedder = CachingEmbedder(model)
        for lang in ("en", "zh"):
            devset = devsets.madial_sets(lang)[1]  # the chat query view
            built = devsets.build(devset, Path(scratch), embedder)
            dialogues = madial.load_dialogues(madial.data_dir(), lang)
            for count in repeats:
                if isinstance(count, str):
                    build = _weighted_turns(count)
                else:
                    build = queries.with_last_user(queries.window, count)
                found = []
                for question, dialogue in zip(devset.questions, dialogues, strict=True):
                    with built.open(question.namespace) as memory:
                        ranked = [r.memory.id for r in memory.recall(build(dialogue), 10)]
                    found.append([recall_at(ranked, built.gold(question), k) for k in (5, 10)])
                r5, r10 = np.mean(found, axis=0)
                label = count if isinstance(count, str) else f"last turn ×{count} more"
                print(f"| {devset.name} | {label} | {r5:.3f} | {r10:.3f} |")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

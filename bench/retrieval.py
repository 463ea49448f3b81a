"""Retrieval quality on MADial-Bench, through localmind's public API, beside the paper's peers.

For each language a fresh encrypted store per embedder is loaded with that language's memories
(one namespace per MADial user: the peers' lists, too, only ever hold the dialogue's own user's
memories). Each dialogue's query is built from the turns before its test turn; every recall runs
with ``touch=False`` and a clock fixed one day after the latest memory.

Ranking modes, all read from ``Memory.recall`` results:
- vector only / BM25 only: the order of ``breakdown.vector_rank`` / ``keyword_rank`` in a recall
  asking for every memory of the user;
- RRF order: the same recall with ``RankingWeights(similarity=1, others 0)``, i.e. the fused order;
- full ranking: a plain ``recall(query, 20)`` with the default ranking weights, as users get it.
"""

from __future__ import annotations

import datetime as dt
import json
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench import madial, queries, variants
from bench.embedders import CHOICES, CachingEmbedder, load
from bench.metrics import Scores, evaluate
from bench.stores import BuiltStore, Pass, build_store, dataset_ids, recall_pass
from localmind import FusionConfig, RankingWeights, RecallResult, Settings

LIBRARY_FUSION = FusionConfig()
TUNED_FUSION = FusionConfig(rrf_k=10, vector_weight=1.0, keyword_weight=0.5)
SIMILARITY_ONLY = RankingWeights(similarity=1.0, importance=0.0, recency=0.0, frequency=0.0)
#: The reference design's ranking weights (the library's defaults are 0.7/0.1/0.1/0.1).
REFERENCE_RANKING = RankingWeights(similarity=0.4, importance=0.25, recency=0.2, frequency=0.15)
RESULT_LIMIT = 20  # the full-ranking recall: enough for R@10 and MRR@20
GRID_K = (5, 10, 20, 60)
GRID_KEYWORD_WEIGHT = (0.25, 0.5, 0.75, 1.0)
QUICK_DIALOGUES = 20
QUICK_STRATEGIES = ("history", queries.DEFAULT)
#: For embedders after the first, in English: the constructions that matter, to save time.
SECONDARY_STRATEGIES = ("history", "window", "window+last×1", queries.DEFAULT, "window+last×3")

VECTOR, BM25, RRF, FULL = "vector only", "BM25 only", "RRF order", "full ranking"
REFERENCE = "reference weights 0.4/0.25/0.2/0.15"

#: The data README's table, which the peers' lists must reproduce with our metric code.
README_PEERS: dict[str, dict[str, tuple[float, float, float, float]]] = {
    "en": {
        "OpenAI embeddings": (0.368, 0.695, 0.806, 0.688),
        "BGE-M3 dense": (0.279, 0.553, 0.705, 0.577),
        "GTE": (0.271, 0.525, 0.657, 0.534),
        "Jina": (0.213, 0.448, 0.622, 0.471),
    },
    "zh": {
        "OpenAI embeddings": (0.363, 0.694, 0.824, 0.700),
        "Stella": (0.300, 0.593, 0.740, 0.609),
        "Acge": (0.307, 0.590, 0.735, 0.612),
        "BGE-M3 dense": (0.289, 0.586, 0.714, 0.593),
        "Dmeta": (0.305, 0.599, 0.701, 0.591),
    },
}


def fusion_label(config: FusionConfig) -> str:
    weights = f"{config.vector_weight:g}:{config.keyword_weight:g}"
    suffix = " (library)" if config == LIBRARY_FUSION else ""
    return f"RRF k={config.rrf_k}, vec:kw {weights}{suffix}"


@dataclass(frozen=True, slots=True)
class Options:
    langs: tuple[str, ...]
    embedders: tuple[str, ...]
    quick: bool
    dialogues: int | None
    data: Path
    out: Path | None


@dataclass
class Row:
    lang: str
    section: str
    system: str
    query: str
    fusion: str
    ranking: str
    scores: Scores
    rankings: list[list[int]] = field(repr=False, default_factory=list)

    def summary(self) -> dict[str, Any]:
        return {
            "lang": self.lang,
            "section": self.section,
            "system": self.system,
            "query": self.query,
            "fusion": self.fusion,
            "ranking": self.ranking,
            **self.scores.as_dict(),
        }


@dataclass
class Suite:
    """Everything measured for one language and one embedder."""

    lang: str
    label: str
    store: BuiltStore
    embedder: CachingEmbedder
    dialogues: list[madial.Dialogue]
    rows: list[Row] = field(default_factory=list)
    timing: dict[str, float] = field(default_factory=dict)

    def golds(self) -> list[frozenset[int]]:
        return [d.gold for d in self.dialogues]

    def add(
        self, section: str, query: str, fusion: str, ranking: str, lists: list[list[int]]
    ) -> Row:
        row = Row(
            self.lang,
            section,
            self.label,
            query,
            fusion,
            ranking,
            evaluate(lists, self.golds()),
            lists,
        )
        self.rows.append(row)
        return row

    def queries(self, strategy: str) -> list[str]:
        build = queries.STRATEGIES[strategy].build
        return [build(d) for d in self.dialogues]

    def recall(
        self, strategy: str, fusion: FusionConfig, ranking: RankingWeights | None, limit: int | None
    ) -> Pass:
        settings = Settings(fusion=fusion, ranking=ranking or RankingWeights())
        return recall_pass(self.store, self.dialogues, self.queries(strategy), settings, limit)


# --- orders read from recall results ------------------------------------------------------------


def _by_rank(
    results: Sequence[RecallResult], rank: Callable[[RecallResult], int | None]
) -> list[int]:
    ranked = sorted((r for r in results if rank(r) is not None), key=lambda r: rank(r) or 0)
    return dataset_ids(ranked)


def vector_order(results: Sequence[RecallResult]) -> list[int]:
    return _by_rank(results, lambda r: r.breakdown.vector_rank)


def keyword_order(results: Sequence[RecallResult]) -> list[int]:
    return _by_rank(results, lambda r: r.breakdown.keyword_rank)


def orders(recalled: Pass, order: Callable[[Sequence[RecallResult]], list[int]]) -> list[list[int]]:
    return [order(results) for results in recalled.results]


# --- the experiments of one suite ---------------------------------------------------------------


def run_shipped(suite: Suite) -> None:
    """The library as it ships (default Settings, full ranking), best query first and cold, so
    its latency includes embedding the query; then the peers' raw query."""
    shipped = suite.recall(queries.DEFAULT, LIBRARY_FUSION, None, RESULT_LIMIT)
    suite.timing["recall_cold_median_ms"] = 1000 * statistics.median(shipped.seconds)
    suite.add(
        "main", queries.DEFAULT, fusion_label(LIBRARY_FUSION), FULL, orders(shipped, dataset_ids)
    )
    history = suite.recall("history", LIBRARY_FUSION, None, RESULT_LIMIT)
    suite.add("main", "history", fusion_label(LIBRARY_FUSION), FULL, orders(history, dataset_ids))


def run_main(suite: Suite) -> Pass:
    """Vector only, BM25 only, RRF order (library and tuned fusion) and the full ranking with the
    tuned fusion, for the best query. Returns the tuned every-memory pass for the what-ifs."""
    label = fusion_label(TUNED_FUSION)
    probe = suite.recall(queries.DEFAULT, TUNED_FUSION, SIMILARITY_ONLY, None)
    suite.add("main", queries.DEFAULT, "—", VECTOR, orders(probe, vector_order))
    suite.add("main", queries.DEFAULT, "—", BM25, orders(probe, keyword_order))
    library = suite.recall(queries.DEFAULT, LIBRARY_FUSION, SIMILARITY_ONLY, None)
    suite.add(
        "main", queries.DEFAULT, fusion_label(LIBRARY_FUSION), RRF, orders(library, dataset_ids)
    )
    suite.add("main", queries.DEFAULT, label, RRF, orders(probe, dataset_ids))
    tuned = suite.recall(queries.DEFAULT, TUNED_FUSION, None, RESULT_LIMIT)
    suite.timing["recall_warm_median_ms"] = 1000 * statistics.median(tuned.seconds)
    suite.add("main", queries.DEFAULT, label, FULL, orders(tuned, dataset_ids))
    reference = suite.recall(queries.DEFAULT, TUNED_FUSION, REFERENCE_RANKING, RESULT_LIMIT)
    suite.add(
        "main", queries.DEFAULT, label, f"{FULL}, {REFERENCE}", orders(reference, dataset_ids)
    )
    return probe


def run_queries(suite: Suite, strategies: Sequence[str]) -> None:
    label = fusion_label(TUNED_FUSION)
    for strategy in strategies:
        probe = suite.recall(strategy, TUNED_FUSION, SIMILARITY_ONLY, None)
        suite.add("query", strategy, "—", VECTOR, orders(probe, vector_order))
        suite.add("query", strategy, "—", BM25, orders(probe, keyword_order))
        suite.add("query", strategy, label, RRF, orders(probe, dataset_ids))


def strategies_for(lang: str, first: bool, quick: bool) -> tuple[str, ...]:
    """Every query construction for the first (bundled) embedder; the main ones for the others
    in English, where they are tuned; in Chinese only the peers' and the default query."""
    if quick:
        return QUICK_STRATEGIES
    if first:
        return tuple(queries.STRATEGIES)
    return SECONDARY_STRATEGIES if lang == "en" else QUICK_STRATEGIES


def run_grid(suite: Suite) -> None:
    for k in GRID_K:
        for weight in GRID_KEYWORD_WEIGHT:
            config = FusionConfig(rrf_k=k, vector_weight=1.0, keyword_weight=weight)
            probe = suite.recall(queries.DEFAULT, config, SIMILARITY_ONLY, None)
            suite.add(
                "grid", queries.DEFAULT, fusion_label(config), RRF, orders(probe, dataset_ids)
            )


def run_ranking_whatifs(suite: Suite, tuned_probe: Pass) -> None:
    """The default ranking formula over every candidate, with other similarities (bench-side)."""
    library_probe = suite.recall(queries.DEFAULT, LIBRARY_FUSION, SIMILARITY_ONLY, None)
    weights = variants.default_weights()
    for fusion, probe in ((LIBRARY_FUSION, library_probe), (TUNED_FUSION, tuned_probe)):
        for name, similarity in variants.SIMILARITIES.items():
            lists = [dataset_ids(variants.rescore(r, similarity, weights)) for r in probe.results]
            suite.add(
                "ranking",
                queries.DEFAULT,
                fusion_label(fusion),
                f"full ranking, similarity = {name}",
                lists,
            )
        no_recency = RankingWeights(recency=0.0)
        lists = [
            dataset_ids(variants.rescore(r, variants.fused, no_recency)) for r in probe.results
        ]
        suite.add(
            "ranking",
            queries.DEFAULT,
            fusion_label(fusion),
            "full ranking without recency (weight 0)",
            lists,
        )


SCORE_FUSION_ALPHAS = (0.7, 0.8)


def run_score_fusion(suite: Suite, items: Sequence[madial.MemoryItem], probe: Pass) -> None:
    """Score fusion (min-max cosine and BM25, mixed by alpha) in place of RRF, alone and as the
    similarity of the full ranking (bench-side: BM25 scores from a library-tokenized FTS5 copy)."""
    index = variants.KeywordIndex(items, variants.TOKENIZATIONS[suite.lang][0])
    texts = suite.queries(queries.DEFAULT)
    keyword = [index.scores(d, q) for d, q in zip(suite.dialogues, texts, strict=True)]
    weights = [
        (RRF.replace("RRF", "fused"), SIMILARITY_ONLY),
        (f"{FULL} (default weights)", variants.default_weights()),
        (f"{FULL}, {REFERENCE}", REFERENCE_RANKING),
    ]
    for alpha in SCORE_FUSION_ALPHAS:
        label = f"score fusion {alpha:g}·cos + {1 - alpha:g}·BM25 (min-max)"
        for name, ranking in weights:
            lists = [
                dataset_ids(variants.rescore(r, variants.score_fusion(kw, alpha), ranking))
                for r, kw in zip(probe.results, keyword, strict=True)
            ]
            suite.add("ranking", queries.DEFAULT, label, name, lists)


def run_tokenizations(suite: Suite, items: Sequence[madial.MemoryItem], probe: Pass) -> None:
    """Keyword search with other tokenizations in a bench-side FTS5 table, alone and fused (tuned
    RRF) with this suite's vector order."""
    texts = suite.queries(queries.DEFAULT)
    vector_lists = orders(probe, vector_order)
    k, weight = TUNED_FUSION.rrf_k, TUNED_FUSION.keyword_weight
    for tokenization in variants.TOKENIZATIONS.get(suite.lang, []):
        index = variants.KeywordIndex(items, tokenization)
        keyword = [index.search(d, q) for d, q in zip(suite.dialogues, texts, strict=True)]
        suite.add("tokenization", queries.DEFAULT, "—", f"BM25 only: {tokenization.name}", keyword)
        fused = [
            variants.rrf_ids(v, kw, k, weight) for v, kw in zip(vector_lists, keyword, strict=True)
        ]
        suite.add(
            "tokenization",
            queries.DEFAULT,
            fusion_label(TUNED_FUSION),
            f"RRF order: {tokenization.name}",
            fused,
        )


def run_suite(
    lang: str,
    key: str,
    embedder: Any,
    items: Sequence[madial.MemoryItem],
    dialogues: list[madial.Dialogue],
    options: Options,
    scratch: Path,
    first: bool,
) -> Suite:
    started = time.perf_counter()
    caching = CachingEmbedder(embedder)
    store = build_store(scratch, f"{lang}-{key}", caching, items)
    suite = Suite(lang, CHOICES[key].label, store, caching, dialogues)
    suite.timing["store_load_s"] = store.load_seconds
    suite.timing["memories"] = store.memories
    run_shipped(suite)
    probe = run_main(suite)
    run_queries(suite, strategies_for(lang, first, options.quick))
    if first or lang == "en":
        run_ranking_whatifs(suite, probe)
        run_score_fusion(suite, items, probe)
    if first:
        run_grid(suite)
        run_tokenizations(suite, items, probe)
    suite.timing["query_embeddings"] = caching.misses
    suite.timing["embedding_s"] = caching.seconds
    suite.timing["suite_s"] = time.perf_counter() - started
    return suite


# --- peers ---------------------------------------------------------------------------------------


def check_peers(root: Path) -> None:
    """The peers' figures, computed by our metric code on all dialogues, must match the README."""
    for lang, expected in README_PEERS.items():
        peers = {p.name: p for p in madial.load_peers(root, lang)}
        for name, figures in expected.items():
            scores = evaluate(peers[name].top, peers[name].gold)
            got = (scores.recall[1], scores.recall[5], scores.recall[10], scores.ndcg)
            if any(abs(a - b) > 0.0006 for a, b in zip(got, figures, strict=True)):
                raise AssertionError(f"{lang} {name}: computed {got}, README says {figures}")


def peer_rows(root: Path, lang: str, dialogues: Sequence[madial.Dialogue]) -> list[Row]:
    rows = []
    chosen = [d.index for d in dialogues]
    for peer in madial.load_peers(root, lang):
        top = [peer.top[i] for i in chosen]
        scores = evaluate(top, [d.gold for d in dialogues])
        rows.append(
            Row(lang, "peer", peer.name, "history", "—", "dense top-20 (paper)", scores, top)
        )
    rows.sort(key=lambda row: row.scores.recall[5], reverse=True)
    return rows


# --- the run -------------------------------------------------------------------------------------


@dataclass
class LangResult:
    lang: str
    dialogues: int
    now: str
    rows: list[Row]
    timing: dict[str, dict[str, float]]
    skipped: dict[str, str]


def run_language(lang: str, options: Options, scratch: Path) -> LangResult:
    items = madial.load_memories(options.data, lang)
    dialogues = madial.load_dialogues(options.data, lang)
    if options.dialogues:
        dialogues = dialogues[: options.dialogues]
    rows: list[Row] = []
    timing: dict[str, dict[str, float]] = {}
    skipped: dict[str, str] = {}
    first = True
    for key in options.embedders:
        started = time.perf_counter()
        embedder = load(key, scratch)
        if isinstance(embedder, str):
            skipped[CHOICES[key].label] = embedder
            continue
        model_seconds = time.perf_counter() - started
        log(f"[{lang}] {CHOICES[key].label}: model ready in {model_seconds:.1f} s")
        suite = run_suite(lang, key, embedder, items, dialogues, options, scratch, first)
        suite.timing["model_load_s"] = model_seconds
        timing[suite.label] = suite.timing
        rows.extend(suite.rows)
        first = False
        log(f"[{lang}] {suite.label}: done in {suite.timing['suite_s']:.1f} s")
    rows.extend(peer_rows(options.data, lang, dialogues))
    now = dt.datetime.fromtimestamp(max(i.timestamp for i in items) + 86_400, tz=dt.UTC).strftime(
        "%Y-%m-%d %H:%M UTC"
    )
    return LangResult(lang, len(dialogues), now, rows, timing, skipped)


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def run(options: Options) -> int:
    from bench import report

    started = time.perf_counter()
    if not (options.data / "en").is_dir() or not (options.data / "peers").is_dir():
        raise SystemExit(
            f"MADial-Bench data not found in {options.data}: give --data or set "
            f"{madial.DATA_ENV} to the madial-bench folder."
        )
    check_peers(options.data)
    log("peers' figures match the data README")
    with tempfile.TemporaryDirectory(prefix="localmind-bench-") as scratch:
        results = [run_language(lang, options, Path(scratch)) for lang in options.langs]
    meta = {
        "date": dt.date.today().isoformat(),
        "quick": options.quick,
        "total_s": time.perf_counter() - started,
        "python": platform.python_version(),
        "machine": f"{platform.machine()}, {_cpus()} cores",
        "default_query": queries.DEFAULT,
        "tuned_fusion": fusion_label(TUNED_FUSION),
    }
    markdown = report.markdown(results, meta)
    print(markdown)
    if options.out is not None:
        report.write(options.out, markdown, results, meta)
        log(f"wrote {options.out} and its .json / .raw.json")
    return 0


def _cpus() -> int:
    import os

    return os.cpu_count() or 1


def default_out(quick: bool) -> Path | None:
    if quick:
        return None
    return Path("bench/results") / f"retrieval-{dt.date.today().isoformat()}.md"


def summary_json(results: Sequence[LangResult], meta: dict[str, Any]) -> dict[str, Any]:
    return {
        "meta": meta,
        "languages": [
            {
                "lang": r.lang,
                "dialogues": r.dialogues,
                "recall_now": r.now,
                "timing": r.timing,
                "skipped": r.skipped,
                "rows": [row.summary() for row in r.rows],
            }
            for r in results
        ],
    }


RAW_DEPTH = 20  # ranked ids kept per dialogue in the raw file


def raw_json(results: Sequence[LangResult]) -> dict[str, Any]:
    """Every row with its per-dialogue top-20 dataset ids, for analysis (not committed)."""
    return {
        r.lang: [
            {**row.summary(), "rankings": [ids[:RAW_DEPTH] for ids in row.rankings]}
            for row in r.rows
        ]
        for r in results
    }


def dump(path: Path, payload: dict[str, Any], *, compact: bool = False) -> None:
    text = json.dumps(payload, ensure_ascii=False, indent=None if compact else 1)
    path.write_text(text + "\n", encoding="utf-8")

"""The retrieval benchmark's Markdown report and its JSON files."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bench.metrics import Scores

if TYPE_CHECKING:
    from bench.retrieval import LangResult, Row

METRIC_HEADER = "| R@1 | R@5 | R@10 | MRR | nDCG@10 |"
METRIC_RULE = "|---:|---:|---:|---:|---:|"


def _metrics(scores: Scores) -> str:
    values = [*scores.recall.values(), scores.mrr, scores.ndcg]
    return "| " + " | ".join(f"{v:.3f}" for v in values) + " |"


def _table(rows: Sequence[Row], columns: Sequence[str]) -> list[str]:
    head = "| " + " | ".join(columns) + " " + METRIC_HEADER
    rule = "|" + "---|" * len(columns) + METRIC_RULE[1:]
    lines = [head, rule]
    for row in rows:
        cells = [str(getattr(row, column)) for column in columns]
        lines.append("| " + " | ".join(cells) + " " + _metrics(row.scores))
    return lines


def _section(result: LangResult, name: str) -> list[Row]:
    return [row for row in result.rows if row.section == name]


def _main(result: LangResult) -> list[str]:
    rows = _section(result, "main") + _section(result, "peer")
    return [
        "Ours through `Memory.recall` (store per embedder, namespace per user), and the paper's "
        "peers' top-20 lists scored by the same code.",
        "",
        *_table(rows, ["system", "query", "fusion", "ranking"]),
    ]


def _queries(result: LangResult) -> list[str]:
    rows = _section(result, "query")
    keys = list(dict.fromkeys((row.system, row.query) for row in rows))
    by = {(row.system, row.query, row.ranking): row.scores for row in rows}
    lines = [
        "Recall@5 per query construction (hybrid = tuned RRF order); nDCG@10 of the hybrid.",
        "",
        "| system | query | vector R@5 | BM25 R@5 | hybrid R@5 | hybrid R@10 | hybrid nDCG@10 |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for system, query in keys:
        vector, bm25, rrf = (
            by[system, query, mode] for mode in ("vector only", "BM25 only", "RRF order")
        )
        lines.append(
            f"| {system} | {query} | {vector.recall[5]:.3f} | {bm25.recall[5]:.3f} | "
            f"{rrf.recall[5]:.3f} | {rrf.recall[10]:.3f} | {rrf.ndcg:.3f} |"
        )
    return lines


def _grid(result: LangResult) -> list[str]:
    rows = _section(result, "grid")
    if not rows:
        return []
    cells: dict[str, dict[str, Scores]] = {}
    for row in rows:
        k_part, weights = row.fusion.removeprefix("RRF ").split(", vec:kw ")
        cells.setdefault(k_part, {})[weights.removesuffix(" (library)")] = row.scores
    weights = list(next(iter(cells.values())))
    lines = [
        f"RRF order, {rows[0].system}, query `{rows[0].query}`: R@5 / nDCG@10 by RRF k (rows) "
        "and vector:keyword weight (columns).",
        "",
        "| k | " + " | ".join(weights) + " |",
        "|---|" + "---:|" * len(weights),
    ]
    for k_part, by_weight in cells.items():
        values = [f"{s.recall[5]:.3f} / {s.ndcg:.3f}" for s in by_weight.values()]
        lines.append(f"| {k_part} | " + " | ".join(values) + " |")
    return lines


def _ranking(result: LangResult) -> list[str]:
    rows = [r for r in _section(result, "main") if r.ranking.startswith(("RRF", "full"))]
    rows = [r for r in rows if r.query != "history"] + _section(result, "ranking")
    return [
        "How the final formula changes the fused order. Confidence (0.8) and frequency (0, "
        "`touch=False`) are equal for every memory here; importance (0.5, decayed with idle days) "
        "and recency (half-life 7 days) both favour the newest memories, which this benchmark's "
        "gold does not. Rows marked `similarity =` re-score every candidate of a recall "
        "bench-side with the default weights; `score fusion` rows mix the per-query min-max "
        "cosine and BM25 instead of fusing ranks (bench-side, BM25 from a copy of the index).",
        "",
        *_table(rows, ["system", "fusion", "ranking"]),
    ]


def _tokenization(result: LangResult) -> list[str]:
    rows = _section(result, "tokenization")
    if not rows:
        return []
    return [
        "Keyword search in a bench-side FTS5 table (same tokenizer settings and BM25 as the "
        "library, one table for all users), alone and fused with the vector order.",
        "",
        *_table(rows, ["system", "fusion", "ranking"]),
    ]


def _timing(result: LangResult) -> list[str]:
    lines = [
        "| system | model load s | memories | store load s | query embeddings | embedding s | "
        "recall median ms, cold (incl. embedding) | recall median ms, warm | suite s |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for system, t in result.timing.items():
        lines.append(
            f"| {system} | {t['model_load_s']:.1f} | {t['memories']:.0f} | {t['store_load_s']:.2f}"
            f" | {t['query_embeddings']:.0f} | {t['embedding_s']:.1f}"
            f" | {t['recall_cold_median_ms']:.1f} | {t['recall_warm_median_ms']:.1f}"
            f" | {t['suite_s']:.1f} |"
        )
    for system, reason in result.skipped.items():
        lines.append(f"| {system} | skipped: {reason} | | | | | | | |")
    return lines


def _language(result: LangResult) -> list[str]:
    parts: list[str] = [
        f"## {result.lang}: {result.dialogues} dialogues, recall clock fixed at {result.now}",
        "",
    ]
    for title, body in (
        ("Main table", _main(result)),
        ("Query construction", _queries(result)),
        ("RRF k and list weights", _grid(result)),
        ("Fusion and final ranking", _ranking(result)),
        ("Keyword tokenization", _tokenization(result)),
        ("Timing", _timing(result)),
    ):
        if body:
            parts += [f"### {title}", "", *body, ""]
    return parts


HEADLINE_PEERS = ("BGE-M3 dense", "OpenAI embeddings")


def _headline_cells(result: LangResult, system: str) -> list[tuple[str, Scores]]:
    def pick(query: str, fusion: str, ranking: str) -> Scores | None:
        for row in _section(result, "main"):
            if (row.system, row.query, row.ranking) == (system, query, ranking) and (
                fusion in row.fusion
            ):
                return row.scores
        return None

    from bench.queries import DEFAULT
    from bench.retrieval import FULL, REFERENCE, RRF

    wanted = [
        ("as shipped, peers' query", pick("history", "(library)", FULL)),
        ("as shipped, best query", pick(DEFAULT, "(library)", FULL)),
        ("best query, tuned RRF, RRF order", pick(DEFAULT, "k=10", RRF)),
        ("best query, reference weights", pick(DEFAULT, "k=10", f"{FULL}, {REFERENCE}")),
    ]
    return [(name, scores) for name, scores in wanted if scores is not None]


def _headline(results: Sequence[LangResult]) -> list[str]:
    lines = [
        "## Headline",
        "",
        "| lang | system | configuration | R@5 | R@10 | nDCG@10 |",
        "|---|---|---|---:|---:|---:|",
    ]
    for result in results:
        systems = dict.fromkeys(r.system for r in _section(result, "main"))
        for system in systems:
            for name, scores in _headline_cells(result, system):
                lines.append(
                    f"| {result.lang} | {system} | {name} | {scores.recall[5]:.3f}"
                    f" | {scores.recall[10]:.3f} | {scores.ndcg:.3f} |"
                )
        for row in _section(result, "peer"):
            if row.system in HEADLINE_PEERS:
                lines.append(
                    f"| {result.lang} | {row.system} | paper's top-20 | {row.scores.recall[5]:.3f}"
                    f" | {row.scores.recall[10]:.3f} | {row.scores.ndcg:.3f} |"
                )
    return [*lines, ""]


def markdown(results: Sequence[LangResult], meta: dict[str, Any]) -> str:
    lines = [
        f"# Retrieval benchmark: MADial-Bench ({meta['date']}{', quick' if meta['quick'] else ''})",
        "",
        f"Default query: `{meta['default_query']}`. Tuned fusion: {meta['tuned_fusion']}. "
        "Recall@k = |top-k ∩ gold| / |gold|; MRR over the top 20; nDCG@10 with the ideal ranking "
        "of all gold ids. Retrieval is per user, as in the paper's lists.",
        "",
        *_headline(results),
    ]
    for result in results:
        lines += _language(result)
    lines.append(
        f"Whole run: {meta['total_s']:.0f} s on {meta['machine']}, Python {meta['python']}."
    )
    return "\n".join(lines) + "\n"


def write(md_path: Path, text: str, results: Sequence[LangResult], meta: dict[str, Any]) -> None:
    from bench.retrieval import dump, raw_json, summary_json

    md_path.parent.mkdir(parents=True, exist_ok=True)
    md_path.write_text(text, encoding="utf-8")
    dump(md_path.with_suffix(".json"), summary_json(results, meta))
    dump(md_path.with_suffix(".raw.json"), raw_json(results), compact=True)

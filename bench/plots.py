"""``python -m bench.plots [retrieval.json]``: the recall@k bars of localmind beside the paper's
peers, per language, as ``assets/retrieval-recall.png`` (the perf plots are drawn by
``bench.perf``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT / "bench" / "results" / "retrieval-2026-11-30.json"
OUT = ROOT / "assets" / "retrieval-recall.png"
PEERS = ("OpenAI embeddings", "BGE-M3 dense", "Stella", "GTE", "Jina")


def shipped(rows: list[dict[str, Any]], system: str) -> dict[str, Any] | None:
    """localmind as it ships: the first main row of ``system`` (best query, full ranking)."""
    for row in rows:
        if (
            row["section"] == "main"
            and row["system"] == system
            and row["ranking"] == "full ranking"
        ):
            return row
    return None


def bars(path: Path = DEFAULT, out: Path = OUT) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    results = json.loads(path.read_text(encoding="utf-8"))
    languages = results["languages"]
    figure, axes = plt.subplots(1, len(languages), figsize=(6 * len(languages), 4.2), sharey=True)
    for axis, language in zip(axes if len(languages) > 1 else [axes], languages, strict=True):
        rows = language["rows"]
        systems: list[tuple[str, dict[str, Any]]] = []
        ours = shipped(rows, "USE-m3 (bundled)")
        if ours:
            systems.append(("localmind (USE-m3, bundled)", ours))
        peers = {row["system"]: row for row in rows if row["section"] == "peer"}
        systems += [(name, peers[name]) for name in PEERS if name in peers]
        metrics = ("R@1", "R@5", "R@10")
        width = 0.8 / len(systems)
        for index, (name, row) in enumerate(systems):
            positions = [m + index * width for m in range(len(metrics))]
            values = [row[metric] for metric in metrics]
            bar = axis.bar(positions, values, width, label=name)
            if index == 0:
                axis.bar_label(bar, fmt="%.2f", fontsize=7)
        axis.set_xticks([m + 0.4 - width / 2 for m in range(len(metrics))], metrics)
        axis.set_title(f"MADial-Bench {language['lang']} ({language['dialogues']} dialogues)")
        axis.set_ylim(0, 1)
        axis.grid(axis="y", alpha=0.3)
        axis.legend(fontsize=7, loc="upper left")
    axes_list = axes if len(languages) > 1 else [axes]
    axes_list[0].set_ylabel("recall")
    figure.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(out, dpi=120)
    return out


if __name__ == "__main__":
    print(bars(Path(sys.argv[1])) if len(sys.argv) > 1 else bars())

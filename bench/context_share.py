"""What the context block's relative bar (``ProfileConfig.context_relative_relevance``) costs
and saves on the personal dev sets, told one by one without a model: for each share of the best
result's relevance, how often any gold memory is still given and how many memories are.
Share 0 is recall's own top 10, what the block gave before. Then, at the shipped share, the cap
of one memory per so much of the best one's relevance
(``ProfileConfig.context_relevance_per_memory``), over every question and over those whose best
result is below 0.1 (where the cap bites).

    python -m bench.context_share personal personal2
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from pathlib import Path

from bench import devsets
from bench.embedders import CachingEmbedder, load
from localmind.config import ProfileConfig
from localmind.currency import worth_giving

SHARES = (0.0, 0.1, 0.2, 0.3)
PER_MEMORY = (0.0, 0.01, 0.015, 0.02, 0.025)
WEAK = 0.1
LIMIT = 10  # Memory.context's


def main(names: list[str]) -> None:
    for name in names or ["personal", "personal2"]:
        devset = devsets.personal_set(name)
        with tempfile.TemporaryDirectory(prefix="localmind-context-") as scratch:
            model = load("use", Path(scratch))
            if isinstance(model, str):
                raise SystemExit(model)
            built = devsets.build(devset, Path(scratch), CachingEmbedder(model))
            hits = dict.fromkeys(SHARES, 0)
            given: dict[float, list[int]] = {share: [] for share in SHARES}
            capped_hits = dict.fromkeys(PER_MEMORY, 0)
            capped: dict[float, list[int]] = {per: [] for per in PER_MEMORY}
            weak: dict[float, list[int]] = {per: [] for per in PER_MEMORY}
            shipped = ProfileConfig().context_relative_relevance
            asked = 0
            with built.open("me") as memory:
                for question in devset.questions:
                    gold = built.gold(question)
                    results = memory.recall(question.text, LIMIT, touch=False)
                    asked += bool(gold)
                    for share in SHARES:
                        kept = {r.memory.id for r in worth_giving(results, share)}
                        given[share].append(len(kept))
                        hits[share] += bool(kept & gold)
                    best = max((r.breakdown.similarity for r in results), default=0.0)
                    for per in PER_MEMORY:
                        kept = {r.memory.id for r in worth_giving(results, shipped, per)}
                        capped[per].append(len(kept))
                        capped_hits[per] += bool(kept & gold)
                        if 0 < best < WEAK:
                            weak[per].append(len(kept))
        for share in SHARES:
            print(
                f"{name}, share {share}: a gold memory given {hits[share]}/{asked} "
                f"({hits[share] / asked:.3f}); memories given: mean "
                f"{statistics.mean(given[share]):.2f}, median {statistics.median(given[share])}"
            )
        for per in PER_MEMORY:
            print(
                f"{name}, share {shipped}, a memory per {per} of the best's relevance: a gold "
                f"memory given {capped_hits[per]}/{asked} ({capped_hits[per] / asked:.3f}); "
                f"memories given: mean {statistics.mean(capped[per]):.2f}; when the best is "
                f"below {WEAK} ({len(weak[per])} questions): mean "
                f"{statistics.mean(weak[per] or [0]):.2f}"
            )


if __name__ == "__main__":
    main(sys.argv[1:])

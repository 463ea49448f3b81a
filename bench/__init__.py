"""Benchmarks for localmind, run as ``python -m bench <subcommand>`` from the repository root.

- ``retrieval``: recall quality on every dev set at once — MADial-Bench en/zh, LoCoMo dev, the
  personal set — BM25 only, dense only and as shipped, side by side (:mod:`bench.recall_sets`);
- ``fit``: fits the recall fusion on those sets' candidate dumps (:mod:`bench.fit`);
- ``perf`` and ``sync``: speed and scale.
"""

"""Benchmarks for localmind, run as ``python -m bench <subcommand>`` from the repository root.

- ``retrieval``: recall quality on MADial-Bench (English and Chinese), with ablations, beside the
  paper's own retrieval lists for other embedding models (see :mod:`bench.retrieval`).
"""

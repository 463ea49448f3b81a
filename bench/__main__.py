"""``python -m bench <subcommand>``: localmind's benchmarks, run from the repository root.

Each subcommand registers its arguments here and imports its module only when chosen, so
``python -m bench --help`` stays instant. To add one (``perf``, say), write an ``_add_perf``
that builds its parser and sets ``handler`` to a function taking the parsed arguments.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path


def _languages(value: str) -> tuple[str, ...]:
    return ("en", "zh") if value == "both" else (value,)


def _retrieval(args: argparse.Namespace) -> int:
    from bench import madial
    from bench.retrieval import QUICK_DIALOGUES, Options, default_out, run

    quick = bool(args.quick)
    langs = _languages(args.lang or ("en" if quick else "both"))
    embedders = (
        tuple(args.embedders.split(","))
        if args.embedders
        else (("use",) if quick else ("use", "minilm"))
    )
    out = Path(args.out) if args.out else default_out(quick)
    options = Options(
        langs=langs,
        embedders=embedders,
        quick=quick,
        dialogues=args.dialogues or (QUICK_DIALOGUES if quick else None),
        data=madial.data_dir(args.data),
        out=out,
    )
    return run(options)


def _add_retrieval(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "retrieval",
        help="recall quality on MADial-Bench (en, zh) with ablations, beside the paper's peers",
        description="Recall quality on MADial-Bench through localmind's public API: Recall@1/5/10, "
        "MRR and nDCG@10 for vector-only, BM25-only, fused and fully ranked recall, several query "
        "constructions, RRF settings and tokenizations, beside the paper's own retrieval lists.",
    )
    parser.add_argument(
        "--lang",
        choices=("en", "zh", "both"),
        help="languages to run (default: both; en with --quick)",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="smoke test: 20 dialogues, one language, USE only, fewer ablations; "
        "writes no file unless --out is given",
    )
    parser.add_argument(
        "--out",
        help="Markdown report path; .json and .raw.json are written "
        "beside it (default: bench/results/retrieval-<date>.md)",
    )
    parser.add_argument(
        "--embedders",
        help="comma-separated: use, minilm, e5 (default: use,minilm; use with --quick)",
    )
    parser.add_argument("--dialogues", type=int, help="only the first N dialogues")
    parser.add_argument(
        "--data",
        help="MADial-Bench folder (default: $LOCALMIND_MADIAL_DIR or "
        "shared/data/madial-bench beside the repository)",
    )
    parser.set_defaults(handler=_retrieval)


def _perf(args: argparse.Namespace) -> int:
    from bench import perf

    return perf.main(args)


def _add_perf(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "perf",
        help="speed and scale: remember/recall at 1k-100k memories, encrypted vs plain, "
        "beside ChromaDB and numpy",
        description="Speed and scale on synthetic memories (see bench/perf.py).",
    )
    from bench.perf import add_arguments  # imports numpy: ~0.1 s

    add_arguments(parser)
    parser.set_defaults(handler=_perf)


def _sync(args: argparse.Namespace) -> int:
    from bench import sync

    return sync.run(args)


def _add_sync(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "sync",
        help="sync throughput: export, import and compaction of 10,000 events",
        description="Sync throughput through a local folder (see bench/sync.py).",
    )
    from bench.sync import add_arguments

    add_arguments(parser)
    parser.set_defaults(handler=_sync)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True, metavar="SUBCOMMAND")
    _add_retrieval(commands)
    _add_perf(commands)
    _add_sync(commands)
    args = parser.parse_args(argv)
    return int(args.handler(args))


if __name__ == "__main__":
    sys.exit(main())

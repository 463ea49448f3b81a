"""The ``localmind`` command: the TUI when run with no arguments in a terminal, otherwise the
command line (``localmind.cli``), which also keeps scripts working (no terminal, no TUI)."""

from __future__ import annotations

import os
import sys

from localmind.cli import PASSPHRASE_ENV
from localmind.cli import main as cli_main


def wants_tui(argv: list[str]) -> bool:
    return not argv and sys.stdin.isatty() and sys.stdout.isatty()


def main() -> None:
    if not wants_tui(sys.argv[1:]):
        cli_main()
        return
    from tui.app import LocalmindApp

    llm = None
    if os.environ.get("LOCALMIND_NO_LLM", "").strip().lower() in ("", "0", "false", "no"):
        from localmind.llm.ollama import OllamaLLM

        llm = OllamaLLM()
    LocalmindApp(
        os.environ.get("LOCALMIND_DB") or None,
        llm=llm,
        passphrase=os.environ.get(PASSPHRASE_ENV),
        namespace=os.environ.get("LOCALMIND_USER") or "me",
        embedder=os.environ.get("LOCALMIND_EMBEDDER") or None,
    ).run()


if __name__ == "__main__":
    main()

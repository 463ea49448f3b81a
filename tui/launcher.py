"""The ``localmind`` command: the TUI when run in a terminal with no subcommand (global options
such as ``--db`` or ``--user`` are honoured), otherwise the command line (``localmind.cli``),
which also keeps scripts working (no terminal, no TUI)."""

from __future__ import annotations

import os
import sys

from localmind.cli import PASSPHRASE_ENV
from localmind.cli import main as cli_main
from sync import cli as sync_cli  # noqa: F401  (registers `localmind sync`; the core cannot)

# The CLI's global options that take a value, by name, and the environment variable each mirrors.
_VALUED = {
    "--db": "LOCALMIND_DB",
    "--user": "LOCALMIND_USER",
    "--embedder": "LOCALMIND_EMBEDDER",
    "--model": "LOCALMIND_MODEL",
}


def tui_options(argv: list[str]) -> dict[str, str] | None:
    """The global options of ``argv`` as {environment variable: value} when it holds nothing
    else (the TUI's case); None when it names a subcommand or anything the CLI should handle."""
    options: dict[str, str] = {}
    rest = list(argv)
    while rest:
        name, equals, value = rest.pop(0).partition("=")
        if name in _VALUED:
            if not equals:
                if not rest:
                    return None
                value = rest.pop(0)
            options[_VALUED[name]] = value
        elif name == "--no-llm" and not equals:
            options["LOCALMIND_NO_LLM"] = "1"
        else:
            return None
    return options


def wants_tui(argv: list[str]) -> bool:
    return tui_options(argv) is not None and sys.stdin.isatty() and sys.stdout.isatty()


def main() -> None:
    options = tui_options(sys.argv[1:])
    if options is None or not (sys.stdin.isatty() and sys.stdout.isatty()):
        cli_main()
        return
    from tui.app import LocalmindApp

    def setting(name: str) -> str | None:
        return options.get(name) or os.environ.get(name) or None

    llm = None
    if (setting("LOCALMIND_NO_LLM") or "").strip().lower() in ("", "0", "false", "no"):
        from localmind.llm.ollama import OllamaLLM

        llm = OllamaLLM(model=setting("LOCALMIND_MODEL"))
    LocalmindApp(
        setting("LOCALMIND_DB"),
        llm=llm,
        passphrase=os.environ.get(PASSPHRASE_ENV),
        namespace=setting("LOCALMIND_USER") or "me",
        embedder=setting("LOCALMIND_EMBEDDER"),
    ).run()


if __name__ == "__main__":
    main()

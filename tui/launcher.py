"""The ``localmind`` command: the TUI when run in a terminal with no subcommand (global options
such as ``--db`` or ``--user`` are honoured), otherwise the command line (``localmind.cli``),
which also keeps scripts working (no terminal, no TUI). Both read their configuration through
:mod:`localmind.configuration` and build their store through :mod:`localmind.composition`."""

from __future__ import annotations

import sys
from typing import Any

# Nothing heavy is imported here: importing the core takes most of a second, and a Ctrl-C in
# it printed a page of traceback (review15b DV8). ``main`` imports it, where Ctrl-C is caught.

# The CLI's global options that take a value, by name, and the configuration key each sets.
_VALUED = {
    "--db": "store",
    "--user": "user",
    "--embedder": "embedder",
    "--llm": "llm.backend",
    "--model": "llm.model",
}


def tui_options(argv: list[str]) -> dict[str, Any] | None:
    """The global options of ``argv`` as {configuration key: value} when it holds nothing
    else (the TUI's case); None when it names a subcommand or anything the CLI should handle."""
    options: dict[str, Any] = {}
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
            options["llm.enabled"] = False
        else:
            return None
    return options


def wants_tui(argv: list[str]) -> bool:
    return tui_options(argv) is not None and sys.stdin.isatty() and sys.stdout.isatty()


def main() -> None:
    try:
        _run()
    except KeyboardInterrupt:  # in the first second: while the core is imported
        print("\nInterrupted.", file=sys.stderr)
        sys.exit(130)


def _run() -> None:
    from localmind import composition, configuration
    from localmind.cli import main as cli_main
    from localmind.errors import LocalmindError
    from sync import cli as sync_cli  # noqa: F401  (registers `localmind sync`; the core cannot)

    options = tui_options(sys.argv[1:])
    if options is None or not (sys.stdin.isatty() and sys.stdout.isatty()):
        cli_main()
        return
    from tui.app import LocalmindApp

    try:
        chosen = configuration.load(options)
    except LocalmindError as error:  # as the CLI says it: one line, exit code 1
        print(f"Error: {error}", file=sys.stderr)
        sys.exit(1)
    LocalmindApp(
        chosen.store,
        llm=composition.make_llm(chosen),
        passphrase=configuration.passphrase(),
        namespace=chosen.user,
        configuration=chosen,
    ).run()


if __name__ == "__main__":
    main()

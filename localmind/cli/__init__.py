"""The ``localmind`` command line. Wiring only: every behaviour lives in the library.

One module per command group; importing this package registers every command on :data:`cli`
(the group of :mod:`localmind.cli.root`). ``tui.launcher`` runs :func:`main` when ``localmind``
is given a command, ``python -m localmind`` always.
"""

from localmind.cli import (
    backup,
    capacity,
    chat,
    config,
    keyring,
    mcp,
    memories,
    models,
    profile,
    review,
    store,
    transfer,
)
from localmind.cli.root import cli, main

__all__ = [
    "backup",
    "capacity",
    "chat",
    "cli",
    "config",
    "keyring",
    "main",
    "mcp",
    "memories",
    "models",
    "profile",
    "review",
    "store",
    "transfer",
]

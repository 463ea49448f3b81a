"""What every command shares: the configuration, the store it names, opened and unlocked
(by the passphrase, asked for or from the environment, or the key the OS keyring remembers)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from localmind import composition, configuration
from localmind.configuration import PASSPHRASE_ENV
from localmind.errors import InvalidInput, NotAStore, StoreError, WrongPassphrase
from localmind.keys import check_new_passphrase, key_file_for
from localmind.memory import Memory
from localmind.paths import default_db_path
from localmind.swap import finish_interrupted
from localmind.terminal import printable


class Context:
    """What every command shares: the configuration, layered from ``localmind.toml``, the
    environment and the global options (:mod:`localmind.configuration`). Read on first use, so
    that ``localmind config path`` still answers when the file is broken."""

    def __init__(self, flags: dict[str, Any]) -> None:
        self._flags = flags
        self._configuration: configuration.Configuration | None = None
        # Whether a passphrase may be asked for in a terminal: not by `localmind mcp`, whose
        # stdin is the protocol's channel.
        self.may_ask = True

    @property
    def configuration(self) -> configuration.Configuration:
        if self._configuration is None:
            self._configuration = configuration.load(self._flags)
        return self._configuration

    @property
    def db(self) -> Path:
        return self.configuration.store

    @property
    def namespace(self) -> str:
        return self.configuration.user

    @property
    def embedder(self) -> str | None:
        return self.configuration.embedder

    @property
    def no_llm(self) -> bool:
        return not self.configuration.llm_enabled

    def known_db(self) -> Path | None:
        """The store, when the configuration has been read (error messages never read it)."""
        return self._configuration.store if self._configuration else None

    def require_store(self) -> None:
        """Refuse, creating nothing, when there is no store at ``db``: only the commands that
        put memories in (add, import) create one, so a typo in --db or LOCALMIND_DB is an
        error instead of a new, empty store that answers every question with nothing."""
        finish_interrupted(self.db)  # a restore a crash cut short: finish it, never create
        if not self.db.exists() and not key_file_for(self.db).exists():
            raise NotAStore(no_store_message(self.db))

    @contextmanager
    def open(
        self, *, accept_new_embedder: bool = False, llm: bool = False, create: bool = False
    ) -> Iterator[Memory]:
        """The store, unlocked; ``create``: make it when there is none yet (else NotAStore)."""
        try:
            if create:
                finish_interrupted(self.db)  # a restore a crash cut short: finish it first
            else:
                self.require_store()
            creating = not self.db.exists() and not key_file_for(self.db).exists()
            if creating:
                check_folder(self.db)
            options: dict[str, Any] = {
                "accept_new_embedder": accept_new_embedder,
                "llm": composition.make_llm(self.configuration) if llm else None,
            }
            memory = None
            if not creating:
                memory = open_remembered(self.configuration, may_ask=self.may_ask, **options)
            if memory is None:
                passphrase = read_passphrase(creating=creating, db=self.db, may_ask=self.may_ask)
                memory = composition.open_memory(
                    self.configuration, passphrase, create=create, **options
                )
                del passphrase
        except OSError as error:  # a name too long, a folder not readable or writable, …
            raise StoreError(
                f"Cannot open a store at {str(self.db)!r}: {error.strerror or error}."
            ) from None
        memory.source = "cli"  # what a command adds (mcp and chat say their own)
        if creating:
            click.echo(f"Created a new encrypted store at {self.db}", err=True)
        report = memory.maintained_on_open
        if report is not None and (report.archived or report.expired or report.purged):
            click.echo(
                f"Daily maintenance: {report.archived} archived (importance decayed), "
                f"{report.expired} expired, {report.purged} purged (list the archived: "
                "localmind list --archived).",
                err=True,
            )
        try:
            yield memory
        finally:
            memory.close()


def open_remembered(
    configured: configuration.Configuration, *, may_ask: bool = True, **options: Any
) -> Memory | None:
    """The store opened with the data key `localmind unlock --remember` kept in the OS
    keyring; None when none is (or LOCALMIND_PASSPHRASE is set, which always wins), or when
    it no longer opens the store (said on stderr; the passphrase is asked for then). Without
    ``may_ask`` a key that no longer opens the store is a one-line error instead."""
    if configuration.passphrase():
        return None
    from localmind.remembered_key import remembered_data_key

    key = remembered_data_key(configured.store)
    if key is None:
        return None
    try:
        return composition.open_memory(configured, "", data_key=key, **options)
    except WrongPassphrase as error:
        if not may_ask:
            raise click.ClickException(
                f"The key remembered in the OS keyring no longer opens {configured.store} (its "
                "key was changed since): run `localmind unlock --remember` again, or set "
                f"{PASSPHRASE_ENV}."
            ) from None
        click.echo(f"{error} (`localmind unlock --remember` remembers the new key)", err=True)
        return None


def check_folder(db: Path, nothing: str = "Nothing was created.") -> None:
    """Refuse to create a store named (--db, LOCALMIND_DB, the config file) in a folder that
    does not exist: a typo in the path would otherwise grow a tree of new folders holding a
    new, empty store (or a restored one, where nobody looks for it). The default location's
    folder is made as needed."""
    if db.parent.is_dir() or db == default_db_path():
        return
    where = printable(str(db.parent), newlines=False)
    raise NotAStore(
        f"No folder {where}: check --db / LOCALMIND_DB, or create the folder first (mkdir -p "
        f"{where}). {nothing}"
    )


def no_store_message(db: Path) -> str:
    where = printable(str(db), newlines=False)
    return (
        f"No store at {where}. Check --db / LOCALMIND_DB; to start a new store there, add a "
        'memory (localmind add "...") or import a file (localmind import FILE).'
    )


def _long_enough(passphrase: str) -> str:
    """A new passphrase refused as soon as it is typed, before it is asked again (review12
    R13: typed twice, then refused, the command had to be run again)."""
    try:
        check_new_passphrase(passphrase)
    except InvalidInput as error:
        raise click.UsageError(str(error).replace(" Nothing was created or changed.", "")) from None
    return passphrase


def read_passphrase(
    *, creating: bool, db: Path, prompt: str = "Passphrase", may_ask: bool = True
) -> str:
    """The passphrase from LOCALMIND_PASSPHRASE, else asked for in the terminal (unless
    ``may_ask`` is false, or there is no terminal: then a one-line error)."""
    from_env = configuration.passphrase()
    if from_env:  # set but empty (LOCALMIND_PASSPHRASE=) is unset: no passphrase is empty
        return from_env
    if not (may_ask and sys.stdin.isatty() and sys.stderr.isatty()):
        raise click.ClickException(
            f"No passphrase: set {PASSPHRASE_ENV} or run localmind in a terminal to be asked."
        )
    if creating:
        where = printable(str(db), newlines=False)
        click.echo(f"No store at {where} yet: choose a passphrase to create it.", err=True)
        click.echo("It cannot be recovered if you lose it.", err=True)
        return str(
            click.prompt(
                "New passphrase",
                hide_input=True,
                confirmation_prompt=True,
                err=True,
                value_proc=_long_enough,
            )
        )
    return str(click.prompt(prompt, hide_input=True, err=True))

"""How a command fails: localmind's errors, a damaged store, a full disk and Ctrl-C become one
line on stderr and an exit code, never a traceback."""

from __future__ import annotations

import errno
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from localmind.cli.context import Context
from localmind.errors import LocalmindError
from localmind.store.connection import (
    BUSY_ERRORS,
    DAMAGE_ERRORS,
    DISK_ERRORS,
    damaged,
    disk_full,
)
from localmind.terminal import printable

F = TypeVar("F", bound=Callable[..., Any])


#: How to make a text file UTF-8, said when one is not (review15a TW10: a Big5 file from an
#: old Taiwanese PC was refused with no way forward).
CONVERT_HINT = (
    "Save it as UTF-8 first: in Notepad, Save As with Encoding UTF-8; or convert it, e.g. "
    "`iconv -f BIG5 -t UTF-8 FILE > FILE.utf8` for Traditional Chinese (Big5), "
    "`-f GB18030` for Simplified Chinese (GBK), `-f CP1252` for Western European text."
)


def not_utf8(what: str, nothing_done: str) -> click.ClickException:
    """The error for ``what`` (a file's name, "Standard input") that is not UTF-8 text."""
    return click.ClickException(f"{what} is not UTF-8 text; {nothing_done}. {CONVERT_HINT}")


def friendly_errors(function: F) -> F:
    """Turn localmind's errors into a one-line message and exit code 1."""
    import functools

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except LocalmindError as error:
            raise click.ClickException(printable(str(error))) from None
        except DAMAGE_ERRORS:  # a damaged page met outside a query (e.g. while committing)
            raise click.ClickException(str(damaged(_store_shown() or "The store"))) from None
        except BUSY_ERRORS:
            raise click.ClickException(_busy()) from None
        except DISK_ERRORS as error:  # disk full; or I/O failed (often: full)
            raise click.ClickException(_disk_problem(error)) from None
        except OSError as error:
            if error.errno not in (errno.ENOSPC, errno.EDQUOT):
                raise
            raise click.ClickException(_disk_problem(error)) from None
        except click.Abort:
            raise
        except KeyboardInterrupt:
            click.echo("\nInterrupted.", err=True)
            sys.exit(130)

    return wrapper  # type: ignore[return-value]


def _store_shown() -> Path | None:
    context = click.get_current_context(silent=True)
    store = context.find_object(Context) if context else None
    return store.known_db() if store else None


def _busy() -> str:
    store = _store_shown() or "The store"
    return (
        f"{store} is busy: another program has been writing to it for over 10 s (an import "
        "holds it until it ends). Nothing was changed; try again when it is done."
    )


def _disk_problem(error: BaseException) -> str:
    """One line for a write the disk refused: SQLite rolled its transaction back, files are
    written under temporary names, so what was there before is whole."""
    store = _store_shown()
    where = store.parent if store else Path.cwd()
    try:
        free = shutil.disk_usage(where if where.exists() else Path.cwd()).free
    except OSError:
        free = None
    full = disk_full(error) or getattr(error, "errno", None) in (
        errno.ENOSPC,
        errno.EDQUOT,
    )
    if full or (free is not None and free < LOW_DISK_BYTES):
        shown = f" ({free / 1e6:.1f} MB free)" if free is not None else ""
        return (
            f"The disk holding {where} is full{shown}: the change that needed the space was "
            "not saved, and what was saved before is whole. Free some space and try again."
        )
    return (
        f"Reading or writing {store or 'a file'} failed ({error}); what was saved before is "
        "whole. Check the disk, then try again."
    )


#: Less free space than this makes an I/O error a "disk full" (SQLite reports some of those,
#: e.g. growing its shared-memory index, as a plain I/O error).
LOW_DISK_BYTES = 4 * 1024 * 1024

"""Errors a user can act on. Each message says what went wrong and what to do next."""

from __future__ import annotations


class LocalmindError(Exception):
    """Base class of every error localmind raises on purpose."""


class InvalidInput(LocalmindError, ValueError):
    """Bad content, type, limit or option. Nothing was written."""


class AmbiguousId(InvalidInput):
    """A beginning of an id that several memories share; ``count`` of them (at least)."""

    def __init__(self, message: str, count: int) -> None:
        super().__init__(message)
        self.count = count


class ImplausibleDate(InvalidInput):
    """A memory dated where no memory can be: a wrong date. An import refuses its whole file
    (a file's dates are written alike, so the other lines' dates are as wrong)."""


class InFuture(ImplausibleDate):
    """A memory dated after now (beyond a day's slack): a wrong date, never a memory."""


class TooEarly(ImplausibleDate):
    """A memory dated before :data:`localmind.validation.EARLIEST_TOLD`: a wrong date."""


class StoreError(LocalmindError):
    """The store cannot be opened or used as asked."""


class WrongPassphrase(StoreError):
    """The passphrase does not unlock this store. Nothing was modified."""


class NotAStore(StoreError):
    """The file is not a localmind store (foreign, damaged or missing its key file)."""


class WeakKeyDerivation(NotAStore):
    """A key file or sync header asks for a cheaper passphrase derivation than this build
    accepts (tampered with to make the passphrase cheap to guess). It was not used."""


class RolledBack(StoreError):
    """The store is older than the one this laptop last saw: an old copy was put back."""


class StoreDamaged(NotAStore):
    """Part of the store no longer reads back as it was written: a page failed its
    authentication tag or SQLite's own checks, or the write-ahead log lost a change. Nothing
    wrong was returned and nothing was changed; the way back is a backup."""


class StoreInUse(StoreError):
    """Another program (the app, the MCP server, the sync watcher) has the store open."""


class StoreExists(StoreError):
    """A store is already where one was to be written. Nothing was changed."""


class EmbedderMismatch(StoreError):
    """The store's vectors were made by another embedding model than the one asked for."""


class NotFound(LocalmindError, KeyError):
    """No memory with that id."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else "not found"


class CapacityFull(LocalmindError):
    """An assistant's write (over MCP) would have had to archive a memory the person wrote
    themselves to make room. Nothing was written."""


class WouldArchive(LocalmindError):
    """A bulk write (``localmind import``) would take the store over its capacity, so memories
    would be archived to make room, and it was not allowed to: nothing was written."""

    def __init__(
        self, message: str, *, excess: int, total: int, capacity: int, at_most: bool = False
    ) -> None:
        super().__init__(message)
        self.excess = excess  # how many would have been archived
        self.total = total  # how many active memories the write would have left
        self.capacity = capacity
        # ``total`` is the most the write could leave, counted before its work (merges may
        # leave fewer); a capacity of ``total`` is enough either way
        self.at_most = at_most


class ForgottenEarlier(InvalidInput):
    """A text the person forgot earlier, told again: not brought back unless they say so
    (``allow_forgotten``). ``positions``: the items of a batch that were (1-based; ``[1]``
    for a single memory); ``at``: when the first was forgotten. Nothing was written."""

    def __init__(self, message: str, *, positions: list[int], at: float) -> None:
        super().__init__(message)
        self.positions = positions
        self.at = at


class ChangedMeanwhile(InvalidInput):
    """A memory's text is no longer the one a change was decided on: another program (another
    assistant, the app, sync) changed it after it was read or shown. Nothing was changed; the
    message says what it says now, so the caller can decide again."""

    def __init__(self, message: str, *, memory_id: str, now: str, version: int) -> None:
        super().__init__(message)
        self.memory_id = memory_id
        self.now = now  # its text now
        self.version = version


class TooManyWrites(LocalmindError):
    """An assistant wrote faster than the configured rate. Nothing was written."""


class InterruptedAfterSaving(KeyboardInterrupt):
    """Ctrl-C came while a long change was being committed: it was kept whole (the signal
    waited for the commit), and the program stops now."""

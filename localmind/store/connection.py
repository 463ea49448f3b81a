"""Opening the encrypted SQLite file (SQLite3 Multiple Ciphers) with sqlite-vec loaded."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import apsw
import sqlite_vec

from localmind.errors import NotAStore, StoreDamaged
from localmind.store import wal

BUSY_TIMEOUT_MS = 10_000
# Page size of new stores. 8 KiB pages hold three 512-d float32 vectors (2 KiB + row header)
# where 4 KiB pages hold one: a third less disk at the same speed.
PAGE_SIZE = 8192
# Page cache ceiling (SQLite allocates it only as pages are read). Decrypted pages stay here: a
# 100k-memory store keeps its ~200 MB of float vectors cached instead of decrypting them again.
CACHE_KIB = 131_072


class StoreConnection(apsw.Connection):
    """A connection whose ``with connection:`` (every write of localmind) starts its outermost
    transaction with ``BEGIN IMMEDIATE``; nested blocks are savepoints, as in apsw.

    Immediate, because a DEFERRED transaction that reads first and then writes cannot wait for
    another process's write: in WAL mode SQLite fails that upgrade at once with "database is
    locked" (no busy handler runs). BEGIN IMMEDIATE takes the write lock first, waiting up to
    BUSY_TIMEOUT_MS for it. Run through ``execute``, not apsw's ``transaction_mode``: apsw's
    own BEGIN keeps the GIL while it waits, which would freeze every thread of the process
    (the TUI's screen) for as long as another process writes."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._began: list[bool] = []  # per open ``with``: did it BEGIN (True) or nest (False)

    def __enter__(self) -> StoreConnection:
        if self.in_transaction:
            self._began.append(False)
            super().__enter__()
            return self
        self.execute("BEGIN IMMEDIATE")
        self._began.append(True)
        return self

    def __exit__(self, etype: Any, evalue: Any, traceback: Any) -> bool:
        if not self._began.pop():
            return bool(super().__exit__(etype, evalue, traceback))
        if etype is None:
            try:
                self.execute("COMMIT")
                return False
            except BaseException:
                if self.in_transaction:  # a failed COMMIT leaves the transaction open
                    self.execute("ROLLBACK")
                raise
        if self.in_transaction:  # some errors (disk full, I/O) already rolled it back
            self.execute("ROLLBACK")
        return False


@dataclass(frozen=True, slots=True)
class Cipher:
    """How sqlite3mc encrypts the pages of one store (it cannot tell from the file, so the key
    file records it)."""

    name: str  # the key file's name for it
    sqlite3mc_cipher: str
    algorithm: str | None
    raw_key: bool  # the data key is used as is; otherwise sqlite3mc runs its own KDF on it


# New stores. AEGIS-256 authenticates every page like ChaCha20-Poly1305 but runs on the CPU's
# AES instructions: a page costs ~1 µs to decrypt instead of ~6.5 µs, which brought the write
# overhead of encryption from +20–30 % to within the 15 % target. The data key is a random
# 256-bit key, so sqlite3mc's own key derivation (25 ms at every open) would add nothing.
AEGIS_256 = Cipher("aegis-256", "aegis", "aegis-256", raw_key=True)
# Stores made before 2026-11-30: sqlite3mc's default cipher, keyed through its PBKDF2.
CHACHA20_LEGACY = Cipher("chacha20", "chacha20", None, raw_key=False)
CIPHERS = {cipher.name: cipher for cipher in (AEGIS_256, CHACHA20_LEGACY)}


def connect(
    path: Path, data_key: bytes | None, *, create: bool, cipher: Cipher = AEGIS_256
) -> apsw.Connection:
    """Open ``path`` with ``data_key`` and ``cipher``; a ``data_key`` of None opens a plain,
    unencrypted file (benchmarks compare the two).

    With ``create=False`` a missing file is an error, never silently created. The first read
    proves the key: a foreign, damaged or differently-keyed file raises :class:`NotAStore`
    (:class:`StoreDamaged`) before anything is written, and so does a damaged write-ahead log
    (:mod:`localmind.store.wal`). Later reads that meet a damaged page raise :class:`StoreDamaged`.
    """
    if not create and (problem := wal.damage(path)):
        log = wal.wal_path(path).name
        raise StoreDamaged(
            f"{path} is damaged: {problem}. {RESTORE_HINT} (or move {log} aside: the store "
            "then opens without the changes in it)"
        )
    flags = apsw.SQLITE_OPEN_READWRITE | (apsw.SQLITE_OPEN_CREATE if create else 0)
    try:
        connection = StoreConnection(str(path), flags=flags)
    except apsw.CantOpenError:
        raise NotAStore(f"Cannot open {path}: no such file or not writable.") from None
    try:
        if data_key is not None:
            apply_key(connection, data_key, cipher)
        if create:  # before the first page is written (journal_mode=WAL below writes it)
            connection.execute(f"PRAGMA page_size={PAGE_SIZE}")
        # Fails here, before any write, when the file is not this store.
        connection.execute("SELECT count(*) FROM sqlite_master").fetchall()
    except DAMAGE_ERRORS:
        connection.close()
        raise StoreDamaged(
            f"{path} is not a localmind database for this key file, or it is damaged. "
            f"{RESTORE_HINT}"
        ) from None
    except BaseException:  # e.g. the disk is full: the file must not stay open
        connection.close()
        raise
    try:
        _configure(connection)
    except BaseException:
        connection.close()
        raise
    return connection


def _configure(connection: StoreConnection) -> None:
    connection.cursor_factory = DamageReportingCursor
    connection.set_busy_timeout(BUSY_TIMEOUT_MS)
    # Encrypted pages are decrypted on every cache miss: a large cache keeps search as fast as on
    # a plain file. 128 MiB: a search reads ~70 rows and ~70 vectors (the in-memory index ranks
    # the rest), as fast as with 256 MiB at 100k memories, while a 100k import peaks ~130 MB
    # lower (docs/design.md, "Search near the limit, round 4").
    connection.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=NORMAL")
    connection.execute("PRAGMA foreign_keys=ON")
    # Forgotten text must not linger in free pages (they are encrypted, but a forget is a promise).
    connection.execute("PRAGMA secure_delete=ON")
    connection.enable_load_extension(True)
    connection.load_extension(sqlite_vec.loadable_path())
    connection.enable_load_extension(False)


def open_bare(path: Path, data_key: bytes, cipher: Cipher) -> apsw.Connection:
    """A keyed connection to a store file nobody else has open, without the store's own
    configuration (a restore's copy before it is checked, a restored store given a new device
    id). :class:`NotAStore` when the file cannot be opened."""
    try:
        connection = apsw.Connection(str(path), flags=apsw.SQLITE_OPEN_READWRITE)
    except apsw.CantOpenError:
        raise NotAStore(f"Cannot open {path}: no such file or not writable.") from None
    try:
        apply_key(connection, data_key, cipher)
    except BaseException:
        connection.close()
        raise
    return connection


def apply_key(connection: apsw.Connection, data_key: bytes, cipher: Cipher) -> None:
    """Key a fresh connection (before its first read or write) for ``cipher``."""
    connection.execute(f"PRAGMA cipher='{cipher.sqlite3mc_cipher}'")
    if cipher.algorithm:
        connection.execute(f"PRAGMA algorithm='{cipher.algorithm}'")
    if cipher.raw_key:  # x'<64 hex digits>': the key itself, no derivation
        connection.execute(f"PRAGMA key=\"x'{data_key.hex()}'\"")
    else:
        connection.execute(f"PRAGMA hexkey='{data_key.hex()}'")


# SQLite's words for "a page does not read back as written": with an authenticated cipher a
# damaged page fails its tag (SQLITE_CORRUPT); a damaged page 1 reads as not a database.
DAMAGE_ERRORS = (apsw.CorruptError, apsw.NotADBError)
#: Any error the database library raises (busy, full disk, I/O, damage): what a loop that must
#: survive a bad moment (sync's watcher) catches, without importing the library itself.
DATABASE_ERRORS = (apsw.Error,)
#: The disk refused a write: it is full, or an I/O error (SQLite reports some "full" as I/O
#: errors, e.g. growing its shared-memory index). SQLite has rolled the transaction back.
DISK_ERRORS = (apsw.FullError, apsw.IOError)
#: Another program held the write lock past the busy timeout (a long import holds it).
BUSY_ERRORS = (apsw.BusyError,)
#: An open database, as the store's functions take it: modules outside the store name its type
#: by this and never import apsw (a contract in pyproject.toml).
Connection = apsw.Connection
RESTORE_HINT = "Restore from a backup: localmind restore FILE"
_NO_ROW = object()


def disk_full(error: BaseException) -> bool:
    """Whether ``error`` is SQLite's own "the disk is full" (not a mere I/O error)."""
    return isinstance(error, apsw.FullError)


def damaged(path: str | Path, detail: str = "") -> StoreDamaged:
    detail = detail or "part of it no longer reads back as it was written (nothing wrong was read)"
    return StoreDamaged(f"{path} is damaged: {detail}. {RESTORE_HINT}")


class DamageReportingCursor(apsw.Cursor):
    """Every cursor of a store: SQLite's corruption errors become :class:`StoreDamaged` (with
    the restore hint) in whichever query meets the damaged page first. The calls that step a
    statement are wrapped, and explicit iteration; ``__next__`` is not, so ``fetchall`` and
    ``fetchone`` keep their C speed (a Python call per row cost recall 10–15 %)."""

    def execute(self, *args: Any, **kwargs: Any) -> apsw.Cursor:
        try:
            return super().execute(*args, **kwargs)
        except DAMAGE_ERRORS as error:
            raise damaged(self.connection.filename) from error

    def executemany(self, *args: Any, **kwargs: Any) -> apsw.Cursor:
        try:
            return super().executemany(*args, **kwargs)
        except DAMAGE_ERRORS as error:
            raise damaged(self.connection.filename) from error

    def fetchall(self) -> list[Any]:
        try:
            return super().fetchall()
        except DAMAGE_ERRORS as error:
            raise damaged(self.connection.filename) from error

    def fetchone(self) -> Any | None:
        try:
            return super().fetchone()
        except DAMAGE_ERRORS as error:
            raise damaged(self.connection.filename) from error

    def __iter__(self) -> Iterator[Any]:  # type: ignore[override]
        try:
            # The C-level next until it stops (iterating ``self`` would come back here).
            yield from iter(super().__next__, _NO_ROW)
        except DAMAGE_ERRORS as error:
            raise damaged(self.connection.filename) from error

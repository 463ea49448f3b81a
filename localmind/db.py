"""Opening the encrypted SQLite file (SQLite3 Multiple Ciphers) with sqlite-vec loaded."""

from __future__ import annotations

from pathlib import Path

import apsw
import sqlite_vec

from localmind.errors import NotAStore

BUSY_TIMEOUT_MS = 10_000
# Page size of new stores. 8 KiB pages hold three 512-d float32 vectors (2 KiB + row header)
# where 4 KiB pages hold one: a third less disk at the same speed.
PAGE_SIZE = 8192
# Page cache ceiling (SQLite allocates it only as pages are read). Decrypted pages stay here: a
# 100k-memory store keeps its ~200 MB of float vectors cached instead of decrypting them again.
CACHE_KIB = 262_144


def connect(path: Path, data_key: bytes | None, *, create: bool) -> apsw.Connection:
    """Open ``path`` with ``data_key`` (sqlite3mc's default cipher, ChaCha20-Poly1305); a
    ``data_key`` of None opens a plain, unencrypted file (benchmarks compare the two).

    With ``create=False`` a missing file is an error, never silently created. The first read
    proves the key: a foreign, damaged or differently-keyed file raises :class:`NotAStore`
    before anything is written.
    """
    flags = apsw.SQLITE_OPEN_READWRITE | (apsw.SQLITE_OPEN_CREATE if create else 0)
    try:
        connection = apsw.Connection(str(path), flags=flags)
    except apsw.CantOpenError:
        raise NotAStore(f"Cannot open {path}: no such file or not writable.") from None
    try:
        if data_key is not None:
            connection.execute(f"PRAGMA hexkey='{data_key.hex()}'")
        if create:  # before the first page is written (journal_mode=WAL below writes it)
            connection.execute(f"PRAGMA page_size={PAGE_SIZE}")
        # Fails here, before any write, when the file is not this store.
        connection.execute("SELECT count(*) FROM sqlite_master").fetchall()
    except (apsw.NotADBError, apsw.CorruptError):
        connection.close()
        raise NotAStore(
            f"{path} is not a localmind database for this key file, or it is damaged."
        ) from None
    connection.set_busy_timeout(BUSY_TIMEOUT_MS)
    # Encrypted pages are decrypted on every cache miss: a large cache keeps search as fast as on
    # a plain file (at 100k memories, 64 MiB left encrypted search 21 % slower; 256 MiB: 3 %).
    connection.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=NORMAL")
    connection.execute("PRAGMA foreign_keys=ON")
    # Forgotten text must not linger in free pages (they are encrypted, but a forget is a promise).
    connection.execute("PRAGMA secure_delete=ON")
    connection.enable_load_extension(True)
    connection.load_extension(sqlite_vec.loadable_path())
    connection.enable_load_extension(False)
    return connection

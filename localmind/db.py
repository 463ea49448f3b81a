"""Opening the encrypted SQLite file (SQLite3 Multiple Ciphers) with sqlite-vec loaded."""

from __future__ import annotations

from dataclasses import dataclass
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
    before anything is written.
    """
    flags = apsw.SQLITE_OPEN_READWRITE | (apsw.SQLITE_OPEN_CREATE if create else 0)
    try:
        connection = apsw.Connection(str(path), flags=flags)
    except apsw.CantOpenError:
        raise NotAStore(f"Cannot open {path}: no such file or not writable.") from None
    try:
        if data_key is not None:
            _key(connection, data_key, cipher)
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


def _key(connection: apsw.Connection, data_key: bytes, cipher: Cipher) -> None:
    connection.execute(f"PRAGMA cipher='{cipher.sqlite3mc_cipher}'")
    if cipher.algorithm:
        connection.execute(f"PRAGMA algorithm='{cipher.algorithm}'")
    if cipher.raw_key:  # x'<64 hex digits>': the key itself, no derivation
        connection.execute(f"PRAGMA key=\"x'{data_key.hex()}'\"")
    else:
        connection.execute(f"PRAGMA hexkey='{data_key.hex()}'")

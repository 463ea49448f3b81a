"""A consistent copy of an open store into a new encrypted file (``localmind backup``), with
SQLite's backup API while other processes read and write it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import apsw

from localmind.errors import StoreError
from localmind.store.connection import DAMAGE_ERRORS, Cipher, apply_key, damaged
from localmind.store.integrity import active_memories, scalar

#: ``progress(pages_copied, pages_in_all)``, called after every step of the copy.
Progress = Callable[[int, int], None]


def copy_database(
    source: apsw.Connection,
    target_path: Path,
    data_key: bytes,
    cipher: Cipher,
    progress: Progress | None,
    pages_per_step: int,
) -> tuple[int, int]:
    """Back ``source`` up into the empty file ``target_path``, keyed with ``data_key``;
    returns (active memories, pages)."""
    target = apsw.Connection(str(target_path))
    try:
        apply_key(target, data_key, cipher)
        # sqlite3mc copies pages between ciphers only at one page size.
        page_size = scalar(source, "PRAGMA page_size")
        target.execute(f"PRAGMA page_size={int(page_size)}")
        # The destination must be keyed before the first page is written: sqlite3mc reports a
        # cipher salt only for an encrypted connection.
        if scalar(target, "SELECT sqlite3mc_codec_data('cipher_salt')") is None:
            raise StoreError("The backup file could not be encrypted; nothing was written.")
        # One read transaction for the whole copy: the backup sees one snapshot, and writers in
        # other processes never force it to start over (they would at every step otherwise).
        source.execute("BEGIN")
        try:
            memories = active_memories(source)
            with target.backup("main", source, "main") as copy:
                while not copy.done:
                    copy.step(pages_per_step)
                    if progress:
                        progress(copy.page_count - copy.remaining, copy.page_count)
                pages = copy.page_count
        except DAMAGE_ERRORS as error:
            raise damaged(
                source.filename, "a page did not read back as written, so no backup was made"
            ) from error
        finally:
            if source.in_transaction:  # SQLite may already have ended it after damage
                source.execute("ROLLBACK")
        # One self-contained file: no write-ahead log to keep beside it.
        target.execute("PRAGMA journal_mode=DELETE")
    finally:
        target.close()
    return memories, pages

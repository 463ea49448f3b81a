"""Opening a store and keeping it to one embedder: the steps behind ``Memory.open``,
``Memory._attach`` and ``Memory.reindex``.

The key file unlocks the data key, the connection is keyed and migrated, the store gets its
device id, and the embedder asked for is checked against the one its vectors were made with;
after a change of model, reindexing re-embeds the store with the new one.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ulid import ULID

from localmind import validation
from localmind.config import Settings
from localmind.embedders import default_embedder, embedder_from_spec
from localmind.embedders.base import EMBED_BATCH, Embedder, Progress, Vectors
from localmind.errors import EmbedderMismatch, NotAStore, StoreError, WrongPassphrase
from localmind.files import sidecars
from localmind.first_person import as_told
from localmind.hlc import HybridLogicalClock, Stamp
from localmind.keys import KdfParams, KeyFile, check_new_passphrase, key_file_for, seen_mac_key
from localmind.locks import key_file_lock
from localmind.remembered_key import forget_stale_entry
from localmind.rollback import SeenRecord, check_not_rolled_back
from localmind.store import SqliteStore, newest_stamp
from localmind.store.connection import AEGIS_256, connect
from localmind.store.migrations import migrate
from localmind.swap import finish_interrupted


@dataclass(frozen=True, slots=True)
class Attached:
    """A connection made into a store, with the embedder it is to be used with."""

    store: SqliteStore
    embedder: Embedder
    needs_reindex: bool  # the embedder is not the one the store's vectors were made with


def store_path(path: str | os.PathLike[str]) -> Path:
    """``path`` as the store's path, or :class:`StoreError` when SQLite cannot name it."""
    path = Path(path).expanduser()
    if not validation.is_unicode(str(path)):  # a byte that is not UTF-8 in a name
        raise StoreError(
            f"{str(path)!r} cannot hold a store: SQLite needs a path that is valid UTF-8."
        )
    return path


def check_files(path: Path) -> None:
    """:class:`NotAStore` when ``path`` cannot be a store whatever the passphrase (a
    directory, or a database without its key file or the other way round); a front end asks
    before it asks for the passphrase. An interrupted swap must be finished first."""
    key_path = key_file_for(path)
    if path.exists() and not path.is_file():
        raise NotAStore(f"{path} is a directory, not a localmind store.")
    if path.exists() and not key_path.exists():
        raise NotAStore(
            f"{path} is not a localmind store: its key file {key_path.name} is missing. "
            "If you moved the store, move its .key file with it."
        )
    if key_path.exists() and not path.exists():
        raise NotAStore(f"Found the key file {key_path} but not the database {path}.")


@contextmanager
def unlocked(
    path: Path,
    passphrase: str,
    *,
    create: bool,
    kdf: KdfParams | None,
    data_key: bytes | None = None,
) -> Iterator[tuple[Any, bool, SeenRecord]]:
    """The migrated connection to the store at ``path``, whether it is being created now (then
    with a new key file), and how to record the newest change seen when it closes. A restore
    or key rotation a crash interrupted is finished first; a store older than the newest
    change this laptop saw is refused (:class:`RolledBack`). If the block fails, the
    connection is closed and a store being created is removed again, key file and all.
    ``data_key``: the store's data key itself (remembered in the OS keyring), instead of the
    passphrase; one that does not open the database is :class:`WrongPassphrase`."""
    finish_interrupted(path)
    check_files(path)
    key_path = key_file_for(path)
    creating = not path.exists()
    if creating:
        if not create:
            raise NotAStore(f"No localmind store at {path}.")
        check_new_passphrase(passphrase)
        forget_stale_entry(path)
        key_file, data_key = KeyFile.create(passphrase, kdf, AEGIS_256.name)
        path.parent.mkdir(parents=True, exist_ok=True)
        # Owner-only from the first byte; SQLite gives the WAL and shm files the same mode.
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        db = connect(path, data_key, create=True, cipher=key_file.cipher)
    else:
        # Under the key file's lock: a key rotation replaces the key file and the database
        # together, and neither may change between reading one and opening the other.
        with key_file_lock(path, doing="the store was not opened"):
            key_file = KeyFile.load(key_path)
            if data_key is None:
                data_key = key_file.unwrap(passphrase, key_path)
                db = connect(path, data_key, create=False, cipher=key_file.cipher)
            else:
                db = _connect_with_remembered(path, data_key, key_file)
    seen = SeenRecord(path, seen_mac_key(data_key), key_file.wrapped_key)
    try:
        if creating:
            key_file.save(key_path)
        migrate(db)
        if not creating:
            check_not_rolled_back(db, key_file, seen)
        yield db, creating, seen
    except BaseException:
        db.close()
        if creating:
            for leftover in (path, key_path, *sidecars(path)):
                leftover.unlink(missing_ok=True)
        raise


def _connect_with_remembered(path: Path, data_key: bytes, key_file: KeyFile) -> Any:
    try:
        return connect(path, data_key, create=False, cipher=key_file.cipher)
    except NotAStore:
        # The first read proves the key; a key that fails it was rotated since it was
        # remembered (a damaged store says so again when opened with the passphrase).
        raise WrongPassphrase(
            f"The key remembered in the OS keyring no longer opens {path} (its key was rotated "
            "since): unlock it with the passphrase."
        ) from None


def attach(
    db: Any,
    embedder: Embedder | str | None,
    clock: Callable[[], float],
    accept_new_embedder: bool,
) -> Attached:
    """The store on a migrated connection, its device id made on first use. ``embedder`` (an
    embedder, a spec, or None for the store's own) must be the one the store's vectors were
    made with, else :class:`EmbedderMismatch`; with ``accept_new_embedder`` it is taken and
    the store needs reindexing."""
    probe = SqliteStore(db, HybridLogicalClock("", clock), "", clock)
    stored_identity = probe.get_meta("embedder")
    stored_spec = probe.get_meta("embedder_spec")
    if isinstance(embedder, str):
        embedder = embedder_from_spec(embedder)
    elif embedder is None:
        embedder = embedder_from_spec(stored_spec) if stored_spec else default_embedder()

    device_id = probe.get_meta("device_id")
    if device_id is None:
        with db:
            # Read again under the write lock: a second process may open the new store
            # while the first is still setting it up.
            device_id = probe.get_meta("device_id")
            if device_id is None:
                device_id = str(ULID())
                probe.set_meta("device_id", device_id)
                probe.set_meta("created_at", repr(clock()))
    last = newest_stamp(db)
    hlc = HybridLogicalClock(device_id, clock, Stamp.parse(last) if last else None)
    store = SqliteStore(db, hlc, device_id, clock)

    needs_reindex = False
    if stored_identity is None:
        with db:
            if store.get_meta("embedder") is None:  # (as for the device id above)
                record_embedder(store, embedder)
    elif stored_identity != embedder.identity:
        if not accept_new_embedder:
            raise EmbedderMismatch(
                f"This store's memories were embedded with {stored_identity}, but "
                f"{embedder.identity} was asked for. Run `localmind reindex` with the new "
                f"embedder to re-embed them, or open the store without choosing an embedder."
            )
        needs_reindex = True
    if not needs_reindex:
        store.vector_identity = embedder.identity
    return Attached(store, embedder, needs_reindex)


def reembed(
    store: SqliteStore, embedder: Embedder, namespace: str, progress: Progress | None
) -> int:
    """Re-embed every active memory of ``store`` (all namespaces) with ``embedder`` and make it
    the store's embedder; the event is logged in ``namespace``. Returns how many were embedded.
    Nothing is committed until the end."""
    rows = [
        (stored.rowid, stored.record)
        for stored in store.iter_memories(None, status="active", newest_first=False)
    ]
    vectors: list[Vectors] = []
    for start in range(0, len(rows), EMBED_BATCH):
        batch = rows[start : start + EMBED_BATCH]
        vectors.extend(embedder.embed_documents([as_told(record.content) for _, record in batch]))
        if progress:
            progress(len(batch))
    embedded = {record.content: v for (_, record), v in zip(rows, vectors, strict=True)}
    with store.db:
        # The rows as they are now, under the write lock: what another process added or
        # changed while the rest was embedded is embedded here (the few, not the many).
        rows = [
            (stored.rowid, stored.record)
            for stored in store.iter_memories(None, status="active", newest_first=False)
        ]
        late = list({r.content: None for _, r in rows if r.content not in embedded})
        if late:
            embedded.update(
                zip(late, embedder.embed_documents([as_told(t) for t in late]), strict=True)
            )
        store.create_vector_table(embedder.dim)
        store.put_vectors((rowid, record, embedded[record.content]) for rowid, record in rows)
        record_embedder(store, embedder, create_table=False)
        store.vector_identity = embedder.identity
        store.record_event(namespace, None, "reindex", {"embedder": embedder.identity})
    return len(rows)


def settings_for(embedder: Embedder) -> Settings:
    """The default settings, with the merge and conflict thresholds calibrated for ``embedder``
    when it declares its own (``lifecycle_thresholds = (merge, conflict)``). Cosines do not
    compare across models: unrelated texts score 0.1–0.3 with USE-m3 but 0.77–0.90 with
    e5-small, where USE-m3's 0.35 would send every new memory to the contradiction check."""
    thresholds = getattr(embedder, "lifecycle_thresholds", None)
    if thresholds is None:
        return Settings()
    merge, conflict = thresholds
    lifecycle = replace(Settings().lifecycle, merge_threshold=merge, conflict_threshold=conflict)
    return Settings(lifecycle=lifecycle)


def record_embedder(store: SqliteStore, embedder: Embedder, *, create_table: bool = True) -> None:
    if create_table:
        store.create_vector_table(embedder.dim)
    store.set_meta("embedder", embedder.identity)
    spec = getattr(embedder, "spec", None)
    if spec:
        store.set_meta("embedder_spec", spec)
    else:
        store.delete_meta("embedder_spec")

"""Ordered, named schema migrations. Each runs in its own transaction and is recorded in
``meta`` (``schema_version``), so opening an old store brings it up to date exactly once."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import apsw

from localmind.errors import StoreError
from localmind.records import content_hash


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    apply: Callable[[apsw.Connection], None]


def _initial_schema(db: apsw.Connection) -> None:
    db.execute(
        """
        CREATE TABLE memories (
            rowid         INTEGER PRIMARY KEY,   -- shared with memory_vec and memory_fts
            id            TEXT NOT NULL UNIQUE,  -- ULID
            namespace     TEXT NOT NULL DEFAULT 'me',
            content       TEXT NOT NULL,
            type          TEXT NOT NULL
                          CHECK (type IN ('short_term', 'long_term', 'episodic', 'semantic')),
            metadata      TEXT NOT NULL DEFAULT '{}',
            importance    REAL NOT NULL CHECK (importance BETWEEN 0 AND 1),
            confidence    REAL NOT NULL CHECK (confidence BETWEEN 0 AND 1),
            access_count  INTEGER NOT NULL DEFAULT 0,
            created_at    REAL NOT NULL,
            updated_at    REAL NOT NULL,
            last_accessed REAL,
            expires_at    REAL,
            version       INTEGER NOT NULL DEFAULT 1,
            status        TEXT NOT NULL DEFAULT 'active'
                          CHECK (status IN ('active', 'superseded', 'expired', 'deleted')),
            pinned        INTEGER NOT NULL DEFAULT 0,
            content_hash  TEXT NOT NULL,
            hlc           TEXT NOT NULL
        );
        CREATE INDEX memories_by_namespace ON memories (namespace, status, created_at);
        -- content_hash first: the embedding cache looks a text up in any namespace.
        CREATE INDEX memories_by_hash ON memories (content_hash, namespace);

        CREATE TABLE memory_versions (
            memory_id TEXT NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
            version   INTEGER NOT NULL,
            content   TEXT NOT NULL,
            reason    TEXT NOT NULL,
            at        REAL NOT NULL,
            PRIMARY KEY (memory_id, version)
        );

        -- A new memory that may contradict an existing one, stored and waiting for a person
        -- (or the LLM, when it is back) to decide.
        CREATE TABLE conflicts (
            id           INTEGER PRIMARY KEY,
            namespace    TEXT NOT NULL,
            existing_id  TEXT NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
            candidate_id TEXT NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
            similarity   REAL NOT NULL,
            reason       TEXT NOT NULL,
            status       TEXT NOT NULL DEFAULT 'pending'
                         CHECK (status IN ('pending', 'resolved')),
            created_at   REAL NOT NULL,
            resolved_at  REAL,
            resolution   TEXT
        );
        CREATE INDEX conflicts_pending ON conflicts (namespace, status);

        CREATE TABLE profiles (
            namespace  TEXT NOT NULL,
            version    INTEGER NOT NULL,
            text       TEXT NOT NULL,
            built_from TEXT NOT NULL DEFAULT '[]',
            at         REAL NOT NULL,
            PRIMARY KEY (namespace, version)
        );

        -- Append-only: the audit trail, and the outbox that sync replicates.
        CREATE TABLE events (
            seq       INTEGER PRIMARY KEY,
            hlc       TEXT NOT NULL,
            device_id TEXT NOT NULL,
            namespace TEXT NOT NULL,
            memory_id TEXT,
            op        TEXT NOT NULL,
            payload   TEXT NOT NULL DEFAULT '{}',
            reason    TEXT,
            at        REAL NOT NULL
        );
        CREATE INDEX events_by_memory ON events (memory_id, seq);

        -- The latest recall latencies, for the p50/p95 of `localmind stats`: embedding the
        -- query (the first one in a process includes loading the model) and searching.
        CREATE TABLE recall_latency (
            at        REAL NOT NULL,
            embed_ms  REAL NOT NULL,
            search_ms REAL NOT NULL
        );

        -- Terms come from localmind.tokenize.index_text (CJK bigrams); contentless: the text
        -- lives once, in memories.
        CREATE VIRTUAL TABLE memory_fts USING fts5 (
            text, content='', contentless_delete=1,
            tokenize='porter unicode61 remove_diacritics 2'
        );
        """
    )


def _events_by_stamp(db: apsw.Connection) -> None:
    # Replication (localmind.replica) looks events up by stamp: a stamp names one event on every
    # device, so an event already present is never applied twice.
    db.execute("CREATE INDEX events_by_stamp ON events (hlc)")


def _recall_load_time(db: apsw.Connection) -> None:
    # A recall that had to load the embedding model records that time apart from embedding the
    # query (0 when the model was already loaded), so `stats` reports each honestly.
    db.execute("ALTER TABLE recall_latency ADD COLUMN load_ms REAL NOT NULL DEFAULT 0")


# The rowids whose ``memory_vec`` row changed, in order: a process holding vectors in memory
# (localmind.sign_index) reads what changed since it last looked, whoever wrote it. Only the
# newest VECTOR_LOG_KEPT changes are kept; a process further behind reloads everything.
VECTOR_LOG_KEPT = 10_000
VECTOR_LOG_TABLE = """
CREATE TABLE IF NOT EXISTS memory_vec_changes (
    seq       INTEGER PRIMARY KEY,  -- max + 1: committed changes are numbered without gaps
    vec_rowid INTEGER NOT NULL
);
"""
VECTOR_LOG_TRIGGERS = f"""
CREATE TRIGGER memory_vec_log_insert AFTER INSERT ON memory_vec BEGIN
    INSERT INTO memory_vec_changes (vec_rowid) VALUES (new.rowid);
    DELETE FROM memory_vec_changes
    WHERE seq <= (SELECT max(seq) FROM memory_vec_changes) - {VECTOR_LOG_KEPT};
END;
CREATE TRIGGER memory_vec_log_update AFTER UPDATE ON memory_vec BEGIN
    INSERT INTO memory_vec_changes (vec_rowid) VALUES (old.rowid);
    INSERT INTO memory_vec_changes (vec_rowid) SELECT new.rowid WHERE new.rowid != old.rowid;
END;
CREATE TRIGGER memory_vec_log_delete AFTER DELETE ON memory_vec BEGIN
    INSERT INTO memory_vec_changes (vec_rowid) VALUES (old.rowid);
END;
"""


def _vector_change_log(db: apsw.Connection) -> None:
    db.execute(VECTOR_LOG_TABLE)
    # memory_vec exists once an embedder was recorded (SqliteStore.create_vector_table, which
    # creates these triggers for new stores).
    if db.execute("SELECT 1 FROM sqlite_master WHERE name = 'memory_vec'").fetchone():
        db.execute(VECTOR_LOG_TRIGGERS)


def _memory_source(db: apsw.Connection) -> None:
    # Where a memory came from (localmind.records.MemoryRecord.source); '' for older memories.
    db.execute("ALTER TABLE memories ADD COLUMN source TEXT NOT NULL DEFAULT ''")
    db.execute("CREATE INDEX memories_by_source ON memories (namespace, source, status)")


def _earlier_texts(db: apsw.Connection) -> None:
    # A text a memory replaced (its history) or a person resolved away (keep-old, the other
    # side of a merge) is recognised when it is told again: a file imported again must not
    # bring back what a person replaced (docs/design.md, "Earlier versions"). By hash only:
    # the set-aside text itself was forgotten. Both go when the memory is forgotten.
    db.execute("ALTER TABLE memory_versions ADD COLUMN content_hash TEXT NOT NULL DEFAULT ''")
    rows = db.execute("SELECT rowid, content FROM memory_versions").fetchall()
    db.executemany(
        "UPDATE memory_versions SET content_hash = ? WHERE rowid = ?",
        [(content_hash(str(content)), rowid) for rowid, content in rows],
    )
    db.execute("CREATE INDEX memory_versions_by_hash ON memory_versions (content_hash)")
    db.execute(
        """
        CREATE TABLE set_aside (
            memory_id    TEXT NOT NULL REFERENCES memories (id) ON DELETE CASCADE,  -- kept
            content_hash TEXT NOT NULL,  -- of the text a person resolved away
            resolution   TEXT NOT NULL,
            at           REAL NOT NULL,
            PRIMARY KEY (memory_id, content_hash)
        )
        """
    )
    db.execute("CREATE INDEX set_aside_by_hash ON set_aside (content_hash)")


def _secret_mark(db: apsw.Connection) -> None:
    # Whether a memory looks like a password, PIN, key or token (localmind.secrets_check):
    # kept from assistants. Computed here for the memories stored before the mark existed, so
    # a person who upgrades is protected from the first `context` on.
    from localmind.store.memories import secret_column

    db.execute("ALTER TABLE memories ADD COLUMN secret INTEGER NOT NULL DEFAULT 0")
    rows = db.execute("SELECT rowid, content, metadata FROM memories WHERE content != ''")
    marked = [(rowid,) for rowid, content, metadata in rows if secret_column(content, metadata)]
    db.executemany("UPDATE memories SET secret = 1 WHERE rowid = ?", marked)


def _forgotten_texts(db: apsw.Connection) -> None:
    # A keyed fingerprint of each text a person forgot (never the text): told again (a diary
    # imported again, an assistant's remember), it is recognised and not brought back unless
    # the person says so (localmind.store.forgotten; docs/design.md, "A forgotten memory
    # stays forgotten").
    db.execute(
        """
        CREATE TABLE IF NOT EXISTS forgotten_texts (
            namespace   TEXT NOT NULL,
            fingerprint TEXT NOT NULL,  -- HMAC-SHA256 under the store's own forget key
            at          REAL NOT NULL,  -- when it was forgotten
            PRIMARY KEY (namespace, fingerprint)
        ) WITHOUT ROWID
        """
    )


def _traditional_read_as_simplified(db: apsw.Connection) -> None:
    # The keyword index reads Traditional Chinese as Simplified (localmind.simplified: a 醫師
    # memory is found by 医师, 上個月 by 上个月's bigrams): a memory indexed before holds the
    # Traditional bigrams, so it is indexed again, as a merge re-indexes one (and logged, so a
    # process holding the index in memory reads it again). Only memories with a Traditional
    # character change; a store without any is read, not written.
    import json

    from localmind.fts_terms import index_text
    from localmind.records import text_with_restatements
    from localmind.simplified import simplified
    from localmind.store.memories import secret_column

    rows = db.execute(
        "SELECT rowid, content, metadata FROM memories WHERE status = 'active' AND content != ''"
    ).fetchall()
    for rowid, content, metadata in rows:
        try:
            fields = json.loads(str(metadata)) if metadata else {}
        except ValueError:
            fields = {}
        text = text_with_restatements(str(content), fields if isinstance(fields, dict) else {})
        if simplified(text) == text:
            continue
        db.execute("DELETE FROM memory_fts WHERE rowid = ?", (rowid,))
        db.execute("INSERT INTO memory_fts (rowid, text) VALUES (?, ?)", (rowid, index_text(text)))
        db.execute("INSERT INTO memory_vec_changes (vec_rowid) VALUES (?)", (rowid,))
        # 密碼 is 密码 now: a Traditional password is kept from assistants as a Simplified one
        if secret_column(str(content), str(metadata)):
            db.execute("UPDATE memories SET secret = 1 WHERE rowid = ?", (rowid,))


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "initial schema", _initial_schema),
    Migration(2, "events by stamp", _events_by_stamp),
    Migration(3, "recall load time", _recall_load_time),
    Migration(4, "vector change log", _vector_change_log),
    Migration(5, "memory source", _memory_source),
    Migration(6, "earlier texts", _earlier_texts),
    Migration(7, "secret mark", _secret_mark),
    Migration(8, "forgotten texts", _forgotten_texts),
    Migration(9, "Traditional Chinese read as Simplified", _traditional_read_as_simplified),
)
LATEST_VERSION = MIGRATIONS[-1].version


def schema_version(db: apsw.Connection) -> int:
    has_meta = db.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'"
    ).fetchone()
    if not has_meta:
        return 0
    row = db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    return int(row[0]) if row else 0


def migrate(db: apsw.Connection) -> int:
    """Apply every pending migration in order; return the schema version reached. A store
    already up to date is only read: opening it never waits for another program's write lock
    (a long import holds it throughout)."""
    current = schema_version(db)
    if current == LATEST_VERSION:
        return current
    with db:
        db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    current = schema_version(db)
    if current > LATEST_VERSION:
        raise StoreError(
            f"This store has schema version {current}, newer than this localmind understands "
            f"({LATEST_VERSION}). Upgrade localmind to open it."
        )
    for migration in MIGRATIONS:
        if migration.version <= current:
            continue
        with db:
            # Another process opening the store at the same time may have applied it already.
            if schema_version(db) >= migration.version:
                current = migration.version
                continue
            migration.apply(db)
            db.execute(
                "INSERT INTO meta (key, value) VALUES ('schema_version', ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (str(migration.version),),
            )
            db.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (f"migration.{migration.version}", migration.name),
            )
        current = migration.version
    return current

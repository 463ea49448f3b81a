"""What is on disk: ciphertext only, and a store that refuses, without changing anything, every
way of opening it wrongly."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from localmind import EmbedderMismatch, Memory, NotAStore, WrongPassphrase
from localmind.errors import LocalmindError, StoreError
from localmind.keys import KeyFile, key_file_for
from localmind.store.connection import AEGIS_256, CHACHA20_LEGACY, connect
from localmind.store.migrations import migrate
from tests.conftest import FAST_KDF, PASSPHRASE, FakeClock

SECRETS = ["用户喜欢 Rust 编程语言", "用户是软件工程师", "My passport number is X1234567"]


def snapshot(directory: Path) -> dict[str, str]:
    """Every file's hash; not the stores' empty lock files (``<db>.lock``, localmind/locks.py),
    which the first program to open a store makes and leaves for the next."""
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(directory.iterdir())
        if p.is_file() and not (p.suffix == ".lock" and p.stat().st_size == 0)
    }


def assert_no_plaintext(path: Path) -> None:
    data = path.read_bytes()
    assert b"SQLite format 3" not in data, path
    for secret in SECRETS:
        assert secret.encode("utf-8") not in data, (path, secret)
        # FTS stores CJK text as bigrams: no bigram may be readable either
        assert "编程".encode() not in data, path
    assert b"passport" not in data and b"X1234567" not in data, path


def test_database_wal_and_journal_hold_no_plaintext(
    open_memory: Callable[..., Memory], store_path: Path
) -> None:
    memory = open_memory()
    for secret in SECRETS:
        memory.remember(secret)
    memory.update(memory.list_memories()[0].id, content="My passport number is X1234567, renewed")
    wal = store_path.with_name(store_path.name + "-wal")
    assert wal.exists() and wal.stat().st_size > 0  # the writes are still in the WAL
    for path in store_path.parent.iterdir():
        assert_no_plaintext(path)
    memory.close()
    for path in store_path.parent.iterdir():
        assert_no_plaintext(path)
    assert store_path.stat().st_size > 0


def test_new_stores_use_aegis_256_and_say_so_in_the_key_file(
    open_memory: Callable[..., Memory], store_path: Path
) -> None:
    with open_memory() as memory:
        memory.remember(SECRETS[0])
    key_file = KeyFile.load(key_file_for(store_path))
    assert key_file.database_cipher == "aegis-256"
    # Only that cipher opens the file: the key file is what tells them apart.
    data_key = key_file.unwrap(PASSPHRASE)
    with pytest.raises(NotAStore):
        connect(store_path, data_key, create=False, cipher=CHACHA20_LEGACY)
    db = connect(store_path, data_key, create=False, cipher=AEGIS_256)
    assert db.execute("SELECT content FROM memories").fetchall() == [(SECRETS[0],)]
    db.close()


def test_the_store_files_are_readable_by_their_owner_only(
    open_memory: Callable[..., Memory], store_path: Path
) -> None:
    with open_memory() as memory:
        memory.remember(SECRETS[0])
        files = sorted(store_path.parent.glob(store_path.name + "*"))
        assert {p.name for p in files} >= {"memory.db", "memory.db.key", "memory.db-wal"}
        for path in files:
            assert path.stat().st_mode & 0o077 == 0, path


def test_a_store_made_before_aegis_still_opens(store_path: Path, clock: FakeClock) -> None:
    """Stores whose key file names no cipher were made with sqlite3mc's ChaCha20 and its KDF."""
    key_file, data_key = KeyFile.create(PASSPHRASE, FAST_KDF)  # no database_cipher: legacy
    key_file.save(key_file_for(store_path))
    db = connect(store_path, data_key, create=True, cipher=CHACHA20_LEGACY)
    migrate(db)
    db.close()
    with Memory.open(store_path, PASSPHRASE, clock=clock) as memory:
        memory.remember(SECRETS[1])
    with Memory.open(store_path, PASSPHRASE, clock=clock) as memory:
        assert [m.content for m in memory.list_memories()] == [SECRETS[1]]
    assert_no_plaintext(store_path)
    assert KeyFile.load(key_file_for(store_path)).database_cipher is None


def test_wrong_passphrase_is_refused_and_nothing_changes(
    open_memory: Callable[..., Memory], store_path: Path
) -> None:
    with open_memory() as memory:
        memory.remember("a secret")
    before = snapshot(store_path.parent)
    with pytest.raises(WrongPassphrase, match="Wrong passphrase"):
        Memory.open(store_path, "not the passphrase")
    assert snapshot(store_path.parent) == before


def test_a_file_that_is_not_a_store_is_refused_untouched(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("just some notes\n" * 100)
    before = snapshot(tmp_path)
    with pytest.raises(NotAStore, match="key file"):
        Memory.open(notes, PASSPHRASE)
    assert snapshot(tmp_path) == before


def test_a_foreign_database_with_a_valid_key_file_is_refused_untouched(
    open_memory: Callable[..., Memory], store_path: Path, tmp_path: Path
) -> None:
    open_memory().close()
    foreign = tmp_path / "foreign.db"
    foreign.write_bytes(b"SQLite format 3\x00" + bytes(4080))
    (tmp_path / "foreign.db.key").write_bytes(
        store_path.with_name(store_path.name + ".key").read_bytes()
    )
    before = snapshot(tmp_path)
    with pytest.raises(NotAStore, match="not a localmind database"):
        Memory.open(foreign, PASSPHRASE)
    assert snapshot(tmp_path) == before


def test_a_key_file_without_its_database_is_refused(store_path: Path) -> None:
    store_path.with_name(store_path.name + ".key").write_text("{}")
    with pytest.raises(NotAStore, match="not the database"):
        Memory.open(store_path, PASSPHRASE)


def test_a_damaged_key_file_is_refused(
    open_memory: Callable[..., Memory], store_path: Path
) -> None:
    open_memory().close()
    store_path.with_name(store_path.name + ".key").write_text("garbage")
    before = snapshot(store_path.parent)
    with pytest.raises(NotAStore, match="not a valid localmind key file"):
        Memory.open(store_path, PASSPHRASE)
    assert snapshot(store_path.parent) == before


def test_no_store_is_created_when_create_is_false(store_path: Path) -> None:
    with pytest.raises(NotAStore, match="No localmind store"):
        Memory.open(store_path, PASSPHRASE, create=False)
    assert not store_path.parent.joinpath("memory.db").exists()


def test_a_failed_creation_leaves_no_half_made_store(store_path: Path) -> None:
    # A model directory that is not there is a wrong input (InvalidInput), found while the
    # store is being made: nothing of it may stay.
    with pytest.raises(LocalmindError, match="No model directory"):
        Memory.open(store_path, PASSPHRASE, kdf=FAST_KDF, embedder="fastembed:/does/not/exist")
    assert list(store_path.parent.iterdir()) == []


@pytest.mark.slow
def test_another_embedder_is_a_clear_error_until_reindexed(
    open_memory: Callable[..., Memory], store_path: Path, minilm_model_dir: Path
) -> None:
    memory = open_memory()
    memory.remember("I drink green tea every morning")
    memory.remember("The invoice is due on Friday")
    memory.close()
    before = snapshot(store_path.parent)
    spec = f"fastembed:{minilm_model_dir}"
    with pytest.raises(EmbedderMismatch, match="use-multilingual-v3:512") as error:
        open_memory(embedder=spec)
    assert "localmind reindex" in str(error.value)
    assert snapshot(store_path.parent) == before

    switching = open_memory(embedder=spec, accept_new_embedder=True)
    with pytest.raises(StoreError, match="reindex"):
        switching.recall("tea")
    assert switching.reindex() == 2
    assert switching.recall("a hot drink", limit=1)[0].memory.content.startswith("I drink")
    switching.close()
    # From now on the store opens with the new model without being told.
    reopened = open_memory()
    assert reopened.embedder.identity.endswith(":384")
    assert reopened.recall("tea", limit=1)[0].memory.content.startswith("I drink")


def test_a_program_still_open_after_another_reindexed_refuses_to_mix_models(
    open_memory: Callable[..., Memory], store_path: Path, minilm_model_dir: Path
) -> None:
    """The app keeps the store open while `localmind reindex` switches models in another
    process: the app must not add vectors of the old model, nor search the new ones with it."""
    running = open_memory()
    running.remember("I drink green tea every morning")
    switching = open_memory(embedder=f"fastembed:{minilm_model_dir}", accept_new_embedder=True)
    assert switching.reindex() == 1
    with pytest.raises(EmbedderMismatch, match=r"re-indexed with .*:384 by another program"):
        running.remember("The invoice is due on Friday")
    with pytest.raises(EmbedderMismatch, match="open it again"):
        running.recall("tea")
    assert switching.count() == 1  # nothing was added
    switching.remember("The invoice is due on Friday")  # the re-indexing program writes on
    assert switching.recall("when is the invoice due", limit=1)[0].memory.content.startswith(
        "The invoice"
    )


def test_change_passphrase_rewraps_without_touching_the_database(
    open_memory: Callable[..., Memory], store_path: Path
) -> None:
    with open_memory() as memory:
        memory.remember("kept across the change")
    database_before = store_path.read_bytes()
    Memory.change_passphrase(store_path, PASSPHRASE, "a brand new passphrase")
    assert store_path.read_bytes() == database_before
    with pytest.raises(WrongPassphrase):
        Memory.open(store_path, PASSPHRASE)
    with Memory.open(store_path, "a brand new passphrase") as memory:
        assert [r.content for r in memory.list_memories()] == ["kept across the change"]


def test_change_passphrase_with_the_wrong_old_one_changes_nothing(
    open_memory: Callable[..., Memory], store_path: Path
) -> None:
    open_memory().close()
    before = snapshot(store_path.parent)
    with pytest.raises(WrongPassphrase):
        Memory.change_passphrase(store_path, "guess", "a brand new passphrase")
    assert snapshot(store_path.parent) == before


def test_the_core_never_imports_the_tui_the_watcher_or_sync() -> None:
    code = (
        "import sys, localmind, localmind.cli, localmind.memory, localmind.store, "
        "localmind.embedders.use, localmind.embedders.fastembed\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'textual', 'watchfiles', 'sync', 'tui'})\n"
        "print(','.join(bad))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == ""

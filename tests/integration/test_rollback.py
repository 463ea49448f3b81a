"""Issue 18 item 3: an older copy of the database (an old laptop backup, a cloud drive's earlier
version) is refused, whole or page by page, instead of quietly serving old data with forgotten
memories back in it. `localmind restore` is the deliberate way back."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from localmind import Memory
from localmind.backup import backup_store
from localmind.errors import RolledBack
from localmind.keys import key_file_for
from tests.cli_support import Cli, assert_error, files_of
from tests.conftest import PASSPHRASE
from tests.workers.invariants import raw_store

PAGE_SIZE = 8192
FORGOTTEN = "My bank PIN is 4921"


def _events_root(path: Path) -> int:
    with raw_store(path) as db:
        root: int = db.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = 'events'"
        ).fetchall()[0][0]
        return root


@pytest.fixture
def old_copy(open_memory: Callable[..., Memory], store_path: Path, tmp_path: Path) -> Path:
    """A copy of the store's database taken while it still held FORGOTTEN; since then that
    memory was forgotten and another added."""
    with open_memory() as memory:
        memory.remember("I live in Porto")
        secret = memory.remember(FORGOTTEN)
    copy = tmp_path / "old-copy.db"
    shutil.copyfile(store_path, copy)
    shutil.copyfile(key_file_for(store_path), key_file_for(copy))  # only to read its pages
    with open_memory() as memory:
        memory.forget(secret.id)
        memory.remember("I play the cello")
    return copy


def test_an_old_copy_of_the_database_is_refused(old_copy: Path, store_path: Path, cli: Cli) -> None:
    shutil.copyfile(old_copy, store_path)  # put back, as a cloud drive's "restore version" does
    before = files_of(store_path)
    with pytest.raises(RolledBack, match="older than the store this laptop last saw"):
        Memory.open(store_path, PASSPHRASE)
    result = cli("recall", "bank PIN")
    assert_error(result, "localmind restore FILE --force")
    assert FORGOTTEN not in result.output
    assert files_of(store_path) == before


def test_one_page_of_an_old_copy_swapped_in_is_refused(old_copy: Path, store_path: Path) -> None:
    """Every old page still authenticates; the event log's root page from the old copy makes
    its newest change older than the one recorded."""
    page = _events_root(store_path)
    assert page == _events_root(old_copy)
    offset = (page - 1) * PAGE_SIZE
    current = bytearray(store_path.read_bytes())
    current[offset : offset + PAGE_SIZE] = old_copy.read_bytes()[offset : offset + PAGE_SIZE]
    store_path.write_bytes(bytes(current))
    with pytest.raises(RolledBack):
        Memory.open(store_path, PASSPHRASE)


def test_restore_is_the_deliberate_way_back(
    open_memory: Callable[..., Memory], store_path: Path, tmp_path: Path
) -> None:
    with open_memory() as memory:
        memory.remember("I live in Porto")
    backup = tmp_path / "backup.db"
    backup_store(store_path, backup, PASSPHRASE)
    with open_memory() as memory:
        memory.remember("I play the cello")
        memory.remember("I moved to Lisbon")
    cli = Cli(store_path)
    restored = cli.ok("restore", str(backup), "--force")
    assert "Restored 1 memory from" in restored.stdout
    assert cli.contents() == ["I live in Porto"]
    # ... and the newer store it replaced still opens where it was kept.
    aside = store_path.with_name("memory.db.before-restore")
    with Memory.open(aside, PASSPHRASE) as memory:
        assert len(memory.list_memories()) == 3


def test_the_record_cannot_be_edited_down(old_copy: Path, store_path: Path) -> None:
    """Lowering the number in the key file by hand breaks its HMAC: refused, not obeyed."""
    import json

    key_path = key_file_for(store_path)
    document = json.loads(key_path.read_text())
    assert document["seen"]["events"] > 0
    document["seen"]["events"] = 1
    key_path.write_text(json.dumps(document))
    shutil.copyfile(old_copy, store_path)
    with pytest.raises(Exception, match="has been edited"):
        Memory.open(store_path, PASSPHRASE)

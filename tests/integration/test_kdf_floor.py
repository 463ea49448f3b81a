"""Issue 18 item 4: the passphrase's key derivation cannot be weakened through a file someone
else can write (the sync folder's header) or that came from elsewhere (a key file)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from localmind import Memory
from localmind.errors import WeakKeyDerivation
from localmind.keys import DEFAULT_KDF, UNSAFE_TEST_KDF_ENV, KeyFile, key_file_for
from sync import init_folder, join_folder
from sync.folder_transport import header_path
from tests.cli_support import Cli, assert_error, files_of
from tests.conftest import FAST_KDF, PASSPHRASE

pytestmark = pytest.mark.real_kdf  # these tests are about this build's Argon2id cost

NEW_PASSPHRASE = "a brand new passphrase"
CHEAPEST = {"memory_cost_kib": 8, "iterations": 1, "lanes": 1}
DEFAULTS = {"memory_cost_kib": 65536, "iterations": 3, "lanes": 4}


def _kdf_of(header: Path) -> dict[str, int]:
    kdf = json.loads(header.read_text())["key"]["kdf"]
    return {name: kdf[name] for name in CHEAPEST}


def _lower_header(header: Path) -> None:
    """What anyone who can write the folder can do: ask for Argon2id's cheapest cost."""
    document = json.loads(header.read_text())
    document["key"]["kdf"].update(CHEAPEST)
    header.write_text(json.dumps(document))


def test_rekey_after_passwd_uses_this_builds_cost_not_the_downgraded_headers(
    tmp_path: Path,
) -> None:
    from sync import cli as sync_cli  # registers `localmind sync`

    assert sync_cli.sync_group.name == "sync"
    shared = tmp_path / "Sync"
    laptop = Cli(tmp_path / "laptop.db")
    laptop.ok("add", "My favourite tea is green tea")
    laptop.ok("sync", "init", str(shared))
    assert _kdf_of(header_path(shared)) == DEFAULTS
    _lower_header(header_path(shared))

    laptop.ok("passwd", LOCALMIND_NEW_PASSPHRASE=NEW_PASSPHRASE)
    laptop.passphrase = NEW_PASSPHRASE
    assert "now opens with" in laptop.ok("sync", "rekey").stdout

    # The new passphrase is as costly to guess as this build makes it, not 8 KiB / 1 pass.
    assert _kdf_of(header_path(shared)) == DEFAULTS
    assert json.loads(key_file_for(tmp_path / "laptop.db").read_text())["kdf"] == {
        "name": "argon2id",
        **DEFAULTS,
    }
    late = Cli(tmp_path / "late.db", passphrase=NEW_PASSPHRASE)
    assert "imported 1 change from 1 file," in late.ok("sync", "join", str(shared)).stdout


def test_a_downgraded_header_is_refused_on_join_and_never_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shared = tmp_path / "Sync"
    with Memory.open(tmp_path / "a.db", PASSPHRASE, kdf=FAST_KDF) as first:
        init_folder(first, shared, PASSPHRASE)  # this build's defaults
    _lower_header(header_path(shared))
    header_before = header_path(shared).read_bytes()
    with Memory.open(tmp_path / "b.db", PASSPHRASE, kdf=FAST_KDF) as second:
        monkeypatch.delenv(UNSAFE_TEST_KDF_ENV)  # the floor as users have it
        with pytest.raises(WeakKeyDerivation, match="weaker key derivation") as refused:
            join_folder(second, shared, PASSPHRASE)
        assert "Argon2id with 8 KiB, 1 pass)" in str(refused.value)
        assert "localmind-sync.json" in str(refused.value)
        monkeypatch.setenv(UNSAFE_TEST_KDF_ENV, "1")
        assert second.get_meta("sync.key") is None  # not joined
    assert header_path(shared).read_bytes() == header_before


def test_a_key_file_below_the_floor_is_refused_with_a_clear_message(
    store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The test suite's stores use Argon2id's cheapest cost; as a user's laptop sees them."""
    before = files_of(store)
    monkeypatch.delenv(UNSAFE_TEST_KDF_ENV)
    with pytest.raises(WeakKeyDerivation, match="may have been lowered on purpose"):
        Memory.open(store, PASSPHRASE)
    result = Cli(store)("list")
    assert_error(result, "weaker key derivation")
    assert files_of(store) == before  # refused before anything was written


def test_passwd_raises_a_cheap_key_file_to_this_builds_cost(cli: Cli) -> None:
    cli.ok("passwd", LOCALMIND_NEW_PASSPHRASE=NEW_PASSPHRASE)
    key_file = KeyFile.load(key_file_for(cli.db))
    assert key_file.kdf == DEFAULT_KDF
    with Memory.open(cli.db, NEW_PASSPHRASE) as memory:
        assert memory.list_memories() == []


def test_a_weak_cost_is_never_chosen_for_a_new_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(UNSAFE_TEST_KDF_ENV)
    with pytest.raises(WeakKeyDerivation):
        Memory.open(tmp_path / "new.db", PASSPHRASE, kdf=FAST_KDF)
    assert list(tmp_path.iterdir()) == []


def test_sync_join_through_the_command_line_says_why(tmp_path: Path) -> None:
    from sync import cli as sync_cli  # registers `localmind sync`

    assert sync_cli.sync_group.name == "sync"
    shared = tmp_path / "Sync"
    Cli(tmp_path / "a.db").ok("sync", "init", str(shared))
    _lower_header(header_path(shared))
    joining = Cli(tmp_path / "b.db")
    result = joining("sync", "join", str(shared), LOCALMIND_UNSAFE_TEST_KDF=None)
    assert_error(result, "weaker key derivation")
    assert not (tmp_path / "b.db").exists()  # refused before a store was made for it

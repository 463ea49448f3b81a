import json
from pathlib import Path

import pytest

from localmind.errors import InvalidInput, NotAStore, WrongPassphrase
from localmind.keys import KdfParams, KeyFile

CHEAP = KdfParams(memory_cost_kib=8, iterations=1, lanes=1)


def test_the_data_key_comes_back_only_with_the_right_passphrase() -> None:
    key_file, data_key = KeyFile.create("open sesame", CHEAP)
    assert len(data_key) == 32
    assert key_file.unwrap("open sesame") == data_key
    with pytest.raises(WrongPassphrase):
        key_file.unwrap("open sesame!")


def test_rewrap_keeps_the_data_key_and_retires_the_old_passphrase() -> None:
    key_file, data_key = KeyFile.create("old", CHEAP)
    rewrapped = key_file.rewrap("old", "new")
    assert rewrapped.unwrap("new") == data_key
    with pytest.raises(WrongPassphrase):
        rewrapped.unwrap("old")


def test_key_file_round_trips_through_disk_and_holds_no_key_in_clear(tmp_path: Path) -> None:
    key_file, data_key = KeyFile.create("pw", CHEAP)
    path = tmp_path / "memory.db.key"
    key_file.save(path)
    assert data_key.hex() not in path.read_text()
    assert KeyFile.load(path).unwrap("pw") == data_key
    assert path.stat().st_mode & 0o777 == 0o600


@pytest.mark.real_kdf
def test_default_kdf_is_argon2id_at_64_mib(tmp_path: Path) -> None:
    key_file, _ = KeyFile.create("pw")
    document = json.loads(key_file.to_json())
    assert document["kdf"] == {
        "name": "argon2id",
        "memory_cost_kib": 65536,
        "iterations": 3,
        "lanes": 4,
    }


@pytest.mark.parametrize(
    "text",
    [
        "",
        "not json",
        "[]",
        '{"format": "something-else"}',
        '{"format": "localmind-key", "version": 1, "kdf": {"name": "pbkdf2"}}',
        '{"format": "localmind-key", "version": 1}',
        '{"format": "localmind-key", "version": 1, "kdf": {"name": "argon2id", '
        '"memory_cost_kib": 8, "iterations": 1, "lanes": 1}, "salt": "", "nonce": "", '
        '"wrapped_key": "", "database_cipher": "rot13"}',
    ],
)
def test_a_foreign_or_damaged_key_file_is_a_clear_error(text: str, tmp_path: Path) -> None:
    with pytest.raises(NotAStore, match="not a valid localmind key file"):
        KeyFile.from_json(text, tmp_path / "x.key")


def test_an_empty_passphrase_is_refused() -> None:
    with pytest.raises(InvalidInput):
        KeyFile.create("   ", CHEAP)


def test_the_database_cipher_survives_a_passphrase_change(tmp_path: Path) -> None:
    key_file, data_key = KeyFile.create("old", CHEAP, "aegis-256")
    moved = KeyFile.from_json(key_file.rewrap("old", "new").to_json(), tmp_path / "x.key")
    assert moved.database_cipher == "aegis-256"
    assert moved.unwrap("new") == data_key

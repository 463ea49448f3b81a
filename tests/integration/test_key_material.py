"""Key material (passphrases, the data key, the sync key) is never written in the clear, never
logged and never printed, whatever the commands a user runs."""

from __future__ import annotations

import base64
import logging
from pathlib import Path

import pytest

from localmind import Memory
from localmind.keys import KeyFile, key_file_for
from tests.cli_support import Cli
from tests.conftest import PASSPHRASE

NEW_PASSPHRASE = "purple elephant umbrella 42"


def clear_forms(secret: bytes) -> list[bytes]:
    """The ways a key could leak: raw, hex (either case), base64."""
    return [
        secret,
        secret.hex().encode(),
        secret.hex().upper().encode(),
        base64.b64encode(secret),
        base64.urlsafe_b64encode(secret),
    ]


def test_keys_and_passphrases_never_reach_files_logs_or_output(
    cli: Cli, store: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from sync import cli as sync_cli  # registers `localmind sync`

    assert sync_cli.sync_group is not None
    caplog.set_level(logging.DEBUG)  # every logger, every level
    outputs: list[str] = []

    def run(*args: str, **env: str | None) -> None:
        result = cli.ok(*args, **env)
        outputs.append(result.output)

    run("add", "My bank PIN hint is the cat's birthday", "--type", "semantic")
    run("add", "用户喜欢绿茶")
    run("recall", "what is my PIN hint?", "--json")
    run("stats", "--json")
    run("export", "-o", str(tmp_path / "export.jsonl"))
    run("sync", "init", str(tmp_path / "Sync"))
    run("sync", "now", "-v")
    run("passwd", LOCALMIND_NEW_PASSPHRASE=NEW_PASSPHRASE)
    run("add", "After the passphrase change", LOCALMIND_PASSPHRASE=NEW_PASSPHRASE)
    run("sync", "now", "-v", LOCALMIND_PASSPHRASE=NEW_PASSPHRASE)

    data_key = KeyFile.load(key_file_for(store)).unwrap(NEW_PASSPHRASE)
    with Memory.open(store, NEW_PASSPHRASE) as memory:
        sync_key = bytes.fromhex(memory.get_meta("sync.key") or "")
    assert len(data_key) == 32 and len(sync_key) == 32
    secrets = [
        PASSPHRASE.encode(),
        NEW_PASSPHRASE.encode(),
        *clear_forms(data_key),
        *clear_forms(sync_key),
    ]

    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert len(files) >= 6  # database, WAL, key file, export, sync header and a segment
    for path in files:
        data = path.read_bytes()
        for secret in secrets:
            assert secret not in data, f"{secret!r} found in {path}"
    said = "\n".join(outputs) + caplog.text
    assert caplog.records  # the sync commands did log (-v), so the check below has teeth
    for secret in secrets:
        assert secret.decode("latin-1") not in said

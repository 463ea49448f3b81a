"""Issue 16 item 12: `localmind unlock --remember` keeps the store's data key in the OS keyring,
so the command line and `sync watch` open the store without the passphrase; `localmind lock`
forgets it. The keyring is keyrings.alt's file backend, set through keyring's own API (no real
keychain here)."""

from __future__ import annotations

import base64
import os
import pty
import subprocess
from collections.abc import Iterator
from pathlib import Path

import keyring
import pytest
from keyring.backends import fail
from keyrings.alt.file import PlaintextKeyring

from localmind import keys
from localmind.keys import KeyFile, key_file_for
from localmind.remembered_key import (
    SERVICE,
    marker_for,
    remember_data_key,
    remembered_data_key,
)
from sync import cli as sync_cli  # registers `localmind sync`
from tests.cli_support import Cli, assert_error, files_of
from tests.conftest import PASSPHRASE

NEW = "a brand new passphrase"


@pytest.fixture
def os_keyring(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A file-backed keyring in ``tmp_path``; yields its file."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data-home"))
    before = keyring.get_keyring()
    backend = PlaintextKeyring()
    keyring.set_keyring(backend)
    try:
        yield Path(backend.file_path)
    finally:
        keyring.set_keyring(before)


def data_key(db: Path, passphrase: str) -> bytes:
    return KeyFile.load(key_file_for(db)).unwrap(passphrase)


def test_remembered_the_store_opens_without_the_passphrase_until_lock(
    cli: Cli, os_keyring: Path, tmp_path: Path
) -> None:
    assert sync_cli.sync_group.name == "sync"
    cli.add("I prefer green tea over coffee")
    said = cli.ok("unlock", "--remember").stdout
    assert "is in the OS keyring (PlaintextKeyring)" in said
    assert remembered_data_key(cli.db) == data_key(cli.db, PASSPHRASE)
    stored = os_keyring.read_text()  # the data key, never the passphrase (in any spelling)
    assert PASSPHRASE not in stored and base64.b64encode(PASSPHRASE.encode()).decode() not in stored

    no_passphrase = Cli(cli.db, passphrase=None)
    assert no_passphrase.contents() == ["I prefer green tea over coffee"]
    no_passphrase.add("I play the cello on Sundays")
    cli.ok("sync", "init", str(tmp_path / "Sync"))  # the folder's header needs the passphrase
    assert "Exported 0 changes" in no_passphrase.ok("sync", "now").stdout  # as `sync watch`
    assert no_passphrase.json("sync", "status")["pending_events"] == 0

    assert marker_for(cli.db).exists()
    assert "Forgot the key" in cli.ok("lock").stdout
    assert remembered_data_key(cli.db) is None and not marker_for(cli.db).exists()
    assert_error(no_passphrase("list"), "No passphrase")
    assert "nothing changed" in cli.ok("lock").stdout


def test_with_the_key_remembered_a_command_derives_no_key(
    cli: Cli, os_keyring: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the key derivation (Argon2id, a fifth of a second by design) is the passphrase's cost:
    # a command that opens the store with the remembered key must not pay it
    cli.add("I prefer green tea over coffee")
    cli.ok("unlock", "--remember")

    def no_kdf(*_: object, **__: object) -> bytes:
        raise AssertionError("a key was derived from the passphrase")

    monkeypatch.setattr(keys, "_derive", no_kdf)
    no_passphrase = Cli(cli.db, passphrase=None)
    assert "green tea" in no_passphrase.ok("recall", "what do I drink?").stdout
    no_passphrase.add("I play the cello on Sundays")
    with pytest.raises(AssertionError, match="derived"):  # the passphrase still needs it
        cli("list")


def test_a_wrong_passphrase_remembers_nothing(cli: Cli, os_keyring: Path) -> None:
    cli.add("I prefer green tea over coffee")
    assert_error(cli("unlock", "--remember", LOCALMIND_PASSPHRASE="wrong"), "Wrong passphrase")
    assert remembered_data_key(cli.db) is None
    assert "The passphrase opens" in cli.ok("unlock").stdout  # checks, remembers nothing
    assert remembered_data_key(cli.db) is None


def test_rotation_keeps_the_keyring_current_and_a_stale_key_falls_back(
    cli: Cli, os_keyring: Path
) -> None:
    cli.add("I prefer green tea over coffee")
    cli.ok("unlock", "--remember")
    old_key = data_key(cli.db, PASSPHRASE)
    rotated = cli.ok("passwd", "--rotate", LOCALMIND_NEW_PASSPHRASE=NEW).stdout
    assert "The OS keyring now holds the new key." in rotated
    assert remembered_data_key(cli.db) == data_key(cli.db, NEW) != old_key
    no_passphrase = Cli(cli.db, passphrase=None)
    assert no_passphrase.contents() == ["I prefer green tea over coffee"]

    remember_data_key(cli.db, old_key)  # e.g. rotated by a program that did not update it
    stale = no_passphrase("list")
    assert stale.exit_code == 1
    assert "The key remembered in the OS keyring no longer opens" in stale.stderr
    assert "No passphrase" in stale.stderr  # it asks for the passphrase instead
    assert Cli(cli.db, passphrase=NEW).contents() == ["I prefer green tea over coffee"]


def test_without_a_keyring_remember_says_so_and_changes_nothing(cli: Cli) -> None:
    cli.add("I prefer green tea over coffee")
    before = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    try:
        assert_error(cli("unlock", "--remember"), "No OS keyring could keep the key")
        assert_error(Cli(cli.db, passphrase=None)("list"), "No passphrase")
        assert cli.contents() == ["I prefer green tea over coffee"]
    finally:
        keyring.set_keyring(before)


def test_the_keyring_is_asked_only_for_a_store_that_chose_it(cli: Cli, os_keyring: Path) -> None:
    """No `unlock --remember` here, no marker beside the store: an entry someone else put in
    the keyring is not used (and an ordinary command never brings up a keychain prompt)."""
    cli.add("I prefer green tea over coffee")
    keyring.set_password(SERVICE, str(cli.db.resolve()), data_key(cli.db, PASSPHRASE).hex())
    assert_error(Cli(cli.db, passphrase=None)("list"), "No passphrase")


async def test_the_mcp_server_opens_with_the_remembered_key(cli: Cli, os_keyring: Path) -> None:
    """The reason to remember the key: no passphrase in the MCP client's configuration. The
    server (a real subprocess) reads the same file keyring through keyring's configuration."""
    from mcp import ClientSession, StdioServerParameters, stdio_client

    from tests.integration.test_mcp import SERVER, call, server_env

    cli.add("I prefer green tea over coffee")
    cli.ok("unlock", "--remember")
    env = server_env(cli.db, passphrase=None)
    env["PYTHON_KEYRING_BACKEND"] = "keyrings.alt.file.PlaintextKeyring"
    env["XDG_DATA_HOME"] = str(os_keyring.parent.parent)
    params = StdioServerParameters(command=SERVER[0], args=SERVER[1:], env=env)
    with (cli.db.parent / "server.log").open("w", encoding="utf-8") as log:
        async with (
            stdio_client(params, errlog=log) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            found = await call(session, "recall", query="what do I drink")
    assert "green tea" in str(found)


@pytest.mark.slow
def test_mcp_with_a_stale_remembered_key_never_prompts_in_a_terminal(
    cli: Cli, os_keyring: Path
) -> None:
    """An MCP server's stdin is the protocol: even with a terminal attached, a remembered key
    that no longer opens the store is a one-line error, never a passphrase prompt."""
    from tests.integration.test_mcp import SERVER, server_env

    cli.add("I prefer green tea over coffee")
    cli.ok("unlock", "--remember")
    old_key = data_key(cli.db, PASSPHRASE)
    cli.ok("passwd", "--rotate", LOCALMIND_NEW_PASSPHRASE=NEW)
    remember_data_key(cli.db, old_key)  # stale: rotated by a program that did not update it
    env = {**os.environ, **server_env(cli.db, passphrase=None)}
    env.pop("LOCALMIND_PASSPHRASE", None)
    env["PYTHON_KEYRING_BACKEND"] = "keyrings.alt.file.PlaintextKeyring"
    env["XDG_DATA_HOME"] = str(os_keyring.parent.parent)
    controller, terminal = pty.openpty()
    try:
        server = subprocess.Popen(
            SERVER, stdin=terminal, stderr=terminal, stdout=subprocess.PIPE, env=env
        )
        os.close(terminal)
        try:
            code = server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
            pytest.fail("localmind mcp waited on the terminal (a passphrase prompt)")
        shown = _read_all(controller)
    finally:
        os.close(controller)
    assert code == 1
    lines = [line for line in shown.splitlines() if line.strip()]
    assert lines == [
        f"Error: The key remembered in the OS keyring no longer opens {cli.db} (its key was "
        "changed since): run `localmind unlock --remember` again, or set LOCALMIND_PASSPHRASE."
    ]
    assert server.stdout is not None and server.stdout.read() == b""  # nothing on the protocol


def _read_all(controller: int) -> str:
    chunks = []
    while True:
        try:
            chunk = os.read(controller, 4096)
        except OSError:  # the terminal's other end closed (Linux: EIO)
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks).decode()


FORGOTTEN = "My bank PIN is 4921"


def test_an_old_copy_with_its_own_key_file_is_refused_by_the_keyrings_record(
    cli: Cli, os_keyring: Path, tmp_path: Path
) -> None:
    """Issue 18: a restored laptop backup brings the old database back *with* its old key file,
    whose record of the newest change agrees with it; the keyring's record does not."""
    cli.add("I live in Porto")
    cli.ok("unlock", "--remember")
    secret = cli.add(FORGOTTEN)
    laptop_backup = files_of(cli.db)
    cli.ok("backup", str(tmp_path / "deliberate.db"))  # taken with the secret still in it
    cli.ok("forget", secret)
    cli.add("I play the cello")
    for name, data in laptop_backup.items():  # the whole directory as it was, key file too
        (cli.db.parent / name).write_bytes(data)
    for name in set(files_of(cli.db)) - set(laptop_backup):
        (cli.db.parent / name).unlink()
    before = files_of(cli.db)

    for opener in (Cli(cli.db, passphrase=None), cli):  # with the remembered key or not
        result = opener("recall", "bank PIN")
        assert_error(result, "(recorded in the OS keyring)")
        assert "localmind restore FILE --force" in result.stderr
        assert FORGOTTEN not in result.output
    assert files_of(cli.db) == before

    # Going back on purpose still works, and the keyring's record goes back with it.
    cli.ok("restore", str(tmp_path / "deliberate.db"), "--force")
    assert FORGOTTEN in Cli(cli.db, passphrase=None).contents()


def test_a_new_store_where_one_used_the_keyring_starts_afresh(cli: Cli, os_keyring: Path) -> None:
    """The keyring's record belongs to the store that was there: a new store in its place
    (the old one deleted by hand) is not refused as "older"."""
    cli.add("I live in Porto")
    cli.ok("unlock", "--remember")
    cli.add("I play the cello")
    for name in files_of(cli.db):
        if name != marker_for(cli.db).name:
            (cli.db.parent / name).unlink()
    cli.add("A new beginning")
    assert cli.contents() == ["A new beginning"]
    assert remembered_data_key(cli.db) is None and not marker_for(cli.db).exists()

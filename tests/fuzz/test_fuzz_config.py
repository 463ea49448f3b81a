"""Configuration, hostile. What localmind reads from outside: the key file next to the store
(``<db>.key``: the KDF parameters, salt and wrapped key, a JSON document anyone who can write the
folder can replace), the command line's environment (LOCALMIND_DB, LOCALMIND_USER,
LOCALMIND_EMBEDDER, LOCALMIND_MODEL, LOCALMIND_NO_LLM) and ``localmind.toml``
(localmind/configuration.py; its errors: tests/unit/test_configuration.py).

A key file that cannot be used is a clear NotAStore / WrongPassphrase, never another exception,
and one that asks Argon2id for absurd cost is refused before any key is derived; the database
is never touched by a failed open. A hostile environment gets an exit code 1 or 2 and one
``Error:`` line.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result
from hypothesis import event, example, given
from hypothesis import strategies as st

from localmind import LocalmindError, Memory, NotAStore
from localmind.keys import MAX_KDF_MEMORY_KIB, key_file_for
from tests.cli_support import Cli
from tests.conftest import FAST_KDF, PASSPHRASE
from tests.fuzz.support import (
    budget,
    deeply_nested,
    edited,
    file_name,
    from_the_os,
    hostile_text,
    json_values,
)

KEY_FIELDS = ["format", "version", "kdf", "salt", "cipher", "nonce", "wrapped_key"]
KDF_FIELDS = ["name", "memory_cost_kib", "iterations", "lanes"]
PATHS = [
    *((name,) for name in KEY_FIELDS),
    ("database_cipher",),
    *(("kdf", name) for name in KDF_FIELDS),
]
TIB_OF_MEMORY = [(("kdf", "memory_cost_kib"), 2**30)]  # KiB


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    path = tmp_path_factory.mktemp("fuzz-config") / "memory.db"
    with Memory.open(path, PASSPHRASE, kdf=FAST_KDF) as memory:
        memory.remember("I prefer green tea over coffee", "semantic")
    yield path


def cheap_enough(document: Any) -> Any:
    """Keep valid-looking KDF costs cheap: the fuzzer asks for tiny derivations or for ones the
    key file check must refuse before deriving anything."""
    try:
        kdf = document["kdf"]
        memory_kib, iterations = int(kdf["memory_cost_kib"]), int(kdf["iterations"])
    except Exception:
        return document
    if memory_kib * iterations > 4_096 and memory_kib <= MAX_KDF_MEMORY_KIB:
        kdf.update(memory_cost_kib=8, iterations=1, lanes=1)
    return document


@budget(80)
@given(
    changes=st.lists(
        st.tuples(st.sampled_from(PATHS), st.one_of(json_values, st.integers(-10, 2**64))),
        max_size=3,
    ),
    replacement=st.none() | json_values | hostile_text | st.binary(max_size=100),
)
@example(changes=TIB_OF_MEMORY, replacement=None)  # must be refused, not attempted
@example(changes=[(("kdf", "lanes"), 0)], replacement=None)  # was cryptography's ValueError
@example(changes=[(("kdf", "memory_cost_kib"), float("inf"))], replacement=None)  # OverflowError
@example(changes=[(("nonce",), "")], replacement=None)  # was cryptography's ValueError
@example(changes=[], replacement=deeply_nested())  # was a RecursionError
def test_a_hostile_key_file_is_a_clear_error_and_the_store_is_untouched(
    store: Path, changes: list[tuple[tuple[str, ...], Any]], replacement: Any
):
    key_path = key_file_for(store)
    original_key, original_db = key_path.read_bytes(), store.read_bytes()
    if replacement is None:
        document = cheap_enough(edited(json.loads(original_key), changes))
        content = json.dumps(document, ensure_ascii=False).encode("utf-8", "surrogatepass")
    elif isinstance(replacement, bytes):
        content = replacement
    elif isinstance(replacement, str):
        content = replacement.encode("utf-8", "surrogatepass")
    else:
        content = json.dumps(replacement).encode("utf-8", "surrogatepass")
    key_path.write_bytes(content)
    try:
        with Memory.open(store, PASSPHRASE) as memory:
            event("opened")
            assert memory.count() == 1
            assert changes != TIB_OF_MEMORY, "a key file asking for 1 TiB of memory was used"
    except LocalmindError as error:
        event(type(error).__name__)
        assert str(error) and "\n" not in str(error)
        assert store.read_bytes() == original_db
    finally:
        key_path.write_bytes(original_key)


def test_the_key_file_bounds_refuse_before_deriving(store: Path):
    """The message names what is wrong (and no key was derived: 1 TiB would not fit here)."""
    key_path = key_file_for(store)
    original = key_path.read_bytes()
    key_path.write_text(json.dumps(edited(json.loads(original), TIB_OF_MEMORY)))
    try:
        with pytest.raises(NotAStore, match="memory_cost_kib must be a whole number from 8"):
            Memory.open(store, PASSPHRASE)
    finally:
        key_path.write_bytes(original)


# --- the command line's environment -------------------------------------------------------------


def check(result: Result) -> None:
    assert result.exit_code in (0, 1, 2), result.output[-2000:]
    assert "Traceback" not in result.output
    event(f"exit code {result.exit_code}")
    if result.exit_code:
        assert result.stderr.splitlines()[-1].startswith("Error: "), result.stderr[-2000:]
        if result.exit_code == 1:
            assert len(result.stderr.splitlines()) == 1, result.stderr[-2000:]


@budget(40)
@given(
    user=st.none() | hostile_text,
    embedder=st.none()
    | hostile_text
    | st.sampled_from(["use", "USE", "fastembed:", "fastembed:nope/model", "fastembed:/", "use:x"]),
    model=st.none() | hostile_text,
    no_llm=st.none() | st.sampled_from(["1", "true", "0", "no", "maybe", ""]),
    command=st.sampled_from(["list", "stats", "add"]),
)
@example(user="\udcff", embedder=None, model=None, no_llm=None, command="list")
def test_a_hostile_environment_gets_a_clear_error(
    store: Path,
    user: str | None,
    embedder: str | None,
    model: str | None,
    no_llm: str | None,
    command: str,
):
    cli = Cli(store)
    env = {
        "LOCALMIND_USER": user,
        "LOCALMIND_EMBEDDER": embedder,
        "LOCALMIND_MODEL": model,
        "LOCALMIND_NO_LLM": no_llm,
    }
    args = ["add", "I cycle to work"] if command == "add" else [command]
    with Memory.open(store, PASSPHRASE) as memory:
        before = memory.count(), memory.stats()["events"]

    result = cli(*args, **{k: from_the_os(v) for k, v in env.items() if v is not None})

    check(result)
    if result.exit_code or command != "add":
        with Memory.open(store, PASSPHRASE) as memory:
            assert (memory.count(), memory.stats()["events"]) == before


@budget(15)
@given(name=hostile_text)
@example(name="x" * 300)  # was an OSError traceback
@example(name="ok \udcff ok")  # a byte that is not UTF-8: was a UnicodeEncodeError traceback
def test_a_hostile_store_path_gets_a_clear_error(
    tmp_path_factory: pytest.TempPathFactory, name: str
):
    """LOCALMIND_DB names a file in a scratch directory (no slash or NUL: never outside it)."""
    db = tmp_path_factory.mktemp("db") / file_name(name)
    result = Cli(db)("list")
    check(result)

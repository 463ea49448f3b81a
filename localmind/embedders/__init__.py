"""Embedders, and how a user names one: a *spec* string kept in the store so the same model is
used every time the store is opened.

- ``use`` — the bundled USE multilingual v3 (default; offline on first run)
- ``fastembed:<hub model name>`` — a fastembed model from its cache, or downloaded when allowed
- ``fastembed:<directory>`` — an ONNX model with its tokenizer files in a local directory
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from localmind.embedders.base import Embedder, EmbedderUnavailable
from localmind.errors import InvalidInput
from localmind.paths import models_dir

DEFAULT_SPEC = "use"


@dataclass(frozen=True, slots=True)
class Downloadable:
    name: str
    dim: int
    size_mb: int
    why: str


# Multilingual fastembed models worth downloading, best trade-off first.
RECOMMENDED = (
    Downloadable(
        "sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2",
        384,
        220,
        "50+ languages incl. Chinese and English; small and fast on a CPU",
    ),
    Downloadable(
        "sentence-transformers/paraphrase-multilingual-mpnet-base-v2",
        768,
        1000,
        "the same languages, stronger and about 4× slower",
    ),
)


def default_embedder() -> Embedder:
    return embedder_from_spec(DEFAULT_SPEC)


def embedder_from_spec(spec: str) -> Embedder:
    kind, _, argument = spec.strip().partition(":")
    kind = kind.lower()
    if kind == "use" and not argument:
        from localmind.embedders.use import UseEmbedder

        return UseEmbedder()
    if kind == "fastembed" and argument:
        from localmind.embedders.fastembed import FastEmbedder

        location = Path(argument).expanduser()
        if location.is_dir():
            return FastEmbedder(location.name, location.resolve())
        return FastEmbedder(argument, cache_dir=models_dir())
    raise InvalidInput(
        f"Unknown embedder {spec!r}: use 'use' (bundled), 'fastembed:<model name>' or "
        "'fastembed:<model directory>'."
    )


__all__ = [
    "DEFAULT_SPEC",
    "Embedder",
    "EmbedderUnavailable",
    "default_embedder",
    "embedder_from_spec",
]

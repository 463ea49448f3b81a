"""The embedding port: how localmind turns text into vectors."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from localmind.errors import StoreError

Vectors = npt.NDArray[np.float32]

#: How many texts go to an embedder at once when many are embedded (remember_many, restore,
#: reindex): big enough for the model's batching, small enough for a progress bar that moves.
EMBED_BATCH = 64
Progress = Callable[[int], None]  # called with the number of items just finished


class EmbedderUnavailable(StoreError):
    """The embedding model cannot be loaded here and now, typically because it is not on disk and
    downloading is off. Raised in place of the backend's own errors (or its silent retries), with
    a message that names the model and says how to make it available."""


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors of a fixed dimension.

    Contract:
    - ``identity`` is ``"<name>:<dim>"``; it is stored in the database so a store is never searched
      with vectors from another model.
    - ``embed_documents`` embeds texts to be stored; ``embed_query`` embeds search queries. Some
      models (e5, for one) embed the two roles differently; the others use one path for both.
    - Both return an array of shape ``(len(texts), dim)``, dtype float32, each row of unit length,
      in the order of ``texts``. An empty list gives shape ``(0, dim)``.
    - Heavy imports and model loading happen lazily, on first use, not on construction.
    """

    @property
    def identity(self) -> str: ...

    @property
    def dim(self) -> int: ...

    def embed_documents(self, texts: list[str]) -> Vectors: ...

    def embed_query(self, texts: list[str]) -> Vectors: ...


def normalise(vectors: npt.ArrayLike) -> Vectors:
    """Return ``vectors`` as a C-contiguous float32 array with unit-length rows."""
    array = np.ascontiguousarray(vectors, dtype=np.float32)
    if array.ndim == 1:
        array = array.reshape(1, -1)
    norms = np.linalg.norm(array, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return np.ascontiguousarray(array / norms, dtype=np.float32)


def warm_up(embedder: Embedder) -> None:
    """Load ``embedder``'s model now, e.g. in a background thread while a front end is already
    answering, so that the first query pays only its own embedding. Embedders that load lazily
    offer ``warm()``; for the others, embedding one word loads the model just the same."""
    warm = getattr(embedder, "warm", None)
    if callable(warm):
        warm()
    else:
        embedder.embed_query(["warm-up"])


class _LoadClock:
    """Seconds this process has spent loading embedding models: a recall that had to load the
    model reports that time apart from embedding its query (``localmind stats``)."""

    def __init__(self) -> None:
        self._seconds = 0.0
        self._lock = threading.Lock()

    @contextmanager
    def loading(self) -> Iterator[None]:
        started = time.perf_counter()
        try:
            yield
        finally:
            with self._lock:
                self._seconds += time.perf_counter() - started

    @property
    def seconds(self) -> float:
        return self._seconds


model_loads = _LoadClock()

"""The reranking port, and a cross-encoder for it: fastembed's ``TextCrossEncoder``, offline
unless told otherwise, loading a model fastembed knows by name (from its cache) or an ONNX export
in a local directory (registered with fastembed as a custom model)."""

from __future__ import annotations

import hashlib
import json
import math
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from localmind.embedders.base import EmbedderUnavailable
from localmind.embedders.fastembed import (
    FastembedLoading,
    _check_model_dir,
    _hub_offline,
    find_model,
)

if TYPE_CHECKING:
    from fastembed.rerank.cross_encoder import TextCrossEncoder


@runtime_checkable
class Reranker(Protocol):
    """Scores how relevant each document is to a query, reading the two together.

    Contract:
    - ``identity`` names the model (for logs and diagnostics; nothing is stored with it);
    - ``score`` returns one finite float per document, in the order of ``documents``, higher
      meaning more relevant; the scale is the model's own (often a logit). An empty list gives
      an empty list.
    - Heavy imports and model loading happen lazily, on first use, not on construction.
    """

    @property
    def identity(self) -> str: ...

    def score(self, query: str, documents: list[str]) -> list[float]: ...


class FastembedReranker(FastembedLoading):
    """A cross-encoder run by fastembed (onnxruntime, no PyTorch), offline unless told otherwise.

    Without ``model_dir``, ``model_name`` must be a reranker fastembed knows (see
    ``TextCrossEncoder.list_supported_models()``), already in fastembed's cache (``cache_dir``, or
    ``$FASTEMBED_CACHE_PATH``), unless ``allow_download``. With ``model_dir`` the directory holds
    the ONNX file (``model_file`` when there are several) and the tokenizer files; if fastembed
    knows ``model_name`` and the file it expects is there, it is loaded as that model, otherwise
    it is registered as a custom cross-encoder. The model must output one relevance logit per
    (query, document) pair; the first load checks that it does.
    """

    def __init__(
        self,
        model_name: str,
        model_dir: str | Path | None = None,
        *,
        allow_download: bool = False,
        threads: int | None = None,
        model_file: str | None = None,
        cache_dir: str | Path | None = None,
        batch_size: int = 32,
    ) -> None:
        if model_dir is None and model_file:
            raise ValueError("model_file applies only with a model_dir")
        self.model_name = model_name
        self._allow_download = allow_download
        self._threads = threads
        self._cache_dir = None if cache_dir is None else str(cache_dir)
        self._batch_size = batch_size
        self._model_dir: Path | None = None
        self._model_file: str | None = None
        if model_dir is not None:
            self._model_dir = Path(model_dir).expanduser().resolve()
            self._model_file = _check_model_dir(model_name, self._model_dir, model_file)

    kind = "reranker"

    @property
    def identity(self) -> str:
        return f"fastembed-rerank/{self.model_name}"

    def score(self, query: str, documents: list[str]) -> list[float]:
        if not documents:
            return []
        model = self._model
        try:
            scores = [float(s) for s in model.rerank(query, documents, batch_size=self._batch_size)]
        except Exception as exc:  # onnxruntime's errors derive from Exception alone
            raise EmbedderUnavailable(self._unusable_message(exc)) from exc
        if len(scores) != len(documents) or not all(math.isfinite(s) for s in scores):
            raise EmbedderUnavailable(
                self._unusable_message(f"{len(scores)} scores for {len(documents)} documents")
            )
        return scores

    @cached_property
    def _model(self) -> TextCrossEncoder:
        from fastembed.rerank.cross_encoder import TextCrossEncoder

        return self._load(TextCrossEncoder, _known_reranker)

    def _check_loaded(self, model: Any) -> None:
        try:  # a model that is no cross-encoder loads fine and fails here
            probe = [float(s) for s in model.rerank("probe", ["a probe document"])]
        except Exception as exc:
            raise EmbedderUnavailable(self._unusable_message(exc)) from exc
        if len(probe) != 1:
            raise EmbedderUnavailable(self._unusable_message(f"{len(probe)} scores for 1"))

    def _is_fastembed_layout(self) -> bool:
        """Whether fastembed can load the directory as the known reranker of the same name."""
        known = _known_reranker(self.model_name, self._offline)
        return known is not None and known["model_file"] == self._model_file

    def _register_custom_model(self) -> str:
        """Register the directory with fastembed and return the name it is registered under
        (derived from the directory and file: fastembed's registry refuses a name twice)."""
        from fastembed.common.model_description import ModelSource
        from fastembed.rerank.cross_encoder import TextCrossEncoder

        assert self._model_dir is not None and self._model_file is not None
        key = [str(self._model_dir), self._model_file]
        digest = hashlib.sha256(json.dumps(key).encode()).hexdigest()[:12]
        name = f"localmind-rerank/{self.model_name}@{digest}"
        if _known_reranker(name, self._offline) is None:
            external = f"{self._model_file}_data"  # weights stored beside large exports
            TextCrossEncoder.add_custom_model(
                name,
                # never fetched: specific_model_path short-cuts fastembed's download
                sources=ModelSource(url=self._model_dir.as_uri()),
                model_file=self._model_file,
                additional_files=[external] if (self._model_dir / external).is_file() else [],
            )
        return name

    def _unusable_message(self, problem: object) -> str:
        where = f" in {self._model_dir}" if self._model_dir is not None else ""
        return (
            f"The reranker {self.model_name!r}{where} did not give one relevance score per "
            f"document ({problem}). It must be a cross-encoder: an ONNX export of a "
            "sequence-classification model with a single output logit, not an embedding model."
        )


def _known_reranker(model_name: str, offline: bool) -> dict[str, Any] | None:
    """fastembed's description of ``model_name`` (its own or a registered custom reranker)."""
    with _hub_offline(offline):
        from fastembed.rerank.cross_encoder import TextCrossEncoder

    return find_model(TextCrossEncoder.list_supported_models(), model_name)

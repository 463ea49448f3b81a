"""An embedder for any fastembed ONNX text model: one fastembed knows by name (loaded from its
cache), or an ONNX export in a local directory (registered with fastembed as a custom model)."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Callable, Iterable, Iterator
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import numpy as np

from localmind.embedders.base import EmbedderUnavailable, Vectors, model_loads, normalise

if TYPE_CHECKING:
    from fastembed import TextEmbedding

Pooling = Literal["mean", "cls", "last_token", "disabled"]
_M = TypeVar("_M")

#: Where ONNX exports usually put the model, in order of preference.
_ONNX_CANDIDATES = ("model.onnx", "model_optimized.onnx", "onnx/model.onnx")
#: fastembed's tokenizer loader refuses a directory without these two.
_TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json")
#: config.json keys that hold the width of the encoder's output, by architecture family.
_WIDTH_KEYS = ("hidden_size", "d_model", "dim")


class FastembedLoading:
    """What the fastembed embedder and reranker share: a model fastembed knows by name (from its
    cache, offline unless ``allow_download``) or an ONNX export in ``model_dir``, loaded on first
    use, with errors that say what to do. Subclasses say which fastembed class loads it, how it
    is registered as a custom model, and how a loaded model is checked."""

    kind = "model"  # the word for it in messages
    model_name: str
    _model_dir: Path | None
    _model_file: str | None
    _allow_download: bool
    _threads: int | None
    _cache_dir: str | None

    @property
    def _offline(self) -> bool:
        return not self._allow_download

    def _load(self, model_class: Callable[..., _M], known: Callable[[str, bool], object]) -> _M:
        with _hub_offline(self._offline), model_loads.loading():
            kwargs: dict[str, Any] = {"local_files_only": self._offline}
            name = self.model_name
            if self._model_dir is not None:
                kwargs["specific_model_path"] = str(self._model_dir)
                if not self._is_fastembed_layout():
                    name = self._register_custom_model()
            elif known(name, self._offline) is None:
                raise EmbedderUnavailable(
                    f"fastembed does not know the {self.kind} {self.model_name!r}, so it cannot "
                    "fetch it by name. Export it to ONNX (with its tokenizer files) and use that "
                    "directory instead (fastembed:<directory>)."
                )
            try:
                model = model_class(
                    name, cache_dir=self._cache_dir, threads=self._threads, **kwargs
                )
            except Exception as exc:  # onnxruntime's errors derive from Exception alone
                raise EmbedderUnavailable(self._unavailable_message(exc)) from exc
            self._check_loaded(model)
        return model

    def _is_fastembed_layout(self) -> bool:
        raise NotImplementedError

    def _register_custom_model(self) -> str:
        raise NotImplementedError

    def _check_loaded(self, model: Any) -> None:
        """Fail early, with a message, on a model that loads but cannot do the job."""

    def _unavailable_message(self, exc: BaseException) -> str:
        return unavailable_message(
            self.kind, self.model_name, self._model_dir, self._cache_dir, self._offline, exc
        )


class FastEmbedder(FastembedLoading):
    """Embeds with fastembed (onnxruntime, no PyTorch), offline unless told otherwise.

    ``model_name`` names the model; it alone (with ``dim``) makes the identity
    ``"fastembed/<model_name>:<dim>"``, so moving ``model_dir`` does not orphan a store. Without
    ``model_dir`` it must be a model fastembed knows, already in fastembed's cache (``cache_dir``,
    or ``$FASTEMBED_CACHE_PATH``), unless ``allow_download``. With ``model_dir`` the directory holds
    the ONNX file and the tokenizer files; if fastembed knows ``model_name`` and the file it expects
    is there, fastembed's own pooling is used, otherwise the model is registered as a custom model
    with ``pooling`` (default mean), reading ``output_name`` (default: the model's first output).

    ``dim`` is discovered when not given: from fastembed's model list, or from ``config.json``, or,
    failing both, by embedding a probe text; whichever, the first load checks it against the model.

    Prefixes are prepended to every text, e.g. ``query_prefix="query: "`` and
    ``document_prefix="passage: "`` for e5 models.
    """

    def __init__(
        self,
        model_name: str,
        model_dir: str | Path | None = None,
        *,
        query_prefix: str = "",
        document_prefix: str = "",
        allow_download: bool = False,
        threads: int | None = None,
        dim: int | None = None,
        model_file: str | None = None,
        pooling: Pooling | None = None,
        output_name: str | None = None,
        cache_dir: str | Path | None = None,
        batch_size: int = 64,
    ) -> None:
        if model_dir is None and (model_file or pooling or output_name):
            raise ValueError("model_file, pooling and output_name apply only with a model_dir")
        self.model_name = model_name
        self.query_prefix = query_prefix
        self.document_prefix = document_prefix
        self._allow_download = allow_download
        self._threads = threads
        self._pooling = pooling
        self._output_name = output_name
        self._cache_dir = None if cache_dir is None else str(cache_dir)
        self._batch_size = batch_size
        self._model_dir: Path | None = None
        self._model_file: str | None = None
        self._dim = dim
        if model_dir is not None:
            self._model_dir = Path(model_dir).expanduser().resolve()
            self._model_file = _check_model_dir(model_name, self._model_dir, model_file)
            if self._dim is None:
                self._dim = _config_width(self._model_dir)

    @property
    def identity(self) -> str:
        return f"fastembed/{self.model_name}:{self.dim}"

    @property
    def spec(self) -> str:
        """How to name this embedder again (see ``localmind.embedders.embedder_from_spec``)."""
        return f"fastembed:{self._model_dir or self.model_name}"

    @property
    def dim(self) -> int:
        """Cheap when given or read from ``config.json``; otherwise it imports fastembed (a known
        model) or loads the model (a directory without a usable ``config.json``)."""
        if self._dim is None:
            known = None if self._model_dir else _known_model(self.model_name, self._offline)
            if known is not None:
                self._dim = int(known["dim"])
            else:
                self._model  # noqa: B018 -- loading the model probes its dim
        assert self._dim is not None
        return self._dim

    def embed_documents(self, texts: list[str]) -> Vectors:
        return self._embed(texts, self.document_prefix, query=False)

    def embed_query(self, texts: list[str]) -> Vectors:
        return self._embed(texts, self.query_prefix, query=True)

    def _embed(self, texts: list[str], prefix: str, *, query: bool) -> Vectors:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        model = self._model
        prefixed = [prefix + text for text in texts]
        embed = model.query_embed if query else model.passage_embed
        return normalise(np.stack(list(embed(prefixed, batch_size=self._batch_size))))

    @cached_property
    def _model(self) -> TextEmbedding:
        from fastembed import TextEmbedding

        return self._load(TextEmbedding, _known_model)

    def _check_loaded(self, model: Any) -> None:
        try:
            probed = _probe_dim(model)  # also fails early on a tokenizer the model rejects
        except Exception as exc:  # onnxruntime's errors derive from Exception alone
            raise EmbedderUnavailable(self._unavailable_message(exc)) from exc
        if self._dim is not None and probed != self._dim:
            raise EmbedderUnavailable(
                f"fastembed model {self.model_name!r} gives {probed}-d vectors, not the "
                f"{self._dim} expected (from dim= or config.json); pass dim={probed}."
            )
        self._dim = probed

    def _is_fastembed_layout(self) -> bool:
        """Whether fastembed can load the directory as the known model of the same name: same
        ONNX file, and no pooling or output chosen by the caller that fastembed would ignore."""
        known = _known_model(self.model_name, self._offline)
        return (
            known is not None
            and known["model_file"] == self._model_file
            and self._pooling is None
            and self._output_name is None
        )

    def _register_custom_model(self) -> str:
        """Register the directory with fastembed and return the name it is registered under.

        fastembed's registry is per process and refuses a name twice, and refuses the name of a
        model it already knows, so the registered name is derived from everything it records and
        an existing registration is reused.
        """
        from fastembed import TextEmbedding
        from fastembed.common.model_description import ModelSource, PoolingType

        assert self._model_dir is not None and self._model_file is not None
        pooling = self._pooling or "mean"
        key = [str(self._model_dir), self._model_file, pooling, self._output_name, self._dim]
        digest = hashlib.sha256(json.dumps(key).encode()).hexdigest()[:12]
        name = f"localmind/{self.model_name}@{digest}"
        if _known_model(name, self._offline) is None:
            TextEmbedding.add_custom_model(
                name,
                pooling=PoolingType[pooling.upper()],
                normalization=True,
                # never fetched: specific_model_path short-cuts fastembed's download
                sources=ModelSource(url=self._model_dir.as_uri()),
                # fastembed requires a dim but uses it for nothing; a 0 is replaced by the probe
                dim=self._dim or 0,
                model_file=self._model_file,
                output_name=self._output_name,
            )
        return name

    def _unavailable_message(self, exc: BaseException) -> str:
        return unavailable_message(
            "model",
            self.model_name,
            self._model_dir,
            self._cache_dir,
            self._offline,
            exc,
            download=f"`localmind models download {self.model_name}` (allow_download=True in "
            "Python)",
        )


def unavailable_message(
    kind: str,
    model_name: str,
    model_dir: Path | None,
    cache_dir: str | None,
    offline: bool,
    exc: BaseException,
    *,
    download: str = "allow_download=True",
) -> str:
    """Why a fastembed ``kind`` ("model", "reranker") could not be loaded, and the fix."""
    if model_dir is not None:
        return (
            f"fastembed could not load the {kind} {model_name!r} from {model_dir} ({exc}). "
            "Check that the directory holds a working ONNX export and its tokenizer files."
        )
    where = cache_dir or os.environ.get("FASTEMBED_CACHE_PATH") or "fastembed's cache"
    if offline:
        return (
            f"The fastembed {kind} {model_name!r} is not available offline: it is not in "
            f"{where}. Download it once while online with {download}, or give a local "
            "directory holding its ONNX file and tokenizer files (fastembed:<directory>, "
            "model_dir=)."
        )
    return (
        f"Could not download the fastembed {kind} {model_name!r} into {where} ({exc}). "
        "Check the connection (and that HF_HUB_OFFLINE is not set), or pass model_dir."
    )


def _check_model_dir(model_name: str, model_dir: Path, model_file: str | None) -> str:
    """Return the ONNX file to load, relative to ``model_dir``, after checking the directory has
    what fastembed will need: failing here names the problem, failing inside fastembed would not."""
    if not model_dir.is_dir():
        raise EmbedderUnavailable(
            f"The model directory {model_dir} for {model_name!r} does not exist."
        )
    missing = [name for name in _TOKENIZER_FILES if not (model_dir / name).is_file()]
    if missing:
        raise EmbedderUnavailable(
            f"The model directory {model_dir} for {model_name!r} lacks {', '.join(missing)}; "
            "copy the tokenizer files of the model next to its ONNX file."
        )
    if model_file is not None:
        if not (model_dir / model_file).is_file():
            raise EmbedderUnavailable(f"{model_file} is not in the model directory {model_dir}.")
        return model_file
    for candidate in _ONNX_CANDIDATES:
        if (model_dir / candidate).is_file():
            return candidate
    found = sorted(p.relative_to(model_dir).as_posix() for p in _onnx_files(model_dir))
    if len(found) == 1:
        return found[0]
    if not found:
        raise EmbedderUnavailable(
            f"The model directory {model_dir} for {model_name!r} holds no .onnx file; put the "
            "model's ONNX export there."
        )
    raise EmbedderUnavailable(
        f"The model directory {model_dir} holds several ONNX files ({', '.join(found)}); "
        "choose one with model_file=."
    )


def _probe_dim(model: TextEmbedding) -> int:
    return int(next(iter(model.passage_embed(["dimension probe"]))).shape[-1])


def _onnx_files(model_dir: Path) -> Iterable[Path]:
    yield from model_dir.glob("*.onnx")
    yield from model_dir.glob("onnx/*.onnx")


def _config_width(model_dir: Path) -> int | None:
    """The encoder width from ``config.json``, the embedding dim of pooled encoder outputs."""
    try:
        config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    for key in _WIDTH_KEYS:
        value = config.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            return value
    return None


def _known_model(model_name: str, offline: bool) -> dict[str, Any] | None:
    """fastembed's description of ``model_name`` (its own or a registered custom model)."""
    with _hub_offline(offline):
        from fastembed import TextEmbedding

    return find_model(TextEmbedding.list_supported_models(), model_name)


def find_model(models: Iterable[dict[str, Any]], model_name: str) -> dict[str, Any] | None:
    """The entry of fastembed's list for ``model_name`` (names compare case-insensitively)."""
    for model in models:
        if model["model"].lower() == model_name.lower():
            return model
    return None


@contextlib.contextmanager
def _hub_offline(enabled: bool) -> Iterator[None]:
    """Set ``HF_HUB_OFFLINE=1`` while fastembed is imported and models are loaded.

    Without it a model missing from the cache makes fastembed try the hub, with retries and
    sleeps, some 40 s before it fails. huggingface_hub reads the variable once, when first
    imported, so in a process whose first import happened here the hub stays offline after.
    """
    if not enabled:
        yield
        return
    previous = os.environ.get("HF_HUB_OFFLINE")
    os.environ["HF_HUB_OFFLINE"] = "1"
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop("HF_HUB_OFFLINE", None)
        else:
            os.environ["HF_HUB_OFFLINE"] = previous

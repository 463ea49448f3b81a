"""history, revert, feedback, conflicts, resolve and chat from the command line."""

from __future__ import annotations

import json
import re

import pytest

from localmind.unchecked import without_setup
from tests.cli_support import Cli, assert_error
from tests.ollama_server import FakeOllama, unused_port_host


def conflicted(cli: Cli) -> tuple[str, str]:
    java = cli.add("I like Java")
    result = cli.ok("add", "I now prefer Go")
    assert "may contradict" in result.stdout and "localmind conflicts" in result.stdout
    return java, result.stdout.split()[1]


def test_without_ollama_a_contradiction_waits_in_conflicts_and_take_new_versions_it(
    cli: Cli,
) -> None:
    java, go = conflicted(cli)
    listing = cli.ok("conflicts").stdout
    assert "I like Java" in listing and "I now prefer Go" in listing
    [conflict] = cli.json("conflicts")
    assert (conflict["existing"]["id"], conflict["candidate"]["id"]) == (java, go)

    cli.ok("resolve", str(conflict["id"]), "take-new")
    assert cli.contents() == ["I now prefer Go"]
    # the memory folded into Java's is no loss: not counted as "deleted" (review11 A3)
    assert "by status   active 1, merged into another 1\n" in cli.ok("stats").stdout
    assert cli.ok("conflicts").stdout.strip() == "No conflicts to review."
    history = cli.json("history", java)
    assert history["current"] == {"version": 2, "content": "I now prefer Go"}
    assert [(v["version"], v["content"]) for v in history["earlier"]] == [(1, "I like Java")]

    cli.ok("revert", java, "1")
    assert cli.contents() == ["I like Java"]


def test_resolve_merge_needs_text_and_keep_old_drops_the_new(cli: Cli) -> None:
    conflicted(cli)
    conflict_id = str(cli.json("conflicts")[0]["id"])
    assert_error(cli("resolve", conflict_id, "merge"), "needs the merged text")
    cli.ok("resolve", conflict_id, "keep-old")
    assert cli.contents() == ["I like Java"]
    assert "by status   active 1, deleted 1\n" in cli.ok("stats").stdout  # rejected: gone
    assert_error(cli("resolve", conflict_id, "keep-both"), "No pending conflict")


def test_resolve_takes_the_memory_id_that_conflicts_shows_and_the_listing_has_dates(
    cli: Cli,
) -> None:
    java, go = conflicted(cli)
    shown = cli.ok("conflicts")
    listing = shown.stdout.splitlines()
    # the number is this laptop's own; the ids are what every synced laptop shares
    assert "either memory's id, the same on every synced laptop" in shown.stderr
    assert listing[1].split()[:2] == ["old", java] and listing[2].split()[:2] == ["new", go]
    assert all(re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d", line) for line in listing[1:3])
    # why the two were paired, as `conflicts --json` (and MCP, the app) say it
    [conflict] = cli.json("conflicts")
    assert "announces a change" in conflict["reason"]
    # (the model's setup text is said once under the list: review13 J15)
    assert listing[3] == f"   why  {without_setup(conflict['reason'])}"

    assert cli.ok("resolve", go, "keep-both").stdout.startswith("Resolved #")
    assert sorted(cli.contents()) == ["I like Java", "I now prefer Go"]
    assert_error(
        cli("resolve", go, "keep-old"), f"No pending conflict involves a memory with id '{go}'"
    )
    assert_error(cli("resolve", "#99", "keep-old"), "No pending conflict #99")


def test_resolve_takes_the_beginning_of_a_memory_id_in_any_case(cli: Cli) -> None:
    java, go = conflicted(cli)
    # as for show, forget and feedback: a few characters of the id name the memory
    assert cli.ok("resolve", go[:12].lower(), "take-new").stdout.startswith("Resolved #")
    assert cli.contents() == ["I now prefer Go"]
    assert cli.ok("conflicts").stdout.strip() == "No conflicts to review."
    assert_error(cli("resolve", java[:12], "keep-old"), "No pending conflict involves")


@pytest.mark.parametrize(
    ("resolution", "said"),
    [
        ("keep-both", "kept both {java} and {go}"),
        ("keep-old", "kept {java} — I like Java (forgot {go})"),
        ("TAKE-NEW", "{java} is now version 2 — I now prefer Go ({go} went into it)"),
        # a merge keeps both sides' texts as versions 1 and 2 (review15a TW9)
        ("merge", "{java} is now version 3 — Java and Go ({go} went into it)"),
    ],
)
def test_resolve_says_what_became_of_both_memories(cli: Cli, resolution: str, said: str) -> None:
    java, go = conflicted(cli)
    text = ("--text", "Java and Go") if resolution == "merge" else ()
    result = cli.ok("resolve", "1", resolution, *text)
    assert result.stdout.strip() == "Resolved #1: " + said.format(java=java, go=go)


def test_take_new_drops_what_was_merged_into_the_old_text(cli: Cli) -> None:
    berlin = cli.add("I live in Berlin")
    assert f"Merged into {berlin}" in cli.ok("add", "我住在柏林").stdout
    assert "may contradict" in cli.ok("add", "I moved to Munich last month").stdout

    cli.ok("resolve", "1", "take-new")

    shown = cli.json("show", berlin)
    assert shown["content"] == "I moved to Munich last month"
    # no "restatements": ["我住在柏林"], no mentions: 2 (they restate what no longer holds);
    # the texts it replaced are noted instead (resolve7): a question asked in their words
    # ("where do I live?", 柏林) finds the memory, and sees what holds now
    assert [e["text"] for e in shown["metadata"]["replaced"]] == ["I live in Berlin", "我住在柏林"]
    assert list(shown["metadata"]) == ["replaced"]
    [found] = [r for r in cli.json("recall", "柏林") if r["id"] == berlin]
    assert found["content"] == "I moved to Munich last month"


def test_a_correction_drops_what_was_merged_into_the_old_text(cli: Cli) -> None:
    berlin = cli.add("I live in Berlin")
    assert f"Merged into {berlin}" in cli.ok("add", "我住在柏林").stdout

    cli.ok("feedback", berlin, "correct", "I live in Munich")

    shown = cli.json("show", berlin)
    assert shown["content"] == "I live in Munich"
    assert "restatements" not in shown["metadata"] and "mentions" not in shown["metadata"]
    found = {r["id"]: r["breakdown"]["keyword_rank"] for r in cli.json("recall", "柏林")}
    assert found.get(berlin) is None


def test_with_ollama_add_overwrites_a_contradiction(cli: Cli, ollama_server: FakeOllama) -> None:
    ollama_server.when_schema_has("relation", {"relation": "contradicts"})
    java = cli.add("I like Java", OLLAMA_HOST=ollama_server.host)
    result = cli.ok("add", "I now prefer Go", OLLAMA_HOST=ollama_server.host)
    assert f"Updated {java} to version 2" in result.stdout
    assert cli.contents() == ["I now prefer Go"]


def test_an_overwrite_by_the_model_drops_what_was_merged_into_the_old_text(
    cli: Cli, ollama_server: FakeOllama
) -> None:
    berlin = cli.add("I live in Berlin")
    assert f"Merged into {berlin}" in cli.ok("add", "我住在柏林").stdout
    ollama_server.when_schema_has("relation", {"relation": "contradicts"})

    moved = cli.ok("add", "I moved to Munich last month", OLLAMA_HOST=ollama_server.host)

    assert f"Updated {berlin} to version 2" in moved.stdout
    # no restatements of the old text; the texts it replaced, to be found by (resolve7)
    metadata = cli.json("show", berlin)["metadata"]
    assert list(metadata) == ["replaced"]
    assert [e["text"] for e in metadata["replaced"]] == ["I live in Berlin", "我住在柏林"]


def test_no_llm_flag_never_calls_the_model(cli: Cli, ollama_server: FakeOllama) -> None:
    cli.add("I like Java", OLLAMA_HOST=ollama_server.host)
    cli.ok("--no-llm", "add", "I now prefer Go", OLLAMA_HOST=ollama_server.host)
    assert ollama_server.requests == []
    assert len(cli.json("conflicts")) == 1


def test_feedback_changes_confidence_and_corrects(cli: Cli) -> None:
    memory_id = cli.add("The user's favourite editor is Helix")
    assert "confidence 0.90" in cli.ok("feedback", memory_id, "confirm").stdout
    assert "confidence 0.70" in cli.ok("feedback", memory_id, "deny").stdout
    corrected = cli.ok("feedback", memory_id, "correct", "The user's favourite editor is Zed")
    assert "version 2" in corrected.stdout and "confidence 0.90" in corrected.stdout
    assert_error(cli("feedback", memory_id, "correct"), "needs the corrected text")
    assert_error(cli("feedback", memory_id, "like"), "like", exit_code=2)


def test_revert_to_a_version_that_does_not_exist(cli: Cli) -> None:
    memory_id = cli.add("Only one version")
    assert_error(cli("revert", memory_id, "4"), "no earlier version 4")


def test_chat_answers_streams_and_shows_what_it_remembered(
    cli: Cli, ollama_server: FakeOllama
) -> None:
    ollama_server.when_schema_has(
        "facts", {"facts": [{"content": "The user has a dog called Biscuit"}]}
    )
    ollama_server.reply("What a lovely name for a dog!")
    result = cli.ok(
        "chat", input="My dog is called Biscuit\n/quit\n", OLLAMA_HOST=ollama_server.host
    )
    assert "What a lovely name for a dog!" in result.stdout
    assert "The user has a dog called Biscuit" in result.stderr
    assert cli.contents() == ["The user has a dog called Biscuit"]


def test_chat_says_a_secret_was_not_sent_to_the_model_and_keeps_it(
    cli: Cli, ollama_server: FakeOllama
) -> None:
    ollama_server.when_schema_has("facts", {"facts": []})
    ollama_server.reply("Noted.")
    result = cli.ok(
        "chat", input="Our family safe word is pineapple\n/quit\n", OLLAMA_HOST=ollama_server.host
    )
    assert "the model was not sent it" in " ".join(result.stderr.split())
    assert not any("pineapple" in json.dumps(r.body) for r in ollama_server.requests)
    assert cli.contents() == ["Our family safe word is pineapple"]


def test_chat_without_ollama_explains_how_to_start_it(cli: Cli) -> None:
    result = cli.ok("chat", input="Hello\n")
    assert "ollama serve" in result.stderr
    assert "ollama pull qwen2.5:3b" in result.stderr


@pytest.mark.parametrize("again", ["I live in Berlin", "我住在柏林"], ids=["same text", "zh"])
def test_telling_the_old_side_of_a_pending_change_again_says_it_is_pending(
    cli: Cli, again: str
) -> None:
    cli.add("I live in Berlin")
    queued = cli.ok("add", "The user moved to Lisbon").stdout
    assert "review with `localmind conflicts`" in queued

    said = cli.ok("add", again).stdout

    # the old fact is merged or reinforced, but the change still waits: the person hears so
    assert "It is in pending conflict #1 with" in said
    assert "“The user moved to Lisbon”" in said and "does not settle that" in said
    assert "The user moved to Lisbon" in cli.ok("conflicts").stdout


@pytest.mark.slow  # four CLI runs
def test_add_says_which_memory_a_retelling_in_another_language_may_restate(cli: Cli) -> None:
    sister = cli.add("My sister Julia lives in Paris.")
    said = cli.ok("add", "我妹妹Julia住在巴黎。").stdout
    [new] = [m["id"] for m in cli.json("list") if m["id"] != sister]
    assert f"it may say the same as {sister}" in said
    assert f"`localmind forget {new}`" in said


def test_conflicts_says_how_to_start_the_model_once_not_with_every_reason(cli: Cli) -> None:
    # review13 J15: 24 pairs, each reason ending in the whole "Start Ollama with …" text
    down = unused_port_host()  # one Ollama, not running, as a person's laptop has
    for old, new in [
        ("My rent is 1200 euros a month", "My rent went up to 1450 euros a month"),
        ("I like Java", "I now prefer Go"),
        ("My manager is Tom", "My manager is now Priya"),
    ]:
        cli.add(old, OLLAMA_HOST=down)
        assert "localmind conflicts" in cli.ok("add", new, OLLAMA_HOST=down).stdout
    listing = cli.ok("conflicts").stdout
    whys = [line for line in listing.splitlines() if line.strip().startswith("why")]
    assert len(whys) == 3
    assert all(why.endswith("; no LLM to check") for why in whys), whys
    assert listing.count("ollama serve") == 1
    assert (
        listing.rstrip()
        .splitlines()[-1]
        .startswith("No LLM could check 3 of these when they were queued: Ollama is not running at")
    )
    # the JSON keeps each reason whole, for a program that reads it
    assert all("ollama serve" in c["reason"] for c in cli.json("conflicts"))

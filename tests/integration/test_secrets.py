"""Secrets stay out of what an assistant is sent (review7, finding 1): a password, PIN, key or
token told to localmind is marked when written and never part of the profile, the ``context``
block or MCP's answers, while the person's own commands show it. Real store, real model, the
real MCP client over stdio."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from mcp import Client

from localmind import Memory
from localmind.lifecycle import Decision
from localmind.llm.ollama import OllamaLLM
from localmind.mcp.server import build_server
from sync import export_pending, import_new, init_folder, join_folder
from tests.cli_support import Cli
from tests.conftest import FAST_KDF, PASSPHRASE, FakeClock
from tests.integration.test_mcp import call, refused, served
from tests.ollama_server import FakeOllama

TOKEN = "My GitHub token is ghp_16C7e42F292c6912E7710c838347Ae178B4a"
PASSWORD = "email password: Tr0ub4dor&3"
PIN = "bank PIN 4821"
WIFI = "wifi 密码是 sunflower77"
AWS = "My AWS access key is AKIAIOSFODNN7EXAMPLE"
HIKING = "I like hiking"


def added(cli: Cli, text: str, *options: str) -> tuple[str, str]:
    """Add a memory through the CLI; its id and what was said on stderr."""
    result = cli.ok("add", text, *options)
    return result.stdout.split()[1], result.stderr


@pytest.mark.slow
def test_the_reviews_commands_keep_the_password_and_token_out_of_context(cli: Cli) -> None:
    _, said = added(cli, HIKING, "--type", "semantic")
    assert "secret" not in said
    token, said = added(cli, TOKEN, "--type", "semantic", "--importance", "0.9")
    assert "looks like a secret" in said and f"localmind update {token} --not-secret" in said
    password, said = added(cli, PASSWORD, "--importance", "0.9")
    assert f"{password} looks like a secret" in said and "never sent to an assistant" in said

    context = cli.ok("context", "suggest a weekend hike").stdout
    assert "hiking" in context
    assert "ghp_" not in context and "Tr0ub4dor" not in context
    assert "token" not in context.lower() and "password" not in context.lower()

    # they are the person's: their own commands show them
    listed = cli.contents()
    assert TOKEN in listed and PASSWORD in listed
    shown = cli.ok("show", token).stdout
    assert TOKEN in shown and "secret: yes" in shown
    assert "Tr0ub4dor&3" in cli.ok("recall", "what is my email password?").stdout
    # and their backup keeps them
    assert "Tr0ub4dor&3" in cli.ok("export").stdout


@pytest.mark.slow
def test_a_false_positive_is_marked_not_secret_and_a_missed_one_secret(cli: Cli) -> None:
    locker, said = added(cli, "My gym locker code is 4471, top row")
    assert "looks like a secret" in said
    assert "4471" not in cli.ok("context", "where is my gym locker?").stdout

    assert "is not a secret" in cli.ok("update", locker, "--not-secret").stdout
    assert "4471" in cli.ok("context", "where is my gym locker?").stdout

    hiking, _ = added(cli, HIKING)
    cli.ok("update", hiking, "--secret")
    assert "hiking" not in cli.ok("context", "suggest a weekend hike").stdout
    assert "secret: yes" in cli.ok("show", hiking).stdout
    assert cli.json("show", hiking)["secret"] is True
    assert cli.json("show", locker)["secret"] is False

    refused = cli("update", hiking)
    assert refused.exit_code != 0 and "--secret or --not-secret" in refused.output
    # both at once: refused, not the last one quietly (review11 E1)
    both = cli("update", hiking, "--secret", "--not-secret")
    assert both.exit_code != 0 and "one of them" in both.output
    assert cli.json("show", hiking)["secret"] is True


@pytest.mark.slow
def test_import_says_which_lines_look_like_secrets(cli: Cli, tmp_path: Path) -> None:
    lines = tmp_path / "notes.txt"
    lines.write_text(f"{HIKING}\n{PIN}\n{WIFI}\nI live in Lisbon\n", encoding="utf-8")
    result = cli.ok("import", str(lines))
    assert "2 memories look like secrets" in result.stderr
    context = cli.ok("context", "where do I live and what do I like?").stdout
    assert "4821" not in context and "sunflower77" not in context
    assert "Lisbon" in context


def test_a_store_made_before_the_mark_is_protected_on_upgrade(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    memory = Memory.open(path, PASSPHRASE, kdf=FAST_KDF)
    memory.remember(HIKING, "semantic")
    memory.remember(PIN, "semantic", importance=0.9)
    memory.profile(rebuild=True)  # a profile built before the mark existed names the PIN
    db = memory._store.db
    with db:  # as the store was before migration 7 (the secret mark)
        db.execute("ALTER TABLE memories DROP COLUMN secret")
        db.execute("UPDATE meta SET value = '6' WHERE key = 'schema_version'")
    memory.close()

    with Memory.open(path, PASSPHRASE, kdf=FAST_KDF) as memory:
        context = memory.context("suggest a weekend hike")
        assert "hiking" in context and "4821" not in context
        profile = memory.profile()
        assert profile is not None and "4821" not in profile.text
        assert [r.secret for r in memory.list_memories(newest_first=False)] == [False, True]


def test_the_mark_travels_to_another_device(tmp_path: Path) -> None:
    clock = FakeClock()
    with (
        Memory.open(tmp_path / "a.db", PASSPHRASE, kdf=FAST_KDF, clock=clock) as laptop,
        Memory.open(tmp_path / "b.db", PASSPHRASE, kdf=FAST_KDF, clock=clock) as phone,
    ):
        pin = laptop.remember(PIN)
        locker = laptop.remember("My locker combination is 12-34-56")
        laptop.mark_secret(locker.id, False)
        phone.apply_remote(laptop.events_since(0))
        assert phone.get(pin.id).secret is True
        assert phone.get(locker.id).secret is False
        assert "4821" not in phone.context("what do I keep at the bank?")


def test_a_secret_told_with_a_plain_fact_is_not_merged_into_it(memory: Memory) -> None:
    """Merged into "I like hiking", the password would withhold the hiking fact from every
    assistant; they stay two memories and the plain one is still given."""
    hiking = memory.remember("I like hiking")
    told = memory.remember("I like hiking, my Strava password is Trail!Run2024")
    assert told.id != hiking.id and told.secret and not memory.get(hiking.id).secret
    assert "I like hiking" in memory.context("what do I like?")


def test_a_secret_merged_into_a_memory_marks_it(memory: Memory) -> None:
    kept = memory.remember("My bank card PIN is 4821")
    assert kept.secret
    again = memory.remember("my bank card pin is 4821!")
    assert again.id == kept.id and again.secret


@pytest.mark.slow
async def test_mcp_never_sends_a_secret_and_says_so_at_the_door(store: Path) -> None:
    with Memory.open(store, PASSPHRASE, kdf=FAST_KDF) as memory:
        for text in (HIKING, "I live in Lisbon", WIFI, AWS):
            memory.remember(text, "semantic", importance=0.9)
        pin = memory.remember("My bank card PIN is 4821", "semantic", importance=0.9).id

    async with served(store) as session:
        context = await call(session, "context", query="Can you recommend a book for my trip?")
        where = await call(session, "context", query="where do I live?")
        recalled = await call(session, "recall", query="what is my bank PIN?", limit=5)
        told = await call(session, "remember", content="My Netflix password is Popcorn!2024")
        confirmed = await call(session, "feedback", id=pin, verdict="confirm")
        profile = await call(session, "profile", rebuild=True)
        changed = await call(session, "remember", content="My bank card PIN is 1234")
        pending = (await call(session, "conflicts"))["conflicts"]
        # the conflict's number can be guessed: settling it is still refused, even keep_both
        blind = await refused(session, "resolve", conflict=1, resolution="take_new")
        kept = await refused(session, "resolve", conflict=1, resolution="keep_both")

    # a changed PIN is kept and queued for the person, and the assistant is told only that
    assert changed["decision"] == told["decision"] == "kept"
    assert changed["id"] is None and changed["candidates"] == [] and changed["conflict_id"] is None
    assert pending == []  # a conflict with a secret side is the person's alone
    assert "only they can settle it" in blind and "only they can settle it" in kept
    answers = [context, where, recalled, confirmed, profile["text"], changed, pending, kept]
    for text in map(json.dumps, answers):
        for secret in ("sunflower77", "4821", "1234", "AKIAIOSFODNN7EXAMPLE", "Popcorn"):
            assert secret not in text
    assert "Lisbon" in where
    assert all("withheld" not in r["content"] for r in recalled)  # not searched at all
    assert f"localmind show {pin}" in confirmed["content"]
    assert "looks like a secret" in told["reason"] and "withheld" in told["content"]
    assert "Popcorn" not in json.dumps(told)


PLAIN = [
    "I changed my bank PIN last week",
    "My bank is the Sparkasse on Kastanienallee",
    "I like hiking",
    "My phone's lock screen shows the kids at the beach",
]
GUESSES = ["is my bank PIN 4821?", "my bank PIN is 4821", "4821"]


async def _answers(memory: Memory) -> list[object]:
    """What an assistant gets for each guess, through the real MCP client: each memory's text,
    relevance and score as recall gives them (ids differ between stores), and the context."""
    answers: list[object] = []
    async with Client(build_server(memory)) as client:
        for guess in GUESSES:
            recalled = await call(client, "recall", query=guess, limit=5)
            answers.append([(r["content"], r["relevance"], r["score"]) for r in recalled])
            answers.append(await call(client, "context", query=guess))
    return answers


async def test_an_assistant_cannot_confirm_a_guess_by_searching_for_it(
    open_memory: Callable[..., Memory], tmp_path: Path
) -> None:
    """An assistant asking "is my PIN 4821?" gets exactly the same answers from a store whose
    PIN is 4821 as from one whose PIN is 7193: nothing returned, scored or left out tells it
    whether it guessed right."""
    right, wrong = open_memory(), open_memory(path=tmp_path / "other.db")
    for memory, pin in ((right, "4821"), (wrong, "7193")):
        for text in PLAIN:
            memory.remember(text, "semantic")
        assert memory.remember(f"bank PIN {pin}", "semantic", importance=0.9).secret

    answers = await _answers(right)
    assert answers == await _answers(wrong)
    assert "4821" not in json.dumps(answers) and "withheld" not in json.dumps(answers)
    assert any("I changed my bank PIN last week" in str(answer) for answer in answers)
    # the person's own recall still finds it
    assert right.recall("is my bank PIN 4821?")[0].memory.content == "bank PIN 4821"


SECRET_TEXTS = ("4821", "1234", "sunflower77", "Tulip!2025")


def test_no_secret_text_reaches_the_local_model(
    open_memory: Callable[..., Memory], llm: OllamaLLM, ollama_server: FakeOllama
) -> None:
    """The model may not run on this laptop (``OLLAMA_HOST``): judging a change, settling the
    queue, HyDE and the profile never send it a secret's text; a change of a secret waits
    for the person. A plain change is still put to it."""
    ollama_server.when_schema_has("relation", {"relation": "contradicts", "reason": "changed"})
    ollama_server.reply(*["I keep a few notes."] * 5)
    memory = open_memory(llm=llm)
    memory.remember("I like programming in Java")
    plain = memory.remember_explained("I now prefer programming in Go")
    memory.remember("My bank card PIN is 4821")
    pin = memory.remember_explained("My bank card PIN is 1234")
    memory.remember("My wifi password is sunflower77")
    wifi = memory.remember_explained("My wifi password is now Tulip!2025")
    settled = memory.ask_model_many(memory.conflicts())
    memory.recall("sunflower77", hyde=True, touch=False)
    memory.recall("what do I program in?", hyde=True, touch=False)
    memory.profile(rebuild=True)

    asked = json.dumps([request.body for request in ollama_server.chat_requests()])
    assert "Java" in asked and "what do I program in?" in asked  # the model was asked
    assert [secret for secret in SECRET_TEXTS if secret in asked] == []
    assert plain.decision is Decision.OVERWRITTEN
    for outcome in (pin, wifi):
        assert outcome.decision is Decision.QUEUED
        assert "a secret is never sent to the model" in outcome.reason
    assert settled == [None] * len(settled) and len(settled) == 2


@pytest.mark.slow  # four stores
async def test_an_assistant_cannot_confirm_a_guess_by_remembering_it(
    open_memory: Callable[..., Memory], tmp_path: Path
) -> None:
    """Remembering "my bank PIN is 4821" answers the same whether the PIN is 4821 (a repeat),
    7193 (a change, queued for the person) or unknown: no id, date, confidence, candidate or
    conflict; and a plain text judged against the secret does not name it."""
    stores = {pin: open_memory(path=tmp_path / f"{pin}.db") for pin in ("4821", "7193", "none")}
    for pin, memory in stores.items():
        for text in PLAIN:
            memory.remember(text, "semantic")
        if pin != "none":
            memory.remember(f"My bank PIN is {pin}", "semantic")

    answers = {}
    for pin, memory in stores.items():
        async with Client(build_server(memory)) as client:
            guess = await call(client, "remember", content="My bank PIN is 4821")
            conflicts = await call(client, "conflicts")
            answers[pin] = (guess, conflicts)
    assert answers["4821"] == answers["7193"] == answers["none"]
    guess, conflicts = answers["4821"]
    assert guess["decision"] == "kept" and guess["id"] is None
    # nor counted: a total of 1 would tell the guess matched (or changed) the secret
    assert (conflicts["conflicts"], conflicts["total"]) == ([], 0)
    # what each store did is the person's to see
    assert stores["4821"].count() == len(PLAIN) + 1  # a repeat: the same memory
    [change] = [c for c in stores["7193"].conflicts() if c.existing.secret]
    assert change.candidate.content == "My bank PIN is 4821"  # a change: queued for the person

    alone = open_memory(path=tmp_path / "alone.db")
    secret = alone.remember("My bank PIN is 7193", "semantic")
    async with Client(build_server(alone)) as client:
        plain = await call(client, "remember", content="I changed my bank PIN yesterday")
    assert alone.conflicts() == []  # a plain text is never paired with a secret (review9 M7)
    assert plain["candidates"] == [] and plain["related_id"] is None
    assert secret.id not in json.dumps(plain) and "7193" not in json.dumps(plain)


LOCKER = "My gym locker code is 1234"
LOCKER_AND_PASSWORD = "My gym locker code is 1234; my email password is hunter2hunter"


@pytest.mark.slow
def test_not_a_secret_does_not_cover_a_corrected_text(cli: Cli) -> None:
    """review9 L1: --not-secret was about the text it was given for; a correction that adds a
    password is checked again (CLI)."""
    locker, _ = added(cli, LOCKER)
    cli.ok("update", locker, "--not-secret")
    assert "1234" in cli.ok("context", "where is my gym locker?").stdout
    cli.ok("feedback", locker, "correct", LOCKER_AND_PASSWORD)
    assert "hunter2hunter" not in cli.ok("context", "where is my gym locker?").stdout
    assert cli.json("show", locker)["secret"] is True


async def test_an_assistants_update_of_a_memory_cleared_as_not_secret_is_checked_again(
    memory: Memory,
) -> None:
    locker = memory.mark_secret(memory.remember(LOCKER).id, False)
    assert not locker.secret
    async with Client(build_server(memory)) as client:
        updated = await call(client, "update", id=locker.id, content=LOCKER_AND_PASSWORD)
        context = await call(client, "context", query="where is my gym locker?")
    assert memory.get(locker.id).secret
    assert "hunter2hunter" not in json.dumps(updated) + context


def test_sync_never_pairs_not_a_secret_with_a_text_it_was_not_given_for(tmp_path: Path) -> None:
    """Device b corrects the text (a password joins it); a second later device a, which has not
    seen that yet, says the old text is not a secret. Sync takes each field's latest write —
    b's text, a's verdict — and the text is still withheld on both."""
    clocks = FakeClock(), FakeClock()
    shared = tmp_path / "Sync" / "localmind"
    with (
        Memory.open(tmp_path / "a.db", PASSPHRASE, kdf=FAST_KDF, clock=clocks[0]) as a,
        Memory.open(tmp_path / "b.db", PASSPHRASE, kdf=FAST_KDF, clock=clocks[1]) as b,
    ):
        init_folder(a, shared, PASSPHRASE, FAST_KDF)
        join_folder(b, shared, PASSPHRASE)
        locker = a.remember(LOCKER)
        export_pending(a, shared)
        import_new(b, shared)
        b.feedback(locker.id, "correct", LOCKER_AND_PASSWORD)
        clocks[0].advance(seconds=1)
        a.mark_secret(locker.id, False)
        for device in (a, b, a, b):
            export_pending(device, shared)
            import_new(device, shared)
        for device in (a, b):
            record = device.get(locker.id)
            assert record.content == LOCKER_AND_PASSWORD and record.metadata["secret"] is False
            assert record.secret
            assert "hunter2hunter" not in device.context("where is my gym locker?")


async def test_an_assistant_cannot_rewrite_a_secret_it_cannot_read(memory: Memory) -> None:
    """review9 D1: an assistant replaced a withheld PIN by a fact of its own (the PIN left only
    in the history), then forgot it. Rewriting is refused; confirming and, when the person asks
    for it, forgetting are not."""
    pin = memory.remember("My bank PIN is 4821", "semantic")
    async with Client(build_server(memory)) as client:
        updated = await refused(client, "update", id=pin.id, content="The user banks with ING")
        corrected = await refused(
            client, "feedback", id=pin.id, verdict="correct", new_content="The user uses ING"
        )
        confirmed = await call(client, "feedback", id=pin.id, verdict="confirm")
        kept = memory.get(pin.id)
        forgotten = await call(client, "forget", id=pin.id)
    for message in (updated, corrected):
        assert "keeps secret" in message and f"localmind feedback {pin.id} correct" in message
    assert kept.content == "My bank PIN is 4821" and kept.version == 1 and kept.secret
    assert "4821" not in confirmed["content"] and forgotten["forgotten"] is True


async def test_an_ambiguous_id_over_mcp_names_how_many_not_which(memory: Memory) -> None:
    """review12 R14: the "ambiguous id" error listed whole ids, a secret's among them, which an
    assistant is never shown; with one it could act on the secret blind."""
    pin = memory.remember("My bank PIN is 4821", "semantic")
    others = [memory.remember(f"Grocery list item {n}: apples") for n in range(3)]
    shared = 0
    while all(o.id[: shared + 1] == pin.id[: shared + 1] for o in others):
        shared += 1
    assert shared >= 10  # the test's clock stands still: the ids share their time part
    async with Client(build_server(memory)) as client:
        message = await refused(client, "forget", id=pin.id[:shared])

    assert "is the beginning of 4 memories' ids" in message
    assert all(m.id not in message for m in (pin, *others))
    assert memory.get(pin.id).secret and memory.get(pin.id).content == "My bank PIN is 4821"


def test_a_login_and_its_password_do_not_replace_each_other(memory: Memory) -> None:
    """review9 M7: the password was queued as a change of the login ("both set the contact")
    and the login shown as "may be outdated" by a secret. A secret and a plain memory are never
    paired as a change, as they are never merged."""
    login = memory.remember("My email login is lena.f@example.com")
    password = memory.remember_explained("My email password is now CorrectHorse99")
    assert password.record.secret and password.decision is not Decision.QUEUED
    assert memory.conflicts() == []
    [line] = [
        line for line in memory.context("what is my email login?").splitlines() if "@" in line
    ]
    assert login.content in line and "outdated" not in line


def test_not_a_secret_given_with_the_text_holds_for_that_text_only(memory: Memory) -> None:
    """`add --meta secret=false`: the verdict came with the text, so it is about that text."""
    locker = memory.remember(LOCKER, metadata={"secret": "false"})
    assert not locker.secret
    corrected = memory.feedback(locker.id, "correct", LOCKER_AND_PASSWORD)
    assert corrected.secret


@pytest.mark.slow  # jieba's first load for the Chinese pair
@pytest.mark.parametrize(
    ("told", "changed"),
    [
        # review11 L1: the person's words, and an assistant's
        ("My bank card PIN is 4821.", "I changed my bank card PIN to 9930."),
        ("My bank card PIN is 4821.", "The user's bank card PIN was changed to 9930."),
        ("我的银行卡密码是4821。", "我的银行卡密码从4821改成了9930。"),
    ],
)
def test_a_changed_pin_is_a_secret_queued_against_the_old_one(
    memory: Memory, told: str, changed: str
) -> None:
    """The new PIN was neither marked nor queued, so it went into the profile and every
    context as a plain fact, beside the old one (both current). Now it is a secret, and the
    change waits for the person against the old PIN."""
    old = memory.remember(told, "semantic")
    new = memory.remember_explained(changed, "semantic")
    assert old.secret and new.record.secret and new.decision is Decision.QUEUED
    [conflict] = memory.conflicts()
    assert (conflict.existing.id, conflict.candidate.id) == (old.id, new.record.id)
    profile = memory.profile(rebuild=True)
    sent = memory.context("What's my bank card PIN?") + (profile.text if profile else "")
    assert "9930" not in sent and "4821" not in sent

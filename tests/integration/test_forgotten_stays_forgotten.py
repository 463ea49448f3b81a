"""A forgotten memory stays forgotten (review13 J11): the person's own diary imported again,
an `add`, an assistant's `remember` or a sync does not bring a forgotten text back silently.
The store recognises it by a keyed fingerprint, never by its text."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from mcp import Client

from localmind import Memory
from localmind.errors import ForgottenEarlier
from localmind.mcp.server import build_server
from localmind.records import folded_text
from localmind.store.forgotten import FORGET_KEY
from localmind.writing import NewMemory
from tests.cli_support import Cli
from tests.integration.test_forget_traces import decrypted_pages
from tests.integration.test_mcp import call
from tests.integration.test_replica import devices, exchange

PIN = "My bank card PIN is 4821"
DIARY = [
    {"content": "I moved to Berlin in October", "type": "semantic", "created_at": "2026-10-12"},
    {"content": PIN, "type": "semantic", "created_at": "2026-10-13"},
    {"content": "Went to the Bürgeramt for the Anmeldung", "type": "episodic",
     "created_at": "2026-11-04"},
]  # fmt: skip


def diary(tmp_path: Path) -> Path:
    path = tmp_path / "weeks1-3.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in DIARY), encoding="utf-8")
    return path


def test_a_forgotten_pin_is_not_brought_back_by_its_own_diary_imported_again(
    cli: Cli, tmp_path: Path
) -> None:
    cli.ok("import", str(diary(tmp_path)))
    [pin] = [m["id"] for m in cli.json("list") if m["content"] == PIN]
    cli.ok("forget", pin)

    result = cli.ok("import", str(diary(tmp_path)))

    assert "1 forgotten earlier: not brought back (pass --allow-forgotten to keep them)" in (
        result.stdout
    )
    assert PIN not in cli.contents()
    assert len(cli.contents()) == 2  # the other two lines were repeats, as before
    # told again with other spacing, case and punctuation, it is the same text
    refused = cli("add", "my bank card pin is 4821!", "--type", "semantic")
    assert refused.exit_code == 1
    assert "This text was forgotten earlier (on " in refused.output
    assert "Pass --allow-forgotten to add it again." in refused.output
    assert PIN not in cli.contents()
    # a plain-text file of the same line is recognised too
    (tmp_path / "notes.txt").write_text(PIN + "\nI like the Spree\n", encoding="utf-8")
    result = cli.ok("import", str(tmp_path / "notes.txt"), "--type", "semantic")
    assert "Imported 1 memory" in result.stdout and "1 forgotten earlier" in result.stdout

    # The person says so: it is back, and no longer one they forgot.
    result = cli.ok("import", str(diary(tmp_path)), "--allow-forgotten")
    assert "forgotten earlier" not in result.stdout
    assert PIN in cli.contents()
    assert "forgotten earlier" not in cli.ok("import", str(diary(tmp_path))).stdout


def test_add_brings_a_forgotten_text_back_only_when_told_to(cli: Cli) -> None:
    first = cli.add("My locker is number 112")
    cli.ok("forget", first)
    assert cli("add", "My locker is number 112").exit_code == 1
    again = cli.add("My locker is number 112", "--allow-forgotten")
    assert again != first
    assert cli.contents() == ["My locker is number 112"]
    # forgotten a second time, it is recognised again
    cli.ok("forget", again)
    assert cli("add", "My locker is number 112").exit_code == 1
    assert cli.contents() == []


def test_remember_and_remember_many_refuse_a_forgotten_text_and_store_nothing(
    memory: Memory,
) -> None:
    kept = memory.remember("I drink oolong tea", type="semantic")
    pin = memory.remember(PIN, type="semantic")
    memory.forget(pin.id)

    with pytest.raises(ForgottenEarlier, match="This text was forgotten earlier"):
        memory.remember(PIN, type="semantic")
    items = [NewMemory("I cycle to work"), NewMemory(PIN.upper(), "semantic")]
    with pytest.raises(ForgottenEarlier, match="Item 2 was forgotten earlier") as refused:
        memory.remember_many(items)
    assert refused.value.positions == [2]
    assert [m.id for m in memory.list_memories()] == [kept.id]  # nothing of the batch
    assert memory.forgotten_among(items)[0] is None

    # the person says so
    back = memory.remember_many(items, allow_forgotten=True)
    assert {m.content for m in memory.list_memories()} == {
        "I drink oolong tea",
        "I cycle to work",
        PIN.upper(),
    }
    assert back[1].content == PIN.upper()


def test_a_forgotten_text_said_again_in_a_session_is_kept_for_the_session_only(
    memory: Memory,
) -> None:
    # the chat keeps each message in the session's buffer first: a turn that says a forgotten
    # text must not fail, and the buffer is never stored
    pin = memory.remember(PIN, type="semantic")
    memory.forget(pin.id)
    memory.remember(PIN, type="short_term")
    assert [m.content for m in memory.short_term()] == [PIN]
    assert [m for m in memory.list_memories() if m.type != "short_term"] == []


def test_a_forgotten_event_stays_forgotten_on_its_day_only(
    memory: Memory,
) -> None:
    day = 1_770_000_000.0
    run = memory.remember("Went running along the Spree", "episodic", created_at=day)
    memory.forget(run.id)

    with pytest.raises(ForgottenEarlier):
        memory.remember("Went running along the Spree", "episodic", created_at=day)
    # the same run on another day happened again: its own memory
    again = memory.remember("Went running along the Spree", "episodic", created_at=day + 86400)
    assert memory.get(again.id).status == "active"


def test_the_fingerprint_cannot_be_read_back_without_the_stores_own_key(
    open_memory: Callable[..., Memory], tmp_path: Path
) -> None:
    """A 4-digit PIN in a known sentence has 10,000 candidates: an unkeyed hash of each would
    find it in a moment. The fingerprint is keyed with a random key kept inside the encrypted
    store, so the decrypted pages hold neither the PIN nor anything a guess can be tested
    against without that key."""
    memory = open_memory()
    pin = memory.remember(PIN, type="semantic")
    memory.forget(pin.id)
    db = memory._store.db
    [(fingerprint,)] = db.execute("SELECT fingerprint FROM forgotten_texts").fetchall()
    [(key_hex,)] = db.execute("SELECT value FROM meta WHERE key = ?", (FORGET_KEY,)).fetchall()

    pages = decrypted_pages(memory.path, tmp_path)
    assert b"4821" not in pages and PIN.encode() not in pages

    candidates = [folded_text(f"My bank card PIN is {n:04d}").encode() for n in range(10_000)]
    unkeyed = {hashlib.sha256(c).hexdigest() for c in candidates}
    unkeyed |= {hashlib.sha256(f"My bank card PIN is {n:04d}".encode()).hexdigest()
                for n in range(10_000)}  # fmt: skip
    assert fingerprint not in unkeyed
    another_key = bytes(32)
    domain = b"localmind forgotten text v1\x00"
    assert fingerprint not in {
        hmac.new(another_key, domain + c, hashlib.sha256).hexdigest() for c in candidates
    }
    # with the store's own key (only someone who can open the store has it) it is one of them
    key = bytes.fromhex(key_hex)
    found = [c for c in candidates if hmac.new(key, domain + c, hashlib.sha256).hexdigest()
             == fingerprint]  # fmt: skip
    assert found == [folded_text(PIN).encode()]
    # the key and the fingerprints never leave the store
    exported = json.dumps([r.to_dict() for r, _ in memory.export()])
    assert key_hex not in exported and fingerprint not in exported
    events = json.dumps([str(e) for e in memory.events_since(0)])
    assert key_hex not in events and fingerprint not in events


async def test_an_assistant_is_told_a_forgotten_text_was_not_stored(memory: Memory) -> None:
    plain = memory.remember("My sister lives in Leipzig", type="semantic")
    pin = memory.remember(PIN, type="semantic")
    memory.forget(plain.id)
    memory.forget(pin.id)

    async with Client(build_server(memory)) as client:
        told = await call(client, "remember", content="My sister lives in Leipzig", type="semantic")
        # a secret forgotten gets the answer every secret gets: no guess confirmed
        forgotten_pin = await call(client, "remember", content=PIN, type="semantic")
        other_pin = await call(client, "remember", content="My bank card PIN is 7193",
                               type="semantic")  # fmt: skip

    assert told["decision"] == "forgotten" and told["id"] is None
    assert "the user forgot this earlier" in told["reason"]
    assert forgotten_pin == other_pin
    assert [m.content for m in memory.list_memories()] == ["My bank card PIN is 7193"]


def test_a_forget_from_another_laptop_is_recognised_here_too() -> None:
    with devices((0.0, 1.0)) as (a, b):
        pin = a.memory.remember(PIN, type="semantic")
        exchange(a, b)
        a.memory.forget(pin.id)
        exchange(a, b)

        assert b.memory.get(pin.id).status == "deleted"
        with pytest.raises(ForgottenEarlier):
            b.memory.remember(PIN, type="semantic")

"""An import stopped part way leaves the store as it was (review7 finding 7): Ctrl-C in
`localmind import`, or an error in the middle of `remember_many`, undoes every memory,
merge, reinforcement, queued conflict, later-version note and event it made; capacity is
checked once, at the end. The real encrypted store, sqlite-vec, FTS5 and the bundled
USE-m3 embedder; a real `localmind import` process sent SIGINT."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import apsw
import pytest

from localmind import Memory, NewMemory
from localmind.embedders import default_embedder
from localmind.lifecycle import Decision
from localmind.store import SqliteStore
from tests.cli_support import Cli, ctrl_c_as_at_a_terminal
from tests.conftest import PASSPHRASE
from tests.ollama_server import unused_port_host
from tests.workers.invariants import raw_store

# What the user had: an import's items reinforce, restate, may change and may be a later
# version of these.
KNOWN = [
    "I live in Berlin",
    "I take vitamin D every morning.",
    "I drink green tea every morning",
    "My sister lives in Munich",
]
TOUCHING = [
    "We moved to Lisbon",  # queued: may change "I live in Berlin"
    "Every morning I take a vitamin D supplement.",  # merged into its restatement
    "I drink green tea every morning",  # the same text: reinforces
]
TOPICS = ["the cello", "sourdough", "chess openings", "hiking boots", "Rust lifetimes", "jazz"]


def fillers(count: int, tag: str = "note") -> list[str]:
    return [f"{tag} {n}: something about {TOPICS[n % 6]}, number {n * 7919}" for n in range(count)]


def state(path: Path) -> dict[str, Any]:
    """Everything a write can leave: memories (every column), versions, conflicts, events and
    what the vector and keyword indexes hold."""
    with raw_store(path) as db:
        return {
            table: db.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()
            for table in ("memories", "memory_versions", "conflicts", "events")
        } | {
            "vectors": db.execute("SELECT rowid FROM memory_vec ORDER BY 1").fetchall(),
            "words": db.execute("SELECT count(*) FROM memory_fts").fetchall(),
        }


def test_an_error_in_the_middle_of_remember_many_leaves_the_store_as_it_was(
    open_memory: Callable[..., Memory], store_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory = open_memory()
    for text in KNOWN:
        memory.remember(text)
    memory.configure("capacity", "20")  # a batch that went through would archive some
    for question in ("Where do I live?", "vitamin", "tea"):  # the in-memory index is built
        memory.recall(question)
    before = state(store_path)
    items = [NewMemory(text) for text in TOUCHING + fillers(150)]
    real_insert = SqliteStore.insert
    inserted = 0

    def insert_then_fail(store: SqliteStore, *args: Any) -> int:
        nonlocal inserted
        inserted += 1
        if inserted == 100:  # in the second embedding batch, the first one written
            raise OSError("injected failure")
        return real_insert(store, *args)

    monkeypatch.setattr(SqliteStore, "insert", insert_then_fail)
    with pytest.raises(OSError, match="injected"):
        memory.remember_many(items)
    monkeypatch.undo()
    assert inserted == 100
    assert state(store_path) == before
    # The process that failed searches as before: nothing of the import, what it had.
    found = [r.memory.content for r in memory.recall("Where do I live?", threshold=0)]
    assert "I live in Berlin" in found and "We moved to Lisbon" not in found
    assert not [
        r for r in memory.recall("sourdough number", threshold=0) if "note" in r.memory.content
    ]
    assert memory.count() == len(KNOWN)
    # ... and the same import then goes through whole, archiving once at the end.
    written = memory.remember_many_explained(items)
    assert (written.merged, written.reinforced) == (1, 1)
    assert written.decisions[0] is Decision.QUEUED  # "We moved to Lisbon"
    assert memory.count() == 20
    assert len(written.evicted) == len(KNOWN) + len(items) - 2 - 20


def _import_process(store: Path, source: Path, *options: str) -> subprocess.Popen[str]:
    env = os.environ | {
        "LOCALMIND_DB": str(store),
        "LOCALMIND_PASSPHRASE": PASSPHRASE,
        "LOCALMIND_NO_LLM": "1",
        "OLLAMA_HOST": unused_port_host(),
    }
    return subprocess.Popen(
        [sys.executable, "-m", "localmind", "import", str(source), *options],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=ctrl_c_as_at_a_terminal,  # it is stopped by Ctrl+C
    )


def _write_lock_held(store: Path) -> bool:
    with raw_store(store) as db:
        db.set_busy_timeout(0)
        try:
            db.execute("BEGIN IMMEDIATE")
        except apsw.BusyError:
            return True
        db.execute("ROLLBACK")
        return False


class Watched:
    """The bundled embedder, noting every text it embeds."""

    def __init__(self) -> None:
        self.inner = default_embedder()
        self.embedded: list[str] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def embed_documents(self, texts: list[str]) -> Any:
        self.embedded.extend(texts)
        return self.inner.embed_documents(texts)


def test_prepared_lines_are_not_embedded_under_the_write_lock_and_are_judged_the_same(
    open_memory: Callable[..., Memory], tmp_path: Path
) -> None:
    """``localmind import`` prepares its lines before its transaction (Memory.prepare): the
    model, the slow part, then runs with no lock held, and the decisions are those of an
    import that embeds as it writes."""
    items = [NewMemory(text) for text in TOUCHING + fillers(6)]
    decided = []
    for prepared in (False, True):
        embedder = Watched()
        memory = open_memory(path=tmp_path / f"{prepared}.db", embedder=embedder)
        for text in KNOWN:
            memory.remember(text)
        if prepared:
            memory.prepare(items)
        before = len(embedder.embedded)
        with memory.all_or_nothing():
            batch = memory.remember_many_explained(items)
        under_the_lock = embedder.embedded[before:]
        assert not under_the_lock if prepared else under_the_lock
        decided.append(batch.decisions)
        # What was prepared is dropped with the transaction: a new text embeds again.
        memory.remember("I play the cello on Sundays")
        assert embedder.embedded[-1:] == ["I play the cello on Sundays"]
    assert decided[0] == decided[1]
    assert Decision.QUEUED in decided[1] and Decision.MERGED in decided[1]


@pytest.mark.slow
def test_ctrl_c_in_the_middle_of_an_import_leaves_the_store_as_it_was(
    cli: Cli, store: Path, tmp_path: Path
) -> None:
    for text in KNOWN:
        cli.add(text)
    cli.ok("config", "capacity", "50")  # every batch would have archived some
    before = state(store)
    source = tmp_path / "notes.txt"
    source.write_text("\n".join(TOUCHING + fillers(4000)) + "\n", encoding="utf-8")
    # (--allow-evict: over the capacity an import is refused before any work, polish13)
    child = _import_process(store, source, "--allow-evict")
    stderr: list[str] = []
    reader = threading.Thread(target=lambda: stderr.append(child.stderr.read()))  # type: ignore[union-attr]
    reader.start()
    deadline = time.monotonic() + 300  # (it embeds and judges 4,003 lines first)
    # Mid-way: the import holds the write lock (its one transaction is open). It is frozen
    # (SIGSTOP) as soon as it is seen to, then checked: its writes take only seconds (the
    # embedding and judging were done before), and a check of a running import could see the
    # lock held just before it ended, the Ctrl-C then arriving after it had (CI, under load).
    while not _write_lock_held(store):
        assert child.poll() is None, "the import ended before it could be interrupted"
        assert time.monotonic() < deadline, "the import never began writing"
        time.sleep(0.05)
    child.send_signal(signal.SIGSTOP)
    try:
        assert child.poll() is None and _write_lock_held(store), "the import ended too soon"
        child.send_signal(signal.SIGINT)  # (pending until it runs again)
    finally:
        child.send_signal(signal.SIGCONT)
    child.wait(timeout=60)
    reader.join()
    output = stderr[0]
    assert child.returncode == 130, output
    assert "Interrupted: nothing imported; the store is as it was." in output
    assert "Could not record" not in output and "Traceback" not in output
    assert state(store) == before
    assert sorted(cli.contents()) == sorted(KNOWN)
    assert "No conflicts" in cli.ok("conflicts").stdout
    # What it would have imported goes through whole afterwards, and says what it archived.
    done = cli.ok("import", str(source), "--allow-evict").stdout
    kept = len(KNOWN) + len(TOUCHING) + 4000 - 2  # (one merged, one reinforced)
    assert f"capacity 50 archived {kept - 50} memories" in done, done


@pytest.mark.slow  # the refused write waits out the 10 s busy timeout
def test_while_an_import_runs_others_open_the_store_and_recall_and_a_write_says_busy(
    cli: Cli, store: Path
) -> None:
    cli.add("I drink green tea every morning")
    with Memory.open(store, PASSPHRASE) as importer, importer.all_or_nothing():
        importer.remember_many([NewMemory(text) for text in fillers(20, "imported")])
        # Another program opens the store (no write needed to open it) and recalls, seeing
        # what was there before; the import's memories are not there until it commits.
        found = cli.json("recall", "green tea")
        assert [r["content"] for r in found][:1] == ["I drink green tea every morning"]
        assert not [c for c in cli.contents() if c.startswith("imported")]
        refused = cli("add", "I like coffee")
        assert refused.exit_code == 1
        assert "is busy: another program has been writing to it" in refused.stderr
        assert "Nothing was changed" in refused.stderr
    assert len(cli.contents()) == 21


@pytest.mark.slow  # the refused write waits out the 10 s busy timeout
async def test_while_an_import_runs_an_assistant_recalls_and_its_write_is_a_clear_tool_error(
    store: Path,
) -> None:
    from mcp import Client

    from localmind.mcp.server import build_server
    from tests.integration.test_mcp import call, refused

    with Memory.open(store, PASSPHRASE) as assistant, Memory.open(store, PASSPHRASE) as importer:
        assistant.remember("I drink green tea every morning")
        async with Client(build_server(assistant)) as client:
            with importer.all_or_nothing():
                importer.remember_many([NewMemory(text) for text in fillers(10, "imported")])
                found = await call(client, "recall", query="green tea")
                assert found and found[0]["content"] == "I drink green tea every morning"
                message = await refused(client, "remember", content="I like coffee")
                assert "The memory store is busy" in message
                assert "Nothing was changed" in message
            assert assistant.count() == 11


def test_ctrl_c_while_an_import_commits_waits_for_the_commit_and_says_it_was_saved(
    open_memory: Callable[..., Memory], store_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from localmind.errors import InterruptedAfterSaving
    from localmind.store.connection import StoreConnection

    memory = open_memory()
    real_execute = StoreConnection.execute

    def interrupted_during_commit(db: StoreConnection, sql: str, *args: Any, **kw: Any) -> Any:
        if sql == "COMMIT":
            os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C, as COMMIT runs
        return real_execute(db, sql, *args, **kw)

    handler = signal.getsignal(signal.SIGINT)
    monkeypatch.setattr(StoreConnection, "execute", interrupted_during_commit)
    with pytest.raises(InterruptedAfterSaving):
        memory.remember_many([NewMemory(text) for text in fillers(5)])
    monkeypatch.undo()
    assert memory.count() == 5  # saved whole, and said so (not "nothing imported")
    assert signal.getsignal(signal.SIGINT) is handler  # Ctrl-C works as before again

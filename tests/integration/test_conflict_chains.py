"""Resolving one conflict of a chain says what else it settled (issue 13, fix7 item 3): rent
950 → 1100 → 1400 queues (950, 1100) and (1100, 1400); take-new on the first used to end the
second silently ("gone") with the 1100 memory. It now asks about the memory that took 1100's
place. The real encrypted store, the bundled USE-m3 embedder, the CLI and the MCP client."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from mcp import Client

from localmind import Memory
from localmind.mcp.server import build_server
from tests.cli_support import Cli, assert_error
from tests.integration.test_import_judgment import dated
from tests.integration.test_mcp import call, refused

CHAINS = [
    ("My rent is 950 euros", "My rent is 1100 euros", "My rent is 1400 euros", "How much rent?"),
    ("我的房租是950欧元", "我的房租是1100欧元", "我的房租是1400欧元", "我的房租是多少？"),
]


def chain(memory: Memory, first: str, second: str, third: str) -> tuple[int, int]:
    """The three told in order: (first, second) and (second, third) queued; their numbers."""
    memory.remember_many(dated(first, second, third))
    one, two = memory.conflicts()
    assert (one.existing.content, one.candidate.content) == (first, second)
    assert (two.existing.content, two.candidate.content) == (second, third)
    return one.id, two.id


@pytest.mark.parametrize(("first", "second", "third", "question"), CHAINS, ids=["en", "zh"])
def test_take_new_on_the_first_link_moves_the_second_onto_the_memory_kept(
    open_memory: Callable[..., Memory], first: str, second: str, third: str, question: str
) -> None:
    memory = open_memory(llm=None)
    one, two = chain(memory, first, second, third)

    settled = memory.resolve_conflict_explained(one, "take-new")

    assert settled.record.content == second
    assert (settled.repointed, settled.closed) == ((two,), ())
    [still] = memory.conflicts()
    assert still.id == two
    assert (still.existing.id, still.existing.content) == (settled.record.id, second)
    assert still.candidate.content == third
    # the second link settled as well: one memory, its history the whole chain
    memory.resolve_conflict(two, "take-new")
    assert [r.content for r in memory.list_memories()] == [third]
    assert [v.content for v in memory.history(settled.record.id)] == [first, second]
    assert memory.recall(question, 1, threshold=0)[0].memory.content == third


def test_keep_old_on_the_first_link_asks_whether_the_third_changes_the_kept_one(
    open_memory: Callable[..., Memory],
) -> None:
    first, second, third, _ = CHAINS[0]
    memory = open_memory(llm=None)
    one, two = chain(memory, first, second, third)

    settled = memory.resolve_conflict_explained(one, "keep-old")

    assert (settled.record.content, settled.repointed, settled.closed) == (first, (two,), ())
    [still] = memory.conflicts()
    assert (still.existing.content, still.candidate.content) == (first, third)
    # the similarity shown is that of the two it now compares, not of 1100 and 1400
    vectors = memory._writer.embed_documents([first, third])
    a, b = (np.asarray(v, dtype=np.float64) for v in vectors)
    assert still.similarity == pytest.approx(
        a @ b / np.linalg.norm(a) / np.linalg.norm(b), abs=1e-4
    )


def test_settling_the_last_link_leaves_the_first_as_it_was(
    open_memory: Callable[..., Memory],
) -> None:
    first, second, third, _ = CHAINS[0]
    memory = open_memory(llm=None)
    one, two = chain(memory, first, second, third)

    settled = memory.resolve_conflict_explained(two, "keep-old")

    assert (settled.repointed, settled.closed) == ((), ())
    [still] = memory.conflicts()
    assert (still.id, still.existing.content, still.candidate.content) == (one, first, second)


def test_keep_old_ends_another_conflict_whose_newer_side_it_set_aside_and_says_so(
    open_memory: Callable[..., Memory],
) -> None:
    memory = open_memory(llm=None)
    flat, other, change = memory.remember_many(
        dated("My rent is 950 euros", "The garage costs 80 euros", "Everything now costs 1100"),
        check=False,
    )
    with memory._store.db:  # the same change queued against two memories
        one = memory._lifecycle.queue_conflict(flat, change, 0.5, "may contradict")
        two = memory._lifecycle.queue_conflict(other, change, 0.5, "may contradict")

    settled = memory.resolve_conflict_explained(one, "keep-old")

    assert settled.repointed == ()
    assert settled.closed == ((two, f"its newer memory {change.id} was set aside"),)
    assert memory.conflicts() == []


def test_cli_resolve_says_what_else_it_settled(cli: Cli, tmp_path: Path) -> None:
    first, second, third, _ = CHAINS[0]
    notes = tmp_path / "rent.txt"
    notes.write_text(f"{first}\n{second}\n{third}\n", encoding="utf-8")
    cli.ok("import", str(notes))

    result = cli.ok("resolve", "1", "take-new")

    [line] = [line for line in result.stdout.splitlines() if line.startswith("Also")]
    assert line.startswith("Also: conflict #2 now asks about ") and " in place of " in line
    listed = cli.ok("conflicts").stdout
    assert second in listed and third in listed and first not in listed


async def test_mcp_resolve_returns_the_conflicts_it_repointed(
    open_memory: Callable[..., Memory],
) -> None:
    first, second, third, _ = CHAINS[0]
    memory = open_memory(llm=None)
    one, two = chain(memory, first, second, third)

    async with Client(build_server(memory)) as client:
        settled = await call(client, "resolve", conflict=one, resolution="take_new")
        pending = (await call(client, "conflicts"))["conflicts"]

    assert (settled["repointed"], settled["also_closed"]) == ([two], [])
    [still] = pending
    assert (still["old"]["id"], still["new"]["content"]) == (settled["id"], third)


# --- fix7 item 4: a memory a resolution dropped says where its text went ---------------------


@pytest.mark.parametrize(
    ("resolution", "said"),
    [
        ("merge", "was merged into memory {kept} (a conflict resolved merge)"),
        ("take-new", "was merged into memory {kept}: its text became that memory's current "),
        (
            "keep-old",
            "was set aside for memory {kept} and forgotten (a conflict resolved keep-old)",
        ),
    ],
)
def test_show_of_a_memory_a_resolution_dropped_names_the_memory_kept(
    cli: Cli, tmp_path: Path, resolution: str, said: str
) -> None:
    first, second, _, _ = CHAINS[0]
    notes = tmp_path / "rent.txt"
    notes.write_text(f"{first}\n{second}\n", encoding="utf-8")
    cli.ok("import", str(notes))
    [pair] = cli.json("conflicts")
    kept, dropped = pair["existing"]["id"], pair["candidate"]["id"]
    cli.ok(
        "resolve",
        "1",
        resolution,
        *(["--text", "Rent: 1100 euros"] if resolution == "merge" else []),
    )

    shown = cli("show", dropped)

    assert_error(shown, f"Memory {dropped} {said.format(kept=kept)}")
    assert "it was forgotten" not in shown.stderr


async def test_mcp_names_the_memory_a_merged_one_went_into(
    open_memory: Callable[..., Memory],
) -> None:
    first, second, _, _ = CHAINS[0]
    memory = open_memory(llm=None)
    memory.remember_many(dated(first, second))
    [conflict] = memory.conflicts()
    memory.resolve_conflict(conflict.id, "merge", "Rent: 1100 euros since May")
    dropped, kept = conflict.candidate.id, conflict.existing.id

    async with Client(build_server(memory)) as client:
        update = await refused(client, "update", id=dropped, content="Rent: 1200 euros")
        resolve = await refused(client, "resolve", conflict=dropped, resolution="keep_both")

    for message in (update, resolve):
        assert f"Memory {dropped} was merged into memory {kept} (a conflict resolved merge)" in (
            message
        )
    assert memory.get(kept).content == "Rent: 1100 euros since May"


def test_a_memory_simply_forgotten_still_says_forgotten(cli: Cli) -> None:
    memory_id = cli.add("My rent is 950 euros")
    cli.ok("forget", memory_id)

    assert_error(cli("show", memory_id), "it was forgotten (its text and history are erased)")


def _everywhere(memory: Memory) -> str:
    """Every text the store holds for the person: current texts, earlier versions, export."""
    texts = []
    for record in memory.list_memories():
        texts.append(record.content)
        texts.extend(v.content for v in memory.history(record.id))
    return "\n".join(texts)


@pytest.mark.parametrize(("first", "second", "third", "question"), CHAINS, ids=["en", "zh"])
def test_take_new_on_the_last_link_first_keeps_the_middle_fact_in_the_history(
    open_memory: Callable[..., Memory], first: str, second: str, third: str, question: str
) -> None:
    """review14 K8: newest link first, then the older one — the order an assistant meets them
    in. The middle memory had taken the third text; folded into the first, its own earlier
    text (1100) was gone from the store: not current, in no history, in no export."""
    memory = open_memory(llm=None)
    one, two = chain(memory, first, second, third)

    memory.resolve_conflict(two, "take-new")
    [still] = memory.conflicts()
    assert (still.id, still.existing.content, still.candidate.content) == (one, first, third)
    kept = memory.resolve_conflict(one, "take-new")

    assert [r.content for r in memory.list_memories()] == [third]
    assert [v.content for v in memory.history(kept.id)] == [first, second]
    assert memory.recall(question, 1, threshold=0)[0].memory.content == third


def test_a_merge_on_the_last_link_first_keeps_the_middle_fact_in_the_history(
    open_memory: Callable[..., Memory],
) -> None:
    first, second, third, _ = CHAINS[0]
    memory = open_memory(llm=None)
    one, two = chain(memory, first, second, third)

    memory.resolve_conflict(two, "merge", "My rent went up to 1400 euros in spring")
    memory.resolve_conflict(one, "take-new")

    told = _everywhere(memory)
    for text in (first, second, "My rent went up to 1400 euros in spring"):
        assert text in told


def test_an_update_that_settles_the_first_link_keeps_the_middle_fact_in_the_history(
    open_memory: Callable[..., Memory],
) -> None:
    """review14 K8 over MCP: take-new on the newer link, then `update` of the first memory
    with the newest text, which settles the older link: the middle fact was set aside with
    its history."""
    first, second, third, _ = CHAINS[0]
    memory = open_memory(llm=None)
    one, two = chain(memory, first, second, third)
    first_id = memory.conflicts()[0].existing.id

    memory.resolve_conflict(two, "take-new")
    settled = memory.update_explained(first_id, content=third)

    assert settled.settled == (one,)
    assert [r.content for r in memory.list_memories()] == [third]
    assert second in [v.content for v in memory.history(first_id)]


@pytest.mark.parametrize(
    ("old", "new", "merged"),
    [
        (
            "I take 10 mg of Lipitor every evening for my cholesterol.",
            "My Lipitor went up to 20 mg a day because my cholesterol is still high.",
            "I take 20 mg of Lipitor a day now, it was 10 mg before.",
        ),
        (
            "我自己每天晚上吃立普妥10毫克降胆固醇。",
            "我的立普妥改成每天20毫克，因为胆固醇还是偏高。",
            "我的立普妥现在每天晚上吃20毫克，以前是10毫克。",
        ),
    ],
    ids=["en", "zh"],
)
def test_a_merge_keeps_the_newer_memorys_own_text_in_the_history(
    open_memory: Callable[..., Memory], old: str, new: str, merged: str
) -> None:
    """review15a TW9: a merged text written by the person replaces both sides; the newer
    side's own text (and the reason it gave) was kept nowhere, as take-new keeps the older."""
    memory = open_memory(llm=None)
    memory.remember_many(dated(old, new))
    [conflict] = memory.conflicts()
    kept = memory.resolve_conflict(conflict.id, "merge", merged)
    assert kept.content == merged
    assert [v.content for v in memory.history(kept.id)] == [old, new]
    assert new in _everywhere(memory)

"""Two assistants on one store, each with its own ``localmind mcp`` server (a subprocess,
spoken to by the MCP SDK's own client), on a real encrypted store with the bundled embedding
model: whatever order their writes come in, none is written over unseen (review11 T3). A
change decided on a text the session was shown, which the other assistant changed since, is
refused with what the memory says now; told, the assistant can make it again."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.test_mcp import call, refused, served

BERLIN = "I live in Berlin"
LISBON = "I moved to Lisbon last month"
PORTO = "I moved to Porto last month, not Lisbon"


@pytest.mark.slow  # two servers, each loading the model
async def test_an_update_and_a_resolution_by_two_assistants_lose_neither(store: Path):
    async with served(store, "a.log") as a, served(store, "b.log") as b:
        berlin = (await call(a, "remember", content=BERLIN, type="semantic"))["id"]
        lisbon = await call(a, "remember", content=LISBON, type="semantic")
        [pending] = (await call(b, "conflicts"))["conflicts"]  # B is shown Berlin and Lisbon
        number = pending["conflict_id"]
        assert (pending["old"]["id"], pending["new"]["id"]) == (berlin, lisbon["id"])

        # A corrects the pending side; B, shown the older text, takes it as new: refused
        await call(a, "update", id=lisbon["id"], content=PORTO)
        message = await refused(b, "resolve", conflict=number, resolution="take_new")
        assert f"Conflict #{number} was not settled: memory {lisbon['id']} now says" in message
        assert repr(PORTO) in message and "Nothing was changed" in message
        # nothing settled, A's text is the pending one
        [still] = (await call(b, "conflicts"))["conflicts"]
        assert still["conflict_id"] == number and still["new"]["content"] == PORTO
        assert still["old"]["content"] == BERLIN
        # told, B settles it again: A's correction is the text taken
        resolved = await call(b, "resolve", conflict=number, resolution="take_new")
        assert (resolved["id"], resolved["content"]) == (berlin, PORTO)

        # the other order: settled first, then A changes what it was shown
        message = await refused(a, "update", id=lisbon["id"], content="I moved to Porto in May")
        assert f"was merged into memory {berlin}" in message and "take-new" in message
        message = await refused(a, "update", id=berlin, content="I live in Berlin-Mitte")
        assert f"Not updated: memory {berlin} now says {PORTO!r}" in message
        # told what it says now, A may still change it
        updated = await call(a, "update", id=berlin, content="I moved to Porto in May")
        assert updated["content"] == "I moved to Porto in May"
        [hit] = await call(b, "recall", query="where do I live?", limit=1)
        assert (hit["id"], hit["content"]) == (berlin, "I moved to Porto in May")

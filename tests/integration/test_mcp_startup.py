"""``localmind mcp`` starts answering before its embedding model has loaded: the real server in
a subprocess, the SDK's client, the bundled model held back by a test hook (a file that must
exist before the model may load), so nothing here races a clock."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client

from localmind import Memory
from localmind.embedders.use import MODEL_GATE_ENV
from tests.conftest import FAST_KDF, PASSPHRASE
from tests.integration.test_mcp import SERVER, TEA, call, server_env


@pytest.mark.slow
async def test_initialize_and_list_tools_are_answered_while_the_model_loads(
    store_path: Path, tmp_path: Path
) -> None:
    with Memory.open(store_path, PASSPHRASE, kdf=FAST_KDF) as memory:
        tea = memory.remember(TEA)
    gate = tmp_path / "the model may load now"
    env = server_env(store_path) | {MODEL_GATE_ENV: str(gate)}
    params = StdioServerParameters(command=SERVER[0], args=SERVER[1:], env=env)

    with (tmp_path / "server.log").open("w", encoding="utf-8") as log:
        async with (
            stdio_client(params, errlog=log) as (read, write),
            ClientSession(read, write) as session,
        ):
            # the model cannot load yet: a server that waited for it would never answer these
            started = await asyncio.wait_for(session.initialize(), timeout=60)
            listed = await asyncio.wait_for(session.list_tools(), timeout=30)
            assert started.server_info.name == "localmind"
            assert {"recall", "remember"} <= {tool.name for tool in listed.tools}

            recall = asyncio.create_task(call(session, "recall", query="what do I drink?"))
            await asyncio.sleep(1.0)
            assert not recall.done()  # it waits for the model, it does not fail or guess
            gate.touch()
            found = await asyncio.wait_for(recall, timeout=120)

    assert [item["id"] for item in found][:1] == [tea.id]

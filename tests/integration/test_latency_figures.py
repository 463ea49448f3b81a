"""``localmind stats`` keeps the model's load time apart from embedding the query: each CLI
recall is a new process that loads the model, and that second must not be reported as the
time a recall takes to embed its query."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from localmind import Memory
from localmind.keys import UNSAFE_TEST_KDF_ENV
from tests.conftest import FAST_KDF, PASSPHRASE
from tests.ollama_server import unused_port_host


@pytest.mark.slow
def test_model_load_is_reported_apart_from_embedding_the_query(store: Path) -> None:
    env = {
        **os.environ,
        "LOCALMIND_DB": str(store),
        "LOCALMIND_PASSPHRASE": PASSPHRASE,
        UNSAFE_TEST_KDF_ENV: "1",
        "OLLAMA_HOST": unused_port_host(),
    }

    def localmind(*args: str) -> str:
        command = [sys.executable, "-m", "localmind", *args]
        done = subprocess.run(command, env=env, check=True, capture_output=True, text=True)
        return done.stdout

    localmind("--no-llm", "add", "I prefer green tea over coffee")
    localmind("recall", "what do I drink?")  # each a new process: each loads the model
    localmind("recall", "which drink do I like?")

    with Memory.open(store, PASSPHRASE, kdf=FAST_KDF) as memory:
        memory.warm_up()
        memory.recall("tea")  # the model is loaded here already: nothing to report
        latency = memory.stats()["recall_latency"]
    assert latency["samples"] == 3
    assert latency["model_loads"] == 2
    assert latency["load_p50_ms"] is not None and latency["load_p50_ms"] > 0
    assert latency["embed_p50_ms"] is not None

    stats = localmind("stats")
    assert "embedding the query p50" in stats
    assert "model load: p50" in stats and "(2 of those recalls" in stats

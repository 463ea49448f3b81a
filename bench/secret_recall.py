"""What leaving the secret memories out of a recall for an assistant costs (``secrets=False``:
MCP ``recall`` and every ``context``), on a synthetic store of 10k memories (random vectors: the
recall's own work is timed, not the embedding of the stored texts; the queries are embedded
by the bundled model). The synthetic texts hold wifi passwords and "密码是…", which the
recogniser marks: the store has a few hundred secrets.

    python -m bench.secret_recall [memories]
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from ulid import ULID

from bench import synthetic
from bench.stores import BENCH_KDF, PASSPHRASE
from localmind import Memory
from localmind.records import MemoryRecord, MemoryType, content_hash

QUERIES = (
    "what tea do I like?",
    "where do I live?",
    "my bank",
    "which car do I drive",
    "我喜欢什么",
)
ROUNDS = 10


def main(count: int) -> None:
    with tempfile.TemporaryDirectory(prefix="localmind-secret-recall-") as scratch:
        memory = Memory.open(Path(scratch) / "m.db", PASSPHRASE, kdf=BENCH_KDF)
        try:
            secrets = _fill(memory, count)
            for flag in (True, False):  # warm: model, query vectors, terms and rows
                for query in QUERIES:
                    memory.recall(query, 10, secrets=flag, touch=False)
            spent = {True: 0.0, False: 0.0}
            for _ in range(ROUNDS):
                for flag in (True, False):  # interleaved: the machine's load hits both alike
                    started = time.process_time()
                    for query in QUERIES:
                        memory.recall(query, 10, secrets=flag, touch=False)
                    spent[flag] += time.process_time() - started
        finally:
            memory.close()
    calls = ROUNDS * len(QUERIES)
    print(f"{count} memories, {secrets} marked secret; CPU ms per recall over {calls}:")
    print(f"  secrets searched (the person's own): {spent[True] / calls * 1000:.2f}")
    print(f"  secrets left out (for an assistant): {spent[False] / calls * 1000:.2f}")


def _fill(memory: Memory, count: int) -> int:
    rng = np.random.default_rng(1)
    dimension = len(memory.embedder.embed_documents(["a"])[0])
    store = memory._store
    with store.db:
        for item in synthetic.memories(count):
            vector = rng.standard_normal(dimension).astype(np.float32)
            record = MemoryRecord(
                id=str(ULID()),
                content=item.content,
                type=MemoryType.SEMANTIC,
                namespace=memory.namespace,
                created_at=item.created_at,
                updated_at=item.created_at,
                content_hash=content_hash(item.content),
            )
            store.insert(record, vector / np.linalg.norm(vector))
    return len(store.secret_memories())


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000)

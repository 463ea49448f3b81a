"""Hold a store's write lock, as a long ``localmind import`` does, until told to stop.

    python -m tests.workers.hold_write DB

Opens the store (skipping its daily maintenance, which a test may want left due), starts an
all-or-nothing write (one memory written, uncommitted), prints
``held`` and waits for a line on stdin; then ends without committing (the write rolls back).
"""

from __future__ import annotations

import sys

from localmind import Memory, NewMemory
from tests.conftest import FAST_KDF, PASSPHRASE

HELD_TEXT = "a memory written while the lock is held"


def main(db: str) -> None:
    with (
        Memory.open(db, PASSPHRASE, kdf=FAST_KDF, maintain=False) as memory,
        memory.all_or_nothing(),
    ):
        memory.remember_many([NewMemory(HELD_TEXT)], check=False)
        print("held", flush=True)
        sys.stdin.readline()
        raise SystemExit(0)  # inside all_or_nothing: nothing is kept


if __name__ == "__main__":
    main(sys.argv[1])

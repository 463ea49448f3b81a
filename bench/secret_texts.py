"""The secret recogniser (``localmind.secrets_check``) on its labelled list and on the dev sets'
own texts: precision and recall on ``tests/data/secret_texts.jsonl``, how many dev-set texts it
flags (none should be: they hold no secret), and its CPU time per text.

    python -m bench.secret_texts
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from bench import madial
from localmind.secrets_check import find_secret

DATA = Path(__file__).resolve().parent / "data"
LABELLED = Path(__file__).resolve().parents[1] / "tests" / "data" / "secret_texts.jsonl"
ROUNDS = 5


def dev_texts() -> list[str]:
    """The dev sets' memories, questions and dialogue turns (personal3 and personal4 are held
    out: never read)."""
    texts = []
    for name in ("personal", "personal2"):
        with (DATA / name / "memories.jsonl").open(encoding="utf-8") as lines:
            texts += [json.loads(line)["text"] for line in lines if line.strip()]
        with (DATA / name / "questions.jsonl").open(encoding="utf-8") as lines:
            texts += [json.loads(line)["question"] for line in lines if line.strip()]
    for language in madial.LANGUAGES:
        texts += [item.event for item in madial.load_memories(madial.VENDORED, language)]
        for dialogue in madial.load_dialogues(madial.VENDORED, language):
            texts += [turn.text for turn in dialogue.turns]
    return texts


def labelled() -> list[tuple[str, bool]]:
    with LABELLED.open(encoding="utf-8") as lines:
        rows = [json.loads(line) for line in lines if line.strip()]
    return [(row["text"], row["secret"]) for row in rows]


def main() -> None:
    rows = labelled()
    found = [(find_secret(text) is not None, secret) for text, secret in rows]
    hits = sum(said and secret for said, secret in found)
    said, secrets = sum(s for s, _ in found), sum(secret for _, secret in found)
    print(
        f"labelled: {len(rows)} texts, {secrets} secret; precision {hits / max(said, 1):.3f}, "
        f"recall {hits / max(secrets, 1):.3f} ({hits}/{secrets})"
    )
    texts = dev_texts()
    flagged = [text for text in texts if find_secret(text) is not None]
    best = float("inf")
    for _ in range(ROUNDS):
        start = time.process_time()
        for text in texts:
            find_secret(text)
        best = min(best, time.process_time() - start)
    print(
        f"dev sets: {len(flagged)} of {len(texts)} texts flagged; "
        f"{best / len(texts) * 1000:.3f} ms CPU a text (best of {ROUNDS})"
    )


if __name__ == "__main__":
    main()

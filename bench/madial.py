"""MADial-Bench (memory-recall part): loading the memories, dialogues and peers' lists.

The data: ``bench/data/madial-bench`` (vendored, MIT: memories and dialogues; see its README), or
``shared/data/madial-bench`` beside the repository, which also holds the peers' lists. Facts the
benchmark relies on, checked on load where cheap:

- Memories belong to a user: the zh file says so (``user-id``); the en file does not, but its ids
  and dates are those of the zh file and its events name the same child (Bart = user 1, Lisa =
  user 2), so en memories take the user of the zh memory with the same id.
- Every peer's top-20 list holds only memories of the dialogue's user: retrieval is per user.
- The query is the dialogue up to (not including) its first test turn; peers' ``dialog_history``
  is exactly ``"".join(dialogue[:test_turn[0]])``, ``<BOD>`` line and role tags included.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

LANGUAGES = ("en", "zh")
DATA_ENV = "LOCALMIND_MADIAL_DIR"


@dataclass(frozen=True, slots=True)
class MemoryItem:
    id: int
    user: int
    time: str  # ISO date the event happened
    event: str

    @property
    def timestamp(self) -> float:
        day = dt.date.fromisoformat(self.time)
        return dt.datetime(day.year, day.month, day.day, 12, tzinfo=dt.UTC).timestamp()


@dataclass(frozen=True, slots=True)
class Turn:
    role: str  # "user" or "assistant"
    speaker: str  # the name in the tag: Bart, Lisa, Assistant
    text: str  # the utterance, quotes removed


@dataclass(frozen=True, slots=True)
class Dialogue:
    index: int
    user: int
    lines: tuple[str, ...]  # the raw dialogue lines, <BOD>/<EOD> included
    test_turn: int  # index into ``lines`` of the first test turn
    gold: frozenset[int]

    @property
    def history(self) -> str:
        """The peers' query: every line before the test turn, as they are."""
        return "".join(self.lines[: self.test_turn])

    @property
    def turns(self) -> list[Turn]:
        """The turns before the test turn, parsed, markers dropped."""
        return [t for t in (parse_turn(line) for line in self.lines[: self.test_turn]) if t]


@dataclass(frozen=True, slots=True)
class PeerRun:
    name: str
    top: list[list[int]]  # per dialogue, best first
    gold: list[frozenset[int]]


#: The memories and dialogues, vendored (MIT): a fresh clone scores MADial with nothing beside it.
VENDORED = Path(__file__).resolve().parent / "data" / "madial-bench"


def data_dir(explicit: str | os.PathLike[str] | None = None) -> Path:
    """The MADial-Bench folder: ``explicit``, else ``$LOCALMIND_MADIAL_DIR``, else
    ``shared/data/madial-bench`` beside the repository when it is there (it also holds the
    peers' lists), else the copy vendored in ``bench/data/madial-bench``."""
    if explicit:
        return Path(explicit).expanduser()
    if os.environ.get(DATA_ENV):
        return Path(os.environ[DATA_ENV]).expanduser()
    beside = Path(__file__).resolve().parents[2] / "shared" / "data" / "madial-bench"
    return beside if beside.is_dir() else VENDORED


def _json_lines(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield json.loads(line)


def _raw_memories(root: Path, lang: str) -> dict[int, dict[str, Any]]:
    memories: dict[int, dict[str, Any]] = {}
    for row in _json_lines(root / lang / f"MADial-Bench-{lang}-memory.json"):
        for key, value in row.items():
            memories[int(key)] = value
    return memories


def load_memories(root: Path, lang: str) -> list[MemoryItem]:
    raw = _raw_memories(root, lang)
    users = {key: int(value["user-id"]) for key, value in _raw_memories(root, "zh").items()}
    return [
        MemoryItem(key, users[key], value["time"], value["event"].strip())
        for key, value in sorted(raw.items())
    ]


def load_dialogues(root: Path, lang: str) -> list[Dialogue]:
    return [
        Dialogue(
            index=index,
            user=int(row["user-id"]),
            lines=tuple(row["dialogue"]),
            test_turn=int(row["test-turn"][0]),
            gold=frozenset(int(i) for i in row["relevant-id"]),
        )
        for index, row in enumerate(_json_lines(root / lang / f"MADial-Bench-{lang}-dialogue.json"))
    ]


PEER_NAMES = {
    "openai": "OpenAI embeddings",
    "bge_m3_dense": "BGE-M3 dense",
    "bge_m3_colbert": "BGE-M3 ColBERT",
    "gte": "GTE",
    "jina": "Jina",
    "stella": "Stella",
    "acge": "Acge",
    "dmeta": "Dmeta",
}


def _peer_key(filename: str) -> str:
    stem = filename.lower().removesuffix(".json")
    for suffix in ("_top_20_bottom", "_zh_top_20_ids", "_top_20_ids", "_top_20"):
        stem = stem.removesuffix(suffix)
    return "bge_m3_dense" if stem == "bge_m3" else stem


def load_peers(root: Path, lang: str) -> list[PeerRun]:
    peers = []
    for path in sorted((root / "peers" / lang).glob("*.json")):
        rows = list(_json_lines(path))
        key = _peer_key(path.name)
        peers.append(
            PeerRun(
                name=PEER_NAMES.get(key, key),
                top=[[int(i) for i in r.get("top-20-ids", r.get("top_20_ids"))] for r in rows],
                gold=[
                    frozenset(int(i) for i in r.get("relevant-id", r.get("relevant_id")))
                    for r in rows
                ],
            )
        )
    return peers


def parse_turn(line: str) -> Turn | None:
    """``<Name>: "text"`` → Turn; the ``<BOD>``/``<EOD>`` markers and blank lines → None."""
    stripped = line.strip()
    if not stripped or stripped in ("<BOD>", "<EOD>"):
        return None
    speaker, text = "", stripped
    if stripped.startswith("<") and ">" in stripped:
        tag, _, rest = stripped[1:].partition(">")
        if rest.lstrip().startswith((":", "：")):
            speaker, text = tag.strip(), rest.lstrip()[1:]
    text = text.strip().strip('"“”').strip()
    role = "assistant" if speaker.casefold() == "assistant" else "user"
    return Turn(role, speaker, text)

"""The dev sets every retrieval change is judged on, side by side, and their stores.

- MADial-Bench en and zh (``bench/data/madial-bench``, vendored, or ``shared/data/madial-bench``):
  a dialogue so far → the memories it calls for. Two rows per language: the raw dialogue history
  as the query (plain ``recall``, the peers' query) and the chat session's query builder
  (``localmind.chat.query.dialogue_query``).
- LoCoMo dev (``shared/data/locomo-dev``, CC BY-NC: read from there, never copied): every turn a
  memory (``"<speaker>: <text>"`` plus its photo caption), dated by its session; questions of
  categories 1–4 with their evidence turns.
- The personal set (``bench/data/personal``, ours): one person's dated memories, en + zh, told
  one by one through ``remember`` (so updates meet what they update), and questions by kind.
- The held-out personal sets (``bench/data/personal2``, another person, more Chinese;
  ``bench/data/personal3``, a third, mostly English; ``bench/data/personal4``, a fourth, mostly
  Chinese): the same format, each scored only when asked for (``--sets personal2``,
  ``--sets personal4``) so no default run or fit sees it. ``bench/data/personal5`` (a fifth
  person, en + zh; a dev set) is run the same way, only when named (``--sets personal5``);
  ``bench/data/personal6`` (a sixth, en + zh, fresh and held out) only by its key
  (``--sets personal6``, not ``--sets held``).

Each set is loaded into a fresh encrypted store (one namespace per user or conversation) through
the public API; recall runs with ``touch=False`` and a clock fixed after the newest memory.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bench import madial, queries
from bench.personal import PersonalSet
from bench.stores import BENCH_KDF, PASSPHRASE
from localmind import Memory, NewMemory, Settings
from localmind.config import GovernanceConfig
from localmind.embedders.base import Embedder

DAY = 86_400.0
LOCOMO_ENV = "LOCALMIND_LOCOMO_DIR"
#: LoCoMo's question categories, as the data uses them (its README lists the names in another
#: order; the questions themselves show which is which: category 2 asks "when").
LOCOMO_KINDS = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}


@dataclass(frozen=True, slots=True)
class Item:
    key: str  # the data set's id
    namespace: str
    text: str
    created_at: float


@dataclass(frozen=True, slots=True)
class Question:
    namespace: str
    text: str
    gold: frozenset[str]  # data set keys
    kind: str
    outdated: frozenset[str] = frozenset()  # keys the gold replaced (update questions)


@dataclass
class DevSet:
    name: str
    items: list[Item]
    questions: list[Question]
    #: told one by one through ``remember`` (hygiene and supersession apply) rather than bulk
    one_by_one: bool = False
    now: float = 0.0
    #: bulk loads go through ``remember_many``'s default; the conversation and event logs are
    #: episodic, which a batch never judges (docs/design.md, "Import with judgment")
    memory_type: str = "episodic"

    def __post_init__(self) -> None:
        if not self.now:
            self.now = max(item.created_at for item in self.items) + DAY


def _repo_root() -> Path:
    return Path(__file__).resolve().parent.parent


def shared_data(name: str, env: str | None = None) -> Path:
    if env and os.environ.get(env):
        return Path(os.environ[env]).expanduser()
    return _repo_root().parent / "shared" / "data" / name


# --- MADial-Bench ------------------------------------------------------------------------------


def madial_sets(lang: str, root: Path | None = None) -> list[DevSet]:
    """Two views of one language: the raw history as query, and the chat query builder."""
    root = root or madial.data_dir()
    if not (root / lang).is_dir():
        raise FileNotFoundError(
            f"MADial-Bench data not found at {root}: set {madial.DATA_ENV} to a madial-bench "
            "folder (with en/ and zh/), or unset it for the copy in bench/data/madial-bench."
        )
    memories = madial.load_memories(root, lang)
    items = [
        Item(str(m.id), f"user-{m.user}", m.event, m.timestamp) for m in _unique_madial(memories)
    ]
    canonical = _madial_canonical(memories)
    dialogues = madial.load_dialogues(root, lang)
    sets = []
    for label, build in (
        ("plain recall", queries.STRATEGIES["history"].build),
        ("chat query", queries.STRATEGIES[queries.DEFAULT].build),
    ):
        questions = [
            Question(
                f"user-{d.user}",
                build(d),
                frozenset(canonical[i] for i in d.gold),
                "dialogue",
            )
            for d in dialogues
        ]
        sets.append(DevSet(f"MADial {lang}, {label}", items, questions))
    return sets


def _unique_madial(memories: Sequence[madial.MemoryItem]) -> list[madial.MemoryItem]:
    seen: set[tuple[int, str]] = set()
    unique = []
    for m in memories:
        key = (m.user, " ".join(m.event.split()).casefold())
        if key not in seen:
            seen.add(key)
            unique.append(m)
    return unique


def _madial_canonical(memories: Sequence[madial.MemoryItem]) -> dict[int, str]:
    """Dataset id → the key of the memory that stands for it (equal texts are one memory)."""
    first: dict[tuple[int, str], int] = {}
    canonical = {}
    for m in memories:
        key = (m.user, " ".join(m.event.split()).casefold())
        canonical[m.id] = str(first.setdefault(key, m.id))
    return canonical


# --- LoCoMo ------------------------------------------------------------------------------------


def locomo_root(explicit: str | os.PathLike[str] | None = None) -> Path:
    return Path(explicit).expanduser() if explicit else shared_data("locomo-dev", LOCOMO_ENV)


def locomo_set(root: Path | None = None) -> DevSet:
    root = root or locomo_root()
    path = root / "locomo-dev.json"
    if not path.is_file():
        raise FileNotFoundError(
            f"LoCoMo dev data not found at {path}: give --locomo or set {LOCOMO_ENV} to the "
            "locomo-dev folder (it is CC BY-NC and never copied into the project)."
        )
    samples = json.loads(path.read_text(encoding="utf-8"))
    items: list[Item] = []
    questions: list[Question] = []
    for index, sample in enumerate(samples):
        namespace = f"conversation-{index}"
        conversation = sample["conversation"]
        keys = set()
        for name, turns in conversation.items():
            match = re.fullmatch(r"session_(\d+)", name)
            if not match or not isinstance(turns, list):
                continue
            when = _locomo_date(conversation[f"{name}_date_time"])
            for turn in turns:
                text = f"{turn['speaker']}: {turn['text']}"
                if turn.get("blip_caption"):
                    text += f" [shares a photo: {turn['blip_caption']}]"
                key = f"{index}:{turn['dia_id']}"
                keys.add(key)
                items.append(Item(key, namespace, text, when))
        for qa in sample["qa"]:
            category = qa.get("category")
            if category not in LOCOMO_KINDS:
                continue
            gold = frozenset(f"{index}:{e}" for e in qa.get("evidence", [])) & keys
            if gold:
                questions.append(
                    Question(namespace, str(qa["question"]), gold, LOCOMO_KINDS[category])
                )
    return DevSet("LoCoMo dev", items, questions)


def _locomo_date(text: str) -> float:
    """'1:56 pm on 8 May, 2023' → epoch seconds (UTC)."""
    parsed = dt.datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y")
    return parsed.replace(tzinfo=dt.UTC).timestamp()


# --- the personal sets -------------------------------------------------------------------------


def personal_set(name: str = "personal") -> DevSet:
    """A personal set (``bench.personal.SETS``): its memories told one by one, asked on its day."""
    from bench.personal import SETS

    return told_one_by_one(SETS[name])


def time_set() -> DevSet:
    """The time questions (``bench.personal.TIME_SET``), told and asked as a personal set."""
    from bench.personal import TIME_SET

    return told_one_by_one(TIME_SET)


def told_one_by_one(chosen: PersonalSet) -> DevSet:
    """A set in the personal sets' format: its memories told one by one, asked on its day."""
    memories = chosen.memories()
    items = [Item(m.id, "me", m.text, _day(m.date) + 12 * 3600 + n) for n, m in enumerate(memories)]
    questions = [
        Question("me", q.question, frozenset(q.gold), q.kind, frozenset(q.outdated))
        for q in chosen.questions()
    ]
    now = _day(chosen.asked_on) + 12 * 3600
    return DevSet(chosen.title, items, questions, one_by_one=True, now=now)


def imported(devset: DevSet) -> DevSet:
    """``devset`` (a personal set) imported in one ``remember_many``, in date order, judged as
    ``localmind import`` judges a file, instead of told one by one."""
    items = sorted(devset.items, key=lambda item: item.created_at)
    name = f"{devset.name}, imported in one batch"
    return DevSet(name, items, devset.questions, False, devset.now, "semantic")


def _day(day: dt.date | str) -> float:
    return dt.datetime.fromisoformat(str(day)).replace(tzinfo=dt.UTC).timestamp()


# --- stores ------------------------------------------------------------------------------------


@dataclass
class BuiltSet:
    """A dev set loaded into a store: data keys → the memory ids that stand for them."""

    devset: DevSet
    path: Path
    embedder: Embedder
    memory_of: dict[str, str] = field(default_factory=dict)
    load_seconds: float = 0.0

    def open(
        self,
        namespace: str,
        settings: Settings | None = None,
        clock: Callable[[], float] | None = None,
    ) -> Memory:
        return Memory.open(
            self.path,
            PASSPHRASE,
            embedder=self.embedder,
            namespace=namespace,
            settings=settings,
            clock=clock or (lambda: self.devset.now),
            kdf=BENCH_KDF,
        )

    def gold(self, question: Question) -> frozenset[str]:
        return frozenset(self.memory_of[k] for k in question.gold if k in self.memory_of)

    def outdated(self, question: Question) -> frozenset[str]:
        return frozenset(self.memory_of[k] for k in question.outdated if k in self.memory_of)


def build(devset: DevSet, directory: Path, embedder: Embedder, tag: str = "") -> BuiltSet:
    import time

    name = re.sub(r"[^a-z0-9]+", "-", devset.name.lower()).strip("-") + tag
    built = BuiltSet(devset, directory / f"{name}.db", embedder)
    started = time.perf_counter()
    by_namespace: dict[str, list[Item]] = {}
    for item in devset.items:
        by_namespace.setdefault(item.namespace, []).append(item)
    unlimited = Settings(governance=GovernanceConfig(capacity=None))
    told_at = [devset.now]  # the one-by-one sets are told over time: the clock follows
    for namespace, items in by_namespace.items():
        with built.open(namespace, unlimited, clock=lambda: told_at[0]) as memory:
            if devset.one_by_one:
                for item in sorted(items, key=lambda i: i.created_at):
                    told_at[0] = item.created_at
                    record = memory.remember(item.text, type="semantic", created_at=item.created_at)
                    built.memory_of[item.key] = record.id
            else:
                told = [
                    NewMemory(content=i.text, type=devset.memory_type, created_at=i.created_at)
                    for i in items
                ]
                records = memory.remember_many(told)
                for item, record in zip(items, records, strict=True):
                    built.memory_of[item.key] = record.id
    built.load_seconds = time.perf_counter() - started
    return built


def all_sets(
    locomo: Path | None = None,
    madial_root: Path | None = None,
    *,
    madial: bool = True,
    locomo_wanted: bool = True,
    held_out: bool | Collection[str] = False,
    time_wanted: bool = False,
) -> list[DevSet]:
    """Every dev set (those not wanted are not even read: the personal set alone needs nothing
    outside the repository); the held-out personal sets only with ``held_out``: ``True`` for
    all of them but those run only by name (``named_only``), or the names
    (``bench.personal.SETS`` keys) of those wanted; the time questions
    (``bench.personal.TIME_SET``) last, with ``time_wanted``."""
    from bench.personal import SETS

    sets = []
    if madial:
        sets += [*madial_sets("en", madial_root), *madial_sets("zh", madial_root)]
    if locomo_wanted:
        sets.append(locomo_set(locomo))
    for name, chosen in SETS.items():
        every = held_out is True and not chosen.named_only  # personal6 only by its name
        wanted = every or (not isinstance(held_out, bool) and name in held_out)
        if not chosen.held_out or wanted:
            sets.append(personal_set(name))
    if time_wanted:
        sets.append(time_set())
    return sets

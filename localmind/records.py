"""Domain records: what a memory is and what recall returns."""

from __future__ import annotations

import hashlib
import json
import operator
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, field, fields
from enum import StrEnum
from itertools import pairwise
from typing import Any


def folded_text(text: str) -> str:
    """``text`` without what :func:`content_hash` ignores: case, spacing, width and
    punctuation."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    kept = "".join(" " if unicodedata.category(c)[0] in "PZC" else c for c in folded)
    return " ".join(kept.split())


def content_hash(text: str) -> str:
    """Equal for texts that differ only in case, spacing, width or punctuation: the same
    memory for the exact-duplicate check, the embedding cache and the earlier texts a memory
    replaced (``memory_versions``: a file imported again is recognised)."""
    return hashlib.sha256(folded_text(text).encode("utf-8")).hexdigest()


class MemoryType(StrEnum):
    SHORT_TERM = "short_term"  # the session's working memory: ring buffer, never persisted
    LONG_TERM = "long_term"
    EPISODIC = "episodic"  # something that happened: "yesterday I went to the café"
    SEMANTIC = "semantic"  # a fact: "the user is a software engineer"


def event_and_fact(one: Any, other: Any) -> bool:
    """Whether of two memories (anything with a ``type``) one is an event (episodic) and the
    other is not: neither replaces the other (what happened one day is no earlier version of
    what holds; review13 J10)."""
    return (MemoryType(one.type) is MemoryType.EPISODIC) != (
        MemoryType(other.type) is MemoryType.EPISODIC
    )


class Status(StrEnum):
    ACTIVE = "active"
    SUPERSEDED = "superseded"
    EXPIRED = "expired"
    DELETED = "deleted"

    @property
    def shown(self) -> str:
        """The word people read: every command calls an expired memory "archived" (the stored
        value, the JSON and the sync format keep "expired")."""
        return "archived" if self is Status.EXPIRED else self.value


#: How ``status_counts_shown`` names forgotten memories whose text another memory holds.
MERGED_AWAY = "merged into another"


def status_counts_shown(by_status: Mapping[str, int], merged_away: int) -> dict[str, int]:
    """Memories counted by status in the words people read (:attr:`Status.shown`), the
    forgotten ones a take-new, a merge or a sync folded into another memory counted apart
    from "deleted": their text lives on there, and "deleted 1" after a take-new read like
    data loss (review11 A3)."""
    shown = {Status(status).shown: n for status, n in by_status.items()}
    if merged_away:
        deleted = shown.pop(Status.DELETED.value, 0) - merged_away
        if deleted > 0:
            shown[Status.DELETED.value] = deleted
        shown[MERGED_AWAY] = merged_away
    return shown


class Travel(StrEnum):
    """How a field of a memory reaches another device (``localmind.replica``)."""

    FIELD = "field"  # in the add and in updates; per-field last writer wins in the fold
    VERSIONED = "versioned"  # content and version: an update with content makes a new version
    ENVELOPE = "envelope"  # carried by the event itself (its memory id, its namespace)
    DERIVED = "derived"  # recomputed on arrival (the content hash, the stamp)
    LOCAL = "local"  # stays on this device (uses of a memory are this device's own)


@dataclass(frozen=True, slots=True)
class Declared:
    """What one field of a memory is, beyond its name and type: read by the store (its column),
    the replica (what travels, what a forget keeps), export and import, and input checks, so
    a new field is declared here once and every one of them follows.

    ``kind`` names how a value is stored and checked (``localmind.validation.field_value``):
    id, content, type, status, json, unit (0 to 1), time, optional_time, count, version, flag,
    source, text. ``exported``: in :meth:`MemoryRecord.to_dict`, so in exports, in the payload
    of an add event and in JSON output. ``tombstone``: kept by a forget's payload.
    """

    kind: str
    travel: Travel
    exported: bool = True
    tombstone: bool = False


def _declare(
    kind: str, travel: Travel, *, exported: bool = True, tombstone: bool = False
) -> dict[str, Declared]:
    """A field's ``metadata`` (``dataclasses.field``) holding what it is."""
    return {"declared": Declared(kind, travel, exported, tombstone)}


@dataclass(slots=True)
class MemoryRecord:
    id: str = field(metadata=_declare("id", Travel.ENVELOPE))
    content: str = field(metadata=_declare("content", Travel.VERSIONED))
    type: MemoryType = field(
        default=MemoryType.LONG_TERM, metadata=_declare("type", Travel.FIELD, tombstone=True)
    )
    namespace: str = field(default="me", metadata=_declare("namespace", Travel.ENVELOPE))
    metadata: dict[str, Any] = field(default_factory=dict, metadata=_declare("json", Travel.FIELD))
    importance: float = field(default=0.5, metadata=_declare("unit", Travel.FIELD, tombstone=True))
    confidence: float = field(default=0.8, metadata=_declare("unit", Travel.FIELD, tombstone=True))
    access_count: int = field(default=0, metadata=_declare("count", Travel.LOCAL))
    created_at: float = field(default=0.0, metadata=_declare("time", Travel.FIELD, tombstone=True))
    updated_at: float = field(default=0.0, metadata=_declare("time", Travel.FIELD, tombstone=True))
    last_accessed: float | None = field(
        default=None, metadata=_declare("optional_time", Travel.LOCAL)
    )
    expires_at: float | None = field(
        default=None, metadata=_declare("optional_time", Travel.FIELD, tombstone=True)
    )
    version: int = field(default=1, metadata=_declare("version", Travel.VERSIONED, tombstone=True))
    status: Status = field(default=Status.ACTIVE, metadata=_declare("status", Travel.FIELD))
    pinned: bool = field(default=False, metadata=_declare("flag", Travel.FIELD, tombstone=True))
    # Where the memory came from: cli, tui, chat, mcp:<client>, import:<file> ("" before 2026-12)
    source: str = field(default="", metadata=_declare("source", Travel.FIELD, tombstone=True))
    content_hash: str = field(default="", metadata=_declare("text", Travel.DERIVED, exported=False))
    hlc: str = field(default="", metadata=_declare("text", Travel.DERIVED, exported=False))
    #: looks like a password, PIN, key or token (``localmind.secrets_check``), or the person
    #: said so: never sent to an assistant. Derived from the text and the person's verdict in
    #: the metadata wherever a row is written, so every device computes the same.
    secret: bool = field(default=False, metadata=_declare("flag", Travel.DERIVED, exported=False))

    @property
    def last_touched(self) -> float:
        """The latest moment the memory was written or used: recency and decay count from here."""
        return max(self.created_at, self.updated_at, self.last_accessed or 0.0)

    def to_dict(self) -> dict[str, Any]:
        """The exported fields, as JSON values."""
        return {name: to_json(getattr(self, name)) for name in EXPORTED}


_EVERY_FIELD = operator.attrgetter(*(f.name for f in fields(MemoryRecord)))


def copied(record: MemoryRecord, **changes: Any) -> MemoryRecord:
    """``dataclasses.replace(record, **changes)``, a third of its cost: replace looks the
    fields up anew on every call (15 µs here, and recall copies every record it returns)."""
    copy = MemoryRecord(*_EVERY_FIELD(record))
    for name, value in changes.items():
        setattr(copy, name, value)
    return copy


def from_source(source: str, wanted: str) -> bool:
    """Whether a memory's ``source`` is the one ``wanted``: the same, or one of its kind
    (``mcp`` is every ``mcp:<client>``, ``import`` every ``import:<file>``)."""
    return source == wanted or source.startswith(wanted + ":")


def _declarations() -> dict[str, Declared]:
    return {f.name: f.metadata["declared"] for f in fields(MemoryRecord)}


#: Every field of a memory, in declaration order, with what it is.
DECLARED: dict[str, Declared] = _declarations()
EXPORTED = tuple(name for name, d in DECLARED.items() if d.exported)
#: What an update event carries and the fold sets field by field (besides content and version).
TRAVELLING = tuple(name for name, d in DECLARED.items() if d.travel is Travel.FIELD)
#: What a forget's payload keeps, so a device that never saw the memory builds its tombstone.
TOMBSTONE = tuple(name for name, d in DECLARED.items() if d.tombstone)

# Event payload keys that tie one memory's change to another text or memory (sync9):
#: a forget made by a person's resolution (take-new, merge) names the memory it went into …
FOLDED_INTO = "into"
#: … and the stamps of the forgotten memory's content writes the resolving device had seen;
SEEN = "seen"
#: the kept memory's new version names the memory whose text it took;
CARRIED_FROM = "from"
#: a confidence verdict names the hash of the text it judged;
JUDGED = "judged"
#: a keep-both names the memory the person kept beside this one (sync10: it settles every
#: laptop's copy of that pair, and no laptop queues the pair again).
KEPT_WITH = "kept_with"
#: a keep-old's forget names the memory the person kept instead (sync10b): it is an answer, not
#: a forget of the person's own, so of it and another laptop's take-new of the same pair the
#: later one wins (a final forget erases a concurrent take-new's copy; this one only when later).
SET_ASIDE_FOR = "set_aside_for"
#: an ``add`` that brings back, under its own id, a memory a resolution folded into another
#: (fix11: a keep-both later than another laptop's take-new or merge). Only a fold is undone
#: so: a memory some device forgot itself stays forgotten.
REVIVED = "revived"

#: an update that maintenance decided from the memory as this laptop had it (confidence
#: decay, archiving by decay, expiry) names the stamp of that state (sync12, review11 U2):
#: the fold leaves it out when it folds after another change it never saw, so a laptop that
#: was off for a while and runs its maintenance on its old copy neither archives again what
#: a person brought back elsewhere, nor rewrites why it was archived, nor undoes a verdict
#: with a confidence decayed from its old value.
BASED_ON = "based_on"

#: The reason of an update by which capacity archived a memory. Capacity is each laptop's own
#: (sync10b, review10 F30): the fold on another device leaves such an update out, so a
#: capacity lowered on one laptop archives nothing on the others.
EVICTION = "evicted"


#: A forget's payload key marking a purge of an archived memory (retention or `maintain
#: --purge-archived`). Archiving is each laptop's own (capacity), so its purge is too: the fold
#: on another device leaves it out, where the memory may be active (review11 U4: a capacity of
#: 2 and a purge on one laptop erased five current memories on the other).
PURGED = "purged"


def is_eviction(reason: str | None) -> bool:
    """Whether an event's ``reason`` says capacity archived the memory (:data:`EVICTION`)."""
    return reason is not None and reason.startswith(f"{EVICTION}:")


def default_of(name: str) -> Any:
    """A field's default value (a fresh one for a mutable default)."""
    declared = next(f for f in fields(MemoryRecord) if f.name == name)
    if declared.default_factory is not MISSING:
        return declared.default_factory()
    return declared.default


def to_json(value: Any) -> Any:
    """A field's value as JSON holds it (enums as their text)."""
    return str(value) if isinstance(value, StrEnum) else value


def to_column(name: str, value: Any) -> Any:
    """A field's value (or its JSON form, as events carry it) as its ``memories`` column holds
    it."""
    kind = DECLARED[name].kind
    if kind == "json":
        return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    if kind == "flag":
        return int(bool(value))
    if kind in ("type", "status"):
        return str(value)
    if kind in ("unit", "time"):
        return float(value)
    return value


# Recall reads ~70 rows per query: the enum constructor and json.loads of "{}" were a third of
# that, so known values are looked up (an unknown one still fails in the enum's constructor).
_TYPES = {str(t.value): t for t in MemoryType}
_STATUSES = {str(s.value): s for s in Status}


def _json_object(value: str) -> Any:
    return {} if value == "{}" else json.loads(value)


_FROM_COLUMN: dict[str, Callable[[Any], Any]] = {
    "json": _json_object,
    "flag": bool,
    "type": lambda value: _TYPES.get(value) or MemoryType(value),
    "status": lambda value: _STATUSES.get(value) or Status(value),
}


def column_reader(name: str) -> Callable[[Any], Any] | None:
    """How a field's value is made from its ``memories`` column (None: taken as it is)."""
    return _FROM_COLUMN.get(DECLARED[name].kind)


@dataclass(frozen=True, slots=True)
class Version:
    """An earlier text of a memory (``memory_versions``)."""

    version: int
    content: str
    reason: str  # why it was replaced: update, overwrite, correct, revert, merge
    replaced_at: float


@dataclass(frozen=True, slots=True)
class ScoreBreakdown:
    """Why a memory ranked where it did.

    ``score = confidence × similarity × (1 + w_imp·importance + w_rec·recency
    + w_freq·frequency)`` where ``similarity`` is the calibrated probability that the memory is
    relevant to the query (``localmind.ranking.relevance``): comparable across queries, not 1
    for the best candidate by construction. ``from_vector`` and ``from_keywords`` are what the
    vector and the keyword search added to its logit; ``superseded_by`` names a newer memory
    among the results that replaces this one (it then ranks below it); ``moved_above`` names the
    earlier memory this newer one was listed above despite a lower score.
    """

    score: float
    similarity: float
    importance: float
    recency: float
    frequency: float
    confidence: float
    vector_similarity: float | None  # cosine similarity to the query, when known
    vector_rank: int | None  # 1-based rank in the vector list, None if not in it
    keyword_rank: int | None  # 1-based rank in the BM25 list, None if not in it
    keyword_score: float | None = None  # BM25 relevance (higher is better), None: no match
    keyword_coverage: float = 0.0  # share of the query's term rarity the memory holds
    in_period: bool = False  # made in the period the query names ("last spring", "去年")
    other_script: bool = False  # written in another script than the query (Chinese / English)
    from_vector: float = 0.0
    from_keywords: float = 0.0
    #: what memories told together with it (turns next to it in one conversation imported at
    #: once) added to its logit: the best one's relevance × ``FusionConfig.context``
    from_context: float = 0.0
    superseded_by: str | None = None
    #: an earlier memory this one was moved above although it scores lower: a newer version
    #: of it (a pending conflict or a change ``remember`` noted), which may replace it
    moved_above: str | None = None
    #: the ranking's recency weight it was scored with (higher for a question about now):
    #: rescoring after feedback keeps it, so the score moves only by what the feedback changed
    recency_weight: float | None = None
    #: when the newer memory of ``superseded_by`` was made (it need not be among the results)
    superseded_at: float | None = None

    def to_dict(self) -> dict[str, float | int | str | None]:
        return {name: getattr(self, name) for name in self.__slots__}


@dataclass(frozen=True, slots=True)
class EarlierText:
    """An earlier text of a memory (``REPLACED``) that held during a period a question names:
    told at ``told_at``, current until ``until``, when the next text was told."""

    text: str
    told_at: float
    until: float

    def to_dict(self) -> dict[str, str | float]:
        return {"text": self.text, "told_at": self.told_at, "until": self.until}


@dataclass(frozen=True, slots=True)
class RecallResult:
    memory: MemoryRecord
    breakdown: ScoreBreakdown
    #: earlier texts of the memory that held during the period the query names ("where did I
    #: live in 2024?" after "I live in Berlin" became "We moved to Lisbon"), oldest first
    earlier: tuple[EarlierText, ...] = ()

    @property
    def score(self) -> float:
        return self.breakdown.score

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.memory.to_dict(),
            "score": self.score,
            "breakdown": self.breakdown.to_dict(),
            "earlier": [text.to_dict() for text in self.earlier],
        }


#: ``metadata`` key listing the restatements merged into a memory, in their own words (up to
#: ``RESTATEMENTS_KEPT``): the keyword index holds them with the memory, so a search in the
#: words (or the language) of any of them finds it. Nothing a person said is lost by a merge.
RESTATEMENTS = "restatements"
RESTATEMENTS_KEPT = 8


def restatements(metadata: dict[str, Any]) -> list[str]:
    """The restatements merged into a memory (a ``restatements`` value a person or an old
    version wrote as something other than a list of texts counts as none)."""
    kept = metadata.get(RESTATEMENTS)
    if not isinstance(kept, list):
        return []
    return [text for text in kept if isinstance(text, str) and text]


#: ``metadata`` key listing the earlier texts a newer fact replaced (take-new, a model's
#: overwrite, an update that settled a conflict; up to ``REPLACED_KEPT``, newest last), each as
#: {"text": …, "created_at": …}: the date the old fact was told, which the memory's own
#: ``created_at`` (now the newer fact's) no longer says. The keyword index holds the texts with
#: the memory, so the question asked in the old fact's words ("where do I live?" after "I live
#: in Berlin" became "I moved to Lisbon") still finds it, answered with its current text.
REPLACED = "replaced"
REPLACED_KEPT = 4


def replaced(metadata: dict[str, Any]) -> list[tuple[str, float | None]]:
    """The earlier texts noted under ``replaced``, each with its date when known (a value
    written as anything else counts as none; a bare text has no date)."""
    kept = metadata.get(REPLACED)
    if not isinstance(kept, list):
        return []
    found: list[tuple[str, float | None]] = []
    for entry in kept:
        text: Any = entry
        made: Any = None
        if isinstance(entry, dict):
            text, made = entry.get("text"), entry.get("created_at")
        if isinstance(text, str) and text:
            dated = isinstance(made, int | float) and not isinstance(made, bool)
            found.append((text, float(made) if dated else None))
    return found


def held_during(
    record: MemoryRecord,
    start: float,
    end: float,
    preferred: Callable[[str], bool] | None = None,
) -> tuple[EarlierText, ...]:
    """The earlier texts of ``record`` (``REPLACED``, dated ones) that were current at some time
    in ``[start, end)``, oldest first: each held from the day it was told until the next text
    was told (a later earlier text, else the memory's own ``created_at``). Of texts told at one
    moment (a fact and the restatements merged into it) one stands for them: the first that is
    ``preferred`` (say, in the question's language), else the first."""
    told: dict[float, list[str]] = {}
    for text, made in replaced(record.metadata):
        if made is not None and made < record.created_at:
            told.setdefault(made, []).append(text)
    moments = [*sorted(told), record.created_at]
    ended = _ended(record.metadata)
    held = [(made, min(until, ended.get(made, until))) for made, until in pairwise(moments)]
    return tuple(
        EarlierText(_first_preferred(told[made], preferred), made, until)
        for made, until in held
        if made < end and until > start
    )


def _ended(metadata: dict[str, Any]) -> dict[float, float]:
    """When each earlier text (by the date it was told) stopped holding, where that is noted
    (``held_until``)."""
    kept = metadata.get(REPLACED)
    ended: dict[float, float] = {}
    for entry in kept if isinstance(kept, list) else []:
        if not isinstance(entry, dict):
            continue
        made: Any = entry.get("created_at")
        until: Any = entry.get(UNTIL)
        if _is_time(made) and _is_time(until):
            ended[float(made)] = float(until)
    return ended


def _is_time(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


#: In an entry of ``REPLACED``: when the text stopped holding, noted when the memory's own
#: date no longer says it (``held_until``).
UNTIL = "until"


def held_until(metadata: dict[str, Any], until: float) -> dict[str, Any]:
    """``metadata`` noting that its newest earlier texts (``REPLACED``) held until ``until``
    (the day the text that replaced them was told). A merge in the review queue dates the
    memory when the later of its two sides was told: without the note, "I moved to Berlin" told
    on 08-01 and its retelling on 09-10, merged, had Hamburg held "until 09-10" (review10
    F25). An earlier note stays."""
    found = [made for _, made in replaced(metadata) if made is not None]
    if not found:
        return metadata
    newest = max(found)
    entries = [
        {**entry, UNTIL: until}
        if isinstance(entry, dict) and entry.get("created_at") == newest and UNTIL not in entry
        else entry
        for entry in metadata[REPLACED]
    ]
    return {**metadata, REPLACED: entries}


def _first_preferred(texts: list[str], preferred: Callable[[str], bool] | None) -> str:
    if preferred is not None:
        return next((text for text in texts if preferred(text)), texts[0])
    return texts[0]


def replaced_texts(metadata: dict[str, Any]) -> list[str]:
    """The texts of :func:`replaced`."""
    return [text for text, _ in replaced(metadata)]


def with_replaced(
    metadata: dict[str, Any], earlier: list[str], made: float, current: str
) -> dict[str, Any]:
    """``metadata`` noting the ``earlier`` texts (the replaced one and its restatements), told
    at ``made``, as texts the memory (now ``current``) replaced; the newest few are kept."""
    entries = {text: when for text, when in replaced(metadata) if text not in earlier}
    entries.update({text: made for text in earlier})
    entries.pop(current, None)
    ended = _ended(metadata)
    kept = [
        {"text": text, "created_at": when}
        | ({UNTIL: ended[when]} if when is not None and when in ended else {})
        for text, when in entries.items()
    ]
    return {**metadata, REPLACED: kept[-REPLACED_KEPT:]}


def searchable_text(record: MemoryRecord) -> str:
    """What the keyword index holds for a memory: its text, its merged restatements and the
    earlier texts it replaced."""
    return text_with_restatements(record.content, record.metadata)


def text_with_restatements(content: str, metadata: dict[str, Any]) -> str:
    """:func:`searchable_text` of a memory with this content and metadata."""
    return "\n".join([content, *restatements(metadata), *replaced_texts(metadata)])

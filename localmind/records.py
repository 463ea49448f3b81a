"""Domain records: what a memory is and what recall returns."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class MemoryType(StrEnum):
    SHORT_TERM = "short_term"  # the session's working memory: ring buffer, never persisted
    LONG_TERM = "long_term"
    EPISODIC = "episodic"  # something that happened: "yesterday I went to the café"
    SEMANTIC = "semantic"  # a fact: "the user is a software engineer"


class Status(StrEnum):
    ACTIVE = "active"
    SUPERSEDED = "superseded"
    EXPIRED = "expired"
    DELETED = "deleted"


@dataclass(slots=True)
class MemoryRecord:
    id: str
    content: str
    type: MemoryType
    namespace: str = "me"
    metadata: dict[str, Any] = field(default_factory=dict)
    importance: float = 0.5
    confidence: float = 0.8
    access_count: int = 0
    created_at: float = 0.0
    updated_at: float = 0.0
    last_accessed: float | None = None
    expires_at: float | None = None
    version: int = 1
    status: Status = Status.ACTIVE
    pinned: bool = False
    content_hash: str = ""
    hlc: str = ""

    @property
    def last_touched(self) -> float:
        """The latest moment the memory was written or used: recency and decay count from here."""
        return max(self.created_at, self.updated_at, self.last_accessed or 0.0)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "content": self.content,
            "type": str(self.type),
            "namespace": self.namespace,
            "metadata": self.metadata,
            "importance": self.importance,
            "confidence": self.confidence,
            "access_count": self.access_count,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
            "last_accessed": self.last_accessed,
            "expires_at": self.expires_at,
            "version": self.version,
            "status": str(self.status),
            "pinned": self.pinned,
        }


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
    among the results that replaces this one (it then ranks below it).
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
    from_vector: float = 0.0
    from_keywords: float = 0.0
    superseded_by: str | None = None

    def to_dict(self) -> dict[str, float | int | str | None]:
        return {name: getattr(self, name) for name in self.__slots__}


@dataclass(frozen=True, slots=True)
class RecallResult:
    memory: MemoryRecord
    breakdown: ScoreBreakdown

    @property
    def score(self) -> float:
        return self.breakdown.score

    def to_dict(self) -> dict[str, Any]:
        return {**self.memory.to_dict(), "score": self.score, "breakdown": self.breakdown.to_dict()}


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


def searchable_text(record: MemoryRecord) -> str:
    """What the keyword index holds for a memory: its text and its merged restatements."""
    return "\n".join([record.content, *restatements(record.metadata)])

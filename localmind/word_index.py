"""The keyword index held in memory: each indexed term's postings (which memories hold it, how
often) and each memory's length in terms, for every namespace, scored with FTS5's own bm25.

Pure Python and numpy, no SQL: :class:`localmind.store.SqliteStore` fills it with the terms FTS5
indexes (its tokenizer over ``fts_terms.index_text``) and keeps it in step with every write,
through the same change log as the sign index (``localmind.sign_index``). FTS5's ``memory_fts``
stays the persistent index and answers whenever this one cannot (inside a transaction, before
it is built, past its memory bound).

:meth:`WordIndex.bm25` computes what FTS5's ``bm25()`` computes (``fts5_aux.c``: k1 1.2, b 0.75,
idf ``log((N - n + 0.5) / (n + 0.5))`` or 1e-6 when not positive, N and the average length over
every row of the table), operation by operation in the same order in double precision, so the
scores are FTS5's to the last bit. All namespaces are held because those statistics cover them.

Memory: per posting 8 bytes (a slot and a count, ``array('i')``), per memory 21 bytes (rowid,
namespace, type, length, live flag), per distinct term its string and two small arrays
(~150 bytes): at 100k synthetic memories ~2.3M postings, ~50 MB in all (docs/design.md).
"""

from __future__ import annotations

import itertools
import math
from array import array
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from localmind.cjk import CHARACTER as _CJK_CHAR
from localmind.records import MemoryType

_VERSIONS = itertools.count()

_TYPE_CODES = {str(kind): code for code, kind in enumerate(MemoryType)}
_K1, _B = 1.2, 0.75
# Postings of memories that left or changed are dropped once those memories are this share of
# the live ones.
_DEAD_SHARE = 0.25
_GROWTH = 1.25


@dataclass(frozen=True, slots=True)
class IndexedText:
    """One memory as the keyword index holds it: its terms in order, repeats included."""

    rowid: int
    namespace: str
    type: str
    terms: Sequence[str]


@dataclass(frozen=True, slots=True)
class Phrase:
    """One OR-ed phrase of a keyword query: a single term, or every term starting with it."""

    term: str
    prefix: bool = False


class WordIndex:
    """Postings of every indexed memory's terms, by slot (a memory that changes gets a new one)."""

    def __init__(self) -> None:
        self._slot_of: dict[int, int] = {}
        self._rowids = np.empty(0, np.int64)
        self._namespaces = np.empty(0, np.int32)
        self._types = np.empty(0, np.uint8)
        self._lengths = np.empty(0, np.float64)
        self._live = np.empty(0, bool)
        self._slots = 0  # slots used, live or dead
        self._namespace_codes: dict[str, int] = {}
        self._postings: dict[str, tuple[array[int], array[int]]] = {}
        self._by_first: dict[str, set[str]] = {}  # CJK terms by first character (prefixes)
        self.documents = 0  # live memories: FTS5's row count
        self.tokens = 0  # their terms in all: FTS5's total size
        self._postings_count = 0
        self._dead_documents = 0  # removed since the last purge of their postings
        #: Changes whenever what the index holds may have (unique across indexes): what was
        #: read from its answers stays true while it is the same.
        self.version = next(_VERSIONS)
        self._buffers: tuple[np.ndarray, np.ndarray] | None = None  # see _kept_buffers

    def __len__(self) -> int:
        return self.documents

    def __contains__(self, rowid: object) -> bool:
        return rowid in self._slot_of

    def add(self, texts: Iterable[IndexedText]) -> None:
        """Index these memories (a rowid already held is replaced)."""
        texts = list(texts)
        self.remove([text.rowid for text in texts])
        self.version = next(_VERSIONS)
        self._reserve(self._slots + len(texts))
        for text in texts:
            slot = self._slots
            self._slots += 1
            self._slot_of[text.rowid] = slot
            self._rowids[slot] = text.rowid
            self._namespaces[slot] = self._namespace_codes.setdefault(
                text.namespace, len(self._namespace_codes)
            )
            self._types[slot] = _TYPE_CODES.get(text.type, 255)
            self._lengths[slot] = len(text.terms)
            self._live[slot] = True
            self.documents += 1
            self.tokens += len(text.terms)
            for term, count in Counter(text.terms).items():
                postings = self._postings.get(term)
                if postings is None:
                    postings = self._postings[term] = (array("i"), array("i"))
                    if _CJK_CHAR.match(term):
                        self._by_first.setdefault(term[0], set()).add(term)
                postings[0].append(slot)
                postings[1].append(count)
                self._postings_count += 1

    def remove(self, rowids: Iterable[int]) -> None:
        """Stop finding these memories (rowids not held are ignored)."""
        self.version = next(_VERSIONS)
        for rowid in rowids:
            slot = self._slot_of.pop(int(rowid), None)
            if slot is None:
                continue
            self._live[slot] = False
            self.documents -= 1
            self.tokens -= int(self._lengths[slot])
            self._dead_documents += 1
        if self._dead_documents and self._dead_documents >= _DEAD_SHARE * max(self.documents, 1):
            self.purge()

    def documents_with(self, terms: Sequence[str]) -> dict[str, int]:
        """How many memories (every namespace) hold each term; absent terms: 0."""
        postings, live = self._postings, self._live
        return {
            term: int(np.count_nonzero(live[np.frombuffer(postings[term][0], np.int32)]))
            if term in postings
            else 0
            for term in terms
        }

    def bm25(
        self, phrases: Sequence[Phrase], k: int, namespace: str, types: Sequence[str] | None
    ) -> list[tuple[int, float]]:
        """(rowid, FTS5 bm25: negative, lower is better) of the ``k`` best memories of
        ``namespace`` (and ``types``) holding any phrase, best first; equal scores in rowid
        order."""
        if k <= 0 or not self.documents or namespace not in self._namespace_codes:
            return []
        rows = float(self.documents)
        average = float(self.tokens) / rows
        used = self._slots
        score, matched = self._kept_buffers()
        try:
            for phrase in phrases:
                terms = self._terms_of(phrase)
                slots, counts = self._live_postings(terms)
                if not len(slots):
                    continue
                hits = len(slots)
                idf = math.log((self.documents - hits + 0.5) / (hits + 0.5))
                if idf <= 0.0:
                    idf = 1e-6
                length = self._lengths[slots]
                # As fts5_aux.c, operation by operation (so the doubles are the same):
                # idf * ((f * (k1 + 1.0)) / (f + k1 * (1 - b + b * D / avgdl)))
                score[slots] += idf * (
                    (counts * (_K1 + 1.0)) / (counts + _K1 * (1 - _B + _B * length / average))
                )
                matched[slots] = True
        finally:  # the buffers back to zeros, where they were touched only
            found = np.flatnonzero(matched[:used])
            totals = score[found]
            score[found] = 0.0
            matched[found] = False
        wanted = self._namespaces[found] == self._namespace_codes[namespace]
        if types:
            wanted &= np.isin(self._types[found], [_TYPE_CODES.get(kind, 255) for kind in types])
        found = found[wanted]
        negated = -1.0 * totals[wanted]
        if len(found) > k:  # only the k best and those tied with the last need sorting
            near = negated <= np.partition(negated, k - 1)[k - 1]
            found, negated = found[near], negated[near]
        rowids = self._rowids[found]
        best = np.lexsort((rowids, negated))[:k]
        return [(int(rowids[i]), float(negated[i])) for i in best]

    def _kept_buffers(self) -> tuple[np.ndarray, np.ndarray]:
        """Each slot's score (zeros) and whether a phrase matched it (False), kept between
        queries and set back where a query touched them: two arrays of every slot made anew
        per query (0.9 MB at 100k memories) cost more than the few thousand matches. The
        caller holds the store's index lock: one query at a time."""
        capacity = len(self._rowids)
        held = self._buffers
        if held is None or len(held[0]) < capacity:
            held = self._buffers = (np.zeros(capacity, np.float64), np.zeros(capacity, bool))
        return held

    def nbytes(self) -> int:
        """The index's size in bytes, roughly (the postings' arrays and the per-memory ones;
        Python's own objects for terms and slots estimated)."""
        arrays = sum(
            a.nbytes
            for a in (self._rowids, self._namespaces, self._types, self._lengths, self._live)
        )
        terms = sum(100 + len(term) for term in self._postings)
        return arrays + 8 * self._postings_count + terms + 100 * len(self._slot_of)

    def _terms_of(self, phrase: Phrase) -> list[str]:
        if not phrase.prefix:
            return [phrase.term]
        if len(phrase.term) == 1 and _CJK_CHAR.match(phrase.term):
            return sorted(self._by_first.get(phrase.term, ()))
        return sorted(term for term in self._postings if term.startswith(phrase.term))

    def _live_postings(self, terms: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """(slots, counts as float64) of the live memories holding any of ``terms`` (their
        counts summed: a prefix phrase counts every matching term's occurrences)."""
        parts = [self._postings[term] for term in terms if term in self._postings]
        if not parts:
            return np.empty(0, np.intp), np.empty(0, np.float64)
        slots = np.concatenate([np.frombuffer(p[0], np.int32) for p in parts])
        counts = np.concatenate([np.frombuffer(p[1], np.int32) for p in parts])
        live = self._live[slots]
        slots, counts = slots[live], counts[live]
        if len(parts) > 1:
            slots, where = np.unique(slots, return_inverse=True)
            counts = np.bincount(where, weights=counts, minlength=len(slots))
        return slots.astype(np.intp), counts.astype(np.float64)

    def purge(self) -> None:
        """Drop the postings of memories no longer held, and terms no memory holds any more
        (a forgotten memory's words do not stay in memory): ~0.05 s at 100k memories."""
        live = self._live
        for term in list(self._postings):
            slots, counts = self._postings[term]
            kept = live[np.frombuffer(slots, np.int32)]
            if kept.all():
                continue
            if not kept.any():
                del self._postings[term]
                if term[0] in self._by_first:
                    self._by_first[term[0]].discard(term)
                continue
            self._postings[term] = (
                array("i", np.frombuffer(slots, np.int32)[kept].tobytes()),
                array("i", np.frombuffer(counts, np.int32)[kept].tobytes()),
            )
        self._postings_count = sum(len(slots) for slots, _ in self._postings.values())
        self._dead_documents = 0

    def _reserve(self, needed: int) -> None:
        capacity = len(self._rowids)
        if needed <= capacity:
            return
        capacity = max(needed, int(capacity * _GROWTH) + 256)

        def grown(values: np.ndarray) -> np.ndarray:
            bigger = np.zeros(capacity, values.dtype)
            bigger[: self._slots] = values[: self._slots]
            return bigger

        self._rowids = grown(self._rowids)
        self._namespaces = grown(self._namespaces)
        self._types = grown(self._types)
        self._lengths = grown(self._lengths)
        self._live = grown(self._live)

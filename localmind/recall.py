"""Recall: the hybrid search behind ``Memory.recall``.

Vector candidates (sign-bit scan, exact cosine) and BM25 keyword candidates, plus the session's
short-term buffer, get a calibrated probability of relevance from both searches' scores,
optionally rescored by a cross-encoder, then are ranked by the multi-factor formula of
``localmind.ranking``. HyDE adds the embedding of an answer imagined by the LLM.
"""

from __future__ import annotations

import copy
import math
import re
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import TypeVar

import numpy as np

from localmind import aliases, validation
from localmind.cjk import mostly_cjk
from localmind.config import FusionConfig, RankingWeights, Settings
from localmind.currency import replaced_while_pending
from localmind.derivations import by_stem
from localmind.embedders.base import Embedder, Vectors, model_loads
from localmind.embedders.rerank import Reranker
from localmind.embedders.use import UseEmbedder
from localmind.errors import InvalidInput
from localmind.first_person import as_asked, as_told
from localmind.fts_terms import MAX_QUERY_TERMS, match_expression, query_terms
from localmind.governance import Governance
from localmind.kinds import in_cjk, kinds_named
from localmind.llm.base import LLM, LLMError
from localmind.prompts import render
from localmind.ranking import Candidate, Relevance, lifted, relevance, score, score_value
from localmind.records import (
    EarlierText,
    MemoryRecord,
    MemoryType,
    RecallResult,
    Status,
    content_hash,
    copied,
    from_source,
    held_during,
    replaced_texts,
)
from localmind.ringbuffer import RingBuffer, ShortTerm
from localmind.secrets_check import looks_secret
from localmind.simplified import simplified
from localmind.statement import SELF, SINGLE_SLOTS, read
from localmind.store import SqliteStore, StoredMemory
from localmind.suspicion import may_replace, told_of_one_thing
from localmind.timeframe import (
    TimeFrame,
    asks_about_now,
    asks_about_the_past,
    is_a_question,
    might_mention_time,
    named_from_the_day,
    names_a_season,
    period_told_of,
    says_habit_or_plan_words,
    tells_no_doing,
    time_frame,
    told_in_the_past,
    words_about_now,
)
from localmind.transcript import utterances, with_last_repeated

_Derived = TypeVar("_Derived")
# one recall judges the same pairs of its first results as the last one did (a chat asks again
# and again about one thing): a pure function of the two texts, answered once
_QUERY_CACHE_SIZE = 256
_TERMS_CACHE_SIZE = 20_000  # memories whose index terms are kept (a few MB at most)
#: Candidates the cross-encoder rescores when recall reranks.
RERANK_CANDIDATES = 30
#: What one query term shared with a short-term item counts for, on FTS5's BM25 scale (a
#: matched term of average rarity in a small store scores about this much).
BUFFER_TERM_BM25 = 2.0
#: A newer memory ranks above one it may replace only when it is itself this relevant.
NEWER_FIRST_RELEVANCE = 0.0125
#: ... and, for a later version remember() noted, only when the two are this similar (a close
#: variant of one fact) or the newer one is at least ``NEWER_FIRST_SHARE`` as relevant to the
#: query as the older (it answers the question too). Below 0.44 the noted pairs are mostly two
#: facts about one person that merely differ ("Lily was born in 2017" / "Lily changed
#: schools"); lifting the newer, a wrong answer, above the right one cost the personal set's
#: single questions 0.03 of R@5 (docs/design.md, "Recall, round 3").
NEWER_FIRST_SIMILARITY = 0.44
NEWER_FIRST_SHARE = 0.5
#: A newer memory lifted into the first ``limit`` from below them pushes the last one there out:
#: only when it is itself at least this share as relevant as that one. remember() notes later
#: versions between memories that merely concern the same thing ("I'm okay with cilantro now"
#: after "my favourite dish is mapo tofu"); lifted in over a right answer four times as relevant
#: they cost the personal sets' single and cross-lingual questions more of R@5 than the lift won
#: elsewhere. 0.25-0.3 keep every update question's gain; 0.35 lost some (docs/benchmarks.md,
#: "Recall, round 8").
NEWER_FIRST_PUSH_OUT = 0.25
#: Two of the first results that may state one thing with two values, told at different times,
#: but that nothing links — the review queue missed the update when it was told (it links about
#: 70 % of real updates; on a new person's data fewer) — are ordered by ``created_at`` too,
#: judged at recall time as ``remember`` would have judged them (``_unlinked_versions``). Only
#: within the first this many results: a lift from below them changed R@5 both ways on the
#: personal sets (−0.01 with the queue's links, +0.01 without), reordering within them never
#: changes what the first five hold (docs/benchmarks.md, "Recall, round 9").
UNLINKED_CANDIDATES = 5
#: How many changes on from the first results recall follows a chain of linked versions (a
#: bus commute, then by car to the care home, then by car to the hospital: two).
CHAIN_LINKS = 3
#: How many memories the keyword index is asked for when looking for the name the store gives
#: the user's partner (我老公叫刘洋: ``aliases.partners_in``), as ``remember`` asks.
DECLARATIONS = 8
#: The candidates, most relevant first, read for the attribute a question asks about.
ATTRIBUTE_CANDIDATES = 60
#: ... and a newer one so judged moves up only over memories at most ten times as relevant as
#: itself: a chain of such moves put a memory at relevance 0.02 above the answer at 0.6. Nor,
#: unless the question asks how things stand now, does one a pending conflict or a note links
#: move over an older one ten times as relevant (review13 J3: a habit the queue paired with a
#: favourite café, at 0.02, over the café at 0.48).
UNLINKED_SHARE = 0.1
#: A newer memory that announces a change (now, moved, 现在 …) is judged a later version of one
#: at least this alike, as ``remember`` judges them (``lifecycle.SUCCESSOR_SIMILARITY``).
UNLINKED_SIMILARITY = 0.45
#: Two memories less alike than this are not compared: ``remember`` compares a new memory that
#: announces a change with neighbours down to ``lifecycle.CHANGE_FLOOR`` (0.30), others down to
#: ``LifecycleConfig.conflict_threshold`` (0.35).
UNLINKED_FLOOR = 0.30
#: Memories told together: stored within this many places of each other and made at the same
#: moment, i.e. turns of one conversation imported at once (a chat log, LoCoMo's sessions).
#: Each candidate's logit gains ``FusionConfig.context`` × the relevance of the most relevant
#: such neighbour (docs/design.md, "Recall, round 5").
CONTEXT_TURNS = 3
#: The most relevant candidates whose neighbours join the candidates: the answer turn next to
#: the question's turn need not share a word with the question nor be near it in meaning. (3,
#: 5, 10 and 20 found the same on LoCoMo; each anchor costs up to six rows read.)
CONTEXT_ANCHORS = 5
#: The recency weight of the ranking for a question about the present ("what car do I drive
#: now?", "我现在多重？"): the later of two memories about it is the answer, whether or not
#: ``remember`` linked them (on the personal sets most updates told in the other language or
#: without a change word were not). With it, a memory made today counts up to three times one
#: made a year ago; flat from 1.5 to 3 on every dev set (docs/benchmarks.md, "Round 5").
PRESENT_RECENCY = 2.0
#: A query of several lines (a dialogue so far, notes then a question) is embedded as a whole
#: plus this much of its last line, the question it asks: embedded whole, the earlier turns
#: outweigh it. On MADial's raw dialogue histories R@5 +0.02 in both languages; the chat query,
#: which already repeats the last turn, moved by under a question (docs/benchmarks.md, "Round 7").
LAST_LINE_WEIGHT = 0.2
#: ... and its last line is repeated this many more times in the text embedded (what the chat
#: page's query builder did alone until round 13): so a transcript given to plain ``recall`` is
#: read as the chat page's query is. 1 or 3 lose on MADial en and zh (docs/benchmarks.md,
#: "Recall, round 13").
LAST_LINE_REPEATS = 2


#: A name inside a sentence (a capital not at its start): "Otto" of "My manager at Otto is
#: Stefan". Only a name an earlier text held says a question is about that text: its ordinary
#: words ("live" of "I live in Berlin") are asked about now too ("Where do I live?").
_NAME = re.compile(r"(?<=[^\s.!?]\s)[A-Z][\w'-]*")


FITTED_EMBEDDER = (
    f"{UseEmbedder.name}:{UseEmbedder.dim}"  # FusionConfig's weights were fitted on it
)


@dataclass
class _Found:
    """The candidates of one recall, as the searches report them."""

    stored: dict[str, StoredMemory] = field(default_factory=dict)
    buffered: dict[str, ShortTerm] = field(default_factory=dict)
    cosines: dict[str, float] = field(default_factory=dict)
    bm25: dict[str, float] = field(default_factory=dict)
    vector_ranks: dict[str, int] = field(default_factory=dict)
    keyword_ranks: dict[str, int] = field(default_factory=dict)
    coverage: dict[str, float] = field(default_factory=dict)
    in_period: set[str] = field(default_factory=set)  # made in the period the query names
    #: habits and plans, asked what was done in a period: of no one occasion (``tells_no_doing``)
    no_occasion: set[str] = field(default_factory=set)
    #: earlier texts of a candidate that held in the period the query names (records.REPLACED)
    earlier: dict[str, tuple[EarlierText, ...]] = field(default_factory=dict)
    other_script: set[str] = field(default_factory=set)  # written in another script than the query
    #: the relevance of the most relevant memory told together with it (``CONTEXT_TURNS``)
    context: dict[str, float] = field(default_factory=dict)
    #: the query's index terms and their rarity (BM25's idf) in this store, read once per recall
    idf: dict[str, float] | None = None
    #: memories marked secret are not searched (an answer for an assistant): see Recaller.recall
    without_secrets: bool = False

    def add_vector(self, key: str, cosine: float, rank: int) -> None:
        self.cosines[key] = max(cosine, self.cosines.get(key, cosine))
        self.vector_ranks.setdefault(key, rank)

    def add_keyword(self, key: str, bm25: float, rank: int) -> None:
        self.bm25[key] = max(bm25, self.bm25.get(key, bm25))
        self.keyword_ranks.setdefault(key, rank)

    def keyword_only(self) -> list[str]:
        return [key for key in self.bm25 if key not in self.cosines]

    def candidates(self) -> list[Candidate]:
        return [
            Candidate(
                key,
                cosine,
                self.bm25.get(key),
                self.vector_ranks.get(key),
                self.keyword_ranks.get(key),
                self.coverage.get(key, 0.0),
                key in self.in_period,
                key in self.other_script,
                self.context.get(key, 0.0),
                key in self.no_occasion,
            )
            for key, cosine in self.cosines.items()
        ]

    def record(self, key: str) -> MemoryRecord:
        if key in self.stored:
            return self.stored[key].record
        return self.buffered[key].record

    def records(self) -> dict[str, MemoryRecord]:
        found = {key: row.record for key, row in self.stored.items()}
        found.update((key, item.record) for key, item in self.buffered.items())
        return found


@dataclass(frozen=True, slots=True)
class _Members:
    """What a memory holds when it names a member of a kind: any of ``terms`` (index terms of
    the members' words) or, in its text, any of ``cjk`` (the members written in CJK)."""

    terms: frozenset[str]
    cjk: tuple[str, ...]

    def named_in(self, held: frozenset[str], text: str) -> bool:
        return bool(self.terms & held) or any(word in text for word in self.cjk)


@dataclass(frozen=True, slots=True)
class _QueryTerms:
    """What recall reads from a query's words, the same for every store content: worked out once
    per query (a chat asks the same dialogue again and again; tokenizing it twice per recall,
    and once more through FTS5's tokenizer, was a tenth of the search's CPU time)."""

    words: list[str]  # query_terms(query)
    match: str | None  # the FTS5 MATCH expression, None without a searchable term
    index_terms: list[str]  # the words as the keyword index holds them (stems, bigrams), distinct
    cjk: bool = False  # written mostly in CJK characters (localmind.cjk.mostly_cjk)
    #: of ``index_terms``, those that name a kind the question asks about ("pets"), each with
    #: what a memory that names a member holds: member index terms, and CJK member words
    #: (matched in the text: a lone 狗 is indexed only inside bigrams). See localmind.kinds.
    kinds: dict[str, _Members] = field(default_factory=dict)


@dataclass(slots=True)  # not frozen, as ranking.Candidate: one per candidate, made fast
class _Ranked:
    """A candidate that passed the threshold, with its score; its breakdown is built only if
    it is returned."""

    memory: MemoryRecord
    found: Relevance
    score: float
    # a newer memory that may replace it: a pending conflict's newer side, among the results
    # or not (``_marked_outdated``), or one moved above it
    superseded_by: str | None = None
    moved_above: str | None = None  # an earlier memory it was moved above (see _newer_first)
    superseded_at: float | None = None  # when the newer memory of ``superseded_by`` was made
    earlier: tuple[EarlierText, ...] = ()  # its earlier texts that held in the period asked


class Recaller:
    """Searches one namespace of a store (and its session buffer). Owned by a ``Memory``."""

    def __init__(
        self,
        store: SqliteStore,
        embedder: Embedder,
        *,
        namespace: str,
        settings: Settings,
        clock: Callable[[], float],
        short_term: RingBuffer[ShortTerm],
        governance: Governance,
        llm: LLM | None,
        reranker: Reranker | None,
    ) -> None:
        self._store = store
        self.embedder = embedder
        self.namespace = namespace
        self.settings = settings
        self._clock = clock
        self._short_term = short_term
        self._governance = governance
        self.llm = llm
        self.reranker = reranker
        # The other-script term adds weight x cosine, fitted on the bundled model's cosines
        # (unrelated texts ~0.1-0.3). Another model's cosines sit elsewhere (e5's unrelated
        # texts reach 0.75), where the same term would lift every memory in the other script
        # above the answer: it is off until it is fitted for that model.
        self._fitted_embedder = embedder.identity == FITTED_EMBEDDER
        self._query_vectors: OrderedDict[str, Vectors] = OrderedDict()
        self._earlier_vectors: OrderedDict[str, Vectors] = OrderedDict()
        self._terms: OrderedDict[str, frozenset[str]] = OrderedDict()
        self._scripts: OrderedDict[str, bool] = OrderedDict()
        self._no_doing: OrderedDict[str, tuple[bool, bool]] = OrderedDict()
        self._attributes: OrderedDict[str, frozenset[str]] = OrderedDict()
        self._slots: OrderedDict[str, frozenset[str]] = OrderedDict()
        self._frames: dict[tuple[str, int], TimeFrame | None] = {}
        # the period each memory's own words name, by its text and when it was told
        self._own_periods: OrderedDict[tuple[str, float], TimeFrame | None] = OrderedDict()
        self._query_terms: OrderedDict[str, _QueryTerms] = OrderedDict()
        self._families: dict[str, tuple[str, ...]] | None = None  # localmind.derivations
        # how many secret memories hold each term, for the store's list of them it was built from
        self._secret_terms: tuple[list[MemoryRecord], Counter[str]] | None = None
        # the user's partners' names (_partners), with the namespace and words_version read at
        self._partners_read: tuple[tuple[str, int], frozenset[tuple[str, str]]] | None = None

    def clear_cache(self) -> None:
        """Forget cached query vectors and memory terms (after a forget, or a re-embedding)."""
        self._query_vectors.clear()
        self._earlier_vectors.clear()
        self._terms.clear()
        self._scripts.clear()
        self._no_doing.clear()
        self._attributes.clear()
        self._slots.clear()
        self._query_terms.clear()
        self._secret_terms = None
        self._partners_read = None

    def recall(
        self,
        query: str,
        limit: int = 5,
        *,
        types: Sequence[MemoryType | str] | MemoryType | str | None = None,
        threshold: float | None = None,
        touch: bool = True,
        hyde: bool = False,
        rerank: bool | None = None,
        source: str | None = None,
        secrets: bool = True,
    ) -> list[RecallResult]:
        """The memories most relevant to ``query``, best first, each with its score breakdown.

        Hybrid: vector KNN and BM25 keyword candidates (plus the short-term buffer) get a
        calibrated probability of relevance from both searches' scores (see
        ``localmind.ranking``), then are ranked by the multi-factor formula. Candidates whose
        relevance is below ``threshold`` are dropped (0 keeps all). By default nothing is
        returned when even the best is below ``FusionConfig.min_relevance`` (or
        ``min_relevance_unmatched`` when no candidate holds a word of the query), so a query with
        nothing relevant returns nothing; else candidates down to a small share of the best are
        kept. A newer memory that may replace an earlier one ranks above it.

        ``touch``: note the returned memories as recalled (``last_accessed``, which maintenance
        reads). Never a use: the ranking does not read it.

        ``hyde``: also search with the embedding of a hypothetical answer written by the LLM
        (HyDE); a memory's vector similarity is the better of the two. Skipped, silently, when
        no LLM can answer.

        ``rerank``: rescore the best ``RERANK_CANDIDATES`` candidates with the reranker's
        cross-encoder; None means: whenever a reranker is configured.

        ``source``: only memories from it (``records.from_source``), among the candidates the
        searches found (not searched for apart: a source with few memories among many may
        return fewer).

        ``secrets=False`` (an answer for an assistant): memories marked secret are searched as if
        they were not stored — not candidates, not counted in the other candidates' ranks, nor in
        the rarity of the query's words — so what is returned, and its scores, cannot tell an
        assistant whether a guess ("is my PIN 4821?") matches a secret.
        """
        started = time.perf_counter()
        query = validation.content(query, self.settings.limits, what="The query")
        limit = validation.limit(limit, self.settings.limits)
        fusion = self.settings.fusion
        chosen = None if threshold is None else validation.threshold(threshold)
        wanted = validation.memory_types(types)
        source = None if source is None else validation.source(source)
        if rerank and self.reranker is None:
            raise InvalidInput(
                "No reranker is configured: open the store with reranker=, e.g. "
                "FastembedReranker(<model name or directory>), or recall with rerank=False."
            )
        stored_types = [str(t) for t in wanted or [] if t is not MemoryType.SHORT_TERM]
        search_store = not wanted or bool(stored_types)
        search_buffer = not wanted or MemoryType.SHORT_TERM in wanted
        depth = max(limit * fusion.candidates_per_result, fusion.min_candidates)
        loading_before = model_loads.seconds
        query_vector = self.query_vector(query)
        embedded = time.perf_counter()
        # the first query of a process may load the model (or wait for a warm-up loading it):
        # that is reported apart, so the embedding figure describes embedding a query
        loaded = min(model_loads.seconds - loading_before, embedded - started)
        # Embedded as written; read (time phrases, cues, keywords) as Simplified: 上個月 is 上个月
        query = simplified(query)

        found = _Found(without_secrets=not secrets)
        hyde_vector = self._hyde_vector(query) if hyde else None
        frame = self._time_frame(query)
        if search_store:
            self._search_store(query, query_vector, hyde_vector, depth, stored_types, found)
            if frame is not None:
                self._search_period(frame, query_vector, depth, stored_types, found)
        if search_buffer and len(self._short_term):
            self._search_buffer(query, query_vector, hyde_vector, found)

        self._describe(query, query_vector, frame, found, list(found.cosines))
        relevant = relevance(found.candidates(), fusion)
        if search_store and fusion.context:
            relevant = self._with_context(query, query_vector, frame, stored_types, relevant, found)
        if self.reranker is not None and rerank is not False:
            relevant = self._rerank(query, relevant, found.records())
        threshold = chosen if chosen is not None else _default_threshold(relevant, found, fusion)
        # a memory that sets what the question asks about is kept whatever the bar (review10
        # F11, F17: "What's my partner's name?" returned nothing beside "I'm engaged to Mei")
        asked = self._asked_attribute(query, relevant, found) if chosen is None else set()

        now = self._clock()
        weights, decay = self._ranking_for(query), self.settings.decay
        ranked = []
        for item in relevant:
            record = found.record(item.candidate.key)
            if record.expires_at is not None and record.expires_at <= now:
                continue
            if item.probability < threshold and item.candidate.key not in asked:
                continue
            if source is not None and not from_source(record.source, source):
                continue
            ranked.append(
                _Ranked(
                    record,
                    item,
                    score_value(record, item, now, weights, decay),
                    earlier=found.earlier.get(record.id, ()),
                )
            )
        ranked.sort(key=lambda entry: entry.score, reverse=True)
        # the full breakdown only for what is returned: the same figures, built a few times
        results = [
            self._result(entry, now, weights)
            for entry in self._marked_outdated(
                self._newer_first(
                    ranked,
                    limit,
                    found,
                    asked_now=self._slots_asked_now(query),
                    asks_current=_asks_a_current_attribute(query),
                    period_start=None if frame is None else frame.start,
                )[:limit]
            )
        ]
        if touch:
            recalled = [
                found.stored[r.memory.id].rowid for r in results if r.memory.id in found.stored
            ]
            finished = time.perf_counter()

            committed: list[Callable[[], None]] = []

            def note_use() -> None:
                committed.append(self._store.mark_recalled(recalled, now))
                self._governance.record_latency(
                    (embedded - started - loaded) * 1000,
                    (finished - embedded) * 1000,
                    now,
                    load_ms=loaded * 1000,
                )

            # Skipped while another program writes for long (an import): an answer matters
            # more than one use count.
            if self._store.write_unless_busy(note_use):
                for keep_rows in committed:
                    keep_rows()
        return results

    def _describe(
        self,
        query: str,
        query_vector: Vectors,
        frame: TimeFrame | None,
        found: _Found,
        keys: list[str],
    ) -> None:
        """What the fusion reads of the candidates ``keys`` besides the searches' scores: their
        keyword coverage, script and whether they were made in the period the query names."""
        found.coverage.update(self._coverage(query, found, keys))
        if self._fitted_embedder:
            asked_in_cjk = self._terms_of_query(query).cjk
            found.other_script.update(
                key for key in keys if self._in_cjk(found.record(key)) != asked_in_cjk
            )
        if frame is not None:
            asked = _last_line(query)
            doings = told_in_the_past(asked)
            # a habit is evidence against only when asked: a chat turn that tells of a period
            # ("他今天又在课上捉弄人了") may be answered by one (MADial)
            asking = doings and is_a_question(asked)
            for key in keys:
                told_of = self._tells_of(frame, found.record(key), doings)
                if told_of:
                    found.in_period.add(key)
                elif told_of is None and asking:
                    found.no_occasion.add(key)
            self._period_words_alone(query, frame, found, keys)
            if read(asked).single_slots or not doings:
                # what held then answers "where did I live in 2024?", not "where did I go last
                # summer?" (review11 Z4: every current fact whose earlier text was told that
                # summer came before the trip)
                self._held_then(query, frame, query_vector, found, keys)
        else:
            self._held_before(query, query_vector, found, keys)
        self._now_words_alone(query, query_vector, found, keys)

    def _now_words_alone(
        self, query: str, query_vector: Vectors, found: _Found, keys: list[str]
    ) -> None:
        """A question about now that asks one-value attributes of someone ("我现在在哪里工作？")
        is read without its words about the present ("now", 现在): a memory's own "now" is
        the moment it was told, and of another attribute ("我现在住在杭州西湖区") it is no
        evidence (review11 Z3: the residence came first by its 现在 and by a cosine that
        "现在…在哪里" brought near it). Such a candidate gets no keyword evidence from those
        words, and its cosine is the one with the question without them; and,
        for one attribute asked, a memory that sets it holds its words (上班 or "产品经理"
        for 工作). Recency answers "now" instead (``PRESENT_RECENCY``)."""
        asked = _last_line(query)
        wanted = _slots_asked(asked)
        words = words_about_now(asked) if wanted else []
        if not words:
            return
        head = query[: len(query) - len(asked)]
        without = head + re.sub("|".join(re.escape(word) for word in words), " ", asked)
        kept = set(self._terms_of_query(without).index_terms)
        dropped = set(self._terms_of_query(query).index_terms) - kept
        if not dropped:
            return
        other = []
        for key in keys:
            told = _cached(self._slots, found.record(key), _slots_told)
            # "汤姆现在在…上班" keeps its 现在: it is of the attribute asked
            if told and not told & wanted:
                self._no_evidence_from(dropped, kept, found, key)
                other.append(key)
        if len(wanted) == 1:
            self._attribute_words_held(wanted, found, keys)
        if without.strip() and other:
            plain_vector = self.query_vector(without)
            rowids = {found.stored[key].rowid: key for key in other if key in found.stored}
            for rowid, blob in self._store.vectors_for(list(rowids)).items():
                key = rowids[rowid]
                found.cosines[key] = float(np.frombuffer(blob, dtype=np.float32) @ plain_vector)

    def _attribute_words_held(self, wanted: frozenset[str], found: _Found, keys: list[str]) -> None:
        """Candidates that set the user's one-value attribute ``wanted`` hold the question's
        words for it (``statement.SINGLE_SLOTS``): their coverage gains those words' share.
        Only for a question about now (``_now_words_alone``): asked of every question ("car"
        held by "I drive a Corolla") the older values rose with the current one (rec12k)."""
        if not found.idf:
            return
        words = " ".join(word for word, slot in SINGLE_SLOTS.items() if slot in wanted)
        slot_terms = set(self._store.terms(words)) & set(found.idf)
        mass = sum(found.idf.values())
        if not slot_terms or mass <= 0:
            return
        for key in keys:
            record = found.record(key)
            if _cached(self._attributes, record, _attributes_told) & wanted:
                missing = sorted(slot_terms - self._terms_of(record))  # summed in a fixed order
                share = sum(found.idf[term] for term in missing) / mass
                found.coverage[key] = found.coverage.get(key, 0.0) + share

    def _tells_of(self, frame: TimeFrame, record: MemoryRecord, doings: bool) -> bool | None:
        """Whether a memory may tell of the period the query names (review9 M3). Its own words
        may place what it tells in that period (``period_told_of``: "went to Copenhagen last
        weekend", 上周五…, read from the day it was told; a period no longer than the query's:
        "moved to Berlin in November" says nothing of one Friday of it). Else it was told in
        the period (what someone said that day), or in the days after it (``TimeFrame.
        may_tell``) if its words name no other period ("a meeting with the landlord on
        Friday", told on the Tuesday after the weekend asked about, is the coming Friday's),
        For a question about what was done (``doings``: "what did I do …?"), a habit or a plan
        ("every Wednesday", "plans a trip to Kyoto", "an allergy in spring": ``tells_no_doing``)
        is None, whenever it was told: of no one occasion, it is no answer (review10 F15); one
        told in the past tense as well is only not of the period (False)."""
        own = self._own_period(record)
        if (
            own is not None
            and own.start < frame.end
            and frame.start < own.end
            and own.end - own.start <= max(frame.end - frame.start, 86_400.0)
        ):
            return True
        if self._told_of_elsewhere(frame, record):
            # "last month" told on 1 November is October: not November's, though told in it
            # (review11 Z15)
            return False
        told = record.created_at
        told_then = frame.start <= told < (frame.end if own is not None else frame.told_until)
        # the statement is read (milliseconds) only of those told then or with a habit's words
        if doings and (told_then or says_habit_or_plan_words(record.content)):
            no_doing, told_as_done = _cached(self._no_doing, record, _habit_told)
            if no_doing:
                # told as such, it is evidence against; a long chat turn with a habit word in
                # it ("Writing isn't always easy…") may tell what was done as well
                return False if told_as_done else None
            if told_then and told >= frame.end and not told_as_done:
                # told in the days after, in the present ("我现在住在北京", "my work e-mail
                # is …" told this morning): how things are, not what was done then (review11
                # Z1: the morning's facts answered "what did I do yesterday?")
                return False
        return told_then

    def _own_period(self, record: MemoryRecord) -> TimeFrame | None:
        """The period a memory's own words place what it tells in (``period_told_of``), cached
        by its text and when it was told."""
        key = (record.content_hash or record.content, record.created_at)
        if key in self._own_periods:
            return self._own_periods[key]
        own = self._own_periods[key] = period_told_of(record.content, record.created_at)
        if len(self._own_periods) > _TERMS_CACHE_SIZE:
            self._own_periods.popitem(last=False)
        return own

    def _held_then(
        self, query: str, frame: TimeFrame, query_vector: Vectors, found: _Found, keys: list[str]
    ) -> None:
        """Candidates whose earlier text held in the period the query names ("where did I
        live in 2024?" — the memory now says "We moved to Lisbon", its earlier text "I live in
        Berlin" held from 2024 until the move) count as made in it, and as near the query as
        that text is: the answer is what it said then, in the question's language when it was
        told in both. Rare (a resolved change), so the earlier text is embedded when asked, and
        cached."""
        for key in keys:
            if self._give_earlier(query, query_vector, found, key, frame.start, frame.told_until):
                found.in_period.add(key)

    def _period_words_alone(
        self, query: str, frame: TimeFrame, found: _Found, keys: list[str]
    ) -> None:
        """The words that name the period asked about are no evidence of what happened in it
        when a candidate's own words put them elsewhere: "today" in a diary line of March
        ("Today I went to the dentist") is that March day, not the day asked about, and "last
        month" told on 1 November is October (review11 Z15, Z17). Such a candidate gets no
        keyword evidence from them (none at all when it shares no other word of the question).
        The words of a season ("last spring", 今年春天) are no evidence for any candidate ("I
        have a mild pollen allergy in spring."): every candidate's cosine is also the one with
        the question without them ("Where did I go?"). The period is read from its dates
        instead (``in_period``; review10 F27)."""
        asked = _last_line(query)
        at = asked.rfind(frame.phrase)
        if at < 0:
            return
        without = query[: len(query) - len(asked) + at] + asked[at + len(frame.phrase) :]
        kept = set(self._terms_of_query(without).index_terms)
        dropped = set(self._terms_of_query(query).index_terms) - kept
        if not dropped:
            return
        season = names_a_season(frame.phrase)
        for key in keys:
            if season or self._told_of_elsewhere(frame, found.record(key)):
                self._no_evidence_from(dropped, kept, found, key)
        if not season or not without.strip():
            return
        plain_vector = self.query_vector(without)
        rowids = {found.stored[key].rowid: key for key in keys if key in found.stored}
        for rowid, blob in self._store.vectors_for(list(rowids)).items():
            key = rowids[rowid]
            found.cosines[key] = float(np.frombuffer(blob, dtype=np.float32) @ plain_vector)

    def _told_of_elsewhere(self, frame: TimeFrame, record: MemoryRecord) -> bool:
        """Whether a memory's own words place what it tells in a period that does not meet
        ``frame``, both named only from the day they are said (``named_from_the_day``): its
        "today", "last month", 上个月 read from the day it was told, not from today."""
        own = self._own_period(record)
        return (
            own is not None
            and not (own.start < frame.end and frame.start < own.end)
            # named only from the day, in both: "Thanksgiving" in a memory is no other period
            # than the question's "Thanksgiving last year" (its own reading of a bare holiday
            # may be the coming one)
            and named_from_the_day(frame.phrase)
            and named_from_the_day(own.phrase)
        )

    def _no_evidence_from(self, dropped: set[str], kept: set[str], found: _Found, key: str) -> None:
        """Candidate ``key`` gets no keyword evidence from the query's terms ``dropped``: no
        BM25 match at all when it holds none of the others (``kept``), else a coverage without
        their share (BM25 is FTS5's, of the whole query: left as it is)."""
        held = self._terms_of(found.record(key))
        if not held & kept:
            found.bm25.pop(key, None)
            found.keyword_ranks.pop(key, None)
            found.coverage[key] = 0.0
            return
        idf = found.idf or {}
        mass = sum(idf.values())
        if mass > 0 and key in found.coverage:
            share = sum(weight for term, weight in idf.items() if term in dropped & held) / mass
            found.coverage[key] = max(found.coverage[key] - share, 0.0)

    def _held_before(
        self, query: str, query_vector: Vectors, found: _Found, keys: list[str]
    ) -> None:
        """A question about the past that names no period ("Who was my manager at Otto?",
        "我以前住在哪里？") is answered by what a change replaced too: candidates give every
        earlier text, and count as near the query as the nearest, when the question asks about
        an earlier time (``asks_about_the_past``) or names a word only an earlier text of that
        memory holds ("at Otto" after Otto became Zalando). No period: nothing counts as made
        in one, and a question about now is unchanged (review10 F24)."""
        past = asks_about_the_past(_last_line(query))
        asked = set(self._terms_of_query(query).index_terms)
        for key in keys:
            record = found.record(key)
            earlier = replaced_texts(record.metadata) if record.metadata else []
            if not earlier:
                continue
            if not past:
                names = " ".join(name for text in earlier for name in _NAME.findall(text))
                only_earlier = set(self._store.terms(names)) - set(
                    self._store.terms(record.content)
                )
                if not asked & only_earlier:
                    continue
            self._give_earlier(query, query_vector, found, key, -math.inf, math.inf)

    def _give_earlier(
        self,
        query: str,
        query_vector: Vectors,
        found: _Found,
        key: str,
        start: float,
        end: float,
    ) -> bool:
        """Notes the earlier texts of candidate ``key`` that held in ``[start, end)`` as what it
        answers, in the question's language when told in both, and lifts its cosine to the
        nearest of them; whether there were any."""
        record = found.record(key)
        if not record.metadata:
            return False
        asked_in_cjk = self._terms_of_query(query).cjk

        def in_its_script(text: str) -> bool:  # of a fact told in two languages, the asked one
            return mostly_cjk(text) == asked_in_cjk

        held = held_during(record, start, end, in_its_script)
        if not held:
            return False
        found.earlier[key] = held
        cosines = [float(self._earlier_vector(e.text) @ query_vector) for e in held]
        found.cosines[key] = max([found.cosines[key], *cosines])
        return True

    def _earlier_vector(self, text: str) -> Vectors:
        key = content_hash(text)
        cached = self._earlier_vectors.get(key)
        if cached is None:
            cached = self._earlier_vectors[key] = self.embedder.embed_documents([as_told(text)])[0]
            if len(self._earlier_vectors) > _QUERY_CACHE_SIZE:
                self._earlier_vectors.popitem(last=False)
        return cached

    def _with_context(
        self,
        query: str,
        query_vector: Vectors,
        frame: TimeFrame | None,
        types: list[str],
        relevant: list[Relevance],
        found: _Found,
    ) -> list[Relevance]:
        """``relevant`` again with each candidate lifted by the memories told together with it
        (``CONTEXT_TURNS``): the neighbours of the ``CONTEXT_ANCHORS`` most relevant join the
        candidates first. A store of memories told one by one has no such neighbours: then
        nothing changes."""
        fusion = self.settings.fusion
        anchors = [
            found.stored[r.candidate.key].rowid
            for r in relevant[:CONTEXT_ANCHORS]
            if r.candidate.key in found.stored
        ]
        known = {row.rowid for row in found.stored.values()}
        fresh = [
            rowid
            for rowid in self._store.told_together(anchors, CONTEXT_TURNS, self.namespace, types)
            if rowid not in known
        ]
        if fresh:
            rows = self._store.recall_rows(fresh)
            vectors = self._store.vectors_for(fresh)
            added = []
            for rowid, row in rows.items():
                if rowid in vectors and not (found.without_secrets and row.record.secret):
                    key = row.record.id
                    found.stored[key] = row
                    found.cosines[key] = float(
                        np.frombuffer(vectors[rowid], dtype=np.float32) @ query_vector
                    )
                    added.append(key)
            self._describe(query, query_vector, frame, found, added)
            relevant = relevance(found.candidates(), fusion)
        elif len({row.record.created_at for row in found.stored.values()}) == len(found.stored):
            return relevant  # no two candidates made at one moment: none told together (cheap)
        found.context = _told_with(relevant, found)
        return lifted(relevant, found.context, fusion) if found.context else relevant

    def _ranking_for(self, query: str) -> RankingWeights:
        """The ranking's weights for ``query``: recency counts for more when its last line asks
        how things stand now (``PRESENT_RECENCY``)."""
        weights = self.settings.ranking
        if asks_about_now(_last_line(query)) and weights.recency < PRESENT_RECENCY:
            return replace(weights, recency=PRESENT_RECENCY)
        return weights

    def _result(self, entry: _Ranked, now: float, weights: RankingWeights) -> RecallResult:
        breakdown = score(entry.memory, entry.found, now, weights, self.settings.decay)
        if entry.superseded_by is not None or entry.moved_above is not None:
            breakdown = replace(
                breakdown,
                superseded_by=entry.superseded_by,
                superseded_at=entry.superseded_at,
                moved_above=entry.moved_above,
            )
        # the store's cached row is shared (SqliteStore.recall_rows): the caller gets its own
        return RecallResult(
            copied(entry.memory, metadata=copy.deepcopy(entry.memory.metadata)),
            breakdown,
            entry.earlier,
        )

    def _search_store(
        self,
        query: str,
        query_vector: Vectors,
        hyde_vector: Vectors | None,
        depth: int,
        types: list[str],
        found: _Found,
    ) -> None:
        nearest = self._store.nearest(query_vector, depth, self.namespace, types or None)
        if hyde_vector is not None:
            nearest = _closest_of(
                nearest, self._store.nearest(hyde_vector, depth, self.namespace, types or None)
            )
        match = self._terms_of_query(query).match
        keyword = self._store.keyword(match, depth, self.namespace, types or None) if match else []
        rows = self._store.recall_rows(
            list(dict.fromkeys([r for r, _ in nearest] + [r for r, _ in keyword]))
        )
        if found.without_secrets:
            rows = {rowid: row for rowid, row in rows.items() if not row.record.secret}
            nearest = [(rowid, distance) for rowid, distance in nearest if rowid in rows]
            keyword = [(rowid, bm25) for rowid, bm25 in keyword if rowid in rows]
        found.stored.update((row.record.id, row) for row in rows.values())
        for rank, (rowid, distance) in enumerate(nearest, start=1):
            if rowid in rows:
                found.add_vector(rows[rowid].record.id, 1.0 - distance, rank)
        for rank, (rowid, bm25) in enumerate(keyword, start=1):
            if rowid in rows:
                # FTS5's bm25() is negative, lower better: negated, higher is better.
                found.add_keyword(rows[rowid].record.id, -bm25, rank)
        # Keyword-only candidates: their cosine comes from their stored vectors.
        missing = {
            found.stored[key].rowid: key for key in found.keyword_only() if key in found.stored
        }
        for rowid, blob in self._store.vectors_for(list(missing)).items():
            cosine = float(np.frombuffer(blob, dtype=np.float32) @ query_vector)
            found.cosines[missing[rowid]] = cosine

    def _search_buffer(
        self, query: str, query_vector: Vectors, hyde_vector: Vectors | None, found: _Found
    ) -> None:
        """The session's short-term buffer: exact cosine for each item; shared query terms
        count as a keyword match scored like BM25 of that many average terms."""
        probes = [query_vector] if hyde_vector is None else [query_vector, hyde_vector]
        terms = self._terms_of_query(query).words
        for item in self._short_term:
            if found.without_secrets and item.record.secret:
                continue
            key = item.record.id
            found.buffered[key] = item
            found.cosines[key] = max(float(item.vector @ probe) for probe in probes)
            text = item.record.content.casefold()
            shared = sum(1 for term in terms if term in text)
            if shared:
                found.bm25[key] = BUFFER_TERM_BM25 * shared

    def _time_frame(self, query: str) -> TimeFrame | None:
        """The past period the query's last line names ("last spring", "去年圣诞节"), if any. A
        future period ("next week") names plans, told before it: no use as a filter on dates."""
        # Only the last line: a chat's query is the dialogue so far, ending with the person's
        # latest turn, and earlier turns name periods in passing ("I got a book last week!"):
        # on MADial half the dialogues did, and those periods held a right answer once.
        asked = _last_line(query)
        if not might_mention_time(asked):
            return None
        now = self._clock()
        # Reading a phrase takes dateparser milliseconds; the same question in the same quarter
        # hour (every zone's midnight falls on one) names the same period.
        key = (asked, int(now // 900))
        if key in self._frames:
            frame = self._frames[key]
        else:
            frame = self._frames[key] = time_frame(asked, now)
            if len(self._frames) > _QUERY_CACHE_SIZE:
                del self._frames[next(iter(self._frames))]
        if frame is None or frame.start > now:
            return None
        if frame.end > now and not told_in_the_past(asked):
            # a period not over yet, asked of in the present ("a dinner recipe for tonight?",
            # "what do I have this week?"): what was told in it so far is only what is recent,
            # no answer (review9 M3b); "what did I do today?" still asks about it
            return None
        return frame

    def _search_period(
        self,
        frame: TimeFrame,
        query_vector: Vectors,
        depth: int,
        types: list[str],
        found: _Found,
    ) -> None:
        """Memories made in the period join the candidates even when neither search found
        them ("what did we do last Christmas?" need not share a word with "went skiing")."""
        rowids = self._store.created_between(
            frame.start, frame.told_until, depth, self.namespace, types or None
        )
        known = {row.rowid for row in found.stored.values()}
        fresh = [rowid for rowid in rowids if rowid not in known]
        if not fresh:
            return
        rows = self._store.recall_rows(fresh)
        vectors = self._store.vectors_for(fresh)
        for rowid, row in rows.items():
            if rowid in vectors and not (found.without_secrets and row.record.secret):
                found.stored[row.record.id] = row
                cosine = float(np.frombuffer(vectors[rowid], dtype=np.float32) @ query_vector)
                found.cosines[row.record.id] = cosine

    def _coverage(self, query: str, found: _Found, keys: list[str]) -> dict[str, float]:
        """Each of the candidates ``keys``'s share of the query's term rarity: Σ idf of the
        query terms it holds / Σ idf of all query terms (terms as the keyword index sees them;
        idf as BM25's). Unlike BM25 it does not grow with the query's length, so it says the
        same thing for a four-word question and a long dialogue."""
        asked = self._terms_of_query(query)
        terms = asked.index_terms
        if not terms or not keys:
            return {}
        if found.idf is None:
            documents = self._store.documents_with(terms)
            if found.without_secrets:
                documents = self._not_counting_secrets(documents)
            total_documents = max(self._store.size_estimate(), 1)
            found.idf = {
                term: math.log1p((total_documents - n + 0.5) / (n + 0.5))
                for term, n in documents.items()
            }
        idf = found.idf
        mass = sum(idf.values())
        if mass <= 0:
            return {}
        coverage = {}
        for key in keys:
            record = found.record(key)
            held = self._terms_of(record)
            coverage[key] = (
                sum(
                    weight
                    for term, weight in idf.items()
                    # naming a member ("a dog") holds the kind asked about ("pets")
                    if term in held
                    or (term in asked.kinds and asked.kinds[term].named_in(held, record.content))
                )
                / mass
            )
        return coverage

    def _not_counting_secrets(self, documents: dict[str, int]) -> dict[str, int]:
        """How many memories hold each term, the secret ones left out: a rare word of the query
        is rarer still when only a secret holds it, which would lift the others' coverage."""
        held = self._held_by_secrets(documents)
        return {term: max(n - held[term], 0) for term, n in documents.items()}

    def _names_a_secret(self, query: str) -> bool:
        """Whether the query holds a word that only memories marked secret hold."""
        documents = self._store.documents_with(self._terms_of_query(query).index_terms)
        held = self._held_by_secrets(documents)
        return any(held[term] >= n > 0 for term, n in documents.items())

    def _held_by_secrets(self, terms: Collection[str]) -> Counter[str]:
        """How many memories marked secret hold each of ``terms``: counted once per state of
        the store (the store keeps its list of secrets while none changed; a synthetic store
        of 10k memories has 556)."""
        secrets = self._store.secret_memories()
        counted = self._secret_terms
        if counted is None or counted[0] is not secrets:
            held = Counter(term for record in secrets for term in self._terms_of(record))
            counted = self._secret_terms = (secrets, held)
        return Counter({term: counted[1][term] for term in terms if term in counted[1]})

    def _terms_of_query(self, query: str) -> _QueryTerms:
        cached = self._query_terms.get(query)
        if cached is not None:
            self._query_terms.move_to_end(query)
            return cached
        words = query_terms(query)
        index_terms = list(dict.fromkeys(self._store.terms(" ".join(words[-MAX_QUERY_TERMS:]))))
        kinds = self._kinds_asked(_last_line(query), index_terms)
        # in a fixed order: a set's changes with the process (PYTHONHASHSEED), and so would
        # the order of the MATCH expression's phrases, whose parts FTS5's BM25 sums in that
        # order (scores a rounding apart from one run to the next, polish15)
        members = [word for named in kinds.values() for word in (*sorted(named.terms), *named.cjk)]
        relatives = self._relatives(index_terms)
        members += [word for family in relatives.values() for word in family]
        for term, family in relatives.items():
            # "allergies" is held by a memory that says "allergic" (localmind.derivations)
            held = _Members(frozenset(self._store.terms(" ".join(family))), ())
            kinds[term] = (
                _Members(kinds[term].terms | held.terms, kinds[term].cjk)
                if (term in kinds)
                else held
            )
        cached = self._query_terms[query] = _QueryTerms(
            words,
            # the members are searched for too: in a large store the memory that names the dog
            # need not be among the vector search's nearest to "any pets?"
            match_expression(" ".join([query, *members]) if members else query),
            index_terms,
            mostly_cjk(query),
            kinds,
        )
        if len(self._query_terms) > _QUERY_CACHE_SIZE:
            self._query_terms.popitem(last=False)
        return cached

    def _relatives(self, index_terms: list[str]) -> dict[str, tuple[str, ...]]:
        """Of ``index_terms``, those of a family of words (localmind.derivations), each with
        the family's words."""
        if self._families is None:
            self._families = by_stem(self._store.terms)
        families = self._families
        return {term: families[term] for term in index_terms if term in families}

    def _kinds_asked(self, question: str, index_terms: list[str]) -> dict[str, _Members]:
        """Of the question's ``index_terms``, those that name a kind it asks about, each with
        the kind's members as a memory holds them (localmind.kinds)."""
        asked: dict[str, _Members] = {}
        for kind in kinds_named(question):
            english = [word for word in kind.members if not in_cjk(word)]
            members = _Members(
                frozenset(self._store.terms(" ".join(english))),
                tuple(word for word in kind.members if in_cjk(word)),
            )
            for name in kind.names:
                for term in self._store.terms(_around(name, question)):
                    if term in index_terms:
                        asked[term] = members
        return asked

    def _terms_of(self, record: MemoryRecord) -> frozenset[str]:
        """A memory's index terms, from a cache keyed by its text's hash: tokenizing every
        candidate on every recall was a third of the search's CPU time at 10k memories. The
        texts a newer fact replaced count as its own (``records.REPLACED``): the question asked
        in the old fact's words is answered by the memory that holds the new one."""
        earlier = replaced_texts(record.metadata)
        if earlier:  # rare (a resolved change): not worth a cache entry
            return frozenset(self._store.terms("\n".join([record.content, *earlier])))
        return _cached(self._terms, record, lambda text: frozenset(self._store.terms(text)))

    def _asked_attribute(self, query: str, relevant: list[Relevance], found: _Found) -> set[str]:
        """The candidates, of the ``ATTRIBUTE_CANDIDATES`` most relevant, that set the one-value
        attribute of the user the question asks about ("my partner" / "I'm engaged to Mei",
        which shares no word with it and is not near it in meaning; review10 F11). A lift of
        their relevance lowered R@5 on the personal sets (the older values rose too): they are
        only spared the relevance bar."""
        if not self.settings.fusion.keep_asked_attribute:
            return set()
        wanted = _slots_asked(_last_line(query))
        if not wanted:
            return set()
        return {
            r.candidate.key
            for r in relevant[:ATTRIBUTE_CANDIDATES]
            if r.probability >= self.settings.fusion.min_relevance_kept
            and _cached(self._attributes, found.record(r.candidate.key), _attributes_told) & wanted
        }

    def _in_cjk(self, record: MemoryRecord) -> bool:
        """Whether a memory is written mostly in CJK characters, cached like its terms (the
        two regex counts cost about 2 ms per 100 candidates)."""
        return _cached(self._scripts, record, mostly_cjk)

    def _newer_first(
        self,
        results: list[_Ranked],
        limit: int,
        found: _Found,
        *,
        asked_now: frozenset[str] | None = None,
        period_start: float | None = None,
        asks_current: bool = False,
    ) -> list[_Ranked]:
        """Results where a newer memory that may replace an earlier one ranks below it are
        reordered: the newer one moves up to just above the earlier one (which so drops one
        place, not out of the top few). "May replace" is a pending conflict between them (the
        earlier one is then marked ``superseded_by``) or a change ``remember`` noted
        (``SqliteStore.later_versions``) between two memories at least ``NEWER_FIRST_SIMILARITY``
        alike or with the newer one about as relevant to the query as the older; unless the
        query asks how things stand now, the newer one must be at least ``UNLINKED_SHARE`` as
        relevant as the older (relevant on its own, not only by the link).
        Not when the query names the period the earlier one
        was made in and not the newer one's ("where did I live in 2024?"). A newer one from
        below the first ``limit`` comes into them only if it is at least
        ``NEWER_FIRST_PUSH_OUT`` as relevant as the one it pushes out; else, for a pending
        conflict, the earlier one drops to just below the newer instead. Only pairs whose
        earlier memory is in the first ``limit`` can change what is returned: only those are
        looked up. Two of the first ``UNLINKED_CANDIDATES`` that nothing links are judged here
        as ``remember`` would have (``_unlinked_versions``): the newer moves up over none more
        than 1 / ``UNLINKED_SHARE`` times as relevant as itself."""
        stored = self._stored_ids(results)
        top = [r.memory.id for r in results[:limit] if r.memory.id in stored]
        if not top or len(stored) < 2:
            return results
        # created_at decides which is newer (an import may add an older fact after a newer one)
        created = {r.memory.id: r.memory.created_at for r in results if r.memory.id in stored}
        texts = {r.memory.id: r.memory.content for r in results}
        # asked how things stand now, the latest of a chain of changes is the answer: the chain
        # is followed; else only the first results' own successors move (a chain of Lily's
        # school changes lifted over "What did Lily get on New Year's Eve?" pushed its answer
        # out of the first five)
        renamed = self._as_named()
        steps = CHAIN_LINKS if asked_now is not None else 1
        linked = self._links(top, created, texts, steps, renamed)
        conflicts = [(old, new) for old, new, close in linked if close is None]
        # pairs nothing links, judged now as remember() would have: they pass like a conflict,
        # and move only over memories about as relevant (below)
        judged = self._unlinked_versions(results, stored, linked, found, renamed)
        linked += [(old, new, None) for old, new in judged]
        if not linked and asked_now is None:  # the usual case: nothing can move
            return results
        relevance = {r.memory.id: r.found.probability for r in results}
        # of the period the query names, a memory was current then unless a newer one replaced
        # it before the period began: "thinking about Maui for Christmas" told in October is no
        # answer to "where did we spend Christmas 2025?" after "Scratch Maui — Portland" told
        # later in October (both plans for it; only the first says "this year")
        in_period = {r.memory.id for r in results if r.found.candidate.in_period}
        replaced_before = {
            (old, new)
            for old, new, _ in linked
            if period_start is not None and created[new] < period_start
        }
        pairs = [
            (old, new)
            for old, new, close in linked
            # the query asks about the earlier one's time: it was current then
            if (old not in in_period or new in in_period or (old, new) in replaced_before)
            # a newer memory the query barely concerns does not jump the queue: lifted from the
            # tail, such ones cost the personal set's cross-lingual questions 0.13 of R@5
            and relevance[new] >= NEWER_FIRST_RELEVANCE
            # unless the question asks how things stand now, or in the present tense for a
            # one-value attribute ("where do I live?": the move is the answer, however little
            # it concerns the question), a newer memory moves over an older one only when it
            # is relevant on its own, as one judged at recall time must be: a habit queued
            # against a favourite café on a bare 现在 (relevance 0.02) was listed above the
            # café (0.48) and called it outdated (review13 J3)
            and (
                asked_now is not None
                or asks_current
                or relevance[new] >= UNLINKED_SHARE * relevance[old]
            )
            and (
                # a pending conflict
                close is None
                # nor one remember() noted that is another fact, not a version of this one,
                # unless it answers the question too
                or close >= NEWER_FIRST_SIMILARITY
                or relevance[new] >= NEWER_FIRST_SHARE * relevance[old]
            )
        ]
        # asked how things stand now, an older memory is not the answer when a newer one
        # contradicts it (a pending conflict, or judged so now: "Sold the Golf" after "I drive
        # a VW Golf") or sets the same one-value attribute asked about ("我买了一辆特斯拉" after
        # "我开一辆大众高尔夫"), however little the newer one concerns the question (review11
        # F14, F24), within the first few: the older one drops to just below the newer one
        # (a sale is no answer either), or the newer one of the attribute asked moves up to
        # just above it (it is the answer: "The user moved to Lisbon" over "I live in Berlin")
        dropped_below = (
            [
                (old, new, False)
                for old, new, close in linked
                if close is None and (old, new) not in pairs and old not in in_period
            ]
            + [
                (old, new, True)
                for old, new in self._same_attribute_later(asked_now, results, stored)
            ]
            if asked_now is not None
            else []
        )
        if not pairs and not dropped_below:
            return results
        successor = {old: new for old, new in conflicts if (old, new) in pairs}
        ordered = list(results)
        for old, new, lift in dropped_below:
            positions = {r.memory.id: i for i, r in enumerate(ordered)}
            i, j = positions[old], positions[new]
            if i < j < min(limit, UNLINKED_CANDIDATES):
                ordered.insert(*(i, ordered.pop(j)) if lift else (j, ordered.pop(i)))
        moved_above: dict[str, str] = {}
        for _ in range(len(pairs)):  # a chain (A → B → C) settles in as many passes at most
            moved = False
            for old, new in pairs:
                positions = {r.memory.id: i for i, r in enumerate(ordered)}
                i, j = positions[old], positions[new]
                if i < limit <= j:
                    # lifted into the first `limit` from below them, the newer one would push
                    # the last one there out: only if it is about as relevant
                    pushed_out = ordered[limit - 1].memory.id
                    if relevance[new] < NEWER_FIRST_PUSH_OUT * relevance[pushed_out]:
                        if successor.get(old) == new:
                            # a pending conflict's earlier memory still never ranks above the
                            # newer one: it drops to just below it instead, out of the results
                            ordered.insert(j, ordered.pop(i))
                            moved = True
                        continue
                if i < j and (old, new) in judged:
                    # judged at recall time only: it jumps over none far more relevant (a chain
                    # of such moves lifted a barely relevant memory over the answer)
                    jumped = max(relevance[r.memory.id] for r in ordered[i:j])
                    if relevance[new] < UNLINKED_SHARE * jumped:
                        continue
                if i < j:
                    ordered.insert(i, ordered.pop(j))
                    moved_above[new] = old
                    moved = True
            if not moved:
                break
        # of a chain of pending conflicts (A → B → C) whose middle dropped below its newer one
        # (C too weak to push the last result out), the first was left above both, as the
        # answer ("I drive a BYD" over "Sold the BYD, got a Corolla" and "Sold the Corolla, got
        # a CR-V"): a pending conflict's earlier memory never ranks above the newer one
        for _ in range(len(successor)):
            settled = True
            for old, new in successor.items():
                positions = {r.memory.id: i for i, r in enumerate(ordered)}
                if positions[old] < positions[new]:
                    ordered.insert(positions[new], ordered.pop(positions[old]))
                    settled = False
            if settled:
                break
        # a moved memory says so (its lower score is above a higher one), naming the earlier
        # one only while that is still among the results returned above the cut
        positions = {r.memory.id: i for i, r in enumerate(ordered)}
        moved_above = {
            new: old for new, old in moved_above.items() if positions[new] < positions[old] < limit
        }
        reordered = []
        for r in ordered:
            newer = r.superseded_by or successor.get(r.memory.id)
            marks = (
                newer,
                None if newer is None else created.get(newer),
                moved_above.get(r.memory.id),
            )
            # copied only when a mark changes (replace() costs ~10 µs, and most keep theirs)
            if marks != (r.superseded_by, r.superseded_at, r.moved_above):
                r = replace(r, superseded_by=marks[0], superseded_at=marks[1], moved_above=marks[2])
            reordered.append(r)
        return reordered

    def _marked_outdated(self, returned: list[_Ranked]) -> list[_Ranked]:
        """``returned`` with each earlier memory of a pending conflict marked ``superseded_by``
        its newer memory, wherever that one is (among the results or not), when the newer one
        may replace all the earlier says (``profile.replaced_while_pending``: "We moved to
        Lisbon" of "I live in Berlin, in a flat in Kreuzberg", asked "Tell me about
        Kreuzberg"). Not for a false pending about another thing (review13 J3: a matcha habit
        queued against a favourite café), which ``_newer_first`` marks only when the newer one
        is itself relevant. ``context`` gives these marks (``Memory.given``): before, recall
        marked only what had its newer one among the results and ``context`` every pending
        pair, so the two told an assistant and a person different things (review15a TW1)."""
        unmarked = {
            r.memory.id: r.memory
            for r in returned
            if r.superseded_by is None
            and r.memory.type is not MemoryType.SHORT_TERM
            # the query asks about its time ("where did I live in 2024?"): it was current then
            and not r.found.candidate.in_period
        }
        if not unmarked:
            return returned
        pairs = self._store.conflicts_involving(self.namespace, list(unmarked))
        if not pairs:
            return returned
        records: dict[str, MemoryRecord] = {}
        for memory_id in {memory_id for pair in pairs for memory_id in pair}:
            stored = self._store.get(memory_id)
            if stored is not None and stored.record.status is Status.ACTIVE:
                records[memory_id] = stored.record
        newer: dict[str, MemoryRecord] = {}
        renamed = self._as_named()
        for a, b in pairs:
            if a not in records or b not in records:
                continue
            old, new = (a, b) if records[a].created_at <= records[b].created_at else (b, a)
            if (
                old in unmarked
                and old not in newer
                and replaced_while_pending(unmarked[old], records[new])
                # of one thing beyond who, as a stored note must be (two drugs one doctor
                # gave: review15a TW2)
                and told_of_one_thing(
                    *renamed(unmarked[old].content, records[new].content), announced=True
                )
            ):
                newer[old] = records[new]
        return [
            replace(
                r, superseded_by=newer[r.memory.id].id, superseded_at=newer[r.memory.id].created_at
            )
            if r.memory.id in newer
            else r
            for r in returned
        ]

    def _as_named(self) -> Callable[[str, str], tuple[str, str]]:
        """Two texts with the partner's name the store gives written as the relation ("王芳现在
        在 Burnaby South 中学教数学" → "我太太现在…": ``aliases.by_partners_name``), as
        ``remember`` reads them: the wife's new job is no later version of Emma's school. The
        names are looked up (one keyword query) on the first pair asked about, once per
        recall."""
        partners: list[frozenset[tuple[str, str]]] = []

        def renamed(older: str, newer: str) -> tuple[str, str]:
            if not partners:
                partners.append(self._partners())
            return (
                aliases.by_partners_name(older, partners[0]),
                aliases.by_partners_name(newer, partners[0]),
            )

        return renamed

    def _partners(self) -> frozenset[tuple[str, str]]:
        """``aliases.partners_in`` of this namespace, kept while the memories' words stay the
        same (``words_version``): its keyword query and the rows it reads were 2 % of a
        recall's CPU at 100k memories, for an answer that changes only when a memory does."""
        version = self._store.words_version()
        held = self._partners_read
        if version is not None and held is not None and held[0] == (self.namespace, version):
            return held[1]
        partners = aliases.partners_in(self._store, self.namespace, DECLARATIONS)
        self._partners_read = None if version is None else ((self.namespace, version), partners)
        return partners

    def _links(
        self,
        top: list[str],
        created: dict[str, float],
        texts: dict[str, str],
        steps: int,
        renamed: Callable[[str, str], tuple[str, str]],
    ) -> list[tuple[str, str, float | None]]:
        """(older, newer, similarity) of each pending conflict (similarity None: a person was
        asked, and until they answer the newer one is taken as current) and each later version
        ``remember`` noted, among the results, whose older memory is one of ``top`` — or a
        newer memory linked so, up to ``steps`` links from them: of a chain of changes (the
        commute by bus, then by car to the care home, then by car to the hospital) the latest
        is lifted over the one lifted over the first, not just over the first (session 12)."""
        linked: list[tuple[str, str, float | None]] = []
        seen_pairs: set[tuple[str, str, bool]] = set()
        looked: set[str] = set()
        wanted = list(top)
        for _ in range(steps):
            looked.update(wanted)
            found: list[tuple[str, str, float | None]] = [
                (a, b, None) if created[a] <= created[b] else (b, a, None)
                for a, b in self._store.conflicts_involving(self.namespace, wanted)
                if a in created and b in created
            ]
            found += [
                (old, new, close)
                for old, new, close in self._store.later_versions(self.namespace, wanted)
                if new in created
                and created[old] <= created[new]
                # a note an earlier version wrote on a change word alone, about another person
                # or another thing ("Emma's new best friend" after "Emma's teacher"), is dropped
                # (review12 R5), the partner's name read as the partner (R3)
                and told_of_one_thing(texts[old], texts[new], announced=True)
                and told_of_one_thing(*renamed(texts[old], texts[new]), announced=True)
            ]
            for old, new, close in found:
                if (old, new, close is None) not in seen_pairs:
                    seen_pairs.add((old, new, close is None))
                    linked.append((old, new, close))
            wanted = list(dict.fromkeys(new for _, new, _ in found if new not in looked))
            if not wanted:
                break
        return linked

    @staticmethod
    def _slots_asked_now(query: str) -> frozenset[str] | None:
        """None unless the query's last line asks how things stand now; then the user's
        one-value attributes it asks about (none, for "what do I drink these days?")."""
        asked = _last_line(query)
        return _slots_asked(asked) if asks_about_now(asked) else None

    def _same_attribute_later(
        self, asked: frozenset[str], results: Sequence[_Ranked], stored: set[str]
    ) -> list[tuple[str, str]]:
        """(older, newer) pairs among the first ``UNLINKED_CANDIDATES`` results that both set
        one of the user's one-value attributes ``asked`` (facts, not episodic memories)."""
        if not asked:
            return []
        facts = [
            r.memory
            for r in results[:UNLINKED_CANDIDATES]
            if r.memory.id in stored and r.memory.type is not MemoryType.EPISODIC
        ]
        # what one does and for whom are one answer to "where do I work now?": a nurse at St.
        # Paul's is no longer current after "I joined Vancouver General" (review15 K4)
        asked = _work_as_one(asked)
        told = {
            m.id: _work_as_one(_cached(self._attributes, m, _attributes_told)) & asked
            for m in facts
        }
        return [
            (older.id, newer.id)
            for older in facts
            for newer in facts
            if newer.created_at > older.created_at and told[older.id] & told[newer.id]
        ]

    def _unlinked_versions(
        self,
        results: Sequence[_Ranked],
        stored: set[str],
        linked: Sequence[tuple[str, str, float | None]],
        found: _Found,
        renamed: Callable[[str, str], tuple[str, str]],
    ) -> list[tuple[str, str]]:
        """(older, newer) pairs among the first ``UNLINKED_CANDIDATES`` results that no conflict
        or later-version note links but that ``remember`` would have linked had it compared
        them: the newer may contradict the older (``localmind.suspicion.suspect``), or it
        announces a change to what the older tells (``announces_change_to``) and the two are
        at least ``UNLINKED_SIMILARITY`` alike; none less
        than ``UNLINKED_FLOOR`` alike, none a secret beside a plain memory, none a person kept
        both of. Events (episodic
        memories, texts tied to a day) are left alone: a later occasion does not replace an
        earlier one. In the results' order: ``_newer_first`` moves them in this order, which
        must not depend on the process (a set's order of strings does: PYTHONHASHSEED)."""
        facts = [
            r.memory
            for r in results[:UNLINKED_CANDIDATES]
            if r.memory.id in stored and r.memory.type is not MemoryType.EPISODIC
        ]
        if len(facts) < 2:
            return []
        known = {frozenset((old, new)) for old, new, _ in linked}
        # a pair a person kept both of holds both: never judged a version again
        known |= self._store.kept_pairs([m.id for m in facts])
        blobs = self._store.vectors_for([found.stored[m.id].rowid for m in facts])
        facts = [m for m in facts if found.stored[m.id].rowid in blobs]
        if len(facts) < 2:
            return []
        matrix = np.stack(
            [np.frombuffer(blobs[found.stored[m.id].rowid], dtype=np.float32) for m in facts]
        )
        # one product, read as Python floats: ten 1-D products and numpy scalars cost 5x as much
        similarity = (matrix @ matrix.T).tolist()
        # remember() compares a new memory only with neighbours this alike (``Lifecycle.floor``):
        # nor are the others compared here, which spares reading most texts (a millisecond
        # each); and only a newer one ranked below an older one has somewhere to move
        alike = [
            (older, newer, similarity[i][j])
            for i, older in enumerate(facts)
            for j, newer in enumerate(facts)
            if i < j
            and newer.created_at > older.created_at
            # a secret and a plain memory are never versions of each other (as in remember)
            and older.secret == newer.secret
            and similarity[i][j] >= UNLINKED_FLOOR
            and frozenset((older.id, newer.id)) not in known
        ]
        return [
            (older.id, newer.id)
            for older, newer, alikeness in alike
            if not read(older.content).event
            and not read(newer.content).event
            and may_replace(older.content, newer.content, alikeness >= UNLINKED_SIMILARITY)
            # the partner's name read as the partner, as remember() reads it (review12 R3)
            and may_replace(
                *renamed(older.content, newer.content), alikeness >= UNLINKED_SIMILARITY
            )
        ]

    @staticmethod
    def _stored_ids(results: list[_Ranked]) -> set[str]:
        return {r.memory.id for r in results if r.memory.type is not MemoryType.SHORT_TERM}

    def _rerank(
        self, query: str, relevant: list[Relevance], records: dict[str, MemoryRecord]
    ) -> list[Relevance]:
        """The best ``RERANK_CANDIDATES`` candidates' relevance replaced by the cross-encoder's
        probability (its logit through σ). The rest keep theirs, capped at the lowest reranked
        one, so none rises above a reranked candidate."""
        assert self.reranker is not None
        head, tail = relevant[:RERANK_CANDIDATES], relevant[RERANK_CANDIDATES:]
        if not head:
            return relevant
        logits = self.reranker.score(query, [records[r.candidate.key].content for r in head])
        # σ(x) computed without overflow for logits of either sign
        probabilities = [math.exp(min(x, 0.0) - math.log1p(math.exp(-abs(x)))) for x in logits]
        lowest = min(probabilities)
        # the cross-encoder's probabilities know nothing of scripts: the bar reads them as they are
        reranked = [
            replace(r, probability=p, plain_probability=None)
            for r, p in zip(head, probabilities, strict=True)
        ]
        rest = [
            replace(r, probability=min(r.probability, lowest), plain_probability=None) for r in tail
        ]
        return sorted(reranked, key=lambda r: r.probability, reverse=True) + rest

    def _hyde_vector(self, query: str) -> Vectors | None:
        """The embedding of an answer the LLM imagines for ``query``, or None without one, or
        when the query looks like a secret or holds a word only secrets hold (a search for
        "sunflower77"): a secret never goes to a model, which may not run on this laptop."""
        if self.llm is None or looks_secret(query) or self._names_a_secret(query):
            return None
        if not self.llm.available():
            return None
        try:
            answer = self.llm.complete(
                [{"role": "user", "content": render("hyde", query=query)}], temperature=0.3
            )
        except LLMError:
            return None
        answer = answer.strip()[: self.settings.limits.max_content_chars]
        return self.embedder.embed_documents([as_told(answer)])[0] if answer else None

    def _embedded(self, query: str) -> Vectors:
        """The query's embedding. A query of several lines is read as a conversation: its
        utterances, the last one ``LAST_LINE_REPEATS`` more times, plus ``LAST_LINE_WEIGHT`` of
        the last one's own vector (one batch of two: about a query's cost again, only for such
        queries)."""
        query = as_asked(query)  # an assistant's question about "the user", as the person asks
        if _last_line(query) == query.strip():
            return self.embedder.embed_query([query])[0]
        said = utterances(query)  # a transcript's markup is no meaning (localmind.transcript)
        if len(said) <= 1:
            return self.embedder.embed_query([said[0] if said else query])[0]
        whole, asked = self.embedder.embed_query(
            [with_last_repeated(said, LAST_LINE_REPEATS), said[-1]]
        )
        mixed = whole + LAST_LINE_WEIGHT * asked
        return np.asarray(mixed / np.linalg.norm(mixed), dtype=np.float32)

    def query_vector(self, query: str) -> Vectors:
        """The query's embedding, from a small in-process cache when it was asked before."""
        cached = self._query_vectors.get(query)
        if cached is not None:
            self._query_vectors.move_to_end(query)
            return cached
        vector = self._embedded(query)
        self._query_vectors[query] = vector
        if len(self._query_vectors) > _QUERY_CACHE_SIZE:
            self._query_vectors.popitem(last=False)
        return vector


def _asks_a_current_attribute(query: str) -> bool:
    """Whether the query's last line asks, in the present tense, for one of the user's
    one-value attributes ("where do I live?", "What car do I drive?"): its latest value is
    the answer. Not "How much did we sell the BYD for?"."""
    asked = _last_line(query)
    return bool(_slots_asked(asked)) and not told_in_the_past(asked)


# "Where do I work?", "Who am I working for now?": a statement's bare "work" sets no attribute
# ("I work from home", "work at night": ``statement._work_slots``), but asked where or for whom
# the user works, the question asks for the employer, or the job that names it. Unread, "Where do
# I work now?" asked no attribute, and "I joined Bosch last month as a project manager" stayed
# below "I work at Siemens" (review15 K4; 我现在在哪里上班 reads 上班 as the job already).
_ASKS_WORKPLACE = re.compile(
    r"\b(?:where|who)\s+(?:do|am)\s+I\s+(?:\w+\s+)?work(?:ing)?\b", re.IGNORECASE
)


def _slots_asked(question: str) -> frozenset[str]:
    """The one-value attributes a question asks about: those its words set, and the employer
    and the job when it asks where the user works."""
    slots = read(question).single_slots
    if _ASKS_WORKPLACE.search(question):
        slots |= {"employer", "job"}
    return slots


def _default_threshold(relevant: Sequence[Relevance], found: _Found, fusion: FusionConfig) -> float:
    """The bar a candidate must clear when the caller set none: nothing passes when even the
    best candidate is below ``min_relevance`` (``min_relevance_unmatched`` when no memory holds a
    word of the query: only meaning connects it); else everything down to a small share of the
    best. A fixed bar dropped right answers the model scores low (paraphrases) with the filler."""
    if not relevant:
        return 0.0
    best = relevant[0].probability
    matched = any(found.coverage.values())
    # whether anything is relevant at all is judged without the other-script term: it lifts
    # every memory of a store written in the other language (an unrelated Chinese question to
    # an English store returned 10 results out of 10 with it, docs/benchmarks.md "Round 4")
    plain = max(
        r.probability if r.plain_probability is None else r.plain_probability for r in relevant
    )
    if plain < (fusion.min_relevance if matched else fusion.min_relevance_unmatched):
        return math.inf
    return max(fusion.min_relevance_kept, fusion.relative_relevance * best)


def _around(name: str, question: str) -> str:
    """``name`` as the question's terms hold it: a CJK name with the character on each side,
    whose bigrams the keyword index makes of it too (我有宠物吗 → 有宠, 宠物, 物吗: a memory that
    names a dog should not hold a quarter of the question because 宠物 was cut three ways)."""
    if not in_cjk(name):
        return name
    at = question.find(name)
    if at < 0:
        return name
    return question[max(at - 1, 0) : at + len(name) + 1]


@lru_cache(maxsize=256)  # asked ten times per recall; a transcript's lines parsed each time
def _last_line(query: str) -> str:
    """The question a query asks: its last line (a chat's query is the dialogue so far, ending
    with the person's latest turn) as it was said, a transcript's markup taken off (a trailing
    ``<EOD>`` is no question: localmind.transcript)."""
    said = utterances(query)
    return said[-1] if said else ""


def _told_with(relevant: Sequence[Relevance], found: _Found) -> dict[str, float]:
    """For each stored candidate with a neighbour among the candidates (stored within
    ``CONTEXT_TURNS`` places of it, made at the same moment), the best such neighbour's
    relevance (``relevant`` is judged without the context term)."""
    placed = sorted(
        (
            (found.stored[r.candidate.key], r.probability)
            for r in relevant
            if r.candidate.key in found.stored
        ),
        key=lambda pair: pair[0].rowid,
    )
    context: dict[str, float] = {}
    for i, (row, _) in enumerate(placed):
        nearby = placed[max(i - CONTEXT_TURNS, 0) : i] + placed[i + 1 : i + 1 + CONTEXT_TURNS]
        best = max(
            (
                probability
                for other, probability in nearby
                if abs(other.rowid - row.rowid) <= CONTEXT_TURNS
                and other.record.created_at == row.record.created_at
            ),
            default=0.0,
        )
        if best > 0:
            context[row.record.id] = best
    return context


def _slots_told(text: str) -> frozenset[str]:
    """The one-value attributes a text sets, of the user or of anyone ("Tom works at …")."""
    return read(text).single_slots


# A new employer told without "work": "I joined Bosch last month", "I started at KPMG",
# 我加入了腾讯, 我去了字节跳动上班 (the user the subject, a capitalised name after the verb in
# English). The reader sets no attribute by "join" ("I joined a book club", and a gym is a
# capitalised name too, "I joined Crunch Fitness": queued against "I work at …" it would be a
# false change), so recall reads it only where it is asked for: the employer (review15 K4).
_JOINED_EMPLOYER = re.compile(
    r"\bI(?:'ve| have)?\s+(?:just\s+|recently\s+|finally\s+)?"
    r"(?:joined|started\s+at)\s+(?:the\s+)?[A-Z]"
    r"|我(?:刚|已经|最近|现在)?(?:(?:去|进|到)了?[^，。,.！!？?\s]{1,15}(?:上班|工作)"
    r"|入职了?[^，。,.！!？?\s]|加入了?[^，。,.！!？?\s]{1,15}(?:公司|团队))"
)


def _work_as_one(slots: frozenset[str]) -> frozenset[str]:
    """``slots`` with the employer read as the job: one change of work sets either."""
    return slots - {"employer"} | {"job"} if "employer" in slots else slots


def _attributes_told(text: str) -> frozenset[str]:
    """The one-value attributes a text sets of the user (not "my sister lives in Paris"); the
    employer too when it tells that the user joined one (``_JOINED_EMPLOYER``)."""
    statement = read(text)
    subject = statement.subject
    if subject not in (None, SELF, "i") and SINGLE_SLOTS.get(subject) is None:
        return frozenset()
    if _JOINED_EMPLOYER.search(text):
        return statement.single_slots | {"employer"}
    return statement.single_slots


def _habit_told(text: str) -> tuple[bool, bool]:
    """Whether a memory tells a habit or a plan (``tells_no_doing``), and whether it is told
    in the past tense (``told_in_the_past``)."""
    return tells_no_doing(text), told_in_the_past(text)


def _cached(
    cache: OrderedDict[str, _Derived], record: MemoryRecord, derive: Callable[[str], _Derived]
) -> _Derived:
    """What ``derive`` makes of a memory's text, from ``cache`` (least recently used out
    first), keyed by the text's hash."""
    key = record.content_hash or record.content
    cached = cache.get(key)
    if cached is None:
        cached = cache[key] = derive(record.content)
        if len(cache) > _TERMS_CACHE_SIZE:
            cache.popitem(last=False)
    else:
        cache.move_to_end(key)
    return cached


def _closest_of(
    first: list[tuple[int, float]], second: list[tuple[int, float]]
) -> list[tuple[int, float]]:
    """Two (rowid, distance) lists merged, each memory at its smaller distance, nearest first."""
    best: dict[int, float] = {}
    for rowid, distance in [*first, *second]:
        best[rowid] = min(distance, best.get(rowid, distance))
    return sorted(best.items(), key=lambda pair: pair[1])

"""Keywords: the FTS5 index ``memory_fts`` of each active memory's words (CJK as bigrams,
``localmind.fts_terms``), contentless, and what it says about a query's terms.

A process that searches more than twice (``INDEX_AFTER_SEARCHES``, as for the vectors) holds the
same terms in memory (:class:`localmind.word_index.WordIndex`) and answers from it with FTS5's
own bm25 to the last bit: a keyword query costs a few numpy operations instead of FTS5's bm25
over every matching row. It follows every writer through the vectors' change log (each change
to a memory's words comes with a change to its vector, or logs its rowid there itself:
``_log_words_changed``); FTS5 answers inside a transaction, before the index is built and past
``WORD_INDEX_MAX_BYTES``."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import apsw

from localmind.fts_terms import index_text, match_phrases
from localmind.records import (
    MemoryRecord,
    column_reader,
    searchable_text,
    text_with_restatements,
)
from localmind.store.base import Tables, placeholders
from localmind.store.vectors import INDEX_AFTER_SEARCHES, INDEX_LOAD_CHUNK, read_change_log
from localmind.word_index import IndexedText, Phrase, WordIndex

# Past this size the keyword index is not held in memory (FTS5 answers every query): ~50 MB
# at 100k synthetic memories, so about a million memories of that kind.
WORD_INDEX_MAX_BYTES = 512 << 20
_METADATA = column_reader("metadata") or (lambda value: value)
# Keyword queries whose phrases are kept tokenized (a chat asks the same query more than once).
_PHRASE_CACHE_SIZE = 256


@dataclass(slots=True)
class WordIndexState:
    """Where the in-memory keyword index stands, as ``vectors._IndexState`` for the vectors."""

    seen: int = 0
    data_version: int = -1
    changes: tuple[int, ...] = ()
    searches_before: int = 0
    too_big: bool = False  # over WORD_INDEX_MAX_BYTES, or not what FTS5 holds: FTS5 answers
    recheck: set[int] = field(default_factory=set)  # removed in a transaction: read again


class KeywordIndex(Tables):
    _tokenizer: apsw.FTS5Tokenizer | None
    _vocabulary: bool
    _word_index: WordIndex | None
    _word_state: WordIndexState
    _index_lock: threading.Lock
    _phrases: OrderedDict[str, list[Phrase] | None]

    def _index_words(self, rowid: int, record: MemoryRecord) -> None:
        self.db.execute(
            "INSERT INTO memory_fts (rowid, text) VALUES (?, ?)",
            (rowid, index_text(searchable_text(record))),
        )

    def _unindex_words(self, rowid: int) -> None:
        self.db.execute("DELETE FROM memory_fts WHERE rowid = ?", (rowid,))
        with self._index_lock:
            if self._word_index is not None:
                # Out of memory at once (a forget's words must not linger: purge_forgotten
                # drops its terms), and read again at the next search: the transaction may
                # still roll back.
                self._word_index.remove([rowid])
                self._word_state.recheck.add(rowid)

    def _log_words_changed(self, rowid: int) -> None:
        """Log a change of a memory's words that leaves its vector as it is (a merged
        restatement), so that every process's in-memory keyword index reads it again."""
        self.db.execute("INSERT INTO memory_vec_changes (vec_rowid) VALUES (?)", (rowid,))

    def keyword(
        self, match: str, k: int, namespace: str, types: Sequence[str] | None
    ) -> list[tuple[int, float]]:
        """(rowid, bm25) of the ``k`` best keyword matches among active memories, best first
        (FTS5's bm25 is negative: lower is better).

        FTS5 ranks its matches alone (a common term matches thousands of rows: joining each to
        ``memories`` before the sort costs more than the search); only the best ``fetch`` are
        joined and checked against namespace and types, and more are fetched while too few
        pass and FTS5 has more to give."""
        if k <= 0:
            return []
        with self._index_lock:
            index = self._words_view()
            phrases = self._phrases_of(match) if index is not None else None
            if index is not None and phrases is not None:
                return index.bm25(phrases, k, namespace, types)
        in_scope = "m.namespace = ?"
        scope_params: list[Any] = [namespace]
        if types:
            in_scope += f" AND m.type IN ({placeholders(types)})"
            scope_params.extend(types)
        sql = (
            f"SELECT r.rowid, r.score, {in_scope} FROM ("
            "SELECT rowid, bm25(memory_fts) AS score FROM memory_fts WHERE memory_fts MATCH ? "
            "ORDER BY score LIMIT ?"
            ") AS r LEFT JOIN memories AS m ON m.rowid = r.rowid ORDER BY r.score"
        )
        fetch = k
        while True:
            ranked: list[tuple[Any, ...]] = self.db.execute(
                sql, [*scope_params, match, fetch]
            ).fetchall()
            hits = [(int(rowid), float(score)) for rowid, score, ok in ranked if ok]
            if len(hits) >= k or len(ranked) < fetch:
                return hits[:k]
            fetch *= 4

    def words_version(self) -> int | None:
        """A number that stays the same while the active memories' words (and so their texts,
        and which memories are active) stay the same, as the in-memory keyword index follows
        them; None when FTS5 answers (no index, inside a transaction): nothing to go by. What
        was derived from keyword answers and those memories' texts holds while it is the
        same."""
        with self._index_lock:
            index = self._words_view() if self._word_index is not None else None
            return None if index is None else index.version

    def keyword_matches(self, match: str, rowids: Sequence[int]) -> set[int]:
        """Which of ``rowids`` (indexed memories) the keyword query ``match`` finds."""
        if not rowids:
            return set()
        rows = self.db.execute(
            "SELECT rowid FROM memory_fts WHERE memory_fts MATCH ? "
            f"AND rowid IN ({placeholders(rowids)})",
            [match, *rowids],
        )
        return {int(rowid) for (rowid,) in rows}

    def terms(self, text: str) -> list[str]:
        """The terms the keyword index holds for ``text``: FTS5's own tokenizer (Porter stems)
        over ``index_text`` (CJK bigrams), so they compare with indexed terms exactly."""
        tokens = self._fts5_tokenizer()(
            index_text(text).encode("utf-8"), apsw.FTS5_TOKENIZE_DOCUMENT, None
        )
        return [str(token[2]) for token in tokens]  # type: ignore[misc]

    def documents_with(self, terms: Sequence[str]) -> dict[str, int]:
        """How many indexed memories (every namespace) hold each term; absent terms: 0."""
        if not terms:
            return {}
        with self._index_lock:
            index = self._words_view() if self._word_index is not None else None
            if index is not None:
                return index.documents_with(terms)
        if not self._vocabulary:
            self.db.execute(
                "CREATE VIRTUAL TABLE IF NOT EXISTS temp.memory_fts_terms "
                "USING fts5vocab(main, 'memory_fts', 'row')"
            )
            self._vocabulary = True
        rows: list[tuple[Any, ...]] = self.db.execute(
            f"SELECT term, doc FROM temp.memory_fts_terms WHERE term IN ({placeholders(terms)})",
            list(terms),
        ).fetchall()
        found = {str(term): int(doc) for term, doc in rows}
        return {term: found.get(term, 0) for term in terms}

    def purge_forgotten(self) -> None:
        """After forgets, inside their transaction: merge the keyword index into one segment.
        Its table is contentless, so a delete only writes a tombstone and the forgotten words
        stay in the old segments until a merge rewrites them (11 ms at 10k memories,
        docs/design.md)."""
        self.db.execute("INSERT INTO memory_fts (memory_fts) VALUES ('optimize')")
        with self._index_lock:
            if self._word_index is not None:
                self._word_index.purge()  # the forgotten words leave memory too

    def _phrases_of(self, match: str) -> list[Phrase] | None:
        """The phrases of a MATCH expression as the keyword index's terms; None when one of
        them is not exactly one term (FTS5 then answers: a phrase of two terms asks for them
        side by side)."""
        if match in self._phrases:
            self._phrases.move_to_end(match)
            return self._phrases[match]
        found: list[Phrase] = []
        for text, prefix in match_phrases(match) or []:
            flags = apsw.FTS5_TOKENIZE_QUERY | (apsw.FTS5_TOKENIZE_PREFIX if prefix else 0)
            tokens: list[Any] = list(self._fts5_tokenizer()(text.encode("utf-8"), flags, None))
            if len(tokens) != 1:
                found = []
                break
            found.append(Phrase(str(tokens[0][2]), prefix))
        phrases = found or None
        self._phrases[match] = phrases
        if len(self._phrases) > _PHRASE_CACHE_SIZE:
            self._phrases.popitem(last=False)
        return phrases

    def _words_view(self) -> WordIndex | None:
        """The in-memory keyword index brought up to date, or None: FTS5 answers (inside a
        transaction, before INDEX_AFTER_SEARCHES keyword searches, or past its bound)."""
        db, state = self.db, self._word_state
        if db.in_transaction or state.too_big:
            return None
        index = self._word_index
        data_version = self.scalar("PRAGMA data_version")
        changes = self.index_log_changes()
        if index is None:
            if state.searches_before < INDEX_AFTER_SEARCHES:
                state.searches_before += 1
                return None
            return self._load_words()
        if (data_version, changes) == (state.data_version, state.changes) and not state.recheck:
            return index
        log = read_change_log(db, state.seen)
        if log is None:  # the log no longer reaches back that far
            return self._load_words()
        changed = sorted(log[0] | state.recheck)
        index.remove(changed)
        for start in range(0, len(changed), INDEX_LOAD_CHUNK):
            chunk = changed[start : start + INDEX_LOAD_CHUNK]
            index.add(self._indexed_texts(f"rowid IN ({placeholders(chunk)})", chunk))
        state.seen = log[1]
        state.data_version, state.changes = data_version, changes
        state.recheck.clear()
        return index

    def _load_words(self) -> WordIndex | None:
        """Build the keyword index from every active memory's text (all namespaces: FTS5's
        statistics cover them all); None, and FTS5 from then on, when it is too big or does
        not hold what FTS5 holds."""
        state = self._word_state
        state.data_version = self.scalar("PRAGMA data_version")
        state.changes = self.index_log_changes()
        state.seen = self.scalar("SELECT coalesce(max(seq), 0) FROM memory_vec_changes")
        state.recheck.clear()
        self._word_index = None
        index = WordIndex()
        last = -1
        while True:
            texts = self._indexed_texts("rowid > ? ORDER BY rowid LIMIT ?", [last, 4096])
            if not texts:
                break
            index.add(texts)
            last = texts[-1].rowid
            if index.nbytes() > WORD_INDEX_MAX_BYTES:
                state.too_big = True
                return None
        if index.documents != self.scalar("SELECT count(*) FROM memory_fts"):
            state.too_big = True  # not what FTS5 holds (never seen): trust FTS5
            return None
        self._word_index = index
        return index

    def _indexed_texts(self, where: str, params: Sequence[Any]) -> list[IndexedText]:
        """The active memories ``where`` selects, with the terms FTS5 holds for each."""
        rows: list[tuple[Any, ...]] = self.db.execute(
            "SELECT rowid, namespace, type, content, metadata FROM memories "
            f"WHERE status = 'active' AND {where}",
            params,
        ).fetchall()
        return [
            IndexedText(
                int(rowid),
                namespace,
                kind,
                self.terms(text_with_restatements(content, _METADATA(metadata))),
            )
            for rowid, namespace, kind, content, metadata in rows
        ]

    def _fts5_tokenizer(self) -> apsw.FTS5Tokenizer:
        if self._tokenizer is None:
            self._tokenizer = self.db.fts5_tokenizer(
                "porter", ["unicode61", "remove_diacritics", "2"]
            )
        return self._tokenizer

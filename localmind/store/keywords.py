"""Keywords: the FTS5 index ``memory_fts`` of each active memory's words (CJK as bigrams,
``localmind.fts_terms``), contentless, and what it says about a query's terms."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import apsw

from localmind.fts_terms import index_text
from localmind.records import MemoryRecord, searchable_text
from localmind.store.base import Tables, placeholders


class KeywordIndex(Tables):
    _tokenizer: apsw.FTS5Tokenizer | None
    _vocabulary: bool

    def _index_words(self, rowid: int, record: MemoryRecord) -> None:
        self.db.execute(
            "INSERT INTO memory_fts (rowid, text) VALUES (?, ?)",
            (rowid, index_text(searchable_text(record))),
        )

    def _unindex_words(self, rowid: int) -> None:
        self.db.execute("DELETE FROM memory_fts WHERE rowid = ?", (rowid,))

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

    def terms(self, text: str) -> list[str]:
        """The terms the keyword index holds for ``text``: FTS5's own tokenizer (Porter stems)
        over ``index_text`` (CJK bigrams), so they compare with indexed terms exactly."""
        if self._tokenizer is None:
            self._tokenizer = self.db.fts5_tokenizer(
                "porter", ["unicode61", "remove_diacritics", "2"]
            )
        tokens = self._tokenizer(
            index_text(text).encode("utf-8"), apsw.FTS5_TOKENIZE_DOCUMENT, None
        )
        return [str(token[2]) for token in tokens]  # type: ignore[misc]

    def documents_with(self, terms: Sequence[str]) -> dict[str, int]:
        """How many indexed memories (every namespace) hold each term; absent terms: 0."""
        if not terms:
            return {}
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

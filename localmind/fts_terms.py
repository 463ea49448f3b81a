"""Text → FTS5 terms. Chinese, Japanese and Korean runs are split into overlapping character
bigrams by the app, because FTS5's ``unicode61`` cannot split them at all and ``trigram`` misses
two-character words (绿茶, 编程). Other scripts go to FTS5's normal tokenizer (Porter stemming)."""

from __future__ import annotations

import re

from localmind.cjk import RANGES as _CJK
from localmind.simplified import simplified

_CJK_RUN = re.compile(f"[{_CJK}]+")
_WORD = re.compile(rf"[^\W_{_CJK}]+", re.UNICODE)

# Words so common that matching them says nothing about relevance; dropped from queries only.
STOPWORDS = frozenset(
    [
        "a",
        "about",
        "above",
        "after",
        "again",
        "against",
        "all",
        "am",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "down",
        "during",
        "each",
        "few",
        "for",
        "from",
        "further",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "herself",
        "him",
        "himself",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "just",
        "me",
        "more",
        "most",
        "my",
        "myself",
        "no",
        "nor",
        "not",
        "now",
        "of",
        "off",
        "on",
        "once",
        "only",
        "or",
        "other",
        "our",
        "ours",
        "ourselves",
        "out",
        "over",
        "own",
        "same",
        "she",
        "should",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "themselves",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "until",
        "up",
        "very",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "yours",
        "yourself",
        "yourselves",
        "s",
        "t",
        "don",
        "ll",
        "re",
        "ve",
        "m",
        "d",
    ]
)


MAX_QUERY_TERMS = 256


def cjk_bigrams(run: str) -> list[str]:
    if len(run) == 1:
        return [run]
    return [run[i : i + 2] for i in range(len(run) - 1)]


def index_text(content: str) -> str:
    """The text stored in the FTS index for ``content``: CJK runs replaced by their bigrams,
    Traditional Chinese read as Simplified (a 醫師 memory and a 医师 question share 医师)."""
    return _CJK_RUN.sub(
        lambda match: " " + " ".join(cjk_bigrams(simplified(match.group()))) + " ", content
    )


def query_terms(query: str) -> list[str]:
    """The distinct search terms of ``query``, in order: CJK bigrams (of its Simplified
    reading, as :func:`index_text`) and non-stopword words."""
    terms: list[str] = []
    position = 0
    for match in _CJK_RUN.finditer(query):
        terms.extend(_words(query[position : match.start()]))
        terms.extend(cjk_bigrams(simplified(match.group())))
        position = match.end()
    terms.extend(_words(query[position:]))
    return list(dict.fromkeys(terms))


def _words(text: str) -> list[str]:
    return [w for w in (m.group().lower() for m in _WORD.finditer(text)) if w not in STOPWORDS]


def match_expression(query: str) -> str | None:
    """An FTS5 MATCH expression that finds rows containing any term of ``query``, or None when
    the query has no searchable term. Terms are quoted, so FTS5 syntax in user text is inert."""
    # Bounds a pathological query; dialogue-length Chinese queries (~250 bigrams) stay whole:
    # keeping only the latest 64 terms cost 0.02 Recall@5 on MADial-Bench zh.
    terms = query_terms(query)[-MAX_QUERY_TERMS:]
    if not terms:
        return None
    quoted = []
    for term in terms:
        escaped = '"' + term.replace('"', '""') + '"'
        # A lone CJK character is indexed only inside bigrams: match it as a prefix.
        if len(term) == 1 and _CJK_RUN.fullmatch(term):
            escaped += "*"
        quoted.append(escaped)
    return " OR ".join(quoted)


_PHRASE = re.compile(r'"((?:[^"]|"")*)"(\*?)')


def match_phrases(match: str) -> list[tuple[str, bool]] | None:
    """The phrases of a MATCH expression :func:`match_expression` made, as (text, is a prefix)
    each, in order; None for any other expression."""
    phrases, pieces = [], []
    for found in _PHRASE.finditer(match):
        phrases.append((found.group(1).replace('""', '"'), bool(found.group(2))))
        pieces.append(found.group())
    return phrases if phrases and " OR ".join(pieces) == match else None

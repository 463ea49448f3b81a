"""``python -m bench.zh_tokens``: the Chinese keyword leg alone on MADial zh, cut in different ways.

A plain-Python BM25 (k1 1.2, b 0.75, as FTS5's) over each user's memories, the raw dialogue
history as the query, R@5 / R@10 per way of cutting the text: CJK bigrams (what the FTS5 index
holds, ``localmind.fts_terms``), jieba's words, jieba's search cut, and mixes. It ranks the
ways, not the store: its figures sit near, not at, FTS5's (docs/benchmarks.md, "Recall, round
10").
"""

from __future__ import annotations

import math
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable

from bench import madial
from localmind.fts_terms import _CJK_RUN, _words, cjk_bigrams

_PUNCTUATION = re.compile(r"^[\W_]+$")


def bigrams(text: str) -> list[str]:
    terms: list[str] = []
    position = 0
    for run in _CJK_RUN.finditer(text):
        terms += _words(text[position : run.start()]) + cjk_bigrams(run.group())
        position = run.end()
    return terms + _words(text[position:])


def _jieba(cut: Callable[[str], Iterable[str]]) -> Callable[[str], list[str]]:
    def terms(text: str) -> list[str]:
        return [w.lower() for w in cut(text) if w.strip() and not _PUNCTUATION.match(w)]

    return terms


def ways() -> dict[str, Callable[[str], list[str]]]:
    import jieba

    jieba.setLogLevel(60)
    words = _jieba(jieba.cut)
    return {
        "bigrams (shipped)": bigrams,
        "jieba words": words,
        "jieba search cut": _jieba(jieba.cut_for_search),
        "bigrams + jieba words": lambda t: bigrams(t) + [w for w in words(t) if len(w) != 2],
        "bigrams + words of 3+": lambda t: bigrams(t) + [w for w in words(t) if len(w) > 2],
        "bigrams + characters": lambda t: (
            bigrams(t) + [c for run in _CJK_RUN.finditer(t) for c in run.group()]
        ),
    }


def ranked(documents: dict[str, list[str]], query: list[str]) -> list[str]:
    counts = {key: Counter(terms) for key, terms in documents.items()}
    average = sum(len(terms) for terms in documents.values()) / len(documents)
    frequency = Counter(term for c in counts.values() for term in c)
    n = len(documents)
    scores = []
    for key, c in counts.items():
        length = sum(c.values())
        score = 0.0
        for term in set(query):
            f = c.get(term, 0)
            if f:
                idf = math.log((n - frequency[term] + 0.5) / (frequency[term] + 0.5) + 1)
                score += idf * f * 2.2 / (f + 1.2 * (0.25 + 0.75 * length / average))
        scores.append((score, key))
    return [key for score, key in sorted(scores, key=lambda s: -s[0]) if score > 0]


def main() -> int:
    root = madial.data_dir()
    memories = madial.load_memories(root, "zh")
    first: dict[tuple[int, str], int] = {}
    canonical = {}
    for m in memories:
        canonical[m.id] = str(first.setdefault((m.user, " ".join(m.event.split())), m.id))
    texts: dict[int, dict[str, str]] = defaultdict(dict)
    for m in memories:
        texts[m.user][canonical[m.id]] = m.event
    dialogues = madial.load_dialogues(root, "zh")
    print("| tokens | BM25 R@5 | R@10 |\n|---|---:|---:|")
    for name, cut in ways().items():
        documents = {user: {k: cut(v) for k, v in d.items()} for user, d in texts.items()}
        found = []
        for d in dialogues:
            gold = {canonical[i] for i in d.gold}
            order = ranked(documents[d.user], cut(d.history))
            found.append([len(set(order[:k]) & gold) / len(gold) for k in (5, 10)])
        r5, r10 = (sum(f[i] for f in found) / len(found) for i in (0, 1))
        print(f"| {name} | {r5:.3f} | {r10:.3f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""English words of one family that the keyword index keeps apart: "allergies" and "allergic".

FTS5's Porter stemmer joins inflections (allergy, allergies → ``allergi``) but not derivations
(allergic → ``allerg``), and the lemmatizer (simplemma) does neither: "any allergies to watch?"
shared no keyword with "Fang is allergic to peanuts", which then relied on the embedder alone
and came 6th of 6 (review12 R11). Recall treats the words of one family as one word for the
keyword leg: it searches the index for the others too, and a memory holding any of them holds
the query's word (``recall.Recaller._terms_of_query``).

A small hand-written table, not a resource: no installed package (see the env package lists)
has English derivational families offline (WordNet's "derivationally related forms" need its
data downloaded, and they join far looser words: "diet" and "dieter"). Only families whose
words a person uses of the same fact about themselves, and only where the stemmer leaves two
stems: words it already joins (cook, cooking) are not listed.
"""

from __future__ import annotations

from collections.abc import Callable

FAMILIES: tuple[tuple[str, ...], ...] = tuple(
    tuple(line.split())
    for line in """
    allergy allergic allergen
    intolerant intolerance
    vegetarian vegetarianism
    vegan veganism
    diabetes diabetic
    asthma asthmatic
    epilepsy epileptic
    pregnant pregnancy
    married marriage
    engaged engagement
    divorced divorce
    retired retirement
    """.strip().splitlines()
)


def by_stem(stems_of: Callable[[str], list[str]]) -> dict[str, tuple[str, ...]]:
    """Each stem of a family's word (as ``stems_of``, the keyword index's tokenizer, makes it)
    → the family's words: "allergies", "allergy" and "allergic" all find the family."""
    table: dict[str, tuple[str, ...]] = {}
    for family in FAMILIES:
        for word in family:
            for stem in stems_of(word):
                table[stem] = family
    return table

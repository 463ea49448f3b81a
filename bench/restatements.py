"""What stops each labelled restatement of a personal set from merging, without an LLM:
``python -m bench.restatements personal2 [--list]``.

For each memory labelled ``restates`` the text it restates is compared with it as remember()
would see it: its cosine (the bundled USE-m3) and rank among the earlier memories (the
neighbours remember() reads are the 5 nearest at ≥ 0.35; merges need ≥ 0.55, across languages
≥ 0.6), then every check of the merge guard (:mod:`localmind.sameness`) on its own, not only
the first that fails: people, negation, numbers, tense, names, antonyms, roles, actors; the
wording (same language) or, across languages, English words the Chinese text does not say and
Chinese characters no English word accounts for, and a change cue on one side only (the
same change told in both merges). A pair the guard merges as a whole (a fuller telling: one
text tells the other and adds a clause of its own) counts as merging. Prints, per check, how
many pairs it stops first and how many it stops at all. Uses the guard's private checks: a
diagnostic, not an API.
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np

from bench.personal import SETS
from localmind import sameness as guard
from localmind.embedders import default_embedder
from localmind.statement import Statement, read

CHECKS = (
    ("people", guard._people),
    ("negation", guard._negation),
    ("numbers", guard._numbers),
    ("tense", guard._tense),
    ("names", guard._names),
    ("antonyms", guard._antonyms),
    ("roles", guard._roles),
    ("actors", guard._actors),
)
NEIGHBOURS, SHORTLIST, MERGE, CROSS = 5, 0.35, 0.55, guard.CROSS_SIMILARITY
ASK = 0.6  # LifecycleConfig.ask_threshold


def blockers(
    old: str,
    new: str,
    similarity: float,
    rank: int,
    names: frozenset[tuple[str, str]] = frozenset(),
) -> list[str]:
    """Every reason the pair does not merge, in the order remember() meets them. ``names``:
    the names the memories before it declare (儿子何以恒（Ethan）), as remember() finds them."""
    found: list[str] = []
    if hasattr(guard, "_declared_names_written"):
        old, new = guard._declared_names_written(old, new, names)
    first, second = read(old), read(new)
    if rank > NEIGHBOURS or similarity < SHORTLIST:
        found.append("not among the neighbours")
    elif similarity < MERGE:
        found.append("cosine below 0.55")
    elif first.lang != second.lang and similarity < CROSS:
        found.append("cosine below 0.6 (across languages)")
    elif guard.compare(old, new, similarity).same:
        return []  # the guard merges it (a fuller telling too), whatever one check says
    for name, check in CHECKS:
        verdict = check(first, second)
        if verdict is not None:
            found.append(f"{name} ({verdict.likeness})")
    if first.lang == second.lang:
        if not guard._wording(first, second).same:
            found.append(_other_words(first, second))
        return found
    return found + _unsaid(first, second)


def _declared(text: str) -> frozenset[tuple[str, str]]:
    """The names ``text`` declares (儿子何以恒（Ethan）, 英文名叫Leo); none before hyg13f, whose
    guard could not use them (the tool also runs on an older checkout for a "before" table)."""
    try:
        from localmind import aliases, declared_names
    except ImportError:
        return frozenset()
    return declared_names.bracketed(text) | aliases.declared(text)


def _other_words(first: Statement, second: Statement) -> str:
    """ "other words", and whether one side only says more (its content holds the other's)."""
    words_first, words_second = set(first.content), set(second.content)
    if words_first <= words_second or words_second <= words_first:
        return "other words (one says more)"
    return "other words"


# What kind of reason stops a restatement (``--classes``): the first that applies, in this order.
CLASSES = (
    ("too far apart (cosine, neighbours)", ("not among", "cosine below")),
    ("a value differs: numbers, dates, names", ("numbers", "names")),
    (
        "negation, tense, people or roles differ",
        ("negation", "tense", "people", "antonyms", "roles", "actors", "a change cue"),
    ),
)


def kind_of(found: Sequence[str]) -> str:
    """The class of a pair's blockers (:func:`blockers`): distance, a value, the structure, or
    only words — one side saying more than the other, or each saying something of its own."""
    if not found:
        return "merges"
    for name, starts in CLASSES:
        if any(reason.startswith(starts) for reason in found):
            return name
    english_unsaid = "English words the Chinese does not say" in found
    chinese_unsaid = "Chinese characters no English word accounts for" in found
    if (english_unsaid and chinese_unsaid) or found == ["other words"]:
        return "only words: each says something the other does not"
    return "only words: one says more than the other"


def _unsaid(first: Statement, second: Statement) -> list[str]:
    english, chinese = (first, second) if first.lang == "en" else (second, first)
    # Before round 5 (hyg13e) the guard had no spelled names or letters: run it as it was.
    extra: tuple[Any, ...] = ()
    if hasattr(guard, "_spelled_spans"):
        names = tuple(sorted(guard._all_names(english, english)))
        extra = (guard._spelled_spans(chinese.text, names),)
    untold = guard.DATE_WORDS
    if hasattr(guard, "_currency_left_out"):  # hyg13f
        untold = untold | guard._currency_left_out(english, chinese)
    words = [w for w in english.content if w not in untold]
    missing = [w for w in words if guard._translations([w], chinese, *extra) is None]
    said = guard._translations([w for w in words if w not in missing], chinese, *extra)
    said = said or frozenset()
    if hasattr(guard, "_said_by_form"):  # hyg13f: letters, kinds of places, habits, 最
        said |= guard._said_by_form(chinese, english)
    elif hasattr(guard, "_letters_in"):
        said |= guard._letters_in(chinese, english)
    found = ["English words the Chinese does not say"] if missing else []
    if not guard._accounted_for(guard._undated(chinese), said):
        found.append("Chinese characters no English word accounts for")
    if bool(english.cues) != bool(chinese.cues):
        found.append("a change cue on one side only")
    return found


def one_by_one(name: str, listing: bool) -> None:
    """Each restatement's fate when the set is remembered one by one, dated, with no LLM (as
    ``bench hygiene`` adds it): the decision, the memory it was decided against (its
    original, or another: the nearest, or the one a suspicion rule queued it against) and,
    for one queued against another memory, whether its original already waits in a conflict
    with that memory (the change queued twice) or was never queued."""
    import datetime as dt
    import tempfile
    from pathlib import Path

    from bench.hygiene import fresh_memory

    items = SETS[name].memories()
    text = {item.id: item.text for item in items}
    holder: dict[str, str] = {}  # item id -> the memory that holds it
    fates: Counter[str] = Counter()
    with (
        tempfile.TemporaryDirectory(prefix="restatements-") as tmp,
        fresh_memory(Path(tmp), name) as memory,
    ):
        for item in items:
            created = dt.datetime.combine(item.date, dt.time(12), dt.UTC).timestamp()
            outcome = memory.remember_explained(item.text, created_at=created)
            holder[item.id] = outcome.record.id
            if not item.restates:
                continue
            original = holder[item.restates]
            related = outcome.related.id if outcome.related else None
            against = (
                "its original"
                if related == original
                else "another memory"
                if related
                else "nothing near"
            )
            fate = f"{outcome.decision.value}, against {against}"
            if outcome.may_restate:
                fate += " (may restate it: put to an assistant)"
            if outcome.decision.value == "queued" and related != original:
                waiting = {
                    (c.existing.id, c.candidate.id)
                    for c in memory.conflicts()
                    if c.candidate.id != outcome.record.id
                }
                fate += (
                    ": its original already waits against it"
                    if (related, original) in waiting or (original, related) in waiting
                    else ": its original was not queued against it"
                )
            if memory.get(original).content != text[item.restates]:
                fate += " (the original's text was replaced)"
            fates[fate] += 1
            if listing:
                print(f"{item.id} {fate}: {outcome.reason}")
    print(f"\n{name} one by one\n\n| what it got | restatements |\n|---|---:|")
    for fate, count in fates.most_common():
        print(f"| {fate} | {count} |")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.restatements", description=__doc__)
    parser.add_argument("set", choices=sorted(SETS))
    parser.add_argument("--list", action="store_true", help="also print every pair")
    parser.add_argument(
        "--one-by-one",
        action="store_true",
        help="also add the set one by one (as bench hygiene does) and count what each "
        "restatement got: the decision, whether it was compared with its original, and what "
        "had become of the original by then",
    )
    args = parser.parse_args(argv)
    if args.one_by_one:
        one_by_one(args.set, args.list)
    items = SETS[args.set].memories()
    vectors = np.asarray(default_embedder().embed_documents([item.text for item in items]))
    position = {item.id: index for index, item in enumerate(items)}
    first, anywhere, total = Counter[str](), Counter[str](), 0
    with_model, classes = Counter[str](), Counter[str]()
    names: set[tuple[str, str]] = set()
    for index, item in enumerate(items):
        names |= _declared(item.text)  # as the store holds them by then
        if not item.restates:
            continue
        earlier = position[item.restates]
        similarities = vectors[:index] @ vectors[index]
        similarity = float(similarities[earlier])
        rank = int((similarities > similarity).sum()) + 1
        found = blockers(items[earlier].text, item.text, similarity, rank, frozenset(names))
        total += 1
        classes[kind_of(found)] += 1
        first[found[0] if found else "nothing: merges"] += 1
        anywhere.update(set(found))
        with_model[_with_a_model(items, index, earlier, similarities, bool(found))] += 1
        if args.list:
            print(f"{item.id} {similarity:.2f} #{rank}: {'; '.join(found) or 'merges'}")
            print(f"    {items[earlier].text}\n    {item.text}")
    print(
        f"\n{args.set}: {total} restatements\n\n| what stops it | first | at all |\n|---|---:|---:|"
    )
    for reason, count in first.most_common():
        print(f"| {reason} | {count} | {anywhere.get(reason, count)} |")
    for reason, count in anywhere.most_common():
        if reason not in first:
            print(f"| {reason} | 0 | {count} |")
    print("\n| what kind of reason stops it | restatements |\n|---|---:|")
    for reason, count in classes.most_common():
        print(f"| {reason} | {count} |")
    print("\n| with a local model (the most it could merge) | restatements |\n|---|---:|")
    for reason, count in with_model.most_common():
        print(f"| {reason} | {count} |")
    return 0


def _with_a_model(
    items: Sequence[Any], index: int, earlier: int, similarities: Any, blocked: bool
) -> str:
    """Whether a local model would even be asked about a restatement the guard does not
    merge: remember() asks about the nearest neighbour at or above ``ask_threshold`` (0.6)
    the guard does not call DIFFERENT (``Lifecycle.propose``), so a pair the guard calls
    different, or one further apart, stays two memories whatever a model would say. (A pair
    a suspicion rule flags is put to the model too, and merged only if the guard does not
    call it different: counted here the same way.)"""
    if not blocked:
        return "merges without a model"
    nearest = [int(j) for j in np.argsort(-similarities)[:NEIGHBOURS]]
    for j in nearest:
        if similarities[j] < ASK:
            break
        if not guard.compare(items[j].text, items[index].text).differs:
            return "a model is asked about " + ("its original" if j == earlier else "another")
    if similarities[earlier] < ASK:
        return "never asked: its original is below 0.6"
    return "never asked: the guard calls it different"


if __name__ == "__main__":
    raise SystemExit(main())

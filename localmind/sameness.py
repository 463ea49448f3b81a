"""Whether a new memory says the same as an existing one: the guard in front of every merge.

Cosine similarity cannot see word order, negation, numbers or who a sentence is about: "I
prefer coffee over green tea" and "I prefer green tea over coffee" embed as near-identical. So a
merge also needs the same people, negation, numbers, names, comparison roles and content words
(English lemmas, Chinese words, small synonym groups: see :mod:`localmind.statement`). The
verdict has three values: SAME merges without a model; UNSURE (worded differently) may merge only
when a model says so; DIFFERENT never merges, whoever says otherwise.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import lru_cache

from localmind import declared_names
from localmind.bilingual import (
    EN_ZH,
    ZH_LIGHT,
    compounds_with,
    main_sense,
    meanings,
    proper_names,
    sounds,
    spellings,
    spells,
)
from localmind.simplified import reads_simplified
from localmind.statement import (
    ANTONYMS,
    FIRST_OF_A_MONTH,
    MONTHS,
    OTHER,
    QUALIFIERS,
    RELATIONAL,
    SELF,
    SYNONYMS,
    TIME_WORDS,
    WEEKDAYS,
    Statement,
    Word,
    actors,
    introduced_relation,
    past_verbs,
    read,
    said_person,
)

_LATIN = re.compile(r"^[a-z0-9]")


class Likeness(StrEnum):
    SAME = "same"  # merge without asking
    UNSURE = "unsure"  # worded differently: only a model or a person may call it the same
    DIFFERENT = "different"  # says something else: never merged


@dataclass(frozen=True, slots=True)
class Sameness:
    """The guard's verdict on (existing, new) and why, in words a person can check."""

    likeness: Likeness
    why: str
    # SAME because the new text tells the old one and adds a detail: the merged memory keeps
    # the new, fuller text (the old one stays findable among its restatements).
    keeps_new: bool = False

    @property
    def same(self) -> bool:
        return self.likeness is Likeness.SAME

    @property
    def differs(self) -> bool:
        return self.likeness is Likeness.DIFFERENT


# A rewording the checks above let through may merge without a model when the texts are this
# close in meaning (cosine, USE-m3) and one only adds or drops this many content words ("I
# take vitamin D" / "… a vitamin D supplement"; Chinese content is compared by character:
# twice as many). A word *replaced* by another never merges without a model: that is how
# "patient" becomes "impatient", 便宜 becomes 贵. Fitted on the labelled pairs: at any
# similarity no labelled "different" pair merges (tests/unit/test_sameness.py).
REWORDING_STEPS = ((0.8, 1), (0.88, 2))
# The same words with a phrase moved to the front or back ("Last week I bought a car").
REORDERING_SIMILARITY = 0.85
# An English and a Chinese text whose words the bilingual table matches one for one.
CROSS_SIMILARITY = 0.6


@reads_simplified
def compare(
    existing: str,
    candidate: str,
    similarity: float | None = None,
    names: frozenset[tuple[str, str]] = frozenset(),
) -> Sameness:
    """Does ``candidate`` say what ``existing`` says? Checks run from the hardest evidence of a
    different meaning to the softest; the first that fails gives the verdict. ``similarity``
    (the texts' cosine) lets a small rewording of a close text count as the same. A text that
    tells the other one word for word and adds a detail in a phrase of its own is the same
    too (:func:`_adds_detail`). ``names``: (Latin name, Chinese name) pairs the user declared
    (儿子何以恒（Ethan）: :mod:`localmind.declared_names`); across languages the Chinese text
    is read with them, and with those it declares itself, written in Latin letters."""
    existing, candidate = _declared_names_written(existing, candidate, names)
    verdict = _compare(existing, candidate, similarity)
    if verdict.same:
        return verdict
    for shorter, longer, keeps_new in _fuller_first(existing, candidate, similarity):
        detail = _adds_detail(shorter, longer, similarity)
        if detail is not None:
            return Sameness(Likeness.SAME, f"tells it and adds a detail ({detail})", keeps_new)
    return _values_vouch(existing, candidate, similarity) or verdict


def _declared_names_written(
    existing: str, candidate: str, names: frozenset[tuple[str, str]]
) -> tuple[str, str]:
    """The pair with the Chinese text's declared names written as the Latin ones ("以恒进了
    篮球队" → "Ethan 进了篮球队"), and a name told with its declaration (何以恒（Ethan）)
    told once. Unchanged in one language: a name is compared there as it is written."""
    old, new = read(existing), read(candidate)
    if old.lang == new.lang:
        return existing, candidate
    chinese = existing if old.lang == "zh" else candidate
    pairs = declared_names.said_names(
        names | declared_names.bracketed(existing) | declared_names.bracketed(candidate)
    )
    if not pairs:
        return existing, candidate
    latin = {name: _written(english) for english, name in pairs}

    def told_once(match: re.Match[str]) -> str:
        declared = match.group(2).lower()
        name = next(
            (
                n
                for n, e in sorted(latin.items(), key=lambda i: -len(i[0]))
                if match.group(1).endswith(n) and e.lower() == declared
            ),
            None,
        )
        if name is None:
            return match.group(0)
        return match.group(1)[: -len(name)] + f" {latin[name]} "

    written = declared_names.BRACKETED.sub(told_once, chinese)
    for name in sorted(latin, key=len, reverse=True):
        written = written.replace(name, f" {latin[name]} ")
    if chinese is existing:
        return written, candidate
    return existing, written


def _written(name: str) -> str:
    """ "kenji sato" → "Kenji Sato": a name as the reader takes one."""
    return " ".join(part.capitalize() for part in name.split())


def _fuller_first(
    existing: str, candidate: str, similarity: float | None
) -> list[tuple[str, str, bool]]:
    """Which text may be the fuller telling of the other: (shorter, longer, the new one is
    longer). In one language the longer; across languages either (lengths in characters
    cannot be compared), when the pair is close enough for a translation to merge."""
    if read(existing).lang != read(candidate).lang:
        if similarity is None or similarity < CROSS_SIMILARITY:
            return []
        return [(existing, candidate, True), (candidate, existing, False)]
    if len(existing) == len(candidate):
        return []
    if len(candidate) > len(existing):
        return [(existing, candidate, True)]
    return [(candidate, existing, False)]


# Where a longer telling may add a phrase of its own: punctuation, or a word that opens one
# ("a dog named Max", 一只狗叫Max, "a flat with a balcony", "a cat and a dog").
_DETAIL_OPENS = re.compile(
    r"\s*[,;:，；：、—–]\s*|\s+(?:named|called|who|which|with|and)\s+|名叫|叫",
    re.IGNORECASE,
)


def _adds_detail(shorter: str, longer: str, similarity: float | None = None) -> str | None:
    """The detail ``longer`` adds when it says ``shorter`` (the same words, people, negation,
    numbers, names, in the same roles) in a run of its clauses and only adds plain details in
    the others: no negation, change cue, tense, comparison, qualifier ("former", "only",
    "until", 但) and no word opposite to one of ``shorter``'s. Across languages the run must
    be a translation of ``shorter`` (``similarity``, the whole pair's cosine, stands for the
    run's, which is closer). None when it does not."""
    short, long = read(shorter), read(longer)
    across = short.lang != long.lang
    if (
        # the longer may add a negated detail of its own ("… and eats no meat"): the run that
        # tells the shorter is compared with it, negations too, below
        _negated(short) > _negated(long)
        or not short.content
        or not short.numbers <= long.numbers
        or not short.dates <= long.dates
    ):
        return None  # cheap: most pairs stop here, before any part is read
    if not across and (
        not set(short.content) <= set(long.content)
        or not _all_names(short, short) <= _all_names(long, long)
    ):
        return None
    if across and not _all_said(short, long):
        return None
    clauses = _clauses(longer)
    for start, stop in _runs(len(clauses)):
        told = longer[clauses[start][0] : clauses[stop - 1][1]]
        added = [longer[a:b] for a, b in clauses[:start] + clauses[stop:]]
        if _compare(shorter, told, similarity if across else None).same and all(
            _plain_detail(read(part), short) for part in added
        ):
            return "; ".join(part.strip() for part in added)
    return None


def _all_said(short: Statement, long: Statement) -> bool:
    """Across languages, whether ``long`` says everything ``short`` says, word by word
    (:func:`_translations`): every English word of a shorter English text is in the Chinese
    one, or every character of a shorter Chinese text is what an English word says. Cheap
    beside reading each run of clauses, which only a pair that passes this needs."""
    english, chinese = (short, long) if short.lang == "en" else (long, short)
    words = [word for word in english.content if word not in DATE_WORDS]
    spelled = _spelled_spans(chinese.text, _spoken_names(english))
    if short is english:
        return _translations(words, chinese, spelled) is not None
    spans = (_translations([word], chinese, spelled) for word in words)
    said = frozenset(span for found in spans if found for span in found)
    return _accounted_for(_undated(chinese), said | _said_by_form(chinese, english))


_PUNCTUATION = " ,;:，；：、—–"


def _clauses(text: str) -> list[tuple[int, int]]:
    """Where ``text``'s phrases are (start, end): it is cut where a phrase may open
    (:data:`_DETAIL_OPENS`: "a dog | Max") or a sentence ends, without the cut's words."""
    spans, start = [], 0
    for cut in sorted(
        [*_DETAIL_OPENS.finditer(text), *_SENTENCE_END.finditer(text)], key=lambda m: m.start()
    ):
        if cut.start() >= start:
            spans.append((start, cut.start()))
            start = cut.end()
    spans.append((start, len(text)))
    return [(a, b) for a, b in spans if text[a:b].strip(_PUNCTUATION + ".。!?！？")]


# A sentence ends at . ! ? followed by a space (not "4.39", nor "Dr." inside a name: a cut
# there only gives a piece that tells nothing), or at 。！？
_SENTENCE_END = re.compile(r"[.!?](?=\s)|[。！？]")
# More clauses than this are not tried as a telling plus details (a long text is no detail).
_MOST_CLAUSES = 6


def _runs(count: int) -> list[tuple[int, int]]:
    """Every run of consecutive clauses (start, stop), the longest first, when there are few."""
    if count < 2 or count > _MOST_CLAUSES:
        return []
    runs = [(a, b) for a in range(count) for b in range(a + 1, count + 1) if b - a < count]
    return sorted(runs, key=lambda run: run[0] - run[1])


def _plain_detail(detail: Statement, told: Statement) -> bool:
    if (
        not detail.content
        or (_negated(detail) and not _negated_aside(detail, told))
        or detail.cues
        or detail.tense
        or detail.comparison
        or _qualifiers(detail)
    ):
        return False
    pairs = ((word, other) for word in detail.content for other in told.content)
    return not any(tuple(sorted(pair)) in ANTONYMS for pair in pairs)


# A negated detail names at least this many content words of its own ("eats no meat", "don't
# own a car"): "not really", "not a dog" say too little to be told apart from a denial.
_NEGATED_DETAIL_WORDS = 2


def _negated_aside(detail: Statement, told: Statement) -> bool:
    """Whether a negated ``detail`` says something else than ``told`` ("The user is a
    vegetarian and eats no meat", "I live in Berlin and don't own a car"): no content word in
    common with it, enough of its own, and no time, date or number. A negation that touches
    what is told ("I smoke, not really", "I live in Berlin, I don't live there") is a denial,
    and one about when ("I drink coffee, never after noon") a limit: neither is a detail.
    Limits told with but / except / 不过 are qualifiers (:func:`_plain_detail`)."""
    own = set(detail.content)
    return (
        len(own) >= _NEGATED_DETAIL_WORDS
        and not own & set(told.content)
        and not own & TIME_WORDS
        and not detail.dates
        and not detail.numbers
    )


def _qualifiers(statement: Statement) -> frozenset[str]:
    return frozenset(
        word.norm
        for word in statement.words
        if word.norm in QUALIFIERS or word.surface.lower() in QUALIFIERS
    )


def _compare(
    existing: str, candidate: str, similarity: float | None = None, *, swaps: int = 2
) -> Sameness:
    old, new = _birthday(read(existing)), _birthday(read(candidate))
    for check in (_people, _negation, _numbers, _tense, _names, _antonyms, _roles, _actors):
        verdict = check(old, new)
        if verdict is not None:
            return verdict
    verdict = _wording(old, new)
    if verdict.likeness is Likeness.UNSURE and similarity is not None:
        if old.lang != new.lang:
            return _told_in_both_languages(old, new, similarity) or verdict
        close = _close_rewording(old, new, similarity)
        if close is None and swaps:
            close = _one_meaning_in_other_words(old, new, similarity, swaps)
        return close or verdict
    return verdict


@reads_simplified
def numbers_differ(existing: str, candidate: str, replaced: str | None = None) -> bool:
    """Whether each text gives a number the other does not (an hour, an amount), or the two
    name other dates (a day, a month), in either language: two values of one thing, which a
    retelling joined to a waiting change must not be (review13 J0: 每周一上午10点 / "Tuesdays
    at 11"). One that only leaves out a number of the other's, or adds one, may tell the
    same. ``replaced``: the older memory the change replaces, whose values ``candidate`` may
    name as what was before ("got pushed from March 10 to May 12", "stopped going to the
    Saturday Chinese school …, online every Tuesday" after 推迟了…改成5月12日): those are no
    value of its own."""
    old, new = _birthday(read(existing)), _birthday(read(candidate))
    numbers_old, numbers_new = _clock_free(old, new), _clock_free(new, old)
    dates_old, dates_new = old.dates, new.dates
    if replaced is not None:
        before = _birthday(read(replaced))
        numbers_new -= _clock_free(before, new) - numbers_old
        dates_new -= before.dates - dates_old
    # a date told in one only is a value too: "on maternity leave … until September" and
    # "back at the French school, part-time" are two states (personal3, held out, merged them)
    return bool((numbers_old - numbers_new and numbers_new - numbers_old) or dates_old != dates_new)


@reads_simplified
def latin_names_differ(existing: str, candidate: str) -> bool:
    """Across languages, whether each text gives a name in Latin letters the other does not
    ("我换成了Neovim" / "I switched to Vim"): two values, not one change told twice. A name
    only one text gives (the English telling names more) is a detail."""
    old, new = read(existing), read(candidate)
    names_old = {name for group in old.names for name in group if name.isascii()}
    names_new = {name for group in new.names for name in group if name.isascii()}
    return bool(names_old - names_new and names_new - names_old)


def _birthday(statement: Statement) -> Statement:
    """ "Tom was born on July 15" says "Tom's birthday is July 15": "born" with a month or a
    weekday is the birthday (English; across languages :func:`_translations` finds 生日 for
    it). "Born in 1991" or "born in Berlin" are not: a year or a place is no birthday."""
    if statement.lang != "en" or not statement.dates or "born" not in statement.content:
        return statement
    content = tuple("birthday" if word == "born" else word for word in statement.content)
    return replace(statement, content=content)


def _one_meaning_in_other_words(
    old: Statement, new: Statement, similarity: float, swaps: int
) -> Sameness | None:
    """SAME for two Chinese texts that say one thing in two words CC-CEDICT gives the same
    main meaning (上床 / 睡觉 "to go to bed", 素食者 / 吃素 "vegetarian", 周六 / 星期六),
    when the new text with the old one's word in its place is the same by every check
    above. A word whose main meaning differs (上班 "go to work" / 下班 "finish work", 租 /
    出租, 便宜 / 贵) is no such pair."""
    if old.lang != "zh" or new.lang != "zh":
        return None
    gone = [term for term in dict.fromkeys(old.terms) if term not in new.terms]
    added = [term for term in dict.fromkeys(new.terms) if term not in old.terms]
    surfaces = {word.norm: word.surface for word in new.words}  # "bike" was 自行车
    text, swapped = new.text, []
    for word in added:
        sense = main_sense(surfaces.get(word, word))
        same = next((other for other in gone if sense and main_sense(other) == sense), None)
        if same is not None and surfaces.get(word, word) in text:
            text = text.replace(surfaces.get(word, word), same)
            swapped.append(f"{surfaces.get(word, word)} = {same}")
    # 骑自行车 = 骑车 "ride a bike": two words for one, whichever text has the one
    old_surfaces = {word.norm: word.surface for word in old.words}
    for first, second in itertools.pairwise([surfaces.get(word, word) for word in added]):
        compound = next((other for other in gone if _said_by_two(other, first, second)), None)
        if compound is not None and first + second in text:
            text = text.replace(first + second, compound)
            swapped.append(f"{first}{second} = {compound}")
    for first, second in itertools.pairwise([old_surfaces.get(word, word) for word in gone]):
        compound = next((other for other in added if _said_by_two(other, first, second)), None)
        if compound is not None and compound in text:
            text = text.replace(compound, first + second)
            swapped.append(f"{compound} = {first}{second}")
    if not swapped:
        return None
    verdict = _compare(old.text, text, similarity, swaps=swaps - 1)
    if not verdict.same:
        return None
    return Sameness(
        Likeness.SAME, f"{verdict.why}; the same words said two ways ({', '.join(swapped)})"
    )


def _told_in_both_languages(old: Statement, new: Statement, similarity: float) -> Sameness | None:
    """SAME for an English and a Chinese text, this close, that the checks above let through
    (the same people, negation, numbers, dates, tense and names) when every English content
    word is said in the Chinese text and every Chinese content character is part of what
    says one of them (:func:`_translations`), with the same qualifiers and, in a comparison,
    the same side preferred. Anything else, in doubt, is stored: a relation between people,
    a change cue, a word the dictionary cannot find in the other text."""
    if similarity < CROSS_SIMILARITY:
        return None
    english, chinese = (old, new) if old.lang == "en" else (new, old)
    if (
        {english.lang, chinese.lang} != {"en", "zh"}
        # Chinese leaves out "I" where English cannot (2月20号做了手术): who else is told is
        # compared, the user aside; the order of the people is compared by _same_actors_across
        or set(old.persons) - {SELF} != set(new.persons) - {SELF}
        # a change told on one side only ("now", 改成) is a change; told on both ("moved from
        # Saturday to Sunday" / 从周六改到周日) it is the same change told twice
        or bool(old.cues) != bool(new.cues)
        or (old.comparison is None) != (new.comparison is None)
        or (
            old.comparison is None
            and (_gives_roles(old) or _gives_roles(new))
            and not _same_roles_across(english, chinese)
        )
    ):
        return None
    if not _same_actors_across(english, chinese):
        return None
    # Weekdays and months were compared as dates above, whatever the words ("9月").
    spelled = _spelled_spans(chinese.text, _spoken_names(english))
    untold = DATE_WORDS | _shortened_names(english, chinese) | _currency_left_out(english, chinese)
    words = [w for w in english.content if w not in untold]
    if _WHEN_YOUNG.search(english.text):
        words.append("kid")
    said = _translations(words, chinese, spelled)
    if said is not None and _negated(english):
        # 戒 says the English "quit" / "no longer" (the negations were compared above)
        said |= {word.surface for word in chinese.words if word.surface.startswith(_STOPPING_ZH)}
    if said is None:
        return None
    said |= _said_by_form(chinese, english)
    added: tuple[str, ...] = ()
    if not _accounted_for(_undated(chinese), said):
        # the Chinese text may say all the English one does and name a thing more
        found = _added_in_chinese(chinese, said)
        if found is None:
            return None
        added = found
    if not _same_qualifiers_across(english, chinese):
        return None
    if _negated(english) and not _same_negated_across(english, chinese):
        return None
    if english.comparison is not None and chinese.comparison is not None:
        for side_en, side_zh in zip(english.comparison, chinese.comparison, strict=True):
            side = _translations(tuple(side_en), chinese)
            verbs = {verb for verb in _EATING if any(span.endswith(verb) for span in said)}
            side_zh = side_zh - verbs  # 更爱喝绿茶: 喝 was said with "prefer"
            if side is None or not side_zh or not _accounted_for(tuple(side_zh), side):
                return None  # what is preferred in one is not what is preferred in the other
    if added:
        return Sameness(
            Likeness.SAME,
            f"told again in the other language, which adds {'、'.join(added)} "
            f"(similarity {similarity:.2f})",
            keeps_new=new is chinese,
        )
    return Sameness(Likeness.SAME, f"the same in both languages (similarity {similarity:.2f})")


# A free translation the dictionaries cannot match word for word merges when it gives this many
# of the other telling's values, this many of them specific (:func:`_values_vouch`).
_VOUCHING_VALUES = 3
_SPECIFIC_VALUES = 2
# ... and a fuller one adds at most this many values of its own.
_MOST_ADDED_VALUES = 2
_SPECIFIC_NUMBER = re.compile(r"\d\d|\d[.,%]|%")


def _values_vouch(existing: str, candidate: str, similarity: float | None) -> Sameness | None:
    """SAME for an English and a Chinese telling, close enough for a translation, that agree
    on every value both give and on everything but words: the same people, negation, tense,
    change cue, qualifiers and roles (every check of the guard but the wording), and the
    values of one (numbers, months and weekdays, names in Latin letters) all given by the
    other, at least :data:`_VOUCHING_VALUES` of them, :data:`_SPECIFIC_VALUES` specific (a
    name, a number of two digits or more, an amount, a rate): "Our offer on a three-bedroom
    house in Ballard was accepted! $985,000, closing on October 30." / 我们在Ballard看中的三居室
    出价98.5万美元，卖家接受了，10月30号过户。 The words of such free translations ("closing" /
    过户) are what no dictionary matches one for one; their values say they tell one thing.
    When one telling adds values (at most :data:`_MOST_ADDED_VALUES`, no name: "The mortgage
    is with RBC, 4.49% for five years." / …，2030年到期) the memory keeps it, the fuller one,
    and the other stays among its restatements: nothing told is lost. Names in Chinese
    characters that no Latin name of the English text accounts for, or no values, or only a
    few, leave the pair two memories: a value swapped in words (前端 / backend, 右 / left
    knee) is not seen by values, so values must carry the pair."""
    if similarity is None or similarity < CROSS_SIMILARITY:
        return None
    old, new = _birthday(read(existing)), _birthday(read(candidate))
    if old.lang == new.lang or {old.lang, new.lang} != {"en", "zh"}:
        return None
    for check in (_people, _negation, _tense, _antonyms, _roles, _actors):
        if check(old, new) is not None:
            return None
    english, chinese = (old, new) if old.lang == "en" else (new, old)
    if (
        # "she" told where Chinese says nothing (去年秋天满四岁): who else is told is compared
        set(old.persons) - {SELF, OTHER} != set(new.persons) - {SELF, OTHER}
        or bool(old.cues) != bool(new.cues)
        or old.comparison is not None
        or new.comparison is not None
        or ((_gives_roles(old) or _gives_roles(new)) and not _same_roles_across(english, chinese))
        or not _same_actors_across(english, chinese, loosely=True)
        or not _same_qualifiers_across(english, chinese)
        or (_negated(english) and not _same_negated_across(english, chinese))
        or _numbers_moved(existing, candidate)
    ):
        return None
    latin = frozenset(name for group in english.names for name in group if _LATIN.match(name))
    latin |= frozenset(name for group in chinese.names for name in group if _LATIN.match(name))
    latin -= _shortened_names(english, chinese)
    written = _names_in_latin(chinese, latin)
    if _unaccounted_names(chinese, written):
        return None
    values_en, values_zh = _values(english, latin, chinese), _values(written, latin, english)
    if values_en <= values_zh:
        shorter, longer = values_en, values_zh
    elif values_zh <= values_en:
        shorter, longer = values_zh, values_en
    else:
        return None
    if _opposite_in_words(english, chinese) or not _values_in_one_order(
        english, written, shorter, latin
    ):
        return None
    groups = _name_groups(english, latin)
    shared = {groups.get(value, value) for value in shorter}
    specific = {v for v in shared if v in groups.values() or _SPECIFIC_NUMBER.search(v)}
    if (
        len(shared) < _VOUCHING_VALUES
        or len(specific) < _SPECIFIC_VALUES
        or len(longer - shorter) > _MOST_ADDED_VALUES
        # a name added may be someone else the fact is told of too (以宁和以恒的生日)
        or (longer - shorter) & latin
    ):
        return None
    # the memory takes the new text when it gives more values (nothing else is compared)
    fuller = values_zh > values_en if new is chinese else values_en > values_zh
    added = sorted(longer - shorter)
    detail = f", which adds {', '.join(added)}" if added else ""
    return Sameness(
        Likeness.SAME,
        f"told again in the other language with the same values ({', '.join(sorted(shorter))})"
        f"{detail} (similarity {similarity:.2f})",
        keeps_new=fuller,
    )


# Words whose opposite a free translation may say in its own words ("left knee" / 右膝, "fixed"
# / 浮动利率): the values agree, the words do not. English words, as CC-CEDICT glosses say them.
_OPPOSITES = frozenset(
    tuple(sorted(pair))
    for pair in (
        ("left", "right"),
        ("front", "back"),
        ("fixed", "floating"),
        ("fixed", "variable"),
        ("fixed", "float"),
        ("accept", "reject"),
        ("accepted", "rejected"),
        ("buy", "sell"),
        ("bought", "sold"),
        ("up", "down"),
        ("upper", "lower"),
        ("north", "south"),
        ("east", "west"),
        ("first", "last"),
        ("full", "part"),
        ("rise", "fall"),
        ("arrive", "leave"),
        ("borrow", "lend"),
        ("import", "export"),
        ("win", "lose"),
        ("pass", "fail"),
        ("passed", "failed"),
        *(pair for pair in ANTONYMS if _LATIN.match(pair[0])),
    )
)


def _opposite_in_words(english: Statement, chinese: Statement) -> bool:
    """Whether the Chinese text holds a word glossed as the opposite of an English word the
    English text says, an opposite the English does not say itself (右 "right" for "left")."""
    said = {word.surface.lower() for word in english.words} | {w.norm for w in english.words}
    for span in _spans(chinese.text):
        glosses = meanings(span)
        for gloss in glosses - said:
            if any(tuple(sorted((word, gloss))) in _OPPOSITES for word in said - glosses):
                return True
    return False


_ZH_MONTH = re.compile(r"(\d{1,2}|[一二三四五六七八九十]{1,3})月")
_ZH_NUMERALS = {c: n for n, c in enumerate("一二三四五六七八九十", start=1)}


def _values_in_one_order(
    english: Statement, chinese: Statement, shared: frozenset[str], latin: frozenset[str]
) -> bool:
    """Whether values that could swap are told in one order: two or more months (December 20
    to January 3 / 1月3号出发，12月20号回来), or two or more names and two or more numbers
    (Ethan is 12 and Chloe is 6 / Chloe 12岁，Ethan 6岁: which number is whose). Two or more
    weekdays are not compared: in doubt."""
    if len(shared & WEEKDAYS) > 1:
        return False
    months = shared & MONTHS
    if len(months) > 1 and _months_in_order(english) != _months_in_order(chinese):
        return False
    names, numbers = shared & latin, shared - latin - MONTHS - WEEKDAYS
    if len(names) > 1 and len(numbers) > 1:
        return _in_order(english.text, names | numbers) == _in_order(chinese.text, names | numbers)
    return True


def _months_in_order(statement: Statement) -> list[str]:
    if statement.lang == "en":
        return [w.norm[:3] for w in statement.words if w.norm in MONTHS]
    found = []
    for match in _ZH_MONTH.finditer(statement.text):
        number = match.group(1)
        month = int(number) if number.isdigit() else _zh_small_number(number)
        if 1 <= month <= 12:
            found.append(_MONTH_NAMES[month - 1])
    return found


_MONTH_NAMES = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def _zh_small_number(text: str) -> int:
    """一 … 十二 as a number (0 when it is none)."""
    if text == "十":
        return 10
    if text.startswith("十"):
        return 10 + _ZH_NUMERALS.get(text[1:], 0)
    return _ZH_NUMERALS.get(text, 0)


def _in_order(text: str, values: frozenset[str]) -> list[str]:
    """``values`` (names, numbers) in the order ``text`` first gives them."""
    lowered = text.lower().replace(",", "")
    found = []
    for value in values:
        pattern = _name_pattern(value) if _LATIN.match(value) and not value[0].isdigit() else None
        match = (
            re.search(pattern, lowered)
            if pattern
            else re.search(rf"(?<![\d.]){re.escape(value)}(?![\d.])", lowered)
        )
        found.append((match.start() if match else len(lowered), value))
    return [value for _, value in sorted(found)]


def _values(statement: Statement, latin: frozenset[str], other: Statement) -> frozenset[str]:
    """The values ``statement`` gives: its numbers (across languages, as :func:`_numbers`
    reads them), months and weekdays, and which of ``latin`` it names."""
    counts = _name_counts(statement, latin)
    names = frozenset(name for name in latin if counts[name])
    return _clock_free(statement, other) | statement.dates | names


def _name_groups(english: Statement, latin: frozenset[str]) -> dict[str, str]:
    """Each Latin name's full name ("london" → "london drugs"): a name of two words is one
    value."""
    groups: dict[str, str] = {}
    for group in english.names:
        parts = sorted(name for name in group if name in latin)
        groups.update((name, " ".join(parts)) for name in parts)
    return groups


def _unaccounted_names(chinese: Statement, written: Statement) -> bool:
    """Whether the Chinese text names someone or something in Chinese characters that no
    Latin name of the pair accounts for (莉莉 for "Anna"): a value the values cannot compare."""
    for group in chinese.names:
        for name in group:
            if _HAS_CJK_ANYWHERE.search(name) and name in written.text:
                return True
    return False


# A Chinese telling that says every English word may add this many words of its own.
_MOST_ADDED_WORDS = 2


def _added_in_chinese(chinese: Statement, said: frozenset[str]) -> tuple[str, ...] | None:
    """The words a Chinese text adds to an English one it says word for word ("the mortgage
    is $4,100 a month at 6.1%" / 房贷每月4100美元，利率6.1%: 利率 "interest rate"), or None
    when what it adds may change what both say: only whole words of two characters or more
    (奶 of 奶茶 "milk tea" makes a kind of the tea the English says: a part of a said word),
    none right before a said word (美国绿卡: "US" qualifies the green card), at most
    :data:`_MOST_ADDED_WORDS`, and plain: no negation, cue, tense, comparison, qualifier,
    number, date or name (those were compared as the pair's own and must agree)."""
    characters = {char for item in said for char in item}
    heads = {SYNONYMS.get(part) for item in said for part in _spans(item)}

    def told(item: str) -> bool:
        return (
            item in ZH_LIGHT
            or item in said
            or item.lower() in said
            or item in characters
            or item in heads
            or item in _DATE_CHARACTERS
        )

    untold = {item for item in _undated(chinese) if not told(item)}
    words = [word for word in chinese.words if word.norm != ","]
    added: list[str] = []
    for index, word in enumerate(words):
        cjk = [char for char in word.surface if _HAS_CJK.match(char)]
        if word.norm not in untold and not untold & set(cjk):
            continue
        if not cjk:
            return None  # a synonym head no English word says
        if len(cjk) < 2 or not all(char not in characters for char in cjk):
            return None  # a part of a said word, or a character alone: in doubt
        following = next((w for w in words[index + 1 :] if w.surface != "的"), None)
        if following is not None and any(char in characters for char in following.surface):
            return None  # it qualifies what the English says
        added.append(word.surface)
    if not added or len(added) > _MOST_ADDED_WORDS:
        return None
    detail = read("，".join(added))
    if (
        _negated(detail)
        or detail.cues
        or detail.tense
        or detail.comparison
        or _qualifiers(detail)
        or detail.numbers
        or detail.dates
        or detail.names
    ):
        return None
    return tuple(added)


def _same_negated_across(english: Statement, chinese: Statement) -> bool:
    """ "I eat fish, not meat" is not 我吃肉，不吃鱼: the same words, as many negations, but
    not the same ones negated. Every English content word of a negated phrase ("not meat")
    is said in a negated phrase of the Chinese text (不吃肉)."""
    negated_en = _negated_phrases(english)
    words = [word for word in read(negated_en).content if word not in DATE_WORDS]
    if not words:
        return True
    negated_zh = read(_negated_phrases(chinese))
    spelled = _spelled_spans(negated_zh.text, _spoken_names(english))
    return _translations(words, negated_zh, spelled) is not None


_PHRASE_BREAK = re.compile(r"[,;:.!?，。；：！？、—–]+")


def _negated_phrases(statement: Statement) -> str:
    """The phrases of ``statement`` that hold a negation (or a verb of stopping), joined."""
    phrases = [
        phrase
        for phrase in _PHRASE_BREAK.split(statement.text)
        if phrase.strip() and _negated(read(phrase))
    ]
    return "，".join(phrases) if statement.lang == "zh" else ", ".join(phrases)


def _spoken_names(english: Statement) -> tuple[str, ...]:
    """The English text's names, and its capitalized words (a name that is also a word,
    "Molly", "Rose", opening a sentence is not read as one): what a Chinese text may write
    by sound (:func:`_spelled_spans`)."""
    capitalized = {
        word.norm
        for word in english.words
        if word.surface[:1].isupper() and word.surface.isalpha() and word.norm in english.content
    }
    return tuple(sorted(_all_names(english, english) | capitalized))


# What kind of place or body a name is, said after it in Chinese (TD银行, Edmonds站,
# Cedarbrook养老院) where English lets the name alone say it ("the mortgage is with TD").
_KINDS_OF_PLACES = sorted(
    re.findall(
        r"\S+",
        """银行 信用社 车站 地铁站 站 机场 公司 事务所 医院 诊所 学校 小学 中学 高中 大学 学院
        办公室 大道 大街 路 街 商场 超市 餐厅 饭店 酒店 健身房 工作室 中心 养老院 公园 图书馆
        游泳馆 泳池 球场""",
    ),
    key=len,
    reverse=True,
)
# the name, up to two characters the English says in words (Northwind物流公司: logistics), the kind
_KIND_AFTER_NAME = re.compile(
    r"([A-Za-z][A-Za-z0-9&'.-]*)\s*[\u4e00-\u9fff]{0,2}?(" + "|".join(_KINDS_OF_PLACES) + ")"
)


def _said_by_form(chinese: Statement, english: Statement) -> frozenset[str]:
    """What of the Chinese text the English one says by its form rather than by a word: a
    letter (A型 / "type A"), the kind of place a name is (TD银行), a habit (每周二 /
    "Tuesdays"), a superlative (最 / "closest")."""
    return (
        _letters_in(chinese, english)
        | _kinds_after_names(chinese, english)
        | _habit_in(chinese, english)
        | _superlative_in(chinese, english)
        | _cues_said(chinese, english)
    )


def _cues_said(chinese: Statement, english: Statement) -> frozenset[str]:
    """The Chinese words of a change that say an English one ("Dave moved to …" / Dave调去…:
    调 "transfer, move"): a cue is no content word in English, so no content word says it,
    while jieba keeps 调去 in the Chinese content. Both texts tell a change (checked first)."""
    return frozenset(
        cue for cue in chinese.cues if any(meanings(span) & english.cues for span in _spans(cue))
    )


# A habit told without "every": "Tuesdays", "Sunday mornings", "$4,100 a month", "daily".
_HABIT_EN = re.compile(
    r"\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)days|mornings|afternoons|evenings|nights"
    r"|weekends|daily|weekly|monthly|nightly|yearly"
    r"|(?:a|per|each) (?:day|week|month|year|night))\b",
    re.IGNORECASE,
)


def _habit_in(chinese: Statement, english: Statement) -> frozenset[str]:
    """每 ("every": 每周二, 每个月) when the English tells the habit by a plural or a rate
    ("Wednesdays after school", "$4,100 a month"). Which day or period is compared as a date
    or a word on its own: "Tuesdays" / 每周三 still differ."""
    if "every" in chinese.content and _HABIT_EN.search(english.text):
        return frozenset({"every"})
    return frozenset()


def _superlative_in(chinese: Statement, english: Statement) -> frozenset[str]:
    """最 ("most") when the English says a superlative ("closest", "best", "most"): the
    lemma the words are compared by drops it."""
    if "最" not in chinese.text:
        return frozenset()
    for word in english.words:
        surface = word.surface.lower()
        if surface == "most" or (surface.endswith("est") and word.norm != surface):
            return frozenset({"最"})
    return frozenset()


def _kinds_after_names(chinese: Statement, english: Statement) -> frozenset[str]:
    """The words of the Chinese text that say what kind of place a Latin name both texts
    give is, right after it (TD银行 "TD", Edmonds站 "Edmonds"): told by the name itself in
    the English one, not something it leaves out. Only this short list of places and bodies;
    a word after a name that says more (Google总部 "headquarters", Advil儿童版) is not one."""
    english_text = english.text.lower()
    return frozenset(
        match.group(2)
        for match in _KIND_AFTER_NAME.finditer(chinese.text)
        if re.search(_name_pattern(match.group(1).lower()), english_text)
    )


def _letters_in(chinese: Statement, english: Statement) -> frozenset[str]:
    """Latin letters of the Chinese text the English one writes alike, as a word of its own
    and not its first (A型 / "type A"): the English reading drops "A" as an article."""
    return frozenset(
        item
        for item in chinese.content
        if len(item) == 1
        and item.isupper()
        and re.search(rf"(?<=[^A-Za-z0-9]){re.escape(item)}(?![A-Za-z0-9])", english.text)
    )


def _gives_roles(statement: Statement) -> bool:
    """Word order that gives roles ("from Lisbon to Berlin", 把, 给, 向): not compared across
    languages. A lone English "to" ("allergic to", "to work") gives none: the people's order
    is compared on its own (:func:`_same_actors_across`)."""
    if not statement.relational:
        return False
    if statement.lang == "zh":
        return True
    return any(
        (word.norm in RELATIONAL or word.surface in RELATIONAL) and word.norm != "to"
        for word in statement.words
    )


def _same_roles_across(english: Statement, chinese: Statement) -> bool:
    """ "moved from Saturday to Sunday" / 从周六改到周日: the same dates, numbers and Latin
    names after from / 从 (where it was) and after to / into / 到 (where it went). Any other
    role word (把, 给, over, instead), or a role whose words hold no such value ("from tea to
    coffee": its words cannot be compared here), keeps the pair apart."""
    roles_en, roles_zh = _roles_of(english), _roles_of(chinese)
    return bool(roles_en) and roles_en == roles_zh


_ROLE_WORDS = {"from": "source", "to": "goal", "into": "goal", "从": "source", "到": "goal"}
_ROLE_EN = re.compile(r"\b(from|to|into)\s+(.*?)(?=\s+(?:from|to|into)\b|[,;:.!?—–]|$)", re.I)
_ROLE_ZH = re.compile(r"(从|到)(.*?)(?=从|到|[，。,;；:：!！?？]|$)")


def _roles_of(statement: Statement) -> dict[str, frozenset[str]] | None:
    """What follows each role word (from / to / 从 / 到) as its values (dates, numbers,
    Latin names), or None when another role word gives roles or a role has no value."""
    other = {
        word.norm
        for word in statement.words
        if (word.norm in RELATIONAL or word.surface in RELATIONAL) and word.norm not in _ROLE_WORDS
    }
    if other:
        return None
    pattern = _ROLE_ZH if statement.lang == "zh" else _ROLE_EN
    roles: dict[str, set[str]] = {}
    for match in pattern.finditer(statement.text):
        told = read(match.group(2)) if match.group(2).strip() else None
        values = (
            set()
            if told is None
            else {
                *told.dates,
                *told.numbers,
                *(n for n in _all_names(told, told) if _LATIN.match(n)),
            }
        )
        role = _ROLE_WORDS[match.group(1).lower()]
        if not values:
            if role == "goal" and statement.lang == "en" and "source" not in roles:
                continue  # "flying to Hangzhou to see my parents": "to" alone gives no role
            return None
        roles.setdefault(role, set()).update(values)
    return {role: frozenset(values) for role, values in roles.items()}


def _undated(chinese: Statement) -> list[str]:
    """The Chinese content without the characters that tell a date (年, 月, 号, 周六) when the
    text has numbers or dates: those were compared as numbers and dates."""
    if not chinese.numbers and not chinese.dates:
        return list(chinese.content)
    return [item for item in chinese.content if item not in _DATE_CHARACTERS]


# (周 of 每周四: jieba cuts it from the weekday, "every Thursday")
_DATE_CHARACTERS = frozenset({"年", "月", "日", "号", "周", "date"}) | WEEKDAYS
DATE_WORDS = MONTHS | WEEKDAYS


# Where a Chinese text may say an English word: a span of up to this many characters.
_LONGEST_WORD = 4
_ZH_BREAK = re.compile(r"[\s,，。.;；:：!！?？、（）()]+")


def _translations(
    words: Sequence[str],
    chinese: Statement,
    spelled: Sequence[tuple[str, tuple[str, ...]]] = (),
) -> frozenset[str] | None:
    """What in ``chinese`` says each of the English ``words``: the Chinese words (spans of
    its text, within a phrase) whose CC-CEDICT translations hold the word or open with it as
    a name (成都 "Chengdu …"), the spans that ``spelled`` reads as its name, the words the
    focused table gives for it, and content both share as is (a Latin name, a synonym head:
    上班 → work). None when one of them is not said at all: in doubt."""
    said: set[str] = set()
    spans = _spans(chinese.text)
    shared = {item.lower() for item in (*chinese.content, *chinese.terms)}  # O型血: "type O"
    for word in dict.fromkeys(words):
        senses = {word, *_derived(word), *(_DATED_ALIKE.get(word, ()) if chinese.dates else ())}
        found = {span for span in spans if senses & meanings(span) or word in proper_names(span)}
        found -= {span for span in found if _names_a_kind_of(span, word, words)}
        # 爱喝 / 喜欢吃 say "love" / "like" (tea, Sichuan food): the verb names no more
        found.update(
            span + verb
            for span in tuple(found)
            for verb in _EATING
            if span.endswith(_LIKING) and span + verb in chinese.text
        )
        found.update(span for span, names in spelled if word in names)  # 刘洋: Liu Yang
        found.update(zh for zh in EN_ZH.get(word, ()) if zh in chinese.text)
        found.update(zh for zh in _CHINESE_SYNONYMS.get(word, ()) if zh in chinese.text)
        if word in shared:
            found.add(word)
        if not found:
            return None
        said |= found
    return frozenset(said)


def _derived(word: str) -> tuple[str, ...]:
    """The words CC-CEDICT's glosses may say ``word`` with: an adverb by its adjective
    (completely: 完全 "complete"), a verb by who does it (teach: 老师 "teacher", as "teaches
    physics" / 当物理老师). Born: 生日 is told with a date (:data:`_DATED_ALIKE`)."""
    if len(word) > 4 and word.endswith("ly"):
        return (word[:-2], word[:-3] + "e") if word.endswith("lly") else (word[:-2],)
    if _LATIN.match(word) and word.isalpha():
        return (word + "er", word + "r") if word.endswith("e") else (word + "er",)
    return ()


# A part that counts or points (每天 "every day", 这次 "this time") makes no kind of the word.
_COUNTING = frozenset({"every", "each", "all", "this", "that", "one", "some", "whole", "same"})


def _names_a_kind_of(span: str, word: str, english: Sequence[str]) -> bool:
    """Whether ``span`` says ``word`` only as a kind of it, with a part the English does not
    say: 奶茶 is "milk tea", and its 奶 says milk, so "I like tea" is not 我喜欢奶茶 (绿茶 is
    "green tea" when the English says green). A part that also says ``word`` (早 of 早上,
    "early morning") or nothing of the rest (赔 of 理赔, "settle a claim") takes nothing away."""
    rest = compounds_with(span, word) - _COUNTING
    if not rest or len(span) < 2:
        return False
    said = set(english)
    if rest & said == rest:
        return False
    for part in (span[i:j] for i in range(len(span)) for j in range(i + 1, len(span) + 1)):
        if part == span:
            continue
        sense = meanings(part)
        if sense & rest and word not in sense and not sense & said:
            return True
        # 红茶 is "black tea" and its 茶 alone says tea: the rest is what makes it a kind
        if word in sense and not rest <= sense:
            return True
    return False


# Said alike when the text gives a date: born on March 22 / 3月22号生日.
_DATED_ALIKE = {"born": ("birthday",), "birthday": ("born",)}
# A liking word and the verb of eating or drinking after it (爱喝茶: "love tea").
_LIKING = ("爱", "喜欢")
_EATING = ("吃", "喝")


# A synonym head's Chinese words ("favourite" → 最喜欢): what the Chinese text says it with.
_CHINESE_SYNONYMS: dict[str, tuple[str, ...]] = {}
for _word, _head in SYNONYMS.items():
    if not _LATIN.match(_word):
        _CHINESE_SYNONYMS[_head] = (*_CHINESE_SYNONYMS.get(_head, ()), _word)


@lru_cache(maxsize=1024)
def _spans(text: str) -> tuple[str, ...]:
    """Every run of one to four Chinese characters in ``text`` that does not cross a
    punctuation mark: the words it may hold, however jieba cut it."""
    spans: set[str] = set()
    for phrase in _ZH_BREAK.split(text):
        for start in range(len(phrase)):
            for end in range(start + 1, min(start + _LONGEST_WORD, len(phrase)) + 1):
                if _HAS_CJK.match(phrase[start:end]):
                    spans.add(phrase[start:end])
    return tuple(sorted(spans))


_HAS_CJK = re.compile(r"^[\u3400-\u9fff\uf900-\ufaff]+$")


def _accounted_for(content: Sequence[str], said: frozenset[str]) -> bool:
    """Whether each Chinese content item (a character, a name, a synonym head) is one of, or
    a character of, what says an English word: nothing in the Chinese text goes unsaid in
    the English one."""
    characters = {char for item in said for char in item}
    # 每天 says "every", 最喜欢 says "like": the heads of the words inside what was said
    heads = {SYNONYMS.get(part) for item in said for part in _spans(item)}
    return all(
        item in said or item.lower() in said or item in characters or item in heads
        for item in content
        if item not in ZH_LIGHT
    )


def _same_actors_across(english: Statement, chinese: Statement, *, loosely: bool = False) -> bool:
    """ "Tom owes me $50" is not 我欠汤姆50美元: the people, a Chinese name read as the
    English one it translates to (汤姆 → Tom), in the same order. A name is compared here
    only where both texts hold it: "Japanese" is 日语, a word; jieba tags some words as names
    (过敏, 小提琴), which are compared as words. ``loosely``: as a free translation tells
    them (:func:`_told_loosely`)."""
    latin = frozenset(name for group in english.names for name in group) | {
        word.norm
        for word in english.words
        if word.person  # "Tom owes…": a tom is a cat too
    }
    mapped = {
        name: found[0]
        for group in chinese.names
        for name in group
        if len(found := sorted(meanings(name) & latin)) == 1
    }
    shared = frozenset(mapped.values()) | {name for name in latin if name in chinese.text.lower()}
    names = shared | frozenset(mapped)
    named_zh = {name for group in chinese.names for name in group} - shared
    sequence_zh = _people_in_order(
        actors(chinese, names),
        lambda actor: mapped.get(actor, actor if actor not in named_zh else None),
    )
    sequence_en = _people_in_order(
        actors(english, names),
        lambda actor: actor if actor in shared or actor not in latin else None,
    )
    if loosely:
        sequence_en, sequence_zh = _told_loosely(sequence_en, sequence_zh)
    if len(sequence_en) < 2 and len(sequence_zh) < 2:
        return True  # no roles to swap ("My favourite fruit" / 我最喜欢的水果: who is the same)
    return sequence_en == sequence_zh


def _told_loosely(
    first: list[frozenset[str]], second: list[frozenset[str]]
) -> tuple[list[frozenset[str]], list[frozenset[str]]]:
    """Two orders of people as a free translation tells them: "she" beside the name it stands
    for is that name; the user, or "he" / "she", told on one side only (Chinese leaves out
    我, English says "our offer … was accepted") is left out of both. Told on both sides they
    are compared in their order ("Tom paid me" / 我付了汤姆: a swap)."""
    every = (first, second)
    dropped = {
        who
        for who in (SELF, OTHER)
        if len({any(who in group for group in sequence) for sequence in every}) > 1
    }

    def kept(sequence: list[frozenset[str]]) -> list[frozenset[str]]:
        groups = (group - {OTHER} if len(group) > 1 else group for group in sequence)
        return [group - dropped for group in groups if group - dropped]

    return kept(first), kept(second)


def _people_in_order(
    groups: Sequence[frozenset[str]], keep: Callable[[str], str | None]
) -> list[frozenset[str]]:
    kept = (frozenset(filter(None, map(keep, group))) for group in groups)
    return [group for group in kept if group]


# A currency a Chinese text names (元, 加币, 英镑, 欧元, 美金, 刀, the colloquial 块).
_CURRENCY_ZH = re.compile(r"[元币镑欧刀块]|美金")


def _currency_left_out(english: Statement, chinese: Statement) -> frozenset[str]:
    """ "Hospital salary is $121k" / 医院的工资是12.1万: the amounts are the same (compared as
    numbers), and a Chinese text that names no currency at all leaves the dollar unsaid, not
    another one (12.1万元 / 12.1万英镑 name one, which must then say "dollar")."""
    if "dollar" not in english.content or not english.numbers or _CURRENCY_ZH.search(chinese.text):
        return frozenset()
    return frozenset({"dollar"})


_NO_MORE = frozenset({"anymore", "longer"})


def _same_qualifiers_across(english: Statement, chinese: Statement) -> bool:
    """ "I mostly eat fish" is not 我吃鱼: a qualifier on either side (mostly, only, 偶尔, 只)
    needs one of the same meaning on the other. Qualifiers are checked on every word: many
    are stop words the content comparison does not see."""
    qualifiers_en, qualifiers_zh = _qualifiers(english), _qualifiers(chinese)
    if _negated(chinese) and chinese.cues:
        # "don't … anymore", "no longer": the Chinese says it with a negation and a cue
        # (现在不交房租了, 不再), both compared on their own
        qualifiers_en -= _NO_MORE
    if not qualifiers_en and not qualifiers_zh:
        return True
    said = _translations(tuple(qualifiers_en), chinese)
    return said is not None and all(
        any(zh in part or part in zh for part in said) for zh in qualifiers_zh
    )


def _said_by_two(compound: str, first: str, second: str) -> bool:
    """Whether ``compound``'s main meaning (骑车 "ride a bike") is made of one word's
    meaning each of ``first`` and ``second`` (骑 "ride", 自行车 "bike"), and no more."""
    sense = set(main_sense(compound))
    of_first, of_second = sense & meanings(first), sense & meanings(second)
    # 喝奶茶 is not 喝茶: 奶茶 is "milk tea", a kind of tea that says more than its share
    says_more = any(
        set(own) & sense and not set(own) <= sense
        for own in (main_sense(first), main_sense(second))
    )
    return (
        len(sense) > 1
        and bool(of_first)
        and bool(of_second)
        and of_first | of_second == sense
        and not says_more
    )


def _close_rewording(old: Statement, new: Statement, similarity: float) -> Sameness | None:
    """SAME for a text this close that only adds or drops a word or two, or moves a phrase to
    the other end; None when it is more than that (a model, or a person, decides). Never when
    only one of them announces a change ("now", 改成)."""
    if (
        old.lang != new.lang
        or old.persons != new.persons
        or old.cues != new.cues
        or old.relational
        or new.relational
    ):
        return None
    words_old, words_new = set(old.content), set(new.content)
    gone, added = sorted(words_old - words_new), sorted(words_new - words_old)
    if not gone and not added:
        if similarity >= REORDERING_SIMILARITY and _rotated(old.content, new.content):
            return Sameness(
                Likeness.SAME, f"the same words, a phrase moved (similarity {similarity:.2f})"
            )
        return None
    allowed = max((words for least, words in REWORDING_STEPS if similarity >= least), default=0)
    if old.lang == "zh":
        allowed *= 2
    if (gone and added) or len(gone) + len(added) > allowed:
        return None
    if _qualifiers(old) != _qualifiers(new):
        return None  # "I'm a former vegetarian", "I rarely go to the gym"
    shared = words_old & words_new
    if any(_modifies(old, word, shared) for word in gone) or any(
        _modifies(new, word, shared) for word in added
    ):
        return None  # "I like hot dogs", "I drink decaf coffee", "I'm a nurse's assistant"
    return Sameness(
        Likeness.SAME,
        f"reworded ({_words_changed(gone, added)}), close in meaning (similarity {similarity:.2f})",
    )


def _modifies(statement: Statement, word: str, shared: set[str]) -> bool:
    """Whether ``word`` (a content word only ``statement`` has) qualifies one both texts
    have: right before it ("hot dogs", 假猫, "slightly allergic"), after a possessive ("a
    nurse's assistant") or, in English, right after it as a compound's head ("apple juice").
    Such a word changes what the shared one is."""
    words = statement.words
    for index, item in enumerate(words):
        if not _holds(item, word, statement.lang):
            continue
        following = words[index + 1] if index + 1 < len(words) else None
        # "plays tennis" is a verb and its object; "iced coffee", "smoked salmon" a kind
        inflected = (
            statement.lang == "en"
            and item.surface.lower() != item.norm
            and not item.surface.lower().endswith("ed")
        )
        if (
            following is not None
            and not following.is_name
            and not inflected
            and any(_holds(following, other, statement.lang) for other in shared)
        ):
            return True
        if statement.lang == "zh":
            rest = item.norm[item.norm.index(word) + 1 :]
            if any(other in rest for other in shared):
                return True  # 假猫 cut as one word: before a shared character of that word
        if index and words[index - 1].norm == "'s":
            return True
        if (
            statement.lang == "en"
            and index
            and not words[index - 1].is_name
            and item.norm not in _DEGREE
            and not item.surface.lower().endswith("ly")
            and _ends_a_phrase(statement.text, item.surface)
            and any(_holds(words[index - 1], other, statement.lang) for other in shared)
        ):
            return True  # "apple juice" is no apple: a noun phrase's last word is its head
    return False


# Words that end a phrase without being its head ("… in the morning best").
_DEGREE = frozenset({"best", "good", "most", "more", "less", "least", "well", "too", "also"})


def _ends_a_phrase(text: str, surface: str) -> bool:
    """Whether ``surface`` is followed in ``text`` by punctuation or the end."""
    return re.search(rf"\b{re.escape(surface)}\s*(?:[,.;:!?，。；：！？)]|$)", text) is not None


def _holds(word: Word, content: str, lang: str) -> bool:
    """Whether the word is (English) or contains (Chinese: content is by character) it."""
    return word.norm == content or (lang == "zh" and content in word.norm)


def _rotated(first: Sequence[str], second: Sequence[str]) -> bool:
    """``second`` is ``first`` with its head moved to the end (or its tail to the front), the
    two parts sharing no word: 我更喜欢猫，不太喜欢狗 / 我更喜欢狗，不太喜欢猫 swaps two
    parts built alike, which changes who is preferred."""
    return len(first) == len(second) and any(
        list(second) == [*first[k:], *first[:k]] and not set(first[:k]) & set(first[k:])
        for k in range(1, len(first))
    )


def _different(why: str) -> Sameness:
    return Sameness(Likeness.DIFFERENT, why)


def _unsure(why: str) -> Sameness:
    return Sameness(Likeness.UNSURE, why)


def _people(old: Statement, new: Statement) -> Sameness | None:
    others_old, others_new = _others(old), _others(new)
    if others_old != others_new:
        return _different(f"about someone else ({_who(old)} / {_who(new)})")
    return None


def _others(statement: Statement) -> set[str]:
    """The people besides the user; "she" in a text naming someone is taken to be that one
    ("Lily lost her first tooth")."""
    others = set(statement.persons) - {SELF}
    if statement.names:
        others.discard(OTHER)
    return others


def _who(statement: Statement) -> str:
    return ", ".join(said_person(person) for person in statement.persons) or "nobody named"


def _words_changed(gone: Sequence[str], added: Sequence[str]) -> str:
    """``without “a b”, with “c”``: what one wording has that the other has not."""
    parts = [
        f"without “{' '.join(gone)}”" if gone else "",
        f"with “{' '.join(added)}”" if added else "",
    ]
    return ", ".join(part for part in parts if part)


def _negation(old: Statement, new: Statement) -> Sameness | None:
    if _negated(old) != _negated(new):
        return _different("one of them is negated")
    return None


def _negated(statement: Statement) -> int:
    """Negations, a verb of stopping counted as one: "I quit smoking" says "I don't smoke
    (anymore)", 我戒咖啡了 says 我不喝咖啡了, "Tom dropped Duolingo" 汤姆不用Duolingo了; it is
    not "I smoke". ("I dropped the kids at school" counts too: in doubt, never merged.)"""
    words = statement.words
    if statement.lang == "zh":
        stops = sum(
            word.surface.startswith(_STOPPING_ZH) and not word.surface.startswith("戒指")
            for word in words
        )
    else:
        stops = sum(
            word.norm in _STOPPING
            or (word.norm == "give" and index + 1 < len(words) and words[index + 1].norm == "up")
            for index, word in enumerate(words)
        )
    return statement.negations + stops


# Verbs that end what follows them ("quit smoking", 戒烟, 放弃): a negation in other words.
_STOPPING = frozenset({"quit", "stop", "cease", "drop"})
_STOPPING_ZH = ("戒", "放弃", "停止", "停掉")


def _numbers(old: Statement, new: Statement) -> Sameness | None:
    if _clock_free(old, new) != _clock_free(new, old):
        shown = (", ".join(sorted(n)) or "none" for n in (old.numbers, new.numbers))
        return _different("numbers differ ({} / {})".format(*shown))
    if old.lang == new.lang and _numbers_moved(old.text, new.text):
        return _different("the same numbers count other things")
    if old.dates != new.dates:
        shown = (", ".join(sorted(n)) or "none" for n in (old.dates, new.dates))
        return _different("dates differ ({} / {})".format(*shown))
    return None


def _clock_free(statement: Statement, other: Statement) -> frozenset[str]:
    """Its numbers; across languages a clock time without its am/pm (11pm / 晚上十一点: Chinese
    says the part of the day in words, read apart from the number)."""
    if statement.lang == other.lang:
        return statement.numbers
    numbers = frozenset(_AM_PM.sub("", number) for number in statement.numbers)
    if (
        "1" in numbers
        and not _DIGIT_ONE.search(statement.text)
        and not FIRST_OF_A_MONTH.search(statement.text)  # 三月一号 is March 1st
    ):
        # "one of the boxes", "once a month", "my first day" / 摔坏了一个, 每个月去一次: a one
        # in words is as often an article across languages (一个 reads as "a", :mod:`statement`)
        numbers -= {"1"}
    return numbers


_AM_PM = re.compile(r"(?<=\d)[ap]m$")
_DIGIT_ONE = re.compile(r"(?<![\d.,])1(?![\d.,]*\d)")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")
_WORD_OR_NUMBER = re.compile(r"[^\W\d_]+|\d+(?:[.,]\d+)?")


def _numbers_moved(old: str, new: str) -> bool:
    """Whether a word next to a number in both texts has other numbers beside it: "2 cats and
    3 dogs" / "3 cats and 2 dogs", "room 12 on floor 3" / "room 3 on floor 12", 2只猫和3只狗 /
    3只猫和2只狗. The sets of numbers are the same; what they count is not."""
    first, second = _numbers_by_neighbour(old), _numbers_by_neighbour(new)
    return any(first[key] != second[key] for key in first.keys() & second.keys())


def _numbers_by_neighbour(text: str) -> dict[tuple[str, str], frozenset[str]]:
    """Each number's neighbours, ("before" or "after", a word; for Chinese the two characters
    after it, past the classifier: 3只猫), with the numbers found beside each."""
    found: dict[tuple[str, str], set[str]] = {}
    if _HAS_CJK_ANYWHERE.search(text):
        for match in _NUMBER.finditer(text):
            before, after = text[max(0, match.start() - 1) : match.start()], text[match.end() :]
            for side, word in (("before", before), ("after", after[:2])):
                if word.strip():
                    found.setdefault((side, word), set()).add(_number_value(match.group()))
    else:
        tokens = _WORD_OR_NUMBER.findall(text.lower())
        for at, token in enumerate(tokens):
            if not _NUMBER.fullmatch(token):
                continue
            for side, near in (("before", at - 1), ("after", at + 1)):
                if 0 <= near < len(tokens) and not _NUMBER.fullmatch(tokens[near]):
                    found.setdefault((side, tokens[near]), set()).add(_number_value(token))
    return {key: frozenset(numbers) for key, numbers in found.items()}


def _number_value(number: str) -> str:
    """6.0 and 6 are one score, 2,850 and 2850 one rent."""
    return f"{float(number.replace(',', '')):g}"


_HAS_CJK_ANYWHERE = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def _tense(old: Statement, new: Statement) -> Sameness | None:
    """ "I work at Northwind" / "I worked at Northwind", 我要戒咖啡 / 我戒了咖啡."""
    hard = {"past", "future"}
    if old.lang != new.lang and (
        _done_in_both(old, new) or _changed_in_both(old, new) or _dated_past_in_both(old, new)
    ):
        return None
    if old.tense & hard != new.tense & hard:
        return _different("the tense differs: one tells it as past or to come, the other not")
    if old.tense != new.tense:
        return _unsure("one may say it has already happened, the other not")
    return None


# English verbs whose past says a state or a habit is over ("I lived in Berlin", "I played
# tennis"), where Chinese 了 after them says it began (我住在柏林了) or happened once.
_STATES = frozenset(
    {
        *("be", "have", "live", "work", "like", "love", "hate", "own", "know", "use", "want"),
        *("need", "prefer", "enjoy", "believe", "study", "teach", "play", "drink", "eat"),
        *("smoke", "spend", "stay", "run", "swim", "feel", "think", "keep", "mean"),
    }
)


def _done_in_both(old: Statement, new: Statement) -> bool:
    """An English past of events ("I sold the car", "we moved") and a Chinese text that
    tells them done with 了 / 过 / 已经 (卖掉了): one tense in two languages, when neither
    says more (a future, a "used to") and no English past verb is a state or a habit."""
    english, chinese = (old, new) if old.lang == "en" else (new, old)
    verbs = past_verbs(english)
    return (
        english.tense == {"past"}
        and (
            chinese.tense == {"done"}
            or (not chinese.tense and _TOLD_WHEN.search(chinese.text) is not None)
        )
        and bool(verbs)
        and not verbs & _STATES
    )


def _dated_past_in_both(old: Statement, new: Statement) -> bool:
    """ "I had LASIK on February 20" / 2月20号做了近视激光手术, "Yesterday was my birthday;
    they made me a cake" / 生日那天给我做了蛋糕, "She turned four last fall" / 去年秋天满四岁:
    a past tied to a time is an event then, whatever the verb ("had", "was" are states
    only when no time says when; :func:`_done_in_both` leaves those apart). The English
    past is dated (a date, "yesterday", "last …", "… ago") and the Chinese text tells it
    done (了 / 过), or without any tense mark names a past time (去年, 昨天, 上周) itself.
    A future or "used to" on either side keeps the tenses apart."""
    english, chinese = (old, new) if old.lang == "en" else (new, old)
    if english.tense != {"past"} or chinese.tense - {"done"}:
        return False
    english_dated = bool(english.dates) or _says_a_past_time(english)
    if chinese.tense == {"done"}:
        return english_dated
    return english_dated and _PAST_TIME_ZH.search(chinese.text) is not None


# Words that put what is told at a past time: "yesterday", "last fall", "two years ago"
# ("my last job", "the last time" say no time).
_PAST_TIME_EN = re.compile(
    r"\b(?:yesterday|last (?:night|week|weekend|month|year|spring|summer|fall|autumn|winter"
    r"|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|(?:days|weeks|months|years) ago"
    r")\b",
    re.IGNORECASE,
)
# "when I was a kid" (小时候): a time, whose "kid" is no person (:mod:`statement`) and no
# content word, but still a word the Chinese text must say.
_WHEN_YOUNG = re.compile(
    r"\b(?:when|as) (?:i|we) (?:was|were) (?:a |an )?(?:little |small |young )?(?:kid|child)s?\b"
    r"|\bas (?:a |an )?(?:little |small |young )?(?:kid|child)\b",
    re.IGNORECASE,
)
_PAST_TIME_ZH = re.compile(r"昨天|前天|去年|前年|上周|上个?星期|上个?月|小时候")


def _says_a_past_time(statement: Statement) -> bool:
    return any(pattern.search(statement.text) for pattern in (_PAST_TIME_EN, _WHEN_YOUNG))


def _changed_in_both(old: Statement, new: Statement) -> bool:
    """ "I drink green tea now" / 我现在改喝绿茶了: a change told in the present with a cue
    (now, no longer, switched) and in Chinese with a cue and 了, the 了 of a new situation,
    not of something past (过 says "have done once": not this)."""
    english, chinese = (old, new) if old.lang == "en" else (new, old)
    return (
        not english.tense
        and bool(english.cues)
        and chinese.tense == {"done"}
        and bool(chinese.cues)
        and not any(word.norm == "过" for word in chinese.words)
    )


# 是…的 around a date tells when something happened: 我们是2015年10月8号结婚的 ("we got
# married on October 8, 2015"), a past event without 了.
_TOLD_WHEN = re.compile(r"是[^，。,;；]*\d[^，。,;；]*[\u4e00-\u9fff]的(?=[。！!.，,;；]|$)")


def _actors(old: Statement, new: Statement) -> Sameness | None:
    """ "Tom owes me 500" / "I owe Tom 500": the same people, in other roles. "X is Y" may
    swap its sides ("Neovim is my favourite editor")."""
    if old.copula or new.copula:
        return None
    names = _all_names(old, new)
    actors_old, actors_new = actors(old, names), actors(new, names)
    if len(actors_old) > 1 and set(actors_old) == set(actors_new) and actors_old != actors_new:
        return _different("the same people in other roles")
    return None


def _all_names(old: Statement, new: Statement) -> frozenset[str]:
    return frozenset(name for group in (*old.names, *new.names) for name in group)


def _names(old: Statement, new: Statement) -> Sameness | None:
    """The same names, as often. A name is one in either text ("Lily goes to bed" starts
    with a dictionary word; "Lily's bedtime" does not), and is counted in both raw texts:
    jieba may cut 佐藤健二 in one sentence and 佐藤健 / 二 in the next."""
    every = _all_names(old, new)
    if old.lang != new.lang:
        # Across languages a name is counted in both when spelled alike or when the Chinese
        # text's name is its CC-CEDICT translation (柏林 is Berlin, 汤姆 is Tom).
        every = frozenset(name for name in every if _LATIN.match(name))
        every -= _shortened_names(old, new)
        old, new = _names_in_latin(old, every), _names_in_latin(new, every)
    counts_old, counts_new = _name_counts(old, every), _name_counts(new, every)
    if counts_old != counts_new:
        gone = sorted(name for name in every if counts_old[name] > counts_new[name])
        added = sorted(name for name in every if counts_new[name] > counts_old[name])
        return _different(f"names differ ({', '.join(gone) or '–'} / {', '.join(added) or '–'})")
    if old.lang != new.lang:
        # Chinese puts places and times before what happens there ("在Cedarbrook跟我最要好的
        # 同事是Grace Santos"): across languages the people's order is compared on its own
        # (_same_actors_across) and word order that gives roles (from / to, 把) never merges.
        return None
    order_old, order_new = _name_order(old, every), _name_order(new, every)
    if len(order_old) > 1 and order_old != order_new and not _sides_swapped(old, new, every):
        return _different("the same names in other roles")
    return None


def _shortened_names(old: Statement, new: Statement) -> frozenset[str]:
    """Across languages, the parts of a full name one text gives and the other leaves out:
    "My husband Tom Becker" / 我老公汤姆, "Dr. Helen Liang" / 梁医生 call one person by a
    part of the name (becker, helen: dropped here), as long as a part of that name is said in
    both, and the rest nowhere in the shorter text. A text that names someone else
    (汤姆·汉克斯) keeps a word the other does not say, which keeps the pair apart."""
    if old.lang == new.lang:
        return frozenset()
    english, chinese = (old, new) if old.lang == "en" else (new, old)
    latin = frozenset(name for group in english.names for name in group if _LATIN.match(name))
    if not latin:
        return frozenset()
    told = _names_in_latin(chinese, latin)
    counts = _name_counts(told, latin)
    left_out: set[str] = set()
    for group in english.names:
        said = {name for name in group if counts[name]}
        if len(group) > 1 and said:
            left_out |= {name for name in group if not counts[name] and _LATIN.match(name)}
    return frozenset(left_out)


def _sides_swapped(old: Statement, new: Statement, names: frozenset[str]) -> bool:
    """ "Kenji Sato is my boss at Lumen" / "My manager at Lumen is Kenji Sato": "X is Y"
    told as "Y is X", where X is a name alone on its side in both; "Tom is Anna's manager" /
    "Anna is Tom's manager" name another one alone."""
    sides_old, sides_new = _copula_sides(old, names), _copula_sides(new, names)
    if sides_old is None or sides_new is None:
        return False
    (alone_old, rest_old), (alone_new, rest_new) = sides_old, sides_new
    return alone_old == alone_new and rest_old == rest_new


def _copula_sides(
    statement: Statement, names: frozenset[str]
) -> tuple[frozenset[str], frozenset[str]] | None:
    """(the names of the side that is only a name, the names of the other side) of "X is Y",
    or None when it is no such sentence (one copula, one side a name alone)."""
    words = [word for word in statement.words if word.norm != ","]
    at = [index for index, word in enumerate(words) if word.norm in ("be", "是")]
    if len(at) != 1:
        return None
    sides = (words[: at[0]], words[at[0] + 1 :])
    found = [frozenset(word.norm for word in side if word.norm in names) for side in sides]
    alone = [
        bool(side) and all(word.norm in names or word.is_name for word in side) for side in sides
    ]
    if alone[0] == alone[1]:
        return None
    return (found[0], found[1]) if alone[0] else (found[1], found[0])


def _names_in_latin(statement: Statement, latin: frozenset[str]) -> Statement:
    """A Chinese statement whose names that translate to one of ``latin`` are written so."""
    if statement.lang != "zh":
        return statement
    text = statement.text
    for name in sorted(latin - set(_name_counts(statement, latin).elements())):
        # the longest spans that say it: 慕尼黑 for Munich, 日语 for Japanese, 成都 Chengdu;
        # every one (圣诞节 … 圣诞), written as all the names it says (刘洋: Liu Yang)
        for span in sorted(_spans(text), key=len, reverse=True):
            # the names its sense opens with first: 新宿 is "Shinjuku, district of Tokyo"
            said = latin & proper_names(span) or latin & meanings(span)
            if name in said and span in text:
                text = text.replace(span, f" {' '.join(sorted(said))} ")
    if latin:  # no Latin name: nothing to spell (every span would be read aloud for nothing)
        text = _spelled_names(text, sorted(latin))
    return replace(statement, text=text) if text != statement.text else statement


def _spelled_names(text: str, latin: Sequence[str]) -> str:
    """``text`` with the Chinese names a Latin one spells in pinyin written in Latin letters
    (:func:`_spelled_spans`)."""
    for span, names in _spelled_spans(text, tuple(latin)):
        text = text.replace(span, f" {' '.join(names)} ")
    return text


@lru_cache(maxsize=1024)
def _spelled_spans(text: str, latin: tuple[str, ...]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The spans of ``text`` (two characters or more, longest first, none inside another)
    that one Latin name of ``latin``, or two ("Liu Yang", tried both ways), spells in pinyin:
    刘洋 → (liu, yang), 小敏 → (xiaomin). Chinese names the dictionary does not hold are
    written in English by their sound."""
    wanted: dict[str, tuple[str, ...]] = {}
    for name in latin:
        wanted.update((sound, (name,)) for sound in sounds(name))
    wanted.update(
        (first + second, (first, second)) for first in latin for second in latin if first != second
    )
    found: list[tuple[str, tuple[str, ...]]] = []
    for span in sorted(_spans(text), key=len, reverse=True):
        if len(span) < 2 or any(span in longer for longer, _ in found):
            continue
        said = sorted(spoken for spoken in spellings(span) if spoken in wanted)
        if said and spells(span, said[0]):
            found.append((span, wanted[said[0]]))
    return tuple(found)


_JOINING = re.compile(r"^(?:[\s,、，]|and\b|or\b|和|与|跟|及|以及)*$", re.IGNORECASE)


def _name_order(statement: Statement, names: frozenset[str]) -> list[frozenset[str]]:
    """The names in the order the text mentions them first; names joined only by "and", ","
    or 和 form one group, their order free ("English and Portuguese")."""
    text = statement.text.lower()
    found = sorted(
        (match.start(), match.end(), name)
        for name in names
        if (match := re.search(_name_pattern(name), text))
    )
    groups: list[set[str]] = []
    end = 0
    for start, stop, name in found:
        if groups and _JOINING.match(text[end:start]):
            groups[-1].add(name)
        elif not groups or name not in groups[-1]:
            groups.append({name})
        end = max(end, stop)
    return [frozenset(group) for group in groups]


def _name_pattern(name: str) -> str:
    if _LATIN.match(name):
        return rf"(?<![a-z0-9]){re.escape(name)}(?![a-z0-9])"
    return re.escape(name)


def _name_counts(statement: Statement, names: frozenset[str]) -> Counter[str]:
    text = statement.text.lower()
    counts: Counter[str] = Counter()
    for name in names:
        counts[name] = len(re.findall(_name_pattern(name), text))
    return counts


def _antonyms(old: Statement, new: Statement) -> Sameness | None:
    only_old, only_new = set(old.content) - set(new.content), set(new.content) - set(old.content)
    for word in only_old:
        for other in only_new:
            if tuple(sorted((word, other))) in ANTONYMS:
                return _different(f"opposite words ({word} / {other})")
    return None


def _roles(old: Statement, new: Statement) -> Sameness | None:
    """ "tea over coffee" / "coffee over tea", 比起咖啡…茶 / 咖啡胜过茶: what is preferred."""
    if old.comparison is None or new.comparison is None:
        return None
    (more_old, less_old), (more_new, less_new) = old.comparison, new.comparison
    swapped = (more_old & less_new) | (less_old & more_new)
    if swapped:
        return _different(f"the comparison is reversed ({', '.join(sorted(swapped))})")
    return None


def _wording(old: Statement, new: Statement) -> Sameness:
    if old.lang != new.lang:
        return _unsure("different languages")
    first_old, first_new = _first_person(old), _first_person(new)
    swapped = set(old.content) == set(new.content) and _halves_swapped(old, new)
    if first_old != first_new and not swapped:
        return _unsure(
            f"about another person first ({said_person(first_old)} / {said_person(first_new)})"
        )
    words_old, words_new = set(old.content), set(new.content)
    if words_old != words_new:
        gone, added = sorted(words_old - words_new), sorted(words_new - words_old)
        return _unsure(f"worded differently ({_words_changed(gone, added)})")
    if old.comparison is not None and old.comparison == new.comparison:
        # 比起咖啡我更爱喝茶 / 我喜欢喝茶胜过咖啡: the roles agree, whatever the order.
        return Sameness(Likeness.SAME, "the same comparison, in other words")
    names = {name for group in old.names for name in group}
    order_old = _order(old, names)
    if order_old != _order(new, names):
        if old.relational or new.relational:
            return _different("the same words in another order, which changes who does what")
        if _halves_swapped(old, new):
            return Sameness(Likeness.SAME, "the same words, the two sides of “is” swapped")
        return _unsure("the same words in another order")
    return Sameness(Likeness.SAME, "same words, people, negation, numbers and names")


def _halves_swapped(old: Statement, new: Statement) -> bool:
    """ "My dog is my best friend" / "My best friend is my dog": who comes first differs, what
    is said does not."""
    if old.relational or new.relational:
        return False
    halves_old, halves_new = _halves(old), _halves(new)
    return halves_old is not None and halves_new is not None and halves_old == halves_new[::-1]


def _halves(statement: Statement) -> tuple[frozenset[str], frozenset[str]] | None:
    """The content words before and after the one "is" / 是 of a statement ("Grace is my
    closest friend" / "My closest friend is Grace": the same halves, swapped); None when it
    has none or several."""
    words = statement.words
    at = [index for index, word in enumerate(words) if word.norm in ("be", "是")]
    if len(at) != 1:
        return None
    content = set(statement.content)
    halves = [
        frozenset(part for word in side for part in content if _holds(word, part, statement.lang))
        for side in (words[: at[0]], words[at[0] + 1 :])
    ]
    return (halves[0], halves[1]) if all(halves) else None


def _first_person(statement: Statement) -> str:
    first = statement.persons[0] if statement.persons else SELF
    if first == SELF:  # "I have a daughter called Emma" is about her
        return introduced_relation(statement) or first
    return first


def _order(statement: Statement, names: set[str]) -> list[str]:
    """Content words in first-mention order, without when (moved freely) and names (their
    order is checked with their coordination: "English and Portuguese")."""
    order = [w for w in statement.content if w not in TIME_WORDS and w not in names]
    for first, second in statement.coordinated:
        # "shrimp and crab" / "crab and shrimp": the pair in one (sorted) order
        for start in range(len(order) - len(first) - len(second) + 1):
            span = order[start : start + len(first) + len(second)]
            if span in ([*first, *second], [*second, *first]):
                order[start : start + len(span)] = min([*first, *second], [*second, *first])
                break
    return list(dict.fromkeys(order))

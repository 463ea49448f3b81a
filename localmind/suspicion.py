"""Whether a new memory plausibly contradicts an existing one: what may enter the review queue
(and, with a local model, what is worth asking it about).

Without a model, the queue used to take every neighbour above a low cosine similarity: most
of them compatible facts ("I grew up in Lyon" / "My sister lives in Munich"). A pair is now
suspect only when both speak of the same person and

- both set the same one-value attribute (where one lives, works, who the manager is, a
  favourite, "my rent is …") to something else, or
- one negates what the other says, or changes its number, or reverses its comparison, or
- the new one announces a change (now, moved, no longer, 现在, 改成, 不再, 搬到 …) to something
  the old one speaks of (a slot, a name that is no person's, two words, a Chinese noun).

The person is whom a statement opens with (else the user). Across languages, where words
cannot be compared, a change about a Latin name, a slot or a number both give is suspect when
the older text told no change itself. See docs/design.md, "The review queue, round 4" and
"round 5".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from localmind import bilingual, places
from localmind.bilingual import DICTIONARY
from localmind.kinds import activities_named
from localmind.simplified import reads_simplified
from localmind.statement import (
    ANTONYMS,
    BREAKUPS,
    COURTING,
    CUE_PREFIXES_ZH,
    CUE_WORDS,
    ENDINGS,
    JOB_ENDINGS,
    MONTHS,
    NEGATIONS,
    OTHER,
    OTHER_WORDS,
    POSSESSIVE_SELF,
    QUALIFIERS,
    RELATION_ADJECTIVES,
    RELATIONS,
    SELF,
    SELF_WORDS,
    SINGLE_SLOTS,
    SLOT_ADJECTIVES,
    STOP_WORDS,
    TIME_WORDS,
    USED_TO_ZH,
    VEHICLE_CLASSIFIER,
    WEEKDAYS,
    Statement,
    Word,
    measure_word,
    names_another_thing,
    nouns,
    nouns_among,
    past_verbs,
    read,
    said_person,
    unseen_opening_name,
)

# A name both languages spell alike ("Rachel Ng" in a Chinese text; not 汤姆 for "Tom").
_LATIN = re.compile(r"^[a-z0-9]", re.IGNORECASE)
_CJK = re.compile(r"^[\u3400-\u9fff]")
_ALL_CJK = re.compile(r"[\u3400-\u9fff]+")
# Content words shared by this share of the shorter text make two statements "about the same
# thing" for the negation and number rules.
OVERLAP = 0.5
# A negation flips a statement only when the rest is nearly the same.
NEGATION_OVERLAP = 0.6
# Enough in common, with a shared name or a one-value attribute, to be about the same thing.
WEAK_OVERLAP = 0.3


@dataclass(frozen=True, slots=True)
class Suspicion:
    contradicts: bool  # plausibly: a person (or a model) should look
    why: str


# Why a pair is not suspect when the two texts are about different people.
ABOUT_SOMEONE_ELSE = "about someone else"


@reads_simplified
def suspect(existing: str, candidate: str) -> Suspicion:
    old, new = read(existing), read(candidate)
    ended = _ended(old, new)
    if ended is not None:
        return ended
    if not _same_subject(old, new):
        subjects = f"{said_person(_subject(old, new))} / {said_person(_subject(new, old))}"
        return Suspicion(False, f"{ABOUT_SOMEONE_ELSE} ({subjects})")
    if old.lang != new.lang:
        return _across_languages(old, new)
    names_old, names_new = _flat(old.names), _flat(new.names)
    shared_names = names_old & names_new
    terms_old = set(old.terms) - TIME_WORDS - names_old
    terms_new = set(new.terms) - TIME_WORDS - names_new
    shared = terms_old & terms_new
    overlap = len(shared) / max(1, min(len(terms_old), len(terms_new)))
    overlap_all = len(shared) / max(1, len(terms_old), len(terms_new))
    single = _slots_told(old) & _slots_told(new)  # not "job" of "job7 step 3:"
    told_over = _told_as_over(old, new)
    if told_over is not None:
        return told_over
    # Entries of one numbered series ("Diary 17: …", "note 18: …") are other items, each with
    # its own values: a template filled in again is no change (docs/design.md, "round 9").
    series = _other_entries_of_one_series(old, new)
    if not series and _same_frame_other_value(old, new):
        what = (
            f"both set {_slot_name(_told_first(new, single))}"
            if single
            else "the same thing is told"
        )
        return Suspicion(True, f"{what}, with another value")
    if old.comparison and new.comparison:
        (more_old, less_old), (more_new, less_new) = old.comparison, new.comparison
        if (more_old & less_new) or (less_old & more_new):
            return Suspicion(True, "the comparison is reversed")
    if (
        (old.negations != new.negations or _negated(old) != _negated(new))
        and (overlap >= NEGATION_OVERLAP or (shared_names and overlap >= WEAK_OVERLAP))
        and _negates_what_both_say(old, new)
    ):
        return Suspicion(True, "one negates the other")
    numbers_old, numbers_new = _value_numbers(old), _value_numbers(new)
    if (
        not series
        and numbers_old
        and numbers_new
        and numbers_old != numbers_new
        and not new.event
        # a habit both name is no attribute whose number changed ("fact number 1 about tea" /
        # "… number 2 about tea"): only a change word changes it (_slots_a_cue_changes)
        and (old.slots & new.slots) - _HABITS
        and (overlap_all >= OVERLAP or (_cues(new) and numbers_old & numbers_new))
    ):
        return Suspicion(True, "the numbers changed")
    if (
        single
        and not new.event
        and _values_differ(old, new)
        and (
            overlap >= WEAK_OVERLAP
            # "my manager …" in both, each with its own names: "… so my new manager is Rachel
            # Ng" / "My manager at Lumen is Kenji Sato"
            or (single & _owned_slots(old) & _owned_slots(new) and _values(old) and _values(new))
            or _cues(new)
            or any(s.startswith("my ") for s in single)
            or _slot_values_differ(old, new, single & VALUE_SLOTS)
            # whom one works for, named by both: "works as a data engineer at Zalando" / "My
            # employer is Bosch" (review9 M1)
            or _employers_differ(old, new)
            # another one bought: "We bought a Tesla Model Y" after "We drive a 2016 Honda
            # Civic" (review12 R6)
            or _bought(new, single)
        )
    ):
        return Suspicion(True, f"both set {_slot_name(_told_first(new, single))}")
    # A change cue changes a value both name ("replaced the iPhone 12", "cancelled Crunch"),
    # not the person both are about: 莉莉最近迷上了… is no change to 莉莉上三年级.
    # Neither the person both are about (王磊 in 王磊的火锅店… after 王磊开了一家火锅店) nor a
    # title ("Mrs. Kim" / "is now Mrs. Grace Park") is what a change is to.
    people = _people(old) | _people(new) | {_subject(old, new), _subject(new, old)}
    # "Yoga moved to Wednesdays" after "My yoga class is on Tuesdays": yoga is no one
    people -= _opening_things(old, new) | _opening_things(new, old)
    shared_values = _near_a_cue(new, shared_names - people - TITLES)
    # A Chinese word of one character that is no noun (上, 下, 开: jieba's leftovers of 上夜班,
    # 下雪) says too little to be what a change is to.
    shared_things = {term for term in shared - people if not _a_bare_character(term)}
    cues = _cues_about(old, new)
    # The person both are about is no shared thing ("Fang does yoga on Sunday mornings" /
    # "Fang started drinking coffee again": half their words only because both name Fang;
    # review12 R1), as "I" is in no text's words.
    about_things = len(shared - people) / max(
        1, min(len(terms_old - people), len(terms_new - people))
    )
    if (
        cues
        and (
            _slots_a_cue_changes(old, new)
            or shared_values
            or len(shared_things) >= 2
            # … unless a number of theirs changed (身高138厘米 / 长了8厘米，现在146)
            or (len(shared) >= 2 and new.numbers - old.numbers and old.numbers - new.numbers)
            or about_things >= OVERLAP
            or (
                _shared_nouns(old, new) - names_old - names_new
                and (
                    cues - _WHEN_ONLY
                    or bool(old.negations) != bool(new.negations)  # 不吃香菜 / 现在能接受香菜
                    or _numbers_replaced(old, new)
                    or _new_latin_names(old, names_new - names_old)
                )
            )
        )
        and not _tells_the_change_again(old, new)
        and not _now_with_nothing_new(old, new)
        and not _one_place_at_two_levels(old, new)
        and not _changes_another_attribute(old, new)
        and not _another_attribute_of_one_thing(old, new)
        and not _another_activity_started(old, new, cues, shared | shared_names)
        and not _another_pursuit(old, new)
    ):
        said = _said(new, _cue_before(new, cues, shared_values | shared_things))
        return Suspicion(True, f"“{said}” announces a change to what the older memory says")
    negated_change = _a_change_negates_what_the_older_says(old, new)
    if negated_change is not None and not _tells_the_change_again(old, new):
        said = _said(new, negated_change)
        return Suspicion(True, f"“{said}” and a “not” change what the older memory says")
    if _opposed(terms_old - terms_new, terms_new - terms_old) and overlap >= OVERLAP:
        return Suspicion(True, "opposite words about the same thing")
    return Suspicion(False, "compatible: nothing it says changes the older memory")


# What one drinks is told as a habit ("I drink two americanos every morning") or as a taste
# ("我不喜欢喝绿茶"); a change of drink ("I switched to matcha latte") changes the habit only.
_HABITS = frozenset({"~drink"})


def _slots_a_cue_changes(old: Statement, new: Statement) -> frozenset[str]:
    """The attributes both speak of that a change word in ``new`` may change: every one, but
    a habit only when the older text tells it as done, not negated (review13 J9)."""
    shared = old.slots & new.slots
    return shared - _HABITS if old.negations else shared


@reads_simplified
def announces_change_to(existing: str, candidate: str) -> bool:
    """Whether ``candidate`` announces a change (now, moved, started, 现在, 不再 …) to what
    ``existing`` tells, where the suspicion rules cannot compare the two word by word (another
    language, other words): both set the same one-value attribute (where one lives, the
    school, ``statement.SINGLE_SLOTS``), or neither sets one ("Mochi's vet is Dr. Alvarez" /
    "We switched Mochi to Dr. Kim"; "I prefer coffee" / 我戒咖啡了). Texts that set different
    attributes, or only one of them an attribute, are no change of one: "Mia started school
    in September" changes nothing in 用户的女儿叫米娅，今年六岁 (review9 M2). What ``remember``
    notes as a later version on a cue alone, and recall judges so too (docs/design.md, "Wrong
    answers, round 10"). Never the same attribute of a relative or a friend (我爸妈决定不搬来北京了
    changes nothing in where the user lives, review11 Z13)."""
    old, new = read(existing), read(candidate)
    if not new.cues:
        return False
    if old.single_slots or new.single_slots:
        return (
            bool(old.single_slots & new.single_slots)
            and not _the_user_and_another(old, new)
            and not _one_place_at_two_levels(old, new)
        )
    return not _another_pursuit(old, new)


# Cached: recall asks it of the same pairs of results query after query (2 % of a recall's CPU
# at 100k memories, uncached), and the answer depends on the two texts alone.
@reads_simplified
@lru_cache(maxsize=4096)
def may_replace(existing: str, candidate: str, alike: bool) -> bool:
    """Whether ``candidate``, told later, may be a later version of ``existing``: the suspicion
    rules flag it, or it announces a change (``announces_change_to``) to a text at least
    ``alike`` as remember requires, and either way it tells of the same person and the same
    thing (``told_of_one_thing``). What remember notes as a later version and what recall
    judges so of two results nothing links (docs/design.md, "Outdated marks, round 12")."""
    if (
        alike
        and announces_change_to(existing, candidate)
        and told_of_one_thing(existing, candidate, announced=True)
    ):
        return True
    return _suspect_cached(existing, candidate).contradicts and told_of_one_thing(
        existing, candidate
    )


@reads_simplified
def told_of_one_thing(existing: str, candidate: str, announced: bool = False) -> bool:
    """Whether two texts may be two values of one thing, as recall must see it before it marks
    the older "may be outdated" by a newer one (review12 R3-R5): the same person
    (``_same_subject``; "Dad" is "my dad"). ``announced``: the newer was judged a change only
    by its change word (``announces_change_to``), which reads neither who nor what; of a
    relative or someone named, told in one language without a one-value attribute, it must
    then also name a thing the older names beyond whom both are about ("My dad's blood
    pressure is normal now" changes nothing in "My dad's doctor changed his medication to
    losartan"; "Emma's new best friend is Aisha" nothing in "Emma's teacher this year is Mr.
    Okafor"). The user's own changes keep the change word alone: on the personal sets most of
    them name nothing the older names (a gym after another, 陶艺课不上了 after a pottery class)."""
    old, new = read(existing), read(candidate)
    if _about_two_people(old, new):
        return False
    subjects = {_subject(old, new), _subject(new, old)}
    if not announced or SELF in subjects or old.lang != new.lang:
        return True
    if old.single_slots or new.single_slots:
        return True  # announces_change_to passed them on a one-value attribute both set
    if _of_someone_unnamed_before(old, new):
        return False
    people = _people(old) | _people(new) | subjects | set(RELATIONS)
    said_again = {
        term
        for term in set(old.terms) - TIME_WORDS - people - TITLES
        if not _a_bare_character(term)
        and (term in new.terms or (len(term) > 1 and _CJK.match(term) and term in new.text))
    }
    # a unit (毫克, mg) or the title of someone named (王医师) says nothing of what changed: two
    # drugs one doctor gave one patient are two things (review15a TW2) ...
    left_out = _units(old) | _titles_of(old, people) | _titles_of(new, people)
    said_again -= left_out
    # ... and a name jieba split across its words (脉优 → 药脉 优) is said again whole: "脉优停了，
    # 改成得安稳" changes the 脉优 of "王医师开给志明的血压药脉优，每天5毫克"
    said_again |= _runs_said_again(old, new, left_out | people | TIME_WORDS)
    return bool(said_again | ((_flat(old.names) & _flat(new.names)) - people - TITLES))


#: Units a dose or an amount is told in, in English (jieba tags the Chinese ones "q").
_UNITS = frozenset({"mg", "mcg", "g", "kg", "ml", "l", "iu", "milligram", "microgram", "gram"})


def _units(statement: Statement) -> set[str]:
    """The terms of ``statement`` that are units of measure: 毫克, 公斤 (jieba's "q"), mg."""
    return {
        term
        for term in statement.terms
        if term in _UNITS or (_CJK.match(term) and measure_word(term))
    }


def _titles_of(statement: Statement, people: set[str]) -> set[str]:
    """Words right after someone's name: the title of 王医师, 李老师."""
    words = statement.words
    return {
        words[at + 1].norm
        for at, word in enumerate(words[:-1])
        if word.norm in people and _CJK.match(words[at + 1].norm)
    }


def _runs_said_again(old: Statement, new: Statement, left_out: set[str]) -> set[str]:
    """Two Chinese characters in a row of ``old`` that ``new`` holds too, outside the words
    ``left_out`` (people, their titles, units, time words) and the particles: a name jieba did
    not know is split across its words (王医师开给志明的血压药脉优 → 药脉 优; 把志明的脉优停了 → 脉
    优停), so 脉优 is no term of either, yet both say it."""
    text = old.text
    masked = [False] * len(text)
    at = 0
    for word in old.words:
        found = text.find(word.surface, at)
        if found < 0:
            continue
        at = found + len(word.surface)
        if (
            word.norm in left_out
            or word.is_name
            or word.person
            or any(person in word.norm for person in left_out if person)
        ):
            masked[found:at] = [True] * (at - found)
    pairs = set()
    for i in range(len(text) - 1):
        pair = text[i : i + 2]
        if (
            not (masked[i] or masked[i + 1])
            and _ALL_CJK.fullmatch(pair)
            and not set(pair) & _PARTICLES
            and pair in new.text
            and not any(pair in word.norm for word in new.words if word.is_name or word.person)
        ):
            pairs.add(pair)
    return pairs


#: Characters that join words rather than name a thing (的 of 志明的, 了 of 停了), and 吃, said of
#: every drug and dish (two drugs both "吃" are not one drug).
_PARTICLES = frozenset("的了是在把给和也都就吃很")


def _of_someone_unnamed_before(old: Statement, new: Statement) -> bool:
    """Whether the newer text opens with someone named (no relative, not the user) whom the
    older never names: "Mochi is in Berlin now! Chen Hao brought her" tells of Mochi, so it is
    no later version of "Chen Hao got the offer from Zalando! He starts in Berlin on January
    15", however much both share (Chen Hao, Berlin; review13 J7). A change of someone is told
    of them: their name is in the text it changes."""
    subject = _subject(new, old)
    return (
        subject not in (SELF, OTHER, *_RELATIVES)
        and _surely_a_person(subject, new)
        and not _mentions(old, subject)
    )


def _about_two_people(old: Statement, new: Statement) -> bool:
    """Whether two texts are surely about two people: each opens with someone read for sure
    (the user, a relative, a word read as a person), not the same one, neither named in the
    other text. Not two names in two scripts (子轩 / Leo may be one child), nor a subject the
    reader may have got wrong (考完试…, "Big news: …"): on the personal sets those were one
    person's updates."""
    if _same_subject(old, new):
        return False
    one, other = _subject(old, new), _subject(new, old)
    if not (_surely_a_person(one, old) and _surely_a_person(other, new)):
        return False
    names = one not in (SELF, *_RELATIVES) and other not in (SELF, *_RELATIVES)
    if names and bool(_ALL_CJK.fullmatch(one)) != bool(_ALL_CJK.fullmatch(other)):
        return False
    return not (_mentions_apart(old, other) or _mentions_apart(new, one))


def _mentions_apart(statement: Statement, person: str) -> bool:
    """Whether the text names ``person`` as someone of its own: the user's "my" of "my
    husband's birthday" (我先生的生日) only says whose husband it is, so that text is no more
    about the user than "Zhiming's birthday" is. Read as naming the user, the two birthdays of
    a couple were one thing, linked as old and new versions, and recall answered "When is my
    husband's birthday?" with the user's own (review15a TW15)."""
    if person != SELF:
        return _mentions(statement, person)
    words = statement.words
    return any(
        word.norm in SELF_WORDS and not _owns_a_relative(words[at + 1 : at + 3], word.norm)
        for at, word in enumerate(words)
    )


def _owns_a_relative(following: Sequence[Word], said: str) -> bool:
    """Whether a self word is the possessive of the relative that follows it: "my husband",
    我先生, 我的先生 (the user's word, then at most 的)."""
    if said not in POSSESSIVE_SELF or not following:
        return False
    first = following[0]
    if first.norm == "的" and len(following) > 1:
        first = following[1]
    return RELATIONS.get(first.norm) in _RELATIVES


def _surely_a_person(subject: str, statement: Statement) -> bool:
    # the user only when the text says I/my/我: a text read as the user's for want of a subject
    # it knows (以恒转学…, 考完试以后…) may be anyone's
    return (
        (subject == SELF and _mentions(statement, SELF))
        or subject in _RELATIVES
        or any(word.person and word.norm == subject for word in statement.words)
    )


def _mentions(statement: Statement, person: str) -> bool:
    """Whether the text names ``person``: the user by I/my/我, a relative by any of its words
    (我妈 for "mother"), someone by name."""
    if person == SELF:
        return any(word.norm in SELF_WORDS for word in statement.words)
    if person in _RELATIVES:
        return any(RELATIONS.get(word.norm) == person for word in statement.words)
    return person in statement.text.lower()


_suspect_cached = lru_cache(maxsize=1024)(suspect)


#: The relations a subject may be (statement.RELATIONS' canonical words: "parents", "friend").
_RELATIVES = frozenset(RELATIONS.values())


def _the_user_and_another(old: Statement, new: Statement) -> bool:
    """Whether one text is about the user and the other about a relative or a friend of theirs
    (我现在住在北京 / 我爸妈决定不搬来北京了). Not a name ("My unit manager is Kelly Brown" / "Kelly
    Brown moved to the ICU") nor "we": those may well tell the user's own change."""
    subjects = {_subject(old, new), _subject(new, old)}
    return SELF in subjects and bool(subjects & _RELATIVES)


def _ended(old: Statement, new: Statement) -> Suspicion | None:
    """The new text tells of the end of what the older one says is, in either language: the
    person's relationship ("We broke up", 我们分手了 after "My boyfriend is Tom" or "I'm dating
    Tom"), or a pet or a person the older text names ("My dog Rex died last year" after "I have
    a dog named Rex"; not "Tom's father died": the name owns what ended). A job's end is a job
    word of its own (``statement.JOB_ENDINGS``), left to the slot rules."""
    endings = _cues(new) & ENDINGS
    if not endings:
        return None
    breakups = endings & BREAKUPS
    subject = _subject(new, old)
    if (
        breakups
        and (subject == SELF or subject in _flat(old.names))
        and ("partner" in old.slots or any(word.norm in COURTING for word in old.words))
    ):
        said = _said(new, min(breakups))
        return Suspicion(True, f"“{said}”: the relationship the older memory tells of ended")
    # "fired from Acme" ends a job (the slot rules), not Acme; "Jonas and I split up" ends a
    # relationship (above), not Jonas: "Jonas is a teacher" still holds.
    lives = endings - JOB_ENDINGS - BREAKUPS
    ended = _near_a_cue(new, _flat(old.names) & _unowned_names(new)) if lives else set()
    ended &= _who_ended(new, lives)
    if ended:
        name = next(w.surface for w in new.words if w.norm == min(ended))
        said = _said(new, min(lives))
        return Suspicion(True, f"it tells an end of {name}, named in the older memory (“{said}”)")
    return None


def _who_ended(statement: Statement, endings: frozenset[str]) -> set[str]:
    """The names said right before an ending word, no other person between: whose end it
    tells ("My dog Rex died", 豆豆去世了). "… lives with my sister Linda since my dad passed
    away" tells the father's, not Linda's (a name earlier in the clause is no one who ended)."""
    words = statement.words
    found: set[str] = set()
    for index, word in enumerate(words):
        if word.norm not in endings:
            continue
        for before in reversed(words[:index]):
            if before.norm == ",":
                break
            if before.is_name or before.person:
                found.add(before.norm)
                break
            if (
                before.norm in RELATIONS
                or before.surface.lower() in RELATIONS
                or before.norm in PEOPLE_WORDS
            ):
                break
    return found


def _said(statement: Statement, cue: str) -> str:
    """A change word as the text says it, with the word that makes it one ("broke up",
    "passed away")."""
    words = statement.words
    for index, word in enumerate(words):
        if word.norm == cue:
            after = words[index + 1].surface if index + 1 < len(words) else ""
            joined = after.lower() in ("up", "away", "off")
            return f"{word.surface} {after}" if joined else word.surface
    return cue


def _unowned_names(statement: Statement) -> set[str]:
    """The names a text gives that own nothing after them ("Tom's father", 汤姆的爸爸)."""
    words = statement.words
    return {
        word.norm
        for index, word in enumerate(words)
        if word.is_name and (index + 1 == len(words) or words[index + 1].norm not in ("'s", "的"))
    }


_ONE_CHARACTER = re.compile(r"[\u3400-\u9fff]")


_SENTENCE_ENDS = frozenset("。！？；!?;")


def _a_bare_character(term: str) -> bool:
    return bool(_ONE_CHARACTER.fullmatch(term)) and not nouns_among((term,))


def _cue_before(statement: Statement, cues: frozenset[str], shared: set[str]) -> str:
    """The change word the reason names: the first one right before a word both texts say
    ("Sold the Corolla when I moved to Hamburg" after "I drive a 2012 Corolla": "sold", not
    "moved"; review10 F14), else the first in order."""
    words = statement.words
    for index, word in enumerate(words):
        ahead = {w.norm for w in words[index + 1 : index + 1 + _CUE_REACH]}
        if word.norm in cues and ahead & shared:
            return word.norm
    return min(cues)


def _near_a_cue(statement: Statement, values: set[str]) -> set[str]:
    """Of ``values``, those said in a clause with one of the statement's change words or a
    negation, or opening the statement: "quit" in "I took piano lessons in Hangzhou until I
    was twelve, then quit" changes the lessons, not Hangzhou; 跟Northwind提离职 and "…, not
    United" are about them."""
    cues = _cues(statement) | NEGATIONS
    # Chinese strings short clauses with commas (比亚迪秦卖了，卖了六万八): a sentence is its unit.
    ends = _SENTENCE_ENDS if statement.lang == "zh" else None
    found: set[str] = set()
    clause: set[str] = set()
    for word in [*statement.words, None]:
        if word is None or (word.norm == "," and (ends is None or word.surface in ends)):
            if cues & clause:
                found |= values & clause
            clause = set()
        else:
            clause.add(word.norm)
    # … and the thing the text opens with, which a change later in its first sentence is about
    # ("The iPhone 12 died, so I switched to a Pixel"; not Northwind裁员了。我也开始看新机会了).
    opening = _first_content_word(statement)
    if opening is not None and opening.is_name and opening.norm in values:
        first_sentence: set[str] = set()
        for word in statement.words:
            if word.norm == "," and word.surface in _SENTENCE_ENDS | {"."}:
                break
            first_sentence.add(word.norm)
        if cues & first_sentence:
            found.add(opening.norm)
    return found


# How many words after a negation may still be what it negates ("don't really like coffee").
_NEGATED_REACH = 3


def _negated(statement: Statement) -> frozenset[str]:
    """The words a text's negations reach: as many negations in both texts is no sameness
    when they negate other things ("…, no EpiPen needed" / "hazelnuts, not peanuts", review13
    J1)."""
    words = statement.words
    return frozenset(
        following.norm
        for index, word in enumerate(words)
        if word.norm in NEGATIONS
        for following in words[index + 1 : index + 1 + _NEGATED_REACH]
    )


def _negates_what_both_say(old: Statement, new: Statement) -> bool:
    """A negation the two texts do not share is about a word both say ("doesn't eat meat
    anymore" / "eats meat again"), not about something only one of them tells ("still can't
    believe it", 不再是寄养的 / 已经正式领养了). A word both negate is no change ("still no
    sugar")."""
    for negating, other in ((old, new), (new, old)):
        said = set(other.terms) - _negated(other)
        words = negating.words
        for index, word in enumerate(words):
            if word.norm not in NEGATIONS:
                continue
            following = [w.norm for w in words[index + 1 : index + 1 + _NEGATED_REACH]]
            if any(norm in said or _glued_in(norm, said) for norm in following):
                return True
    return False


def _glued_in(norm: str, said: set[str]) -> bool:
    """A Chinese word the other text says glued to a character, or the other way round."""
    return bool(_CJK.match(norm)) and any(_glued(norm, w) or _glued(w, norm) for w in said)


def _across_languages(old: Statement, new: Statement) -> Suspicion:
    """Words cannot be compared across languages here (most such pairs are the same fact told
    again: a person, or a model, merges them): suspect only a one-value attribute given a new
    name both languages spell alike ("manager … Dave" / 经理 … Rachel)."""
    single = _related_slots(old.single_slots, new.single_slots)
    names_old, names_new = _flat(old.names), _flat(new.names)
    new_names = set(_new_latin_names(old, names_new - names_old)) - _chinese_names_of(old)
    # whom both are about, named in the other script (Chloe / 以宁), is no new value
    new_names -= {_subject(old, new), _subject(new, old)}
    one_place = _one_place_at_two_levels(old, new)  # "I live in Beijing" / 我现在住在望京
    # the same numbers and no sign of change: the older text told again, with a name the
    # dictionary does not spell alike ("Our address is 7421 Walker Ave, Burnaby" / 新家地址是
    # 本拿比Walker Ave 7421号: 本拿比 is not in CC-CEDICT)
    told_again = (
        not _cues(new)
        and not new.negations
        and bool(new.numbers)
        and _numbers(new) <= _numbers(old)
    )
    if single and names_old & names_new and new_names and not one_place and not told_again:
        return Suspicion(True, f"both set {_slot_name(_told_first(new, single))}, with a new name")
    # Each names the value, spelled in Latin letters or translated, and they differ:
    # 用户的男朋友叫Jonas / "The user's boyfriend is now Sam", "works at Siemens" / 现在在博世工作
    # (review10 F26)
    values_old, values_new = _named_values(old), _named_values(new)
    # the older text told the change, the new one only says "now": the same change told again
    # in the other language (妈妈从卡尔加里搬到本拿比… / "Mom lives with us in Burnaby now"),
    # with no name both spell alike to show it (本拿比 is not in CC-CEDICT)
    retold = _marks_a_change(old) and not _strong_cues(new) and not new.negations
    if (
        single
        and values_old
        and values_new
        and not _without_numbers(values_old) & _without_numbers(values_new)
        and not _named_again(values_old, new)
        and (_cues(new) or _bought(new, single))
        and not one_place
        and not retold
    ):
        return Suspicion(
            True, f"both set {_slot_name(_told_first(new, single))}, with another name"
        )
    # What both spell alike: names in Latin letters that are no person's, and numbers.
    shared = {name for name in names_old & names_new if _LATIN.match(name)}
    shared |= _translated_names(old, new) | _translated_names(new, old)
    # … less whom they are about, not a place the other text names ("Japan is off" / 日本)
    places = {
        w.norm
        for one, other in ((old, new), (new, old))
        for w in one.words
        if _a_place_of(w, other)
    }
    shared -= (_people(old) | _people(new)) - places
    new_numbers = _numbers_replaced(old, new)
    if _older_numbers_compared(old, new):
        return Suspicion(True, "the older numbers, compared with new ones")
    # A change word before a thing the other text names in its own language: "用户戒了
    # 咖啡" after "The user drinks coffee every morning" (review10 F26)
    if not shared and not single and not new_numbers:
        things = _things_in_both(old, new)
        changed = {
            cue
            for cue in _strong_cues(new) - _WHEN_ONLY - _NOT_OF_A_THING
            if _right_after(new, cue, things)
        }
        # … and a thing begun again that the older text said was not done: "Fang started
        # drinking coffee again" after 王芳不喝咖啡 (review12 R1)
        restarted = old.negations and not new.negations and changed & _BEGINNING
        if changed and (not _marks_a_change(old) or (restarted and not _strong_cues(old))):
            return Suspicion(
                True, f"“{_said(new, min(changed))}” announces a change to what both name"
            )
        # … a thing taken up again that the older text gave up or negated (我又喜欢吃香菜了
        # after "I can't stand cilantro anymore", 我又开始喝咖啡了 after "I quit coffee"), or
        # given up in Chinese, 不…了 "no longer", what the older one tells as done (半马不跑了
        # after "I'm training for the BMO half marathon"; review12 R6)
        again = _taken_up_again(new, things)
        if again and _given_up(old) and not _taken_up_again(old, things):
            return Suspicion(True, f"“{again}”: what the older memory gave up is taken up again")
        if not old.negations and _no_longer_zh(new, things) and not _marks_a_change(old):
            return Suspicion(True, "“不…了”: what the older memory tells is no longer done")
    if not (shared or single or new_numbers):
        return Suspicion(False, "in another language; nothing both spell alike has changed")
    if shared and not new_numbers and shared <= _moved_to(new):
        # the new text moves to what the older names: its plan come true ("The Boxhagener
        # Platz flat: the landlord said yes!" / 我搬进了Boxhagener Platz的新家), not a change
        # of it; the home it leaves is what it changes (review13 J4)
        return Suspicion(False, "in another language; it moves to what the older memory names")
    topic = _opening_thing(old, new)
    if topic and new_numbers:
        return Suspicion(True, f"the numbers of {topic} changed")
    # A negation in one language is often a change word in the other (不用 / "stopped"):
    # either one marks a change. When both texts mark one, it is mostly the same change told
    # again, unless the numbers changed.
    marks = bool(new.negations or _cues_about(old, new) - _WHEN_ONLY)
    if marks and (not _marks_a_change(old) or new_numbers):
        marker = min(_cues_about(old, new) - _WHEN_ONLY or {"not"})
        return Suspicion(True, f"“{marker}” announces a change to what both name")
    if not marks:
        return Suspicion(False, "in another language; it announces no change")
    return Suspicion(False, "in another language; the change it tells is the older one's")


def _without_numbers(values: set[str]) -> set[str]:
    """Names without the digits that end them: the English reader cuts "RAV4" into "rav" and 4,
    jieba keeps rav4 whole."""
    return {value.rstrip("0123456789") or value for value in values}


def _moved_to(statement: Statement) -> set[str]:
    """The names a text moves to: after a move word, in its clause (搬进了Boxhagener Platz的新家,
    "moved to Burnaby")."""
    words = statement.words
    found: set[str] = set()
    for index, word in enumerate(words):
        if not (word.norm.startswith("搬") or word.norm in ("move", "relocate")):
            continue
        for after in words[index + 1 :]:
            if after.norm == ",":
                break
            if after.is_name:
                found.add(after.norm)
    return found


def _chinese_names_of(statement: Statement) -> set[str]:
    """The Latin spellings CC-CEDICT gives the Chinese words of ``statement`` that name a place
    or a thing, whether jieba knows them as names or not (国会山: "Capitol Hill"): a name the
    other language gives that is no new one."""
    if statement.lang != "zh":
        return set()
    return {
        name
        for word in statement.words
        if len(word.norm) > 1 and _CJK.match(word.norm) and not word.person
        for name in bilingual.proper_names(word.norm)
    }


def _related_slots(old: frozenset[str], new: frozenset[str]) -> frozenset[str]:
    """The one-value attributes both set, whom one works for counted as the job: "works at
    Siemens" sets the employer, 在博世工作 the job."""
    both = old & new
    if not both and {"employer", "job"} & old and {"employer", "job"} & new:
        return frozenset({"job"})
    return both


def _named_values(statement: Statement) -> set[str]:
    """The names a text gives, each in Latin letters: its own, and what CC-CEDICT makes of a
    Chinese proper name (博世 → bosch)."""
    named = {name for name in _flat(statement.names) if _LATIN.match(name)}
    for word in statement.words:
        if word.is_name and _CJK.match(word.norm):
            named |= bilingual.proper_names(word.norm) - _COMMON_SENSES
    return named


# What CC-CEDICT's entry for a firm also says of it (博世: "Bosch", "German", "company").
_COMMON_SENSES = frozenset({"company", "german", "technology", "group", "bank", "city"})


def _things_in_both(old: Statement, new: Statement) -> set[str]:
    """The content words one text says in Chinese that the other says in English (咖啡 /
    coffee), by CC-CEDICT's meanings."""
    chinese, english = (old, new) if old.lang == "zh" else (new, old)
    said = set(english.terms)
    found = set()
    for word in chinese.words:
        if not _CJK.match(word.norm) or len(word.norm) < 2:
            continue
        # jieba glues a verb to its object (喝咖啡): the object alone is the thing; and a
        # thing to what it is of (游泳课 "swimming class"): the thing alone, too
        tails = (word.norm[i:] for i in range(1, len(word.norm) - 1))
        heads = (word.norm[:i] for i in range(len(word.norm) - 1, 1, -1))
        for part in (word.norm, *tails, *heads):
            if _meant(part) & said:
                found.add(part)
                break
    return found


# Change words that say when or how it feels, not what changed ("finally feels settled").
_NOT_OF_A_THING = frozenset({"finally", "终于", "new", "新", "back", "recently", "lately"})


# Change words that begin something (what a negated older text said was not done).
_BEGINNING = frozenset({"start", "begin", "resume", "开始", "重新"})


# Change words said after what they change.
_TRAILING_CUES = frozenset({"anymore"})


def _right_after(statement: Statement, cue: str, things: set[str]) -> bool:
    """Whether one of ``things`` (Chinese words, or their English meanings) follows ``cue``
    within ``_CUE_REACH`` words: 戒了咖啡, "quit coffee"; not "the new unit … nights"."""
    meanings = set().union(*(bilingual.meanings(thing) for thing in things)) if things else set()
    words = statement.words
    for index, word in enumerate(words):
        if word.norm != cue:
            continue
        # (not a word that only qualifies the next one: "switched my phone plan" changes
        # the plan, not the phone; review13 J9)
        ahead = {
            w.norm
            for at, w in enumerate(words[index + 1 : index + 1 + _CUE_REACH], index + 1)
            if not names_another_thing(words, at)
        }
        if cue in _TRAILING_CUES:  # "not a foster anymore": the thing comes before it
            ahead = {w.norm for w in words[max(0, index - _CUE_REACH) : index]}
        else:
            # the thing that changed, said right before its verb (after "now" at most):
            # "Chloe's swimming moved", 游泳课现在改到周四; in English the word right before
            # it only, not what qualifies that ("My German class moved": the class, not
            # German; jieba cuts 游泳课 in two, both the thing)
            for before in reversed(words[max(0, index - _CUE_REACH) : index]):
                if before.norm == ",":
                    break
                if before.norm not in _WHEN_ONLY and _a_content_word(before):
                    ahead.add(before.norm)
                    if statement.lang == "en":
                        break
        if ahead & things or ahead & meanings:
            return True
    return False


def _meant(chinese: str) -> set[str]:
    """CC-CEDICT's English words for ``chinese``, and the parts of its hyphenated ones (半马
    "half-marathon": "marathon" too) of four letters or more."""
    meanings = set(bilingual.meanings(chinese))
    return meanings | {
        part
        for meaning in meanings
        if "-" in meaning
        for part in meaning.split("-")
        if len(part) > 3
    }


def _a_content_word(word: Word) -> bool:
    """Not a stop word, a pronoun or a person: "swimming" of "Chloe's swimming moved", not
    "we" of "We moved" (CC-CEDICT's 美元 "US$" means "we" too, by its "US")."""
    return not (
        word.person
        or word.norm in STOP_WORDS
        or word.norm in PEOPLE_WORDS
        or word.norm in TIME_WORDS
        or word.norm == ","
    )


# Words that say a thing is done again ("again", 又, 重新): with a thing given up before, a change.
_AGAIN = frozenset({"again", "又", "重新"})
# Change words by which a thing is given up (what taking it up again reverses).
_GIVING_UP = frozenset({"quit", "stop", "drop", "anymore", "longer", "戒", "戒掉", "不再", "放弃"})


def _taken_up_again(statement: Statement, things: set[str]) -> str:
    """The word by which ``statement`` says it does one of ``things`` again, within
    ``_CUE_REACH`` words of it either way ("drinking coffee again", 我又开始喝咖啡了); ""."""
    if statement.lang != "zh":  # the English words CC-CEDICT gives the Chinese things
        things = set().union(*(_meant(thing) for thing in things)) if things else set()
    words = statement.words
    for index, word in enumerate(words):
        if word.norm not in _AGAIN:
            continue
        near = words[max(0, index - _CUE_REACH) : index + 1 + _CUE_REACH]
        if any(w.norm in things or any(t in w.norm for t in things) for w in near):
            return word.surface
    return ""


def _given_up(statement: Statement) -> bool:
    """It negates what it tells, or gives it up ("I can't stand cilantro anymore", "I quit
    coffee", 我戒咖啡了, "Still off coffee")."""
    words = statement.words
    return bool(statement.negations or _cues(statement) & _GIVING_UP) or any(
        word.norm.startswith("戒")
        # "Still off coffee": "off" before a thing (not "the day off")
        or (word.norm == "off" and index + 1 < len(words) and _a_content_word(words[index + 1]))
        for index, word in enumerate(words)
    )


def _no_longer_zh(statement: Statement, things: set[str]) -> bool:
    """A Chinese text says of one of ``things`` 不…了, "no longer" (半马不跑了, 香菜不吃了): a
    不 after the thing and a 了 right after the verb it negates, in one clause."""
    if statement.lang != "zh" or not things:
        return False
    words = statement.words
    for index, word in enumerate(words[:-2]):
        if word.norm != "不" or words[index + 2].norm != "了":
            continue
        clause = []
        for before in reversed(words[:index]):
            if before.norm == ",":
                break
            clause.append(before.norm)
        if any(thing in norm for norm in clause for thing in things):
            return True
    return False


def _translated_names(chinese: Statement, english: Statement) -> set[str]:
    """The names of things the English text gives that CC-CEDICT gives a word of the Chinese
    one ("Huawei" / 华为, "IELTS" / 雅思): what both speak of, though spelled apart. Not
    people's names (汤姆 / Tom: the subject rules see to them)."""
    if chinese.lang != "zh" or english.lang == "zh":
        return set()
    # a capitalised word the reader took for a person ("Japan is off") may be the place too
    latin = _flat(english.names) | {w.norm for w in english.words if _a_place_of(w, chinese)}
    return {
        name
        for word in chinese.words
        if word.is_name and not word.person and _CJK.match(word.norm)
        for name in bilingual.proper_names(word.norm) & latin
    }


def _opening_thing(old: Statement, new: Statement) -> str | None:
    """The thing both texts open with, told in either language ("My IELTS overall was 6.5" /
    雅思重考出分了：总分7.5): what their numbers are about. None when either opens with
    something else (a person, a verb, another thing)."""
    first_old, first_new = _first_content_word(old), _first_content_word(new)
    if first_old is None or first_new is None or first_old.person or first_new.person:
        return None
    if not (first_old.is_name and first_new.is_name):
        return None
    names_old = _spelled_in_latin(first_old.norm)
    return next(iter(sorted(names_old & _spelled_in_latin(first_new.norm))), None)


def _spelled_in_latin(norm: str) -> set[str]:
    """A name as Latin letters: itself, or CC-CEDICT's names for a Chinese one."""
    return set(bilingual.proper_names(norm)) if _CJK.match(norm) else {norm}


def _first_content_word(statement: Statement) -> Word | None:
    for word in statement.words:
        norm = word.norm
        if norm in (",", "my") or norm in STOP_WORDS or norm in TIME_WORDS or norm in SELF_WORDS:
            continue
        return word
    return None


# "Now" and "recently" say when, not that anything changed: across languages, where the
# words cannot be compared, they alone are too weak a sign.
_WHEN_ONLY = frozenset(
    {"now", "currently", "nowadays", "recently", "lately", "现在", "如今", "目前", "最近"}
)


def _strong_cues(statement: Statement) -> frozenset[str]:
    return _cues(statement) - _WHEN_ONLY


def _marks_a_change(statement: Statement) -> bool:
    return bool(statement.negations or _strong_cues(statement))


# Slots whose words are their values: "single" / "married", "vegetarian" / "meat".
VALUE_SLOTS = frozenset({"partner", "diet"})


def _slot_values_differ(old: Statement, new: Statement, slots: frozenset[str]) -> bool:
    """The words that set one of ``slots`` differ ("I'm single" / "I got married in June")."""
    for slot in slots:
        # by the word as written too: "dating" sets the partner, its lemma "date" does not
        said_old = {word.norm for word in old.words if _slot_of(word) == slot}
        said_new = {word.norm for word in new.words if _slot_of(word) == slot}
        if said_old and said_new and not said_old & said_new:
            return True
    return False


def _shared_nouns(old: Statement, new: Statement) -> set[str]:
    """Chinese nouns both texts hold; a word jieba glued to the next character (组会定 for
    组会 + 定) counts as the word it starts with."""
    nouns_old, nouns_new = nouns(old), nouns(new)
    shared = set(nouns_old & nouns_new)
    shared |= {
        term
        for term in set(old.terms) & set(new.terms)
        if len(term) > 1 and _CJK.match(term) and _a_thing(term)
    }
    for one, other in ((nouns_old, nouns_new), (nouns_new, nouns_old)):
        shared |= {word for word in one for glued in other if _glued(word, glued)}
    return shared


def _a_thing(chinese: str) -> bool:
    """CC-CEDICT's first sense of the word names a thing, not "to …" do something: jieba's
    dictionary tags some nouns as verbs (驾照 "driver's license", 褪黑素 "melatonin")."""
    first = DICTIONARY.senses(chinese).split("/")[0].strip()
    return bool(first) and not first.startswith("to ")


def _glued(word: str, glued: str) -> bool:
    return len(word) >= 2 and len(glued) == len(word) + 1 and glued.startswith(word)


def _numbers_replaced(old: Statement, new: Statement) -> bool:
    """Some number kept and another replaced (63 → 59 公斤, beside the goal 58), not only
    more numbers (a date read as numbers in one language: 2月20号 / February 20)."""
    numbers_old, numbers_new = _numbers(old), _numbers(new)
    # "one" kept says little: "first paycheque" / 第一次报税 (第一 is 1), 一个, "a".
    kept = numbers_old & numbers_new - {"1"}
    return bool(kept and numbers_new - numbers_old and numbers_old - numbers_new)


def _numbers(statement: Statement) -> set[str]:
    """Its numbers, written alike: 41.50 and 41.5 are one."""
    return {
        number.rstrip("0").rstrip(".") if "." in number else number for number in statement.numbers
    }


def _new_latin_names(old: Statement, names: set[str]) -> list[str]:
    """Of ``names``, those spelled in Latin letters that the older text does not contain
    anywhere (a sentence's first word is no name to the parser: "Dave moved …")."""
    text = old.text.lower()
    return [
        name
        for name in names
        if _LATIN.match(name)
        and not re.search(rf"(?<![a-z0-9]){re.escape(name)}(?![a-z0-9])", text)
    ]


# 已经 ("already") says that something is done, not that it changed: 子轩已经交到朋友了.
_ASPECT_ONLY = frozenset({"已经"})


def _cues(statement: Statement) -> frozenset[str]:
    """The words by which it announces a change."""
    return statement.cues - _ASPECT_ONLY


def _cues_about(old: Statement, new: Statement) -> frozenset[str]:
    """The new text's change words, less a Chinese change glued to a thing the older text never
    mentions (换尿布 "change diapers", 停课 "classes off"): that changes the thing, not what the
    older text says. 换工作 after a text about work, 转学 after 小学, 戒烟 after "I smoke" still
    count."""
    said = set(old.terms)
    return frozenset(
        cue
        for cue in _cues(new) - _said_with_the_same_word(old, new)
        if (
            not (rest := _glued_object(cue))
            or any(character in old.text for character in rest)
            or bilingual.meanings(rest) & said  # 戒烟 after "I smoke"
        )
        and not _names_another_attribute(cue, old, new)
        # "Down to 63 kg!" changes an amount: not the afternoon tea of an older text that
        # gives none (queue15)
        and not (cue in _AMOUNT_CUES and not old.numbers)
    )


# The change words of an amount told with no verb ("went up to 100 mg", "Down to 63 kg!").
_AMOUNT_CUES = frozenset({"up", "down"})


def _said_with_the_same_word(old: Statement, new: Statement) -> set[str]:
    """The new text's change words the older one says too, before the same one-value
    attribute, whose value (a name in Latin letters) the new text names again ("Rachel, my new
    manager, runs ultramarathons" after "… so my new manager is Rachel Ng"): the change the
    older told, not another."""
    if not _named_again(_values(old), new):
        return set()
    said_old = {(one.norm, two.norm) for one, two in pairwise(old.words)}
    return {
        cue.norm
        for cue, following in pairwise(new.words)
        if cue.norm in new.cues and _slot_of(following) and (cue.norm, following.norm) in said_old
    }


# How far after a change word the attribute it changes may be named ("started a new job").
_CUE_REACH = 3


def _names_another_attribute(cue: str, old: Statement, new: Statement) -> bool:
    """Each time the new text says ``cue``, the words right after it name a one-value attribute
    the older text does not set: "I started a new job at Otto in Hamburg" changes the job,
    not the residence of "We moved to Hamburg", though both name Hamburg (review10 F12). An
    older text that sets no such attribute at all is not what it changes either: 王磊换了一辆
    比亚迪汉 changes his car, not 王磊开了一家火锅店 (queue11)."""
    if old.single_slots & new.single_slots:
        return False
    # ... when it changes something ("换了一辆"), not when it says when ("现在可以开车了")
    if not old.single_slots and cue in _WHEN_ONLY:
        return False
    words = new.words
    positions = [index for index, word in enumerate(words) if word.norm == cue]
    if not positions:
        return False
    for index in positions:
        ahead = words[index + 1 : index + 1 + _CUE_REACH]
        slots = {slot for word in ahead if (slot := _slot_of(word)) is not None}
        if not slots or slots & old.slots:
            return False
        if not old.single_slots and _slot_words_said(new, slots, old):
            return False  # 不吃肉，开始吃素 after 我很爱吃红烧肉: the meat is the older's
    return True


def _slot_words_said(statement: Statement, slots: set[str], other: Statement) -> bool:
    """A word of ``statement`` that sets one of ``slots`` is said in ``other`` too (肉 in
    红烧肉, "meat")."""
    return any(
        _slot_of(word) in slots and (word.norm in other.terms or word.norm in other.text)
        for word in statement.words
    )


def _slot_of(word: Word) -> str | None:
    """The one-value attribute a word names ("job", 新工作's 工作), if any."""
    slot = SINGLE_SLOTS.get(word.norm) or SINGLE_SLOTS.get(word.surface.lower())
    if slot is None and _CJK.match(word.norm) and len(word.norm) > 2:
        slot = SINGLE_SLOTS.get(word.norm[-2:])
    if slot is None and VEHICLE_CLASSIFIER in word.norm:
        slot = "vehicle"  # 一辆: the measure word of vehicles
    return slot


def _glued_object(cue: str) -> str:
    """What a Chinese change word jieba glued to its object is about (尿布 of 换尿布); "" for a
    change word of its own (换成, 搬到, 辞职)."""
    if cue in CUE_WORDS or not _CJK.match(cue):
        return ""
    for prefix in CUE_PREFIXES_ZH:
        rest = cue[len(prefix) :]
        if cue.startswith(prefix) and rest and (nouns_among((rest,)) or _a_thing(rest)):
            return rest
    return ""


def _tells_the_change_again(old: Statement, new: Statement) -> bool:
    """The older text announced the change itself, and the new one gives only values it gave
    ("my new manager is Rachel Ng" / "my manager is now Rachel Ng"): a restatement of the
    change, not another one. Without a name or number to agree on, a cue still counts."""
    values_new = _flat(new.names) | new.numbers
    return bool(
        old.cues
        and values_new
        and values_new <= _flat(old.names) | old.numbers
        and old.negations == new.negations
    )


@reads_simplified
def changes_more_than(existing: str, change: str, candidate: str) -> bool:
    """``candidate`` changes in ``existing`` something ``change`` (a change of ``existing``
    already waiting for review) does not speak of: a word both ``existing`` and ``candidate``
    say beside ``candidate``'s change word that ``change`` never says. 换了白班以后褪黑素停了
    after 上夜班…每天吃3毫克褪黑素, with 从夜班换成了白班 waiting: the melatonin stopped, a
    change of its own, not the shift change told again. Only within one language (words
    cannot be compared across), and not when ``candidate`` sets a one-value attribute
    ``change`` sets (the job both tell: "now works at Google as an engineering manager" after
    "now works at SAP as a tech lead" changes that, whatever words of the first job it keeps)."""
    old, waiting, new = read(existing), read(change), read(candidate)
    if not old.lang == waiting.lang == new.lang or waiting.single_slots & new.single_slots:
        return False
    people = _people(old) | _people(new) | {_subject(old, new), _subject(new, old)}
    # "Yoga moved to Wednesdays" after "My yoga class is on Tuesdays": yoga is no one
    people -= _opening_things(old, new) | _opening_things(new, old)
    shared = {
        term
        for term in set(old.terms) & set(new.terms)
        if term not in TIME_WORDS and term not in people and not _a_bare_character(term)
    }
    said = set(waiting.terms)
    return any(term not in said and not _glued_in(term, said) for term in _near_a_cue(new, shared))


# Change words that begin something rather than end or replace it.
_STARTS = frozenset({"start", "begin", "开始"})


def _another_activity_started(
    old: Statement, new: Statement, cues: frozenset[str], shared: set[str]
) -> bool:
    """The new text only starts something ("I started learning the cello", 我开始学大提琴了)
    and shares with the older one nothing but the verb it starts, no name either ("I'm learning
    Mandarin with a tutor"): one more activity, no change to the older one, whose object it does
    not name (review10 F21, queued at cosine 0.32; "I gave up Japanese and started learning
    Korean" names it). A one-value attribute both set is left to the slot
    rules ("I started working at SAP")."""
    if not cues or not cues <= _STARTS or old.slots & new.slots or not shared:
        return False
    words = new.words
    started = {
        words[index + 1].norm for index, word in enumerate(words[:-1]) if word.norm in _STARTS
    }
    return shared <= started


def _now_with_nothing_new(old: Statement, new: Statement) -> bool:
    """Only "now" marks a change, about no slot both set, and every name and number the new
    text gives the older one gives too (安娜现在住在新加坡 after 安娜在新加坡养了一只猫): it says
    when, and nothing that could have changed."""
    if _strong_cues(new) or old.slots & new.slots:
        return False
    values_new = _flat(new.names) | new.numbers
    return bool(values_new) and values_new <= _flat(old.names) | old.numbers


def _people(statement: Statement) -> set[str]:
    """The names of people in it (汤姆, "Lily's", its subject)."""
    people = {word.norm for word in statement.words if word.person}
    if statement.subject:
        people.add(statement.subject)
    if _acts_on_the_users(statement):
        people.discard(statement.words[0].norm)  # a brand: "Spotify raised my plan"
    return people


def _flat(groups: tuple[frozenset[str], ...]) -> set[str]:
    return {name for group in groups for name in group}


def _values_differ(old: Statement, new: Statement) -> bool:
    """Whether the new statement gives the attribute a value the old one does not. Values are
    names and numbers when both have some ("Berlin" / "Lisbon", "$2,850" / "$3,050"; not a
    title, the attribute's own name or when it began: :func:`_values`): a restatement that
    leaves a detail out changes nothing. Else, any other content word."""
    values_old, values_new = _values(old), _values(new)
    if _another_place_in_the_same(old, new):
        return True  # 我住在北京海淀区 after 我住在北京朝阳区: 北京 told again, not the district
    if _chinese_value_told_again(values_old, new):
        return False  # 王磊是我的领导，他是山东人 after 我的领导是王磊
    if _one_place_at_two_levels(old, new):
        return False  # 我住在望京 after 我住在北京
    if values_old and values_new:
        # "Rachel, my new manager, runs…" after "my new manager is Rachel Ng": a shared name
        # means the same value told again, with other details — also where the reader takes
        # the name that opens the new text for a dictionary word ("Rachel," first).
        told_again = values_old & values_new or _named_again(values_old, new)
        return bool(values_new - values_old) and not told_again
    return _frame(old, values_old) != _frame(new, values_new)


def _named_again(values: set[str], other: Statement) -> bool:
    """A name in Latin letters among ``values`` that the other text says too, as a name or not
    (the reader takes "Rachel," opening a text for a dictionary word)."""
    latin = {value for value in values if _LATIN.match(value) and len(value) > 2}
    return set(_new_latin_names(other, latin)) != latin


def _chinese_value_told_again(values: set[str], other: Statement) -> bool:
    """A Chinese value of one text the other holds, however jieba cut it (a name it does not
    know is glued to what follows: 王磊是 …)."""
    return any(len(value) >= 2 and _CJK.match(value) and value in other.text for value in values)


def _same_subject(old: Statement, new: Statement) -> bool:
    """The same person, a statement without one counting as the user's ("Please keep answers
    short" after "I want long answers"), someone named counting as whoever the other text
    names that way ("Tom left Roosevelt High" after "My husband Tom teaches physics")."""
    subject_old, subject_new = _subject(old, new), _subject(new, old)
    if subject_new.startswith(f"{subject_old}'s ") or subject_old.startswith(f"{subject_new}'s "):
        return False  # "Ethan's best friend Jayden also started …" after "Ethan started …"
    return (
        subject_old == subject_new
        # "Dad stopped losartan" opens with a relative's word read as a name: one with "my dad"
        or RELATIONS.get(subject_old, subject_old) == RELATIONS.get(subject_new, subject_new)
        or _glued(subject_old, subject_new)
        or _glued(subject_new, subject_old)
        or subject_old in _flat(new.names)
        or subject_new in _flat(old.names)
        or _named_in(subject_old, new)
        or _named_in(subject_new, old)
        or any(_spelled_by(name, subject_new) for name in {subject_old, *_flat(old.names)})
        or any(_spelled_by(name, subject_old) for name in {subject_new, *_flat(new.names)})
        or bool(_owned_slots(old) & _owned_slots(new))
        or _one_attribute_of_the_users(old, new)
        or _the_pet_told_of(old, new)
        or _the_pet_told_of(new, old)
        or _named_in_pinyin(subject_old, new)
        or _named_in_pinyin(subject_new, old)
    )


# A text that opens with one of these and names no one is about whom or what was told before.
_BARE_PRONOUNS = frozenset({"she", "he", "it", "她", "他", "它"})


def _the_pet_told_of(statement: Statement, other: Statement) -> bool:
    """``other`` opens with a bare pronoun ("She's not a foster anymore") and names nobody,
    and ``statement`` tells of a pet (我们在临时寄养一只小狗): the pronoun may be the pet, as
    a person's note about it goes on from the last one. Only a pet: "He moved to Munich" after
    "I work with Tom in Berlin" stays someone else's news."""
    words = other.words
    return (
        "~pet" in statement.slots
        and bool(words)
        and words[0].norm in _BARE_PRONOUNS
        and not _people(other) - _BARE_PRONOUNS - {OTHER}
    )


def _one_attribute_of_the_users(old: Statement, new: Statement) -> bool:
    """One text gives the user's possessive a person who is a one-value attribute ("My
    boyfriend is Sam now", "my manager is …"), the other, about the user, sets that attribute
    ("I'm dating Alex now"), and both name its value: the boyfriend is the user's partner,
    whom the other text names. Without a value on both sides ("I'm married" / "My husband
    works at SAP") it stays the other person's news."""
    return any(
        _subject(about, other) == SELF
        and _owned_slots(other, people_only=True) & about.single_slots
        and _values(other)
        # … or the text about the user tells that attribute changed ("Got a new boss today:
        # Daniel" after "My boss is Priya"; queue15)
        and (_values(about) or _strong_cues(about))
        for about, other in ((old, new), (new, old))
    )


def _owned_slots(statement: Statement, people_only: bool = False) -> set[str]:
    """The one-value attributes it gives the user's possessive ("my manager", "our landlord",
    我的领导): whoever else the text opens with ("Dave moved to the platform org, so my new
    manager is Rachel Ng"), that attribute is the user's. ``people_only``: only people
    (boyfriend, manager; not 跟我吃素's 吃素, where 我 is no possessive)."""
    words = statement.words
    owned: set[str] = set()
    for index, word in enumerate(words[:-1]):
        ahead = index + 1
        if word.norm == "user" and words[ahead].norm == "'s":
            ahead += 1  # "The user's boyfriend": an assistant's note, the user's own
        elif word.norm not in POSSESSIVE_SELF:
            continue
        elif statement.lang == "zh" and words[ahead].norm == "的":
            ahead += 1
        while ahead < len(words) - 1 and words[ahead].norm in SLOT_ADJECTIVES:
            ahead += 1
        slot = SINGLE_SLOTS.get(words[ahead].norm) if ahead < len(words) else None
        if slot and (not people_only or words[ahead].norm in RELATIONS):
            owned.add(slot)
    return owned


def _named_in(subject: str, other: Statement) -> bool:
    """A Chinese name the other text holds: a name jieba does not know is not among the
    other's names, and may be glued to a character that follows it (王磊调走了 after
    我的领导是王磊): its first two characters in the other text count."""
    return (
        len(subject) >= 2
        and bool(_ALL_CJK.fullmatch(subject))  # not 汤姆's parents
        and subject[:2] in other.text
    )


def _spelled_by(chinese: str, latin: str) -> bool:
    """A Chinese name of two or three characters and the Latin name that spells it, or its
    given name, in pinyin: 王芳 is "Fang" or "Wang Fang" in a family that writes both
    languages (review12 R1: "Fang started drinking coffee again" was about someone else than
    王芳不喝咖啡)."""
    if not 2 <= len(chinese) <= 3:
        return False
    if not (latin.isascii() and latin.isalpha() and len(latin) >= 3):
        return False
    return latin in _pinyin_names(chinese)


def _pinyin_names(chinese: str, glued: bool = False) -> frozenset[str]:
    """How a Chinese name is written in Latin letters (CC-CEDICT's readings, toneless, as one
    word): the whole name (刘洋 "liuyang"), and, for a name of two or three characters, its
    given name (芳 "fang" of 王芳, "zixuan" of 刘子轩). ``glued``: also its first two or three
    characters, for a name jieba glued to the next character (刘洋调… "liuyang"). The one
    reading of names both :func:`_spelled_by` and :func:`_named_in_pinyin` use."""
    if len(chinese) < 2 or not _ALL_CJK.fullmatch(chinese):
        return frozenset()
    names = set(bilingual.spellings(chinese))
    given = chinese[1:]
    if len(chinese) <= 3:
        names |= bilingual.spellings(given) if len(given) > 1 else DICTIONARY.readings(given)
    if glued:
        names |= bilingual.spellings(chinese[:2]) | bilingual.spellings(chinese[:3])
    return frozenset(names)


def _subject(statement: Statement, other: Statement) -> str:
    """Its subject; a first word the other text spells as a name is one here too ("Tom left
    Roosevelt High": "tom" is a dictionary word, so only the other text shows it is a name)."""
    first = statement.words[0].norm if statement.words else ""
    if _acts_on_the_users(statement) or _told_of_the_user(statement):
        return SELF
    if _a_word_the_other_writes_small(statement, other) or _a_role_acting_on(statement, other):
        return SELF
    relative = _relative_of_opening_name(statement)
    if relative is not None:
        return relative
    # A thing's name first (比亚迪秦卖了, "Planet Fitness退了") is what the text is about, not
    # who: the user's, as in :func:`_opening_subject`.
    head = statement.words[0] if statement.words else None
    place_first = head is not None and _a_place_of(head, other)
    thing_first = head is not None and ((head.is_name and not head.person) or place_first)
    for name in () if thing_first else _flat(other.names):
        # jieba glues a name it does not know to the next character (王磊调走了)
        if first == name or (statement.lang == "zh" and first.startswith(name)):
            return name
        # "Fang quit teaching" after 我太太叫王芳: the pinyin of a name the other text gives
        if head is not None and head.surface[:1].isupper() and _spelled_by(name, first):
            return name
    opening = None if place_first else _opening_subject(statement)
    if opening is not None:
        return opening
    norms = {word.norm for word in statement.words}
    if norms & OTHER_WORDS and not norms & SELF_WORDS:
        return OTHER  # "Tom still eats meat; he grills …": about him, though it opens with "Tom"
    return SELF


def _a_role_acting_on(statement: Statement, other: Statement) -> bool:
    """An English text opens with a capitalised common word, a verb, then "the" and a word
    that sets an attribute the other text gives the user's possessive ("Landlord bumped the
    rent up to 1,950" after "Our rent is 1,800 dollars a month"): someone acting on the
    user's rent, as "Spotify raised my plan" is (:func:`_acts_on_the_users`; queue15)."""
    words = statement.words
    if statement.lang != "en" or len(words) < 4 or not words[0].person or words[0].is_name:
        return False
    if words[1].norm in ("be", "'s", ",") or words[1].norm in STOP_WORDS:
        return False  # "Doctor is …", "Landlord's dog": about them
    owned = _owned_slots(other)
    return any(
        word.norm == "the" and ahead < len(words) and _slot_of(words[ahead]) in owned
        for ahead, word in enumerate(words[2 : 2 + _OBJECT_REACH], start=3)
    )


def _opening_things(statement: Statement, other: Statement) -> set[str]:
    """The opening word of ``statement`` when it is a thing the other writes small."""
    if _a_word_the_other_writes_small(statement, other):
        return {statement.words[0].norm}
    return set()


def _a_word_the_other_writes_small(statement: Statement, other: Statement) -> bool:
    """An English text opens with a capitalised word that is no name and that the other text
    writes in small letters ("Sertraline went up to 100 mg" after "I take 50 mg of
    sertraline", "Yoga moved to Wednesdays" after "My yoga class is on Tuesdays"): a thing
    the other tells of, capitalised only as the first word, not someone (queue15; the reader
    takes a capitalised word before a verb for a person)."""
    if statement.lang != "en" or not statement.words:
        return False
    head = statement.words[0]
    relative = head.norm in RELATIONS or head.surface.lower() in RELATIONS
    return (
        head.person
        and not head.is_name
        and not relative  # "Dad moved to Vancouver" after "My dad lives in Taipei"
        and head.norm not in PEOPLE_WORDS
        and head.surface[:1].isupper()
        and any(
            word.norm == head.norm and word.surface[:1].islower() and not word.person
            for word in other.words
        )
    )


def _a_place_of(word: Word, other: Statement) -> bool:
    """An English word the Chinese ``other`` names as a place or a thing (日本 → "Japan"): "Japan
    is off, we're doing Taiwan instead" opens with the trip's place, not with someone, though
    the English reader takes a capitalised word before "is" for a person."""
    if other.lang != "zh" or not word.surface[:1].isupper():
        return False
    return any(
        word.norm in bilingual.proper_names(w.norm)
        for w in other.words
        if w.is_name and not w.person and _CJK.match(w.norm)
    )


def _relative_of_opening_name(statement: Statement) -> str | None:
    """A text that opens with someone's relative is about the relative: "Tom's parents are
    moving to Tucson", 汤姆的父母要搬家 are about Tom's parents, not Tom."""
    words = statement.words
    if len(words) < 3:
        return None
    # jieba does not know every name (以宁): in Chinese the word before 的 … 朋友 is whose
    named = statement.lang == "zh" and _ALL_CJK.fullmatch(words[0].norm)
    if not (words[0].person or named) or words[0].norm in PEOPLE_WORDS | POSSESSIVE_SELF:
        return None  # 我的闺蜜… is the user's friend, read as such by the relation word
    at, owned = 1, False  # past "best", "new", 最好的: "Ethan's best friend", 以宁最好的朋友
    while at < len(words) - 1 and (
        words[at].norm in ("'s", "的")
        or words[at].norm in RELATION_ADJECTIVES
        or words[at].norm in _BEST
    ):
        owned |= words[at].norm in ("'s", "的")
        at += 1
    relation = RELATIONS.get(words[at].norm) or RELATIONS.get(words[at].surface.lower())
    return None if relation is None or not owned else f"{words[0].norm}'s {relation}"


_BEST = frozenset({"best", "closest", "good", "最好", "好"})


# Titles before a name: no value a change could be about.
TITLES = frozenset({"mr", "mrs", "ms", "miss", "dr", "prof", "sir"})


# Adverbs a statement may open with before its subject ("Now my sister …", 现在我妈…).
_OPENING_ADVERBS = frozenset(
    {"now", "currently", "nowadays", "recently", "lately", "finally", "also", "then", "so"}
    # … and the words that open a time phrase before it ("Since June my manager is Priya")
    | {"since", "from", "start", "starting", "until", "从", "自从", "起", "自"}
    | {"现在", "如今", "目前", "最近", "终于", "后来", "已经", "本来", "其实"}
)
PEOPLE_WORDS = SELF_WORDS | OTHER_WORDS
_A_DATE_ZH = re.compile(r"^[\d零〇一二两三四五六七八九十]+[月号日年]")


def _opening_subject(statement: Statement) -> str | None:
    """Who the statement opens with: the person (I, my sister, 我妈, she, someone named) before
    any other content word, after time words and adverbs ("Yesterday my sister …"). A text
    that opens with something else is about the user, as a note or a Chinese sentence without
    its "I" is (春节不回成都了; "New family doctor: Dr. Sharma"): a person named later is
    an object (…回成都看我妈, "they call me Jenny"), and jieba's dictionary tags many common
    words as names (白班, 太贵), which are no subject either."""
    unseen = unseen_opening_name(statement)
    if unseen is not None:
        return unseen
    for word in statement.words:
        norm = word.norm
        if (
            norm == ","
            or norm in STOP_WORDS
            or norm in TIME_WORDS
            or norm in NEGATIONS
            or norm in _OPENING_ADVERBS
            or _A_DATE_ZH.match(norm)  # 从六月起…
        ):
            continue
        if norm in RELATIONS or word.surface.lower() in RELATIONS or norm in PEOPLE_WORDS:
            # the first person it names is this one; "Dad stopped losartan" is the father's
            return statement.subject
        if word.person or _a_family(statement, word):
            return norm
        if word.is_name:
            return None  # a place or a thing first ("Planet Fitness退了", 东京回来以后我…)
        return None
    return None


def _a_family(statement: Statement, word: Word) -> bool:
    """ "The Nguyens", "the Parks": a family called by its name, opening an English text
    ("The Nguyens next door bought a Kia"): people, not a place or a thing of the user's."""
    words = statement.words
    index = words.index(word)
    return (
        statement.lang == "en"
        and index > 0
        and words[index - 1].norm == "the"
        and word.surface[:1].isupper()
        and word.surface.endswith("s")
        and not word.surface.endswith("ss")
    )


def _opposed(only_old: set[str], only_new: set[str]) -> bool:
    return any(tuple(sorted((a, b))) in ANTONYMS for a in only_old for b in only_new)


# One-value attributes whose inner names are no words a person would use in a reason.
_SLOT_SAID = {
    "os": "the operating system",
    "answers": "how answers are given",
    "money": "an amount of money",
    "phone number": "the phone number",
    "email": "the e-mail address",
    "address": "the address",
    "office": "where the work is done",
    "origin": "where someone comes from",
}


def _changes_another_attribute(old: Statement, new: Statement) -> bool:
    """Both set one-value attributes, none the same, and what both name is, in the new text,
    only part of a longer name: the change it announces is to another attribute ("I now work at
    Google Lisbon as a staff engineer" after "I moved to Lisbon": the job, not the residence,
    though "now" and "Lisbon" fit; review9 Q1)."""
    if not old.single_slots or not new.single_slots or old.single_slots & new.single_slots:
        return False
    named_old = _flat(old.names)
    shared = named_old & _flat(new.names)
    return bool(shared) and all(
        any(name in group and group - named_old for group in new.names) for name in shared
    )


def _another_attribute_of_one_thing(old: Statement, new: Statement) -> bool:
    """Each speaks of something of the user's named by what it is of and a noun ("my German
    class is …" / "my German teacher is now Herr Becker", 我的德语课 / 我的德语老师), none the
    same: the word both share
    qualifies two attributes, and the change is to the one the older text does not speak of
    (review13 J9: the teacher queued against the class days)."""
    owned_old = {tuple(slot.lstrip("~").split()) for slot in old.slots if "my " in slot[:4]}
    owned_new = {tuple(slot.lstrip("~").split()) for slot in new.slots if "my " in slot[:4]}
    if not owned_old or not owned_new or owned_old & owned_new:
        return False
    # both name the noun ("My swimming class moved" names none after "swimming": it may be
    # the class the older text sets)
    return any(
        len(a) == len(b) == 3 and a[1] == b[1] and a[2] != b[2]
        for a in owned_old
        for b in owned_new
    )


# Words by which one gets a thing of one's own: a new value of what it sets ("bought a Tesla",
# 买了一辆比亚迪).
_BUYING = frozenset({"buy", "买", "买了", "购买", "购入"})
# "Got a Samsung Galaxy S24 last week": got, not get ("I get a discount"), buys too (queue15).
_GOT = frozenset({"got", "gotten"})


def _bought(statement: Statement, slots: frozenset[str]) -> bool:
    """A buying word right before a word that sets one of ``slots``: "We bought a 2025 Toyota
    Sienna", 我们买了一辆特斯拉 (the measure word 辆 sets the vehicle)."""
    words = statement.words
    return any(
        (word.norm in _BUYING or word.surface.lower() in _GOT)
        and not _someone_before(words[:index])
        and any(_slot_of(ahead) in slots for ahead in words[index + 1 : index + 2 + _CUE_REACH])
        for index, word in enumerate(words)
    )


def _someone_before(words: Sequence[Word]) -> bool:
    """Someone other than the user is named in the clause before a verb: the buyer of "The
    Nguyens next door bought a Kia", not of "We bought a Tesla" or "Bought a used Corolla"."""
    for word in reversed(words):
        if word.norm == ",":
            return False
        if word.norm in SELF_WORDS:
            return False
        if word.is_name or word.person or word.norm in RELATIONS or word.norm in OTHER_WORDS:
            return True
    return False


def _employers(statement: Statement) -> set[str]:
    """Whom the text says one works for: the name after "at"/"for" in a text that sets the
    employer ("works as a data engineer at Zalando"), or after "employer is"."""
    if "employer" not in statement.single_slots:
        return set()
    words = statement.words
    found: set[str] = set()
    for index, word in enumerate(words[:-1]):
        following = words[index + 1]
        after_at = word.norm in ("at", "for") and following.is_name
        is_employer = word.norm in ("be", "是") and index > 0
        if after_at or (is_employer and SINGLE_SLOTS.get(words[index - 1].norm) == "employer"):
            found.add(following.norm)
    return found


def _employers_differ(old: Statement, new: Statement) -> bool:
    """Both name whom the user works for, each another ("works as a data engineer at Zalando" /
    "My employer is Bosch": review9 M1)."""
    employers_old, employers_new = _employers(old), _employers(new)
    return bool(employers_old and employers_new and not employers_old & employers_new)


def _told_first(statement: Statement, slots: frozenset[str]) -> str:
    """Of ``slots``, the one ``statement`` names first: what it is about, the rest being
    detail (我搬到了里斯本……上班要坐二十分钟的电车 sets the residence, not the job: review9 Q2)."""
    for word in statement.words:
        slot = SINGLE_SLOTS.get(word.norm)
        if slot in slots:
            return slot
    return min(slots)


def _slot_name(slot: str) -> str:
    if slot.startswith(("my ", "favourite ")):
        return slot
    return _SLOT_SAID.get(slot, f"the {slot}")


# --- round 7: the structure of a change (docs/design.md, "The review queue, round 7") ---------

# Words that open a duration of the value told, not another value: "vegetarian since 2015",
# "since June my manager is Priya" (the date says from when, the name is the value).
_SINCE = frozenset({"since"})
_SINCE_ZH = frozenset({"从", "自从", "自"})
_SINCE_ZH_END = frozenset({"起", "开始", "以来"})
# Words a duration may hold after "since": "since last year", "since the spring".
_SINCE_REACH = 3
# Words that open a number's label in a heading ("Routine note number 5", "No. 12").
_LABEL_WORDS = frozenset({"number", "no", "#", "nr"})
# How far into a text a heading's label may sit ("Weekly routine note number 5:").
_HEADING_REACH = 5
# 第5条, 第三章: an ordinal is a label.
_ZH_ORDINAL = "第"
_NUMERAL_FIRST = re.compile(r"^[\d零〇一二两三四五六七八九十百千万半]")
# The share of the frame (the words beside the values) two texts must hold in common to tell
# the same thing: "I take the 8:10 train to work" / "I take the 8:40 train to work".
FRAME_OVERLAP = 0.75


def _duration_words(statement: Statement) -> set[int]:
    """The positions of a "since …" phrase's words ("since 2015", "since last June"): when the
    value began, not the value."""
    found: set[int] = set()
    words = statement.words
    for index, word in enumerate(words):
        if statement.lang == "zh" and word.norm in _SINCE_ZH:
            end = next(
                (i for i in range(index + 1, len(words)) if words[i].norm in _SINCE_ZH_END), None
            )
            if end is not None and end - index <= _SINCE_REACH:
                found |= set(range(index, end + 1))
            continue
        if word.norm not in _SINCE:
            continue
        found.add(index)
        for ahead in range(index + 1, min(len(words), index + 1 + _SINCE_REACH)):
            following = words[ahead]
            if following.norm == ",":
                break
            if following.norm in STOP_WORDS or following.norm in TIME_WORDS or _digit(following):
                found.add(ahead)
                continue
            if following.norm in ("last", "early", "late"):
                found.add(ahead)
                continue
            break
    return found


def _digit(word: Word) -> bool:
    return word.norm[:1].isdigit()


def _label_positions(statement: Statement) -> set[int]:
    """The positions of numbers that label an entry rather than give a value: the numbers of a
    text's heading (:func:`_heading`: "Routine note number 5:", "Day 3 of the trip:", "Recipe
    12:", "cli0 item 5:", "batch 2 item 5:") and 第5条. A numbered notes file is no list of
    changed values."""
    found: set[int] = set()
    if not statement.numbers:
        return found
    heading = _heading(statement)
    if heading is not None:
        index, ids = heading
        found |= ids | {index}
    if statement.lang == "zh":
        words = statement.words
        found |= {
            index
            for index, word in enumerate(words)
            if index and words[index - 1].norm == _ZH_ORDINAL and _numeral(word, statement)
        }
    return found


def _numeral(word: Word, statement: Statement) -> bool:
    return _digit(word) or _number_of(word, statement) is not None


def _heading(statement: Statement) -> tuple[int, set[int]] | None:
    """Where a text's heading names an entry: the position of the entry's number and of the
    numbers of the ids before it ("cli0 item 5: …" → 5, and the 0 of cli0; "batch 2 item 5:"
    → 5, and 2), or None. A heading is a few words that name the entry (no stop word, person,
    the user or a verb of theirs; a word with a number in it is an id) and a number that ends
    it: before ":" or "," (the reader reads both as a comma), before "of" ("Day 3 of the
    trip"), after "number" ("shared fact number 0"), or, in Chinese, before its colon (日记17：).
    After an id only a colon ends it: "Flat 3 rent 1400, …" tells a value."""
    words = statement.words
    for index, word in enumerate(words[: _HEADING_REACH + 1]):
        if not index or not _numeral(word, statement):
            continue
        before = words[:index]
        if statement.lang == "zh":
            ends = _zh_heading_label(words, index)
        else:
            after = words[index + 1] if index + 1 < len(words) else None
            named = before[-1].norm in _LABEL_WORDS
            ends = _names_an_entry(before, named) and (
                after is None or after.norm in (",", "of") or named
            )
            # an id in the heading only before a colon: "Flat 3 rent 1400, …" tells a value
            if any(_digit(w) for w in before):
                ends = ends and after is not None and after.surface in _COLONS
        if ends:
            return index, {i for i, w in enumerate(before) if _numeral(w, statement)}
    return None


def _names_an_entry(words: Sequence[Word], named: bool) -> bool:
    """The words before a number name an entry ("Routine note", "Diary", 日记, "cli0 item",
    "batch 2 item"): no stop word, no person or the user, no verb of the user's, and numbers
    only after a word (an id: cli0, "batch 2"). ``named``: "number" follows them, before which
    a past form names the entry ("shared fact number 0"), as an adjective does."""
    return (
        bool(words)
        and not _digit(words[0])
        and all(
            w.norm not in STOP_WORDS
            and w.norm not in PEOPLE_WORDS
            and w.norm not in POSSESSIVE_SELF
            and w.norm != ","
            and not w.person
            and (_digit(w) or named or not past_verbs(read(w.surface)))
            for w in words
        )
    )


_COLONS = frozenset({":", "："})


def _zh_heading_label(words: Sequence[Word], index: int) -> bool:
    """A number that ends a Chinese heading before its colon (日记17：…, 笔记 3：…): the entry's
    label, as 第5条 is, when only nouns of no person come before it."""
    if not 0 < index <= _HEADING_REACH or index + 1 >= len(words):
        return False
    if words[index + 1].surface not in _COLONS:
        return False
    return _names_an_entry(words[:index], named=False)


def _heading_label(statement: Statement) -> tuple[tuple[str, ...], str] | None:
    """The words that name a numbered entry and its number ("Diary", "17" of "Diary 17: …";
    "shared fact number", "0"), or None when the text opens with no such label."""
    # first the marks the reader drops: "Note 17 — …", "[17] …", "17. …", "Item 17 - …"
    heading = _MARKED_HEADING.match(statement.text)
    if heading is not None:
        name = heading.group("name") or ""
        if not name or _names_an_entry(read(name).words, named=False):
            return tuple(name.lower().split()), heading.group("number")
    found = _heading(statement)
    if found is None:
        return None
    index, _ = found
    return tuple(word.norm for word in statement.words[:index]), statement.words[index].norm


# A text that opens with an entry's number and a mark after it (or "about" / "on"): "Note 17 —
# topic 4", "[17] about cooking", "17. Went for a walk", "Test memory 17 about topic 4", "#17:",
# "cli0 item 17 — …". The name before the number is a few words that open with a letter (a word
# with a number in it is an id, "cli0"; the name ends in no digit, so 12 is not read as "1" "2");
# a clock time (7:30) or a decimal (3.5) is no label.
_MARKED_HEADING = re.compile(
    r"^\s*[\[(#]?\s*(?P<name>[^\W\d]\w*(?:[ '-]\w+){0,3}(?<!\d))?\s*[#№]?\s*"
    r"(?P<number>\d+)\s*(?:[\])]|:(?!\d)|\.\s+\S|\s[-—–]\s|[—–]|\s(?:about|on|of)\s)"
)


def _other_entries_of_one_series(old: Statement, new: Statement) -> bool:
    """Both are entries of one numbered series (the same naming words, another number:
    "Diary 17: …" / "Diary 18: …", "note 3: …" / "note 4: …", "shared fact number 0" /
    "shared fact number 1"), or of one kind with another id ("cli0 item 5: …" / "cli1 item
    9: …"): other items, not another value of the same one. A generated
    notes file, or a diary, fills the same template again and again. Not when both set one
    one-value attribute ("note 3: my rent is 1400 euros" / "note 8: my rent is 1500 euros"):
    that is the user's, whichever entry tells it; nor when both tell a habit of the user's
    ("Diary 3: I get up at 6:30 on weekdays" / "Diary 9: … 7:30 …"), not an entry's occasion
    ("Entry 5: I feel fine, mood 7")."""
    if (_slots_told(old) & _slots_told(new)) or (
        _a_habit_of_the_users(old) and _a_habit_of_the_users(new)
    ):
        return False
    label_old, label_new = _heading_label(old), _heading_label(new)
    if label_old is None or label_new is None:
        return False
    return label_old != label_new and _kind_of_entry(label_old[0]) == _kind_of_entry(label_new[0])


def _slots_told(statement: Statement) -> frozenset[str]:
    """The one-value attributes it sets, less those only a word of its heading names: the
    "job" of "job7 step 3: copied 120 files" is the entry's name, not the user's job."""
    heading = _heading(statement)
    if heading is None:
        return statement.single_slots
    end = heading[0] + 1
    named = _slot_words(statement.words[:end])
    return statement.single_slots - (named - _slot_words(statement.words[end:]))


def _slot_words(words: Sequence[Word]) -> set[str]:
    """The one-value attributes these words name, read or as written ("job" reads as "work")."""
    return {
        slot
        for word in words
        for form in (word.norm, word.surface.lower())
        if (slot := SINGLE_SLOTS.get(form)) is not None
    }


def _kind_of_entry(series: tuple[str, ...]) -> tuple[str, ...]:
    """A series' naming words without its ids' numbers: "cli0 item" and "cli1 item", 批次0条目
    and 批次2条目, are entries of one kind from other writers or batches."""
    kept = (word.strip("0123456789") for word in series)
    return tuple(word for word in kept if word)


# Words that tell a habit ("every", "usually", 每天, 一般): what holds, not what happened once.
_HABIT = frozenset(
    {"every", "each", "daily", "weekly", "monthly", "yearly", "usually", "always", "often"}
    | {"normally", "generally", "weekday", "weekend", "一般", "通常", "总是", "平时", "经常"}
    | {"每天", "每周", "每月", "每年", "每"}
)


def _a_habit_of_the_users(statement: Statement) -> bool:
    """It tells a habit of the user's (I, my, 我 with every, usually, 每天, in the present)."""
    said = {word.norm for word in statement.words}
    return (
        bool(said & SELF_WORDS) and bool(said & _HABIT) and not statement.tense & {"past", "done"}
    )


def _number_of(word: Word, statement: Statement) -> str | None:
    """The number a word gives, as :attr:`Statement.numbers` holds it, or None."""
    return word.norm if word.norm in statement.numbers else None


def _values(statement: Statement) -> set[str]:
    """:func:`_values_of` its text (a copy: callers may change it)."""
    return set(_values_of(statement.text))


@lru_cache(maxsize=4096)
def _values_of(text: str) -> frozenset[str]:
    """What a statement sets its attribute to (cached like :func:`read`: every new memory is
    compared with the same neighbours again and again): its names, numbers and days, less a title
    ("Dr."), the attribute's own name ("GP" of "my GP is …"), a label ("note number 5") and
    when the value began ("since 2015")."""
    statement = read(text)
    words = statement.words
    skipped = _duration_words(statement) | _label_positions(statement)
    kept = [word for index, word in enumerate(words) if index not in skipped]
    skipped_norms = {words[index].norm for index in skipped}
    owned = {slot.removeprefix("~").removeprefix("my ") for slot in statement.slots}
    names = _flat(statement.names) | {word.norm for word in words if word.person}
    names -= TITLES | owned | skipped_norms
    numbers = set(statement.numbers)
    for index in skipped:
        if _digit(words[index]):
            numbers -= read(words[index].surface).numbers
    dates = {word.norm for word in kept if word.norm in WEEKDAYS or word.norm in MONTHS}
    return frozenset(names | numbers | dates | _copula_values(statement) - _WHEN_ONLY)


def _copula_values(statement: Statement) -> set[str]:
    """What "is" gives a one-value attribute: "Priya" of "my manager is Priya", 王磊 of
    我的领导是王磊 (a name jieba does not know is no name to the reader)."""
    words = statement.words
    found: set[str] = set()
    for index, word in enumerate(words[1:], start=1):
        before = words[index - 1]
        if word.norm not in ("be", "是") or not SINGLE_SLOTS.get(before.norm):
            continue
        for following in words[index + 1 :]:
            if following.norm == ",":
                break
            if following.norm not in STOP_WORDS and following.norm not in TIME_WORDS:
                found.add(following.norm)
    return found


def _frame(statement: Statement, values: set[str]) -> set[str]:
    """The words beside the values: what is told ("take … train … work"), less when."""
    skipped = {statement.words[index].norm for index in _duration_words(statement)}
    return {
        term
        for term in statement.terms
        if term not in values
        and term not in skipped
        and term not in _WHEN_ONLY
        and term not in TIME_WORDS
        and term != "time"  # "four times a week": how often, as "twice" is
        and not _NUMERAL_FIRST.match(term)  # 六点半: a value jieba kept as a word
        and term not in _flat(statement.names)
    }


def _same_frame_other_value(old: Statement, new: Statement) -> bool:
    """The same holder tells the same thing with another value in its place, and no value of
    the old one kept: "I get up at 6:30" / "I get up at 7:30", "My GP is Dr. Hoffmann" /
    "My GP is Dr. Okafor these days", 我每天跑5公里 / 我每天跑10公里. Not a single occurrence
    told in the past ("I ran 10 km on Sunday" after "I run 5 km every morning")."""
    if new.event or ("past" in new.tense and "past" not in old.tense and not _cues(new)):
        return False
    if (
        "past" in new.tense
        and "past" in old.tense
        and not _cues(new)
        and not old.single_slots & new.single_slots
    ):
        # two things done, each told as done, no attribute set: "Chloe recommended the
        # restaurant on Lonsdale Quay" / "… on Granville Island" both hold (review12 R7)
        return False
    if _dated_apart(old, new):
        return False
    values_old, values_new = _values(old), _values(new)
    if not (values_old - values_new and values_new - values_old):
        return False
    if _one_place_at_two_levels(old, new):
        return False
    if _chinese_value_told_again(values_old, new) and not _another_place_in_the_same(old, new):
        return False
    frame_old, frame_new = _frame(old, values_old), _frame(new, values_new)
    if not frame_old and not frame_new:
        # nothing but the attribute and its value: "My manager is Tom" / "Since June my
        # manager is Priya", "My son is 7" / "My son is 8"
        return bool(old.single_slots & new.single_slots) or bool(
            (values_old - values_new) & old.numbers and (values_new - values_old) & new.numbers
        )
    if not frame_old or not frame_new:
        return False
    if not (frame_old | frame_new) - _DATE_PARTS:
        # a frame of nothing but a date's parts (月, 日) frames nothing: "Work: the search
        # project review is on 02月14日" / "Reminder: renew the car insurance before 01月21日"
        # (review12 R7)
        return False
    shared = frame_old & frame_new
    return len(shared) / max(len(frame_old), len(frame_new)) >= FRAME_OVERLAP


_DATE_PARTS = frozenset({"年", "月", "日", "号", "date"})


def _dated_apart(old: Statement, new: Statement) -> bool:
    """Two occurrences, each told with its own date and naming another place or person, of
    something with no one-value attribute: "The user visited Lisbon in May 2025" / "… Kyoto in
    October 2025" are two trips, not a trip changed (review11 V1: take-new turned Lisbon into
    Kyoto). The same one moved to another day ("Lily's recital is on Saturday" / "… on
    Sunday", 12月20号飞杭州 / 1月20号) is still a change."""
    return (
        not old.single_slots & new.single_slots
        and bool(old.dates)
        and bool(new.dates)
        and not old.dates & new.dates
        and bool(_flat(old.names))
        and bool(_flat(new.names))
        and not _flat(old.names) & _flat(new.names)
    )


def _value_numbers(statement: Statement) -> set[str]:
    """Its numbers that are values: not a label ("note number 5"), not when a value began."""
    return _values(statement) & statement.numbers


def _used_to(statement: Statement) -> bool:
    """It tells a habit or state as over: "I used to live in Berlin", 我以前住在杭州."""
    words = statement.words
    if statement.lang == "zh":
        # in its first clause: 我的新manager是Sarah Klein，英国人，以前在Spotify做design lead
        # tells the new manager's past, not the new text's own (review13 J2)
        first = []
        for word in words:
            if word.norm == ",":
                break
            first.append(word)
        return "past" in statement.tense and any(w.norm in USED_TO_ZH for w in first)
    return any(
        word.surface.lower() == "used" and index + 1 < len(words) and words[index + 1].norm == "to"
        for index, word in enumerate(words)
    )


def _told_as_over(old: Statement, new: Statement) -> Suspicion | None:
    """The new text tells as over ("used to", 以前) what the old one tells as current: with the
    same values, the old fact ended (queue it); with other values, it is history beside the
    current fact ("I used to live in Hamburg" after "I live in Berlin"), no change. None when
    the new text tells nothing as over, or the old one does too."""
    if not _used_to(new) or _used_to(old) or _cues(new) - _WHEN_ONLY:
        return None
    values_old, values_new = _values(old), _values(new)
    if values_new - values_old:
        return Suspicion(False, "an earlier value, told as history beside the current one")
    frame_old = _frame(old, values_old)
    frame_new = _frame(new, values_new) - _USED_TO_WORDS
    if not frame_old or not frame_new:
        return None
    shared = frame_old & frame_new
    if len(shared) / max(len(frame_old), len(frame_new)) >= FRAME_OVERLAP:
        return Suspicion(True, "it tells the older memory as over (“used to”)")
    return None


_USED_TO_WORDS = frozenset({"use"}) | USED_TO_ZH


# How far after the name that opens a text its object may sit: "Spotify raised my plan".
_OBJECT_REACH = 3


def _acts_on_the_users(statement: Statement) -> bool:
    """An English text that opens with a name, then a verb, then the user's thing ("Spotify
    raised my plan to 12 €", "Netflix cancelled our account") is about that thing, the user's:
    the name is a brand or someone acting on it, not the holder of the attribute. The reader
    takes any capitalized word that opens a text before a verb as a person."""
    words = statement.words
    if statement.lang != "en" or len(words) < 3 or not words[0].person:
        return False
    if words[1].norm in ("be", "'s", ",") or words[1].norm in STOP_WORDS:
        return False  # "Tom is my manager", "Tom's parents": about Tom
    return any(word.norm in POSSESSIVE_SELF for word in words[2 : 2 + _OBJECT_REACH])


# --- round 9: changes the rules above missed on the dev sets (docs/design.md, "round 9") -----

# Words by which someone tells something of another ("the doctor said my …", 医生说我…).
# 医生让我降压药减成半片 "the doctor had me halve …" tells the user's dose too (queue15).
_SAYING = frozenset({"say", "speak", "tell", "告诉", "讲", "让"})
# How many content words after a negation are what it negates ("no sugar", 不加糖, "don't
# drive"): not a thing further on ("they don't have oat milk").
_NEGATED_WORDS = 1
# How far after "than" / "from" the older value is cited ("than the 135/88", 从1200欧元).
_COMPARED_REACH = 2
# Words that set a value beside an older one: "better than the 135/88", "down to 76 from 82".
_COMPARED = frozenset({"than", "from", "比", "从"})


def _told_of_the_user(statement: Statement) -> bool:
    """It opens with someone telling something of the user ("My doctor said my blood
    pressure …", 医生说我血压偏高): the user's, not the teller's."""
    words = [
        w
        for w in statement.words
        if (w.norm not in STOP_WORDS or w.norm in _SAYING) and w.norm != ","
    ]
    for index, word in enumerate(words[:3]):
        if word.norm in _SAYING:
            following = words[index + 1] if index + 1 < len(words) else None
            return (
                index > 0
                and following is not None
                and (following.norm in SELF_WORDS or following.norm in POSSESSIVE_SELF)
            )
    return False


def _a_change_negates_what_the_older_says(old: Statement, new: Statement) -> str | None:
    """The change word of a new text that also negates something the older one says as it is
    ("I switched to black coffee: no sugar, no milk" after "… with two sugars and milk";
    改成喝美式，不加糖了 after 加两份糖), or None. The negated word must be among the first
    content words after the negation ("they don't have oat milk" negates having, not milk)."""
    if new.negations <= old.negations:
        return None
    cues = _cues_about(old, new) - _WHEN_ONLY
    if not cues:
        return None
    said = set(old.terms)
    words = new.words
    for index, word in enumerate(words):
        if word.norm not in NEGATIONS:
            continue
        following = [
            w.norm
            for w in words[index + 1 :]
            if w.norm not in STOP_WORDS and w.norm not in QUALIFIERS and w.norm != ","
        ][:_NEGATED_WORDS]
        if any(norm in said or _parts_said(norm, said) for norm in following):
            return min(cues)
    return None


def _parts_said(norm: str, said: set[str]) -> bool:
    """A Chinese verb and object jieba glued (加糖, 喝啤酒) whose parts the other text says as
    words (加 … 糖, 喝 … 啤酒)."""
    return bool(_ALL_CJK.fullmatch(norm)) and any(
        norm[:cut] in said and norm[cut:] in said for cut in range(1, len(norm))
    )


def _older_numbers_compared(old: Statement, new: Statement) -> bool:
    """The new text cites the older one's values beside new ones ("much better than the
    135/88 in January", "down to 76 kg from 82 kg"): the older values were replaced. Only
    numbers of two digits or more count as the older value: a small count is shared by
    chance ("3 bedrooms, one more than the 2 we had" after 我们家有3口人)."""
    older = {number for number in _numbers(old) if len(number.replace(".", "")) >= 2}
    numbers_new = _numbers(new)
    if not (older and older <= numbers_new and numbers_new - _numbers(old)):
        return False
    words = new.words
    return any(
        word.norm in _COMPARED
        and any(
            _numbers(read(later.surface)) & older
            for later in words[index + 1 : index + 1 + _COMPARED_REACH + 1]
        )
        for index, word in enumerate(words)
    )


# --- one place at two levels (review11 Z16) ---------------------------------------------------


def _one_place_at_two_levels(old: Statement, new: Statement) -> bool:
    """Every value the two texts do not share is a place that lies within, or holds, a value
    of the other, as CC-CEDICT places it (:func:`localmind.places.within`): 我住在望京 after
    我住在北京, "I live in Beijing" / 我住在望京 name one home at two levels, not a move.
    A change word other than "now" ("I moved, now I live in Beijing" after 我住在望京) allows
    only a narrower place: a broader one may well be another district."""
    values_old, values_new = _values(old), _values(new)
    only_old, only_new = values_old - values_new, values_new - values_old
    if not only_old or not only_new:
        return False
    narrower = all(any(places.within(v, u) for u in values_old) for v in only_new)
    if _strong_cues(new) and not narrower:
        return False
    return all(any(places.nested(v, u) for u in only_old) for v in only_new) and all(
        any(places.nested(u, v) for v in only_new) for u in only_old
    )


def _another_place_in_the_same(old: Statement, new: Statement) -> bool:
    """A place of the older text replaced by another within a place both name: 我住在北京海淀区
    after 我住在北京朝阳区 (Beijing told again, the district changed), which the rule for a
    Chinese value told again took for the same value with other details."""
    values_old, values_new = _values(old), _values(new)
    kept = values_old & values_new
    only_old, only_new = values_old - values_new, values_new - values_old
    return any(
        not places.nested(u, v) and places.within(u, s) and places.within(v, s)
        for u in only_old
        for v in only_new
        for s in kept
    )


# --- another pursuit (review11 Z13) -----------------------------------------------------------


def _another_pursuit(old: Statement, new: Statement) -> bool:
    """The two texts name activities of different kinds only (a sport, an instrument, a
    language: ``localmind.kinds.ACTIVITIES``): 我改学韩语了 after 我每周三晚上去游泳 takes up a
    language beside the sport, one more pursuit, not the sport changed. When the new text
    names the older one's kind too ("I quit swimming and started Korean"), it may change it."""
    kinds_old, kinds_new = activities_named(old.text), activities_named(new.text)
    return bool(kinds_old) and bool(kinds_new) and not kinds_old & kinds_new


# --- a Chinese name written in pinyin ---------------------------------------------------------

_SHORTEST_NAME_OF_A_SUBJECT = 4
# One or two capitalised words opening an English text: "Liu Yang got the job", "Xiaomin is …".
_OPENING_LATIN_NAME = re.compile(r"^\W*([A-Z][a-z]+)(?:\s+([A-Z][a-z]+))?")


def _named_in_pinyin(subject: str, other: Statement) -> bool:
    """A Chinese subject (刘洋, 小敏, 子轩) that the other, English, text opens with, written by
    its sound ("Liu Yang got the job", "Xiaomin moved"): how Chinese names are written in
    English (``bilingual.spells``; a name jieba glued to the next character, 刘洋调…, by its
    first two or three characters). The sameness guard reads names so already."""
    if other.lang == "zh" or not _ALL_CJK.fullmatch(subject) or len(subject) < 2:
        return False
    opening = _OPENING_LATIN_NAME.match(other.text)
    if opening is None or _someone_of(other.text[opening.end() :]):
        return False  # "Leo's friend Ethan …" is about the friend
    first, second = opening.group(1).lower(), (opening.group(2) or "").lower()
    # the given name alone ("Liu Zixuan" for 子轩) counts
    spoken = {first, second, first + second} if second else {first}
    # Four letters are enough against the one name this text is about ("Siqi" / 思琪): the
    # five bilingual.spells asks for keep "Ma" or "Li" from matching any span of a text.
    written = _pinyin_names(subject, glued=True)
    return any(name in written for name in spoken if len(name) >= _SHORTEST_NAME_OF_A_SUBJECT)


def _someone_of(rest: str) -> bool:
    """What follows a name is someone of theirs ("'s friend Ethan", "'s new teacher"): the text
    is about that one. "'s swimming moved …" is still about the name's owner."""
    if not rest.startswith("'s"):
        return False
    words = re.findall(r"[A-Za-z-]+", rest[2:])[:3]
    return any(
        word[:1].isupper() or RELATIONS.get(word.lower()) or word.lower() in _PEOPLE_OF
        for word in words
    )


# People a child or a friend has that RELATIONS does not list (its teacher, coach, tutor).
_PEOPLE_OF = frozenset({"teacher", "coach", "tutor", "nanny", "classmate", "doctor", "vet"})

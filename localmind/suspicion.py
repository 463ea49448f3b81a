"""Whether a new memory plausibly contradicts an existing one: what may enter the review queue
(and, with a local model, what is worth asking it about).

Without a model, the queue used to take every neighbour above a low cosine similarity: most
of them compatible facts ("I grew up in Lyon" / "My sister lives in Munich"). A pair is now
suspect only when both speak of the same person and

- both set the same one-value attribute (where one lives, works, who the manager is, a
  favourite, "my rent is …") to something else, or
- one negates what the other says, or changes its number, or reverses its comparison, or
- the new one announces a change (now, moved, no longer, 现在, 改成, 不再, 搬到 …) to something
  the old one speaks of.
"""

from __future__ import annotations

from dataclasses import dataclass

from localmind.sameness import compare
from localmind.statement import ANTONYMS, SELF, TIME_WORDS, Statement, read

# Content words shared by this share of the shorter text make two statements "about the same
# thing" for the negation and number rules.
OVERLAP = 0.5


@dataclass(frozen=True, slots=True)
class Suspicion:
    contradicts: bool  # plausibly: a person (or a model) should look
    why: str


def suspect(existing: str, candidate: str) -> Suspicion:
    old, new = read(existing), read(candidate)
    if not _same_subject(old, new):
        return Suspicion(False, f"about someone else ({old.subject} / {new.subject})")
    words_old, words_new = set(old.content), set(new.content)
    shared = (words_old & words_new) - TIME_WORDS
    overlap = len(shared) / max(1, min(len(words_old), len(words_new)))
    single = old.single_slots & new.single_slots
    if old.comparison and new.comparison:
        (more_old, less_old), (more_new, less_new) = old.comparison, new.comparison
        if (more_old & less_new) or (less_old & more_new):
            return Suspicion(True, "the comparison is reversed")
    if old.negations != new.negations and (overlap >= OVERLAP or single):
        return Suspicion(True, "one negates the other")
    if old.numbers != new.numbers and (overlap >= OVERLAP or single):
        return Suspicion(True, "the numbers changed")
    if single and words_old != words_new:
        return Suspicion(True, f"both say what {_slot_name(min(single))} is")
    if new.cues and (old.slots & new.slots or shared):
        cue = min(new.cues)
        return Suspicion(True, f"“{cue}” announces a change to what the older memory says")
    if _opposed(words_old - words_new, words_new - words_old) and shared:
        return Suspicion(True, "opposite words about the same thing")
    if compare(existing, candidate).differs and overlap >= OVERLAP and single:
        return Suspicion(True, "the same attribute, said differently")
    return Suspicion(False, "compatible: nothing it says changes the older memory")


def _same_subject(old: Statement, new: Statement) -> bool:
    """The same person, a statement without one counting as the user's ("Please keep answers
    short" after "I want long answers")."""
    subjects = {old.subject or SELF, new.subject or SELF}
    return len(subjects) == 1


def _opposed(only_old: set[str], only_new: set[str]) -> bool:
    return any(tuple(sorted((a, b))) in ANTONYMS for a in only_old for b in only_new)


def _slot_name(slot: str) -> str:
    return slot if slot.startswith(("my ", "favourite ")) else f"the {slot}"

"""An assistant's note about the user, read as the person would say it.

Assistants store what a person tells them in the third person: "The user moved to Lisbon",
"User now works at Google", 用户搬到了里斯本. The person's own notes and questions say "I": "I
live in Berlin", "where do I live?". The bundled embedder reads "the user" as somebody else:
"The user moved to Lisbon" is 0.26 from "I live in Berlin" against 0.47 for "I moved to
Lisbon", under the 0.30 from which a change is compared, so an assistant's update of the
person's own fact was never queued nor linked (a new-user review), and recall's question in the
first person met the note at a discount. The vector of a stored memory is therefore taken from
its first-person reading; the text is stored as told. Only a note that opens with the user is
read again (and "the user's" anywhere in it): the rest of a sentence is left as it was.
"""

from __future__ import annotations

import functools
import re

import simplemma

# "The user", "the user", "User", "The User" at the start; "the user's" anywhere.
_OPENING = re.compile(r"^\s*(?:the\s+)?user\b(?!['’])(?P<rest>.*)$", re.IGNORECASE | re.DOTALL)
_POSSESSIVE = re.compile(r"\b(?:the\s+)?user(?:'s|’s)\s+", re.IGNORECASE)
# (not 用户界面 "user interface", 用户名 "user name" and other compounds)
_CHINESE_OPENING = re.compile(
    r"^\s*(?:该)?用户(?!界面|体验|名|数|量|协议|手册|群|画像|反馈)(?P<own>的)?"
)

# Words that may stand between the subject and its verb: "the user now works", "also likes".
_BETWEEN = frozenset(
    [
        "now",
        "also",
        "still",
        "often",
        "usually",
        "always",
        "never",
        "currently",
        "just",
        "recently",
        "really",
        "sometimes",
        "mostly",
        "only",
        "already",
        "finally",
        "actually",
        "no",
        "longer",
    ]
)
# The verbs whose first-person form is not the lemma, and negated forms.
_IRREGULAR = {
    "is": "am",
    "was": "was",
    "has": "have",
    "does": "do",
    "doesn't": "don't",
    "doesn’t": "don’t",
    "isn't": "am not",
    "isn’t": "am not",
    "hasn't": "haven't",
    "hasn’t": "haven’t",
    "wasn't": "wasn't",
}
# Verb forms the lemmatizer leaves as they are: a note "User quit smoking" is still the user's.
_VERBS_AS_THEY_ARE = frozenset(
    [
        "quit",
        "put",
        "set",
        "cut",
        "let",
        "hit",
        "read",
        "can",
        "could",
        "will",
        "would",
        "should",
        "might",
        "must",
        "may",
        "did",
        "didn't",
        "won't",
        "can't",
        "cannot",
        "shall",
        "had",
    ]
)


def as_told(text: str) -> str:
    """``text`` as the person would say it, if an assistant wrote it about "the user";
    otherwise ``text`` unchanged."""
    chinese = _CHINESE_OPENING.match(text)
    if chinese:
        return ("我的" if chinese.group("own") else "我") + text[chinese.end() :]
    opening = _OPENING.match(text)
    told = _agree(opening.group("rest")) if opening else None
    if told is None:  # not a note about the user ("User interface work is dull")
        return _POSSESSIVE.sub(_my, text)
    return "I" + _POSSESSIVE.sub(_my, told)


def _my(found: re.Match[str]) -> str:
    return "My " if found.start() == 0 else "my "


def _agree(rest: str) -> str | None:
    """``rest`` with the verb after "I" in its first-person form ("works" → "work", "is" →
    "am"), or None when the word after the subject is no verb (the note is not about the user:
    "User interface work is dull")."""
    words = rest.split(" ")
    # words[0] is "": the space after "user".
    for index, word in enumerate(words):
        if index == 0 and word == "":
            continue
        bare = word.lower().rstrip(",.;:!?")
        if bare in _BETWEEN:
            continue
        if bare in _IRREGULAR:
            words[index] = _IRREGULAR[bare] + word[len(bare) :]
            return " ".join(words)
        if bare in _VERBS_AS_THEY_ARE:
            return " ".join(words)
        lemma = simplemma.lemmatize(bare, lang="en") if bare.isalpha() else bare
        if lemma == bare:
            return None
        if bare.endswith("s") and not bare.endswith("ss"):
            words[index] = lemma + word[len(bare) :]
        return " ".join(words)
    return None


# A question an assistant asks about the user, as the person would ask it: "Where does the user
# live?" → "Where do I live?" (USE-m3 puts it 0.21 from "I live in Lisbon", the first-person
# question 0.30, and recall's relevance threshold drops what is far).
_ASKED = (
    (re.compile(r"\b(do|does)\s+(?:the\s+)?user\b(?!['’])", re.IGNORECASE), r"do I"),
    (re.compile(r"\b(is)\s+(?:the\s+)?user\b(?!['’])", re.IGNORECASE), r"am I"),
    (re.compile(r"\b(has)\s+(?:the\s+)?user\b(?!['’])", re.IGNORECASE), r"have I"),
    (
        re.compile(
            r"\b(did|was|can|could|will|would|should|might|must)\s+(?:the\s+)?user\b(?!['’])",
            re.IGNORECASE,
        ),
        r"\1 I",
    ),
    (re.compile(r"\b(?:the\s+)?user(?:'s|’s)\s+", re.IGNORECASE), "my "),
    (re.compile(r"\bthe\s+user\b", re.IGNORECASE), "me"),
)
_CHINESE_USER = re.compile(r"(?:该)?用户(?!界面|体验|名|数|量|协议|手册|群|画像|反馈)")


def as_asked(question: str) -> str:
    """``question`` as the person would ask it, if an assistant asks it about "the user";
    otherwise ``question`` unchanged. A question that opens with the user reads as a note does
    ("The user's sister lives where?")."""
    if _OPENING.match(question) or _CHINESE_OPENING.match(question):
        told = as_told(question)
        if told != question:
            return told
    asked = question
    for pattern, replacement in _ASKED:
        asked = pattern.sub(functools.partial(_cased, replacement=replacement), asked)
    return _CHINESE_USER.sub("我", asked)


def _cased(found: re.Match[str], *, replacement: str) -> str:
    """``replacement`` for ``found``, capitalised as ``found`` was ("Is the user" → "Am I")."""
    said = found.expand(replacement)
    return said[:1].upper() + said[1:] if found.group(0)[:1].isupper() else said

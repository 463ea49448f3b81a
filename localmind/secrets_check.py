"""Whether a memory's text looks like a secret: a password, PIN, API key, token, card number,
one-time or security code, in English or Chinese.

localmind is the person's private memory, but its ``context`` answer (and MCP's ``recall``)
goes to whatever assistant asks, often a cloud one. A memory that looks like a secret is
marked when it is written (``MemoryRecord.secret``, a column the store derives from the text)
and kept out of everything sent to an assistant; the person still reads it in their own
commands. Two kinds of evidence:

- key and token formats (AWS, GitHub, Slack, Stripe, OpenAI, JWT, private keys, …) and long
  high-entropy strings: Yelp's ``detect-secrets`` plugins, asked about the text directly
  (never its network verification);
- what people say in plain words, which those plugins (made for code) miss: "my password is
  …", "bank PIN 4821", "the door code is 1234#", "security answer: …", a card number that
  passes the Luhn check, 密码/口令/PIN码/验证码/银行卡号 followed by a value; also told as a
  change ("the PIN was reset to 5566", "changed from 4821 to 9930", 密码从…改成…), and a
  passport or ID number with its value (护照号, 身份证号).

The person has the last word: ``metadata["secret"]`` true or false (``localmind update ID
--not-secret``) overrides the recogniser. "Not a secret" covers only the text it was given for
(``metadata["secret_for"]``, that text's hash): a corrected text, a restatement merged in or
another device's text paired with the verdict by sync is checked again. "A secret" stays.
"""

from __future__ import annotations

import functools
import hashlib
import math
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from localmind import lemmas
from localmind.records import text_with_restatements
from localmind.simplified import reads_simplified

#: The metadata key holding the person's own verdict (true or false), which wins.
OVERRIDE = "secret"
#: The metadata key holding the hash of the text a "not a secret" verdict was given for.
VERDICT_FOR = "secret_for"
_SAID = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}

#: detect-secrets plugins left out: IP addresses are not secrets, the keyword plugin reads
#: code ("password = ..."; the plain-words rules below read sentences), and the entropy
#: plugins need quotes around a string (the same entropy test runs on each word below).
_NOT_USED = frozenset(
    {
        "IPPublicDetector",
        "KeywordDetector",
        "Base64HighEntropyString",
        "HexHighEntropyString",
    }
)

# detect-secrets' default limits; a word shorter than these cannot reach them anyway.
_BASE64_LIMIT, _HEX_LIMIT = 4.5, 3.0
_BASE64_WORD = re.compile(r"[A-Za-z0-9+/=_-]{20,}")
_KEYLIKE_WORD = re.compile(r"[A-Za-z0-9_.+/=-]{11,}")
_LINK_PATH = re.compile(r"\bhttps?://[^\s?#]+", re.IGNORECASE)
_HEX_WORD = re.compile(r"(?<![0-9A-Za-z])[0-9a-fA-F]{24,}(?![0-9A-Za-z])")

# --- plain words ------------------------------------------------------------------------------

# Names whose value may be words ("my wifi password is sunflower") ...
_EN_WORDY = (
    r"pass(?:word|wd|phrase)|pwd"
    r"|security\s+(?:answer|question)|secret\s+(?:answer|question|phrase|word)"
    r"|answer\s+to\s+(?:my|the)\s+security\s+question"
    r"|recovery\s+phrase|seed\s+phrase|mnemonic(?:\s+phrase)?"
    # a word agreed on to prove who one is ("our family safe word is pineapple", secret10)
    r"|code\s*word|code\s+phrase|safe\s*word|watch\s*word"
)
# Names whose value may be several words ("my passphrase is correct horse battery staple").
_EN_PHRASE_NAMES = re.compile(
    r"pass\s*phrase|(?:recovery|seed|code)\s+phrase|mnemonic(?:\s+phrase)?", re.IGNORECASE
)
# ... and names that also mean other things ("the pin is broken", "the token was a coin"): their
# value must hold a digit.
_EN_CODED = (
    r"passcode|pin(?:\s*(?:code|number|no\.?))?|security\s+code|secret\s+key"
    r"|recovery\s+(?:code|key)s?|backup\s+codes?"
    r"|api[\s_-]?key|access\s+(?:key|token|code)|auth(?:entication)?\s+(?:token|code)"
    r"|(?:bearer|personal\s+access)\s+token|token"
    r"|2fa\s+code|otp|one[\s-]time\s+(?:code|password)|verification\s+code|cvv|cvc"
    r"|(?:door|gate|alarm|garage|entry|building|safe|locker|lock|padlock|bike\s+lock|unlock)\s+"
    r"(?:code|combination|combo)"
    r"|ssn|social\s+security\s+(?:number|no\.?)|sin\s+number"
    r"|(?:wi-?fi|wlan|wpa2?|network)\s+key"
    # identity documents: a passport or ID number opens accounts and passes checks (secret12)
    r"|passport\s+(?:number|no\.?)|(?:national\s+|personal\s+)?id(?:entity)?\s+(?:card\s+)?"
    r"(?:number|no\.?)|driver'?s\s+licen[cs]e\s+(?:number|no\.?)|tax\s+id(?:\s+number)?"
)
# "<name> is <value>", "<name> for Gmail: <value>", "<name>=<value>"
_EN_NAMES = f"(?P<wordy>{_EN_WORDY})|{_EN_CODED}"
_EN_SAID = re.compile(
    # "'s" is "is" only right after the name ("my wifi password's hunter2"): in "the door code
    # of the user's flat is 7391#" it is the user's (review10 F1)
    rf"\b(?:{_EN_NAMES})(?:(?<=\.)|\b)(?:'s\b|(?:\s+(?:for|to|of|on|at|from)\s+(?:[\w'.&-]+\s+){{0,3}}?"
    r"[\w'.&-]+)?"
    # "was changed to", "was reset to", "changed from 4821 to 9930" (the old value is a secret
    # too; secret12) before plain "was", which would read "changed" as the value
    r"\s*(?:(?:\b(?:was|has\s+been|had\s+been|got|is\s+now)\s+)?"
    r"\b(?:chang|reset|set|updat|switch)\w*\s+(?:to|from)\b"
    r"|\bis(?:\s+(?:still|now))?\b|\bwas\b|\bare\b|:|="
    r"|[,;]\s*(?:it|which)\s+(?:is|was)(?:\s+now)?\b|[,;]\s*it's(?:\s+now)?\b))"
    # "is: apple banana …" (a seed phrase after a colon)
    r"(?:\s*:)?\s*(?P<quote>[\"'“‘])?(?P<value>[^\s\"'”’]+)(?=(?P<rest>[^.!?;,\n\"”’]*))",
    re.IGNORECASE,
)
# "I changed my bank card PIN to 9930", "set my phone passcode to 240690", "updated the Wi-Fi
# password to hunter22": the new value after "to" (review11 L1; the form assistants write).
_EN_CHANGED_TO = re.compile(
    r"\b(?:chang(?:e|es|ed|ing)|set(?:s|ting)?|updat(?:e|es|ed|ing)|reset(?:s|ting)?"
    r"|switch(?:es|ed|ing)?)\b[^.!?;\n]{0,40}?"
    rf"\b(?:{_EN_NAMES})\b\s+(?:to|into|from)\s+"
    r"(?P<quote>[\"'“‘])?(?P<value>[^\s\"'”’]+)(?=(?P<rest>[^.!?;,\n\"”’]*))",
    re.IGNORECASE,
)
# "The building door code changed, the new one is 4712": the value later in the sentence, after
# words of its own ("the new one is", "now it's"); only a value of three digits or more, as a
# later "is" may say anything (review13 J8)
_EN_VALUE_LATER = re.compile(
    rf"\b(?:{_EN_WORDY}|{_EN_CODED})\b[^.!?;\n]{{1,60}}?(?:\bis|\bwas|\bit's|:|=)\s*(?:now\s+)?"
    r"(?P<value>[^\s,;]*\d{3,}[^\s,;]*)",
    re.IGNORECASE,
)
# "the same password everywhere: tulip88", "PIN for the bank app and the card: 4821": a colon a
# few words after the name, then a value holding a digit or random letters (secret12)
_EN_COLON_AFTER = re.compile(
    rf"\b(?:{_EN_WORDY}|{_EN_CODED})\b(?:\s+[\w'’.&-]+){{1,5}}?\s*:\s*"
    r"(?P<value>[^\s,;]*\d[^\s,;]*|[A-Za-z]{4,}(?![\w'’-]))",
    re.IGNORECASE,
)
# "<name> 4821", "<name>: hunter2" right after it: a value holding a digit; "<name> zqxwvplor":
# letters only, when they look random (see ``_random_letters``)
_EN_NEXT = re.compile(
    rf"\b(?:{_EN_WORDY}|{_EN_CODED})\b\s*[:=#]?\s*"
    r"(?P<value>[^\s,;]*\d[^\s,;]*|[a-z]{4,}(?![\w'’-]))",
    re.IGNORECASE,
)
# What follows "my password is" when no password does ("… is weak", "… is in 1Password").
_NOT_A_VALUE = frozenset(
    re.split(
        r"\s+",
        """a an the my your his her their our its this that same weak strong too very not still
    now expired wrong correct right long short easy hard simple secure safe changed different
    saved stored written kept hidden in on at under with by for from of to and or but also
    just so really something what which where who how why when required needed needs set
    reset locked blocked forgotten lost new old been being done fine ok okay good bad great
    terrible there here one two three four five six seven eight nine ten mine yours
    stronger weaker longer shorter safer better harder easier simpler""",
    )
)

# "my PIN is 4 digits long", "changed from 4 digits to 6": a number counting what the secret
# is made of is its length, not the secret.
_A_LENGTH = re.compile(
    r"(?:\s*(?:to|or|-)\s*\d+)?\s*(?:-\s*)?(?:digits?|characters?|chars?|letters?|numbers?|words?)\b",
    re.I,
)

_DESCRIBING = ("ed", "ing", "ly", "able", "ible", "ful", "less", "ive", "ous")
# Words that tell a description of a passphrase from the phrase itself ("… is four random
# words", "… is written on a card", "… is too long to type"): grammar, numbers, and how long or
# where it is. "correct horse battery staple" has none.
_NOT_IN_A_PHRASE = _NOT_A_VALUE - {"correct", "right", "wrong", "good", "bad", "great"} | set(
    re.split(
        r"\s+",
        """is are was were be and or words word letters characters digits random eleven twelve
    twenty twentyfour dozen long short written printed saved somewhere card paper""",
    )
)

_ZH_NAMES = (
    r"(?:支付|取款|登录|开机|锁屏|邮箱|银行卡?|网银|无线|wifi|WiFi|WIFI|门锁|门禁|保险柜|账户|账号)?"
    r"(?:密码|口令|密钥|秘钥|私钥|助记词|验证码|动态码|安全码|门禁码|暗号|暗语|密语|[Pp][Ii][Nn]\s*码|(?<=[\u4e00-\u9fff])[Pp][Ii][Nn](?![A-Za-z])|"
    r"银行卡号|信用卡号|卡号|密保答案|安全问题答案|令牌|开门码|开锁码"
    r"|护照号码?|身份证号码?|身份证件号码?|驾驶证号码?|驾照号码?)"
)
_ZH_SAID = re.compile(
    _ZH_NAMES
    # 被重置为 / 从4821改成9930 (secret12): the old value after 从 is a secret too
    + r"\s*(?:是|为|：|:|=|(?:已经?|被)?(?:更?改|换|设|重置|重设|更新)(?:成|为)了?|从|叫)?"
    + r"\s*[：:]?\s*[「“\"']?"
    + r"(?P<value>[A-Za-z0-9!@#$%^&*()_+\-=.,?~]{3,})"
)
# A value in Chinese words only after an explicit "是/为/：" ("密码是芝麻开门"), and not a
# question or a hint about where it is ("密码是什么", "密码是我的生日", "密码在本子上").
_ZH_WORDS = re.compile(_ZH_NAMES + r"\s*(?:是|为|：|:)\s*[「“\"']?(?P<value>[\u4e00-\u9fff]{2,8})")
_ZH_NOT_A_VALUE = re.compile(
    r"^(?:什么|多少|哪|啥|怎|我|你|他|她|它|不|没|很|太|在|一样|同|对|错|这|那)"
)

# --- no telltale word: a service or account, then a credential-looking word -------------------

# A run of visible ASCII: a word, also inside Chinese ("网银：Abc!2345x" holds "Abc!2345x").
_ASCII_WORD = re.compile(r"[!-~]+")
# An e-mail address or a link is no password (a key in a link's query is the entropy test's).
_ADDRESS = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\b(?:https?://|www\.)\S+", re.IGNORECASE)
# Symbols people put inside passwords ("Tr0ub4dor&3", "Blue!Sky22"); not '-', '.', '/', '_',
# ':' which join parts of names, dates, times and product codes ("Blink-182", "ID.3", "10:35").
_PASSWORD_SYMBOLS = frozenset("!@#$%^&*?~+=|<>")
_OPEN, _CLOSE = "\"'“‘([<", "\"'”’)]>.,;:"
# Words that say an account or a network follows; the credential-looking word after them in the
# same sentence only has to mix three kinds of character ("wifi at mum's: Sunflower-1987").
_ACCOUNT = re.compile(
    r"(?<![A-Za-z])(?:log-?in|logon|sign-?in|accounts?|credentials?|wi-?fi|wlan|router|vpn|pw|pass"
    r"|unlock)(?![A-Za-z])"
    r"|网银|登录|登陆|账号|帐号|账户|无线网?|路由器?|后台|支付宝|微信",
    re.IGNORECASE,
)
# A sentence that names an account or a network without a word for its key (review11).
_NAMES_NOT_A_KEY = re.compile(
    r"(?<![A-Za-z])(?:re)?nam(?:e|es|ed|ing)(?![A-Za-z])|\bssid\b|\bcalled\b|\bhandle\b"
    r"|用户名|名字|名称|昵称|改名|叫做",
    re.IGNORECASE,
)
_KEY_WORD = re.compile(
    r"(?<![A-Za-z])(?:pass\w*|pw|pwd|pins?|codes?|keys?|secret|credentials?)(?![A-Za-z])"
    r"|密码|口令|密钥|验证码",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"[。！？；\n]|[.!?;]\s")
# "the code for the garage is 4821#": a code of something that locks, holding a digit.
_LOCKABLE = (
    r"(?:front\s+|back\s+|garage\s+)?door|garage|gate|alarm|safe|locker|lock|padlock|shed"
    r"|building|house|flat|apartment|storage|lock\s?box|key\s?box|phone|laptop|tablet|ipad"
    r"|suitcase|bike"
)
_CODE_OF = re.compile(
    rf"\b(?:code|combination|combo|pin)\s+(?:for|to|of|on)\s+(?:the|my|our|[\w]+'s)?\s*"
    rf"(?:[a-z]+\s+)?(?:{_LOCKABLE})\b\s*"
    # "… was changed to 2468", "set the code for the alarm to 4711" (secret12)
    r"(?:(?:(?:was|has\s+been|got)\s+)?(?:chang|reset|set|updat|switch)\w*\s+to\b|to(?=\s+\d)"
    r"|is|was|:|=)\s*(?P<value>[^\s,;]*\d[^\s,;]*|[a-z]+\b(?!['’]))",
    re.IGNORECASE,
)
# "The condo gate now opens with 5931 followed by the hash key", "the front door unlocks with
# 7391", 大门现在输入5931#就能开: how to open something that locks, told without the word "code"
# (review14 K10). Three digits or more, and no unit after them ("opens with 20 staff").
_OPENS_WITH = re.compile(
    rf"\b(?:{_LOCKABLE}|storage\s+unit)\b[^.!?;\n]{{0,30}}?\b(?:opens?|unlocks?|opened|unlocked)"
    r"\s+(?:with|by|using)\s+(?:(?:the\s+)?(?:code|pin|number|combination)\s+)?"
    r"(?P<value>\d{3,}[#*]?)(?![\w-])"
    r"|(?:大门|门禁|房门|门|锁|保险箱|保险柜)[^。！？，,；]{0,8}?(?:输入|按)\s*(?P<zh>\d{3,}[#*]?)"
    r"(?![\d年月日号元块楼层米岁点分个])",
    re.IGNORECASE,
)
# "gym locker: zqxwvplor", 储物柜：zqxwvplor — something opened by a code and nothing else (not
# "House: tudor", "Bike: bianchi"), then random letters.
_LOCKED_BY = re.compile(
    r"(?:\b(?:locker|padlock|safe|lock\s?box|key\s?box|(?:bike|combination)\s+lock)\s*[:=]"
    r"|(?:储物柜|柜子|保险箱|保险柜|门锁|密码锁|门禁)的?\s*(?:是|为|：|:))"
    r"\s*(?P<value>[a-z]{4,})(?![\w'’-])",
    re.IGNORECASE,
)
# 车库的门是 4821#, 保险箱组合 12-40-7, 微信支付：147258 — not a year, a floor, a price.
_ZH_CODE_OF = re.compile(
    r"(?:(?:车库|大门|房门|门|保险箱|保险柜|柜子|锁)(?:的)?(?:门|组合|密码)?"
    r"\s*(?:是|为|：|:)?\s*(?P<lock>\d[\d*#-]{2,}\d#?|\d{3,}#)"
    r"|(?:微信支付|支付宝|支付|网银|开机|锁屏)\s*(?:是|为|：|:)\s*(?P<pay>\d{4,8}))"
    r"(?![\d年月日号元块楼层米岁点分个])"
)


def _no_telltale_word(text: str) -> Finding | None:
    if (
        _ZH_CODE_OF.search(text)
        or _OPENS_WITH.search(text)
        or any(_digit_or_random(match.group("value")) for match in _CODE_OF.finditer(text))
    ):
        return Finding("a code of a door, safe or phone")
    if any(_random_letters(match.group("value")) for match in _LOCKED_BY.finditer(text)):
        return Finding("a code of a door, safe or phone")
    text = _ADDRESS.sub(" ", text)
    for word in _credential_words(text):
        if _password_like(word):
            return Finding("a password-like word")
    for sentence in _SENTENCE_END.split(text):
        account = _ACCOUNT.search(sentence)
        if _NAMES_NOT_A_KEY.search(sentence) and not _KEY_WORD.search(sentence):
            # "I renamed the Wi-Fi to HomeNet5G", "the router's SSID is Kiwi-2G4": the word
            # after the network is its name, which anyone nearby can see, not its password.
            continue
        if account and any(
            _mixes_three(word) for word in _credential_words(sentence[account.end() :])
        ):
            return Finding("an account or network followed by a password-like word")
    return None


def _credential_words(text: str) -> Iterator[str]:
    for word in _ASCII_WORD.findall(text):
        word = word.lstrip(_OPEN).rstrip(_CLOSE)
        if len(word) >= 6 and any(c.isdigit() for c in word) and any(c.isalpha() for c in word):
            yield word


def _password_like(word: str) -> bool:
    """A word only a password looks like: a password symbol inside it ("Tr0ub4dor&3"), a
    digit standing for a letter in a word with capitals ("Fal1ingWater"), or all four kinds of
    character with a symbol at its end ("Mia2024!"; "round2!" is a sentence's end)."""
    inner = word.rstrip("!?")
    if any(c in _PASSWORD_SYMBOLS for c in inner[1:]):
        return True
    if re.search(r"[a-z]\d+[a-z]", word) and any(c.isupper() for c in word):
        return True
    return inner != word and _mixes_three(inner) and any(c.isupper() for c in inner)


def _mixes_three(word: str) -> bool:
    """Whether a word mixes three of lower case, upper case, digits and symbols."""
    kinds = (str.islower, str.isupper, str.isdigit, lambda c: not c.isalnum())
    return sum(any(kind(c) for c in word) for kind in kinds) >= 3


# A card number: 13 to 19 digits, in groups or not, passing the Luhn check.
_CARD = re.compile(r"(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])")
# A phone number is no secret, a friend's or one's own (it opens nothing, and an assistant may
# need it for a form), but one in a country's international form can pass the Luhn check by
# chance (+86 138 1234 5678 is 13 digits that do; +49 151 2345 6789, 12, is too short to be
# taken): digits after a "+", after a phone word (not a card's: "paid by phone with card …"),
# or beginning with 0 (the "00" of a call abroad; no card number begins with 0) are a phone's.
_PHONE_BEFORE = re.compile(
    r"(?:\+\s?|(?:phone|mobile|cell|telephone|tel\.?|whatsapp|手机|电话)[^\d卡]{0,20})$",
    re.IGNORECASE,
)
_NOT_PHONE_WORDS = re.compile(r"card|visa|mastercard|amex|卡", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Finding:
    """Why a text looks like a secret (the kind only: the value itself is never kept)."""

    kind: str


def told_to_person(memory_ids: Sequence[str]) -> str:
    """What a front end tells the person when what they added looks like a secret (every
    front end says the same: the CLI's add and import, the TUI)."""
    if len(memory_ids) == 1:
        what, one = f"{memory_ids[0]} looks like a secret", memory_ids[0]
    else:
        shown = ", ".join(memory_ids[:5]) + (" and more" if len(memory_ids) > 5 else "")
        what, one = f"{len(memory_ids)} memories look like secrets ({shown})", "ID"
    return (
        f"{what} (a password, PIN, key or code): kept here, but never sent to an assistant "
        f"(`context`, MCP). Not a secret? localmind update {one} --not-secret"
    )


@reads_simplified  # 我的網銀密碼是… is 密码 (review15a): the telltale words are Simplified
def find_secret(text: str) -> Finding | None:
    """The first reason ``text`` looks like a secret, or None."""
    for check in (_in_plain_words, _card_number, _key_format, _high_entropy, _no_telltale_word):
        found = check(text)
        if found is not None:
            return found
    return None


def looks_secret(text: str) -> bool:
    return find_secret(text) is not None


# A sentence ends at . ! ? ; followed by a space, at a line break, or at a Chinese end mark.
_SENTENCES = re.compile(r"(?<=[.!?;])\s+|\n+|(?<=[。！？；])")
# A clause ends at a comma (kept, so the sentence reads the same around a placeholder).
_CLAUSES = re.compile(r"(,\s*|，)")


@dataclass(frozen=True, slots=True)
class Withheld:
    """A message with what looks like a secret taken out: ``shown`` has ``placeholder`` in
    place of each clause or sentence that does, ``secrets`` are the whole sentences that held
    one (what the person will recognise, and keep: "Gmail, password: Tr0ub4dor&3" is one, though
    only its second clause is withheld). Nothing looked like a secret: ``shown`` is the
    message and ``secrets`` is empty."""

    shown: str
    secrets: tuple[str, ...]


def without_secrets(text: str, placeholder: str) -> Withheld:
    """``text`` with each clause (else sentence) that looks like a secret replaced by
    ``placeholder``; the whole of it when it looks like one and no single sentence does ("my
    password is. hunter2")."""
    if not looks_secret(text):
        return Withheld(text, ())
    sentences = [s.strip() for s in _SENTENCES.split(text) if s.strip()]
    secrets = tuple(s for s in sentences if looks_secret(s))
    shown = " ".join(_withheld_clauses(s, placeholder) if s in secrets else s for s in sentences)
    if not secrets or looks_secret(shown):
        return Withheld(placeholder, (text.strip(),))
    return Withheld(shown, secrets)


def _withheld_clauses(sentence: str, placeholder: str) -> str:
    """A sentence that looks like a secret with only its secret-looking clauses replaced, when
    what is left no longer looks like one ("I'm at the gym, my locker code is 1234, my knee
    hurts"); else the placeholder for the whole ("my wifi password, it is sunflower77")."""
    pieces = _CLAUSES.split(sentence)  # clause, comma, clause, …
    kept = [
        placeholder if i % 2 == 0 and looks_secret(piece) else piece
        for i, piece in enumerate(pieces)
    ]
    shown = "".join(kept)
    return placeholder if placeholder not in kept or looks_secret(shown) else shown


def person_said(metadata: dict[str, Any]) -> bool | None:
    """The person's own verdict in ``metadata`` (true, false), or None when they gave none."""
    said = metadata.get(OVERRIDE)
    if isinstance(said, bool):
        return said
    if isinstance(said, str):
        return _SAID.get(said.strip().lower())
    return None


def with_verdict(content: str, metadata: dict[str, Any], secret: bool) -> dict[str, Any]:
    """``metadata`` with the person's verdict on a memory of this text, tied to the text."""
    return {**metadata, OVERRIDE: secret, VERDICT_FOR: _verdict_hash(content, metadata)}


def withheld(content: str, metadata: dict[str, Any]) -> bool:
    """Whether a memory with this text and metadata is kept from assistants: the person's
    verdict when they gave one ("not a secret" only for the very text it was given for), else
    whether its text (or a restatement merged into it) looks like a secret."""
    said = person_said(metadata)
    if said is True:
        return True
    if said is False and metadata.get(VERDICT_FOR) == _verdict_hash(content, metadata):
        return False
    return looks_secret(text_with_restatements(content, metadata))


def _verdict_hash(content: str, metadata: dict[str, Any]) -> str:
    # exact, not records.content_hash: "hunter2!" is not "hunter2?"
    text = text_with_restatements(content, metadata)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def _in_plain_words(text: str) -> Finding | None:
    for match in (*_EN_SAID.finditer(text), *_EN_CHANGED_TO.finditer(text)):
        if _said_value(match):
            return Finding("a password, PIN or code told in words")
    for match in (
        *_EN_NEXT.finditer(text),
        *_EN_COLON_AFTER.finditer(text),
        *_EN_VALUE_LATER.finditer(text),
    ):
        value = match.group("value").strip(".,;:!?)(")
        if _random_letters(value) or (len(value) >= 3 and any(c.isdigit() for c in value)):
            return Finding("a password, PIN or code told in words")
    if _ZH_SAID.search(text):
        return Finding("密码、PIN 码或验证码")
    for match in _ZH_WORDS.finditer(text):
        if not _ZH_NOT_A_VALUE.match(match.group("value")):
            return Finding("密码、PIN 码或验证码")
    return None


def _said_value(match: re.Match[str]) -> bool:
    """Whether what follows "<name> is" is the secret itself: a value holding a digit, a quoted
    one, letters that look random ("zqxwvplor"), for a password or code word any word that is
    not a description ("sunflower", not "weak"), for a passphrase a run of words ("correct
    horse battery staple", not "four random words")."""
    raw = match.group("value")
    value = raw.strip(".,;:!?)(").lower()
    if value.isdigit() and _A_LENGTH.match(match.group("rest")):
        return False
    if _digit_or_random(raw.strip(".,;:!?)(")) or (match.group("quote") and value):
        return True
    if not match.group("wordy"):
        return False
    if _a_value(value):
        return True
    words = [value, *match.group("rest").lower().split()]
    return (
        _EN_PHRASE_NAMES.fullmatch(match.group("wordy")) is not None
        and len(words) >= 3
        and not any(word in _NOT_IN_A_PHRASE or not word.isalpha() for word in words)
    )


def _digit_or_random(value: str) -> bool:
    return any(c.isdigit() for c in value) or _random_letters(value)


def _random_letters(word: str) -> bool:
    """Whether a word of letters in one case is no word at all ("zqxwvplor", "KQZT"): a
    made-up code. A dictionary word ("broken", "blue"), a name written with a capital ("Leo")
    or a word cut short by an apostrophe ("Mia's") is not taken for one."""
    return (
        4 <= len(word) <= 64
        and word.isascii()
        and word.isalpha()
        and (word.islower() or word.isupper())
        and word.lower() not in _NOT_A_VALUE
        and not lemmas.is_known(word.lower())
    )


def _a_value(word: str) -> bool:
    """Whether a word after "password is" can be the password: not a common word, nor one that
    reads as a description ("accepted", "expiring", "easily", "unbreakable")."""
    return (
        bool(word)
        and word not in _NOT_A_VALUE
        and not (word.isalpha() and word.endswith(_DESCRIBING))
    )


def _card_number(text: str) -> Finding | None:
    for match in _CARD.finditer(text):
        if _a_phone_number(text, match):
            continue
        digits = [int(c) for c in match.group() if c.isdigit()]
        if len(set(digits)) > 1 and _luhn(digits):
            return Finding("a card number")
    return None


def _a_phone_number(text: str, match: re.Match[str]) -> bool:
    """Whether the digits ``match`` found are written as a phone number (:data:`_PHONE_BEFORE`)."""
    if match.group().startswith("0"):
        return True
    before = text[max(0, match.start() - 30) : match.start()]
    found = _PHONE_BEFORE.search(before)
    return found is not None and not _NOT_PHONE_WORDS.search(found.group())


def _luhn(digits: list[int]) -> bool:
    total = 0
    for position, digit in enumerate(reversed(digits)):
        if position % 2:
            digit = digit * 2 - 9 if digit > 4 else digit * 2
        total += digit
    return total % 10 == 0


def _key_format(text: str) -> Finding | None:
    if not _may_hold_a_key(text):
        return None
    for kind, analyze in _format_plugins():
        if next(iter(analyze(text)), None) is not None:
            return Finding(kind)
    return None


def _may_hold_a_key(text: str) -> bool:
    """Whether any detect-secrets format could match: every one needs a word of 11 or more
    characters mixing letters and digits, a link with a password in it or a private key's
    header. Most memories have none, so remember never imports the package for them (importing
    it takes 0.1 to 0.4 s, most of it the ``requests`` it brings)."""
    if "://" in text or "PRIVATE KEY" in text:
        return True
    return any(
        any(c.isdigit() for c in word) and any(c.isalpha() for c in word)
        for word in _KEYLIKE_WORD.findall(text)
    )


def _high_entropy(text: str) -> Finding | None:
    # A link's address and path name a page (a shared document's id is random too); a key in a
    # link sits in its query ("?token=…"), which stays.
    text = _LINK_PATH.sub(" ", text)
    for word in _BASE64_WORD.findall(text):
        mixed = any(c.isdigit() for c in word) and any(c.isalpha() for c in word)
        if mixed and _entropy(word) > _BASE64_LIMIT:
            return Finding("a long random-looking string (a key or token)")
    for word in _HEX_WORD.findall(text):
        if any(c.isalpha() for c in word) and _entropy(word) > _HEX_LIMIT:
            return Finding("a long random-looking hexadecimal string (a key or token)")
    return None


def _entropy(word: str) -> float:
    """Shannon entropy in bits per character, as detect-secrets computes it."""
    counts = {c: word.count(c) for c in set(word)}
    return -sum(n / len(word) * math.log2(n / len(word)) for n in counts.values())


Analyze = Callable[[str], Iterator[str]]


@functools.cache
def _format_plugins() -> tuple[tuple[str, Analyze], ...]:
    """detect-secrets' format plugins (kind, analyze): imported on the first check, not when
    localmind starts (the package takes ~0.1 s to import)."""
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class

    plugins: dict[str, Any] = get_mapping_from_secret_type_to_class()
    return tuple(
        (kind, plugin_class().analyze_string)
        for kind, plugin_class in plugins.items()
        if plugin_class.__name__ not in _NOT_USED
    )

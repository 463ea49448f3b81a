"""The recogniser of secret-looking text (localmind.secrets_check), English and Chinese, and
its false positives on the dev sets' own texts (none may be taken for a secret)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from bench.secret_texts import LABELLED, dev_texts, labelled
from localmind.records import RESTATEMENTS
from localmind.secrets_check import (
    Withheld,
    find_secret,
    person_said,
    with_verdict,
    withheld,
    without_secrets,
)

# LABELLED: texts labelled secret or not (English and Chinese), most with no word saying
# "password": a service or account followed by a password-like word, a door's code, a locker's
# code word of random letters; and ordinary facts of the same shape ("Flight: LH 1234", "Room:
# 4B", a friend's phone number, "Favourite band: Blink-182", a promo code).


SECRETS = [
    # the review's (finding 1)
    "My GitHub token is ghp_16C7e42F292c6912E7710c838347Ae178B4a",
    "email password: Tr0ub4dor&3",
    "bank PIN 4821",
    "my SSN is 123-45-6789",
    "My social security number is 078-05-1120",
    "my bike lock combination is 12-34-56",
    "Verification code from the bank was 482193, it expired",
    "wifi 密码是 sunflower77",
    "AWS access key AKIAIOSFODNN7EXAMPLE",
    # formats detect-secrets knows, and long random strings
    "my aws secret is wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "Slack bot: xoxb-123456789012-1234567890123-abcdefghijABCDEFGHIJklmn",
    "-----BEGIN RSA PRIVATE KEY-----",
    "home server key 3f9a1c7e5b2d8046af13c9e7d5b4a2f1",
    "the camera feed https://cam.example.net/live?auth=Zk3q9XvB2mLp7RtY4wHs8NcJ6dFa",
    # plain words
    "My wifi password is sunflower",
    "My password for Gmail is Tr0ub4dor&3",
    "The garage door code is 1234#",
    "passcode 0000 for the phone",
    "security answer: Fluffy",
    "the answer to my security question is Rex",
    "my card 4111 1111 1111 1111",
    # 中文
    "我的银行卡密码是 482193",
    "支付密码：135790",
    "PIN码 4821",
    "验证码是 839201",
    "银行卡号 6222021234567890128",
    "密码是芝麻开门",
    "wifi密码sunflower77",
    "门禁码是 2580#",
]

NOT_SECRETS = [
    "a combination of tea and coffee is 2 parts to 1",
    "I flew from SIN to HKG",
    "I forgot my SSN",
    "I like hiking",
    "I forgot my password again",
    "My password is weak, I should change it",
    "I reset my email password yesterday",
    "I keep my passwords in 1Password",
    "my password is in the notebook",
    "I pinned the photo to the fridge",
    "The password was accepted after the reset",
    "The pin is broken on my badge",
    "The token was a small brass coin",
    "The token of appreciation was a mug",
    "My phone number is 13812345678",
    "Order number 20240312-8841",
    "My thesis draft: https://docs.google.com/document/d/1aBcD3fGhIjKlMnOpQrStUvWxYz0123456789/edit",
    "I paid 4111 1111 1111 1112 yen in total",  # 16 digits that fail the Luhn check
    "我忘了密码",
    "密码是什么来着",
    "密码是我的生日",
    "我搬到了里斯本",
]


@pytest.mark.parametrize("text", SECRETS)
def test_a_secret_is_recognised(text: str) -> None:
    assert find_secret(text) is not None


@pytest.mark.parametrize("text", NOT_SECRETS)
def test_talk_about_secrets_without_one_is_not_a_secret(text: str) -> None:
    assert find_secret(text) is None


@pytest.mark.parametrize(("text", "secret"), labelled())
def test_a_labelled_text_is_told_apart(text: str, secret: bool) -> None:
    assert (find_secret(text) is not None) is secret


def test_the_labelled_list_covers_both_languages_and_both_answers() -> None:
    with LABELLED.open(encoding="utf-8") as lines:
        rows = [json.loads(line) for line in lines if line.strip()]
    counts = Counter((row["language"], row["secret"]) for row in rows)
    assert counts[("en", True)] + counts[("zh", True)] >= 40
    assert counts[("en", False)] + counts[("zh", False)] >= 60
    assert min(counts.values()) >= 10 and len(counts) == 4


@pytest.mark.parametrize(
    ("english", "chinese"),
    [
        (
            "My Apple ID and WeChat are both tied to my Chinese number +86 138 1234 5678",
            "我的Apple ID和WeChat都绑定的是中国手机号+86 138 1234 5678",
        ),
        ("My German mobile number is +49 151 2345 6789", "我的德国手机号是+49 151 2345 6789"),
        ("My phone number in China is 0086 138 1234 5678", "我在中国的手机号是0086 138 1234 5678"),
    ],
)
def test_ones_own_phone_number_is_no_secret_in_either_language(english: str, chinese: str) -> None:
    """review13 J15: the +86 number (13 digits that pass the Luhn check) was taken for a card
    number, the +49 one (12) not: a phone number, one's own or a friend's, is not a secret."""
    assert find_secret(english) is None
    assert find_secret(chinese) is None


def test_a_card_number_said_beside_a_phone_is_still_a_secret() -> None:
    assert find_secret("I paid by phone with card 4111 1111 1111 1111") is not None
    assert find_secret("手机支付绑定的卡是4111 1111 1111 1111") is not None


def test_the_persons_verdict_wins_over_the_recogniser() -> None:
    assert withheld("bank PIN 4821", {}) is True
    assert withheld("bank PIN 4821", with_verdict("bank PIN 4821", {}, False)) is False
    assert withheld("I like hiking", {"secret": True}) is True
    # as `--meta secret=false` gives it
    assert person_said({"secret": "false"}) is False
    assert person_said({"secret": "maybe"}) is None


LOCKER = "my gym locker code is 1234"
LOCKER_AND_PASSWORD = "my gym locker code is 1234; my email password is hunter2hunter"


def test_not_a_secret_holds_only_for_the_text_it_was_given_for() -> None:
    """A correction, a restatement merged in or sync pairing the verdict with another text:
    the new text is checked again (review9 L1)."""
    cleared = with_verdict(LOCKER, {"source": "cli"}, False)
    assert withheld(LOCKER, cleared) is False
    assert withheld(LOCKER_AND_PASSWORD, cleared) is True
    assert withheld(LOCKER + "!", cleared) is True  # exact: not content_hash's folding
    assert withheld(LOCKER, {**cleared, RESTATEMENTS: ["email password: hunter2hunter"]})
    assert withheld(LOCKER, {"secret": False}) is True  # a verdict tied to no text
    # "a secret" stays with the memory whatever its text becomes
    assert withheld("I like hiking", with_verdict("the key is under the pot", {}, True))


def test_a_secret_merged_in_as_a_restatement_marks_the_memory() -> None:
    assert withheld("My bank card", {RESTATEMENTS: ["bank card PIN 4821"]}) is True


def test_no_memory_or_question_of_the_dev_sets_is_taken_for_a_secret() -> None:
    texts = dev_texts()
    assert len(texts) > 3000
    flagged = [text for text in texts if find_secret(text) is not None]
    assert flagged == []


def test_only_the_sentences_that_look_like_a_secret_are_withheld_from_a_message() -> None:
    """What the chat sends its model (secret10): the rest of the message is kept as it was."""
    told = without_secrets(
        "I'm off to the gym. My locker code word is zqxwvplor. My knee hurts!", "[withheld]"
    )
    assert told.shown == "I'm off to the gym. [withheld] My knee hurts!"
    assert told.secrets == ("My locker code word is zqxwvplor.",)
    zh = without_secrets("我去健身房。储物柜密码是 4821。膝盖疼", "[withheld]")
    assert (
        "4821" not in zh.shown and "膝盖疼" in zh.shown and zh.secrets == ("储物柜密码是 4821。",)
    )
    # within a sentence, only the clause; the whole sentence is what is kept
    gym = "I'm at the gym, my locker code is 1234, and my knee hurts"
    assert without_secrets(gym, "[withheld]") == Withheld(
        "I'm at the gym, [withheld], and my knee hurts", (gym,)
    )
    # a clause that tells the secret only with its neighbour: the whole sentence
    wifi = without_secrets("Remember my wifi password, it is sunflower77", "[withheld]")
    assert wifi.shown == "[withheld]"
    plain = without_secrets("I like hiking. See you at 5.", "[withheld]")
    assert plain.shown == "I like hiking. See you at 5." and plain.secrets == ()


def test_a_secret_split_across_lines_withholds_the_whole_message() -> None:
    told = without_secrets("wifi password:\nsunflower77", "[withheld]")
    assert told.shown == "[withheld]" and told.secrets == ("wifi password:\nsunflower77",)

"""tests/data/hygiene_pairs.jsonl holds what "never merge what means something else" is measured
on (issue 13): near-identical pairs that differ in meaning, and true restatements, en and zh."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).resolve().parents[1] / "data"
SAME_WHY = {"paraphrase", "reorder", "synonym", "detail"}  # detail: adds or drops one
DIFFERENT_WHY = {
    "reversal",
    "negation",
    "other-person",
    "other-number",
    "other-date",
    "antonym",
    "other-place",
    "other-entity",
    "tense",
    "qualifier",  # a word that limits or changes it: former, decaf, only until, 假, 偶尔
}


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


@pytest.fixture(scope="module")
def pairs() -> list[dict[str, Any]]:
    return read_jsonl(DATA / "hygiene_pairs.jsonl")


def words(text: str) -> set[str]:
    """English words and single Chinese characters, for a rough overlap."""
    return set(re.findall(r"[a-z0-9']+|[\u4e00-\u9fff]", text.lower()))


def test_every_pair_has_the_documented_fields(pairs: list[dict[str, Any]]) -> None:
    for number, pair in enumerate(pairs, start=1):
        assert set(pair) == {"old", "new", "lang", "label", "why"}, number
        assert pair["lang"] in {"en", "zh"}, number
        assert pair["old"].strip() and pair["new"].strip() and pair["old"] != pair["new"], number
        allowed = SAME_WHY if pair["label"] == "same" else DIFFERENT_WHY
        assert pair["label"] in {"same", "different"} and pair["why"] in allowed, number


def test_both_labels_are_large_and_bilingual(pairs: list[dict[str, Any]]) -> None:
    counts = Counter((pair["label"], pair["lang"]) for pair in pairs)
    for label in ("same", "different"):
        total = counts[(label, "en")] + counts[(label, "zh")]
        assert total >= 100, label
        assert min(counts[(label, "en")], counts[(label, "zh")]) >= 0.4 * total, label
    kinds = Counter(pair["why"] for pair in pairs if pair["label"] == "different")
    assert set(kinds) == DIFFERENT_WHY and min(kinds.values()) >= 5, kinds
    assert len({(pair["old"], pair["new"]) for pair in pairs}) == len(pairs), "duplicate pair"


def test_different_pairs_look_near_identical(pairs: list[dict[str, Any]]) -> None:
    # A meaning-changing pair is only a hard case if the two sides share most of their words.
    for pair in pairs:
        if pair["label"] == "different":
            old, new = words(pair["old"]), words(pair["new"])
            assert len(old & new) >= 0.5 * min(len(old), len(new)), pair


def test_the_issues_must_hold_cases_are_in(pairs: list[dict[str, Any]]) -> None:
    different = {(pair["old"], pair["new"]) for pair in pairs if pair["label"] == "different"}
    assert ("I prefer green tea over coffee.", "I prefer coffee over green tea.") in different
    assert ("我喜欢绿茶胜过咖啡", "我喜欢咖啡胜过绿茶") in different
    assert ("I eat meat.", "I do not eat meat.") in different
    assert ("我吃肉", "我不吃肉") in different
    assert ("I am allergic to nuts.", "My sister is allergic to nuts.") in different


def test_no_pair_repeats_the_older_lifecycle_set(pairs: list[dict[str, Any]]) -> None:
    older = read_jsonl(DATA / "memory_pairs.jsonl")
    seen = {frozenset((row["a"], row["b"])) for row in older}
    assert not [pair for pair in pairs if frozenset((pair["old"], pair["new"])) in seen]


def test_the_cross_language_pairs_go_both_ways_and_cover_every_kind_of_difference() -> None:
    pairs = read_jsonl(DATA / "hygiene_pairs_cross.jsonl")
    for number, pair in enumerate(pairs, start=1):
        assert set(pair) == {"old", "new", "lang", "label", "why"}, number
        assert pair["lang"] in {"en-zh", "zh-en"}, number
        allowed = SAME_WHY if pair["label"] == "same" else DIFFERENT_WHY
        assert pair["label"] in {"same", "different"} and pair["why"] in allowed, number
    counts = Counter((pair["label"], pair["lang"]) for pair in pairs)
    for label, least in (("same", 30), ("different", 60)):
        assert counts[(label, "en-zh")] + counts[(label, "zh-en")] >= least, label
        assert min(counts[(label, "en-zh")], counts[(label, "zh-en")]) >= 10, label
    kinds = Counter(pair["why"] for pair in pairs if pair["label"] == "different")
    for kind in ("reversal", "negation", "other-person", "other-number", "other-date"):
        assert kinds[kind] >= 4, kind
    for kind in ("antonym", "qualifier", "tense"):
        assert kinds[kind] >= 3, kind
    assert len({(pair["old"], pair["new"]) for pair in pairs}) == len(pairs), "duplicate pair"

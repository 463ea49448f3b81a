"""The round-10 replays of ``bench.legs`` (docs/benchmarks.md, "Recall, round 10"): pure numpy
over a hand-made question, no store."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from bench.fit import NAMES, Question
from bench.legs import Asked, Space, dialogue_order, diverse_order, fused_order
from bench.zh_tokens import bigrams, ranked
from localmind.config import FusionConfig


def _asked(cosines: list[float], vectors: list[list[float]], created: list[float]) -> Asked:
    """Candidates m0, m1, … with these cosines to the question (nothing else known of them)."""
    ids = [f"m{i}" for i in range(len(cosines))]
    cos = np.array(cosines)
    x = np.zeros((len(ids), len(NAMES)))
    x[:, 0], x[:, 1] = cos, cos - cos.max()
    record = np.tile([0.8, 0.5, 0.0, 1.0], (len(ids), 1))
    question = Question("set", "multi", x, np.array([False, False, True]), 2, record)
    unit = np.array(vectors, dtype=np.float32)
    unit /= np.linalg.norm(unit, axis=1, keepdims=True)
    space = Space(np.array(ids), {k: i for i, k in enumerate(ids)}, unit, np.array(created))
    return Asked(question, ids, [{} for _ in ids], unit[0], space, frozenset({"m0", "m2"}))


def test_diversity_lets_a_second_fact_past_a_near_copy_of_the_first() -> None:
    # m1 says what m0 says; m2, a little less relevant, is the question's other half
    asked = _asked([0.60, 0.59, 0.55], [[1, 0], [1, 0.01], [0, 1]], [0.0, 0.0, 0.0])
    config = FusionConfig()
    assert fused_order(asked, config) == ["m0", "m1", "m2"]
    assert diverse_order(asked, config, 1.0, 0.6) == ["m0", "m2", "m1"]
    # only memories made at the same moment count as copies of each other
    apart = _asked([0.60, 0.59, 0.55], [[1, 0], [1, 0.01], [0, 1]], [0.0, 5.0, 0.0])
    assert diverse_order(apart, config, 1.0, 0.6, together=True) == ["m0", "m1", "m2"]


def test_the_chinese_keyword_replay_cuts_bigrams_and_ranks_by_bm25() -> None:
    assert bigrams("我喜欢绿茶 and tea") == ["我喜", "喜欢", "欢绿", "绿茶", "tea"]
    documents = {"tea": bigrams("我喜欢绿茶"), "dog": bigrams("我家的狗很可爱")}
    assert ranked(documents, bigrams("绿茶")) == ["tea"]


def test_the_dialogue_replay_reweighs_the_legs_of_dialogues_only() -> None:
    # m1 is the nearer in meaning, m2 holds the query's words
    asked = _asked([0.55, 0.60, 0.50], [[1, 0], [1, 0.2], [0, 1]], [0.0, 0.0, 0.0])
    asked.question.x[2, 4] = 1.0  # m2's keyword coverage
    config = FusionConfig()
    dialogue = replace(asked, text="hi\nhow are you?\nwhat did I do?")
    assert fused_order(dialogue, config)[0] == "m2"
    assert dialogue_order(dialogue, config, 0.0, 1.0)[0] == "m1"  # without the keyword terms
    assert dialogue_order(replace(asked, text="what did I do?"), config, 0.0, 1.0)[0] == "m2"

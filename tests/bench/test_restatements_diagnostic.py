"""bench.restatements' reading of what a local model would be asked (pure logic, no model)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bench.restatements import _with_a_model, blockers


@dataclass
class Told:
    text: str


ITEMS = [
    Told("I eat meat."),  # 0
    Told("My sister lives in Paris."),  # 1
    Told("I do not eat meat."),  # 2: told last, restates nothing here
]


def test_a_pair_the_guard_calls_different_is_never_put_to_a_model() -> None:
    similarities = np.array([0.9, 0.2])
    assert blockers(ITEMS[0].text, ITEMS[2].text, 0.9, 1)  # negated: the guard stops it
    verdict = _with_a_model(ITEMS, 2, 0, similarities, blocked=True)
    assert verdict == "never asked: the guard calls it different"


def test_a_pair_below_the_asking_cosine_is_never_put_to_a_model() -> None:
    similarities = np.array([0.5, 0.4])
    verdict = _with_a_model(ITEMS, 2, 0, similarities, blocked=True)
    assert verdict == "never asked: its original is below 0.6"


def test_a_rewording_the_guard_is_unsure_of_is_put_to_a_model() -> None:
    items = [Told("I like hiking."), Told("Hiking is something I enjoy.")]
    verdict = _with_a_model(items, 1, 0, np.array([0.7]), blocked=True)
    assert verdict == "a model is asked about its original"
    assert _with_a_model(items, 1, 0, np.array([0.7]), blocked=False) == "merges without a model"

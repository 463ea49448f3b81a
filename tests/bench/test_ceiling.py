"""The replays of ``bench.ceiling`` (docs/benchmarks.md, "Recall, round 14"): pure numpy over
hand-made memories, no store."""

from __future__ import annotations

import numpy as np

from bench.ceiling import (
    FEATURES,
    centred_order,
    csls_order,
    plain_order,
    reordered,
    smoothed_order,
)
from bench.fit import NAMES, Question
from bench.legs import Asked, Space


def _asked(vectors: list[list[float]], query: list[float]) -> Asked:
    ids = [f"m{i}" for i in range(len(vectors))]
    unit = np.array(vectors, dtype=np.float32)
    unit /= np.linalg.norm(unit, axis=1, keepdims=True)
    space = Space(np.array(ids), {k: i for i, k in enumerate(ids)}, unit, np.zeros(len(ids)))
    question = Question("set", "dialogue", np.zeros((0, len(NAMES))), np.zeros(0), 1, None)
    q = np.array(query, dtype=np.float32)
    return Asked(question, [], [], q / np.linalg.norm(q), space, frozenset({"m0"}))


def test_a_hub_near_every_memory_drops_below_a_memory_of_its_own() -> None:
    # m1 sits among m2 and m3 (a hub); m0 is less near the query but alone
    asked = _asked([[1, 0, 0.5], [0.8, 0.6, 0], [0.7, 0.7, 0], [0.6, 0.8, 0]], [1, 0.45, 0.2])
    assert plain_order(asked)[:3] == ["m1", "m2", "m0"]
    assert csls_order(asked, 2, 1.0)[0] == "m0"
    assert csls_order(asked, 2, 0.0) == plain_order(asked)


def test_centring_takes_away_what_every_memory_shares() -> None:
    # every memory shares the first axis; only m0 has the query's own second axis
    asked = _asked([[1, 0.3, 0], [1, 0, 0.1], [1, 0, 0.2]], [1, 1, 0])
    assert centred_order(asked)[0] == "m0"
    # nothing changes when the memories share nothing
    apart = _asked([[1, 0, 0], [0, 1, 0], [0, 0, 1]], [1, 0.5, 0])
    assert centred_order(apart)[0] == plain_order(apart)[0] == "m0"


def test_smoothing_lets_a_memory_inherit_its_neighbours_nearness() -> None:
    # m2 is as near the query as m1 by itself, but m1's neighbour m0 is nearer still
    asked = _asked([[1, 0, 0], [0.8, 0.6, 0], [0.8, 0, 0.6], [0, 0, 1]], [1, 0.3, 0])
    assert plain_order(asked)[:2] == ["m0", "m1"]
    smoothed = smoothed_order(asked, 1, 1.0)
    assert smoothed.index("m1") < smoothed.index("m2")


def test_reordering_moves_matching_memories_up_by_the_places_given() -> None:
    ranked = ["a", "b", "c", "d"]
    assert reordered(ranked, lambda key: key == "d", 3) == ["a", "d", "b", "c"]
    # a tie keeps the order it had: d moved up two places lands after b, which was there
    assert reordered(ranked, lambda key: key == "d", 2) == ["a", "b", "d", "c"]
    assert reordered(ranked, lambda key: key == "d", 0) == ranked


def test_the_features_are_one_value_per_candidate() -> None:
    x = np.zeros((3, len(NAMES)))
    x[:, 0] = [0.5, 0.4, 0.3]
    x[:, 1] = x[:, 0] - 0.5
    x[:, 3] = np.log1p([0.0, 2.0, 4.0])
    x[:, 4] = [0.0, 0.2, 0.4]
    for name, feature in FEATURES.items():
        assert feature(x).shape == (3,), name
    # agreement: the first is best in meaning but holds no word; the last the reverse
    agreement = FEATURES["agreement (min of both legs, scaled)"](x)
    assert np.allclose(agreement, [0.0, 0.5, 0.0])

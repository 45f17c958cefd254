"""research.traverse.net: its weighing of many positions at once agrees with the advisor's own."""

from __future__ import annotations

import random

import numpy as np
import pytest

from advisor.traverse import _hit_chance, worth
from engines._traverse_outcomes import throw_outcomes
from research.traverse.net import ValueNet, as_arrays, hit_chances, linear_worth


def _outcomes(seed: int, turns: int = 300) -> list[tuple[bytes, bytes]]:
    """Every outcome of the throws of a game of random plays."""
    rng, positions, found = random.Random(seed), [bytes(10), bytes(10)], []
    for turn in range(turns):
        mover = turn % 2
        outcomes = throw_outcomes(
            positions[mover], positions[1 - mover], rng.randint(1, 6), rng.randint(1, 6), 11, True
        )
        found += outcomes
        positions[mover], positions[1 - mover] = outcomes[rng.randrange(len(outcomes))]
    return found


def test_hit_chances_of_many_positions_are_the_advisors():
    outcomes = _outcomes(1)
    expected = [[_hit_chance(m, t, pawn, 11) for pawn in range(10)] for m, t in outcomes]
    assert np.array_equal(hit_chances(*as_arrays(outcomes)), np.array(expected))


def test_an_untaught_net_weighs_as_the_advisor_and_its_linear_worth_is_its_value():
    outcomes = _outcomes(2, turns=100)
    net = ValueNet.fresh(0, np.random.default_rng(0))
    expected = np.array([worth(m, t, 11) for m, t in outcomes])
    assert net.logits(*as_arrays(outcomes)) / 0.04 == pytest.approx(expected, abs=1e-3)
    net.u += np.random.default_rng(1).normal(0, 0.05, net.u.shape).astype(np.float32)
    as_squares = (net.logits(*as_arrays(outcomes)) - net.b) / 0.04
    python = linear_worth(net)
    assert as_squares == pytest.approx([python(m, t) for m, t in outcomes], abs=1e-3)

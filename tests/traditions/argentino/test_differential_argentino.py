"""Differential test of truco argentino: the numba engine and the plain-Python reference
(tests/reference/argentino_ref.py) agree on steered random play (the driver:
tests/traditions/argentino/differential_argentino.py), at every decision and after every mano.
CI compares 10⁴ manos per team size; the slow run 10⁶ per team size (the issue's floor)."""

from __future__ import annotations

import pytest

from tests.traditions.argentino import differential_argentino as D
from truque_env.traditions.argentino import actions as A

# every word of the catalogue but uno y uno, which only 1 contra 1 with the option reaches
WORDS = [w for w in A.ACTION_NAMES[: A.PLAY_BASE] if w != "uno y uno"]


def _assert_reached(tally, words):
    missing = [w for w in words if tally[w] == 0]
    assert not missing, f"the differential never said: {', '.join(missing)}"


@pytest.mark.parametrize("team_size", [1, 2, 3])
def test_engine_matches_reference(team_size):
    tally = D.run(team_size, 10_000)
    assert tally["manos"] >= 10_000
    _assert_reached(tally, WORDS + (["uno y uno"] if team_size == 1 else []))


@pytest.mark.slow
@pytest.mark.parametrize("team_size", [1, 2, 3])
def test_engine_matches_reference_on_a_million_manos(team_size):
    tally = D.run(team_size, 1_000_000, first_seed=1_000_000)
    _assert_reached(tally, WORDS)

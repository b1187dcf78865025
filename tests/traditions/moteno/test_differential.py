"""Differential test: the numba engine and the plain-Python reference agree on steered random play.

The driver (tests/differential.py) plays partida after partida on both implementations with the
same seeds, deals and actions, steering play to the rare branches (styles that bet, revoke, sing,
refuse and go a baraja; deals with flores, reservadas and mirrored hands; scores near the target
and al cantar). They must agree at every decision and after every mano. CI compares 10⁴ manos per
team size, the slow run 10⁵; the branches reached are printed at the end of the pytest run.
"""

from __future__ import annotations

import pytest

from tests import differential as D

LINES_18_2 = "abcdefghijklmnopqrstuv"  # Art. 18.2: every line of the table of chinas won
PHASES = ("BLIND", "ANSWER", "CANTE", "PLAY", "FLOR_ROUND", "FLOR_ENVITE", "RESERVADA")


def _assert_reached(tally, keys):
    missing = [" / ".join(k) for k in keys if tally[k] == 0]
    assert not missing, f"the differential never reached: {', '.join(missing)}"


@pytest.mark.parametrize("team_size", [1, 2, 3, 4])
def test_engine_matches_reference(team_size):
    tally = D.run(team_size, 10_000)
    assert tally["start", "manos compared"] >= 10_000
    _assert_reached(tally, [("18.2", line) for line in LINES_18_2])
    _assert_reached(tally, [("phase", p) for p in PHASES if p != "RESERVADA"])
    _assert_reached(tally, [("rule", "16.5 three pardas: por la mano"), ("rule", "14.10 completion round turn"),
                            ("rule", "8.4 the team al cantar wins the cante"), ("rule", "12.8 de la mía"),
                            ("rule", "11.10 both teams sang, no envite"), ("rule", "18.1 a juego won")])
    for kind in ("pares", "pares a ciegas", "truco", "truco a ciegas", "flores", "pares revoke right"):
        _assert_reached(tally, [("exchange", kind, o) for o in ("quiero", "no quiero", "raise")])
    _assert_reached(tally, [("exchange", "falta a ciegas with cards", o)
                            for o in ("quiero", "no quiero", "con flor quiero", "con flor no quiero")])


@pytest.mark.parametrize("team_size", [1, 4])
def test_engine_matches_reference_through_table_act(team_size):
    """The same agreement through ``Table.act`` (its legality check and log), on fewer manos."""
    tally = D.run(team_size, 500, first_seed=50_000, via_table=True)
    assert tally["start", "manos compared"] >= 500


@pytest.mark.slow
@pytest.mark.parametrize("team_size", [1, 2, 3, 4])
def test_engine_matches_reference_long(team_size):
    tally = D.run(team_size, 100_000, first_seed=1_000_000)
    _assert_reached(tally, [("18.2", line) for line in LINES_18_2])
    _assert_reached(tally, [("phase", p) for p in PHASES])
    _assert_reached(tally, [("rule", "12.13 reservada sung against A's flores")])

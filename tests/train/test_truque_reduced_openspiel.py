"""Reduced Truque Moteño games against OpenSpiel (train.cfr.openspiel_game: the same game as an
OpenSpiel Python game): the walk, NashConv, CFR+ iterates and the game value agree.

Skipped as a whole when OpenSpiel (the ``dev`` extra) is not installed; the tests of the trees
themselves are in test_truque_reduced.py and never depend on it."""

from __future__ import annotations

import numpy as np
import pytest

from train.cfr.games import CHANCE, TERMINAL
from train.cfr.solvers import Solver, nash_conv, policy_value, uniform_policy

pyspiel = pytest.importorskip("pyspiel")

from train.cfr.openspiel_game import (  # noqa: E402
    efg_policy,
    export_efg,
    load_efg,
    load_openspiel_game,
    policy_from_openspiel,
    tabular_policy_from,
)


@pytest.fixture(scope="module")
def efg():
    return load_efg("truque_tiny")


def test_openspiel_python_game_api():
    game = load_openspiel_game("truque_tiny")
    assert game.num_players() == 2 and game.max_chance_outcomes() == 20
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)
    with pytest.raises(ValueError, match="unknown reduced game"):
        load_openspiel_game("nope")


def test_openspiel_walk_matches_our_tree(tiny):
    """The OpenSpiel game walked through its own API has our tree's nodes and information states."""
    g = tiny.tree
    _, counts = export_efg("truque_tiny")
    ours = {"chance": int((g.node_player == CHANCE).sum()), "terminal": int((g.node_player == TERMINAL).sum()),
            "decision": int((g.infostate >= 0).sum()), "infostates": g.num_infostates}
    assert counts == ours


def test_nash_conv_agrees_with_openspiel(tiny, efg):
    """Our exact NashConv and OpenSpiel's (C++, on the game exported from the Python game) agree."""
    game, index = efg
    g = tiny.tree
    assert set(index) == set(g.infostate_names)
    s = Solver(g, "cfr_plus")
    s.run(150)
    for pol in (uniform_policy(g), s.average_policy(), s.current_policy()):
        theirs = pyspiel.nash_conv(game, efg_policy(index, g.infostate_names, tiny.info_actions, pol))
        assert abs(theirs - nash_conv(g, pol)) < 1e-9


def test_cfr_plus_iterates_agree_with_openspiel(tiny, efg):
    game, index = efg
    g = tiny.tree
    ours = Solver(g, "cfr_plus")
    ours.run(5)
    theirs = pyspiel.CFRPlusSolver(game)
    for _ in range(5):
        theirs.evaluate_and_update_policy()
    pol = policy_from_openspiel(theirs.tabular_average_policy().policy_table(), g.infostate_names, tiny.info_actions,
                                index)
    assert np.abs(pol - ours.average_policy()).max() < 1e-10


def test_both_solvers_reach_the_same_game_value(tiny, efg):
    """OpenSpiel's CFR+ (C++) and ours, each run on its own side, reach the same value of the game.

    Tolerance: for any profile with NashConv δ, player 0's value v satisfies -BR1 <= v* <= BR0 and
    -BR1 <= v <= BR0, so |v - v*| <= δ; two profiles' values differ by at most δ_ours + δ_theirs.
    """
    game, index = efg
    g = tiny.tree
    ours = Solver(g, "cfr_plus")
    ours.run(600)
    v_ours, nc_ours = policy_value(g, ours.average_policy()), nash_conv(g, ours.average_policy())
    theirs = pyspiel.CFRPlusSolver(game)
    for _ in range(120):
        theirs.evaluate_and_update_policy()
    avg = theirs.average_policy()
    v_theirs = pyspiel.expected_returns(game.new_initial_state(), avg, -1, True)[0]
    nc_theirs = pyspiel.nash_conv(game, avg)
    assert nc_ours < 2e-4 and nc_theirs < 1e-2
    assert abs(v_ours - v_theirs) <= nc_ours + nc_theirs
    # and our evaluation of OpenSpiel's policy matches OpenSpiel's
    pol = policy_from_openspiel(theirs.tabular_average_policy().policy_table(), g.infostate_names, tiny.info_actions,
                                index)
    assert abs(nash_conv(g, pol) - nc_theirs) < 1e-9
    assert abs(policy_value(g, pol) - v_theirs) < 1e-9


@pytest.mark.slow
def test_openspiel_python_nash_conv_on_the_python_game(tiny):
    """OpenSpiel's Python exploitability.nash_conv straight on the Python game (~25 s)."""
    from open_spiel.python.algorithms import exploitability as os_exploitability

    game = load_openspiel_game("truque_tiny")
    g = tiny.tree
    s = Solver(g, "cfr_plus")
    s.run(100)
    for pol in (uniform_policy(g), s.average_policy()):
        tab = tabular_policy_from(game, g.infostate_names, tiny.info_actions, pol)
        assert abs(os_exploitability.nash_conv(game, tab) - nash_conv(g, pol)) < 1e-9


@pytest.mark.slow
def test_openspiel_python_cfr_on_the_python_game(tiny):
    """OpenSpiel's Python CFR+ straight on the Python game: its iterates are ours (~20 s)."""
    from open_spiel.python.algorithms import cfr as os_cfr

    game = load_openspiel_game("truque_tiny")
    g = tiny.tree
    theirs = os_cfr.CFRPlusSolver(game)
    for _ in range(2):
        theirs.evaluate_and_update_policy()
    tab = theirs.average_policy()
    ours = Solver(g, "cfr_plus")
    ours.run(2)
    index = {name: i for i, name in enumerate(g.infostate_names)}
    pol = ours.average_policy()
    for key, row in tab.state_lookup.items():
        i = index[key]
        acts = tiny.info_actions[i][: g.num_actions[i]]
        assert np.allclose(tab.action_probability_array[row, acts], pol[i, : acts.size], atol=1e-12)



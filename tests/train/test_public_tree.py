"""The vector-form CFR+ of ``train.cfr.public_tree``: Kuhn poker's known value (-1/18, Kuhn 1950),
and its result checked by the exact best response of the expanded tree (``train.cfr.solvers``)."""

import numpy as np
import pytest

from train.cfr.games import load_game
from train.cfr.public_tree import (
    PublicTreeGame,
    PublicTreeSolver,
    exploitability,
    kuhn_poker,
    profile_value,
)
from train.cfr.solvers import exploitability as tree_exploitability

KUHN_NODES = {0: "", 1: "p", 2: "b", 4: "pb"}  # the public histories of Kuhn's decision nodes
CARDS = "JQK"


def _as_tree_policy(game_tree, policy):
    out = np.zeros(game_tree.table_shape)
    for node, history in KUHN_NODES.items():
        for t, card in enumerate(CARDS):
            out[game_tree.infostate_index(f"{card}:{history}")] = policy[node, :, t]
    return out


def test_kuhn_value_is_minus_one_eighteenth():
    game = kuhn_poker()
    solver = PublicTreeSolver(game)
    solver.run(2000)
    policy = solver.average_policy()
    assert profile_value(game, policy) == pytest.approx(-1 / 18, abs=2e-3)
    assert exploitability(game, policy) < 2e-3


def test_kuhn_solution_is_unexploitable_on_the_expanded_tree():
    game, tree = kuhn_poker(), load_game("kuhn_poker")
    solver = PublicTreeSolver(game)
    solver.run(2000)
    mine = exploitability(game, solver.average_policy())
    theirs = tree_exploitability(tree, _as_tree_policy(tree, solver.average_policy()))
    assert theirs == pytest.approx(mine, abs=1e-9)
    uniform = np.where(game.child[:, :, None] >= 0, 0.5, 0.0) * np.ones((1, 1, 3))
    assert exploitability(game, uniform) == pytest.approx(tree_exploitability(tree, _as_tree_policy(tree, uniform)))
    assert exploitability(game, uniform) > 0.4  # Kuhn's uniform policy: 0.458


def test_tremble_trains_the_answers_off_the_equilibrium_path():
    """With a tremble every node is reached by every rival type, and the answers stay sound:
    facing a bet, a king calls and a jack folds, whatever the rival bet with."""
    game = kuhn_poker()
    trembling = PublicTreeSolver(game, tremble=0.01)
    trembling.run(1000)
    assert exploitability(game, trembling.average_policy()) < 0.02
    p = trembling.average_policy()
    assert p[2, 1, 2] > 0.99 and p[2, 0, 0] > 0.99


def test_a_bad_game_is_refused():
    g = kuhn_poker()
    with pytest.raises(ValueError, match="probability"):
        PublicTreeGame(g.player, g.child, g.win, g.lose, g.prior * 2, g.beats)
    child = g.child.copy()
    child[1] = -1
    with pytest.raises(ValueError, match="no legal action"):
        PublicTreeGame(g.player, child, g.win, g.lose, g.prior, g.beats)
    with pytest.raises(ValueError, match="tremble"):
        PublicTreeSolver(g, tremble=0.6)

"""The vector-form CFR+ of ``train.cfr.public_tree``: Kuhn poker's known value (-1/18, Kuhn 1950),
and its result checked by the exact best response of the expanded tree (``train.cfr.solvers``)."""

import numpy as np
import pytest

from train.cfr.games import load_game
from train.cfr.public_tree import (
    PublicTreeGame,
    PublicTreeSolver,
    best_response_value,
    exploitability,
    kuhn_poker,
    profile_value,
    restricted_nash_response,
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


def _always(game, who, slot):
    """``who`` always takes ``slot`` where it is legal (else slot 0), whatever his card."""
    strat = np.zeros((game.player.size, game.child.shape[1], game.prior.shape[who]))
    for n in np.flatnonzero(game.player == who):
        strat[n, slot if game.child[n, slot] >= 0 else 0] = 1.0
    return strat


@pytest.mark.parametrize("slot", [0, 1], ids=["passer", "calling_station"])
def test_restricted_nash_response_runs_from_the_equilibrium_to_the_best_response(slot):
    """Johanson, Zinkevich and Bowling (2007) on Kuhn poker: with share 0 of fixed play the
    counter-strategy is Nash's (it loses 1/18 at worst), with share 1 it is the best response to
    the fixed play, and between them the more it expects the fixed play the more it wins from it
    and the more a free rival can take from it."""
    game = kuhn_poker()
    fixed = _always(game, 1, slot)
    nt = game.prior.shape[0]
    against, worst = [], []
    for share in (0.0, 0.25, 0.5, 1.0):
        rnr = restricted_nash_response(game, 1, share, fixed)
        solver = PublicTreeSolver(rnr)
        solver.run(3000)
        policy = solver.average_policy()
        assert exploitability(rnr, policy) < 2e-3  # an equilibrium of the restricted game
        mine = np.where((game.player == 0)[:, None, None], policy[:, :, :nt], 0.0)
        assert np.allclose(policy[game.player == 1][:, :, nt:], fixed[game.player == 1])  # the fixed half kept
        against.append(profile_value(game, np.where((game.player == 1)[:, None, None], fixed, mine)))
        worst.append(-best_response_value(game, mine, 1))
    assert worst[0] == pytest.approx(-1 / 18, abs=2e-3)
    assert against[-1] == pytest.approx(best_response_value(game, fixed, 0), abs=2e-3)
    assert (np.diff(against) > -2e-3).all() and (np.diff(worst) < 2e-3).all()
    assert against[-1] > against[0] + 0.1 and worst[-1] < worst[0] - 0.1


def test_a_bad_restriction_is_refused():
    game = kuhn_poker()
    fixed = _always(game, 1, 1)
    with pytest.raises(ValueError, match="share"):
        restricted_nash_response(game, 1, 1.5, fixed)
    with pytest.raises(ValueError, match="strategy must be"):
        restricted_nash_response(game, 1, 0.5, fixed[:, :, :2])
    rnr = restricted_nash_response(game, 1, 0.5, fixed)
    with pytest.raises(ValueError, match="already fixes"):
        restricted_nash_response(rnr, 0, 0.5, fixed)
    bad = rnr.fixed.copy()
    bad[np.flatnonzero(game.player == 1)[0], :, 4] = [0.7, 0.7]
    with pytest.raises(ValueError, match="distribution"):
        PublicTreeGame(rnr.player, rnr.child, rnr.win, rnr.lose, rnr.prior, rnr.beats, bad)


def test_the_fixed_half_may_be_paid_by_its_own_payoffs():
    """``fixed_win``/``fixed_lose`` (payoff classes): given the game's own payoffs the restricted game
    is the plain one, to the last digit; with the fixed half's payoffs doubled, share 1 is the best
    response to the fixed play in a game paid double (twice the plain best response's value), and
    share 0 is Nash's whatever the fixed half's payoffs."""
    game = kuhn_poker()
    fixed = _always(game, 1, 1)
    nt = game.prior.shape[0]
    same = restricted_nash_response(game, 1, 0.5, fixed, game.win, game.lose)
    plain = restricted_nash_response(game, 1, 0.5, fixed)
    a, b = PublicTreeSolver(same), PublicTreeSolver(plain)
    a.run(200)
    b.run(200)
    np.testing.assert_array_equal(a.average_policy(), b.average_policy())

    def solved(share):
        rnr = restricted_nash_response(game, 1, share, fixed, 2 * game.win, 2 * game.lose)
        solver = PublicTreeSolver(rnr)
        solver.run(3000)
        policy = solver.average_policy()
        assert exploitability(rnr, policy) < 4e-3
        return rnr, policy, np.where((game.player == 0)[:, None, None], policy[:, :, :nt], 0.0)

    rnr, policy, mine = solved(1.0)
    assert profile_value(rnr, policy) == pytest.approx(2 * best_response_value(game, fixed, 0), abs=4e-3)
    _, _, nash = solved(0.0)
    assert -best_response_value(game, nash, 1) == pytest.approx(-1 / 18, abs=2e-3)


def test_payoff_classes_are_checked():
    game = kuhn_poker()
    fixed = _always(game, 1, 1)
    with pytest.raises(ValueError, match="both fixed_win and fixed_lose"):
        restricted_nash_response(game, 1, 0.5, fixed, game.win)
    with pytest.raises(ValueError, match="like the game's"):
        restricted_nash_response(game, 1, 0.5, fixed, game.win[:-1], game.lose[:-1])
    two = np.stack([game.win, game.win], axis=1)
    with pytest.raises(ValueError, match="payoff_class must say"):
        PublicTreeGame(game.player, game.child, two, two, game.prior, game.beats)
    with pytest.raises(ValueError, match="columns of win and lose"):
        PublicTreeGame(game.player, game.child, two, two, game.prior, game.beats,
                       payoff_class=np.full(game.prior.shape, 2))
    rnr = restricted_nash_response(game, 1, 0.5, fixed, game.win, game.lose)
    with pytest.raises(ValueError, match="payoff classes"):
        restricted_nash_response(PublicTreeGame(rnr.player, rnr.child, rnr.win, rnr.lose, rnr.prior, rnr.beats,
                                                payoff_class=rnr.payoff_class), 0, 0.5, np.zeros((9, 2, 6)))

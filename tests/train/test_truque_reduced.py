"""Reduced Truque Moteño games (train.cfr.reduced): the trees and exact best response.

The agreement with OpenSpiel is in test_truque_reduced_openspiel.py, so that these tests run
whether or not OpenSpiel is installed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from train.cfr.games import CHANCE, GAMES, TERMINAL, load_game
from train.cfr.reduced import (
    REDUCED_GAMES,
    ReducedTruque,
    action_frequencies,
    allowed_actions,
    build,
    load_build,
    state_infostate_name,
    utility,
)
from train.cfr.solvers import (
    CFRConfig,
    Solver,
    best_response,
    exploitability,
    nash_conv,
    policy_value,
    train,
    uniform_policy,
)
from truque_env.traditions.moteno import kernels as K
from truque_env.traditions.moteno import layout as L

CONFIGS = Path(__file__).parents[2] / "configs"
SIX = ("1E", "7O", "3C", "2B", "12C", "5O")


@pytest.fixture(scope="module")
def pares6():
    return load_build("truque_pares6")


# ------------------------------------------------------------------------------------------
# configurations


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(deck=SIX[:5] + ("13C",)), "does not parse"),
        (dict(deck=SIX[:5] + ("1E",)), "twice"),
        (dict(deck=SIX[:5]), "at least 6"),
        (dict(deck=SIX, truco=0), "allowed bets are empty"),
        (dict(deck=SIX, truco=4), "truco is the highest level"),
        (dict(deck=SIX, pares=(16,)), "envío N pares"),
        (dict(deck=SIX, pares=(1, 1)), "repeated stakes"),
        (dict(deck=SIX, truco=1, flores=(1,)), "need flor"),
        (dict(deck=SIX, truco=1, target=1), "al cantar"),
        (dict(deck=SIX, truco=1, max_nodes=1000), "more than max_nodes"),
        (dict(deck=tuple(f"{r}{s}" for s in "OCEB" for r in (1, 2, 3, 4, 5, 6)), truco=1, max_nodes=10_000), "deals alone"),
    ],
)
def test_bad_configs_are_clear_errors(kwargs, match):
    with pytest.raises(ValueError, match=match):
        build(ReducedTruque(name="bad", **kwargs))


def test_unknown_names_are_errors():
    with pytest.raises(ValueError, match="unknown reduced game"):
        load_build("truque_99")
    with pytest.raises(ValueError, match="unknown game"):
        load_game("truque_99")
    assert set(REDUCED_GAMES) <= set(GAMES)


def test_named_decks_hold_no_flor():
    """The named games avoid the flor question (Art. 10.6) by deck: no hand of theirs is a flor."""
    from itertools import combinations

    from truque_env.cards import parse
    from truque_env.traditions.moteno.rules import flor_value

    for cfg in REDUCED_GAMES.values():
        assert all(flor_value(list(h)) == 0 for h in combinations(parse(list(cfg.deck)), 3)), cfg.name


# ------------------------------------------------------------------------------------------
# the trees


def test_sizes_of_the_small_games(tiny, pares6):
    # Regression pins recorded from our own builder (docs/cfr.md), not evidence: no published
    # count exists for these games. The evidence that the trees are right is the walk and the
    # NashConv agreeing with OpenSpiel on the same game (test_truque_reduced_openspiel.py).
    # 6 cards -> 20 deals (6 choose 3 for one hand, the other gets the rest)
    assert (tiny.tree.num_nodes, tiny.tree.num_infostates) == (14_521, 8_860)
    assert (pares6.tree.num_nodes, pares6.tree.num_infostates) == (10_341, 6_740)
    assert len(tiny.deals) == 20 == tiny.tree.num_children[0]


def test_tree_shape(tiny):
    g = tiny.tree
    assert g.node_player[0] == CHANCE and np.isclose(g.chance_prob[1:21].sum(), 1.0)
    # breadth first: parents before children, levels contiguous, children contiguous in order
    assert (g.parent[1:] < np.arange(1, g.num_nodes)).all()
    assert (np.diff(g.depth) >= 0).all()
    dec = np.flatnonzero(g.num_children > 0)
    for n in dec[:2000]:
        kids = np.arange(g.first_child[n], g.first_child[n] + g.num_children[n])
        assert (g.parent[kids] == n).all()
    # every information state at one depth (train.cfr.solvers's best response relies on it), one player
    info = g.infostate[g.infostate >= 0]
    depth = g.depth[g.infostate >= 0]
    lo = np.full(g.num_infostates, 10**9)
    hi = np.full(g.num_infostates, -1)
    np.minimum.at(lo, info, depth)
    np.maximum.at(hi, info, depth)
    assert (lo == hi).all()
    for i in range(0, g.num_infostates, 97):
        assert g.infostate_names[i].startswith(f"p{g.infostate_player[i]} ")
    # terminals: utilities are whole chinas, and truco only (truque_tiny) pays 1 or 3 or, refused, 1
    t = g.node_player == TERMINAL
    assert set(np.unique(np.abs(g.utility[t]))) <= {1.0, 3.0}


@pytest.mark.parametrize("name", ["truque_tiny", "truque_pares6"])
def test_tree_agrees_with_engine_playouts(name):
    """Random paths down our tree agree with stepping the engine row by hand: allowed actions,
    information state names and the chinas at the end."""
    b = load_build(name)
    g, cfg = b.tree, b.config
    allowed = cfg.allowed_mask()
    rng = np.random.default_rng(7)
    for _ in range(60):
        d = int(rng.integers(len(b.deals)))
        n = int(g.first_child[0]) + d
        s = cfg.initial_state(b.deals[d])
        history = []
        while g.node_player[n] != TERMINAL:
            acts = allowed_actions(s, allowed)
            i = g.infostate[n]
            assert list(b.info_actions[i][: g.num_actions[i]]) == acts
            assert g.infostate_names[i] == state_infostate_name(s, history)
            k = int(rng.integers(len(acts)))
            history.append((int(s[L.TO_ACT]), acts[k]))
            assert K.step(s, acts[k]) == K.OK
            n = int(g.first_child[n]) + k
        assert s[L.PHASE] == L.PH_DONE and g.utility[n] == utility(s)


def test_exact_best_response_and_cfr_plus(tiny, pares6):
    for b, value in ((tiny, -0.1), (pares6, -0.1)):
        g = b.tree
        s = Solver(g, "cfr_plus")
        s.run(400)
        pol = s.average_policy()
        nc = nash_conv(g, pol)
        assert 0.0 <= nc < 1e-3
        # |value - game value| <= NashConv (the value lies between -BR1 and BR0)
        assert abs(policy_value(g, pol) - value) < 1e-3
        br0, _ = best_response(g, pol, 0)
        assert br0 >= policy_value(g, pol) - 1e-12
    assert exploitability(tiny.tree, uniform_policy(tiny.tree)) == pytest.approx(2.26875 / 2)


def test_optional_rules_blind_round_and_flor():
    """blind: the apuestas a ciegas are decisions made without seeing the hand; flor: a deck with
    flores, singing allowed (Art. 10) and the envite de flores (Art. 11)."""
    blind = build(ReducedTruque("blind6", SIX, truco=1, blind=True)).tree
    assert "p0 hand=? | " in blind.infostate_names  # the mano's blind turn: his cards unseen
    assert any(n.startswith("p1 hand=? | 0:truco") for n in blind.infostate_names)  # answered a ciegas
    assert "p0 hand=5O 7O 3C | 0:paso, 1:paso" in blind.infostate_names  # then the cards are seen
    flor = build(ReducedTruque("flor6", ("1E", "2E", "3E", "4C", "5C", "6C"), pares=(1,), flor=True, flores=(1,)))
    g = flor.tree
    assert any(n.endswith("0:flor, 1:flor") for n in g.infostate_names)  # the envite de flores follows
    assert any(a == "envío 1 flor" for names in g.action_names for a in names)
    for tree in (blind, g):
        s = Solver(tree, "cfr_plus")
        s.run(150)
        assert exploitability(tree, s.average_policy()) < 5e-3


def test_cfr_config_and_toml(tmp_path):
    run = train(CFRConfig(game="truque_tiny", solver="cfr_plus", iterations=60, eval_every=30, checkpoint_every=60,
                          run_dir=tmp_path, verbose=False))
    assert run.log[-1]["iteration"] == 60 and run.exploitability < 0.02
    assert (tmp_path / "checkpoint.npz").exists()
    for path in sorted(CONFIGS.glob("cfr_truque_*.toml")):
        cfg = CFRConfig.from_toml(path)
        assert cfg.game in REDUCED_GAMES


def test_action_frequencies(pares6):
    g = pares6.tree
    # uniform play: the mano's first decision offers three cards and "envío 1 par": 1/4 in every bin
    freq = action_frequencies(pares6, uniform_policy(g))
    rows = freq["players"]["0"]["pares_envite"]["by_bin"]
    assert all(r["probability"] == pytest.approx(0.25) for r in rows if r["probability"] is not None)
    assert sum(r["deal_probability"] for r in rows) == pytest.approx(1.0)
    # player 1 may open only if player 0 did not (3/4), then 1/4 again
    rows1 = freq["players"]["1"]["pares_envite"]["by_bin"]
    assert all(r["probability"] == pytest.approx(3 / 16) for r in rows1 if r["probability"] is not None)
    assert all(r["probability_when_offered"] == pytest.approx(0.25) for r in rows1 if r["probability"] is not None)
    s = Solver(g, "cfr_plus")
    s.run(200)
    freq = action_frequencies(pares6, s.average_policy())
    for p in "01":
        for r in freq["players"][p]["pares_envite"]["by_bin"]:
            assert r["probability"] is None or 0.0 <= r["probability"] <= 1.0 + 1e-12
    assert freq["players"]["0"]["truco"] is None  # no truco in this game


@pytest.mark.slow
def test_truque_7_builds_and_converges():
    b = load_build("truque_7")
    assert (b.tree.num_nodes, b.tree.num_infostates) == (508_201, 189_525)  # a regression pin (our builder)
    s = Solver(b.tree, "cfr_plus")
    s.run(100)
    assert exploitability(b.tree, s.average_policy()) < 0.02

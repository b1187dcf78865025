"""PPO on a solved game tree (train/ppo/tree.py): sampling, learning, the league's exploiters, errors."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from train.cfr.games import load_game
from train.cfr.solvers import best_response, exploitability, uniform_policy
from train.ppo.tree import TreePPOConfig, _deterministic, _play, train


def _sample_games(game, learner, opponents, opponent_of, learner_seat, seed=3):
    E = opponent_of.size
    depth = game.level_start.size
    rec = (np.zeros(E * depth, dtype=np.int64), np.zeros(E * depth, dtype=np.int64), np.zeros(E * depth),
           np.zeros(E * depth), np.zeros(E * depth, dtype=np.int64))
    payoff = np.zeros(E)
    state = np.array([seed], dtype=np.uint64)
    m = _play(game.node_player, game.first_child, game.num_children, game.chance_prob, game.utility, game.infostate,
              learner, opponents, opponent_of, learner_seat, state, *rec, payoff)
    return [r[:m] for r in rec], payoff


def test_sampled_kuhn_games_pay_the_profiles_value():
    """Uniform play against uniform play: the mean payoff of sampled games is the profile's exact value."""
    from train.cfr.solvers import policy_value

    game = load_game("kuhn_poker")
    uni = uniform_policy(game)
    E = 200_000
    (info, action, prob, sign, episode), payoff = _sample_games(
        game, uni, uni[None], np.full(E, -1, dtype=np.int64), np.zeros(E, dtype=np.int64))
    exact = policy_value(game, uni)
    assert abs(payoff.mean() - exact) < 4 * payoff.std() / np.sqrt(E)
    assert np.allclose(prob, 0.5)  # every Kuhn decision has two actions
    assert set(np.unique(sign)) == {-1.0, 1.0}  # self-play: both seats are recorded
    assert (np.diff(episode) >= 0).all() and episode[-1] == E - 1


def test_only_the_learners_seat_is_recorded_and_the_exploiter_wins():
    """Against seat 1's exact best response the learner (uniform, on seat 0) loses what that best
    response is worth, and only its own decisions are recorded."""
    game = load_game("kuhn_poker")
    uni = uniform_policy(game)
    value, actions = best_response(game, uni, 1)
    br = _deterministic(game, actions)
    E = 200_000
    (info, *_rest, sign, _ep), payoff = _sample_games(game, uni, br[None], np.zeros(E, dtype=np.int64),
                                                      np.zeros(E, dtype=np.int64))
    assert (game.infostate_player[info] == 0).all() and (sign == 1.0).all()
    assert abs(-payoff.mean() - value) < 4 * payoff.std() / np.sqrt(E)


@pytest.mark.parametrize("mode, exploiters", [("self_play", False), ("league", True)])
def test_the_learner_leaves_uniform_play_far_behind_on_kuhn(mode, exploiters):
    game = load_game("kuhn_poker")
    run = train(TreePPOConfig(game="kuhn_poker", mode=mode, exploiters=exploiters, updates=150, episodes=1024,
                              eval_every=50, learning_rate=0.01, exploiter_every=10, snapshot_every=5))
    start = exploitability(game, uniform_policy(game))
    assert run.log[0]["exploitability"] == pytest.approx(start)  # 0.458: the logits start at zero
    assert run.exploitability < 0.5 * start
    assert run.exploitability == pytest.approx(exploitability(game, run.policy))
    assert [r["update"] for r in run.log] == [0, 50, 100, 150]


def test_the_same_seed_gives_the_same_policy():
    cfg = dict(game="kuhn_poker", mode="league", exploiters=True, updates=12, episodes=256, eval_every=6,
               exploiter_every=4, snapshot_every=2)
    a, b = train(TreePPOConfig(**cfg)), train(TreePPOConfig(**cfg))
    assert np.array_equal(a.policy, b.policy)
    c = train(TreePPOConfig(**cfg, seed=1))
    assert not np.array_equal(a.policy, c.policy)


def test_a_strong_uniform_magnet_holds_the_learner_near_uniform_play():
    """Magnetic mirror descent's KL(policy || magnet): with a fixed uniform magnet and a large weight the
    learner stays close to uniform, where without it the same updates leave it far behind."""
    game = load_game("kuhn_poker")
    cfg = dict(game="kuhn_poker", mode="self_play", updates=60, episodes=1024, eval_every=60, learning_rate=0.01)
    free = train(TreePPOConfig(**cfg))
    held = train(TreePPOConfig(**cfg, magnet_coef=20.0))
    uniform = uniform_policy(game)

    def kl_to_uniform(policy):
        p = np.where(policy > 0, policy, 1.0)
        return float((policy * np.log(p / np.where(uniform > 0, uniform, 1.0))).sum(-1).max())

    assert kl_to_uniform(held.policy) < 0.02 < kl_to_uniform(free.policy)


def test_a_moving_magnet_ends_less_exploitable_than_self_play_on_kuhn():
    """The magnet moving toward the learner (magnet_mix) damps self-play's cycling: the last iterate's
    exact exploitability on Kuhn at the end of the same updates (study: 0.079 without, 0.015 with it)."""
    cfg = dict(game="kuhn_poker", mode="self_play", updates=400, episodes=2048, eval_every=100)
    plain = train(TreePPOConfig(**cfg))
    magnet = train(TreePPOConfig(**cfg, magnet_coef=0.3, magnet_mix=0.01))
    assert magnet.exploitability < 0.06 < plain.exploitability


def test_the_same_seed_gives_the_same_policy_on_a_truque_game_whatever_torch_threads_are_set():
    """On truque_tiny, with two torch threads, the backward pass's sums came out in another order from
    run to run; train runs on one thread and gives the caller's setting back."""
    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        cfg = dict(game="truque_tiny", mode="self_play", updates=20, eval_every=20, episodes=2048)
        a, b = train(TreePPOConfig(**cfg)), train(TreePPOConfig(**cfg))
        assert np.array_equal(a.policy, b.policy) and torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(before)


@pytest.mark.parametrize("bad, match", [
    (dict(game="chess"), "unknown game"),
    (dict(mode="self_play", exploiters=True), "exploiters join a league"),
    (dict(updates=0), "updates must be positive"),
    (dict(p_latest=1.5), "p_latest"),
    (dict(learning_rate=0.0), "learning_rate"),
    (dict(magnet_coef=-0.1), "magnet_coef"),
    (dict(magnet_mix=0.1), "set magnet_coef > 0"),
    (dict(magnet_coef=0.1, magnet_mix=1.5), "magnet_mix"),
])
def test_bad_settings_are_refused(bad, match):
    with pytest.raises(ValueError, match=match):
        TreePPOConfig(**bad).validate()

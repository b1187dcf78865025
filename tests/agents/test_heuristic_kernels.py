"""The heuristic's kernels (agents/heuristic/kernels.py and the modules it builds on) against their readable twin (reference.py).

Two independent forms of one bot: ``HeuristicPolicy`` decides a batch in numba, ``ReferenceHeuristic``
row by row in Python. In live duplicate matches (1, 2 and 3 contra 3, default and bold configs,
against random and against itself) every batch is decided by both, with the decision keys the
match hands out and without them: the actions must be equal, and without keys both must leave
their generators in the same state (the same number of draws taken). The recorded golden trace
(test_heuristic_golden.py) pins the same decisions across versions; this test covers states the
trace never saw.
"""

from __future__ import annotations

import numpy as np
import pytest

from agents.base import RandomPolicy
from agents.heuristic import HeuristicConfig, HeuristicPolicy, ReferenceHeuristic
from agents.heuristic import kernels as K
from agents.heuristic import policy as P
from agents.heuristic.odds import _pairwise_sum
from train.eval.duplicate import play_match
from truque_env.traditions.moteno import actions as A
from truque_env.traditions.moteno import observation as O

BOLD = {"samples": 40, "sena_rate": 0.7, "bluff_envite": 0.3, "bluff_truco": 0.3, "blind_envite": 0.3,
        "blind_truco": 0.2, "lookahead_margin": 0.0, "hold_threshold": 0.4}


class Twins:
    """A policy that decides with both forms and checks they agree, batch by batch."""

    name = "twins"

    def __init__(self, config: dict, seed: int):
        cfg = HeuristicConfig.from_dict(config)
        self.fast = HeuristicPolicy(cfg, seed=seed)
        self.slow = ReferenceHeuristic(cfg, seed=seed)
        self.decisions = 0
        self.keyed = 0

    def act_batch(self, observations, action_masks, keys=None):
        fast = self.fast.act_batch(observations, action_masks)
        slow = self.slow.act_batch(observations, action_masks)
        bad = np.flatnonzero(fast != slow)
        assert not bad.size, f"kernel {fast[bad[0]]} != twin {slow[bad[0]]} at row {bad[0]} (no keys)"
        assert self.fast.rng.bit_generator.state == self.slow.rng.bit_generator.state, "draws taken differ"
        if keys is not None:
            fast_k = self.fast.act_batch(observations, action_masks, keys=keys)
            slow_k = self.slow.act_batch(observations, action_masks, keys=keys)
            bad = np.flatnonzero(fast_k != slow_k)
            assert not bad.size, f"kernel {fast_k[bad[0]]} != twin {slow_k[bad[0]]} at row {bad[0]} (keyed)"
            self.keyed += len(keys)
            fast = fast_k
        assert (np.asarray(action_masks)[np.arange(len(fast)), fast] > 0).all()
        self.decisions += len(fast)
        return fast


@pytest.mark.parametrize("team_size", [1, 2, 3])
@pytest.mark.parametrize("config", [{}, BOLD], ids=["default", "bold"])
def test_kernels_agree_with_the_twin_in_live_matches(team_size, config):
    a = Twins(config, seed=100 + team_size)
    b = RandomPolicy(seed=7) if not config else Twins({"samples": 30}, seed=200 + team_size)
    play_match(a, b, team_size=team_size, episodes=8, num_envs=8, seed=team_size, senas_per_mano=1,
               p_intercept=0.2, bootstrap=10)
    assert a.decisions > 300 and a.keyed == a.decisions


def test_pairwise_sum_is_numpys():
    """The kernels' sum of a probability vector is numpy's (pairwise), bit for bit."""
    rng = np.random.default_rng(3)
    for n in (1, 5, 7, 8, 9, 15, 16, 17, 62, 91, 128):
        for _ in range(50):
            a = rng.random(n) ** rng.integers(1, 40)
            assert _pairwise_sum(a, n) == a.sum()


def _one_row():
    obs = np.zeros((1, O.OBS_SIZE), dtype=np.int8)
    mask = np.zeros((1, A.NUM_ACTIONS), dtype=np.uint8)
    mask[0, A.PASO] = 1
    return obs, mask


def test_bad_input_is_refused():
    bot = HeuristicPolicy(seed=0)
    obs, mask = _one_row()
    with pytest.raises(ValueError, match="no legal action"):
        bot.act_batch(obs, np.zeros_like(mask))
    with pytest.raises(ValueError, match="small integers"):
        bot.act_batch(obs.astype(np.float32) + 0.5, mask)
    with pytest.raises(ValueError, match="decision keys"):
        bot.act_batch(obs, mask, keys=np.arange(3, dtype=np.uint64))
    with pytest.raises(ValueError, match="expected"):
        bot.act_batch(obs[0], mask[0])


def test_internal_error_raises_by_default_and_is_counted_when_tolerated(monkeypatch):
    """A row the kernel cannot decide is an error, not a silent safe move; ``debug = False``
    tolerates it, plays the safe action and counts it."""
    def broken(obs, masks, prm, salt, raw, out):
        out[:] = K.INTERNAL_ERROR
        return 0

    monkeypatch.setattr(P.K, "decide_batch_sequential", broken)
    bot = HeuristicPolicy(seed=0)
    obs, mask = _one_row()
    with pytest.raises(RuntimeError, match="internal error"):
        bot.act_batch(obs, mask)
    bot.debug = False
    assert bot.act_batch(obs, mask)[0] == A.PASO and bot.internal_errors == 1


def test_kernels_agree_with_the_twin_for_the_parero():
    """heuristic_parero's falso (bluff_envite_pares = 3, la falta when it is less) in both forms."""
    a = Twins({"samples": 30, "bluff_envite": 1.0, "bluff_envite_pares": 3}, seed=5)
    play_match(a, RandomPolicy(seed=8), team_size=1, episodes=24, num_envs=12, seed=4, bootstrap=10, target=12)
    assert a.decisions > 300

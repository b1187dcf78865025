"""The policy interface: actions, batched actions, probabilities; never an illegal action."""

from __future__ import annotations

import numpy as np
import pytest

from agents.base import RandomPolicy, act_batch, action_probs
from truque_env.vector import VectorEnv


class FirstLegal:
    def act(self, observation, action_mask):
        return int(np.flatnonzero(action_mask)[0])


def test_random_policy_is_legal_uniform_and_seeded():
    env = VectorEnv(64, team_size=2, seed=0)
    obs, mask, *_ = env.reset()
    for _ in range(50):
        a, b = RandomPolicy(5).act_batch(obs, mask), RandomPolicy(5).act_batch(obs, mask)
        assert np.array_equal(a, b) and (mask[np.arange(64), a] == 1).all()
        p = action_probs(RandomPolicy(0), obs, mask)
        assert np.allclose(p.sum(axis=1), 1) and (p[mask == 0] == 0).all()
        obs, mask, *_ = env.step(a)


def test_fallbacks_for_a_policy_with_only_act():
    env = VectorEnv(8, team_size=1, seed=0)
    obs, mask, *_ = env.reset()
    acts = act_batch(FirstLegal(), obs, mask)
    assert (mask[np.arange(8), acts] == 1).all()
    p = action_probs(FirstLegal(), obs, mask)
    assert (p.argmax(axis=1) == acts).all() and np.allclose(p.sum(axis=1), 1)


def test_empty_mask_is_an_error():
    with pytest.raises(ValueError, match="no legal action"):
        RandomPolicy(0).act(np.zeros(3), np.zeros(3))

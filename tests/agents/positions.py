"""Positions of random play for the bots' decision tests: every row a table's turn."""

from __future__ import annotations

import numpy as np

from agents.registry import load_policy
from truque_env import VectorEnv


def random_play_positions(tradition: str, env_seed: int, walk_seed: int, steps: int = 60,
                          num_envs: int = 64) -> tuple[np.ndarray, np.ndarray]:
    """The observations and masks of ``steps`` decisions of random play at ``num_envs`` 1v1 tables."""
    env = VectorEnv(num_envs, tradition=tradition, team_size=1, seed=env_seed)
    obs, mask, *_ = env.reset()
    rows_obs, rows_mask = [], []
    walk = load_policy("random", seed=walk_seed, tradition=tradition)
    for _ in range(steps):
        rows_obs.append(obs.copy())
        rows_mask.append(mask.copy())
        obs, mask, *_ = env.step(walk.act_batch(obs, mask))
    return np.concatenate(rows_obs), np.concatenate(rows_mask)

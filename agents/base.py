"""The policy interface: given observations and legal-action masks, return legal actions.

A policy is any object with ``act(observation, action_mask) -> int``; batched callers use
``act_batch(observations, action_masks) -> ndarray`` (the default loops over ``act``). Both
must return legal actions only (an entry of the mask that is 1).
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Policy(Protocol):
    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int: ...


def act_batch(policy, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
    """Batched actions from any policy (its own ``act_batch`` when it has one)."""
    if hasattr(policy, "act_batch"):
        return np.asarray(policy.act_batch(observations, action_masks), dtype=np.int64)
    return np.array([policy.act(o, m) for o, m in zip(observations, action_masks, strict=True)], dtype=np.int64)


class RandomPolicy:
    """Uniform over the legal actions, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int | None = 0):
        self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("no legal action in the mask")
        return int(legal[self.rng.integers(legal.size)])

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        keys = self.rng.random(action_masks.shape) * (action_masks > 0)
        if not (action_masks > 0).any(axis=1).all():
            raise ValueError("a row of the masks has no legal action")
        return keys.argmax(axis=1).astype(np.int64)

"""The policy: ``HeuristicPolicy``, every decision of a batch made by the numba kernels of ``kernels.py``
(built on ``reading.py``, ``odds.py`` and ``answers.py``).

Part of the Moteño heuristic (``agents.heuristic``; the bot is described there). It decides
exactly as ``reference.ReferenceHeuristic``, the readable twin, row for row and draw for draw.
"""

from __future__ import annotations

from dataclasses import fields

import numpy as np

from agents.heuristic import kernels as K
from agents.heuristic.config import HeuristicConfig, seeded
from agents.heuristic.reading import NUM_PARAMS


def config_array(cfg: HeuristicConfig) -> np.ndarray:
    """The config as the kernels read it (``reading.P_*``: the dataclass's fields in order)."""
    values = [float(getattr(cfg, f.name)) for f in fields(cfg)]
    assert len(values) == NUM_PARAMS
    return np.array(values, dtype=np.float64)


class HeuristicPolicy:
    """A rule-based player of Truque Moteño; ``act`` and ``act_batch`` (with or without the
    decision keys of ``truque_env.policy``)."""

    name = "heuristic"
    # An internal error raises (the default: a bug must not pass as a move); debug = False falls
    # back to a safe action instead and counts it in ``internal_errors``.
    debug = True

    def __init__(self, config: HeuristicConfig | dict | None = None, seed: int | None = 0):
        self.cfg, self.rng, self._salt = seeded(config, seed)  # as the twin starts
        self._params = config_array(self.cfg)
        self.internal_errors = 0

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return int(self.act_batch(np.asarray(observation)[None, :], np.asarray(action_mask)[None, :])[0])

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray, keys=None) -> np.ndarray:
        """One decision per row; with ``keys`` the row's draw comes from its key (rows decided in
        parallel), without them from the bot's generator, in row order."""
        obs = np.asarray(observations)
        masks = np.asarray(action_masks)
        if obs.ndim != 2 or masks.ndim != 2 or obs.shape[0] != masks.shape[0]:
            raise ValueError(f"expected (n, obs) and (n, actions) arrays, got {obs.shape} and {masks.shape}")
        obs8 = np.ascontiguousarray(obs, dtype=np.int8)
        if obs.dtype != np.int8 and not np.array_equal(obs8, obs):
            raise ValueError("observations must hold small integers (the int8 observation tensor)")
        masks8 = np.ascontiguousarray(masks > 0, dtype=np.uint8)
        if not masks8.any(axis=1).all():
            raise ValueError("no legal action in the mask")
        n = obs8.shape[0]
        out = np.empty(n, dtype=np.int64)
        if keys is None:
            bits = self.rng.bit_generator
            state = bits.state
            raw = bits.random_raw(n)
            used = K.decide_batch_sequential(obs8, masks8, self._params, self._salt, raw, out)
            bits.state = state
            bits.advance(used)  # the draws the rows took, no more
        else:
            keys = np.ascontiguousarray(keys, dtype=np.uint64)
            if keys.shape != (n,):
                raise ValueError(f"expected {n} decision keys, got shape {keys.shape}")
            K.decide_batch_keyed(obs8, masks8, self._params, self._salt, keys, out)
        bad = np.flatnonzero(out == K.INTERNAL_ERROR)
        if bad.size:
            if self.debug:
                raise RuntimeError(f"heuristic: internal error deciding row {int(bad[0])} (no candidate card "
                                   "simulated, or no team size in the observation)")
            self.internal_errors += int(bad.size)
            for i in bad:
                out[i] = K._fallback(masks8[i])
        return out


def make_policy(seed: int = 0, config: HeuristicConfig | dict | None = None) -> HeuristicPolicy:
    """The registry hook (``agents.registry``)."""
    return HeuristicPolicy(config, seed=seed)

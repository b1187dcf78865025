"""The argentino heuristic as a policy: ``act``, ``act_batch`` (with the decision keys of
``truque_env.policy``) over the numba kernel of ``kernels.py``."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

import numpy as np

from agents.heuristic_argentino import kernels as HK
from truque_env.policy import key_uniforms


@dataclass(frozen=True)
class ArgentinoHeuristicConfig:
    envido_open: float = 0.55
    envido_real: float = 0.86
    envido_falta: float = 0.95
    envido_respect: float = 0.0
    truco_respect: float = 0.0
    truco_call: float = 0.50
    truco_raise: float = 0.70
    bluff_envido: float = 0.05
    bluff_truco: float = 0.06
    sena_rate: float = 0.9
    skill_edge: float = 4.0
    equity_exponent: float = 1.5
    todo_dicho_falta: float = 6
    bluff_falta: float = 0.0

    @classmethod
    def from_dict(cls, d: dict | None) -> ArgentinoHeuristicConfig:
        d = dict(d or {})
        names = {f.name for f in fields(cls)}
        unknown = sorted(set(d) - names)
        if unknown:
            raise ValueError(f"unknown heuristic setting {unknown[0]!r}; known: {', '.join(sorted(names))}")
        for k, v in d.items():
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise ValueError(f"heuristic setting {k} must be a number, got {v!r}")
        return cls(**d)

    def as_array(self) -> np.ndarray:
        values = asdict(self)
        order = ("envido_open", "envido_real", "envido_falta", "envido_respect", "truco_respect", "truco_call",
                 "truco_raise", "bluff_envido", "bluff_truco", "sena_rate", "skill_edge", "equity_exponent", "todo_dicho_falta",
                 "bluff_falta")
        assert len(order) == HK.NUM_PARAMS
        return np.array([float(values[k]) for k in order], dtype=np.float64)


class ArgentinoHeuristic:
    """A rule-based player of truco argentino (agents/heuristic_argentino/__init__.py)."""

    name = "heuristic"
    tradition = "argentino"
    team_sizes = (1, 2, 3)

    def __init__(self, seed: int = 0, config: ArgentinoHeuristicConfig | dict | None = None):
        self.config = config if isinstance(config, ArgentinoHeuristicConfig) else ArgentinoHeuristicConfig.from_dict(config)
        self._params = self.config.as_array()
        self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return int(self.act_batch(np.asarray(observation)[None, :], np.asarray(action_mask)[None, :])[0])

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray, keys=None) -> np.ndarray:
        """One decision per row; with ``keys`` every draw of a row comes from its key."""
        obs = np.ascontiguousarray(observations, dtype=np.int8)
        masks = np.ascontiguousarray(action_masks, dtype=np.uint8)
        if obs.ndim != 2 or masks.ndim != 2 or obs.shape[0] != masks.shape[0]:
            raise ValueError(f"expected (n, obs) and (n, actions) arrays, got {obs.shape} and {masks.shape}")
        if not (masks > 0).any(axis=1).all():
            raise ValueError("a row of the masks has no legal action")
        n = obs.shape[0]
        if keys is None:
            u = self.rng.random((n, 3))
        else:
            u = np.stack([key_uniforms(keys, purpose) for purpose in range(3)], axis=1)
        out = np.empty(n, dtype=np.int64)
        HK.decide_batch(obs, masks, u, self._params, out)
        return out


def make_policy(seed: int = 0, config: dict | None = None) -> ArgentinoHeuristic:
    return ArgentinoHeuristic(seed=seed, config=config)

"""The heuristic's configuration: every threshold and weight, with its reason.

Part of the Moteño heuristic (``agents.heuristic``; the bot is described there)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

import numpy as np

from truque_env.io import tomllib
from truque_env.traditions import is_int, is_number
from truque_env.traditions.moteno import actions as A

# ----------------------------------------------------------------------------------------------
# configuration


@dataclass(frozen=True)
class HeuristicConfig:
    """The parameters of ``HeuristicPolicy`` (see the table in the module docstring)."""

    sena_rate: float = 0.9
    use_partner_senas: bool = True
    pares_bet: float = 0.62
    pares_raise: float = 0.78
    pares_falta: float = 0.88
    flor_bet: float = 0.62
    flor_raise: float = 0.78
    flor_falta: float = 0.9
    hide_reservada: bool = True
    truco_challenge: float = 0.8
    truco_raise: float = 0.88
    respect: float = 0.08
    defer: float = 0.06
    accept_margin: float = 0.0
    equity_exponent: float = 1.5
    skill_edge: float = 4.0
    hold_threshold: float = 0.6
    lookahead: bool = True
    lookahead_margin: float = 0.02
    samples: int = 200
    bluff_envite: float = 0.04
    bluff_truco: float = 0.04
    blind_envite: float = 0.02
    blind_envite_pares: int = 1
    blind_truco: float = 0.0
    bluff_envite_pares: int = 1

    def __post_init__(self):
        for f in fields(self):
            v = getattr(self, f.name)
            if f.type in ("bool", bool):
                if not isinstance(v, (bool, np.bool_)):
                    raise ValueError(f"HeuristicConfig.{f.name} must be true or false, got {v!r}")
            elif f.type in ("int", int):
                if not is_int(v):
                    raise ValueError(f"HeuristicConfig.{f.name} must be an integer, got {v!r}")
            elif not is_number(v):
                raise ValueError(f"HeuristicConfig.{f.name} must be a number, got {v!r}")
        probs = ("sena_rate", "respect", "defer", "pares_bet", "pares_raise", "pares_falta", "flor_bet", "flor_raise",
                 "flor_falta", "truco_challenge", "truco_raise", "hold_threshold", "bluff_envite",
                 "bluff_truco", "blind_envite", "blind_truco")
        for name in probs:
            if not 0.0 <= float(getattr(self, name)) <= 1.0:
                raise ValueError(f"HeuristicConfig.{name} is a probability 0..1, got {getattr(self, name)!r}")
        if not 1 <= self.samples <= 100_000:
            raise ValueError(f"HeuristicConfig.samples must be 1..100000, got {self.samples!r}")
        for name in ("blind_envite_pares", "bluff_envite_pares"):
            if not 1 <= getattr(self, name) <= A.MAX_PARES_N:
                raise ValueError(f"HeuristicConfig.{name} must be 1..{A.MAX_PARES_N}, got {getattr(self, name)!r}")
        if self.equity_exponent <= 0 or self.skill_edge <= 0:
            raise ValueError("HeuristicConfig.equity_exponent and skill_edge must be > 0")

    @classmethod
    def from_dict(cls, data: dict | None) -> HeuristicConfig:
        """Build from a dict (e.g. a TOML table); unknown keys raise ``ValueError`` naming them."""
        data = dict(data or {})
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown HeuristicConfig key(s): {', '.join(unknown)}; "
                             f"known keys: {', '.join(sorted(known))}")
        return cls(**data)

    @classmethod
    def from_toml(cls, text: str, table: str | None = "heuristic") -> HeuristicConfig:
        """Build from TOML text: the ``[table]`` table if present (or the top level)."""
        doc = tomllib.loads(text)
        if table is not None and table in doc:
            doc = doc[table]
        return cls.from_dict(doc)

    def to_dict(self) -> dict:
        return asdict(self)


def seeded(config: HeuristicConfig | dict | None, seed: int | None):
    """(config, generator, salt of the per-mano coins) of a new bot: the kernels' policy and the
    readable twin start here alike, so the same seed gives both the same draws."""
    if config is None:
        config = HeuristicConfig()
    elif isinstance(config, dict):
        config = HeuristicConfig.from_dict(config)
    rng = np.random.default_rng(seed)
    return config, rng, int(rng.integers(1 << 62))



"""Policies by name: ``load_policy("random", seed=0, tradition="moteno")``; used by the console
(``truque evaluate``) and, through the entry point ``truque_env.policies``, by the environments.

Known names: ``random`` (``agents.base.RandomPolicy``), ``heuristic`` (``agents.heuristic``,
imported only when asked for) and ``heuristic_sin_senas`` (the same bot ignoring its partners'
señas), ``ppo`` (the shipped PPO bot, ``agents/checkpoints/ppo_moteno_3v3.pt``), ``cfr`` (the MCCFR average
policy for 1 contra 1, ``agents/checkpoints/cfr_moteno_1v1.npz``, ``agents.cfr_policy``). A path to a
checkpoint of ``train.ppo.loop`` loads the learned policy (``agents.ppo_policy.PPOPolicy``); a path
ending in ``.npz`` loads a CFR policy (an export or a run checkpoint of ``train.cfr.mccfr``,
its header checked); a file that is neither is a clear ``ValueError``.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from agents.base import RandomPolicy


def _random(seed: int):
    return RandomPolicy(seed)


def _heuristic(seed: int):
    try:
        mod = importlib.import_module("agents.heuristic")
    except ModuleNotFoundError as e:
        if e.name in ("agents.heuristic",):
            raise ValueError("policy 'heuristic' is not available: agents/heuristic/ is missing") from e
        raise
    if hasattr(mod, "make_policy"):
        return mod.make_policy(seed=seed)
    cls = getattr(mod, "HeuristicPolicy", None)
    if cls is None:
        raise ValueError("agents.heuristic defines neither make_policy(seed=) nor HeuristicPolicy")
    try:
        return cls(seed=seed)
    except TypeError:  # a deterministic bot without a generator
        return cls()


def _heuristic_without_senas(seed: int):
    """The heuristic bot that ignores its partners' señas: the baseline for the señas channel."""
    from agents.heuristic import make_policy

    return make_policy(seed=seed, config={"use_partner_senas": False})


STRONG_BOT = Path(__file__).parent / "checkpoints" / "ppo_moteno_3v3.pt"


def _ppo(seed: int):
    """The shipped PPO bot (docs/training.md): trained for 3 contra 3, plays any team size."""
    if not STRONG_BOT.exists():
        raise ValueError(f"policy 'ppo' is not available: {STRONG_BOT} is missing")
    from agents.ppo_policy import PPOPolicy

    return PPOPolicy(STRONG_BOT, seed=seed)


CFR_BOT = Path(__file__).parent / "checkpoints" / "cfr_moteno_1v1.npz"


def _cfr(seed: int):
    """The shipped MCCFR bot (docs/cfr_mccfr.md): 1 contra 1 only."""
    if not CFR_BOT.exists():
        raise ValueError(f"policy 'cfr' is not available: {CFR_BOT} is missing")
    from agents.cfr_policy import CFRPolicy

    return CFRPolicy(CFR_BOT, seed=seed)


def _heuristic_argentino(seed: int):
    from agents.heuristic_argentino import make_policy

    return make_policy(seed=seed)


# the bots of each tradition; random plays every tradition (it reads only the mask)
BOTS = {"moteno": {"heuristic": _heuristic, "heuristic_sin_senas": _heuristic_without_senas, "ppo": _ppo, "cfr": _cfr},
        "argentino": {"heuristic": _heuristic_argentino}}


def known_policies(tradition: str = "moteno") -> list[str]:
    """The registry names of the bots of ``tradition`` (a ValueError for an unknown tradition)."""
    from truque_env.traditions import get

    get(tradition)
    return sorted({"random", *BOTS.get(tradition, {})})


def load_policy(name_or_path: str, seed: int = 0, tradition: str = "moteno"):
    """A fresh policy by registry name (seeded with ``seed``) for ``tradition``, or from a checkpoint
    path. A bot that does not exist for the tradition is a ValueError naming the ones that do."""
    key = name_or_path.strip()
    known = known_policies(tradition)
    if key == "random":
        return _random(seed)
    if key in BOTS.get(tradition, {}):
        return BOTS[tradition][key](seed)
    if any(key in bots for bots in BOTS.values()):
        raise ValueError(f"no {key!r} bot for {tradition}; known policies for {tradition}: {', '.join(known)}")
    path = Path(key)
    if path.suffix == ".npz":
        if not path.exists():
            raise ValueError(f"no CFR policy at {key!r}")
        from agents.cfr_policy import CFRPolicy

        return CFRPolicy(path, seed=seed, tradition=tradition)
    if path.suffix in (".pt", ".pth", ".ckpt") or path.exists():
        if not path.exists():
            raise ValueError(f"no checkpoint at {key!r}")
        from agents.ppo_policy import PPOPolicy

        return PPOPolicy(path, seed=seed, tradition=tradition)
    raise ValueError(f"unknown policy {name_or_path!r}; known policies: {', '.join(known)} "
                     "(or a path to a checkpoint)")

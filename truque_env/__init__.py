"""truque_env: Truque Moteño (and the Truco family) as a numba-compiled, vectorised engine.

The traditions of the family are registered by name: ``truque_env.traditions()`` lists them and
``truque_env.valuations(name)`` gives their card and hand valuations (:mod:`truque_env.traditions`).
Start with :class:`truque_env.Table` (scripted play, one table), the action catalogue in
:mod:`truque_env.traditions.moteno.actions` and the state machine in ``docs/engine.md``. Environments:
``truque_env.env()`` / ``raw_env()`` (PettingZoo AEC, :mod:`truque_env.pettingzoo_env`),
``truque_env.make_gym()`` (Gymnasium, one learner seat, :mod:`truque_env.gym_env`),
:class:`truque_env.vector.VectorEnv`.
"""

from truque_env import (
    _jit_cache,  # noqa: F401  (first: sets the numba cache folder)
    traditions,  # the registry module, callable: truque_env.traditions()
)
from truque_env.cards import card_str, parse  # noqa: I001
from truque_env.table import Table
from truque_env.traditions import valuations
from truque_env.vector import VectorEnv

__all__ = ["Table", "VectorEnv", "parse", "card_str", "env", "raw_env", "make_gym", "traditions", "valuations"]
__version__ = "0.1.0"

# the environments import PettingZoo / Gymnasium (~0.3 s): loaded on first use
_LAZY = {"env": "truque_env.pettingzoo_env", "raw_env": "truque_env.pettingzoo_env", "make_gym": "truque_env.gym_env"}


def __getattr__(name):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'truque_env' has no attribute {name!r}")

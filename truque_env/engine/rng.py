"""The table's own generator: splitmix64 kept inside the state (docs/engine.md, "Chance")."""

from __future__ import annotations

import numpy as np
from numba import njit

from truque_env.engine import layout as L

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_MASK16 = np.uint64(0xFFFF)


@njit(cache=True)
def rng_get(s):
    x = np.uint64(0)
    for i in range(4):
        x |= np.uint64(np.int64(s[L.RNG + i]) & 0xFFFF) << np.uint64(16 * i)
    return x


@njit(cache=True)
def rng_set(s, x):
    for i in range(4):
        w = np.int64((x >> np.uint64(16 * i)) & _MASK16)
        if w >= 32768:
            w -= 65536
        s[L.RNG + i] = w


@njit(cache=True)
def splitmix_next(x):
    """Advance a splitmix64 state; returns (new state, output)."""
    x = x + _GOLDEN
    z = x
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return x, z ^ (z >> np.uint64(31))


@njit(cache=True)
def draw(s, k):
    """Uniform integer in [0, k) from the table's generator."""
    x, z = splitmix_next(rng_get(s))
    rng_set(s, x)
    return np.int64(z % np.uint64(k))

"""splitmix64, once for the whole suite: the table's own generator kept inside the state
(docs/engine.md, "Chance"), and the hashes and uniform draws of the bots and solvers.

* ``splitmix_next(x)``: advance a state, return (new state, output);
* ``fmix64(z)``: splitmix64's output function (a 64-bit finaliser), ``mix64(x) = fmix64(x + golden)``
  the output for state ``x``;
* ``uniform01(state)``: a float in [0, 1) from a one-element ``uint64`` state array, advanced;
* ``mix64_int(x)``: ``mix64`` on Python integers, for Python callers (no numba call per hash);
* ``mix64_array(x)``: ``mix64`` elementwise on a numpy array (uint64, wrapping), for the batched
  callers above the engine (the decision keys of docs/engine.md, "Random streams of the bots").

The plain-Python reference (tests/reference) writes its own on purpose: it must not share code
with the engine it checks.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from truque_env.engine import header as H

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_MASK16 = np.uint64(0xFFFF)


@njit(cache=True)
def rng_get(s):
    x = np.uint64(0)
    for i in range(4):
        x |= np.uint64(np.int64(s[H.RNG + i]) & 0xFFFF) << np.uint64(16 * i)
    return x


@njit(cache=True)
def rng_set(s, x):
    for i in range(4):
        w = np.int64((x >> np.uint64(16 * i)) & _MASK16)
        if w >= 32768:
            w -= 65536
        s[H.RNG + i] = w


@njit(cache=True)
def fmix64(z):
    """splitmix64's output function on a uint64."""
    z = np.uint64(z)
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def splitmix_next(x):
    """Advance a splitmix64 state; returns (new state, output). The engine's hot path (every card
    of every deal): the output function is written out here rather than called."""
    x = x + _GOLDEN
    z = x
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return x, z ^ (z >> np.uint64(31))


@njit(cache=True)
def mix64(x):
    """The splitmix64 output for state ``x``: a well-spread 64-bit hash of ``x``."""
    return fmix64(np.uint64(x) + _GOLDEN)


@njit(cache=True)
def uniform01(state):
    """A float in [0, 1) from the splitmix64 state ``state[0]`` (advanced): the top 53 bits."""
    state[0], z = splitmix_next(state[0])
    return float(z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


_M64 = (1 << 64) - 1


def mix64_int(x: int) -> int:
    """``mix64`` on Python integers (modulo 2**64)."""
    x = (x + int(_GOLDEN)) & _M64
    x = ((x ^ (x >> 30)) * int(_MIX1)) & _M64
    x = ((x ^ (x >> 27)) * int(_MIX2)) & _M64
    return x ^ (x >> 31)


def mix64_array(x) -> np.ndarray:
    """``mix64`` elementwise: a ``uint64`` array of the same shape (numpy arithmetic wraps)."""
    with np.errstate(over="ignore"):  # a 0-d input is a numpy scalar, which warns on wrapping
        z = np.asarray(x).astype(np.uint64) + _GOLDEN
        z = (z ^ (z >> np.uint64(30))) * _MIX1
        z = (z ^ (z >> np.uint64(27))) * _MIX2
        return z ^ (z >> np.uint64(31))


@njit(cache=True)
def draw(s, k):
    """Uniform integer in [0, k) from the table's generator."""
    x, z = splitmix_next(rng_get(s))
    rng_set(s, x)
    return np.int64(z % np.uint64(k))

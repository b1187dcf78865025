"""The tradition-free parts of the MCCFR kernels: the open-addressing table of information sets,
regret matching, sampling from a strategy, the average strategy (``train.cfr.mccfr_kernels`` for
Moteño and ``train.cfr.mccfr_kernels_argentino`` hold the traversals, which name their
tradition's engine: numba caches no loop that takes the engine as an argument, docs/engine.md).

**Table of information sets.** Keys go to rows by open addressing with linear probing in a
fixed-capacity ``int64`` array (0 = empty, capacity a power of two, first slot ``key & (capacity -
1)``). ``regrets`` and ``cum_policy`` are ``float32 [capacity, number of abstract actions]`` by the
same slot. A table ``MAX_LOAD`` full refuses new keys: the traversal stops (``info[I_STOP]``) and
the caller raises a ``ValueError``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from truque_env.engine.rng import uniform01

MAX_LOAD = 0.9
MAX_DEPTH = 96
# info[]: counters shared with Python
I_FILL, I_STOP, I_NODES, I_MAX_FILL, I_MISSES, I_LOOKUPS = 0, 1, 2, 3, 4, 5
INFO_SIZE = 8
STOP_FULL, STOP_DEPTH = 1, 2


@njit(cache=True)
def table_find(keys, key):
    """Slot of ``key``, or -1 when it is not in the table."""
    cap_mask = keys.size - 1
    i = np.int64(key) & cap_mask
    while True:
        k = keys[i]
        if k == key:
            return i
        if k == 0:
            return np.int64(-1)
        i = (i + 1) & cap_mask


@njit(cache=True)
def table_insert(keys, key, info):
    """Slot of ``key``, inserted if new; -1 when the table is full (``info[I_FILL] >= info[I_MAX_FILL]``)."""
    cap_mask = keys.size - 1
    i = np.int64(key) & cap_mask
    while True:
        k = keys[i]
        if k == key:
            return i
        if k == 0:
            if info[I_FILL] >= info[I_MAX_FILL]:
                return np.int64(-1)
            keys[i] = key
            info[I_FILL] += 1
            return i
        i = (i + 1) & cap_mask


@njit(cache=True)
def table_insert_many(keys, new_keys, info, slots):
    """Insert each of ``new_keys``; ``slots[j]`` gets its slot (-1: the table was full)."""
    for j in range(new_keys.size):
        slots[j] = table_insert(keys, new_keys[j], info)


@njit(cache=True)
def regret_matching(regrets, row, amask, out):
    """The current strategy at ``row``: positive regrets normalised over the legal actions,
    uniform over them when none is positive; zero on illegal ones."""
    total = 0.0
    n = 0
    for a in range(amask.shape[0]):
        out[a] = 0.0
        if amask[a]:
            n += 1
            r = regrets[row, a]
            if r > 0.0:
                total += r
    for a in range(amask.shape[0]):
        if amask[a]:
            r = regrets[row, a]
            out[a] = (r / total if r > 0.0 else 0.0) if total > 0.0 else 1.0 / n


@njit(cache=True)
def sample_index(p, rng):
    u = uniform01(rng)
    acc = 0.0
    last = -1
    for a in range(p.size):
        if p[a] > 0.0:
            acc += p[a]
            last = a
            if u < acc:
                return a
    return last  # u fell in the rounding gap above the sum


@njit(cache=True)
def average_strategy(cum, row, amask, out):
    """The normalised average strategy at ``row`` over the legal actions (uniform if it has no weight)."""
    total = 0.0
    n = 0
    for a in range(amask.shape[0]):
        out[a] = 0.0
        if amask[a]:
            n += 1
            if cum[row, a] > 0.0:
                total += cum[row, a]
    for a in range(amask.shape[0]):
        if amask[a]:
            c = cum[row, a]
            out[a] = (c / total if c > 0.0 else 0.0) if total > 0.0 else 1.0 / n
    return total > 0.0

"""The network's input: the observation (``truque_env.engine.observation``) as sparse features.

Two changes from the raw int8 vector, both fixed (nothing learned here):

* ``history`` (32 entries of relative seat + 1 and action id + 1) becomes one-hot: entry ``j``
  sets column ``HISTORY_BASE + 99 j + seat`` and ``HISTORY_BASE + 99 j + 8 + action``; an id is
  a name, not a magnitude.
* counts of chinas and stakes are scaled to about [0, 1] (``SCALE``): ``score`` and the target /
  la falta by 1/30, ``juegos`` by 1/2, stakes by 1/16 (pares) and 1/11 (flores), the sung valor
  de pares by 1/40, the highest stakes said in ``bets_by_seat`` by 1/16.

Rows come out in CSR form for ``train.sparse_linear``. (The centralised critic reads the hidden
hands, ``observe_hidden``, through a layer of its own: ``train.ppo.Agent``.)
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from train.sparse_linear import build_csr
from truque_env.engine import actions as A
from truque_env.engine import layout as L
from truque_env.engine import observation as O

HISTORY_START, (HISTORY_LEN, _) = O.SLICES["history"]
ENTRY_WIDTH = L.MAX_PLAYERS + A.NUM_ACTIONS
HISTORY_BASE = HISTORY_START  # the one-hot history replaces the raw one, from the same column
NUM_FEATURES = HISTORY_BASE + HISTORY_LEN * ENTRY_WIDTH


def _scales() -> np.ndarray:
    s = np.ones(HISTORY_START, dtype=np.float32)
    start = lambda name: O.SLICES[name][0]  # noqa: E731
    s[start("score") : start("score") + 2] = 1 / 30
    s[start("target_falta") : start("target_falta") + 2] = 1 / 30
    s[start("juegos") : start("juegos") + 3] = 1 / 2
    s[start("pares") + 5 : start("pares") + 7] = 1 / 16  # stake, previous stake
    s[start("flor") + 8 : start("flor") + 10] = 1 / 11
    s[start("cante") : start("cante") + L.MAX_PLAYERS] = 1 / 40
    for r in range(L.MAX_PLAYERS):
        s[start("bets_by_seat") + 16 * r + 14 : start("bets_by_seat") + 16 * r + 16] = 1 / 16
    return s


SCALE = _scales()


@njit(cache=True, parallel=True)
def _count(obs, counts):
    n = obs.shape[0]
    for i in prange(n):
        c = 0
        for j in range(HISTORY_START):
            if obs[i, j] != 0:
                c += 1
        for e in range(HISTORY_LEN):
            if obs[i, HISTORY_START + 2 * e + 1] != 0:
                c += 2
        counts[i] = c


@njit(cache=True, parallel=True)
def _fill(obs, scale, indptr, cols, vals):
    n = obs.shape[0]
    for i in prange(n):
        k = indptr[i]
        for j in range(HISTORY_START):
            v = obs[i, j]
            if v != 0:
                cols[k] = j
                vals[k] = v * scale[j]
                k += 1
        for e in range(HISTORY_LEN):
            action = obs[i, HISTORY_START + 2 * e + 1]
            if action != 0:
                base = HISTORY_BASE + e * ENTRY_WIDTH
                cols[k] = base + obs[i, HISTORY_START + 2 * e] - 1
                vals[k] = 1.0
                cols[k + 1] = base + L.MAX_PLAYERS + action - 1
                vals[k + 1] = 1.0
                k += 2


def to_csr(obs: np.ndarray):
    """``(indptr, cols, vals)`` of the features of ``obs`` (n, OBS_SIZE) int8."""
    obs = np.ascontiguousarray(obs)
    if obs.dtype != np.int8 or obs.ndim != 2 or obs.shape[1] != O.OBS_SIZE:
        raise ValueError(f"expected int8 observations of shape (n, {O.OBS_SIZE}), got {obs.dtype} {obs.shape}")
    return build_csr(obs.shape[0], lambda counts: _count(obs, counts),
                     lambda indptr, cols, vals: _fill(obs, SCALE, indptr, cols, vals))


def dense(obs: np.ndarray) -> np.ndarray:
    """The same features as a dense float32 matrix (slow; for tests and inspection)."""
    indptr, cols, vals = to_csr(obs)
    out = np.zeros((obs.shape[0], NUM_FEATURES), dtype=np.float32)
    rows = np.repeat(np.arange(obs.shape[0]), np.diff(indptr))
    np.add.at(out, (rows, cols), vals)
    return out

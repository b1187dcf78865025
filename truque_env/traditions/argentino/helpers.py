"""Small numba helpers of the argentino kernels: seats, masks, the rule words, who is in the mano.

Part of the argentino kernels (``kernels.py`` is the entry point); every function takes one state row ``s``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from truque_env.traditions.argentino import config as C
from truque_env.traditions.argentino import layout as L


@njit(cache=True, inline="always")
def _bit(seat):
    return 1 << seat


@njit(cache=True, inline="always")
def _has(mask, seat):
    return (mask >> seat) & 1


@njit(cache=True)
def _n(s):
    return np.int64(s[L.N_PLAYERS])


@njit(cache=True)
def _rule(s, bit):
    return (s[L.RULES] & bit) != 0


@njit(cache=True)
def _in_mano(s, seat):
    return _has(s[L.FOLDED], seat) == 0


@njit(cache=True)
def _unsung(s):
    """Mask of the seats holding a flor not sung yet (0 when flor is not played)."""
    return s[L.FLOR_HOLD] & ~s[L.FLOR_SUNG] & ~s[L.FOLDED]


@njit(cache=True)
def _count_team(mask, team, n):
    c = 0
    for seat in range(team, n, 2):
        c += _has(mask, seat)
    return c


@njit(cache=True)
def _best_seat(s, values, mask):
    """The seat of ``mask`` with the highest ``s[values + seat]``; ties to the one nearest the mano
    (003: "gana el mano"). -1 when the mask is empty."""
    n = _n(s)
    best, best_seat = -1, -1
    for k in range(n):
        seat = (s[L.MANO_SEAT] + k) % n
        if _has(mask, seat) and s[values + seat] > best:
            best = s[values + seat]
            best_seat = seat
    return best_seat


@njit(cache=True)
def _played_in(s, baza, seat):
    return s[L.PLAYED + baza * L.MAX_PLAYERS + seat]


@njit(cache=True)
def _team_played_a_card(s, team):
    for seat in range(team, _n(s), 2):
        if s[L.HAND_PLAYED + seat] != 0:
            return True
    return False


@njit(cache=True)
def _any_card_played(s):
    for seat in range(_n(s)):
        if s[L.HAND_PLAYED + seat] != 0:
            return True
    return False


@njit(cache=True)
def _holds_a_card(s, seat):
    return s[L.HAND_PLAYED + seat] != 7


@njit(cache=True)
def truco_value(level):
    """Tantos of a truco accepted at ``level`` (0: none accepted, 1 tanto; A40, ruling 8)."""
    return 1 if level == 0 else level + 1


@njit(cache=True)
def _envido_open(s):
    """The envido may still be said at all this mano (A22, A9, A33): nothing of envido or flor
    said, the truco not accepted, no todo dicho in play."""
    return (s[L.ENV_ST] == L.BET_NONE and s[L.FLOR_SUNG] == 0 and s[L.TRUCO_ST] != L.BET_ACCEPTED
            and (s[L.TD_ST] == L.TD_NONE or s[L.TD_ST] == L.TD_ANNULLED) and s[L.UNO_ST] != L.UNO_OPEN)


@njit(cache=True)
def _may_envidar(s, seat):
    """``seat`` may say envido now: in the first baza before playing his own card (A22)."""
    return _envido_open(s) and s[L.BAZA] == 0 and _played_in(s, 0, seat) < 0


@njit(cache=True)
def _envido_raise_ok(s, k):
    """Raise k (0 envido +2, 1 real envido +3, 2 falta envido) of the stake standing (ruling on the
    chain's length: a raise is legal while the stake after it stays within the falta)."""
    if s[L.ENV_STAKE] == L.FALTA_NOMINAL:
        return False
    if k == 2:
        return True
    return s[L.ENV_STAKE] + 2 + k <= s[L.FALTA]


@njit(cache=True)
def _opening_ok(s, k):
    """Opening envido word k (envido 2, real envido 3, falta envido) within the falta."""
    if k == 2:
        return True
    return 2 + k <= s[L.FALTA]


@njit(cache=True)
def _al_resto_match(s):
    return _rule(s, C.R_AL_RESTO_MATCH)


@njit(cache=True)
def _falta_match(s):
    return _rule(s, C.R_FALTA_MATCH)

"""Small numba helpers of the Moteño kernels: seats, masks, who is still in the mano or the truque.

Part of the Moteño kernels (``kernels.py`` is the entry point); every function takes one state row ``s``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from truque_env.traditions.moteno import layout as L

# ------------------------------------------------------------------------------------------
# small helpers


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
def _offset_from_mano(s, seat):
    n = _n(s)
    return (seat - s[L.MANO_SEAT] + n) % n


@njit(cache=True)
def _in_mano(s, seat):
    return _has(s[L.FOLDED], seat) == 0


@njit(cache=True)
def _in_truque(s, seat):
    return _has(s[L.FOLDED], seat) == 0 and _has(s[L.NO_VALE], seat) == 0


@njit(cache=True)
def _team_in_truque(s, team):
    for seat in range(team, _n(s), 2):
        if _in_truque(s, seat):
            return True
    return False


@njit(cache=True)
def _has_flor(s, seat):
    return s[L.FLOR_VAL + seat] > 0


@njit(cache=True)
def _is_reservada(s, seat):
    return _has(s[L.RESERVADA], seat) == 1


@njit(cache=True)
def _unplayed(s, seat):
    return 3 - ((s[L.HAND_PLAYED + seat] & 1) + ((s[L.HAND_PLAYED + seat] >> 1) & 1) + ((s[L.HAND_PLAYED + seat] >> 2) & 1))


@njit(cache=True)
def truco_refusal_pay(prev_level):
    """Chinas a refused truque challenge pays, from the last accepted level (14.14, 18.2 s-u:
    truco refused 1, retruco refused 3, panueve refused 6)."""
    if prev_level == 0:
        return 1
    return 3 * prev_level


@njit(cache=True)
def pares_refusal_pay(s):
    """Chinas a refused envite de pares pays the raiser: 1 if nothing was accepted before, else
    the last accepted stake, capped at la falta (18.2 a, c)."""
    return 1 if s[L.PARES_PREV] == 0 else min(s[L.PARES_PREV], s[L.FALTA])




@njit(cache=True)
def _team_mask(s, team):
    m = 0
    for seat in range(team, _n(s), 2):
        m |= _bit(seat)
    return m


@njit(cache=True)
def _best_seat(s, values_field, candidates_mask):
    """Seat with the highest value among candidates, closest to mano on ties (6.22, 11.6)."""
    n = _n(s)
    best = -1
    best_seat = -1
    for k in range(n):
        seat = (s[L.MANO_SEAT] + k) % n
        if _has(candidates_mask, seat) and s[values_field + seat] > best:
            best = s[values_field + seat]
            best_seat = seat
    return best_seat


@njit(cache=True)
def _in_mano_mask(s):
    m = 0
    for seat in range(_n(s)):
        if _in_mano(s, seat):
            m |= _bit(seat)
    return m


@njit(cache=True)
def _popcount(m):
    c = 0
    while m:
        c += m & 1
        m >>= 1
    return c

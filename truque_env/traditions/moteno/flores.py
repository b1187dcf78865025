"""The flores: the flor round (Art. 10) and the envite de flores (Art. 11).

Part of the Moteño kernels (``kernels.py`` is the entry point); every function takes one state row ``s``.
"""

from __future__ import annotations

from numba import njit

from truque_env.traditions.moteno import layout as L
from truque_env.traditions.moteno.bazas import _resume_play, _start_play
from truque_env.traditions.moteno.helpers import (
    _bit,
    _has,
    _has_flor,
    _in_mano,
    _is_reservada,
    _n,
    _offset_from_mano,
)

# ------------------------------------------------------------------------------------------
# flores


@njit(cache=True)
def _flor_eligible(s, seat):
    """May sing flor now (10.7, 10.10, 10.12, 10.18)."""
    if not _has_flor(s, seat) or not _in_mano(s, seat) or _has(s[L.FLOR_SUNG], seat):
        return False
    if _is_reservada(s, seat):
        return True
    return _has(s[L.BET_PARES_MASK], seat) == 0 and _has(s[L.CHALLENGED], seat) == 0


@njit(cache=True)
def _flor_round_seat_ahead(s, seat):
    return _offset_from_mano(s, seat) > _offset_from_mano(s, s[L.FLOR_STARTER])


@njit(cache=True)
def _start_flor_round(s, singer, from_cante):
    s[L.FLOR_SUNG] |= _bit(singer)
    s[L.PARES_VOID] = 1  # 6.8, 10.5: una flor anula los pares
    s[L.FLOR_ST] = 1
    s[L.FLOR_STARTER] = singer
    s[L.FLOR_FROM_CANTE] = from_cante
    s[L.PHASE] = L.PH_FLOR_ROUND
    _flor_round_seek(s, 1)


@njit(cache=True)
def _flor_round_seek(s, start):
    n = _n(s)
    for k in range(start, n):
        seat = (s[L.FLOR_STARTER] + k) % n
        if _in_mano(s, seat):
            s[L.FLOR_POS] = k
            s[L.TO_ACT] = seat
            return
    _end_flor_round(s)


@njit(cache=True)
def _end_flor_round(s):
    s[L.FLOR_ST] = 2
    sung0 = False
    sung1 = False
    for seat in range(_n(s)):
        if _has(s[L.FLOR_SUNG], seat):
            if seat % 2 == 0:
                sung0 = True
            else:
                sung1 = True
    if sung0 and sung1:
        s[L.PHASE] = L.PH_FLOR_ENVITE  # 11.2: flores in both teams must be disputed
        _flor_envite_seek(s, 0)
    else:
        _end_flor(s)


@njit(cache=True)
def _flor_envite_seek(s, start):
    n = _n(s)
    for k in range(start, n):
        seat = (s[L.MANO_SEAT] + k) % n
        if _has(s[L.FLOR_SUNG], seat) and _in_mano(s, seat):
            s[L.FE_POS] = k
            s[L.TO_ACT] = seat
            return
    _end_flor(s)  # 11.3: everybody passed


@njit(cache=True)
def _end_flor(s):
    if s[L.FLOR_FROM_CANTE] == 1:
        s[L.CANTE_DONE] = 1
        _start_play(s)  # 8.3: the cante was annulled; the truque follows
    else:
        _resume_play(s)



"""The bazas (Arts. 13, 14, 16): turns, the completion round after a refused truco, who wins each baza and the truque.

Part of the Moteño kernels (``kernels.py`` is the entry point); every function takes one state row ``s``.
"""

from __future__ import annotations

from numba import njit

from truque_env.traditions.moteno import layout as L
from truque_env.traditions.moteno.helpers import _has, _in_mano, _in_truque, _n, _offset_from_mano
from truque_env.traditions.moteno.rules import (
    TRUQUE_POWER,
)
from truque_env.traditions.moteno.scoring import _finish

# ------------------------------------------------------------------------------------------
# the bazas


@njit(cache=True)
def _first_in_truque_from_mano(s):
    n = _n(s)
    for k in range(n):
        seat = (s[L.MANO_SEAT] + k) % n
        if _in_truque(s, seat):
            return seat
    return -1


@njit(cache=True)
def _start_play(s):
    s[L.PHASE] = L.PH_PLAY
    s[L.BAZA] = 0
    s[L.TURN] = _first_in_truque_from_mano(s)
    s[L.TO_ACT] = s[L.TURN]


@njit(cache=True)
def _resume_play(s):
    """Back to the turn holder after a bet, or on to the next turn if the truque just ended."""
    s[L.PHASE] = L.PH_PLAY
    if s[L.TRUQUE_OVER] == 1 and s[L.BAZA] > 0:
        _finish(s)  # 14.9: refused after the first baza, the mano is over
        return
    s[L.TO_ACT] = s[L.TURN]


@njit(cache=True)
def _completion_mode(s):
    return s[L.TRUQUE_OVER] == 1 and s[L.BAZA] == 0


@njit(cache=True)
def _advance_turn(s):
    """After the turn holder played (or passed, or left), find who is next (13.3, 14.10)."""
    n = _n(s)
    b = s[L.BAZA]
    turn = s[L.TURN]
    if _completion_mode(s):
        for k in range(1, n + 1):
            seat = (turn + k) % n
            if _in_mano(s, seat) and _has(s[L.FIRST_ROUND], seat) == 0:
                s[L.TURN] = seat
                s[L.TO_ACT] = seat
                return
        _finish(s)
        return
    for k in range(1, n + 1):
        seat = (turn + k) % n
        if _in_truque(s, seat) and s[L.PLAYED + b * L.MAX_PLAYERS + seat] < 0:
            s[L.TURN] = seat
            s[L.TO_ACT] = seat
            return
    _resolve_baza(s)


@njit(cache=True)
def _resolve_baza(s):
    n = _n(s)
    b = s[L.BAZA]
    best = -1
    for seat in range(n):
        c = s[L.PLAYED + b * L.MAX_PLAYERS + seat]
        if c >= 0 and TRUQUE_POWER[c] > best:
            best = TRUQUE_POWER[c]
    teams = 0
    win_seat = -1
    win_off = 99
    for seat in range(n):
        c = s[L.PLAYED + b * L.MAX_PLAYERS + seat]
        if c >= 0 and TRUQUE_POWER[c] == best:
            teams |= 1 << (seat % 2)
            off = _offset_from_mano(s, seat)
            if off < win_off:  # closest to mano: 16.5; among partners the earlier player, 13.7
                win_off = off
                win_seat = seat
    if teams == 3:
        s[L.BAZA_WIN_TEAM + b] = L.BAZA_PARDA  # 16.1
    else:
        # the earlier of equal partners leads next (13.7): earliest in this baza's order
        lead = s[L.TURN]  # last to play; the baza began right after the previous leader...
        win_seat = -1
        start = -1
        for k in range(n):  # find the leader: the first of the baza's order who played
            seat = (lead + 1 + k) % n
            if s[L.PLAYED + b * L.MAX_PLAYERS + seat] >= 0:
                start = seat
                break
        for k in range(n):
            seat = (start + k) % n
            c = s[L.PLAYED + b * L.MAX_PLAYERS + seat]
            if c >= 0 and TRUQUE_POWER[c] == best:
                win_seat = seat
                break
        s[L.BAZA_WIN_TEAM + b] = win_seat % 2
    s[L.BAZA_WIN_SEAT + b] = win_seat
    w0 = s[L.BAZA_WIN_TEAM]
    w1 = s[L.BAZA_WIN_TEAM + 1]
    w2 = s[L.BAZA_WIN_TEAM + 2]
    winner = -1
    if b == 1:
        if w0 == L.BAZA_PARDA:
            if w1 != L.BAZA_PARDA:
                winner = w1  # after pardas the second decides (16.2)
        elif w1 == w0 or w1 == L.BAZA_PARDA:
            winner = w0  # two bazas (13.10), or la primera vale por dos (13.11)
    elif b == 2:
        if w2 != L.BAZA_PARDA:
            winner = w2
        elif w0 != L.BAZA_PARDA:
            winner = w0  # 13.11
        else:
            winner = win_seat % 2  # three pardas: por la mano (16.5)
    if winner >= 0:
        s[L.TRUQUE_OVER] = 1
        s[L.TRUQUE_WINNER] = winner
        _finish(s)
        return
    s[L.BAZA] = b + 1
    if s[L.BAZA_WIN_TEAM + b] == L.BAZA_PARDA:
        s[L.TURN] = _first_in_truque_from_mano(s)  # 16.2, 16.4: after pardas, mano begins
    else:
        s[L.TURN] = s[L.BAZA_WIN_SEAT + b]  # 13.6: el que gana vuelve
    s[L.TO_ACT] = s[L.TURN]



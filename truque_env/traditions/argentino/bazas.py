"""Turns, bazas and who wins the truco (ruling A4: the uruguayo Arts. 39-41), and *irse al mazo* (A30).

Part of the argentino kernels (``kernels.py`` is the entry point); every function takes one state row ``s``.
"""

from __future__ import annotations

from numba import njit

from truque_env.traditions.argentino import layout as L
from truque_env.traditions.argentino.helpers import (
    _bit,
    _envido_open,
    _in_mano,
    _n,
    _played_in,
    _team_played_a_card,
    truco_value,
)
from truque_env.traditions.argentino.rules import POWER
from truque_env.traditions.argentino.scoring import _add, _close_mano


@njit(cache=True)
def _play_card(s, p, card):
    for k in range(3):
        if s[L.HAND + 3 * p + k] == card:
            s[L.HAND_PLAYED + p] |= 1 << k
    s[L.PLAYED + s[L.BAZA] * L.MAX_PLAYERS + p] = card


@njit(cache=True)
def _first_in_from(s, seat):
    """``seat`` or the first seat after it still in the mano."""
    n = _n(s)
    for k in range(n):
        q = (seat + k) % n
        if _in_mano(s, q):
            return q
    return -1


@njit(cache=True)
def _truco_winner(s, b):
    """The team that won the truco after baza ``b`` (0-based), or -1 (ruling A4).

    Two bazas win; the winner of the first wins when the second is parda; after a parda first the
    second decides, then the third; three pardas go to the mano's team; first and second split
    and the third parda: the winner of the first."""
    r0 = s[L.BAZA_WIN_TEAM]
    r1 = s[L.BAZA_WIN_TEAM + 1]
    P = L.BAZA_PARDA
    if b == 1:
        if r0 != P and (r1 == r0 or r1 == P):
            return r0
        if r0 == P and r1 != P:
            return r1
        return -1
    if b == 2:
        r2 = s[L.BAZA_WIN_TEAM + 2]
        if r2 != P:
            return r2
        if r0 == P:  # three pardas (r1 is parda too, or it would have decided)
            return s[L.MANO_SEAT] % 2
        return r0
    return -1


@njit(cache=True)
def _resolve_baza(s):
    """The highest card wins the baza; equal top cards of rivals are parda, of partners only the
    earlier card wins (ruling A4)."""
    b = s[L.BAZA]
    n = _n(s)
    best = -1
    best_seat = -1
    parda = False
    for k in range(n):
        seat = (s[L.BAZA_LEAD] + k) % n
        c = _played_in(s, b, seat)
        if c < 0:
            continue
        pw = POWER[c]
        if pw > best:
            best = pw
            best_seat = seat
            parda = False
        elif pw == best and seat % 2 != best_seat % 2:
            parda = True
    if parda:
        s[L.BAZA_WIN_TEAM + b] = L.BAZA_PARDA
    else:
        s[L.BAZA_WIN_TEAM + b] = best_seat % 2
    s[L.BAZA_WIN_SEAT + b] = best_seat
    w = _truco_winner(s, b)
    if w >= 0:
        _truco_decided(s, w)
        return
    s[L.BAZA] = b + 1
    lead = _first_in_from(s, s[L.MANO_SEAT]) if parda else best_seat  # after a parda the mano leads
    s[L.BAZA_LEAD] = lead
    s[L.TURN] = lead
    s[L.TO_ACT] = lead


@njit(cache=True)
def _truco_decided(s, team):
    """The bazas gave the truco to ``team``: the tantos of the level accepted (A40)."""
    s[L.TRUCO_WINNER] = team
    level = s[L.TRUCO_LEVEL] if s[L.TRUCO_ST] == L.BET_ACCEPTED else 0
    _add(s, team, L.SRC_TRUCO, truco_value(level))
    _close_mano(s)


@njit(cache=True)
def _advance_turn(s):
    """After the turn holder played (or left): the next player of the baza, or the baza's end."""
    n = _n(s)
    b = s[L.BAZA]
    for k in range(1, n + 1):
        q = (s[L.TURN] + k) % n
        if _in_mano(s, q) and _played_in(s, b, q) < 0:
            s[L.TURN] = q
            s[L.TO_ACT] = q
            return
    _resolve_baza(s)


@njit(cache=True)
def _mazo(s, p):
    """A30: ``p`` leaves the mano. While a partner stays the game goes on without him; the last of
    a team concedes: the rivals take the truco (its accepted level, 1 when none) and, while the
    envido could still be played and his team has not played a card, 1 more for the envido."""
    team = p % 2
    s[L.FOLDED] |= _bit(p)
    for q in range(team, _n(s), 2):
        if _in_mano(s, q):
            _advance_turn(s)
            return
    rivals = 1 - team
    level = s[L.TRUCO_LEVEL] if s[L.TRUCO_ST] == L.BET_ACCEPTED else 0
    if _envido_open(s) and not _team_played_a_card(s, team):
        _add(s, rivals, L.SRC_ENVIDO, 1)
    s[L.TRUCO_WINNER] = rivals
    _add(s, rivals, L.SRC_TRUCO, truco_value(level))
    _close_mano(s)

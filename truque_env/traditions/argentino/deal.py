"""The table's set-up and the deal: the generator, the duplicate deal streams, the hands and their
values (40 cards, three each, A1; a uniform shuffle, ruling 6).

Part of the argentino kernels (``kernels.py`` is the entry point); every function takes one state row ``s``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from truque_env.cards import CARD_SUIT
from truque_env.engine.rng import draw, rng_set, splitmix_next
from truque_env.traditions.argentino import config as C
from truque_env.traditions.argentino import layout as L
from truque_env.traditions.argentino.bets import _start_play
from truque_env.traditions.argentino.helpers import _bit, _n, _rule
from truque_env.traditions.argentino.rules import ENVIDO_CARD_VALUE, envido_value_nb, flor_value_nb


@njit(cache=True)
def init_table(s, team_size, target, juegos, senas_limit, p_intercept_permille, seed):
    """Configure a fresh table and draw the first dealer; the rule words (``RULES``, written once
    by the environment) are kept."""
    r0, r1, r2, r3 = s[L.RULES], s[L.RULES + 1], s[L.RULES + 2], s[L.RULES + 3]
    s[:] = 0
    s[L.RULES], s[L.RULES + 1], s[L.RULES + 2], s[L.RULES + 3] = r0, r1, r2, r3
    s[L.N_PLAYERS] = 2 * team_size
    s[L.TEAM_SIZE] = team_size
    s[L.TARGET] = target
    s[L.JUEGOS_TO_WIN] = (juegos + 1) // 2
    s[L.SENAS_LIMIT] = senas_limit
    s[L.P_INTERCEPT] = p_intercept_permille
    s[L.LAST_JUEGO_WINNER] = -1
    rng_set(s, np.uint64(seed))
    s[L.DEALER] = draw(s, 2 * team_size)
    s[L.PHASE] = L.PH_DONE
    s[L.TO_ACT] = -1


@njit(cache=True)
def set_deal_stream(s, deal_seed):
    """Deal from ``deal_seed`` and the mano count from now on (for duplicate deals)."""
    s[L.DEAL_STREAM] = 1
    x = np.uint64(deal_seed)
    for w in range(4):
        v = np.int64((x >> np.uint64(16 * w)) & np.uint64(0xFFFF))
        s[L.DEAL_SEED + w] = v - 65536 if v >= 32768 else v


@njit(cache=True)
def _reset_mano(s):
    n = _n(s)
    s[L.MANO_SEAT] = (s[L.DEALER] + 1) % n
    s[L.FALTA] = s[L.TARGET] - max(s[L.SCORE], s[L.SCORE + 1])  # A23, A36
    for f in (L.CARDS_SEEN, L.BLIND_POS, L.BAZA, L.FOLDED, L.FLOR_HOLD, L.FLOR_SUNG, L.ENV_ST, L.ENV_STAKE,
              L.ENV_PREV, L.ENV_SHOWN, L.TRUCO_ST, L.TRUCO_LEVEL, L.TRUCO_PREV, L.FLOR_ST, L.FLOR_LEVEL,
              L.FLOR_CONTRA, L.TD_ST, L.UNO_ST, L.EX_KIND, L.SENA_LOG_N):
        s[f] = 0
    for f in (L.ENV_RAISER, L.ENV_WINNER, L.TRUCO_RAISER, L.HAB_TEAM, L.TRUCO_WALKER, L.TRUCO_WINNER,
              L.FLOR_RAISER, L.FLOR_WINNER, L.TD_SEAT, L.EX_TEAM, L.EX_RAISER, L.EX_POS):
        s[f] = -1
    s[L.TURN] = s[L.MANO_SEAT]
    s[L.BAZA_LEAD] = s[L.MANO_SEAT]
    for i in range(L.MAX_PLAYERS):
        s[L.HAND_PLAYED + i] = 0
        s[L.SENAS_MADE + i] = 0
        s[L.ENVIDO_VAL + i] = 0
        s[L.FLOR_VAL + i] = 0
    for i in range(3 * L.MAX_PLAYERS):
        s[L.PLAYED + i] = -1
        s[L.HAND + i] = -1
    for b in range(3):
        s[L.BAZA_WIN_TEAM + b] = L.BAZA_UNDECIDED
        s[L.BAZA_WIN_SEAT + b] = -1
    for i in range(6):
        s[L.CHINAS + i] = 0
    s[L.SCORED] = 0
    s[L.SCORED + 1] = 0
    s[L.LAST_JUEGO_WINNER] = -1


@njit(cache=True)
def _value_hands(s):
    hold = 0
    flor_on = _rule(s, C.R_FLOR)
    for seat in range(_n(s)):
        a = s[L.HAND + 3 * seat]
        b = s[L.HAND + 3 * seat + 1]
        c = s[L.HAND + 3 * seat + 2]
        s[L.ENVIDO_VAL + seat] = envido_value_nb(a, b, c, CARD_SUIT, ENVIDO_CARD_VALUE)
        f = flor_value_nb(a, b, c, CARD_SUIT, ENVIDO_CARD_VALUE)
        s[L.FLOR_VAL + seat] = f
        if flor_on and f > 0:
            hold |= _bit(seat)
    s[L.FLOR_HOLD] = hold


@njit(cache=True)
def _start_mano(s):
    if _rule(s, C.R_TODO_DICHO):
        s[L.PHASE] = L.PH_BLIND  # A33: said before the cards are looked at
        s[L.TO_ACT] = s[L.MANO_SEAT]
    else:
        _start_play(s)


@njit(cache=True)
def deal_random(s):
    """Start a mano with a uniform shuffle from the table's generator (ruling 6)."""
    _reset_mano(s)
    deck = np.arange(40)
    if s[L.DEAL_STREAM] == 1:
        # duplicate deals: the n-th mano's deal depends only on DEAL_SEED and n
        x = np.uint64(0)
        for w in range(4):
            x |= np.uint64(np.int64(s[L.DEAL_SEED + w]) & 0xFFFF) << np.uint64(16 * w)
        x ^= np.uint64(np.int64(s[L.MANO_COUNT]) & 0xFFFF) * np.uint64(0xD1B54A32D192ED03)
        for i in range(39, 0, -1):
            x, z = splitmix_next(x)
            j = np.int64(z % np.uint64(i + 1))
            t = deck[i]
            deck[i] = deck[j]
            deck[j] = t
    else:
        for i in range(39, 0, -1):
            j = draw(s, i + 1)
            t = deck[i]
            deck[i] = deck[j]
            deck[j] = t
    n = _n(s)
    for k in range(3 * n):
        seat = (s[L.MANO_SEAT] + k) % n
        s[L.HAND + 3 * seat + k // n] = deck[k]
    _value_hands(s)
    _start_mano(s)


@njit(cache=True)
def deal_hands(s, hands):
    """Start a mano with given hands (``hands[seat, slot]``); used by scripted deals."""
    _reset_mano(s)
    for seat in range(_n(s)):
        for k in range(3):
            s[L.HAND + 3 * seat + k] = hands[seat, k]
    _value_hands(s)
    _start_mano(s)

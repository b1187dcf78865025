"""The table's set-up and the deal (Art. 4): the generator, the duplicate deal streams, the hands and their values.

Part of the Moteño kernels (``kernels.py`` is the entry point); every function takes one state row ``s``.
"""

from __future__ import annotations

from numba import njit

from truque_env.engine.deal import init_header, set_deal_stream, shuffled_deck  # noqa: F401  (set_deal_stream: the kernels' name)
from truque_env.traditions.moteno import layout as L
from truque_env.traditions.moteno.exchanges import _start_close
from truque_env.traditions.moteno.helpers import _bit, _n
from truque_env.traditions.moteno.rules import (
    flor_value_nb,
    is_reservada_nb,
    pares_value_nb,
)

# ------------------------------------------------------------------------------------------
# table set-up and the deal


@njit(cache=True)
def init_table(s, team_size, target, juegos, senas_limit, p_intercept_permille, seed):
    """Configure a fresh table and draw the first dealer (the rule words are kept:
    ``engine.deal.init_header``); no mano is on."""
    init_header(s, team_size, target, juegos, senas_limit, p_intercept_permille, seed)
    s[L.PHASE] = L.PH_DONE
    s[L.TO_ACT] = -1


@njit(cache=True)
def _reset_mano(s):
    n = _n(s)
    s[L.MANO_SEAT] = (s[L.DEALER] + 1) % n  # mano: right of the dealer, who is postre (4.23)
    lead = max(s[L.SCORE], s[L.SCORE + 1])
    s[L.FALTA] = s[L.TARGET] - lead  # 6.16
    s[L.AL_CANTAR] = 1 if (s[L.SCORE] == s[L.TARGET] - 1 or s[L.SCORE + 1] == s[L.TARGET] - 1) else 0
    for f in (
        L.BLIND_TURN, L.BAZA, L.TRUQUE_OVER, L.FIRST_ROUND, L.FOLDED, L.NO_VALE,
        L.BET_PARES_MASK, L.CHALLENGED, L.FLOR_SUNG, L.CARDS_UP, L.PARES_ST, L.PARES_STAKE,
        L.PARES_PREV, L.PARES_BLIND_ACC, L.PARES_VOID, L.TRUCO_ST, L.TRUCO_LEVEL, L.TRUCO_PREV,
        L.FLOR_ST, L.FLOR_ENV_ST, L.FLOR_STAKE, L.FLOR_PREV, L.FLOR_POS, L.FLOR_FROM_CANTE,
        L.FE_POS, L.CANTE_DONE, L.CARDS_SEEN, L.FC_ANS, L.FC_DECLARED, L.RES_POS, L.RES_DONE, L.EX_KIND, L.EX_POS, L.EX_BEST, L.EX_BLIND, L.SENA_LOG_N,
    ):
        s[f] = 0
    for f in (L.TRUQUE_WINNER, L.PARES_RAISER, L.TRUCO_RAISER, L.FLOR_RAISER, L.FLOR_STARTER,
              L.EX_TEAM, L.EX_RAISER, L.EX_BEST_SEAT, L.FC_TEAM):
        s[f] = -1
    for i in range(L.MAX_PLAYERS):
        s[L.HAND_PLAYED + i] = 0
        s[L.SENAS_MADE + i] = 0
        s[L.PARES_VAL + i] = 0
        s[L.FLOR_VAL + i] = 0
    s[L.RESERVADA] = 0
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
    reservada = 0
    for seat in range(_n(s)):
        a = s[L.HAND + 3 * seat]
        b = s[L.HAND + 3 * seat + 1]
        c = s[L.HAND + 3 * seat + 2]
        s[L.PARES_VAL + seat] = pares_value_nb(a, b, c)
        s[L.FLOR_VAL + seat] = flor_value_nb(a, b, c)
        if is_reservada_nb(a, b, c):
            reservada |= _bit(seat)
    s[L.RESERVADA] = reservada


@njit(cache=True)
def _start_blind(s):
    if s[L.AL_CANTAR]:
        # 15.7 and Art. 8: no apuestas a ciegas in a mano played al cantar
        _start_close(s)
    else:
        s[L.PHASE] = L.PH_BLIND
        s[L.TO_ACT] = s[L.MANO_SEAT]


@njit(cache=True)
def deal_random(s):
    """Start a mano with a uniform shuffle from the table's generator (4.11, ruling 6)."""
    _reset_mano(s)
    deck = shuffled_deck(s)
    n = _n(s)
    for k in range(3 * n):
        seat = (s[L.MANO_SEAT] + k) % n
        s[L.HAND + 3 * seat + k // n] = deck[k]
    _value_hands(s)
    _start_blind(s)


@njit(cache=True)
def deal_hands(s, hands):
    """Start a mano with given hands (``hands[seat, slot]``); used by scripted deals."""
    _reset_mano(s)
    for seat in range(_n(s)):
        for k in range(3):
            s[L.HAND + 3 * seat + k] = hands[seat, k]
    _value_hands(s)
    _start_blind(s)



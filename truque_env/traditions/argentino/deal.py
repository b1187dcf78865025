"""The table's set-up and the deal: the generator, the duplicate deal streams, the hands and their
values (40 cards, three each, A1; a uniform shuffle, ruling 6).

Part of the argentino kernels (``kernels.py`` is the entry point); every function takes one state row ``s``.
"""

from __future__ import annotations

from numba import njit

from truque_env.cards import CARD_SUIT
from truque_env.engine.deal import init_header, set_deal_stream, shuffled_deck  # noqa: F401  (set_deal_stream: the kernels' name)
from truque_env.traditions.argentino import config as C
from truque_env.traditions.argentino import layout as L
from truque_env.traditions.argentino.bets import _start_play
from truque_env.traditions.argentino.helpers import _bit, _n, _rule
from truque_env.traditions.argentino.rules import ENVIDO_CARD_VALUE, envido_value_nb, flor_value_nb


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
    deck = shuffled_deck(s)
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

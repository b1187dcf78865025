"""Numba kernels of the Truque Moteño mano: init, deal, legal mask, step (docs/engine.md).

Every kernel takes one table's state row ``s`` (``int16``, layout in ``layout.py``). Pure
functions of the state: the only chance is the table's own generator inside the state.
Comments cite the reglamento ("6.19" is Art. 6.19).

This module is the entry point: ``init_table``, ``set_deal_stream``, ``deal_random``,
``deal_hands``, ``legal_mask``, ``step``, ``step_unchecked``, ``to_act``, ``mano_result``. The
state machine is split along its seams, each file one part of the reglamento, importing only
the files above it (no cycles):

    helpers.py    seats, masks, who is still in the mano or the truque
    scoring.py    the chinas of each source (Art. 18.2), la falta a ciegas (Art. 12), the score
    bazas.py      turns, bazas and the truque (Arts. 13, 14, 16)
    flores.py     the flor round (Art. 10) and the envite de flores (Art. 11)
    cante.py      al cantar (Art. 8)
    exchanges.py  answers by a team (ruling 4), the blind round and its closing (Arts. 7, 15, 17)
    deal.py       set-up, the generator, duplicate deal streams, the deal (Art. 4)
    legal.py      the legal actions
"""

from __future__ import annotations

__all__ = ["OK", "ERR_ILLEGAL", "ERR_DONE", "init_table", "set_deal_stream", "deal_random", "deal_hands",
           "legal_mask", "step", "step_unchecked", "to_act", "mano_result"]

import numpy as np
from numba import njit

from truque_env.engine.record import count_word
from truque_env.engine.rng import draw
from truque_env.traditions.moteno import actions as A
from truque_env.traditions.moteno import layout as L
from truque_env.traditions.moteno.bazas import _advance_turn
from truque_env.traditions.moteno.cante import _advance_cante
from truque_env.traditions.moteno.deal import deal_hands, deal_random, init_table, set_deal_stream
from truque_env.traditions.moteno.exchanges import (
    _ex_seek,
    _next_blind,
    _open_exchange,
    _resolve_exchange,
)
from truque_env.traditions.moteno.flores import (
    _flor_envite_seek,
    _flor_round_seek,
    _start_flor_round,
)
from truque_env.traditions.moteno.helpers import _bit, _n, _team_in_truque
from truque_env.traditions.moteno.legal import legal_mask
from truque_env.traditions.moteno.scoring import _close_mano, _finish, _reservada_seek

# step() return codes
OK = 0
ERR_ILLEGAL = 1
ERR_DONE = 2

# each action's kind (traditions.action_kinds), for the juego's record: an array numba reads as a constant
_KIND = np.array(A.ACTION_KIND, dtype=np.int64)

# ------------------------------------------------------------------------------------------
# step


@njit(cache=True)
def _answer_value(s, a):
    if a == A.LUEGO:
        return L.ANS_LUEGO
    if a == A.NO_QUIERO:
        return L.ANS_NO_QUIERO
    if a == A.QUIERO:
        return L.ANS_QUIERO
    if a == A.FALTA:
        return L.ANS_RAISE + L.FALTA_NOMINAL
    if A.PARES_BASE <= a < A.PARES_BASE + A.MAX_PARES_N:
        return L.ANS_RAISE + 2 * (a - A.PARES_BASE + 1)
    if A.FLORES_BASE <= a < A.FLORES_BASE + A.MAX_FLORES_N:
        return L.ANS_RAISE + 3 * (a - A.FLORES_BASE + 1)
    return L.ANS_RAISE + (a - A.TRUCO + 1)  # retruco 2, panueve 3


@njit(cache=True)
def _pares_nominal(a):
    if a == A.FALTA:
        return L.FALTA_NOMINAL
    return 2 * (a - A.PARES_BASE + 1)


@njit(cache=True)
def _make_sena(s, p, sena):
    n = _n(s)
    seen = 0
    for q in range(n):
        if q == p:
            continue
        if q % 2 == p % 2:
            seen |= _bit(q)  # ruling 3: partners always see
    for q in range(n):
        if q % 2 != p % 2 and draw(s, 1000) < s[L.P_INTERCEPT]:
            seen |= _bit(q)  # each rival independently, p_intercept
    i = s[L.SENA_LOG_N]
    if i < L.MAX_SENA_LOG:
        s[L.SENA_LOG + i] = p | (sena << 3) | (seen << 7)
        s[L.SENA_LOG_N] = i + 1
    s[L.SENAS_MADE + p] += 1


@njit(cache=True)
def _play_card(s, p, card):
    for k in range(3):
        if s[L.HAND + 3 * p + k] == card:
            s[L.HAND_PLAYED + p] |= 1 << k
    s[L.PLAYED + s[L.BAZA] * L.MAX_PLAYERS + p] = card


@njit(cache=True)
def _step_play(s, p, a):
    b = s[L.BAZA]
    if a == A.DE_LA_MIA:
        s[L.FC_DECLARED] |= _bit(p)  # 12.8; he still plays his turn
        return
    if a == A.FLOR:
        _start_flor_round(s, p, 0)
        return
    if A.PARES_BASE <= a < A.PARES_BASE + A.MAX_PARES_N or a == A.FALTA:
        s[L.PARES_ST] = L.BET_OPEN
        s[L.PARES_STAKE] = _pares_nominal(a)
        s[L.PARES_PREV] = 0
        s[L.PARES_RAISER] = p
        s[L.BET_PARES_MASK] |= _bit(p)
        _open_exchange(s, L.EX_PARES, p, 0, L.RET_PLAY, L.ANS_NONE)
        return
    if a == A.TRUCO or a == A.RETRUCO or a == A.PANUEVE:
        s[L.TRUCO_PREV] = s[L.TRUCO_LEVEL]
        s[L.TRUCO_LEVEL] = a - A.TRUCO + 1
        s[L.TRUCO_ST] = L.BET_OPEN
        s[L.TRUCO_RAISER] = p
        s[L.CHALLENGED] |= _bit(p)
        _open_exchange(s, L.EX_TRUCO, p, 0, L.RET_PLAY, L.ANS_NONE)
        return
    if b == 0:
        s[L.FIRST_ROUND] |= _bit(p)
    if a == A.PASO:  # 14.10
        s[L.CARDS_UP] |= _bit(p)
        _advance_turn(s)
        return
    if a == A.BARAJA:
        s[L.FOLDED] |= _bit(p)
        if not _team_in_truque(s, p % 2):  # nobody of his team left to play the bazas
            s[L.TRUQUE_OVER] = 1
            s[L.TRUQUE_WINNER] = 1 - p % 2
            _finish(s)
            return
        _advance_turn(s)
        return
    if a == A.NO_VALE:
        s[L.NO_VALE] |= _bit(p)
        _advance_turn(s)
        return
    _play_card(s, p, a - A.PLAY_BASE)
    _advance_turn(s)


@njit(cache=True)
def step(s, a):
    """Apply action ``a`` of the player to act. Returns OK, or an error code (state unchanged)."""
    ph = s[L.PHASE]
    if ph == L.PH_DONE:
        return ERR_DONE
    mask = np.zeros(A.NUM_ACTIONS, dtype=np.uint8)
    legal_mask(s, mask)
    if a < 0 or a >= A.NUM_ACTIONS or mask[a] == 0:
        return ERR_ILLEGAL
    step_unchecked(s, a)
    return OK


@njit(cache=True)
def step_unchecked(s, a):
    """Apply a legal action (the caller checked the mask)."""
    ph = s[L.PHASE]
    p = s[L.TO_ACT]
    count_word(s, L.REC_MANOS, p, _KIND[a])  # said aloud: the juego's record
    if a >= A.SENA_BASE:
        _make_sena(s, p, a - A.SENA_BASE)
        return
    if ph == L.PH_BLIND:
        if a == A.PASO:
            _next_blind(s)
        elif a == A.TRUCO:  # 15.1: truco a ciegas
            s[L.TRUCO_ST] = L.BET_OPEN
            s[L.TRUCO_LEVEL] = 1
            s[L.TRUCO_PREV] = 0
            s[L.TRUCO_RAISER] = p
            _open_exchange(s, L.EX_TRUCO, p, 1, L.RET_BLIND, L.ANS_NONE)
        else:  # 7.1: envite de pares a ciegas; 12.1: la falta a ciegas
            if a == A.FALTA:
                s[L.FC_TEAM] = p % 2
            s[L.PARES_ST] = L.BET_OPEN
            s[L.PARES_STAKE] = _pares_nominal(a)
            s[L.PARES_PREV] = 0
            s[L.PARES_RAISER] = p
            _open_exchange(s, L.EX_PARES, p, 1, L.RET_BLIND, L.ANS_NONE)
    elif ph == L.PH_ANSWER and s[L.EX_KIND] == L.EX_FALTA_CIEGAS:
        if a == A.CON_FLOR_QUIERO or a == A.CON_FLOR_NO_QUIERO:
            s[L.FLOR_SUNG] |= _bit(p)  # 12.7: "con flor" sings his flor
        if a == A.QUIERO or a == A.CON_FLOR_QUIERO:
            s[L.EX_BEST] = L.ANS_QUIERO
        elif a != A.PASO and s[L.EX_BEST] == L.ANS_NONE:
            s[L.EX_BEST] = L.ANS_NO_QUIERO
        if not _ex_seek(s, s[L.EX_POS] + 1):
            _resolve_exchange(s)
    elif ph == L.PH_RESERVADA:
        if a == A.FLOR:
            s[L.FLOR_SUNG] |= _bit(p)  # 12.13
        if not _reservada_seek(s, s[L.RES_POS] + 1):
            s[L.RES_DONE] = 1
            _close_mano(s)
    elif ph == L.PH_ANSWER:
        if a != A.PASO:
            v = _answer_value(s, a)
            s[L.EX_BEST] = v
            s[L.EX_BEST_SEAT] = p
            if s[L.EX_BLIND] == 0:
                if s[L.EX_KIND] == L.EX_PARES and v >= L.ANS_QUIERO:
                    s[L.BET_PARES_MASK] |= _bit(p)  # 10.10: querer or revocar
                elif s[L.EX_KIND] == L.EX_TRUCO and v >= L.ANS_RAISE:
                    s[L.CHALLENGED] |= _bit(p)  # 6.13
        if not _ex_seek(s, s[L.EX_POS] + 1):
            _resolve_exchange(s)
    elif ph == L.PH_CANTE:
        if a == A.FLOR:
            _start_flor_round(s, p, 1)  # 8.3: the flor annuls the cante
        else:
            _advance_cante(s)
    elif ph == L.PH_FLOR_ROUND:
        if a == A.FLOR:
            s[L.FLOR_SUNG] |= _bit(p)
        _flor_round_seek(s, s[L.FLOR_POS] + 1)
    elif ph == L.PH_FLOR_ENVITE:
        if a == A.PASO:
            _flor_envite_seek(s, s[L.FE_POS] + 1)
        else:
            s[L.FLOR_ENV_ST] = L.BET_OPEN
            s[L.FLOR_STAKE] = L.FALTA_NOMINAL if a == A.FALTA else 3 * (a - A.FLORES_BASE + 1)
            s[L.FLOR_PREV] = 0
            s[L.FLOR_RAISER] = p
            _open_exchange(s, L.EX_FLORES, p, 0, L.RET_FLOR_ENVITE, L.ANS_NONE)
    else:
        _step_play(s, p, a)


# ------------------------------------------------------------------------------------------
# queries


@njit(cache=True)
def to_act(s):
    """Seat of the player to act, -1 when the mano is over."""
    return s[L.TO_ACT]


@njit(cache=True)
def mano_result(s, out):
    """Chinas won this mano: ``out[team, source]`` (sources pares, flores, truque); True when over."""
    for team in range(2):
        for src in range(3):
            out[team, src] = s[L.CHINAS + 3 * team + src]
    return s[L.PHASE] == L.PH_DONE

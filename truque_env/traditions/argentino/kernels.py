"""Numba kernels of the truco argentino mano: init, deal, legal mask, step (docs/rules/argentino.md,
"The mano as the engine plays it").

Every kernel takes one table's state row ``s`` (``int16``, layout in ``layout.py``). Pure
functions of the state: the only chance is the table's own generator inside the state. Comments
cite the elements of ../shared/rules/traditions.md ("A30") and the seeds.

This module is the entry point: ``init_table``, ``set_deal_stream``, ``deal_random``,
``deal_hands``, ``legal_mask``, ``step``, ``step_unchecked``, ``to_act``, ``mano_result``. The
state machine is split along its seams, each file importing only the files above it:

    helpers.py    seats, masks, the rule words, when the envido may be said
    scoring.py    the envido showdown, the flores, the truco, the score (A35)
    bazas.py      turns, bazas, who wins the truco, irse al mazo
    bets.py       team answers, envido, truco, double calls, flor, uno y uno, todo dicho
    deal.py       set-up, the generator, duplicate deal streams, the deal
    legal.py      the legal actions
"""

from __future__ import annotations

__all__ = ["OK", "ERR_ILLEGAL", "ERR_DONE", "init_table", "set_deal_stream", "deal_random", "deal_hands",
           "legal_mask", "step", "step_unchecked", "to_act", "mano_result"]

import numpy as np
from numba import njit

from truque_env.engine.record import count_word
from truque_env.engine.rng import draw
from truque_env.traditions.argentino import actions as A
from truque_env.traditions.argentino import layout as L
from truque_env.traditions.argentino.bazas import _advance_turn, _mazo, _play_card
from truque_env.traditions.argentino.bets import (
    answer,
    blind_word,
    propose_uno_y_uno,
    say_envido,
    say_envido_y_truco,
    say_truco,
    sing_flor,
)
from truque_env.traditions.argentino.deal import (
    deal_hands,
    deal_random,
    init_table,
    set_deal_stream,
)
from truque_env.traditions.argentino.helpers import _bit, _n
from truque_env.traditions.argentino.legal import legal_mask

OK = 0
ERR_ILLEGAL = 1
ERR_DONE = 2

# each action's kind (traditions.action_kinds), for the juego's record: an array numba reads as a constant
_KIND = np.array(A.ACTION_KIND, dtype=np.int64)


@njit(cache=True)
def _make_sena(s, p, sena):
    """Ruling 3: the partners see it; each rival independently with ``p_intercept``."""
    n = _n(s)
    seen = 0
    for q in range(n):
        if q != p and q % 2 == p % 2:
            seen |= _bit(q)
    for q in range(n):
        if q % 2 != p % 2 and draw(s, 1000) < s[L.P_INTERCEPT]:
            seen |= _bit(q)
    i = s[L.SENA_LOG_N]
    if i < L.MAX_SENA_LOG:
        s[L.SENA_LOG + i] = p | (sena << 3) | (seen << 7)
        s[L.SENA_LOG_N] = i + 1
    s[L.SENAS_MADE + p] += 1


@njit(cache=True)
def _step_play(s, p, a):
    if a >= A.PLAY_BASE:
        _play_card(s, p, a - A.PLAY_BASE)
        _advance_turn(s)
    elif a == A.FLOR:
        sing_flor(s, p)
    elif a == A.MAZO:
        _mazo(s, p)
    elif a == A.ENVIDO or a == A.REAL_ENVIDO or a == A.FALTA_ENVIDO:
        say_envido(s, p, a - A.ENVIDO, False)
    elif A.ENVIDO_Y_TRUCO <= a < A.ENVIDO_Y_TRUCO + 3:
        say_envido_y_truco(s, p, a - A.ENVIDO_Y_TRUCO)
    elif a == A.UNO_Y_UNO:
        propose_uno_y_uno(s, p)
    else:  # truco, retruco, vale cuatro
        say_truco(s, p)


@njit(cache=True)
def step_unchecked(s, a):
    """Apply a legal action (the caller checked the mask)."""
    p = s[L.TO_ACT]
    count_word(s, L.REC_MANOS, p, _KIND[a])  # said aloud: the juego's record
    if a >= A.SENA_BASE:
        _make_sena(s, p, a - A.SENA_BASE)
        return
    ph = s[L.PHASE]
    if ph == L.PH_BLIND:
        blind_word(s, p, a)
    elif ph == L.PH_ANSWER:
        answer(s, p, a)
    else:
        _step_play(s, p, a)


@njit(cache=True)
def step(s, a):
    """Apply action ``a`` of the player to act. Returns OK, or an error code (state unchanged)."""
    if s[L.PHASE] == L.PH_DONE:
        return ERR_DONE
    mask = np.zeros(A.NUM_ACTIONS, dtype=np.uint8)
    legal_mask(s, mask)
    if a < 0 or a >= A.NUM_ACTIONS or mask[a] == 0:
        return ERR_ILLEGAL
    step_unchecked(s, a)
    return OK


@njit(cache=True)
def to_act(s):
    """Seat of the player to act, -1 when the mano is over."""
    return s[L.TO_ACT]


@njit(cache=True)
def mano_result(s, out):
    """Tantos won this mano: ``out[team, source]`` (sources envido, flor, truco); True when over."""
    for team in range(2):
        for src in range(3):
            out[team, src] = s[L.CHINAS + 3 * team + src]
    return s[L.PHASE] == L.PH_DONE

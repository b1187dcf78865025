"""The legal actions of the player to act (the mask the environments hand out).

Part of the argentino kernels (``kernels.py`` is the entry point); every function takes one state row ``s``.
"""

from __future__ import annotations

from numba import njit

from truque_env.traditions.argentino import actions as A
from truque_env.traditions.argentino import config as C
from truque_env.traditions.argentino import layout as L
from truque_env.traditions.argentino.bets import _walk_after
from truque_env.traditions.argentino.helpers import (
    _any_card_played,
    _envido_raise_ok,
    _has,
    _holds_a_card,
    _in_mano,
    _may_envidar,
    _opening_ok,
    _rule,
    _unsung,
)


@njit(cache=True)
def _senas(s, p, mask):
    """Ruling 3 (A41): while holding a card, after the cards are looked at, up to the limit."""
    if s[L.CARDS_SEEN] == 1 and _in_mano(s, p) and _holds_a_card(s, p) and s[L.SENAS_MADE + p] < s[L.SENAS_LIMIT]:
        for k in range(A.NUM_SENAS):
            mask[A.SENA_BASE + k] = 1


@njit(cache=True)
def _play_mask(s, p, mask):
    for k in range(3):
        if (s[L.HAND_PLAYED + p] >> k) & 1 == 0:
            mask[A.PLAY_BASE + s[L.HAND + 3 * p + k]] = 1
    mask[A.MAZO] = 1  # A30
    if _may_envidar(s, p):
        for k in range(3):
            if _opening_ok(s, k):
                mask[A.ENVIDO + k] = 1
                if s[L.TRUCO_ST] == L.BET_NONE:
                    mask[A.ENVIDO_Y_TRUCO + k] = 1  # A34
    st = s[L.TRUCO_ST]
    if st == L.BET_NONE:
        mask[A.TRUCO] = 1
    elif st == L.BET_ACCEPTED and s[L.HAB_TEAM] == p % 2:  # A37: the accepting side raises
        if s[L.TRUCO_LEVEL] == 1:
            mask[A.RETRUCO] = 1
        elif s[L.TRUCO_LEVEL] == 2:
            mask[A.VALE_CUATRO] = 1
    if (_rule(s, C.R_UNO_Y_UNO) and s[L.UNO_ST] == L.UNO_NONE and st == L.BET_NONE and s[L.ENV_ST] == L.BET_NONE
            and s[L.FLOR_SUNG] == 0 and (s[L.TD_ST] == L.TD_NONE or s[L.TD_ST] == L.TD_ANNULLED)
            and not _any_card_played(s) and s[L.SCORE] < s[L.TARGET] - 1 and s[L.SCORE + 1] < s[L.TARGET] - 1):
        mask[A.UNO_Y_UNO] = 1  # A39: before the first card; not when one tanto would end the juego


@njit(cache=True)
def _answer_mask(s, w, mask):
    kind = s[L.EX_KIND]
    if _walk_after(s, w) >= 0:
        mask[A.PASO] = 1  # a partner may answer instead (the first answer binds)
    if kind == L.EX_FLOR:
        level = s[L.FLOR_LEVEL]
        if level == L.FL_FLOR:
            mask[A.FLOR] = 1
            mask[A.ME_ACHICO] = 1
            mask[A.CONTRAFLOR] = 1
            mask[A.AL_RESTO] = 1
        elif level == L.FL_CONTRA:
            mask[A.CON_FLOR_QUIERO] = 1
            mask[A.ME_ACHICO] = 1
            mask[A.AL_RESTO] = 1
        else:
            mask[A.CON_FLOR_QUIERO] = 1
            mask[A.CON_FLOR_NO_QUIERO] = 1
        return
    mask[A.QUIERO] = 1
    mask[A.NO_QUIERO] = 1
    if kind == L.EX_ENVIDO:
        for k in range(3):
            if _envido_raise_ok(s, k):
                mask[A.ENVIDO + k] = 1
    elif kind == L.EX_TRUCO:
        if s[L.TRUCO_LEVEL] == 1 and _may_envidar(s, w):  # A22: el envido está primero
            for k in range(3):
                if _opening_ok(s, k):
                    mask[A.ENVIDO + k] = 1
    elif kind == L.EX_DOUBLE:
        mask[A.SIN_LEY_QUIERO_Y_PASO] = 1
        mask[A.SIN_LEY_PASO_Y_QUIERO] = 1
        level = s[L.TRUCO_LEVEL]
        if level < 3:
            base = A.Y_QUIERO_RETRUCO if level == 1 else A.Y_QUIERO_VALE_CUATRO
            for k in range(3):
                if _envido_raise_ok(s, k):
                    mask[base + k] = 1


@njit(cache=True)
def legal_mask(s, mask):
    """Write the legal actions of the player to act into ``mask`` (uint8, NUM_ACTIONS)."""
    mask[:] = 0
    ph = s[L.PHASE]
    if ph == L.PH_DONE:
        return
    p = s[L.TO_ACT]
    if ph == L.PH_BLIND:
        mask[A.PASO] = 1
        mask[A.TODO_DICHO] = 1
        return
    _senas(s, p, mask)
    if _has(_unsung(s), p) and not (ph == L.PH_ANSWER and s[L.EX_KIND] == L.EX_FLOR):
        mask[A.FLOR] = 1  # A8: a flor is sung at its holder's first word, before any other
        return
    if ph == L.PH_PLAY:
        _play_mask(s, p, mask)
    else:
        _answer_mask(s, p, mask)

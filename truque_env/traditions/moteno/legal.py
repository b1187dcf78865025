"""The legal actions of the player to act: ``legal_mask(s, mask)``.

Part of the Moteño kernels (``kernels.py`` is the entry point); every function takes one state row ``s``.
"""

from __future__ import annotations

from numba import njit

from truque_env.traditions.moteno import actions as A
from truque_env.traditions.moteno import layout as L
from truque_env.traditions.moteno.bazas import _completion_mode
from truque_env.traditions.moteno.flores import _flor_eligible, _flor_round_seat_ahead
from truque_env.traditions.moteno.helpers import (
    _has,
    _has_flor,
    _in_mano,
    _in_truque,
    _is_reservada,
    _n,
    _unplayed,
)

# ------------------------------------------------------------------------------------------
# legal actions


@njit(cache=True)
def _mark_raises(s, mask, kind, above):
    """Raises strictly above the answer value ``above`` (ANS_RAISE + nominal)."""
    if kind == L.EX_PARES:
        if s[L.PARES_STAKE] == L.FALTA_NOMINAL:
            return
        for k in range(1, A.MAX_PARES_N + 1):
            if L.ANS_RAISE + 2 * k > above:
                mask[A.PARES_BASE + k - 1] = 1
        if above < L.ANS_RAISE + L.FALTA_NOMINAL:  # nothing above la falta
            mask[A.FALTA] = 1
    elif kind == L.EX_FLORES:
        if s[L.FLOR_STAKE] == L.FALTA_NOMINAL:
            return
        for k in range(1, A.MAX_FLORES_N + 1):
            if L.ANS_RAISE + 3 * k > above:
                mask[A.FLORES_BASE + k - 1] = 1
        if above < L.ANS_RAISE + L.FALTA_NOMINAL:
            mask[A.FALTA] = 1
    else:
        lvl = s[L.TRUCO_LEVEL]
        if lvl < 3 and L.ANS_RAISE + lvl + 1 > above:
            mask[A.TRUCO + lvl] = 1  # RETRUCO = TRUCO + 1, PANUEVE = TRUCO + 2


@njit(cache=True)
def _raise_floor(s, kind):
    if kind == L.EX_PARES:
        return L.ANS_RAISE + s[L.PARES_STAKE]
    if kind == L.EX_FLORES:
        return L.ANS_RAISE + s[L.FLOR_STAKE]
    return L.ANS_RAISE + s[L.TRUCO_LEVEL]


@njit(cache=True)
def _can_envite(s, seat):
    """6.6-6.9, 6.13: mandar pares with three cards, in the first baza."""
    return (
        s[L.BAZA] == 0
        and s[L.PARES_ST] == L.BET_NONE
        and s[L.FLOR_ST] == 0
        and s[L.AL_CANTAR] == 0
        and _has(s[L.CHALLENGED], seat) == 0
    )


@njit(cache=True)
def _mark_open_envite(mask):
    for k in range(A.MAX_PARES_N):
        mask[A.PARES_BASE + k] = 1
    mask[A.FALTA] = 1


@njit(cache=True)
def legal_mask(s, mask):
    """Write the legal actions of the player to act into ``mask`` (uint8, NUM_ACTIONS)."""
    mask[:] = 0
    ph = s[L.PHASE]
    if ph == L.PH_DONE:
        return
    p = s[L.TO_ACT]
    # señas (ruling 3): free, while holding cards, after the deal
    if s[L.CARDS_SEEN] and s[L.SENAS_MADE + p] < s[L.SENAS_LIMIT] and _in_mano(s, p) and _unplayed(s, p) > 0:
        for k in range(A.NUM_SENAS):
            mask[A.SENA_BASE + k] = 1
    if ph == L.PH_BLIND:
        mask[A.PASO] = 1
        if s[L.PARES_ST] == L.BET_NONE:
            _mark_open_envite(mask)  # with "envío la falta": la falta a ciegas (12.1)
        if s[L.TRUCO_ST] == L.BET_NONE:
            mask[A.TRUCO] = 1
    elif ph == L.PH_ANSWER:
        kind = s[L.EX_KIND]
        best = s[L.EX_BEST]
        if kind == L.EX_FALTA_CIEGAS:
            # 12.5-12.7 and ruling 4: accept or not, with or without singing one's flor
            flor = _has_flor(s, p)
            if best == L.ANS_NONE:
                mask[A.NO_QUIERO] = 1
                mask[A.QUIERO] = 1
                if flor:
                    mask[A.CON_FLOR_NO_QUIERO] = 1
                    mask[A.CON_FLOR_QUIERO] = 1
            else:
                mask[A.PASO] = 1
                if best < L.ANS_QUIERO:
                    mask[A.QUIERO] = 1
                    if flor:
                        mask[A.CON_FLOR_NO_QUIERO] = 1
                if flor:
                    mask[A.CON_FLOR_QUIERO] = 1
        elif best == L.ANS_NONE:
            if s[L.EX_BLIND] == 1:
                mask[A.LUEGO] = 1
            mask[A.NO_QUIERO] = 1
            mask[A.QUIERO] = 1
            _mark_raises(s, mask, kind, _raise_floor(s, kind))
        else:
            mask[A.PASO] = 1
            if best < L.ANS_NO_QUIERO:
                mask[A.NO_QUIERO] = 1
            if best < L.ANS_QUIERO:
                mask[A.QUIERO] = 1
            _mark_raises(s, mask, kind, max(best, _raise_floor(s, kind)))
    elif ph == L.PH_CANTE:
        mask[A.CANTO_PARES] = 1
        if _has_flor(s, p):
            mask[A.FLOR] = 1
    elif ph == L.PH_FLOR_ROUND:
        mask[A.PASO] = 1
        if _flor_round_seat_ahead(s, p):
            if _flor_eligible(s, p):
                mask[A.FLOR] = 1
        elif _is_reservada(s, p) and _flor_eligible(s, p):
            mask[A.FLOR] = 1  # 10.9, 10.17: only a reservada is sung from behind
    elif ph == L.PH_FLOR_ENVITE:
        mask[A.PASO] = 1
        for k in range(A.MAX_FLORES_N):
            mask[A.FLORES_BASE + k] = 1
        mask[A.FALTA] = 1
    elif ph == L.PH_RESERVADA:
        mask[A.PASO] = 1
        mask[A.FLOR] = 1
    elif ph == L.PH_PLAY:
        b = s[L.BAZA]
        if b == 0 and s[L.FLOR_ST] == 0 and _flor_eligible(s, p):
            mask[A.FLOR] = 1
        if (b == 0 and s[L.FC_ANS] == L.FC_CON_FLOR_NO_QUIERO and p % 2 == s[L.FC_TEAM]
                and _has_flor(s, p) and _has(s[L.FC_DECLARED], p) == 0):
            mask[A.DE_LA_MIA] = 1  # 12.8, 12.9: before playing his first card
        if _can_envite(s, p):
            _mark_open_envite(mask)
        if _completion_mode(s):
            mask[A.PASO] = 1  # 14.10: leave the three cards face up
            return
        for k in range(3):
            if (s[L.HAND_PLAYED + p] >> k) & 1 == 0:
                mask[A.PLAY_BASE + s[L.HAND + 3 * p + k]] = 1
        if s[L.TRUCO_ST] == L.BET_NONE:
            mask[A.TRUCO] = 1
        elif s[L.TRUCO_ST] == L.BET_ACCEPTED and s[L.TRUCO_RAISER] % 2 != p % 2 and s[L.TRUCO_LEVEL] < 3:
            mask[A.TRUCO + s[L.TRUCO_LEVEL]] = 1  # 14.8
        mask[A.BARAJA] = 1
        if b >= 1:
            for q in range(p % 2, _n(s), 2):
                if q != p and _in_truque(s, q):
                    mask[A.NO_VALE] = 1  # 13.16: "ésa es", a partner still plays
                    break



"""The Moteño heuristic's kernels, part 3: the per-mano coins, the seña and the answers to a bet (numba).

Built on ``reading.py`` (where the four kernel modules are described) and ``odds.py``. Part of
the Moteño heuristic (``agents.heuristic``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from agents.heuristic.hands import SENA_CIEGA, SENA_DOS, SENA_FLOR, SENA_TRES
from agents.heuristic.odds import (
    _eq1,
    _eq_bet,
    _first_rival_in_mano,
    _flor_prob_of_seat,
    _flor_vs_rivals,
    flor_prob,
    pares_prob,
    truco_prob,
)
from agents.heuristic.reading import (
    _CARD_RANK,
    _SENA_CARDS,
    P_ACCEPT_MARGIN,
    P_DEFER,
    P_FLOR_FALTA,
    P_FLOR_RAISE,
    P_PARES_FALTA,
    P_PARES_RAISE,
    P_RESPECT,
    P_SENA_RATE,
    P_TRUCO_RAISE,
    V_DEALT,
    V_DEALT_BITS,
    V_EX_BLIND,
    V_EX_KIND,
    V_EX_STANDING,
    V_FALTA,
    V_FLOR_PREV,
    V_FLOR_RAISER,
    V_FLOR_STAKE,
    V_IN_MANO,
    V_JUEGOS_MINE,
    V_JUEGOS_RIVAL,
    V_MINE,
    V_MY_FLOR,
    V_MY_RESERVADA,
    V_MY_SENAS,
    V_N,
    V_NDEALT,
    V_PARES_PREV,
    V_PARES_RAISER,
    V_PARES_STAKE,
    V_POSITION,
    V_SANG,
    V_SENAS_LEFT,
    V_TEAM_SIZE,
    V_THEIRS,
    V_TRUCO_LEVEL,
    V_TRUCO_RAISER,
)
from agents.heuristic.view import (
    ANS_NO,
    ANS_NONE,
    ANS_QUIERO,
    ANS_RAISE,
    EX_FALTA,
    EX_FLORES,
    EX_PARES,
    EX_TRUCO,
)
from truque_env.engine.rng import mix64
from truque_env.traditions.moteno import actions as A

# ----------------------------------------------------------------------------------------------
# per-mano coins and the seña (reference: _coin, _sena)


@njit(cache=True)
def _coin(v, salt, purpose):
    """A uniform draw fixed for this player's mano (same hand, seat and score), per purpose."""
    key = np.uint64(v[V_DEALT_BITS])
    key = key * np.uint64(131) + np.uint64(v[V_POSITION] * 17 + v[V_N])
    key = key * np.uint64(257) + np.uint64(v[V_MINE] * 101 + v[V_THEIRS])
    key = key ^ (np.uint64(v[V_JUEGOS_MINE]) << np.uint64(50)) ^ (np.uint64(v[V_JUEGOS_RIVAL]) << np.uint64(54))
    h = mix64(np.uint64(salt) ^ mix64(key * np.uint64(8) + np.uint64(purpose)))
    return float(h >> np.uint64(11)) / 9007199254740992.0


@njit(cache=True)
def _honest_sena(v):
    """hands.honest_sena of my dealt hand."""
    nd = min(v[V_NDEALT], 3)
    for k in range(_SENA_CARDS.shape[0]):
        if (v[V_DEALT_BITS] >> _SENA_CARDS[k]) & 1:
            return k
    for i in range(nd):
        if _CARD_RANK[v[V_DEALT + i]] == 3:
            return SENA_TRES
    for i in range(nd):
        if _CARD_RANK[v[V_DEALT + i]] == 2:
            return SENA_DOS
    if v[V_NDEALT] == 3 and v[V_MY_FLOR] > 0:
        return SENA_FLOR
    return SENA_CIEGA


@njit(cache=True)
def _sena(v, mask, prm, salt):
    if v[V_NDEALT] != 3 or v[V_MY_SENAS] > 0:
        return -1
    a = A.SENA_BASE + _honest_sena(v)
    if not mask[a] or v[V_SENAS_LEFT] <= 0:
        return -1
    if _coin(v, salt, 1) >= prm[P_SENA_RATE]:
        return -1
    return a


# ----------------------------------------------------------------------------------------------
# answers (reference: _answer and the four below it)


@njit(cache=True)
def _give(mask, choice, rank, standing):
    """Say ``choice`` only if it is larger than the standing answer (17.8), else ``paso``."""
    if standing > ANS_NONE and rank <= standing and mask[A.PASO]:
        return A.PASO
    if mask[choice]:
        return choice
    return A.PASO if mask[A.PASO] else choice


@njit(cache=True)
def _team_shift(v, prm, raiser, singers_only):
    """Shift of my win probability for answering as one of several (ruling 4, 17.8)."""
    if raiser < 0 or v[V_TEAM_SIZE] == 1:
        return 0.0
    n = v[V_N]
    mine = (n - raiser % n) % n
    after = 0
    before = 0
    for r in range(0, n, 2):
        if v[V_IN_MANO + r] and (r == 0 or not singers_only or v[V_SANG + r]):
            d = ((r - raiser) % n + n) % n
            if d > mine:
                after += 1
            elif d < mine:
                before += 1
    shift = -prm[P_DEFER] if after else 0.0
    if v[V_EX_STANDING] == ANS_NO:
        shift -= prm[P_DEFER] / 2 * before
    return shift


@njit(cache=True)
def _clamp01(p):
    return min(1.0, max(0.0, p))


@njit(cache=True)
def _answer_pares(v, mask, prm):
    p = pares_prob(v, prm)
    prev = v[V_PARES_PREV]
    falta = v[V_FALTA]
    p_eff = p - prm[P_RESPECT] * (2 if prev else 1)
    p_eff = _clamp01(p_eff + _team_shift(v, prm, v[V_PARES_RAISER], False))
    stake = min(v[V_PARES_STAKE], falta)
    refuse_pay = min(prev, falta) if prev else 1
    eq_accept = _eq_bet(v, prm, p_eff, stake)
    eq_refuse = _eq1(v, prm, 1.0, 0, refuse_pay)
    # the raises considered: the first legal N pares at least doubling the stake, and la falta
    raise_a = -1
    eq_raise = -1.0
    for k in range(A.MAX_PARES_N):
        a = A.PARES_BASE + k
        if mask[a] and min(2 * (k + 1), falta) >= 2 * stake:
            if p_eff >= prm[P_PARES_RAISE]:
                eq = _eq_bet(v, prm, p_eff, min(2 * (k + 1), falta))
                if eq > eq_raise:
                    raise_a, eq_raise = a, eq
            break
    if mask[A.FALTA] and p_eff >= prm[P_PARES_FALTA]:
        eq = _eq_bet(v, prm, p_eff, falta)
        if eq > eq_raise:
            raise_a, eq_raise = A.FALTA, eq
    standing = v[V_EX_STANDING]
    if raise_a >= 0 and eq_raise > eq_accept:
        return _give(mask, raise_a, ANS_RAISE, standing)
    if eq_accept >= eq_refuse + prm[P_ACCEPT_MARGIN]:
        return _give(mask, A.QUIERO, ANS_QUIERO, standing)
    return _give(mask, A.NO_QUIERO, ANS_NO, standing)


@njit(cache=True)
def _answer_truco(v, mask, prm, odds, x):
    p = truco_prob(v, odds, prm, x) - prm[P_RESPECT] + _team_shift(v, prm, v[V_TRUCO_RAISER], False)
    p = _clamp01(p)
    level = v[V_TRUCO_LEVEL]
    stake = 3 * level
    refuse_pay = 1
    if level == 2:
        refuse_pay = 3
    elif level == 3:
        refuse_pay = 6
    eq_accept = _eq_bet(v, prm, p, stake)
    eq_refuse = _eq1(v, prm, 1.0, 0, refuse_pay)
    standing = v[V_EX_STANDING]
    nxt = A.TRUCO + level  # retruco after truco, panueve after retruco
    if level < 3 and mask[nxt] and p >= prm[P_TRUCO_RAISE]:
        return _give(mask, nxt, ANS_RAISE, standing)
    if eq_accept >= eq_refuse + prm[P_ACCEPT_MARGIN]:
        return _give(mask, A.QUIERO, ANS_QUIERO, standing)
    return _give(mask, A.NO_QUIERO, ANS_NO, standing)


@njit(cache=True)
def _flores_counts(v):
    us = 0
    them = 0
    for r in range(v[V_N]):
        if v[V_SANG + r] and v[V_IN_MANO + r]:
            if r % 2 == 0:
                us += 1
            else:
                them += 1
    return max(us, 1), them


@njit(cache=True)
def _answer_flores(v, mask, prm):
    p = flor_prob(v, prm) - prm[P_RESPECT] + _team_shift(v, prm, v[V_FLOR_RAISER], True)
    p = _clamp01(p)
    us, them = _flores_counts(v)
    table = 3 * (us + them)
    falta = v[V_FALTA]
    stake = min(v[V_FLOR_STAKE], falta)
    prev = v[V_FLOR_PREV]
    # refusing: 3 per flor they sang + 1 de derribe (11.5), or the revoque's pay (11.9)
    if not prev:
        eq_refuse = _eq1(v, prm, 1.0, 0, 3 * them + 1)
    else:
        eq_refuse = _eq1(v, prm, 1.0, 0, table + prev)
    eq_accept = _eq_bet(v, prm, p, table + stake)
    best_raise = -1
    best_eq = eq_accept
    for k in range(A.MAX_FLORES_N):  # the first legal N flores, then la falta
        a = A.FLORES_BASE + k
        if mask[a]:
            if p >= prm[P_FLOR_RAISE]:
                eq = _eq_bet(v, prm, p, table + min(3 * (k + 1), falta))
                if eq > best_eq:
                    best_raise, best_eq = a, eq
            break
    if mask[A.FALTA] and p >= prm[P_FLOR_FALTA]:
        eq = _eq_bet(v, prm, p, table + falta)
        if eq > best_eq:
            best_raise, best_eq = A.FALTA, eq
    standing = v[V_EX_STANDING]
    if best_raise >= 0:
        return _give(mask, best_raise, ANS_RAISE, standing)
    if eq_accept >= eq_refuse + prm[P_ACCEPT_MARGIN]:
        return _give(mask, A.QUIERO, ANS_QUIERO, standing)
    return _give(mask, A.NO_QUIERO, ANS_NO, standing)


@njit(cache=True)
def _answer_falta_ciegas(v, mask, prm):
    """Answer la falta a ciegas with the cards (Art. 12.5-12.7; 18.2 d, l-p)."""
    F = v[V_FALTA]
    p_no_flor = 1.0
    for r in range(1, v[V_N], 2):
        if v[V_IN_MANO + r]:
            p_no_flor *= 1.0 - _flor_prob_of_seat(v, r)
    p_flor_a = 1.0 - p_no_flor
    prev = v[V_PARES_PREV]
    refuse_pay = min(prev, F) if prev else 1
    p_pares = pares_prob(v, prm)
    # candidates (action, equity, rank) in the twin's dict order
    acts = np.empty(4, dtype=np.int64)
    eqs = np.empty(4)
    ranks = np.empty(4, dtype=np.int64)
    acts[0], ranks[0] = A.NO_QUIERO, 1
    eqs[0] = _eq1(v, prm, 1.0, 0, refuse_pay)
    acts[1], ranks[1] = A.QUIERO, 3
    e = _eq1(v, prm, p_no_flor * p_pares, F, 0) + _eq1(v, prm, p_no_flor * (1 - p_pares), 0, F)
    if v[V_MY_RESERVADA]:
        e = e + _eq1(v, prm, p_flor_a, 3 * 2 + F, 0)
    else:
        e = e + _eq1(v, prm, p_flor_a, 0, 3)
    eqs[1] = e
    k = 2
    if v[V_MY_FLOR] > 0 and not v[V_MY_RESERVADA]:
        pf = _flor_vs_rivals(v, prm, _first_rival_in_mano(v))
        acts[2], ranks[2] = A.CON_FLOR_NO_QUIERO, 2
        eqs[2] = _eq1(v, prm, p_no_flor, 3, 0) + _eq1(v, prm, p_flor_a, 0, 4)
        acts[3], ranks[3] = A.CON_FLOR_QUIERO, 4
        eqs[3] = (_eq1(v, prm, p_no_flor, 3, 0) + _eq1(v, prm, p_flor_a * pf, 6 + F, 0)
                  + _eq1(v, prm, p_flor_a * (1 - pf), 0, 6 + F))
        k = 4
    standing = v[V_EX_STANDING]
    used = np.zeros(4, dtype=np.bool_)
    for _ in range(k):  # best equity first, then the higher rank (the twin's sorted(..., reverse=True))
        j = -1
        for i in range(k):
            if used[i]:
                continue
            if j < 0 or eqs[i] > eqs[j] or (eqs[i] == eqs[j] and ranks[i] > ranks[j]):
                j = i
        used[j] = True
        a = acts[j]
        if mask[a]:
            if standing == ANS_QUIERO and a == A.QUIERO:
                return A.PASO if mask[A.PASO] else a
            if standing == ANS_NO and a == A.NO_QUIERO:
                return A.PASO if mask[A.PASO] else a
            return a
    return A.PASO if mask[A.PASO] else -1


@njit(cache=True)
def _answer(v, mask, prm, odds, x):
    if v[V_EX_BLIND] and mask[A.LUEGO]:
        return A.LUEGO
    if v[V_EX_BLIND] and mask[A.PASO]:
        return A.PASO
    kind = v[V_EX_KIND]
    if kind == EX_PARES:
        return _answer_pares(v, mask, prm)
    if kind == EX_TRUCO:
        return _answer_truco(v, mask, prm, odds, x)
    if kind == EX_FLORES:
        return _answer_flores(v, mask, prm)
    if kind == EX_FALTA:
        return _answer_falta_ciegas(v, mask, prm)
    return -1

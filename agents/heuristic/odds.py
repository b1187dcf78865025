"""The Moteño heuristic's kernels, part 2: what a hand is worth (numba).

The race model of the juego's equity, and the chances that my team shows the best pares or flor
and wins the truque (by simulation, ``simulation.py``), read from ``v`` (``reading.py``, where the
four kernel modules are described). Part of the Moteño heuristic (``agents.heuristic``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from agents.heuristic.hands import (
    HAND_BITS,
    HAND_FLOR,
    HAND_PARES,
    HAND_SENA,
    POWER_NB,
    SENA_CIEGA,
    SENA_FLOR,
    V_FLOR,
    V_PARES,
    _seat_counts,
)
from agents.heuristic.reading import (
    _SENA_CARDS,
    P_EQUITY_EXPONENT,
    P_SAMPLES,
    P_SKILL_EDGE,
    P_USE_SENAS,
    PH_ANSWER,
    RES_P,
    RES_W,
    V_BAZA,
    V_CAND,
    V_DEALT_BITS,
    V_DREW,
    V_HAND,
    V_IN_BAZA,
    V_IN_MANO,
    V_IN_TRUQUE,
    V_KNOWN_BITS,
    V_MINE,
    V_MY_FLOR,
    V_MY_PARES,
    V_N,
    V_NCAND,
    V_NHAND,
    V_NPLAYED,
    V_NRES,
    V_PHASE,
    V_PLAYED_BITS,
    V_POSITION,
    V_RES,
    V_SANG,
    V_SENA,
    V_TARGET,
    V_TBC_DONE,
    V_THEIRS,
    V_UNSEEN_BITS,
    _lowest,
)
from agents.heuristic.simulation import _result_of, simulate_truque_cards
from truque_env.cards import NUM_CARDS

# ----------------------------------------------------------------------------------------------
# juego equity: the race model (reference: _equity, _eq_lottery, _eq_bet)


@njit(cache=True)
def _equity(v, prm, mine, theirs):
    na = v[V_TARGET] - mine
    nb = v[V_TARGET] - theirs
    if na <= 0:
        return 1.0
    if nb <= 0:
        return 0.0
    g = prm[P_EQUITY_EXPONENT]
    x = (nb * prm[P_SKILL_EDGE]) ** g
    return x / (x + float(na) ** g)


@njit(cache=True)
def _eq1(v, prm, p, g, t):
    """Equity of the lottery [(p, our chinas g, their chinas t)] (the twin's sum, in its order)."""
    return p * _equity(v, prm, v[V_MINE] + g, v[V_THEIRS] + t)


@njit(cache=True)
def _eq_bet(v, prm, p, stake):
    """Equity of a bet of ``stake`` chinas accepted and won with probability ``p``."""
    return _eq1(v, prm, p, stake, 0) + _eq1(v, prm, 1 - p, 0, stake)


# ----------------------------------------------------------------------------------------------
# pares and flor: who shows the best value (reference: _value_entries, _team_best_prob)


@njit(cache=True)
def _pairwise_sum(a, n):
    """numpy's sum of ``a[:n]`` (its pairwise summation, for n <= 128), bit for bit."""
    if n < 8:
        res = 0.0
        for i in range(n):
            res += a[i]
        return res
    if n > 128:
        raise ValueError("_pairwise_sum: n > 128")
    r0, r1, r2, r3, r4, r5, r6, r7 = a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]
    i = 8
    while i < n - (n % 8):
        r0 += a[i]
        r1 += a[i + 1]
        r2 += a[i + 2]
        r3 += a[i + 3]
        r4 += a[i + 4]
        r5 += a[i + 5]
        r6 += a[i + 6]
        r7 += a[i + 7]
        i += 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < n:
        res += a[i]
        i += 1
    return res


@njit(cache=True)
def _excluded_for(v, r):
    """Cards seat r cannot hold: mine and every card known to be elsewhere."""
    out = v[V_DEALT_BITS]
    for q in range(1, v[V_N]):
        if q != r:
            out |= v[V_KNOWN_BITS + q]
    return out


@njit(cache=True)
def _seat_pmf(v, prm, flor, r, out):
    """Fill ``out`` with the distribution of seat r's pares (or flor) value; False if no hand fits."""
    values = HAND_FLOR if flor else HAND_PARES
    size = V_FLOR if flor else V_PARES
    sena = -1
    if r % 2 == 0 and prm[P_USE_SENAS] != 0:
        sena = v[V_SENA + r]
    counts, n, counts_sena, n_sena = _seat_counts(values, size, HAND_BITS, HAND_FLOR, HAND_SENA,
                                                  _excluded_for(v, r), v[V_KNOWN_BITS + r], sena, flor)
    if sena >= 0 and n_sena > 0:
        counts, n = counts_sena, n_sena
    if n == 0:
        return False
    for k in range(size):
        out[k] = counts[k] / n
    return True


@njit(cache=True)
def _team_best_prob(pmf, ours, k, size):
    """P(the best value is ours); rows of ``pmf`` in order from mano (ties to the earlier seat)."""
    le = np.empty((k, size))
    lt = np.empty((k, size))
    for j in range(k):
        acc = 0.0
        for x in range(size):
            acc = pmf[j, x] if x == 0 else acc + pmf[j, x]
            le[j, x] = acc
            lt[j, x] = acc - pmf[j, x]
    prod = np.empty(size)
    total = 0.0
    for i in range(k):
        if not ours[i]:
            continue
        for x in range(size):
            prod[x] = pmf[i, x]
        for j in range(k):
            if j == i:
                continue
            for x in range(size):
                prod[x] *= lt[j, x] if j < i else le[j, x]
        total += _pairwise_sum(prod, size)
    return total


@njit(cache=True)
def _value_prob(v, prm, flor, seats, k):
    """_team_best_prob over ``seats[:k]`` (relative seats from mano; 0 = me, valued exactly)."""
    size = V_FLOR if flor else V_PARES
    pmf = np.zeros((k, size))
    ours = np.zeros(k, dtype=np.bool_)
    for j in range(k):
        r = seats[j]
        ours[j] = r % 2 == 0
        if r == 0:
            mine = v[V_MY_FLOR] if flor else v[V_MY_PARES]
            pmf[j, min(mine, size - 1)] = 1.0
        elif not _seat_pmf(v, prm, flor, r, pmf[j]):
            for x in range(size):
                pmf[j, x] = 1.0 / size
    return _team_best_prob(pmf, ours, k, size)


@njit(cache=True)
def _from_mano(v, j):
    """The relative seat at offset j from mano."""
    n = v[V_N]
    return (j - v[V_POSITION] + n) % n


@njit(cache=True)
def pares_prob(v, prm):
    """P(a player of my team shows the best pares) among the players still in the mano."""
    seats = np.empty(8, dtype=np.int64)
    k = 0
    for j in range(v[V_N]):
        r = _from_mano(v, j)
        if v[V_IN_MANO + r]:
            seats[k] = r
            k += 1
    return _value_prob(v, prm, False, seats, k)


@njit(cache=True)
def flor_prob(v, prm):
    """P(my team's best sung flor beats the rivals' sung flores); I count as a singer."""
    seats = np.empty(8, dtype=np.int64)
    k = 0
    rival = False
    for j in range(v[V_N]):
        r = _from_mano(v, j)
        if v[V_IN_MANO + r] and (r == 0 or v[V_SANG + r]):
            seats[k] = r
            k += 1
            rival = rival or r % 2 == 1
    if not rival:
        return 1.0
    return _value_prob(v, prm, True, seats, k)


@njit(cache=True)
def _flor_prob_of_seat(v, r):
    """P(seat r holds flor) from what the bot knows."""
    counts, n, _, _ = _seat_counts(HAND_FLOR, V_FLOR, HAND_BITS, HAND_FLOR, HAND_SENA, _excluded_for(v, r),
                                   v[V_KNOWN_BITS + r], -1, False)
    if n == 0:
        return 0.0
    return 1.0 - counts[0] / n


@njit(cache=True)
def _flor_vs_rivals(v, prm, first_rival):
    """P(my flor beats one rival flor) (the first rival in the mano; -1: none)."""
    if first_rival < 0:
        return 1.0
    seats = np.empty(2, dtype=np.int64)
    k = 0
    for j in range(v[V_N]):
        r = _from_mano(v, j)
        if r == 0 or r == first_rival:
            seats[k] = r
            k += 1
    return _value_prob(v, prm, True, seats, k)


@njit(cache=True)
def _first_rival_in_mano(v):
    for r in range(1, v[V_N], 2):
        if v[V_IN_MANO + r]:
            return r
    return -1


# ----------------------------------------------------------------------------------------------
# the truque: bazas, leaders, the simulation (reference: truco_by_card, leader, _turn_holder)


@njit(cache=True)
def _card_in_baza(v, r, b):
    """The card relative seat r played in baza b, -1 if none (the lowest, were there two)."""
    return _lowest(v[V_PLAYED_BITS + r] & v[V_IN_BAZA + b])


@njit(cache=True)
def _leader(v, b):
    """Relative seat from which baza b is played: mano, or the winner of the previous baza."""
    n = v[V_N]
    mano = (n - v[V_POSITION]) % n
    seat = mano
    for bb in range(1, b + 1):  # the leader of baza bb from the leader of bb - 1
        if v[V_NRES] < bb or v[V_RES + bb - 1] == RES_P:
            seat = mano
            continue
        prev = seat
        team = 0 if v[V_RES + bb - 1] == RES_W else 1
        best = -1
        seat = mano
        for k in range(n):
            r = (prev + k) % n
            c = _card_in_baza(v, r, bb - 1)
            if r % 2 == team and c >= 0 and POWER_NB[c] > best:
                best = POWER_NB[c]
                seat = r
    return seat


@njit(cache=True)
def _turn_holder(v):
    """Relative seat to play next in the current baza (me, unless I am answering a bet)."""
    if v[V_PHASE] != PH_ANSWER:
        return 0
    n = v[V_N]
    lead = _leader(v, v[V_BAZA])
    for k in range(n):
        r = (lead + k) % n
        if v[V_IN_TRUQUE + r] and _card_in_baza(v, r, v[V_BAZA]) < 0:
            return r
    return 0


@njit(cache=True)
def _truco_by_card(v, odds, prm, x):
    """Fill ``odds[k]`` = P(my team wins the truque) if I play ``v[V_CAND + k]`` now (once per row)."""
    if v[V_TBC_DONE]:
        return
    n = v[V_N]
    left = np.zeros(8, dtype=np.int64)
    in_truque = np.zeros(8, dtype=np.int64)
    table = np.full(8, -1, dtype=np.int64)
    known = np.full(8, -1, dtype=np.int64)
    weak = np.zeros(8, dtype=np.int64)
    unseen = v[V_UNSEEN_BITS]
    for r in range(n):
        in_truque[r] = v[V_IN_TRUQUE + r]
        left[r] = v[V_NHAND] if r == 0 else 3 - v[V_NPLAYED + r]
        table[r] = _card_in_baza(v, r, v[V_BAZA])
        if r > 0 and r % 2 == 0 and prm[P_USE_SENAS] != 0:
            sena = v[V_SENA + r]
            if 0 <= sena < _SENA_CARDS.shape[0] and (unseen >> _SENA_CARDS[sena]) & 1:
                known[r] = _SENA_CARDS[sena]
            weak[r] = 1 if sena == SENA_FLOR or sena == SENA_CIEGA else 0
    held = np.int64(0)
    for r in range(8):
        if known[r] >= 0:
            held |= np.int64(1) << known[r]
    pool_bits = unseen & ~held
    npool = 0
    for c in range(NUM_CARDS):
        npool += (pool_bits >> c) & 1
    pool = np.empty(npool, dtype=np.int64)
    k = 0
    for c in range(NUM_CARDS):
        if (pool_bits >> c) & 1:
            pool[k] = c
            k += 1
    results = np.full(3, -1, dtype=np.int64)
    for b in range(v[V_NRES]):
        results[b] = v[V_RES + b]
    turn = _turn_holder(v)
    mano = (n - v[V_POSITION]) % n
    seed = np.int64(x >> np.uint64(2))
    v[V_DREW] = 1
    nh = v[V_NHAND]
    hand = np.empty(nh, dtype=np.int64)
    for i in range(nh):
        hand[i] = v[V_HAND + i]
    if table[0] >= 0 or nh == 0:
        cands = np.full(1, -1, dtype=np.int64)
    else:
        cands = hand.copy()
    out = simulate_truque_cards(n, hand, left, in_truque, table, known, weak, pool, results, v[V_BAZA], turn,
                                mano, cands, np.int64(prm[P_SAMPLES]), seed)
    v[V_NCAND] = cands.shape[0]
    for i in range(cands.shape[0]):
        v[V_CAND + i] = cands[i]
        odds[i] = out[i]
    v[V_TBC_DONE] = 1


@njit(cache=True)
def _odds_of(v, odds, card):
    """odds of ``card`` among the simulated candidates; NaN when it was not one (an internal error)."""
    for i in range(v[V_NCAND]):
        if v[V_CAND + i] == card:
            return odds[i]
    return np.nan


@njit(cache=True)
def truco_prob(v, odds, prm, x):
    """P(my team wins the truque) from here: decided by the bazas, else the best card's odds."""
    d = _result_of(v[V_RES:V_RES + 3], v[V_NRES])
    if d == 1:
        return 1.0
    if d == 0:
        return 0.0
    if d == 2:
        return 0.5
    _truco_by_card(v, odds, prm, x)
    best = odds[0]
    for i in range(1, v[V_NCAND]):
        if odds[i] > best:
            best = odds[i]
    return best

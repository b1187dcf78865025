"""The Moteño heuristic's decisions as numba kernels over a batch of observations (``decide_batch``).

Part of the Moteño heuristic (``agents.heuristic``; the bot is described there). This is the
fast form of ``reference.py``, the readable twin it must agree with decision for decision:
the same reading of the observation, the same probabilities computed in the same floating-point
order (numpy's pairwise sum included), the same draws. ``tests/agents/test_heuristic_golden.py``
replays the recorded trace through it, and ``tests/agents/test_heuristic_kernels.py`` compares
it with the twin on fresh games.

One row's reading lives in ``v`` (int64, the ``V_*`` offsets below): the small fields, and the
cards as 40-bit sets (bit c = card c) per seat, which is all the card logic needs. Seats are
relative (0 = me, even = my team), as in the observation.

Draws: a row takes at most one 64-bit draw ``x``: in the blind round a uniform ``(x >> 11) / 2**53``,
elsewhere the seed ``x >> 2`` of the truque simulation (at most one per row; later reads reuse
it). Rows with decision keys draw from their key (in parallel); rows without take the policy
generator's next output, in row order (``decide_batch_sequential``).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from agents.heuristic.hands import (
    HAND_BITS,
    HAND_FLOR,
    HAND_PARES,
    HAND_SENA,
    POWER_NB,
    SENA_CARDS,
    SENA_CIEGA,
    SENA_DOS,
    SENA_FLOR,
    SENA_TRES,
    TOP_POWER,
    V_FLOR,
    V_PARES,
    _seat_counts,
)
from agents.heuristic.simulation import _result_of, simulate_truque_cards
from truque_env.cards import CARD_RANK, NUM_CARDS
from truque_env.engine.rng import mix64
from truque_env.traditions.moteno import actions as A
from truque_env.traditions.moteno import observation as O
from truque_env.traditions.moteno import rules as M

# ----------------------------------------------------------------------------------------------
# parameters: HeuristicConfig's fields in their order (``config.HeuristicConfig.as_array``)

(P_SENA_RATE, P_USE_SENAS, P_PARES_BET, P_PARES_RAISE, P_PARES_FALTA, P_FLOR_BET, P_FLOR_RAISE,
 P_FLOR_FALTA, P_HIDE_RESERVADA, P_TRUCO_CHALLENGE, P_TRUCO_RAISE, P_RESPECT, P_DEFER,
 P_ACCEPT_MARGIN, P_EQUITY_EXPONENT, P_SKILL_EDGE, P_HOLD, P_LOOKAHEAD, P_LOOKAHEAD_MARGIN,
 P_SAMPLES, P_BLUFF_ENVITE, P_BLUFF_TRUCO, P_BLIND_ENVITE, P_BLIND_ENVITE_PARES, P_BLIND_TRUCO) = range(25)
NUM_PARAMS = 25

INTERNAL_ERROR = -2  # a row the kernel could not decide (the twin would raise): see policy.py

# ----------------------------------------------------------------------------------------------
# observation offsets (compile-time constants)

_HAND = O.O_HAND
_PLAYED_BY = O.O_PLAYED_BY
_PLAYED_IN = O.O_PLAYED_IN
_REVEALED = O.O_REVEALED
_PHASE = O.O_PHASE
_POSITION = O.O_POSITION
_TEAM_SIZE = O.O_TEAM_SIZE
_BAZA = O.O_BAZA
_BAZA_RESULT = O.O_BAZA_RESULT
_SCORE = O.O_SCORE
_TARGET = O.P_TARGET
_FALTA = O.P_FALTA
_JUEGOS_MINE = O.P_JUEGOS_MINE
_JUEGOS_RIVAL = O.P_JUEGOS_RIVAL
_BARAJA = O.PARTS["seat_flags.baraja"][0]
_NO_VALE = O.PARTS["seat_flags.no_vale"][0]
_SANG = O.PARTS["seat_flags.sang"][0]
_PARES_STATE = O.P_PARES_STATE
_PARES_STAKE = O.P_PARES_STAKE
_PARES_PREV = O.P_PARES_PREV
_PARES_RAISER = O.P_PARES_RAISER
_TRUCO_LEVEL = O.P_TRUCO_LEVEL
_TRUCO_RAISER = O.P_TRUCO_RAISER
_FLOR_STAKE = O.P_FLOR_STAKE
_FLOR_PREV = O.P_FLOR_PREV
_FLOR_RAISER = O.P_FLOR_RAISER
_EX_KIND = O.P_EX_KIND
_EX_STANDING = O.P_EX_STANDING
_EX_BLIND = O.P_EX_BLIND
_SENAS = O.O_SENAS
_SENAS_LEFT = O.O_SENAS_LEFT
_NUM_SENAS = A.NUM_SENAS

# phases (view.PH_NAMES), exchange kinds and standing answers (view.EX_*, view.ANS_*)
PH_BLIND, PH_CLOSE, PH_CANTE, PH_PLAY, PH_FLOR_ROUND, PH_FLOR_ENVITE, PH_ANSWER, PH_DONE, PH_RESERVADA = range(9)
EX_NONE, EX_PARES, EX_TRUCO, EX_FLORES, EX_FALTA = range(5)
ANS_NONE, ANS_LUEGO, ANS_NO, ANS_QUIERO, ANS_RAISE = range(5)
RES_W, RES_L, RES_P = 0, 1, 2

_SENA_CARDS = np.array(SENA_CARDS, dtype=np.int64)
_CARD_RANK = CARD_RANK.astype(np.int64)
_ALL_CARDS = (1 << NUM_CARDS) - 1

# ----------------------------------------------------------------------------------------------
# one row's reading: v[V_*]

(V_PHASE, V_TEAM_SIZE, V_N, V_POSITION, V_BAZA, V_MINE, V_THEIRS, V_TARGET, V_FALTA, V_EX_KIND,
 V_EX_STANDING, V_EX_BLIND, V_JUEGOS_MINE, V_JUEGOS_RIVAL, V_MY_SENAS, V_SENAS_LEFT, V_PARES_RAISER,
 V_TRUCO_RAISER, V_FLOR_RAISER, V_PARES_STAKE, V_PARES_PREV, V_FLOR_STAKE, V_FLOR_PREV, V_TRUCO_LEVEL,
 V_PARES_STATE, V_NRES, V_HAND_BITS, V_DEALT_BITS, V_NHAND, V_NDEALT, V_MY_PARES, V_MY_FLOR,
 V_MY_RESERVADA, V_UNSEEN_BITS, V_TBC_DONE, V_DREW, V_NCAND) = range(37)
V_RES = 37  # 3: baza results (RES_*)
V_DEALT = 40  # 3: my dealt cards, ascending
V_HAND = 43  # 3: my cards not yet played, ascending
V_CAND = 46  # 3: the cards the truque simulation was run for (-1: none, I have played here)
V_PLAYED_BITS = 49  # 8 per seat: cards played
V_KNOWN_BITS = 57  # 8: cards played or seen face up
V_NPLAYED = 65  # 8
V_IN_BAZA = 73  # 3 per baza: cards played in it
V_IN_MANO = 76  # 8
V_IN_TRUQUE = 84  # 8
V_SANG = 92  # 8
V_SENA = 100  # 8: the first seña seen of each seat, -1 if none
V_SIZE = 108


@njit(cache=True, inline="always")
def _onehot(obs, off, width):
    """Index of the first maximum of ``obs[off:off + width]``, -1 if that maximum is 0."""
    best = 0
    m = obs[off]
    for k in range(1, width):
        if obs[off + k] > m:
            m = obs[off + k]
            best = k
    return best if m != 0 else -1


@njit(cache=True, inline="always")
def _bits_of_row(obs, off):
    out = np.int64(0)
    for c in range(NUM_CARDS):
        if obs[off + c] != 0:
            out |= np.int64(1) << c
    return out


@njit(cache=True, inline="always")
def _lowest(bits):
    """The lowest card of a 40-bit set, -1 if empty."""
    for c in range(NUM_CARDS):
        if (bits >> c) & 1:
            return c
    return -1


@njit(cache=True)
def _read(obs, v):
    """Fill ``v`` from one observation (view.View, field by field)."""
    phase = _onehot(obs, _PHASE, 9)
    v[V_PHASE] = phase if phase >= 0 else PH_RESERVADA  # the twin reads PH_NAMES[-1]
    v[V_TEAM_SIZE] = _onehot(obs, _TEAM_SIZE, 4) + 1
    n = 2 * v[V_TEAM_SIZE]
    v[V_N] = n
    v[V_POSITION] = max(0, _onehot(obs, _POSITION, 8))
    v[V_BAZA] = max(0, _onehot(obs, _BAZA, 3))
    hand = _bits_of_row(obs, _HAND)
    played0 = _bits_of_row(obs, _PLAYED_BY)
    dealt = hand | played0
    v[V_HAND_BITS] = hand
    v[V_DEALT_BITS] = dealt
    nh = 0
    nd = 0
    for c in range(NUM_CARDS):
        if (hand >> c) & 1:
            v[V_HAND + nh] = c
            nh += 1
        if (dealt >> c) & 1:
            if nd < 3:
                v[V_DEALT + nd] = c
            nd += 1
    v[V_NHAND] = nh
    v[V_NDEALT] = nd
    for r in range(8):
        pb = _bits_of_row(obs, _PLAYED_BY + NUM_CARDS * r)
        rv = _bits_of_row(obs, _REVEALED + NUM_CARDS * r)
        v[V_PLAYED_BITS + r] = pb
        v[V_KNOWN_BITS + r] = pb | rv
        cnt = 0
        for c in range(NUM_CARDS):
            cnt += (pb >> c) & 1
        v[V_NPLAYED + r] = cnt
        v[V_IN_MANO + r] = 1 if obs[_BARAJA + r] == 0 else 0
        v[V_IN_TRUQUE + r] = 1 if obs[_BARAJA + r] == 0 and obs[_NO_VALE + r] == 0 else 0
        v[V_SANG + r] = 1 if obs[_SANG + r] == 1 else 0
        first = -1
        for k in range(_NUM_SENAS):
            if obs[_SENAS + _NUM_SENAS * r + k] != 0:
                first = k
                break
        v[V_SENA + r] = first
    for b in range(3):
        v[V_IN_BAZA + b] = _bits_of_row(obs, _PLAYED_IN + NUM_CARDS * b)
    mine = np.int64(obs[_SCORE])
    theirs = np.int64(obs[_SCORE + 1])
    v[V_MINE] = mine
    v[V_THEIRS] = theirs
    target = np.int64(obs[_TARGET])
    falta = np.int64(obs[_FALTA])
    if target <= 0:
        target = 30
    if falta <= 0:
        falta = max(1, target - max(mine, theirs))
    v[V_TARGET] = target
    v[V_FALTA] = falta
    v[V_EX_KIND] = _onehot(obs, _EX_KIND, 5)
    v[V_EX_STANDING] = _onehot(obs, _EX_STANDING, 5)
    v[V_EX_BLIND] = obs[_EX_BLIND]
    v[V_JUEGOS_MINE] = obs[_JUEGOS_MINE]
    v[V_JUEGOS_RIVAL] = obs[_JUEGOS_RIVAL]
    s = 0
    for k in range(_NUM_SENAS):
        s += obs[_SENAS + k]
    v[V_MY_SENAS] = s
    v[V_SENAS_LEFT] = obs[_SENAS_LEFT]
    v[V_PARES_RAISER] = _onehot(obs, _PARES_RAISER, 8)
    v[V_TRUCO_RAISER] = _onehot(obs, _TRUCO_RAISER, 8)
    v[V_FLOR_RAISER] = _onehot(obs, _FLOR_RAISER, 8)
    st = np.int64(obs[_PARES_STAKE])
    v[V_PARES_STAKE] = falta if st == 16 else 2 * st
    st = np.int64(obs[_PARES_PREV])
    v[V_PARES_PREV] = falta if st == 16 else 2 * st
    st = np.int64(obs[_FLOR_STAKE])
    v[V_FLOR_STAKE] = falta if st == 11 else 3 * st
    st = np.int64(obs[_FLOR_PREV])
    v[V_FLOR_PREV] = falta if st == 11 else 3 * st
    v[V_TRUCO_LEVEL] = max(0, _onehot(obs, _TRUCO_LEVEL, 4))
    v[V_PARES_STATE] = _onehot(obs, _PARES_STATE, 5)
    nres = 0
    for b in range(3):
        row = _BAZA_RESULT + 3 * b
        if obs[row] != 0:
            v[V_RES + b] = RES_W
        elif obs[row + 1] != 0:
            v[V_RES + b] = RES_L
        elif obs[row + 2] != 0:
            v[V_RES + b] = RES_P
        else:
            break
        nres += 1
    v[V_NRES] = nres
    if nd == 3:
        a, b, c = v[V_DEALT], v[V_DEALT + 1], v[V_DEALT + 2]
        v[V_MY_PARES] = M.pares_value_nb(a, b, c)
        v[V_MY_FLOR] = M.flor_value_nb(a, b, c)
        v[V_MY_RESERVADA] = 1 if M.is_reservada_nb(a, b, c) else 0
    else:
        v[V_MY_PARES] = 0
        v[V_MY_FLOR] = 0
        v[V_MY_RESERVADA] = 0
    seen = dealt
    for r in range(1, n):
        seen |= v[V_KNOWN_BITS + r]
    v[V_UNSEEN_BITS] = _ALL_CARDS & ~seen
    v[V_TBC_DONE] = 0
    v[V_DREW] = 0
    v[V_NCAND] = 0


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


# ----------------------------------------------------------------------------------------------
# the blind round, the cante and the flores (reference: _blind, _cante, _flor_round, ...)


@njit(cache=True)
def _blind(v, mask, prm, x):
    if mask[A.LUEGO]:
        return A.LUEGO  # 7.2, 15.2: answer once the cards are seen
    kind = v[V_EX_KIND]
    if kind != EX_NONE and kind != -1 and mask[A.PASO]:
        return A.PASO  # a partner already answered (or deferred) this blind bet
    if kind != EX_NONE and kind != -1:
        return A.NO_QUIERO if mask[A.NO_QUIERO] else -1
    v[V_DREW] = 1
    u = float(x >> np.uint64(11)) / 9007199254740992.0
    envite = A.PARES_BASE + np.int64(prm[P_BLIND_ENVITE_PARES]) - 1
    if u < prm[P_BLIND_ENVITE] and mask[envite]:
        return envite
    if u < prm[P_BLIND_ENVITE] + prm[P_BLIND_TRUCO] and mask[A.TRUCO]:
        return A.TRUCO
    return A.PASO


@njit(cache=True)
def _wants_to_sing(v, prm):
    if v[V_MY_FLOR] <= 0:
        return False
    return not (v[V_MY_RESERVADA] and prm[P_HIDE_RESERVADA] != 0)


@njit(cache=True)
def _flor_envite(v, mask, prm):
    """Speak in the envite de flores (Art. 11.3): bet with a strong flor, else pass."""
    if not v[V_SANG]:
        return A.PASO
    p = flor_prob(v, prm)
    us, them = _flores_counts(v)
    table = 3 * (us + them)
    falta = v[V_FALTA]
    if p < prm[P_FLOR_BET]:
        return A.PASO
    best = A.PASO
    best_eq = -1.0
    for j in range(3):
        if j == 0:
            a, chinas = A.FLORES_BASE, 3
        elif j == 1:
            if p < prm[P_FLOR_RAISE]:
                continue
            a, chinas = A.FLORES_BASE + 1, 6
        else:
            if p < prm[P_FLOR_FALTA]:
                continue
            a, chinas = A.FALTA, falta
        if not mask[a]:
            continue
        eq = _eq_bet(v, prm, p, table + min(chinas, falta))
        if eq > best_eq:
            best, best_eq = a, eq
    return best


@njit(cache=True)
def _reservada(v, mask, prm):
    """12.13: sing the reservada at the end if it likely beats their flor."""
    first = _first_rival_in_mano(v)
    pf = _flor_vs_rivals(v, prm, first) if first >= 0 else 1.0
    F = v[V_FALTA]
    eq_sing = _eq_bet(v, prm, pf, 6 + F)
    eq_pass = _eq1(v, prm, 1.0, 0, 3)
    return A.FLOR if eq_sing > eq_pass and mask[A.FLOR] else A.PASO


# ----------------------------------------------------------------------------------------------
# play: flor, envite, truco, the card (reference: _play and below)


@njit(cache=True)
def _envite(v, mask, prm, salt):
    """Open the envite de pares (Art. 6) by P(team wins), a falso now and then (17.13)."""
    if not mask[A.PARES_BASE]:
        return -1
    if v[V_MY_FLOR] > 0 and _wants_to_sing(v, prm) and mask[A.FLOR]:
        return -1
    p = pares_prob(v, prm)
    if p < prm[P_PARES_BET]:
        if _coin(v, salt, 2) < prm[P_BLUFF_ENVITE]:
            return A.PARES_BASE  # envío 1 par, de falso
        return -1
    falta = v[V_FALTA]
    best = -1
    best_eq = -1.0
    for j in range(3):
        if j == 0:
            a, chinas = A.PARES_BASE, 2
        elif j == 1:
            if p < prm[P_PARES_RAISE]:
                continue
            a, chinas = A.PARES_BASE + 2, min(6, falta)
        else:
            if not (p >= prm[P_PARES_FALTA] and mask[A.FALTA]):
                continue
            a, chinas = A.FALTA, falta
        eq = _eq_bet(v, prm, p, chinas)
        if mask[a] and eq > best_eq:
            best, best_eq = a, eq
    return best


@njit(cache=True)
def _challenge(v, mask, prm, salt, odds, x):
    """Truco / retruco / panueve (Art. 14) when the truque looks won, or de falso."""
    if mask[A.TRUCO]:
        action = A.TRUCO
    elif mask[A.RETRUCO]:
        action = A.RETRUCO
    elif mask[A.PANUEVE]:
        action = A.PANUEVE
    else:
        return -1
    if action == A.TRUCO and v[V_BAZA] == 0 and mask[A.FLOR] and v[V_MY_FLOR] > 0:
        return -1  # 6.13, 10.12: talk pares and flores before challenging
    p = truco_prob(v, odds, prm, x)
    if action == A.TRUCO:
        if p >= prm[P_TRUCO_CHALLENGE]:
            return action
        if p < 0.5 and _coin(v, salt, 3) < prm[P_BLUFF_TRUCO]:
            return action
        return -1
    return action if p >= prm[P_TRUCO_RAISE] else -1


@njit(cache=True)
def _holds(power, cdf, rivals_left, nr):
    """P(a card of ``power`` holds against the rivals still to play, with their cards left)."""
    p = 1.0
    for i in range(nr):
        p *= cdf[power] ** float(rivals_left[i])
    return p


@njit(cache=True)
def _better(a, b):
    """Card a before card b in the order (power, card)."""
    return POWER_NB[a] < POWER_NB[b] or (POWER_NB[a] == POWER_NB[b] and a < b)


@njit(cache=True)
def _rule_card(v, prm, cards, nc):
    """Win cheaply, else throw the lowest; don't overtake a partner; keep the top for last.
    ``cards`` comes sorted by (power, card)."""
    if nc == 1:
        return cards[0]
    n = v[V_N]
    b = v[V_BAZA]
    ours_best = 0
    theirs_best = 0
    rivals_left = np.empty(8, dtype=np.int64)
    nr = 0
    partners_after = 0
    for r in range(1, n):
        if not v[V_IN_TRUQUE + r]:
            continue
        c = _card_in_baza(v, r, b)
        if c >= 0:
            if r % 2 == 0:
                ours_best = max(ours_best, POWER_NB[c])
            else:
                theirs_best = max(theirs_best, POWER_NB[c])
        elif r % 2 == 0:
            partners_after += 1
        else:
            rivals_left[nr] = 3 - v[V_NPLAYED + r]
            nr += 1
    # the level cdf of an unseen card: P(power <= x), x = 0..17
    cdf = np.ones(18)
    unseen = v[V_UNSEEN_BITS]
    if unseen != 0:
        counts = np.zeros(18, dtype=np.int64)
        total = 0
        for c in range(NUM_CARDS):
            if (unseen >> c) & 1:
                counts[POWER_NB[c]] += 1
                total += 1
        acc = 0
        for x in range(18):
            acc += counts[x]
            cdf[x] = acc / total
    hold = prm[P_HOLD]
    lowest = cards[0]
    if ours_best > theirs_best:
        return lowest  # a partner is winning the baza: don't overtake him
    if theirs_best == 0 and ours_best == 0:  # I lead the baza
        nres = v[V_NRES]
        if b == 1 and nres == 1 and v[V_RES] == RES_W:
            return cards[0]
        if b == 1 and nres == 1 and (v[V_RES] == RES_L or v[V_RES] == RES_P):
            return cards[nc - 1]  # this baza decides (or must be won)
        for i in range(nc):  # the first baza: the cheapest card likely to hold
            c = cards[i]
            if POWER_NB[c] < TOP_POWER and _holds(POWER_NB[c], cdf, rivals_left, nr) >= hold:
                return c
        top = cards[nc - 1]
        return top if _holds(POWER_NB[top], cdf, rivals_left, nr) >= hold else cards[0]
    first_beating = -1
    last_beating = -1
    for i in range(nc):
        c = cards[i]
        if POWER_NB[c] > theirs_best:
            if first_beating < 0:
                first_beating = c
            last_beating = c
            if _holds(POWER_NB[c], cdf, rivals_left, nr) >= hold:
                return c
    if first_beating >= 0:
        if nr == 0:
            return first_beating
        if partners_after == 0:
            return last_beating  # the best chance of the team, it is on me
        return lowest
    useless_parda = v[V_NRES] >= 1 and v[V_RES] == RES_L and b >= 1  # a parda now leaves the truque to them
    if partners_after == 0 and not useless_parda:
        for i in range(nc):
            if POWER_NB[cards[i]] == theirs_best:
                return cards[i]  # parda rather than a lost baza (after winning the first: a win)
    return lowest


@njit(cache=True)
def _choose_card(v, prm, cards, nc, odds, x):
    """The rules' card, unless the look-ahead finds a card clearly better for the truque."""
    rule = _rule_card(v, prm, cards, nc)
    if nc == 1 or prm[P_LOOKAHEAD] == 0:
        return rule
    _truco_by_card(v, odds, prm, x)
    best = -1.0
    for i in range(nc):
        o = _odds_of(v, odds, cards[i])
        if np.isnan(o):
            return INTERNAL_ERROR
        if i == 0 or o > best:
            best = o
    margin = prm[P_LOOKAHEAD_MARGIN]
    if best <= _odds_of(v, odds, rule) + margin:
        return rule
    pick = -1
    for i in range(nc):  # cards are in (power, card) order: the first good one is the cheapest
        if _odds_of(v, odds, cards[i]) >= best - margin:
            pick = cards[i]
            break
    return pick


@njit(cache=True)
def _play(v, mask, prm, salt, odds, x):
    if mask[A.DE_LA_MIA]:
        return A.DE_LA_MIA  # 12.8: declare the flor against "con flor, no quiero"
    if mask[A.FLOR] and _wants_to_sing(v, prm):
        sing = True
        if v[V_PARES_STATE] == 3:  # an accepted envite: singing voids it (6.8, 10.5)
            p = pares_prob(v, prm)
            stake = min(v[V_PARES_STAKE], v[V_FALTA])
            sing = 3 >= (2 * p - 1) * stake
        if sing:
            return A.FLOR
    a = _envite(v, mask, prm, salt)
    if a >= 0:
        return a
    a = _challenge(v, mask, prm, salt, odds, x)
    if a >= 0:
        return a
    cards = np.empty(3, dtype=np.int64)
    nc = 0
    for i in range(v[V_NHAND]):
        c = v[V_HAND + i]
        if mask[A.PLAY_BASE + c]:
            # insert in (power, card) order
            j = nc
            while j > 0 and _better(c, cards[j - 1]):
                cards[j] = cards[j - 1]
                j -= 1
            cards[j] = c
            nc += 1
    if nc == 0:
        return A.PASO if mask[A.PASO] else -1  # 14.10: the truque is over, cards face up
    c = _choose_card(v, prm, cards, nc, odds, x)
    if c < 0:
        return c
    return A.PLAY_BASE + c


# ----------------------------------------------------------------------------------------------
# one row, and the batch


@njit(cache=True)
def _fallback(mask):
    """A safe legal action: pass, refuse, sing pares, the lowest card; never leave the mano."""
    for a in (A.PASO, A.CANTO_PARES, A.NO_QUIERO, A.QUIERO):
        if mask[a]:
            return a
    best = -1
    for c in range(NUM_CARDS):
        if mask[A.PLAY_BASE + c] and (best < 0 or POWER_NB[c] < POWER_NB[best]):
            best = c
    if best >= 0:
        return A.PLAY_BASE + best
    for a in range(A.SENA_BASE):
        if mask[a] and a != A.BARAJA and a != A.NO_VALE:
            return a
    for a in range(mask.shape[0]):
        if mask[a]:
            return a
    return -1


@njit(cache=True)
def _decide(v, mask, prm, salt, odds, x):
    phase = v[V_PHASE]
    if phase == PH_BLIND:
        return _blind(v, mask, prm, x)
    a = _sena(v, mask, prm, salt)
    if a >= 0:
        return a
    if phase == PH_ANSWER:
        return _answer(v, mask, prm, odds, x)
    if phase == PH_CANTE:
        return A.FLOR if mask[A.FLOR] and _wants_to_sing(v, prm) else A.CANTO_PARES
    if phase == PH_FLOR_ROUND:
        # somebody sang: the pares are void (10.5), so a reservada is sung too (10.16)
        return A.FLOR if mask[A.FLOR] and v[V_MY_FLOR] > 0 else A.PASO
    if phase == PH_FLOR_ENVITE:
        return _flor_envite(v, mask, prm)
    if phase == PH_RESERVADA:
        return _reservada(v, mask, prm)
    if phase == PH_PLAY:
        return _play(v, mask, prm, salt, odds, x)
    return -1


@njit(cache=True)
def _decide_row(obs, mask, prm, salt, x, v, odds):
    """(action, whether the row took its draw ``x``)."""
    _read(obs, v)
    if v[V_N] == 0:  # no team size: the twin divides by zero
        return INTERNAL_ERROR, False
    a = _decide(v, mask, prm, salt, odds, x)
    if a == INTERNAL_ERROR:
        return a, v[V_DREW] != 0
    if a < 0 or a >= mask.shape[0] or mask[a] == 0:
        a = _fallback(mask)
    return a, v[V_DREW] != 0


@njit(cache=True)
def decide_batch_sequential(obs, masks, prm, salt, raw, out):
    """Every row in order, row i taking the next unused value of ``raw`` when it draws (the
    generator's stream, as the twin draws it); returns how many values were used."""
    v = np.zeros(V_SIZE, dtype=np.int64)
    odds = np.zeros(3)
    used = 0
    for i in range(obs.shape[0]):
        x = raw[used] if used < raw.shape[0] else np.uint64(0)
        a, drew = _decide_row(obs[i], masks[i], prm, salt, x, v, odds)
        out[i] = a
        if drew:
            used += 1
    return used


_KEY_DRAW = np.uint64(0x5EED0000 + 1)  # the twin's first keyed draw (reference._keyed_bits)


@njit(cache=True, parallel=True)
def decide_batch_keyed(obs, masks, prm, salt, keys, out):
    """Every row in parallel, a row's draw coming from its decision key."""
    for i in prange(obs.shape[0]):
        v = np.zeros(V_SIZE, dtype=np.int64)
        odds = np.zeros(3)
        x = mix64(keys[i] ^ mix64(_KEY_DRAW))
        a, _ = _decide_row(obs[i], masks[i], prm, salt, x, v, odds)
        out[i] = a

"""The Moteño heuristic's kernels, part 1: one row of the observation read into ``v`` (numba).

Part of the Moteño heuristic (``agents.heuristic``; the bot is described there). The kernels are
the fast form of ``reference.py``, the readable twin they must agree with decision for decision:
the same reading of the observation, the same probabilities computed in the same floating-point
order (numpy's pairwise sum included), the same draws. ``tests/agents/test_heuristic_golden.py``
replays the recorded trace through them, and ``tests/agents/test_heuristic_kernels.py`` compares
them with the twin on fresh games. The four modules, in the order they build on each other:
this one (the layout of ``v`` and ``_read``), ``odds.py`` (the race model and the chances of the
pares, the flor and the truque), ``answers.py`` (the per-mano coins, the seña, the answers to a
bet) and ``kernels.py`` (the calls and the card, one row and the batch).

One row's reading lives in ``v`` (int64, the ``V_*`` offsets below): the small fields, and the
cards as 40-bit sets (bit c = card c) per seat, which is all the card logic needs. Seats are
relative (0 = me, even = my team), as in the observation.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from agents.heuristic.hands import SENA_CARDS
from truque_env.cards import CARD_RANK, NUM_CARDS
from truque_env.traditions.moteno import actions as A
from truque_env.traditions.moteno import observation as O
from truque_env.traditions.moteno import rules as M

# ----------------------------------------------------------------------------------------------
# parameters: HeuristicConfig's fields in their order (``config.HeuristicConfig.as_array``)

(P_SENA_RATE, P_USE_SENAS, P_PARES_BET, P_PARES_RAISE, P_PARES_FALTA, P_FLOR_BET, P_FLOR_RAISE,
 P_FLOR_FALTA, P_HIDE_RESERVADA, P_TRUCO_CHALLENGE, P_TRUCO_RAISE, P_RESPECT, P_DEFER,
 P_ACCEPT_MARGIN, P_EQUITY_EXPONENT, P_SKILL_EDGE, P_HOLD, P_LOOKAHEAD, P_LOOKAHEAD_MARGIN,
 P_SAMPLES, P_BLUFF_ENVITE, P_BLUFF_TRUCO, P_BLIND_ENVITE, P_BLIND_ENVITE_PARES, P_BLIND_TRUCO,
 P_BLUFF_ENVITE_PARES) = range(26)
NUM_PARAMS = 26

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

# phases (view.PH_NAMES; the exchange kinds and standing answers are view.EX_*, view.ANS_*)
PH_BLIND, PH_CLOSE, PH_CANTE, PH_PLAY, PH_FLOR_ROUND, PH_FLOR_ENVITE, PH_ANSWER, PH_DONE, PH_RESERVADA = range(9)
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

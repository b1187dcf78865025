"""The abstraction of the 1 contra 1 MCCFR for truco argentino: information-set keys and
abstract actions, read only from the acting seat's observation
(``truque_env.traditions.argentino.observation``) and the engine's legal mask, as the Moteño
abstraction (``agents.cfr_abstraction``) is for Moteño.

**Information-set key** (``infoset_key(obs)``, ``int64``, never 0): a 64-bit hash of

* the cards: while the envido can still be played or answered (the first baza, the envido not
  closed) the **envido bucket** of the dealt hand (A19: ``<=7, 20-23, 24-26, 27-28, 29-30,
  31-33``) or, with a flor (A6), the **flor bucket** (``<=27, 28-31, 32+``); afterwards only
  "seen"; and the **truco power** of the held cards (ruling A3) in 5 classes (cuatros to sietes
  falsos / figuras / ases falsos and doses / treses and siete de oros / siete de espadas, anchos),
  sorted (3 coarser classes while the envido is open);
* the score context: each side's distance to the target in 3 buckets (1-2, 3-9, 10+);
* the public history: phase, mano or pie, the baza, each baza's result, the power classes on the
  table, the envido (state, stake bucket 2 / 3 / 4-5 / 6+ / falta, who raised), the truco (state,
  level, who raised, who may raise), the flor (state, level, who raised), todo dicho (state, who
  said it), uno y uno's state, the exchange being answered.

**Abstract actions** (21): each legal exactly when the engine action ``amap`` names is:

====  ======================================================================================
0-12  paso, quiero, no quiero, todo dicho, flor, con flor me achico, con flor quiero, con flor
      no quiero, contraflor, contraflor al resto, envido, real envido, falta envido
13    envido y truco (the envido of 2 with the truco; the real and falta forms are outside)
14    sin ley quiero y paso
15    sin ley paso y quiero
16    truco, retruco or vale cuatro: whichever is legal (at most one is)
17    play low: the held card of lowest power (two or three held)
18    play middle (three held)
19    play high (one held: that card)
20    envido y quiero retruco / vale cuatro (the smallest double answer)
====  ======================================================================================

Outside the abstraction (never chosen, never substituted): me voy al mazo, uno y uno, the other
double calls and answers, the señas.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from agents.cfr_abstraction import (  # readers of one-hot slices, the same for every tradition
    _onehot,
    _rel_who,
)
from truque_env.cards import CARD_SUIT
from truque_env.engine.rng import fmix64, mix64
from truque_env.traditions.argentino import actions as A
from truque_env.traditions.argentino import observation as O
from truque_env.traditions.argentino.rules import (
    ENVIDO_CARD_VALUE,
    POWER,
    envido_value_nb,
    flor_value_nb,
)

ABSTRACTION_VERSION = 1
NUM_ABSTRACT = 21
AB_CHALLENGE, AB_PLAY_LOW, AB_PLAY_MID, AB_PLAY_HIGH, AB_DOUBLE_RAISE = 16, 17, 18, 19, 20
ABSTRACT_NAMES = (*A.ACTION_NAMES[: A.ENVIDO_Y_TRUCO + 1], "sin ley quiero y paso", "sin ley paso y quiero",
                  "truco/retruco/vale cuatro", "juego (la más baja)", "juego (la del medio)", "juego (la más alta)",
                  "envido y quiero retruco/vale cuatro")
assert len(ABSTRACT_NAMES) == NUM_ABSTRACT
# the words that map one to one (abstract id -> engine id)
_DIRECT = np.array([*range(A.ENVIDO_Y_TRUCO + 1), A.SIN_LEY_QUIERO_Y_PASO, A.SIN_LEY_PASO_Y_QUIERO], dtype=np.int64)

# power class (0..4) of each truco power 1..14 (index 0 unused)
POWER_CLASS = np.array([0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 3, 3, 4, 4, 4], dtype=np.int64)
NUM_POWER_CLASSES = 5
CARD_CLASS = POWER_CLASS[POWER]
COARSE_CLASS = np.array([0, 0, 1, 2, 2], dtype=np.int64)[CARD_CLASS]
NUM_ENVIDO_BUCKETS = 6
NUM_FLOR_BUCKETS = 3
NUM_DIST_BUCKETS = 3

P_ENV_STATE = O.PARTS["envido.state"][0]
P_ENV_STAKE = O.PARTS["envido.stake"][0]
P_ENV_FALTA = O.PARTS["envido.falta"][0]
P_ENV_RAISER = O.PARTS["envido.raiser"][0]
P_TR_STATE = O.PARTS["truco.state"][0]
P_TR_LEVEL = O.PARTS["truco.level"][0]
P_TR_RAISER = O.PARTS["truco.raiser"][0]
P_TR_MINE = O.PARTS["truco.mine_may_raise"][0]
P_FL_STATE = O.PARTS["flor.state"][0]
P_FL_LEVEL = O.PARTS["flor.level"][0]
P_FL_RAISER = O.PARTS["flor.raiser"][0]
P_TD_STATE = O.PARTS["todo_dicho.state"][0]
P_TD_MINE = O.PARTS["todo_dicho.by_mine"][0]
P_EX_KIND = O.PARTS["exchange.kind"][0]
P_TARGET = O.PARTS["target_falta.target"][0]


@njit(cache=True)
def envido_bucket(v):
    """0..5: <=7, 20-23, 24-26, 27-28, 29-30, 31-33 (A19)."""
    if v <= 7:
        return 0
    if v <= 23:
        return 1
    if v <= 26:
        return 2
    if v <= 28:
        return 3
    if v <= 30:
        return 4
    return 5


@njit(cache=True)
def flor_bucket(v):
    """0..2: <=27, 28-31, 32+ (A6)."""
    if v <= 27:
        return 0
    if v <= 31:
        return 1
    return 2


@njit(cache=True)
def dist_bucket(d):
    if d <= 2:
        return 0
    if d <= 9:
        return 1
    return 2


@njit(cache=True)
def hand_bucket(o):
    """0 unseen, 1..6 the envido bucket, 7..9 the flor bucket of the dealt hand."""
    cards = np.empty(3, dtype=np.int64)
    n = 0
    for c in range(40):
        if o[O.O_HAND + c] != 0 or o[O.O_PLAYED_BY + c] != 0:
            if n < 3:
                cards[n] = c
            n += 1
    if n != 3:
        return np.int64(0)
    f = flor_value_nb(cards[0], cards[1], cards[2], CARD_SUIT, ENVIDO_CARD_VALUE)
    if f > 0:
        return np.int64(1 + NUM_ENVIDO_BUCKETS + flor_bucket(f))
    return np.int64(1 + envido_bucket(envido_value_nb(cards[0], cards[1], cards[2], CARD_SUIT, ENVIDO_CARD_VALUE)))


@njit(cache=True)
def power_code(o, coarse):
    classes = np.zeros(3, dtype=np.int64)
    n = 0
    for c in range(40):
        if o[O.O_HAND + c] != 0 and n < 3:
            classes[n] = COARSE_CLASS[c] if coarse else CARD_CLASS[c]
            n += 1
    for i in range(n):
        for j in range(i + 1, n):
            if classes[j] > classes[i]:
                t = classes[i]
                classes[i] = classes[j]
                classes[j] = t
    pc = np.int64(0)
    for i in range(3):
        pc = pc * (NUM_POWER_CLASSES + 1) + (classes[i] + 1 if i < n else 0)
    return pc


@njit(cache=True)
def _stake_bucket(o):
    """0 none, 1 two, 2 three, 3 four or five, 4 six and up, 5 falta envido."""
    if o[P_ENV_FALTA] != 0:
        return 5
    s = o[P_ENV_STAKE]
    if s == 0:
        return 0
    if s <= 3:
        return s - 1
    return 3 if s <= 5 else 4


@njit(cache=True)
def infoset_key(o):
    """The information-set key of the seat whose observation is ``o`` (int8, OBS_SIZE); never 0."""
    phase = _onehot(o, O.O_PHASE, 4)
    baza = _onehot(o, O.O_BAZA, 3)
    hand = hand_bucket(o)
    env_state = _onehot(o, P_ENV_STATE, 5)
    has_flor = hand > NUM_ENVIDO_BUCKETS
    envido_open = baza == 0 and (env_state <= 1 or has_flor)  # none or open: the hand still matters
    if not envido_open:
        hand = 1 if hand > 0 else 0
    w1 = hand * 216 + power_code(o, envido_open and hand > 0)
    target = np.int64(o[P_TARGET])
    w1 = w1 * NUM_DIST_BUCKETS + dist_bucket(target - o[O.O_SCORE])
    w1 = w1 * NUM_DIST_BUCKETS + dist_bucket(target - o[O.O_SCORE + 1])
    w1 = w1 * 4 + phase
    w1 = w1 * 2 + (1 if o[O.O_POSITION] != 0 else 0)
    w1 = w1 * 3 + baza
    for b in range(3):
        r = 0
        for k in range(3):
            if o[O.O_BAZA_RESULT + 3 * b + k] != 0:
                r = k + 1
        w1 = w1 * 4 + r
    mine, theirs = 0, 0
    for c in range(40):
        if o[O.O_PLAYED_IN + 40 * baza + c] != 0:
            if o[O.O_PLAYED_BY + c] != 0:
                mine = CARD_CLASS[c] + 1
            else:
                theirs = CARD_CLASS[c] + 1
    w1 = w1 * 7 + mine
    w1 = w1 * 7 + theirs
    w2 = np.int64(env_state)
    w2 = w2 * 6 + _stake_bucket(o)
    w2 = w2 * 3 + _rel_who(o, P_ENV_RAISER)
    w2 = w2 * 4 + _onehot(o, P_TR_STATE, 4)
    w2 = w2 * 4 + _onehot(o, P_TR_LEVEL, 4)
    w2 = w2 * 3 + _rel_who(o, P_TR_RAISER)
    w2 = w2 * 2 + (1 if o[P_TR_MINE] != 0 else 0)
    w2 = w2 * 3 + _onehot(o, P_FL_STATE, 3)
    w2 = w2 * 3 + _onehot(o, P_FL_LEVEL, 3)
    w2 = w2 * 3 + _rel_who(o, P_FL_RAISER)
    w2 = w2 * 5 + _onehot(o, P_TD_STATE, 5)
    w2 = w2 * 2 + (1 if o[P_TD_MINE] != 0 else 0)
    w2 = w2 * 4 + _onehot(o, O.O_UNO, 4)
    w2 = w2 * 6 + _onehot(o, P_EX_KIND, 6)
    h = fmix64(mix64(w1) ^ np.uint64(w2))
    key = np.int64(h & np.uint64(0x7FFFFFFFFFFFFFFF))
    return key if key != 0 else np.int64(1)


@njit(cache=True)
def abstract_actions(mask, amask, amap):
    """Fill ``amask`` (uint8, NUM_ABSTRACT) and ``amap`` (engine action per abstract one, -1 if
    illegal) from the engine's legal ``mask``; returns how many abstract actions are legal."""
    amask[:] = 0
    amap[:] = -1
    for k in range(_DIRECT.size):
        a = _DIRECT[k]
        if mask[a] != 0:
            amask[k] = 1
            amap[k] = a
    for a in (A.TRUCO, A.RETRUCO, A.VALE_CUATRO):
        if mask[a] != 0:
            amask[AB_CHALLENGE] = 1
            amap[AB_CHALLENGE] = a
    for a in (A.Y_QUIERO_RETRUCO, A.Y_QUIERO_VALE_CUATRO):
        if mask[a] != 0:
            amask[AB_DOUBLE_RAISE] = 1
            amap[AB_DOUBLE_RAISE] = a
    held = np.empty(3, dtype=np.int64)
    n = 0
    for c in range(40):
        if mask[A.PLAY_BASE + c] != 0 and n < 3:
            held[n] = c
            n += 1
    for i in range(n):
        for j in range(i + 1, n):
            if POWER[held[j]] < POWER[held[i]]:
                t = held[i]
                held[i] = held[j]
                held[j] = t
    if n >= 1:
        amask[AB_PLAY_HIGH] = 1
        amap[AB_PLAY_HIGH] = A.PLAY_BASE + held[n - 1]
    if n >= 2:
        amask[AB_PLAY_LOW] = 1
        amap[AB_PLAY_LOW] = A.PLAY_BASE + held[0]
    if n == 3:
        amask[AB_PLAY_MID] = 1
        amap[AB_PLAY_MID] = A.PLAY_BASE + held[1]
    count = 0
    for k in range(NUM_ABSTRACT):
        count += amask[k]
    return count


@njit(cache=True)
def state_key(s, hist, seat, ob):
    """The trainer's key at a state: the observation kernel for ``seat`` into ``ob``, then its key."""
    O.observe(s, hist, seat, ob)
    return infoset_key(ob)


def describe_abstraction() -> dict:
    return {"tradition": "argentino", "version": ABSTRACTION_VERSION, "abstract_actions": NUM_ABSTRACT,
            "envido_buckets": NUM_ENVIDO_BUCKETS, "flor_buckets": NUM_FLOR_BUCKETS,
            "power_classes": NUM_POWER_CLASSES, "coarse_power_classes": 3, "distance_buckets": NUM_DIST_BUCKETS}

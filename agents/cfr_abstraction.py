"""The abstraction of the 1 contra 1 MCCFR bot: information-set keys and abstract actions.

**Everything reads only the acting seat's observation vector** (``truque_env.traditions.moteno.observation``)
and the engine's legal mask: the trainer (``train.cfr.mccfr_kernels``, ``train.cfr.mccfr``) calls
the observation kernel on the state it explores, the bot (``agents.cfr_policy``) is handed the
same observation, so both compute the same key and the same abstract actions. It lives on the
bot side because the bot needs it to act; the trainer imports it to learn.
**Information-set key** (``infoset_key(obs)``: ``int64``, never 0): a 64-bit hash (splitmix64's
finaliser over two exact mixed-radix words) of

* the cards: ``envite_bucket`` while an envite can still be made or answered (first baza, the
  envite de pares not yet closed, or a flor in hand): 0 unseen (the blind round), else the
  **pares bucket** of the whole hand (held and played cards, Art. 5) ``<=5, 6-7, 20-25, 26-28,
  29-31, 32-34, 35-38, 59+`` (8) or, for a hand with flor, the **flor bucket** (Art. 9) natural
  ``<=30`` / ``>30``, one pieza ``<=56`` / ``>56``, reservada (5); afterwards only "seen". And
  ``power_code``: the **truque power of the cards still in hand** (Art. 2), each card in one of 5
  classes (cuatro..rey / ases de oros y copas, doses / treses / mata de oros, mata de espadas,
  basto / espada and piezas), sorted: 1 + 5 + 15 + 35 multisets for 0..3 cards (while the envite
  is open, 3 coarser classes: below the doses / ases falsos, doses, treses / matas and up);
* the score context: the **distance to the target** of each side (``target - score``, ruling 1)
  in 3 buckets: 1 (al cantar, Art. 8), 2-9, 10+;
* the public history: the phase, mano or postre, the baza and the result of each baza, the power
  class of the cards on the table in the current baza (mine, the rival's), the envite de pares
  (state, stake bucketed 0/1/2/3/4-5/6-15 pares/la falta, who raised, accepted a ciegas, void),
  the truco (state, level, who raised), the flor (round, envite state, stake 0/1/2/3+/la falta,
  who raised), la falta a ciegas (who sent it, its answer), the exchange being answered (kind,
  standing answer, a ciegas), who sang flor and said "de la mía", and the rival's pares declared
  in the cante (bucketed).

Señas and the juegos of the partida are not in the key (the bot never makes señas).

**Abstract actions** (17; ``abstract_actions(mask, amask, amap)``): each is legal exactly when the
engine action ``amap`` names is legal:

====  ================  ======================================================================
0-5   words             paso, quiero, no quiero, luego te lo digo, flor, canto pares
6     challenge         truco, retruco or panueve: whichever is legal (at most one is)
7-9   falta a ciegas    con flor quiero, con flor no quiero, de la mía
10    play low          the held card of lowest truque power (two or three held)
11    play middle       the middle one (three held)
12    play high         the highest (with one card held: that card)
13    pares min         ``envío N pares`` with the smallest legal N
14    pares big         ``envío N+2 pares`` (N the smallest legal), if legal
15    flores min        ``envío N flores`` with the smallest legal N
16    la falta          envío la falta
====  ================  ======================================================================

Cards of equal power go by card id. Outside the abstraction: the other envite sizes, ``me voy a
baraja`` (1 contra 1 it hands the truque to the rival), the señas and ``la mía no vale`` (never
legal 1 contra 1). The bot never chooses them: a restriction of its strategy, never a substitution.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from truque_env.engine.rng import fmix64, mix64
from truque_env.traditions.moteno import actions as A
from truque_env.traditions.moteno import observation as O
from truque_env.traditions.moteno.rules import IS_PIEZA, TRUQUE_POWER, flor_value_nb, pares_value_nb

ABSTRACTION_VERSION = 1
NUM_ABSTRACT = 17
AB_PASO, AB_QUIERO, AB_NO_QUIERO, AB_LUEGO, AB_FLOR, AB_CANTO = 0, 1, 2, 3, 4, 5
AB_CHALLENGE, AB_CF_QUIERO, AB_CF_NO_QUIERO, AB_DE_LA_MIA = 6, 7, 8, 9
AB_PLAY_LOW, AB_PLAY_MID, AB_PLAY_HIGH = 10, 11, 12
AB_PARES_MIN, AB_PARES_BIG, AB_FLORES_MIN, AB_FALTA = 13, 14, 15, 16
ABSTRACT_NAMES = ("paso", "quiero", "no quiero", "luego te lo digo", "flor", "canto pares", "truco/retruco/panueve",
                  "con flor, quiero", "con flor, no quiero", "de la mía", "juego (la más baja)",
                  "juego (la del medio)", "juego (la más alta)", "envío N pares (mínimo)", "envío N+2 pares",
                  "envío N flores (mínimo)", "envío la falta")
assert len(ABSTRACT_NAMES) == NUM_ABSTRACT
# the words that map one to one (abstract id -> engine id)
_DIRECT = np.array([A.PASO, A.QUIERO, A.NO_QUIERO, A.LUEGO, A.FLOR, A.CANTO_PARES, -1,
                    A.CON_FLOR_QUIERO, A.CON_FLOR_NO_QUIERO, A.DE_LA_MIA], dtype=np.int64)

# power class (0..4) of each truque power 1..17 (index 0 unused)
POWER_CLASS = np.array([0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 2, 3, 3, 3, 4, 4, 4, 4], dtype=np.int64)
NUM_POWER_CLASSES = 5
CARD_CLASS = POWER_CLASS[TRUQUE_POWER]  # per card id
# the coarse classes used while the envites are open: below the doses / ases falsos, doses, treses / matas and up
COARSE_CLASS = np.array([0, 1, 1, 2, 2], dtype=np.int64)[CARD_CLASS]
NUM_PARES_BUCKETS = 8
NUM_FLOR_BUCKETS = 6
NUM_DIST_BUCKETS = 3


@njit(cache=True)
def pares_bucket(v):
    """Bucket 0..7 of a valor de pares (Art. 5): <=5, 6-7, 20-25, 26-28, 29-31, 32-34, 35-38, 59+."""
    if v <= 5:
        return 0
    if v <= 7:
        return 1
    if v <= 25:
        return 2
    if v <= 28:
        return 3
    if v <= 31:
        return 4
    if v <= 34:
        return 5
    if v <= 38:
        return 6
    return 7


@njit(cache=True)
def flor_bucket(a, b, c):
    """0 no flor, 1 natural <= 30, 2 natural > 30, 3 one pieza <= 56, 4 one pieza > 56, 5 reservada."""
    v = flor_value_nb(a, b, c)
    if v == 0:
        return 0
    piezas = IS_PIEZA[a] + IS_PIEZA[b] + IS_PIEZA[c]
    if piezas >= 2:
        return 5
    if piezas == 1:
        return 3 if v <= 56 else 4
    return 1 if v <= 30 else 2


@njit(cache=True)
def dist_bucket(d):
    """Distance to the target: 1 (al cantar), 2-9, 10+ -> 0..2."""
    if d <= 1:
        return 0
    if d <= 9:
        return 1
    return 2


@njit(cache=True)
def _onehot(o, off, n):
    """Index of the set entry of a one-hot slice (0 when none is set)."""
    for i in range(n):
        if o[off + i] != 0:
            return i
    return 0


@njit(cache=True)
def _stake_bucket_pares(n):
    # n: stake in pares (stake // 2), 16 = la falta
    if n <= 3:
        return n
    if n <= 5:
        return 4
    if n <= 15:
        return 5
    return 6


@njit(cache=True)
def _stake_bucket_flores(n):
    # n: stake in flores (stake // 3), 11 = la falta
    if n <= 2:
        return n
    if n <= 10:
        return 3
    return 4


@njit(cache=True)
def _b(x):
    return np.int64(1) if x != 0 else np.int64(0)


@njit(cache=True)
def _rel_who(o, off):
    """0 nobody, 1 me, 2 the rival, from a one-hot over relative seats (1 contra 1: seats 0, 1)."""
    if o[off] != 0:
        return 1
    if o[off + 1] != 0:
        return 2
    return 0


@njit(cache=True)
def envite_bucket(o):
    """The hand for the envites: 0 unseen, 1..8 the pares bucket (no flor), 9..13 the flor bucket."""
    cards = np.empty(3, dtype=np.int64)
    n_full = 0
    for c in range(40):
        if o[O.O_HAND + c] != 0 or o[O.O_PLAYED_BY + c] != 0:  # held, or played by me (relative seat 0)
            if n_full < 3:
                cards[n_full] = c
            n_full += 1
    if n_full != 3:
        return np.int64(0)  # the blind round: nothing seen yet
    fb = flor_bucket(cards[0], cards[1], cards[2])
    if fb > 0:
        return np.int64(NUM_PARES_BUCKETS + fb)
    return 1 + pares_bucket(pares_value_nb(cards[0], cards[1], cards[2]))


@njit(cache=True)
def power_code(o, coarse):
    """The power classes of the held cards, sorted descending, as a base-6 number (0 = no card);
    ``coarse``: 3 classes instead of 5 (below the treses / treses, ases falsos, doses / matas and up)."""
    classes = np.zeros(3, dtype=np.int64)
    n_held = 0
    for c in range(40):
        if o[O.O_HAND + c] != 0 and n_held < 3:
            classes[n_held] = COARSE_CLASS[c] if coarse else CARD_CLASS[c]
            n_held += 1
    for i in range(n_held):
        for j in range(i + 1, n_held):
            if classes[j] > classes[i]:
                t = classes[i]
                classes[i] = classes[j]
                classes[j] = t
    pc = np.int64(0)
    for i in range(3):
        pc = pc * (NUM_POWER_CLASSES + 1) + (classes[i] + 1 if i < n_held else 0)
    return pc


@njit(cache=True)
def infoset_key(o):
    """The information-set key of the seat whose observation is ``o`` (int8, OBS_SIZE); never 0."""
    # word 1: cards, score context, where we are
    phase = _onehot(o, O.O_PHASE, 9)
    baza = _onehot(o, O.O_BAZA, 3)
    env = envite_bucket(o)
    pares_open = o[O.O_PARES] + o[O.O_PARES + 1] + o[O.O_PARES + 2] != 0  # none, open or deferred
    if baza > 0 or not (pares_open or env > NUM_PARES_BUCKETS):
        env = 1 if env > 0 else 0  # the envites are over for this hand: only "seen" is kept
    w1 = env * 216 + power_code(o, env > 1)  # < 14 * 216; coarse power while an envite is possible
    target = np.int64(o[O.O_TARGET])
    w1 = w1 * NUM_DIST_BUCKETS + dist_bucket(target - o[O.O_SCORE])
    w1 = w1 * NUM_DIST_BUCKETS + dist_bucket(target - o[O.O_SCORE + 1])
    w1 = w1 * 9 + phase
    w1 = w1 * 2 + (1 if o[O.O_POSITION] != 0 else 0)
    w1 = w1 * 3 + baza
    for b in range(3):
        r = 0
        for k in range(3):
            if o[O.O_BAZA_RESULT + 3 * b + k] != 0:
                r = k + 1
        w1 = w1 * 4 + r
    # the cards on the table in the current baza: mine and the rival's power classes (+1, 0 none)
    mine, theirs = 0, 0
    if o[O.O_BAZA] + o[O.O_BAZA + 1] + o[O.O_BAZA + 2] != 0:
        for c in range(40):
            if o[O.O_PLAYED_IN + 40 * baza + c] != 0:
                if o[O.O_PLAYED_BY + c] != 0:
                    mine = CARD_CLASS[c] + 1
                else:
                    theirs = CARD_CLASS[c] + 1
    w1 = w1 * 7 + mine
    w1 = w1 * 7 + theirs
    # the rival's declared pares in the cante (Art. 8.2), bucketed
    cante = np.int64(o[O.O_CANTE + 1])
    w1 = w1 * 9 + (0 if cante == 0 else 1 + pares_bucket(cante))
    # word 2: the bets
    p = O.O_PARES
    w2 = np.int64(_onehot(o, p, 5))
    w2 = w2 * 7 + _stake_bucket_pares(o[p + 5])
    w2 = w2 * 3 + _rel_who(o, p + 7)
    w2 = w2 * 2 + _b(o[p + 15])
    w2 = w2 * 2 + _b(o[p + 16])
    t = O.O_TRUCO
    w2 = w2 * 5 + _onehot(o, t, 5)
    w2 = w2 * 4 + _onehot(o, t + 5, 4)
    w2 = w2 * 3 + _rel_who(o, t + 13)
    f = O.O_FLOR
    w2 = w2 * 3 + _onehot(o, f, 3)
    w2 = w2 * 5 + _onehot(o, f + 3, 5)
    w2 = w2 * 5 + _stake_bucket_flores(o[f + 8])
    w2 = w2 * 3 + _rel_who(o, f + 10)
    fc = O.O_FC
    w2 = w2 * 3 + (1 if o[fc] != 0 else (2 if o[fc + 1] != 0 else 0))
    w2 = w2 * 6 + _onehot(o, fc + 2, 6)
    e = O.O_EXCHANGE
    w2 = w2 * 5 + _onehot(o, e, 5)
    w2 = w2 * 5 + _onehot(o, e + 6, 5)
    w2 = w2 * 2 + _b(o[e + 19])
    # per-seat flags: sang flor (4), de la mía (6)
    for flag in (4, 6):
        for r in range(2):
            w2 = w2 * 2 + _b(o[O.O_SEAT_FLAGS + 8 * flag + r])
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
        if a >= 0 and mask[a] != 0:
            amask[k] = 1
            amap[k] = a
    for a in (A.TRUCO, A.RETRUCO, A.PANUEVE):
        if mask[a] != 0:
            amask[AB_CHALLENGE] = 1
            amap[AB_CHALLENGE] = a
    # cards: sorted by (power, id)
    held = np.empty(3, dtype=np.int64)
    n = 0
    for c in range(40):
        if mask[A.PLAY_BASE + c] != 0 and n < 3:
            held[n] = c
            n += 1
    for i in range(n):
        for j in range(i + 1, n):
            if TRUQUE_POWER[held[j]] < TRUQUE_POWER[held[i]]:
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
    _sized(mask, A.PARES_BASE, A.MAX_PARES_N, AB_PARES_MIN, amask, amap, True)
    _sized(mask, A.FLORES_BASE, A.MAX_FLORES_N, AB_FLORES_MIN, amask, amap, False)
    if mask[A.FALTA] != 0:
        amask[AB_FALTA] = 1
        amap[AB_FALTA] = A.FALTA
    count = 0
    for k in range(NUM_ABSTRACT):
        count += amask[k]
    return count


@njit(cache=True)
def _sized(mask, base, top, ab_min, amask, amap, big):
    """The smallest legal ``envío N`` (abstract ``ab_min``) and, with ``big``, ``envío N+2`` (``ab_min + 1``)."""
    for k in range(top):
        if mask[base + k] != 0:
            amask[ab_min] = 1
            amap[ab_min] = base + k
            if big and k + 2 < top and mask[base + k + 2] != 0:
                amask[ab_min + 1] = 1
                amap[ab_min + 1] = base + k + 2
            return


@njit(cache=True)
def state_key(s, hist, seat, ob):
    """The trainer's key at a state: the observation kernel for ``seat`` into ``ob``, then its key."""
    O.observe(s, hist, seat, ob)
    return infoset_key(ob)


@njit(cache=True)
def keys_and_actions(obs, masks, keys, amasks, amaps):
    """Batch form for the bot: ``infoset_key`` and ``abstract_actions`` of every row."""
    for i in range(obs.shape[0]):
        keys[i] = infoset_key(obs[i])
        abstract_actions(masks[i], amasks[i], amaps[i])


def describe_abstraction() -> dict:
    """The bucket counts of the abstraction (written into checkpoints and docs)."""
    return {"version": ABSTRACTION_VERSION, "abstract_actions": NUM_ABSTRACT, "pares_buckets": NUM_PARES_BUCKETS,
            "coarse_power_classes": 3,
            "flor_buckets": NUM_FLOR_BUCKETS, "power_classes": NUM_POWER_CLASSES,
            "distance_buckets": NUM_DIST_BUCKETS}

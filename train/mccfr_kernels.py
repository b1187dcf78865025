"""The numba side of the 1 contra 1 MCCFR (``train.mccfr_moteno``): the abstraction, the table of
information sets, regret matching, the sampled traversal on the real engine, and a test match.

**Everything the bot needs reads only the acting seat's observation vector**
(``truque_env.engine.observation``) and the engine's legal mask: the trainer calls the observation
kernel on the state it explores, the bot (``agents.cfr_policy``) is handed the same observation,
so both compute the same key and the same abstract actions.

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

**Table of information sets.** Keys go to rows by open addressing with linear probing in a
fixed-capacity ``int64`` array (0 = empty, capacity a power of two, first slot ``key & (capacity -
1)``). ``regrets`` and ``cum_policy`` are ``float32 [capacity, NUM_ABSTRACT]`` by the same slot. A
table ``MAX_LOAD`` full refuses new keys: the traversal stops (``info[I_STOP]``) and the caller
raises a ``ValueError``.

**One iteration** (``run_iterations``) = one traversal per player (alternating updates). A
traversal draws a fresh mano from its own seed stream (``seed``, iteration ``t``, player):
``init_table`` with a derived seed (the first dealer from the table's generator), both scores
uniform in ``0..target-1``, then ``deal_random`` (the table's generator). Depth first, each child a
copy of the parent's ``int16`` state row and public history (``MAX_DEPTH`` rows of scratch);
see ``traverse`` for the sampling. Nodes with one legal abstract action get no table row.

**Utility** of a finished mano for a player: his side's chinas minus the rival's, each capped at
its distance to the target at the start of the mano (the engine's ``SCORED``: pares and flores
before truque, Art. 17.3; the first to reach the target wins, ruling 1, Art. 18.1).

One module on purpose: numba's cache watches only the file that defines a kernel, so a kernel
calling a changed function of another file would run stale (and here crashing) code; the
traversal is an explicit stack because cached recursive kernels crashed when loaded.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from truque_env.engine import actions as A
from truque_env.engine import kernels as K
from truque_env.engine import layout as L
from truque_env.engine import observation as O
from truque_env.rules.moteno import IS_PIEZA, TRUQUE_POWER, flor_value_nb, pares_value_nb

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
def _fmix(x):
    x = np.uint64(x)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


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
    h = _fmix(_fmix(np.uint64(w1) + np.uint64(0x9E3779B97F4A7C15)) ^ np.uint64(w2))
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


# ------------------------------------------------------------------------------------------
# the trainer's kernels

MAX_LOAD = 0.9
MAX_DEPTH = 96
# info[]: counters shared with Python
I_FILL, I_STOP, I_NODES, I_MAX_FILL, I_MISSES, I_LOOKUPS = 0, 1, 2, 3, 4, 5
INFO_SIZE = 8
STOP_FULL, STOP_DEPTH = 1, 2
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True)
def mix64(x):
    x = np.uint64(x) + _GOLDEN
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


@njit(cache=True)
def uniform01(rng):
    """A float in [0, 1) from the splitmix64 state ``rng[0]`` (advanced)."""
    rng[0] = rng[0] + _GOLDEN
    z = rng[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return float(z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


# ------------------------------------------------------------------------------------------
# the table


@njit(cache=True)
def table_find(keys, key):
    """Slot of ``key``, or -1 when it is not in the table."""
    cap_mask = keys.size - 1
    i = np.int64(key) & cap_mask
    while True:
        k = keys[i]
        if k == key:
            return i
        if k == 0:
            return np.int64(-1)
        i = (i + 1) & cap_mask


@njit(cache=True)
def table_insert(keys, key, info):
    """Slot of ``key``, inserted if new; -1 when the table is full (``info[I_FILL] >= info[I_MAX_FILL]``)."""
    cap_mask = keys.size - 1
    i = np.int64(key) & cap_mask
    while True:
        k = keys[i]
        if k == key:
            return i
        if k == 0:
            if info[I_FILL] >= info[I_MAX_FILL]:
                return np.int64(-1)
            keys[i] = key
            info[I_FILL] += 1
            return i
        i = (i + 1) & cap_mask


@njit(cache=True)
def table_insert_many(keys, new_keys, info, slots):
    """Insert each of ``new_keys``; ``slots[j]`` gets its slot (-1: the table was full)."""
    for j in range(new_keys.size):
        slots[j] = table_insert(keys, new_keys[j], info)


@njit(cache=True)
def regret_matching(regrets, row, amask, out):
    """The current strategy at ``row``: positive regrets normalised over the legal actions,
    uniform over them when none is positive; zero on illegal ones."""
    total = 0.0
    n = 0
    for a in range(NUM_ABSTRACT):
        out[a] = 0.0
        if amask[a]:
            n += 1
            r = regrets[row, a]
            if r > 0.0:
                total += r
    for a in range(NUM_ABSTRACT):
        if amask[a]:
            r = regrets[row, a]
            out[a] = (r / total if r > 0.0 else 0.0) if total > 0.0 else 1.0 / n


@njit(cache=True)
def sample_index(p, rng):
    u = uniform01(rng)
    acc = 0.0
    last = -1
    for a in range(p.size):
        if p[a] > 0.0:
            acc += p[a]
            last = a
            if u < acc:
                return a
    return last  # u fell in the rounding gap above the sum


# ------------------------------------------------------------------------------------------
# the traversal


@njit(cache=True)
def capped_utility(s, dist, seat):
    """Chinas of ``seat``'s side minus the rival's, each capped at its distance to the target."""
    team = seat % 2
    mine = min(np.int64(s[L.SCORED + team]), dist[team])
    theirs = min(np.int64(s[L.SCORED + 1 - team]), dist[1 - team])
    return float(mine - theirs)


@njit(cache=True)
def _child(states, hists, d, a):
    """Copy node ``d`` into ``d + 1`` and play engine action ``a`` there (the word is recorded)."""
    states[d + 1, :] = states[d]
    hists[d + 1, :] = hists[d]
    O.record(states[d + 1], hists[d + 1], a)
    K.step_unchecked(states[d + 1], a)


@njit(cache=True)
def _explore_next(d, row, states, hists, amasks, amaps, cum, weight, sampling, total, cur, q, rng):
    """The traverser's next action at node ``d`` after ``cur[d]`` that the sampling picks: its child
    is made at ``d + 1`` with ``q[d + 1]``; returns False when none is left."""
    eps, tau, beta = sampling[0], sampling[1], sampling[2]
    for a in range(cur[d] + 1, NUM_ABSTRACT):
        if amasks[d, a] == 0:
            continue
        rho = 1.0
        if eps < 1.0:
            rho = max(eps, (beta * weight + tau * cum[row, a]) / (beta * weight + total[d]))
            if rho < 1.0 and uniform01(rng) >= rho:
                continue  # not sampled: its estimate stays 0
            rho = min(rho, 1.0)
        cur[d] = a
        q[d + 1] = q[d] * rho
        _child(states, hists, d, amaps[d, a])
        return True
    return False


@njit(cache=True)
def traverse(trav, states, hists, obs, masks, amasks, amaps, sig, vals, keys, regrets, cum, weight, sampling, rng,
             dist, info):
    """Average-strategy-sampling MCCFR from the mano in ``states[0]``: the sampled value for ``trav``.

    Depth first with an explicit stack (node ``d`` in row ``d`` of the scratch arrays). At the
    traverser's nodes each legal action is explored with probability ``min(1, max(epsilon,
    (beta * weight + tau * s(a)) / (beta * weight + sum s)))`` (``sampling = (epsilon, tau,
    beta)``, ``s`` the row's cumulative average strategy; ``epsilon >= 1``: every action, external
    sampling); values are divided by ``q``, the probability that this sampling reached the leaf,
    and the regrets get ``weight * (v(a) - v)``. At the opponent's nodes the current strategy
    enters the average with ``weight / q`` and one action is drawn from it.
    """
    row_of = np.zeros(MAX_DEPTH, dtype=np.int64)
    cur = np.zeros(MAX_DEPTH, dtype=np.int64)
    is_trav = np.zeros(MAX_DEPTH, dtype=np.bool_)
    q = np.ones(MAX_DEPTH)
    acc = np.zeros(MAX_DEPTH)
    total = np.zeros(MAX_DEPTH)
    d = 0
    ret = 0.0
    entering = True
    while d >= 0:
        if entering:
            s = states[d]
            if s[L.PHASE] == L.PH_DONE:
                ret = capped_utility(s, dist, trav) / q[d]
                entering = False
                d -= 1
                continue
            if d + 1 >= MAX_DEPTH:
                info[I_STOP] = STOP_DEPTH
                return 0.0
            info[I_NODES] += 1
            p = s[L.TO_ACT]
            K.legal_mask(s, masks[d])
            n = abstract_actions(masks[d], amasks[d], amaps[d])
            is_trav[d] = False
            if n == 1:  # forced: no decision, no table row
                for a in range(NUM_ABSTRACT):
                    if amasks[d, a]:
                        _child(states, hists, d, amaps[d, a])
                        break
                q[d + 1] = q[d]
                d += 1
                continue
            row = table_insert(keys, state_key(s, hists[d], p, obs[d]), info)
            if row < 0:
                info[I_STOP] = STOP_FULL
                return 0.0
            regret_matching(regrets, row, amasks[d], sig[d])
            if p != trav:
                for a in range(NUM_ABSTRACT):
                    if amasks[d, a]:
                        cum[row, a] += np.float32(weight * sig[d, a] / q[d])
                _child(states, hists, d, amaps[d, sample_index(sig[d], rng)])
                q[d + 1] = q[d]
                d += 1
                continue
            is_trav[d] = True
            row_of[d] = row
            cur[d] = -1
            acc[d] = 0.0
            total[d] = 0.0
            for a in range(NUM_ABSTRACT):
                vals[d, a] = 0.0
                if amasks[d, a]:
                    total[d] += cum[row, a]
        else:  # back at node d with the value ``ret`` of its child
            if not is_trav[d]:
                d -= 1
                continue
            vals[d, cur[d]] = ret
            acc[d] += sig[d, cur[d]] * ret
        # the traverser's node d: explore its next action, or close it
        if _explore_next(d, row_of[d], states, hists, amasks, amaps, cum, weight, sampling, total, cur, q, rng):
            d += 1
            entering = True
            continue
        row = row_of[d]
        for a in range(NUM_ABSTRACT):
            if amasks[d, a]:
                regrets[row, a] += np.float32(weight * (vals[d, a] - acc[d]))
        ret = acc[d]
        entering = False
        d -= 1
    return ret


@njit(cache=True)
def new_mano(s, hist, stream, target, rng, dist):
    """A fresh 1 contra 1 mano from the seed ``stream``: first dealer and deal from the table's
    generator, both scores uniform in ``0..target-1``; ``dist`` gets each team's distance."""
    rng[0] = mix64(stream)
    K.init_table(s, 1, target, 1, 0, 0, mix64(stream ^ np.uint64(0x5851F42D4C957F2D)))
    for team in range(2):
        sc = np.int64(uniform01(rng) * target)
        s[L.SCORE + team] = sc
        dist[team] = target - sc
    O.reset_history(hist)
    K.deal_random(s)


@njit(cache=True)
def run_iterations(start, iterations, seed, target, linear, sampling, states, hists, obs, masks, amasks, amaps, sig,
                   vals, keys, regrets, cum, rng, dist, info):
    """Iterations ``start + 1 .. start + iterations``; returns how many completed (fewer if stopped)."""
    for it in range(iterations):
        t = start + it + 1
        weight = float(t) if linear else 1.0
        for trav in range(2):
            stream = mix64(np.uint64(seed) * np.uint64(0x2545F4914F6CDD1D) ^ np.uint64(t)) ^ np.uint64(trav + 1)
            new_mano(states[0], hists[0], stream, target, rng, dist)
            traverse(trav, states, hists, obs, masks, amasks, amaps, sig, vals, keys, regrets, cum, weight, sampling,
                     rng, dist, info)
            if info[I_STOP] != 0:
                return it
    return iterations


# ------------------------------------------------------------------------------------------
# a test match: the average policy against uniform random play, inside numba


@njit(cache=True)
def average_strategy(cum, row, amask, out):
    """The normalised average strategy at ``row`` over the legal actions (uniform if it has no weight)."""
    total = 0.0
    n = 0
    for a in range(NUM_ABSTRACT):
        out[a] = 0.0
        if amask[a]:
            n += 1
            if cum[row, a] > 0.0:
                total += cum[row, a]
    for a in range(NUM_ABSTRACT):
        if amask[a]:
            c = cum[row, a]
            out[a] = (c / total if c > 0.0 else 0.0) if total > 0.0 else 1.0 / n
    return total > 0.0


@njit(cache=True)
def match_vs_random(manos, seed, target, keys, cum, info):
    """Mean capped chinas per mano of the average policy against uniform random legal engine
    actions, over ``manos`` manos (fixed by ``seed``; the policy plays seat ``m % 2`` of mano
    ``m``). Unseen information sets play uniformly over the legal abstract actions (counted in
    ``info[I_MISSES]`` of ``info[I_LOOKUPS]``)."""
    s = np.zeros(L.STATE_SIZE, dtype=np.int16)
    hist = np.zeros(O.HISTORY_SIZE, dtype=np.int16)
    ob = np.zeros(O.OBS_SIZE, dtype=np.int8)
    mask = np.zeros(A.NUM_ACTIONS, dtype=np.uint8)
    amask = np.zeros(NUM_ABSTRACT, dtype=np.uint8)
    amap = np.zeros(NUM_ABSTRACT, dtype=np.int64)
    p = np.zeros(NUM_ABSTRACT)
    rng = np.zeros(1, dtype=np.uint64)
    dist = np.zeros(2, dtype=np.int64)
    total = 0.0
    for m in range(manos):
        me = m % 2
        new_mano(s, hist, mix64(np.uint64(seed) ^ (np.uint64(m) * np.uint64(0x9E6C63D0676A9A99))), target, rng, dist)
        while s[L.PHASE] != L.PH_DONE:
            K.legal_mask(s, mask)
            if s[L.TO_ACT] == me:
                n = abstract_actions(mask, amask, amap)
                if n > 1:
                    info[I_LOOKUPS] += 1
                    row = table_find(keys, state_key(s, hist, me, ob))
                    if row < 0 or not average_strategy(cum, row, amask, p):
                        info[I_MISSES] += 1
                        for a in range(NUM_ABSTRACT):
                            p[a] = amask[a] / n
                else:
                    for a in range(NUM_ABSTRACT):
                        p[a] = float(amask[a])
                act = amap[sample_index(p, rng)]
            else:
                count = 0
                for a in range(A.NUM_ACTIONS):
                    count += mask[a]
                k = np.int64(uniform01(rng) * count)
                act = -1
                for a in range(A.NUM_ACTIONS):
                    if mask[a]:
                        if k == 0:
                            act = a
                            break
                        k -= 1
            O.record(s, hist, act)
            K.step_unchecked(s, act)
        total += capped_utility(s, dist, me)
    return total / max(manos, 1)

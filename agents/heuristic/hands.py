"""Tables of every three-card hand with its valuations and honest seña, and the probabilities the bot reads from them.

Part of the Moteño heuristic (``agents.heuristic``; the bot is described there)."""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np
from numba import njit

from truque_env.cards import CARD_RANK, NUM_CARDS
from truque_env.traditions.moteno import rules as M

# ----------------------------------------------------------------------------------------------
# tables: every three-card hand with its valuations and honest seña


POWER = M.TRUQUE_POWER  # 1 (cuatros) .. 17 (el perro)
POWER_NB = POWER.copy()  # read by the simulation kernel
N_LEVELS = 18  # power levels 0..17, 0 = "no card"
SENA_CARDS = (M.PERRO, M.PERRA, M.CASCABEL, M.ESPADA, M.BASTO, M.MATA_ESPADAS, M.MATA_OROS)
SENA_TRES, SENA_DOS, SENA_FLOR, SENA_CIEGA = 7, 8, 9, 10
POWER_DOS = int(POWER[11])  # 2C: a partner who signals "ciega" or "flor" holds nothing from here up
TOP_POWER = int(POWER[M.MATA_OROS])  # matas and piezas: the cards kept for the last baza


def honest_sena(cards) -> int:
    """Index in ``SENA_NAMES`` of the honest seña for a dealt hand (its best card, ruling 3)."""
    cards = [int(c) for c in cards]
    for k, c in enumerate(SENA_CARDS):
        if c in cards:
            return k
    ranks = [int(CARD_RANK[c]) for c in cards]
    if 3 in ranks:
        return SENA_TRES
    if 2 in ranks:
        return SENA_DOS
    if len(cards) == 3 and M.flor_value_nb(cards[0], cards[1], cards[2]) > 0:
        return SENA_FLOR
    return SENA_CIEGA


def _build_hands():
    hands = np.array(list(itertools.combinations(range(NUM_CARDS), 3)), dtype=np.int64)
    bits = (np.int64(1) << hands[:, 0]) | (np.int64(1) << hands[:, 1]) | (np.int64(1) << hands[:, 2])
    pares = np.array([M.pares_value_nb(a, b, c) for a, b, c in hands], dtype=np.int64)
    flor = np.array([M.flor_value_nb(a, b, c) for a, b, c in hands], dtype=np.int64)
    sena = np.array([honest_sena(h) for h in hands], dtype=np.int64)
    return hands, bits, pares, flor, sena


HANDS, HAND_BITS, HAND_PARES, HAND_FLOR, HAND_SENA = _build_hands()
V_PARES = int(HAND_PARES.max()) + 1
V_FLOR = int(HAND_FLOR.max()) + 1


def _bits(cards) -> int:
    out = 0
    for c in cards:
        out |= 1 << int(c)
    return out


def _seat_pmf(values, size, excluded: int, known: int, sena: int, flor_only: bool):
    """Distribution of ``values`` over the hands a seat may hold (see the module docstring)."""
    counts, n, counts_sena, n_sena = _seat_counts(values, size, HAND_BITS, HAND_FLOR, HAND_SENA, excluded, known,
                                                  sena, flor_only)
    if sena >= 0 and n_sena > 0:  # a seña that contradicts what it saw is ignored
        counts, n = counts_sena, n_sena
    if n == 0:
        return None
    return counts / n


@njit(cache=True)
def _seat_counts(values, size, bits, flor, senas, excluded, known, sena, flor_only):
    """Counts of ``values`` < size over the hands without ``excluded`` cards, with all ``known``
    ones (and a flor if ``flor_only``), and how many hands: all of them, and those whose honest
    seña is ``sena``. One pass instead of numpy masks over the 9,880 hands."""
    counts = np.zeros(size, dtype=np.int64)
    counts_sena = np.zeros(size, dtype=np.int64)
    n = 0
    n_sena = 0
    for h in range(bits.shape[0]):
        b = bits[h]
        if (b & excluded) != 0 or (b & known) != known or (flor_only and flor[h] <= 0):
            continue
        v = values[h]
        n += 1
        if v < size:
            counts[v] += 1
        if senas[h] == sena:
            n_sena += 1
            if v < size:
                counts_sena[v] += 1
    return counts, n, counts_sena, n_sena


def _team_best_prob(entries) -> float:
    """P(the best value belongs to one of ours); ``entries``: (ours, pmf) in order from mano.

    Ties go to the player closest to mano (Arts. 6.22, 11.6): a player beats the ones after him
    on equal values and loses to the ones before him.
    """
    le = [np.cumsum(p) for _, p in entries]
    lt = [c - p for c, (_, p) in zip(le, entries, strict=True)]
    total = 0.0
    for i, (ours, p) in enumerate(entries):
        if not ours:
            continue
        prod = p.copy()
        for j in range(len(entries)):
            if j != i:
                prod *= lt[j] if j < i else le[j]
        total += float(prod.sum())
    return total


def _point(value: int, size: int) -> np.ndarray:
    p = np.zeros(size)
    p[min(int(value), size - 1)] = 1.0
    return p


@cache
def _decided(res: str):
    """Truque result for our team from baza outcomes W/L/P (Arts. 13.10, 13.11, 16): 1, 0, 0.5, None."""
    if res.count("W") >= 2:
        return 1.0
    if res.count("L") >= 2:
        return 0.0
    if len(res) >= 2:
        a, b = res[0], res[1]
        if a != "P" and b == "P":
            return 1.0 if a == "W" else 0.0
        if a == "P" and b != "P":
            return 1.0 if b == "W" else 0.0
    if len(res) == 3:
        if res[2] != "P":
            return 1.0 if res[2] == "W" else 0.0
        if res[0] != "P":
            return 1.0 if res[0] == "W" else 0.0
        return 0.5  # pardas the three: by the mano (16.5), either team
    return None



"""The deal's shared parts, on the common header only (``header.py``), for every tradition's
kernels: a fresh table's configuration and first dealer, the duplicate deal stream, and the
shuffle (ruling 6: a uniform shuffle from the table's generator, or from ``DEAL_SEED`` and the
mano count when the table deals a duplicate stream). Each tradition's ``deal.py`` deals the
shuffled deck its own way and sets its own phase."""

from __future__ import annotations

import numpy as np
from numba import njit

from truque_env.engine import header as H
from truque_env.engine.rng import draw, rng_set, splitmix_next


@njit(cache=True)
def init_header(s, team_size, target, juegos, senas_limit, p_intercept_permille, seed):
    """Zero the row but its rule words (``RULES``, written once by the environment), configure
    the table, seed its generator and draw the first dealer."""
    r0, r1, r2, r3 = s[H.RULES], s[H.RULES + 1], s[H.RULES + 2], s[H.RULES + 3]
    s[:] = 0
    s[H.RULES], s[H.RULES + 1], s[H.RULES + 2], s[H.RULES + 3] = r0, r1, r2, r3
    s[H.N_PLAYERS] = 2 * team_size
    s[H.TEAM_SIZE] = team_size
    s[H.TARGET] = target
    s[H.JUEGOS_TO_WIN] = (juegos + 1) // 2
    s[H.SENAS_LIMIT] = senas_limit
    s[H.P_INTERCEPT] = p_intercept_permille
    s[H.LAST_JUEGO_WINNER] = -1
    rng_set(s, np.uint64(seed))
    s[H.DEALER] = draw(s, 2 * team_size)


@njit(cache=True)
def set_deal_stream(s, deal_seed):
    """Deal from ``deal_seed`` and the mano count from now on (for duplicate deals)."""
    s[H.DEAL_STREAM] = 1
    x = np.uint64(deal_seed)
    for w in range(4):
        v = np.int64((x >> np.uint64(16 * w)) & np.uint64(0xFFFF))
        s[H.DEAL_SEED + w] = v - 65536 if v >= 32768 else v


@njit(cache=True)
def shuffled_deck(s):
    """The 40 card ids in a uniform random order: from the table's generator, or, on a duplicate
    stream, from ``DEAL_SEED`` and the mano count only (so tables sharing the seed get the same
    n-th deal)."""
    deck = np.arange(40)
    if s[H.DEAL_STREAM] == 1:
        x = np.uint64(0)
        for w in range(4):
            x |= np.uint64(np.int64(s[H.DEAL_SEED + w]) & 0xFFFF) << np.uint64(16 * w)
        x ^= np.uint64(np.int64(s[H.MANO_COUNT]) & 0xFFFF) * np.uint64(0xD1B54A32D192ED03)
        for i in range(39, 0, -1):
            x, z = splitmix_next(x)
            j = np.int64(z % np.uint64(i + 1))
            t = deck[i]
            deck[i] = deck[j]
            deck[j] = t
    else:
        for i in range(39, 0, -1):
            j = draw(s, i + 1)
            t = deck[i]
            deck[i] = deck[j]
            deck[j] = t
    return deck

"""The truque by simulation: deal the unseen cards, play the bazas out (numba).

Part of the Moteño heuristic (``agents.heuristic``; the bot is described there)."""

from __future__ import annotations

import numpy as np
from numba import njit

from agents.heuristic.hands import POWER_DOS, POWER_NB
from truque_env.cards import NUM_CARDS
from truque_env.engine.rng import splitmix_next

# ----------------------------------------------------------------------------------------------
# the truque by simulation


@njit(cache=True)
def _result_of(res, nres):
    """1 won, 0 lost, 2 all pardas (by the mano), -1 undecided; res: 0 W, 1 L, 2 P (13.10, 16)."""
    w = 0
    lo = 0
    for i in range(nres):
        if res[i] == 0:
            w += 1
        elif res[i] == 1:
            lo += 1
    if w >= 2:
        return 1
    if lo >= 2:
        return 0
    if nres >= 2:
        if res[0] != 2 and res[1] == 2:
            return 1 if res[0] == 0 else 0
        if res[0] == 2 and res[1] != 2:
            return 1 if res[1] == 0 else 0
    if nres == 3:
        if res[2] != 2:
            return 1 if res[2] == 0 else 0
        if res[0] != 2:
            return 1 if res[0] == 0 else 0
        return 2
    return -1


@njit(cache=True)
def _pick(hp, r, cnt, team_best, rival_best):
    """Index in ``hp[r]`` (the powers of seat r's cards) of the card a simulated player plays: a
    partner winning, the lowest; else the cheapest card that beats the rivals; else the lowest.
    Leading: the highest."""
    lo = 0
    hi = 0
    for i in range(1, cnt):
        if hp[r, i] < hp[r, lo]:
            lo = i
        if hp[r, i] > hp[r, hi]:
            hi = i
    if team_best == 0 and rival_best == 0:
        return hi
    if team_best > rival_best:
        return lo
    best = -1
    for i in range(cnt):
        p = hp[r, i]
        if p > rival_best and (best < 0 or p < hp[r, best]):
            best = i
    return best if best >= 0 else lo


# exact ``z % d`` for the shuffle's small d (2..40) without a 64-bit division, the deal's main
# cost: z = hi * 2**32 + lo, and each part < 2**32 is reduced in float64, where every step is
# exact (see ``_fmod_small``); tests/agents/test_heuristic_golden.py checks it against ``%``.
_MOD_D = np.arange(NUM_CARDS + 1, dtype=np.float64)
_MOD_INV = 1.0 / np.maximum(_MOD_D, 1.0)
_MOD_2_32 = np.array([float((1 << 32) % max(d, 1)) for d in range(NUM_CARDS + 1)])


@njit(cache=True)
def _fmod_small(x, d, inv):
    """x mod d for integers 0 <= x < 2**32, 1 <= d <= 40 held exactly in float64: x * inv is
    off the true quotient by < 2**-20 (far below 1/d), so floor() errs by at most one (when
    x / d is an integer), which the correction undoes; q * d and x - q * d are exact."""
    q = np.floor(x * inv)
    r = x - q * d
    if r < 0.0:
        r += d
    elif r >= d:
        r -= d
    return r


@njit(cache=True)
def _mod_small(z, d):
    """``z % d`` (uint64 z, 1 <= d <= NUM_CARDS) as an int64, exactly; see ``_fmod_small``."""
    df = _MOD_D[d]
    inv = _MOD_INV[d]
    hi = _fmod_small(float(z >> np.uint64(32)), df, inv)
    lo = _fmod_small(float(z & np.uint64(0xFFFFFFFF)), df, inv)
    return np.int64(_fmod_small(hi * _MOD_2_32[d] + lo, df, inv))


@njit(cache=True)
def _deal(n, my_hand, left, known, weak, deck, state, hands, cnt, power):
    """One deal of ``simulate_truque``: shuffle ``deck`` in place (from the order the last deal
    left) and fill ``hands``/``cnt``; returns the new RNG state. Independent of my first card."""
    m = deck.shape[0]
    for i in range(m - 1, 0, -1):
        state, z = splitmix_next(state)
        j = _mod_small(z, i + 1) if i < NUM_CARDS else np.int64(z % np.uint64(i + 1))
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t
    pos = 0
    for r in range(n):
        cnt[r] = 0
        if r == 0:
            for i in range(my_hand.shape[0]):
                hands[0, i] = my_hand[i]
            cnt[0] = my_hand.shape[0]
            continue
        need = left[r]
        if known[r] >= 0 and need > 0:
            hands[r, 0] = known[r]
            cnt[r] = 1
        while cnt[r] < need and pos < m:
            if weak[r] == 1:  # bring a card below the doses to the front, if any is left
                for j in range(pos, m):
                    if power[deck[j]] < POWER_DOS:
                        t = deck[pos]
                        deck[pos] = deck[j]
                        deck[j] = t
                        break
            hands[r, cnt[r]] = deck[pos]
            cnt[r] += 1
            pos += 1
    return state


@njit(cache=True)
def _play_out(n, hands, hp, cnt, in_truque, table0, results0, baza0, turn, mano, first_card, table, res,
              order, power):
    """Play one deal to the end (``hands``, their powers ``hp`` and ``cnt`` are consumed); the
    outcome as ``_result_of``.

    Seats run 0..n-1, so the turn order steps with a wrap instead of ``%``, and each team's best
    card on the table is kept as cards fall instead of rescanning the table for every player.
    """
    for i in range(3):
        res[i] = results0[i]
    nres = baza0
    b = baza0
    first = turn
    for r in range(n):
        table[r] = table0[r]
    outcome = _result_of(res, nres)
    while outcome < 0 and b < 3:
        best0 = 0  # each team's best power on the table
        best1 = 0
        for r in range(n):
            if table[r] >= 0:
                if r & 1 == 0:
                    best0 = max(best0, power[table[r]])
                else:
                    best1 = max(best1, power[table[r]])
        # the players still to play in this baza, from the turn holder
        k = 0
        r = first
        for _ in range(n):
            if in_truque[r] == 1 and table[r] < 0 and cnt[r] > 0:
                order[k] = r
                k += 1
            r += 1
            if r == n:
                r = 0
        for q in range(k):
            r = order[q]
            if r & 1 == 0:
                ours, theirs = best0, best1
            else:
                ours, theirs = best1, best0
            if r == 0 and b == baza0 and first_card >= 0:
                i = 0
                for j in range(cnt[0]):
                    if hands[0, j] == first_card:
                        i = j
            else:
                i = _pick(hp, r, cnt[r], ours, theirs)
            pc = hp[r, i]
            table[r] = hands[r, i]
            cnt[r] -= 1
            hands[r, i] = hands[r, cnt[r]]
            hp[r, i] = hp[r, cnt[r]]
            if r & 1 == 0:
                best0 = max(best0, pc)
            else:
                best1 = max(best1, pc)
        # resolve the baza (13.5, 13.7, 16.1): the first of the highest, from the leader
        b0 = best0
        b1 = best1
        top = max(b0, b1)
        win_seat = -1
        r = first
        for _ in range(n):
            if table[r] >= 0 and power[table[r]] == top:
                win_seat = r
                break
            r += 1
            if r == n:
                r = 0
        if b0 == b1:
            res[b] = 2
            first = mano
        else:
            res[b] = 0 if b0 > b1 else 1
            first = win_seat
        b += 1
        nres = b
        if res[nres - 1] == 2 and nres == 3 and res[0] == 2 and res[1] == 2:
            # all pardas: the player closest to mano among the highest of the third (16.5)
            best_off = n
            owner = 0
            for r in range(n):
                if table[r] >= 0 and power[table[r]] == top:
                    o = (r - mano + n) % n
                    if o < best_off:
                        best_off = o
                        owner = r % 2
            return 1 if owner == 0 else 0
        for r in range(n):
            table[r] = -1
        outcome = _result_of(res, nres)
    return outcome


@njit(cache=True)
def simulate_truque_cards(n, my_hand, left, in_truque, table0, known, weak, pool, results0, baza0,
                          turn, mano, first_cards, samples, seed):
    """``simulate_truque`` for each card of ``first_cards`` at once, on the same deals: entry k
    is bit-identical to ``simulate_truque(..., first_cards[k], samples, seed)``, since the deals
    (the RNG stream and the deck's order) never depend on the first card. Dealing once per
    sample instead of once per card is most of the saving."""
    power = POWER_NB
    state = np.uint64(seed)
    dealt = np.zeros((8, 3), dtype=np.int64)
    dealt_cnt = np.zeros(8, dtype=np.int64)
    dealt_hp = np.zeros((8, 3), dtype=np.int64)  # the powers of the dealt cards
    hands = np.zeros((8, 3), dtype=np.int64)
    hp = np.zeros((8, 3), dtype=np.int64)
    cnt = np.zeros(8, dtype=np.int64)
    table = np.zeros(8, dtype=np.int64)
    res = np.zeros(3, dtype=np.int64)
    order = np.zeros(8, dtype=np.int64)
    deck = pool.copy()
    nc = first_cards.shape[0]
    totals = np.zeros(nc)
    for _ in range(samples):
        state = _deal(n, my_hand, left, known, weak, deck, state, dealt, dealt_cnt, power)
        for r in range(n):
            for i in range(dealt_cnt[r]):
                dealt_hp[r, i] = power[dealt[r, i]]
        for k in range(nc):
            for r in range(n):
                for i in range(dealt_cnt[r]):
                    hands[r, i] = dealt[r, i]
                    hp[r, i] = dealt_hp[r, i]
                cnt[r] = dealt_cnt[r]
            outcome = _play_out(n, hands, hp, cnt, in_truque, table0, results0, baza0, turn, mano,
                                first_cards[k], table, res, order, power)
            if outcome == 1:
                totals[k] += 1.0
            elif outcome == 2:
                totals[k] += 0.5
    return totals / samples


@njit(cache=True)
def simulate_truque(n, my_hand, left, in_truque, table0, known, weak, pool, results0, baza0,
                    turn, mano, first_card, samples, seed):
    """P(team 0 wins the truque): the unseen cards dealt at random to the other players'
    remaining slots (a partner's signalled card kept in his hand, a partner who signalled
    "ciega"/"flor" drawing only cards below the doses), then every player, me included after
    ``first_card``, plays by ``_pick``. Relative seats: even = my team; play order r+1."""
    first_cards = np.full(1, first_card, dtype=np.int64)
    return simulate_truque_cards(n, my_hand, left, in_truque, table0, known, weak, pool, results0,
                                 baza0, turn, mano, first_cards, samples, seed)[0]



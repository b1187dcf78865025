"""The truque by simulation: deal the unseen cards, play the bazas out (numba).

Part of the Moteño heuristic (``agents.heuristic``; the bot is described there)."""

from __future__ import annotations

import numpy as np
from numba import njit

from agents.heuristic.hands import POWER_DOS, POWER_NB
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
def _deal(n, my_hand, left, known, weak, deck, state, hands, cnt, power):
    """One deal of ``simulate_truque``: shuffle ``deck`` in place (from the order the last deal
    left) and fill ``hands``/``cnt``; returns the new RNG state. Independent of my first card."""
    m = deck.shape[0]
    for i in range(m - 1, 0, -1):
        state, z = splitmix_next(state)
        j = np.int64(z % np.uint64(i + 1))  # the hardware divide: faster here than float tricks
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
def _play_out(n, hp, cnt, in_truque, tp0, results0, baza0, turn, mano, first_power, tp, res):
    """Play one deal to the end; the outcome as ``_result_of``. ``hp[r, :cnt[r]]`` holds the
    powers of seat r's cards in ascending order (consumed), ``tp0`` the powers on the table
    (0: no card), ``first_power`` the power of my card in this baza (-1: none chosen).

    Only powers decide a baza, so a simulated player's hand is its sorted powers: the lowest card
    is ``hp[r, 0]``, the highest ``hp[r, cnt - 1]``, the cheapest that beats the rivals the first
    above their best. Leading, a player plays his highest; with a partner winning, his lowest;
    else the cheapest card that beats the rivals, or his lowest.
    """
    for i in range(3):
        res[i] = results0[i]
    nres = baza0
    b = baza0
    first = turn
    for r in range(n):
        tp[r] = tp0[r]
    outcome = _result_of(res, nres)
    while outcome < 0 and b < 3:
        best0 = 0  # each team's best power on the table
        best1 = 0
        for r in range(n):
            if r & 1 == 0:
                best0 = max(best0, tp[r])
            else:
                best1 = max(best1, tp[r])
        r = first
        for _ in range(n):  # the players still to play in this baza, from the turn holder
            c = cnt[r]
            if in_truque[r] == 1 and tp[r] == 0 and c > 0:
                if r & 1 == 0:
                    ours, theirs = best0, best1
                else:
                    ours, theirs = best1, best0
                i = 0
                if r == 0 and b == baza0 and first_power >= 0:
                    for j in range(c):
                        if hp[0, j] == first_power:
                            i = j
                            break
                elif ours == 0 and theirs == 0:
                    i = c - 1
                elif ours <= theirs:
                    while i < c and hp[r, i] <= theirs:
                        i += 1
                    if i == c:
                        i = 0
                pc = hp[r, i]
                tp[r] = pc
                for j in range(i, c - 1):
                    hp[r, j] = hp[r, j + 1]
                cnt[r] = c - 1
                if r & 1 == 0:
                    best0 = max(best0, pc)
                else:
                    best1 = max(best1, pc)
            r += 1
            if r == n:
                r = 0
        # resolve the baza (13.5, 13.7, 16.1): the first of the highest, from the turn holder
        top = max(best0, best1)
        win_seat = -1
        r = first
        for _ in range(n):
            if tp[r] == top:
                win_seat = r
                break
            r += 1
            if r == n:
                r = 0
        if best0 == best1:
            res[b] = 2
            first = mano
        else:
            res[b] = 0 if best0 > best1 else 1
            first = win_seat
        b += 1
        nres = b
        if nres == 3 and res[0] == 2 and res[1] == 2 and res[2] == 2:
            # all pardas: the player closest to mano among the highest of the third (16.5)
            best_off = n
            owner = 0
            for r in range(n):
                if tp[r] == top and tp[r] > 0:
                    o = (r - mano + n) % n
                    if o < best_off:
                        best_off = o
                        owner = r % 2
            return 1 if owner == 0 else 0
        for r in range(n):
            tp[r] = 0
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
    dealt_hp = np.zeros((8, 3), dtype=np.int64)  # the powers of the dealt cards, ascending per seat
    hp = np.zeros((8, 3), dtype=np.int64)
    cnt = np.zeros(8, dtype=np.int64)
    tp0 = np.zeros(8, dtype=np.int64)
    for r in range(n):
        tp0[r] = power[table0[r]] if table0[r] >= 0 else 0
    tp = np.zeros(8, dtype=np.int64)
    res = np.zeros(3, dtype=np.int64)
    deck = pool.copy()
    nc = first_cards.shape[0]
    first_powers = np.empty(nc, dtype=np.int64)
    for k in range(nc):
        first_powers[k] = power[first_cards[k]] if first_cards[k] >= 0 else -1
    totals = np.zeros(nc)
    for _ in range(samples):
        state = _deal(n, my_hand, left, known, weak, deck, state, dealt, dealt_cnt, power)
        for r in range(n):
            m = dealt_cnt[r]
            for i in range(m):  # insertion sort of at most three powers
                x = power[dealt[r, i]]
                j = i
                while j > 0 and dealt_hp[r, j - 1] > x:
                    dealt_hp[r, j] = dealt_hp[r, j - 1]
                    j -= 1
                dealt_hp[r, j] = x
        for k in range(nc):
            for r in range(n):
                for i in range(dealt_cnt[r]):
                    hp[r, i] = dealt_hp[r, i]
                cnt[r] = dealt_cnt[r]
            outcome = _play_out(n, hp, cnt, in_truque, tp0, results0, baza0, turn, mano, first_powers[k], tp, res)
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
    ``first_card``, plays by the card rule of ``_play_out``. Relative seats: even = my team; play order r+1."""
    first_cards = np.full(1, first_card, dtype=np.int64)
    return simulate_truque_cards(n, my_hand, left, in_truque, table0, known, weak, pool, results0,
                                 baza0, turn, mano, first_cards, samples, seed)[0]



"""The Moteño heuristic's decisions as numba kernels over a batch of observations (``decide_batch``).

Part of the Moteño heuristic (``agents.heuristic``; the bot is described there), part 4 of its
kernels: the blind round, the cante, the flores, the envite, the truco and the card, one row
(``_decide``) and the batch. The layout of a row's reading, and how the four kernel modules
(``reading.py``, ``odds.py``, ``answers.py``, this one) agree with their readable twin
``reference.py``, are described in ``reading.py``.

Draws: a row takes at most one 64-bit draw ``x``: in the blind round a uniform ``(x >> 11) / 2**53``,
elsewhere the seed ``x >> 2`` of the truque simulation (at most one per row; later reads reuse
it). Rows with decision keys draw from their key (in parallel); rows without take the policy
generator's next output, in row order (``decide_batch_sequential``).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from agents.heuristic.answers import _answer, _coin, _flores_counts, _sena
from agents.heuristic.hands import POWER_NB, TOP_POWER
from agents.heuristic.odds import (
    _card_in_baza,
    _eq1,
    _eq_bet,
    _first_rival_in_mano,
    _flor_vs_rivals,
    _odds_of,
    _truco_by_card,
    flor_prob,
    pares_prob,
    truco_prob,
)
from agents.heuristic.reading import (
    INTERNAL_ERROR,
    P_BLIND_ENVITE,
    P_BLIND_ENVITE_PARES,
    P_BLIND_TRUCO,
    P_BLUFF_ENVITE,
    P_BLUFF_ENVITE_PARES,
    P_BLUFF_TRUCO,
    P_FLOR_BET,
    P_FLOR_FALTA,
    P_FLOR_RAISE,
    P_HIDE_RESERVADA,
    P_HOLD,
    P_LOOKAHEAD,
    P_LOOKAHEAD_MARGIN,
    P_PARES_BET,
    P_PARES_FALTA,
    P_PARES_RAISE,
    P_TRUCO_CHALLENGE,
    P_TRUCO_RAISE,
    PH_ANSWER,
    PH_BLIND,
    PH_CANTE,
    PH_FLOR_ENVITE,
    PH_FLOR_ROUND,
    PH_PLAY,
    PH_RESERVADA,
    RES_L,
    RES_P,
    RES_W,
    V_BAZA,
    V_DREW,
    V_EX_KIND,
    V_FALTA,
    V_HAND,
    V_IN_TRUQUE,
    V_MY_FLOR,
    V_MY_RESERVADA,
    V_N,
    V_NHAND,
    V_NPLAYED,
    V_NRES,
    V_PARES_STAKE,
    V_PARES_STATE,
    V_PHASE,
    V_RES,
    V_SANG,
    V_SIZE,
    V_UNSEEN_BITS,
    _read,
)
from agents.heuristic.view import EX_NONE
from truque_env.cards import NUM_CARDS
from truque_env.engine.rng import mix64
from truque_env.traditions.moteno import actions as A

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
def _falso_envite(mask, prm):
    """envío N pares de falso (N: bluff_envite_pares); la falta when it is less than N pares (6.16)."""
    a = A.PARES_BASE + np.int64(prm[P_BLUFF_ENVITE_PARES]) - 1
    if mask[a]:
        return a
    return A.FALTA if mask[A.FALTA] else A.PARES_BASE


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
            return _falso_envite(mask, prm)
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

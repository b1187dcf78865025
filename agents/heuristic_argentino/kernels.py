"""The argentino heuristic's decisions as one numba kernel over a batch of observations: no
Python per table (``decide_batch``, a ``prange`` over the rows).

It reads only the observation (``truque_env.traditions.argentino.observation``) and the mask, and
returns a legal action for every row. The reading, by the slices' names:

* **my three cards**: ``hand`` (unplayed) and ``played_by[0]`` (played); envido and flor from
  them (``rules.envido_value_nb``, ``flor_value_nb``);
* **the cards not seen**: every card not in my hand and not played; a card of mine beats a
  random one of them with the fraction of weaker ones (ties half), ``power`` of ruling A3;
* **the truco**: the chance that my team takes it, from the bazas decided (``baza_result``), the
  cards on the table in this baza and my remaining cards' chances, partners counted as average
  hands (and better when they signalled a mata or an ancho);
* **bets**: thresholds on the envido and on that chance, moved by the score: bolder when the
  rivals are close to the target, careful when a refusal would not cost the juego.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
from numba import njit, prange

from truque_env.cards import CARD_SUIT
from truque_env.traditions.argentino import actions as A
from truque_env.traditions.argentino import observation as O
from truque_env.traditions.argentino.rules import (
    ENVIDO_CARD_VALUE,
    POWER,
    envido_value_nb,
    flor_value_nb,
)

# observation offsets (compile-time constants)
HAND = O.SLICES["hand"][0]
PLAYED_BY = O.SLICES["played_by"][0]
PLAYED_IN = O.SLICES["played_in"][0]
PHASE = O.SLICES["phase"][0]
TEAM_SIZE = O.SLICES["team_size"][0]
BAZA = O.SLICES["baza"][0]
BAZA_RESULT = O.SLICES["baza_result"][0]
SCORE = O.SLICES["score"][0]
P_TARGET = O.PARTS["target_falta.target"][0]
P_FALTA = O.PARTS["target_falta.falta"][0]
ENV_STAKE = O.PARTS["envido.stake"][0]
ENV_FALTA = O.PARTS["envido.falta"][0]
ENV_PREV = O.PARTS["envido.refusal_pays"][0]
TR_LEVEL = O.PARTS["truco.level"][0]
FL_LEVEL = O.PARTS["flor.level"][0]
EX_KIND = O.PARTS["exchange.kind"][0]
SENAS = O.SLICES["senas_seen"][0]
SENAS_LEFT = O.SLICES["senas_left"][0]
NUM_SENAS = A.NUM_SENAS

def _envido_beats() -> np.ndarray:
    """ENVIDO_BEATS[e]: the chance that an envido of e beats a random hand's (ties half)."""
    counts = np.zeros(41)
    for a, b, c in combinations(range(40), 3):
        counts[envido_value_nb(a, b, c, CARD_SUIT, ENVIDO_CARD_VALUE)] += 1
    counts /= counts.sum()
    below = np.concatenate([[0.0], np.cumsum(counts)[:-1]])
    return below + 0.5 * counts


ENVIDO_BEATS = _envido_beats()

# params (HeuristicArgentinoConfig.as_array)
P_ENV_OPEN, P_ENV_REAL, P_ENV_FALTA, P_ENV_RESPECT, P_TRUCO_RESPECT = 0, 1, 2, 3, 4
P_TRUCO_CALL, P_TRUCO_RAISE, P_BLUFF_ENVIDO, P_BLUFF_TRUCO, P_SENA_RATE = 5, 6, 7, 8, 9
P_SKILL_EDGE, P_EQUITY_EXPONENT, P_TODO_DICHO_FALTA, P_BLUFF_FALTA = 10, 11, 12, 13
NUM_PARAMS = 14


@njit(cache=True)
def _equity(i_need, they_need, edge, g):
    """P(my team wins the juego) in a race: each team's chance goes with the tantos the other
    still needs, mine times ``edge`` (> 1: it expects to outplay the rivals, so it avoids coin flips
    for the juego)."""
    if i_need <= 0:
        return 1.0
    if they_need <= 0:
        return 0.0
    a = (they_need * edge) ** g
    return a / (a + i_need ** g)


@njit(cache=True)
def _worth_accepting(p, stake, refusal, i_need, they_need, edge, g):
    """Accepting a bet of ``stake`` won with chance ``p`` beats refusing it (the rivals take
    ``refusal``) in juego equity."""
    accept = p * _equity(i_need - stake, they_need, edge, g) + (1 - p) * _equity(i_need, they_need - stake, edge, g)
    return accept > _equity(i_need, they_need - refusal, edge, g)


@njit(cache=True)
def _unseen_powers(o, counts):
    """``counts[p]``: how many cards of truco power ``p`` I have not seen (not in my hand, not
    played); returns how many cards that is."""
    counts[:] = 0
    unseen = 0
    for c in range(40):
        known = o[HAND + c] != 0
        for r in range(8):
            if o[PLAYED_BY + r * 40 + c]:
                known = True
        if not known:
            counts[POWER[c]] += 1
            unseen += 1
    return unseen


@njit(cache=True)
def _beat_chance(counts, unseen, power):
    """P(a card of ``power`` beats a random card not seen), ties half."""
    if unseen == 0:
        return 0.5
    lower = 0.0
    for p in range(1, power):
        lower += counts[p]
    return (lower + 0.5 * counts[power]) / unseen


@njit(cache=True)
def _truco_chance(o, ts, partner_bonus):
    """P(my team takes the truco): the remaining bazas enumerated as won or lost, each with the
    chance of one of my cards (strongest first) helped by average partners; in the baza being
    played, the cards on the table count as they are (every rival played: my lowest card that
    beats the table wins it)."""
    res = np.full(3, -1)  # 0 mine, 1 rival, 2 parda, -1 to play
    decided = 0
    for b in range(3):
        for k in range(3):
            if o[BAZA_RESULT + 3 * b + k]:
                res[b] = k
                decided = b + 1
    powers = np.zeros(3, dtype=np.int64)
    q = np.zeros(3)
    counts = np.zeros(15, dtype=np.int64)
    unseen = _unseen_powers(o, counts)  # once: the same cards not seen for each of mine
    m = 0
    for c in range(40):
        if o[HAND + c]:
            powers[m] = POWER[c]
            q[m] = _beat_chance(counts, unseen, POWER[c])
            m += 1
    # strongest first
    for i in range(m):
        for j in range(i + 1, m):
            if q[j] > q[i]:
                t = q[i]
                q[i] = q[j]
                q[j] = t
                tp = powers[i]
                powers[i] = powers[j]
                powers[j] = tp
    w = np.zeros(3)
    for i in range(m):
        mine = q[i] ** ts
        w[i] = 1.0 - (1.0 - mine) * (1.0 - min(0.95, 0.5 ** ts + partner_bonus)) ** (ts - 1)
    # the baza on the table: the rivals' best card there and how many rivals have played
    b = decided
    best_rival, best_mine, rivals_played = 0, 0, 0
    if b < 3:
        for c in range(40):
            if o[PLAYED_IN + b * 40 + c]:
                for r in range(8):
                    if o[PLAYED_BY + r * 40 + c]:
                        if r % 2 == 1:
                            best_rival = max(best_rival, POWER[c])
                            rivals_played += 1
                        else:
                            best_mine = max(best_mine, POWER[c])
    if rivals_played == ts and m > 0:
        # every rival has played this baza: it is mine if my team beats the table with a card
        # (my lowest beating card goes to it), else lost, my lowest card thrown
        take = -1
        for i in range(m - 1, -1, -1):  # from the weakest
            if powers[i] > best_rival:
                take = i
                break
        won_now = best_mine > best_rival or take >= 0
        drop = take if take >= 0 and best_mine <= best_rival else m - 1
        k = 0
        for i in range(m):
            if i != drop:
                q[k] = w[i]
                k += 1
        for i in range(k):
            w[i] = q[i]
        m -= 1
        res[b] = 0 if won_now else 1
        decided = b + 1
    remaining = 3 - decided
    if remaining <= 0:
        return _winner_is_mine(res)
    total = 0.0
    for mask in range(1 << remaining):
        p = 1.0
        r = res.copy()
        for k in range(remaining):
            win = (mask >> k) & 1
            pk = w[k] if k < m else 0.5
            p *= pk if win else 1.0 - pk
            r[decided + k] = 0 if win else 1
        total += p * _winner_is_mine(r)
    return total


@njit(cache=True)
def _winner_is_mine(r):
    P = 2
    r0, r1, r2 = r[0], r[1], r[2]
    if r0 != P and (r1 == r0 or r1 == P):
        return 1.0 if r0 == 0 else 0.0
    if r0 == P and r1 != P:
        return 1.0 if r1 == 0 else 0.0
    if r2 != P and r2 >= 0:
        return 1.0 if r2 == 0 else 0.0
    return 1.0 if r0 == 0 else (0.5 if r0 == P else 0.0)


@njit(cache=True)
def _partner_signal(o, ts):
    """A bonus for the truco when a partner signalled a strong card (an ancho, a siete, a tres)."""
    bonus = 0.0
    for r in range(2, 2 * ts, 2):
        for k in range(5):
            if o[SENAS + r * NUM_SENAS + k]:
                bonus = max(bonus, 0.25 - 0.04 * k)
    return bonus


@njit(cache=True)
def _card_to_play(o, mask, ts):
    """The lowest card that takes the baza over the table when my team is not already winning it;
    the lowest card otherwise; leading, the middle card in the first baza, the highest later."""
    b = 0
    for k in range(3):
        if o[BAZA + k]:
            b = k
    best_rival = 0
    best_mine = 0
    on_table = 0
    for c in range(40):
        if o[PLAYED_IN + b * 40 + c]:
            on_table += 1
            for r in range(8):
                if o[PLAYED_BY + r * 40 + c]:
                    if r % 2 == 1:
                        best_rival = max(best_rival, POWER[c])
                    else:
                        best_mine = max(best_mine, POWER[c])
    low, high, mid = -1, -1, -1
    cards = np.full(3, -1)
    n = 0
    for a in range(A.PLAY_BASE, A.PLAY_BASE + 40):
        if mask[a]:
            cards[n] = a - A.PLAY_BASE
            n += 1
    for i in range(n):
        for j in range(i + 1, n):
            if POWER[cards[j]] < POWER[cards[i]]:
                t = cards[i]
                cards[i] = cards[j]
                cards[j] = t
    low, high = cards[0], cards[n - 1]
    mid = cards[n // 2]
    if on_table == 0:
        won_one = o[BAZA_RESULT + 0] == 1 or (b == 2 and o[BAZA_RESULT + 3] == 1)
        if b == 0:
            return A.PLAY_BASE + mid
        return A.PLAY_BASE + (low if won_one else high)
    if best_mine > best_rival:
        return A.PLAY_BASE + low
    for i in range(n):
        if POWER[cards[i]] > best_rival:
            return A.PLAY_BASE + cards[i]
    first_mine = o[BAZA_RESULT + 0] == 1
    if b > 0 and first_mine:  # a parda after winning the first baza wins the truco
        for i in range(n):
            if POWER[cards[i]] == best_rival:
                return A.PLAY_BASE + cards[i]
    return A.PLAY_BASE + low


@njit(cache=True)
def _sena(o, cards, flor):
    """The honest seña: the best card in the order of the vocabulary, else flor, else nada."""
    order = (20, 30, 26, 6)  # 1E, 1B, 7E, 7O
    for k in range(4):
        for i in range(3):
            if cards[i] == order[k]:
                return A.SENA_BASE + k
    for i in range(3):
        if cards[i] % 10 == 2:  # a tres (rank index 2)
            return A.SENA_BASE + 4
    for i in range(3):
        if cards[i] % 10 == 1:  # a dos
            return A.SENA_BASE + 5
    if flor:
        return A.SENA_BASE + 6
    return A.SENA_BASE + 7


@njit(cache=True)
def _first(mask, a, b):
    for x in range(a, b):
        if mask[x]:
            return x
    return -1


@njit(cache=True)
def decide(o, mask, u, params, out_i):
    ts = 1
    for k in range(3):
        if o[TEAM_SIZE + k]:
            ts = k + 1
    mine, theirs = np.int64(o[SCORE]), np.int64(o[SCORE + 1])
    target = np.int64(o[P_TARGET])
    falta = np.int64(o[P_FALTA])
    they_lack = target - theirs
    # the blind round (A33): only when far behind and the rivals are about to go out
    if o[PHASE + 0]:
        if mask[A.TODO_DICHO] and mine > theirs and falta <= params[P_TODO_DICHO_FALTA]:
            return A.TODO_DICHO  # well ahead: the falta is what I lack, too little to take the rivals out
        return A.PASO
    cards = np.full(3, -1)
    O.my_cards(o, cards)
    env = envido_value_nb(cards[0], cards[1], cards[2], CARD_SUIT, ENVIDO_CARD_VALUE)
    flor = flor_value_nb(cards[0], cards[1], cards[2], CARD_SUIT, ENVIDO_CARD_VALUE)
    # the flor, sung as the only word
    if mask[A.FLOR] and _first(mask, 0, A.SENA_BASE) == A.FLOR and _first(mask, A.FLOR + 1, A.SENA_BASE) < 0:
        return A.FLOR
    # an honest seña at the first chance (team games only: in 1 contra 1 only a rival could see it)
    if ts > 1 and mask[A.SENA_BASE] and u[0] < params[P_SENA_RATE]:
        return _sena(o, cards, flor > 0)
    bonus = _partner_signal(o, ts)
    p_truco = _truco_chance(o, ts, bonus)
    kind = 0
    for k in range(6):
        if o[EX_KIND + k]:
            kind = k
    i_lack = target - mine
    # the chance that my team's envido is the best: the best of mine and my partners' (random
    # hands) against the rivals' (random hands): F^(2ts-1) + (ts-1)/(2ts-1) (1 - F^(2ts-1))
    f_all = ENVIDO_BEATS[env] ** (2 * ts - 1)
    p_env = f_all + (ts - 1) / (2 * ts - 1) * (1.0 - f_all)
    if o[PHASE + 2]:  # an answer
        if kind == 4:  # the flor
            lvl = 0
            for k in range(3):
                if o[FL_LEVEL + k]:
                    lvl = k
            if lvl == 0:
                if flor >= 35 and mask[A.AL_RESTO]:
                    return A.AL_RESTO
                if flor >= 31 and mask[A.CONTRAFLOR]:
                    return A.CONTRAFLOR
                return A.FLOR if flor >= 26 or they_lack <= 4 else A.ME_ACHICO
            if lvl == 1:
                if flor >= 35 and mask[A.AL_RESTO]:
                    return A.AL_RESTO
                return A.CON_FLOR_QUIERO if flor >= 31 else A.ME_ACHICO
            return A.CON_FLOR_QUIERO if flor >= 33 or they_lack <= 4 else A.CON_FLOR_NO_QUIERO
        envido_yes = False
        raise_k = -1
        stake = 0
        if kind == 1 or kind == 3:
            is_falta = o[ENV_FALTA] == 1
            stake = falta if is_falta else np.int64(o[ENV_STAKE])
            refusal = np.int64(o[ENV_PREV])
            envido_yes = _worth_accepting(p_env - params[P_ENV_RESPECT], stake, refusal, i_lack, they_lack,
                                          params[P_SKILL_EDGE], params[P_EQUITY_EXPONENT])
            if not is_falta and p_env >= params[P_ENV_FALTA] and _worth_accepting(
                    p_env, falta, stake, i_lack, they_lack, params[P_SKILL_EDGE], params[P_EQUITY_EXPONENT]):
                raise_k = 2
            elif not is_falta and p_env >= params[P_ENV_REAL]:
                raise_k = 1
        if kind == 1:
            if raise_k >= 0 and mask[A.ENVIDO + raise_k]:
                return A.ENVIDO + raise_k
            if not envido_yes and mask[A.PASO]:
                return A.PASO  # a partner after me may hold what I lack
            return A.QUIERO if envido_yes else A.NO_QUIERO
        level = 1
        for k in range(4):
            if o[TR_LEVEL + k]:
                level = k
        worth, refused = level + 1, level  # the truco called at this level, and what refusing pays
        truco_yes = _worth_accepting(p_truco - params[P_TRUCO_RESPECT], worth, refused, i_lack, they_lack,
                                     params[P_SKILL_EDGE], params[P_EQUITY_EXPONENT])
        if kind == 2:
            if mask[A.ENVIDO] or mask[A.REAL_ENVIDO] or mask[A.FALTA_ENVIDO]:  # el envido está primero
                if p_env >= params[P_ENV_REAL] and mask[A.REAL_ENVIDO]:
                    return A.REAL_ENVIDO
                if p_env >= params[P_ENV_OPEN] and mask[A.ENVIDO]:
                    return A.ENVIDO
            if not truco_yes and mask[A.PASO]:
                return A.PASO
            return A.QUIERO if truco_yes else A.NO_QUIERO
        if kind == 3:  # both at once: the four answers weighed together in juego equity
            edge, g = params[P_SKILL_EDGE], params[P_EQUITY_EXPONENT]
            pe = p_env - params[P_ENV_RESPECT]
            pt = p_truco - params[P_TRUCO_RESPECT]
            s_env, r_env = stake, np.int64(o[ENV_PREV])
            e_none = _equity(i_lack, they_lack - r_env - refused, edge, g)
            e_env = (pe * _equity(i_lack - s_env, they_lack - refused, edge, g)
                     + (1 - pe) * _equity(i_lack, they_lack - s_env - refused, edge, g))
            e_truco = (pt * _equity(i_lack - worth, they_lack - r_env, edge, g)
                       + (1 - pt) * _equity(i_lack, they_lack - r_env - worth, edge, g))
            e_both = (pe * pt * _equity(i_lack - s_env - worth, they_lack, edge, g)
                      + pe * (1 - pt) * _equity(i_lack - s_env, they_lack - worth, edge, g)
                      + (1 - pe) * pt * _equity(i_lack - worth, they_lack - s_env, edge, g)
                      + (1 - pe) * (1 - pt) * _equity(i_lack, they_lack - s_env - worth, edge, g))
            best = max(max(e_none, e_env), max(e_truco, e_both))
            if mask[A.PASO] and best == e_none:
                return A.PASO  # a partner after me may hold what I lack
            if best == e_both:
                if raise_k >= 0 and p_truco >= params[P_TRUCO_RAISE]:
                    base = A.Y_QUIERO_RETRUCO if level == 1 else A.Y_QUIERO_VALE_CUATRO
                    if mask[base + raise_k]:
                        return base + raise_k
                return A.QUIERO
            if best == e_env:
                return A.SIN_LEY_QUIERO_Y_PASO
            if best == e_truco:
                return A.SIN_LEY_PASO_Y_QUIERO
            return A.NO_QUIERO
        if kind == 5:  # uno y uno: take it with a poor hand
            return A.QUIERO if p_truco < 0.35 and p_env < 0.5 else A.NO_QUIERO
        return A.QUIERO
    # my turn to play
    if mask[A.ENVIDO] or mask[A.REAL_ENVIDO] or mask[A.FALTA_ENVIDO]:
        if mask[A.FALTA_ENVIDO] and u[1] < params[P_BLUFF_FALTA]:
            return A.FALTA_ENVIDO  # whatever the hand: the faltero (0 by default: the heuristic's decisions)
        bluff = u[1] < params[P_BLUFF_ENVIDO]
        if mask[A.FALTA_ENVIDO] and p_env >= params[P_ENV_FALTA] and _worth_accepting(
                p_env, falta, 0, i_lack, they_lack, params[P_SKILL_EDGE], params[P_EQUITY_EXPONENT]):
            return A.FALTA_ENVIDO  # accepted, it is worth more to me than the mano as it stands
        if p_env >= params[P_ENV_REAL] and mask[A.REAL_ENVIDO]:
            return A.REAL_ENVIDO
        if (p_env >= params[P_ENV_OPEN] or bluff) and mask[A.ENVIDO]:
            return A.ENVIDO
    if mask[A.UNO_Y_UNO] and p_truco < 0.3 and p_env < 0.45:
        return A.UNO_Y_UNO
    if mask[A.TRUCO] and (p_truco >= params[P_TRUCO_CALL] or u[2] < params[P_BLUFF_TRUCO]):
        return A.TRUCO
    if (mask[A.RETRUCO] or mask[A.VALE_CUATRO]) and p_truco >= params[P_TRUCO_RAISE]:
        return A.RETRUCO if mask[A.RETRUCO] else A.VALE_CUATRO
    return _card_to_play(o, mask, ts)


@njit(cache=True)
def _any_legal(mask):
    for a in range(mask.shape[0]):
        if mask[a]:
            return a
    return -1


@njit(cache=True, parallel=True)
def decide_batch(obs, masks, uniforms, params, out):
    """``out[i]``: the decision for observation ``obs[i]`` with legal mask ``masks[i]`` and the
    row's uniform draws ``uniforms[i]`` (3 per row); always an action of the mask."""
    for i in prange(obs.shape[0]):
        a = decide(obs[i], masks[i], uniforms[i], params, i)
        if a < 0 or a >= masks.shape[1] or masks[i, a] == 0:
            a = _any_legal(masks[i])  # a case the rules above do not name: a legal action, never an illegal one
        out[i] = a

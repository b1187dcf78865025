"""The numba side of the 1 contra 1 MCCFR of Truque Moteño (``train.cfr.mccfr``): the sampled
traversal on the real engine and a test match (the table of information sets and regret matching
are ``train.cfr.mccfr_table``, shared with argentino's ``mccfr_kernels_argentino``). The abstraction
(information-set keys, abstract actions) is ``agents.cfr_abstraction``, shared with the bot.

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

The traversal is an explicit stack because cached recursive kernels crashed when loaded. (The
abstraction being another file is safe for the cache: ``truque_env/_jit_cache.py`` keys the
whole cache folder by a digest of every numba source, so a change to it recompiles these.)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from agents.cfr_abstraction import NUM_ABSTRACT, abstract_actions, state_key
from train.cfr.mccfr_table import (  # noqa: F401  (the table's names, read by train.cfr.mccfr through this module)
    I_FILL,
    I_LOOKUPS,
    I_MAX_FILL,
    I_MISSES,
    I_NODES,
    I_STOP,
    INFO_SIZE,
    MAX_DEPTH,
    MAX_LOAD,
    STOP_DEPTH,
    STOP_FULL,
    average_strategy,
    regret_matching,
    sample_index,
    table_find,
    table_insert,
    table_insert_many,
)
from truque_env.engine.rng import mix64, uniform01
from truque_env.traditions.moteno import actions as A
from truque_env.traditions.moteno import kernels as K
from truque_env.traditions.moteno import layout as L
from truque_env.traditions.moteno import observation as O

# ------------------------------------------------------------------------------------------
# the trainer's kernels



# ------------------------------------------------------------------------------------------
# the table


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
def match_vs_random(manos, seed, target, keys, cum, info, rules):
    """Mean capped chinas per mano of the average policy against uniform random legal engine
    actions, over ``manos`` manos (fixed by ``seed``; the policy plays seat ``m % 2`` of mano
    ``m``). Unseen information sets play uniformly over the legal abstract actions (counted in
    ``info[I_MISSES]`` of ``info[I_LOOKUPS]``)."""
    s = np.zeros(L.STATE_SIZE, dtype=np.int16)
    for k in range(rules.size):  # the tradition's rule words (header RULES), kept by init_table
        s[L.RULES + k] = rules[k]
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

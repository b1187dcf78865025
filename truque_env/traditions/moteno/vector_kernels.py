"""Kernels of the vector environment: step, score, auto-reset and observe every table at once."""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from truque_env.engine import header as H
from truque_env.engine.rng import splitmix_next
from truque_env.traditions.moteno import actions as A
from truque_env.traditions.moteno import kernels as K
from truque_env.traditions.moteno import layout as L
from truque_env.traditions.moteno import observation as O
from truque_env.traditions.moteno.batch import new_partida

EPISODE_MANO, EPISODE_JUEGO, EPISODE_PARTIDA = H.EPISODE_MANO, H.EPISODE_JUEGO, H.EPISODE_PARTIDA


@njit(cache=True)
def next_mano(s, hist):
    """Deal the next mano (a new partida first when the last one is over); clear the history."""
    if s[L.PARTIDA_OVER]:
        new_partida(s)
    K.deal_random(s)
    O.reset_history(hist)


@njit(cache=True)
def _emit(s, hist, obs, mask, i, seats, teams):
    p = s[L.TO_ACT]
    seats[i] = p
    teams[i] = p % 2
    O.observe(s, hist, p, obs[i])
    K.legal_mask(s, mask[i])


@njit(cache=True, parallel=True)
def vec_reset(states, hists, obs, masks, seats, teams):
    """Deal a fresh partida on every table (states already initialised) and observe."""
    for i in prange(states.shape[0]):
        new_partida(states[i])
        next_mano(states[i], hists[i])
        _emit(states[i], hists[i], obs, masks, i, seats, teams)


@njit(cache=True)
def reset_tables(states, hists, obs, masks, seats, teams, idx, team_size, target, juegos, senas,
                 permille, table_seeds, deal_seeds):
    """A fresh partida on the tables ``idx`` only, seeded; ``deal_seeds[j] < 0``: no deal stream."""
    for j in range(idx.shape[0]):
        i = idx[j]
        s = states[i]
        K.init_table(s, team_size, target, juegos, senas, permille, table_seeds[j])
        if deal_seeds[j] >= 0:
            K.set_deal_stream(s, deal_seeds[j])
        new_partida(s)
        next_mano(s, hists[i])
        _emit(s, hists[i], obs, masks, i, seats, teams)


@njit(cache=True, parallel=True)
def vec_step(states, hists, actions, episode, reward_scale, win_reward, obs, masks, seats, teams, rewards,
             terminated, errors):
    """One decision on every table; see ``truque_env.vector.VectorEnv.step``.

    ``rewards[i, seat]``: what each seat earned in this step (chinas of its team minus the
    rival's, times ``reward_scale``); ``terminated[i]``: the episode ended and the table was
    reset; ``errors[i]``: ``kernels.OK`` or the code of an illegal action (table unchanged).
    With ``win_reward`` the reward is instead +1 to the team that wins a juego and -1 to the other,
    when it is won (nothing for the points of a mano).
    """
    for i in prange(states.shape[0]):
        s = states[i]
        hist = hists[i]
        n = np.int64(s[L.N_PLAYERS])
        for q in range(L.MAX_PLAYERS):
            rewards[i, q] = 0.0
        terminated[i] = False
        a = actions[i]
        # masks[i] is the legal mask of this state, written by the last _emit (no allocation)
        if a < 0 or a >= A.NUM_ACTIONS or masks[i, a] == 0:
            errors[i] = K.ERR_ILLEGAL
            continue
        errors[i] = K.OK
        O.record(s, hist, a)
        K.step_unchecked(s, a)
        if s[L.PHASE] == L.PH_DONE:
            if win_reward:
                w = s[L.LAST_JUEGO_WINNER]
                net = np.float32(0.0 if w < 0 else (1.0 if w == 0 else -1.0))
            else:
                net = np.float32((s[L.SCORED] - s[L.SCORED + 1]) * reward_scale)
            for q in range(n):
                rewards[i, q] = net if q % 2 == 0 else -net
            if episode == EPISODE_MANO:
                end = True
            elif episode == EPISODE_JUEGO:
                end = s[L.LAST_JUEGO_WINNER] >= 0
            else:
                end = s[L.PARTIDA_OVER] == 1
            if end:
                terminated[i] = True
                if episode != EPISODE_MANO:
                    new_partida(s)
            next_mano(s, hist)
        _emit(s, hist, obs, masks, i, seats, teams)


@njit(cache=True, parallel=True)
def sample_legal(masks, rng_states, out):
    """A uniformly random legal action per table (a fast baseline policy for tests and benchmarks)."""
    for i in prange(masks.shape[0]):
        count = 0
        for a in range(A.NUM_ACTIONS):
            count += masks[i, a]
        x, z = splitmix_next(np.uint64(rng_states[i]))
        rng_states[i] = np.int64(x)
        k = np.int64(z % np.uint64(max(count, 1)))
        out[i] = -1
        for a in range(A.NUM_ACTIONS):
            if masks[i, a]:
                if k == 0:
                    out[i] = a
                    break
                k -= 1

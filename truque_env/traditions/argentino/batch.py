"""Batched kernels: the same mano kernels over a 2-D array of tables, in parallel (``prange``).

``states`` has shape ``(num_tables, STATE_SIZE)``; ``masks`` ``(num_tables, NUM_ACTIONS)`` uint8.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from truque_env.engine.record import clear as clear_record
from truque_env.engine.rng import splitmix_next
from truque_env.traditions.argentino import actions as A
from truque_env.traditions.argentino import kernels as K
from truque_env.traditions.argentino import layout as L

# columns of the statistics written by random_manos
ST_MANOS = 0
ST_DECISIONS = 1
ST_ENVIDO_TANTOS = 2
ST_FLOR_TANTOS = 3
ST_TRUCO_TANTOS = 4
ST_MANOS_WITH_FLOR_SUNG = 5
ST_MANOS_WITH_ENVIDO = 6
ST_MANOS_WITH_TRUCO = 7
ST_JUEGOS = 8
ST_SENAS = 9
ST_HANDS_WITH_FLOR = 10
ST_HANDS = 11
ST_ENVIDO_VALUE_SUM = 12
ST_MANOS_WITH_TODO_DICHO = 13
NUM_STATS = 14


@njit(cache=True, parallel=True)
def init_tables(states, team_size, target, juegos, senas_limit, p_intercept_permille, seeds):
    for i in prange(states.shape[0]):
        K.init_table(states[i], team_size, target, juegos, senas_limit, p_intercept_permille, seeds[i])


@njit(cache=True, parallel=True)
def legal_masks(states, masks):
    for i in prange(states.shape[0]):
        K.legal_mask(states[i], masks[i])


@njit(cache=True, parallel=True)
def step_tables(states, actions, masks, errors):
    """Step every table with its action; ``errors[i]`` gets K.OK or an error code (table unchanged).

    ``masks`` is scratch space (it ends holding the legal masks the actions were checked against).
    """
    for i in prange(states.shape[0]):
        s = states[i]
        a = actions[i]
        if s[L.PHASE] == L.PH_DONE:
            errors[i] = K.ERR_DONE
            continue
        K.legal_mask(s, masks[i])
        if a < 0 or a >= A.NUM_ACTIONS or masks[i, a] == 0:
            errors[i] = K.ERR_ILLEGAL
            continue
        K.step_unchecked(s, a)
        errors[i] = K.OK


@njit(cache=True)
def new_partida(s):
    s[L.JUEGOS] = 0
    s[L.JUEGOS + 1] = 0
    s[L.SCORE] = 0
    s[L.SCORE + 1] = 0
    s[L.PARTIDA_OVER] = 0
    clear_record(s, L.REC_MANOS)


@njit(cache=True)
def _pick_uniform(mask, x):
    """A uniformly random legal action, from the policy generator state ``x``."""
    count = 0
    for a in range(A.NUM_ACTIONS):
        count += mask[a]
    x, z = splitmix_next(x)
    k = np.int64(z % np.uint64(count))
    for a in range(A.NUM_ACTIONS):
        if mask[a]:
            if k == 0:
                return x, a
            k -= 1
    return x, -1


@njit(cache=True)
def _random_manos_one(s, n_manos, policy_seed, stats):
    mask = np.zeros(A.NUM_ACTIONS, dtype=np.uint8)
    x = np.uint64(policy_seed)
    n = np.int64(s[L.N_PLAYERS])
    for _ in range(n_manos):
        if s[L.PARTIDA_OVER]:
            new_partida(s)
        K.deal_random(s)
        for seat in range(n):
            stats[ST_HANDS] += 1
            stats[ST_ENVIDO_VALUE_SUM] += s[L.ENVIDO_VAL + seat]
            if s[L.FLOR_VAL + seat] > 0:
                stats[ST_HANDS_WITH_FLOR] += 1
        while s[L.PHASE] != L.PH_DONE:
            K.legal_mask(s, mask)
            x, a = _pick_uniform(mask, x)
            K.step_unchecked(s, a)
            stats[ST_DECISIONS] += 1
        stats[ST_MANOS] += 1
        for team in range(2):
            stats[ST_ENVIDO_TANTOS] += s[L.CHINAS + 3 * team + L.SRC_ENVIDO]
            stats[ST_FLOR_TANTOS] += s[L.CHINAS + 3 * team + L.SRC_FLOR]
            stats[ST_TRUCO_TANTOS] += s[L.CHINAS + 3 * team + L.SRC_TRUCO]
        if s[L.FLOR_SUNG] != 0:
            stats[ST_MANOS_WITH_FLOR_SUNG] += 1
        if s[L.ENV_ST] != L.BET_NONE:
            stats[ST_MANOS_WITH_ENVIDO] += 1
        if s[L.TRUCO_ST] != L.BET_NONE:
            stats[ST_MANOS_WITH_TRUCO] += 1
        if s[L.TD_ST] != L.TD_NONE:
            stats[ST_MANOS_WITH_TODO_DICHO] += 1
        if s[L.LAST_JUEGO_WINNER] >= 0:
            stats[ST_JUEGOS] += 1
        stats[ST_SENAS] += s[L.SENA_LOG_N]


@njit(cache=True, parallel=True)
def random_manos(states, n_manos, policy_seeds, stats):
    """Play ``n_manos[i]`` uniformly random legal manos on table i; accumulate ``stats[i]``."""
    for i in prange(states.shape[0]):
        _random_manos_one(states[i], n_manos[i], policy_seeds[i], stats[i])


@njit(cache=True, parallel=True)
def deal_where(states, flags):
    """Deal a random mano on every table whose flag is set (a new partida when one ended)."""
    for i in prange(states.shape[0]):
        if flags[i]:
            if states[i, L.PARTIDA_OVER]:
                new_partida(states[i])
            K.deal_random(states[i])


@njit(cache=True, parallel=True)
def set_deal_streams(states, deal_seeds):
    """Make table i deal from ``deal_seeds[i]`` and its mano count (duplicate deals)."""
    for i in prange(states.shape[0]):
        K.set_deal_stream(states[i], deal_seeds[i])


# -- the statistics of random play, for ``truque simulate`` (Python level) ----------------------
def summarize(t) -> dict:
    """The statistics of random manos from the column totals ``t`` of ``random_manos``."""
    manos = int(t[ST_MANOS])
    return {
        "manos": manos,
        "decisions_per_mano": t[ST_DECISIONS] / manos,
        "hands_with_flor": t[ST_HANDS_WITH_FLOR] / t[ST_HANDS],
        "mean_envido_value": t[ST_ENVIDO_VALUE_SUM] / t[ST_HANDS],
        "manos_with_flor_sung": t[ST_MANOS_WITH_FLOR_SUNG] / manos,
        "manos_with_envido": t[ST_MANOS_WITH_ENVIDO] / manos,
        "manos_with_truco": t[ST_MANOS_WITH_TRUCO] / manos,
        "manos_with_todo_dicho": t[ST_MANOS_WITH_TODO_DICHO] / manos,
        "tantos_per_mano": {
            "envido": t[ST_ENVIDO_TANTOS] / manos,
            "flor": t[ST_FLOR_TANTOS] / manos,
            "truco": t[ST_TRUCO_TANTOS] / manos,
        },
        "juegos_finished": int(t[ST_JUEGOS]),
        "senas_per_mano": t[ST_SENAS] / manos,
    }


def report_rows(res: dict) -> list[tuple[str, str]]:
    """The rows of the report of ``truque simulate``: (statistic, value)."""
    rows = [
        ("hands with flor", f"{res['hands_with_flor']:.4f}"),
        ("mean envido", f"{res['mean_envido_value']:.2f}"),
        ("manos with a flor sung", f"{res['manos_with_flor_sung']:.4f}"),
        ("manos with an envido", f"{res['manos_with_envido']:.4f}"),
        ("manos with a truco", f"{res['manos_with_truco']:.4f}"),
        ("manos with todo dicho", f"{res['manos_with_todo_dicho']:.4f}"),
    ]
    rows += [(f"tantos per mano: {src}", f"{v:.3f}") for src, v in res["tantos_per_mano"].items()]
    rows += [("decisions per mano", f"{res['decisions_per_mano']:.1f}"),
             ("señas per mano", f"{res['senas_per_mano']:.2f}"),
             ("juegos finished", f"{res['juegos_finished']:,}")]
    return rows


@njit(cache=True)
def step_unchecked_tables(states, actions):
    """Step every table with an action already checked legal; the mano is not re-dealt (the
    evaluator's referee copy, train/eval/duplicate.py)."""
    for i in range(states.shape[0]):
        K.step_unchecked(states[i], actions[i])

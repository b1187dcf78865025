"""The self-play every measurement of ``train.studies.analysis`` plays, its input checks and the
records' constants (the package's docstring describes the measurements)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from agents.base import act_batch
from truque_env.settings import MatchSettings
from truque_env.traditions.moteno import actions as A
from truque_env.traditions.moteno import batch as B
from truque_env.traditions.moteno import layout as L
from truque_env.traditions.moteno.rules import CASCABEL, MATA_OROS, TRUQUE_POWER
from truque_env.vector import VectorEnv

LN2 = math.log(2.0)
NO_SENA = A.NUM_SENAS  # the symbol "no seña made" at a decision where one was legal
SYMBOLS = (*A.SENA_NAMES, "ninguna")
TRUCO_BINS = ("débil", "sin tres, baza ganada", "tres", "mata", "pieza")
POWER_MATA = int(TRUQUE_POWER[MATA_OROS])  # 11: the weakest mata (matas: 11..14)
POWER_PIEZA = int(TRUQUE_POWER[CASCABEL])  # 15: the weakest pieza (piezas: 15..17)
SENAS_WIDTH = 8 * A.NUM_SENAS  # the senas_seen slice: 8 relative seats x 11 señas
PARTNER_ROWS = (2, 4, 6)  # relative seats of partners in the observation



# --------------------------------------------------------------------------------------------
# input checks and self-play


def _check_policy(policy) -> None:
    if not (hasattr(policy, "act_batch") or hasattr(policy, "act")):
        raise ValueError(f"a policy needs act_batch(obs, mask) or act(obs, mask); got {type(policy).__name__}")


def _check_positive(name: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return int(value)


def _check_table(team_size, p_intercept, senas_per_mano=1) -> MatchSettings:
    """The table configuration, checked before any play (the engine's own messages)."""
    return MatchSettings("moteno", team_size, 30, 3, senas_per_mano, p_intercept)


@dataclass
class _Step:
    """One decision on each table still playing (rows of the batch), as the referee sees it."""

    table: np.ndarray  # table index
    mano: np.ndarray  # global mano id 0..manos-1 (the bootstrap's cluster)
    obs: np.ndarray  # (k, OBS_SIZE) int8, what the player to act saw
    mask: np.ndarray  # (k, NUM_ACTIONS) uint8
    seat: np.ndarray  # (k,) int64
    action: np.ndarray  # (k,) int64, what he did
    s0: np.ndarray  # (k, STATE_SIZE) the table state before the action
    s1: np.ndarray  # ... after it (the mano not yet re-dealt)


def _self_play(policy, *, team_size: int, manos: int, p_intercept: float, seed: int,
               num_envs: int, senas_per_mano: int = 1) -> Iterator[_Step]:
    """Self-play of ``policy`` at every seat until exactly ``manos`` manos were played.

    Each table plays its share of the manos (a juego goes on across them); a table that has
    played its share keeps stepping with filler moves that are neither shown to the policy nor
    yielded, so the same seed gives the same manos whatever the speed of the policy.
    """
    _check_policy(policy)
    manos = _check_positive("manos", manos)
    num_envs = _check_positive("num_envs", num_envs)
    settings = _check_table(team_size, p_intercept, senas_per_mano)  # the analysis is of Moteño's play
    n_tables = min(num_envs, manos)
    env = VectorEnv(n_tables, settings=settings, episode="mano", seed=seed)
    env.reset()
    quota = np.full(n_tables, manos // n_tables, dtype=np.int64)
    quota[: manos % n_tables] += 1
    first_id = np.concatenate([[0], np.cumsum(quota)[:-1]])
    played = np.zeros(n_tables, dtype=np.int64)
    while True:
        rows = np.flatnonzero(played < quota)
        if rows.size == 0:
            return
        actions = env.mask.argmax(axis=1).astype(np.int64)  # filler for finished tables
        actions[rows] = act_batch(policy, env.obs[rows], env.mask[rows])
        step = _Step(table=rows, mano=first_id[rows] + played[rows], obs=env.obs[rows], mask=env.mask[rows],
                     seat=env.seat[rows].copy(), action=actions[rows], s0=env.states[rows].copy(), s1=None)
        env.step(actions)  # raises on an illegal action, naming it
        step.s1 = step.s0.copy()
        B.step_unchecked_tables(step.s1, step.action)
        played[rows] += env.terminated[rows]
        yield step


def _held_cards(s: np.ndarray, seat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(dealt cards (k, 3), unplayed (k, 3) bool) of ``seat`` in each state row."""
    rows = np.arange(len(seat))[:, None]
    slots = np.arange(3)
    cards = s[rows, L.HAND + 3 * seat[:, None] + slots].astype(np.int64)
    unplayed = ((s[rows[:, 0], L.HAND_PLAYED + seat].astype(np.int64)[:, None] >> slots) & 1) == 0
    return cards, unplayed

"""The envido deal of truco argentino at 2 contra 2 (or 3 contra 3), seen by one player of each team.

At 1 contra 1 the envido game's types are the two players' envido values and the showdown compares
them (``train.cfr.envido_argentino.envido_prior``, ``showdown_beats``). In a team the envido that
counts is the team's best, which no player knows: each holds his own hand and sees none of his
partners' (A27 compares every player's tantos, the highest wins, ties to the one nearest the
mano). The team game is not a two-player game, and its optimum needs the partners to coordinate
in advance (docs/cfr.md, "Team games").

The tables' abstraction of it (docs/cfr.md, "The envido in teams"): **each team is one player whose
type is the envido of the partner who decides**, and the partners' hands are chance at the
showdown. So the deal is a ``(types, types)`` prior over (a mano-team player's envido, a pie-team
player's envido) and ``beats[t0, t1]`` is the share of the deals with those two values whose
showdown the mano's team wins: a number in [0, 1], not a comparison. What the abstraction leaves
out: what a partner's words tell about his hand (a player who answers after his partner opened
reads nothing into the opening), and that both partners may open in turn.

Counted by sampling deals (``samples`` of them, each read from every pair of a mano-team seat and a
pie-team seat), without a flor in any hand when flor is played: a sung flor cancels the envido
(A8, A9). At 1 contra 1 the count converges to the exact tables (tested).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from truque_env.cards import CARD_SUIT
from truque_env.traditions.argentino.rules import ENVIDO_CARD_VALUE, envido_value_nb, flor_value_nb


@njit(cache=True)
def _count_deals(u, team_size, suit, value, flor_played, type_of_value, pairs, wins):
    """Deal ``u.shape[0]`` tables from the uniforms ``u`` (a partial Fisher-Yates shuffle) and add,
    for every pair (mano-team seat, pie-team seat), one to ``pairs[t0, t1]`` and the mano team's
    showdown share to ``wins[t0, t1]``. Seats from the mano: 0, 1, 2, ...; even seats are the
    mano's team; the showdown's highest wins, ties to the seat nearest the mano (A27)."""
    n = 2 * team_size
    deck = np.empty(40, dtype=np.int64)
    values = np.empty(n, dtype=np.int64)
    for i in range(u.shape[0]):
        for c in range(40):
            deck[c] = c
        for k in range(3 * n):
            j = k + int(u[i, k] * (40 - k))
            deck[k], deck[j] = deck[j], deck[k]
        flor = False
        for seat in range(n):
            a, b, c = deck[3 * seat], deck[3 * seat + 1], deck[3 * seat + 2]
            values[seat] = envido_value_nb(a, b, c, suit, value)
            if flor_played and flor_value_nb(a, b, c, suit, value) > 0:
                flor = True
        if flor:
            continue
        best = 0
        for seat in range(1, n):
            if values[seat] > values[best]:
                best = seat
        mano_team_wins = 1.0 if best % 2 == 0 else 0.0
        for s0 in range(0, n, 2):
            for s1 in range(1, n, 2):
                t0, t1 = type_of_value[values[s0]], type_of_value[values[s1]]
                pairs[t0, t1] += 1.0
                wins[t0, t1] += mano_team_wins


def team_prior_beats(team_size: int, type_of_value: np.ndarray, num_types: int, flor: bool = True,
                     samples: int = 4_000_000, seed: int = 0, chunk: int = 250_000) -> tuple[np.ndarray, np.ndarray]:
    """(prior, beats) of the envido game at ``team_size`` contra ``team_size``, each ``(types, types)``:
    prior[t0, t1] the chance that a mano-team player holds type t0 and a pie-team player t1,
    beats[t0, t1] the share of those deals whose showdown the mano's team wins (0 where the pair
    was never dealt: its prior is 0)."""
    if int(team_size) != team_size or not 1 <= team_size <= 3:
        raise ValueError(f"team_size must be 1, 2 or 3, got {team_size!r}")
    if int(samples) != samples or samples < 1:
        raise ValueError(f"samples must be a positive integer, got {samples!r}")
    rng = np.random.default_rng(seed)
    pairs = np.zeros((num_types, num_types))
    wins = np.zeros((num_types, num_types))
    done = 0
    while done < samples:
        m = min(chunk, samples - done)
        _count_deals(rng.random((m, 6 * team_size)), int(team_size), CARD_SUIT, ENVIDO_CARD_VALUE, bool(flor),
                     type_of_value, pairs, wins)
        done += m
    beats = np.divide(wins, pairs, out=np.zeros_like(wins), where=pairs > 0)
    return pairs / pairs.sum(), beats

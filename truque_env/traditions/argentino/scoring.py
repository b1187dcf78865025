"""The tantos of the mano: the envido showdown (A27), the flores (A7, A12-A15), the truco (A40), and
the score with *los tantos finales* (A35).

Part of the argentino kernels (``kernels.py`` is the entry point); every function takes one state row ``s``.
"""

from __future__ import annotations

from numba import njit

from truque_env.engine.record import close_mano
from truque_env.traditions.argentino import layout as L
from truque_env.traditions.argentino.helpers import (
    _al_resto_match,
    _best_seat,
    _bit,
    _count_team,
    _falta_match,
    _has,
    _n,
    _unsung,
)


@njit(cache=True)
def _add(s, team, src, tantos):
    s[L.CHINAS + 3 * team + src] += tantos


@njit(cache=True)
def _in_mano_mask(s):
    return ((1 << _n(s)) - 1) & ~s[L.FOLDED]


# -- envido ---------------------------------------------------------------------------------
@njit(cache=True)
def _envido_worth(s, team):
    """The tantos of the accepted envido for its winner ``team`` (A23, A36: a falta envido is what
    the leader lacks; option "match": what the winner lacks, the juego)."""
    if s[L.ENV_STAKE] != L.FALTA_NOMINAL:
        return s[L.ENV_STAKE]
    if _falta_match(s):
        return s[L.TARGET] - s[L.SCORE + team]
    return s[L.FALTA]


@njit(cache=True)
def _showdown(s):
    """A27: from the mano each declares his tantos unless they are no better than the best declared
    ("son buenas"); the highest wins, ties to the one nearest the mano. The values are declared
    truthfully and the winner's cards shown (A28): by construction."""
    n = _n(s)
    in_mano = _in_mano_mask(s)
    shown = 0
    best = -1
    for k in range(n):
        seat = (s[L.MANO_SEAT] + k) % n
        if _has(in_mano, seat) and s[L.ENVIDO_VAL + seat] > best:
            best = s[L.ENVIDO_VAL + seat]
            shown |= _bit(seat)
    winner = _best_seat(s, L.ENVIDO_VAL, in_mano)
    s[L.ENV_SHOWN] = shown
    s[L.ENV_WINNER] = winner
    _add(s, winner % 2, L.SRC_ENVIDO, _envido_worth(s, winner % 2))


@njit(cache=True)
def _envido_refused(s):
    """A25: the raiser's team takes what stood before the last call (1 for a first envite)."""
    _add(s, s[L.ENV_RAISER] % 2, L.SRC_ENVIDO, s[L.ENV_PREV])


@njit(cache=True)
def _cancel_envido(s):
    """A9: a sung flor cancels every envido said before it, whatever its answer."""
    if s[L.ENV_ST] != L.BET_NONE:
        s[L.ENV_ST] = L.BET_VOID
    s[L.CHINAS + L.SRC_ENVIDO] = 0
    s[L.CHINAS + 3 + L.SRC_ENVIDO] = 0
    s[L.ENV_WINNER] = -1
    s[L.ENV_SHOWN] = 0


# -- flor -----------------------------------------------------------------------------------
@njit(cache=True)
def _flores(s, team):
    return _count_team(s[L.FLOR_SUNG], team, _n(s))


@njit(cache=True)
def _best_flor_team(s):
    """A16, A17: the best flor sung (ties to the one nearest the mano), shown before scoring."""
    winner = _best_seat(s, L.FLOR_VAL, s[L.FLOR_SUNG])
    s[L.FLOR_WINNER] = winner
    return winner % 2


@njit(cache=True)
def _al_resto_worth(s, team):
    """A13, A15: won by the leader (or a tie), the juego; by the trailer, what the leader lacked + 3
    per flor sung. Option "match": the juego in every case."""
    mine, theirs = s[L.SCORE + team], s[L.SCORE + 1 - team]
    if _al_resto_match(s) or mine >= theirs:
        return s[L.TARGET] - mine
    return s[L.TARGET] - theirs + 3 * (_flores(s, 0) + _flores(s, 1))


# -- the end of the mano ----------------------------------------------------------------------
@njit(cache=True)
def _close_mano(s):
    """Add the tantos source by source (envido, flor, truco); a team reaching the target wins the
    juego at once and adds no more than it lacked (A35, los tantos finales)."""
    s[L.PHASE] = L.PH_DONE
    s[L.TO_ACT] = -1
    s[L.EX_KIND] = L.EX_NONE
    winner = -1
    s[L.SCORED] = 0
    s[L.SCORED + 1] = 0
    for src in range(3):
        for team in range(2):
            add = min(s[L.CHINAS + 3 * team + src], s[L.TARGET] - s[L.SCORE + team])
            s[L.SCORE + team] += add
            s[L.SCORED + team] += add
            if winner < 0 and s[L.SCORE + team] >= s[L.TARGET]:
                winner = team
        if winner >= 0:
            break
    s[L.LAST_JUEGO_WINNER] = winner
    close_mano(s, L.REC_MANOS, winner >= 0)  # a new juego starts with an empty record
    if winner >= 0:
        s[L.JUEGOS + winner] += 1
        s[L.SCORE] = 0
        s[L.SCORE + 1] = 0
        if s[L.JUEGOS + winner] >= s[L.JUEGOS_TO_WIN]:
            s[L.PARTIDA_OVER] = 1
    s[L.DEALER] = (s[L.DEALER] + 1) % _n(s)
    s[L.MANO_COUNT] += 1


@njit(cache=True)
def _check_out(s):
    """A35: tantos of envido or flor that take a team out end the mano at once, without the truco.
    Not while a flor is unsung (it would cancel the envido, A9). True when the mano ended."""
    if _unsung(s) != 0:
        return False
    for team in range(2):
        got = s[L.CHINAS + 3 * team + L.SRC_ENVIDO] + s[L.CHINAS + 3 * team + L.SRC_FLOR]
        if got > 0 and s[L.SCORE + team] + got >= s[L.TARGET]:
            _close_mano(s)
            return True
    return False

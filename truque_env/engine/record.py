"""The juego's public record, for every tradition: how often each team raised, accepted, refused
and left the mano in the juego in progress, and how many manos it has lasted.

Every word is said aloud, so every player may remember it; a strong player reads the rivals' style
from it (who bets blind, who never folds, whose envites are falsos). The mano's own words are also
in each observation's history; this record carries them over the manos of the juego.

The fields are ``header.RECORD_FIELDS``, a tail of every layout at the offset ``rec`` (the
layout's ``REC_MANOS``): ``[manos, team 0's raise, accept, refuse, leave, team 1's ...]``. Each
tradition's kernels call ``count_word`` when a player acts and ``close_mano`` when a mano is
scored; a new partida (or table) starts with an empty record. A count grows by at most the words
of a juego, far below the int16 limit; the observation saturates it at 127 (``observe_record``).
"""

from __future__ import annotations

from numba import njit

from truque_env.engine.header import REC_KINDS, RECORD_SIZE

OBS_RECORD_SIZE = 1 + 2 * REC_KINDS  # the observation's slice juego_record: manos, mine x 4, rival x 4
OBS_RECORD_PARTS = (("manos", 1), ("mine", REC_KINDS), ("rival", REC_KINDS))  # its parts (name, width)
OBS_RECORD_MAX = 127  # an int8 observation: counts above it read 127


@njit(cache=True)
def count_word(s, rec, seat, kind):
    """Count a word of ``kind`` (an action kind) said by ``seat``; kinds past LEAVE are not recorded."""
    if 0 <= kind < REC_KINDS:
        s[rec + 1 + (seat % 2) * REC_KINDS + kind] += 1


@njit(cache=True)
def clear(s, rec):
    for k in range(RECORD_SIZE):
        s[rec + k] = 0


@njit(cache=True)
def close_mano(s, rec, juego_won):
    """A mano was scored: a won juego starts the next with an empty record, else one more mano."""
    if juego_won:
        clear(s, rec)
    else:
        s[rec] += 1


@njit(cache=True)
def observe_record(s, rec, my_team, out, at):
    """Write the record as seen by a player of ``my_team`` into ``out[at : at + OBS_RECORD_SIZE]``:
    manos, then his team's four counts, then the rivals'."""
    out[at] = min(s[rec], OBS_RECORD_MAX)
    for k in range(REC_KINDS):
        out[at + 1 + k] = min(s[rec + 1 + my_team * REC_KINDS + k], OBS_RECORD_MAX)
        out[at + 1 + REC_KINDS + k] = min(s[rec + 1 + (1 - my_team) * REC_KINDS + k], OBS_RECORD_MAX)

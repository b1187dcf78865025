"""Game metadata as constants and bounds (OpenSpiel style): actions, players, lengths, utilities.

The bounds follow from docs/engine.md; ``tests/traditions/moteno/test_engine_invariants.py`` checks them under
random play.
"""

from __future__ import annotations

from truque_env.traditions.moteno import actions as A
from truque_env.traditions.moteno import layout as L
from truque_env.traditions.moteno.observation import OBS_SIZE

NUM_DISTINCT_ACTIONS = A.NUM_ACTIONS
OBSERVATION_SIZE = OBS_SIZE
STATE_SIZE = L.STATE_SIZE
MAX_PLAYERS = L.MAX_PLAYERS
MAX_PARES_RAISES = A.MAX_PARES_N + 1  # 1..15 pares and la falta: every raise is strictly larger
MAX_FLORES_RAISES = A.MAX_FLORES_N + 1


def num_players(team_size: int) -> int:
    return 2 * team_size


def max_decisions_per_mano(team_size: int, senas_per_mano: int) -> int:
    """An upper bound on the decisions of one mano.

    blind turns n; the pares chain: the opening word and at most MAX_PARES_RAISES + 2 answer
    rounds (with the revoke-right and the answer with cards to la falta a ciegas), each of at
    most team_size words; the truco chain: 3 challenges and 3 answer rounds; the cante n; the
    flor round n; the envite de flores: n speakers and MAX_FLORES_RAISES answer rounds; the
    bazas 3n; "de la mía" and the reservada's word, team_size each; señas n * senas_per_mano.
    """
    n = num_players(team_size)
    pares = 1 + (MAX_PARES_RAISES + 2) * team_size
    truco = 3 + 3 * team_size
    flores = n + n + MAX_FLORES_RAISES * team_size
    return n + pares + truco + n + flores + 3 * n + 2 * team_size + n * senas_per_mano


def max_manos_per_juego(target: int) -> int:
    """Every mano scores at least one china (13.13, 8.4), so a juego has at most 2 * target - 1 manos."""
    return 2 * target - 1


def max_chinas_per_mano(team_size: int, target: int) -> int:
    """Utility bound of one mano for one team: flores (3 each, all at the table) + la falta, + 9 of panueve."""
    return 3 * num_players(team_size) + target + 9

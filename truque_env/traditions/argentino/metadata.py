"""Game metadata as constants and bounds (OpenSpiel style): actions, players, lengths, utilities.

The bounds follow from docs/rules/argentino.md; the contract suite checks them under random play.
"""

from __future__ import annotations

from truque_env.traditions.argentino import actions as A
from truque_env.traditions.argentino import layout as L
from truque_env.traditions.argentino.observation import OBS_SIZE

NUM_DISTINCT_ACTIONS = A.NUM_ACTIONS
OBSERVATION_SIZE = OBS_SIZE
STATE_SIZE = L.STATE_SIZE
MAX_PLAYERS = L.MAX_PLAYERS


def num_players(team_size: int) -> int:
    return 2 * team_size


def max_decisions_per_mano(team_size: int, senas_per_mano: int, target: int = 100) -> int:
    """An upper bound on the decisions of one mano.

    The blind round n; the flor: its singer's word and three answers of the flor exchange, each
    walked by at most team_size members; the envido chain: every raise adds at least 2 up to the
    falta (at most target), then falta envido, so target // 2 + 2 words, each answer walked by
    team_size members; the truco ladder: 3 calls and 3 answers walked (double answers are inside
    both counts); uno y uno 2; the bazas 3n; señas n * senas_per_mano.
    """
    n = num_players(team_size)
    flor = 1 + 3 * team_size
    envido = (target // 2 + 2) * (1 + team_size)
    truco = 3 * (1 + team_size)
    return n + flor + envido + truco + 2 + 3 * n + n * senas_per_mano


def max_manos_per_juego(target: int) -> int:
    """Every mano scores at least one tanto (the truco's), so a juego has at most 2 * target - 1 manos."""
    return 2 * target - 1


def max_chinas_per_mano(team_size: int, target: int) -> int:
    """Utility bound of one source for one team: the flor's al resto (what the leader lacks + 3 per
    flor at the table) or a falta envido, at most target + 3n."""
    return target + 3 * num_players(team_size)

"""The common head of every tradition's state row: the table's configuration and the partida.

Every tradition's layout (``truque_env/traditions/<name>/layout.py``) begins with these fields at
these offsets, so the shared code (the generator in ``rng.py``, the duplicate deal streams, the
score and juegos read by the environments and the evaluator) reads any tradition's state. The
mano's own fields (phase, turn, hands, bazas, bets, points by source) follow in the tradition's
tail; the ones every environment reads are named in ``MANO_FIELDS`` and every layout must define
them (the contract suite checks it).

Conventions: one ``int16`` row per table; seats ``0..n-1``, team of a seat ``seat % 2``; cards
are ids ``0..39`` (``truque_env.cards``), ``-1`` for none.
"""

from __future__ import annotations

import numpy as np

STATE_DTYPE = np.int16
MAX_PLAYERS = 8  # every tradition: at most 4 contra 4 (the width of the per-seat arrays)

HEADER_FIELDS = (
    # configuration (set once per table)
    ("N_PLAYERS", 1),
    ("TEAM_SIZE", 1),
    ("TARGET", 1),
    ("JUEGOS_TO_WIN", 1),
    ("SENAS_LIMIT", 1),  # señas per player per mano
    ("P_INTERCEPT", 1),  # permille
    ("RULES", 4),  # the tradition's rule options as words (TraditionSpec.rule_words); kept by init_table
    # the partida
    ("SCORE", 2),  # points of each team in the juego in progress
    ("JUEGOS", 2),  # juegos won
    ("DEALER", 1),
    ("PARTIDA_OVER", 1),
    ("LAST_JUEGO_WINNER", 1),  # team that won a juego with the last mano, else -1
    ("MANO_COUNT", 1),
    ("RNG", 4),  # splitmix64 state, four 16-bit words, low first
    ("DEAL_STREAM", 1),  # 1: deals come from DEAL_SEED and the mano count, not from RNG
    ("DEAL_SEED", 4),  # so two tables with one DEAL_SEED get the same deals (duplicate play)
)

MANO_FIELDS = (
    "PHASE",  # the tradition's phase; PHASE == PH_DONE when the mano is over
    "TO_ACT",  # the seat to act, -1 when the mano is over
    "MANO_SEAT",
    "HAND",  # MAX_PLAYERS * 3 cards dealt
    "PLAYED",  # 3 * MAX_PLAYERS: card played by each seat in each baza, -1 none
    "BAZA_WIN_TEAM",  # 3
    "BAZA_WIN_SEAT",  # 3
    "SENA_LOG_N",
    "SENA_LOG",  # seat | seña << 3 | seen-mask << 7
    "CHINAS",  # team * 3 + source: points won this mano, by the tradition's three sources
    "SCORED",  # 2: points each team actually added to its score this mano
)
"""the mano fields every layout defines by these names (with PH_DONE, PHASE_NAMES, MAX_PLAYERS,
MAX_SENA_LOG, BAZA_UNDECIDED and BAZA_PARDA)"""

# The juego's public record: what each team has said so far in the juego in progress, the memory
# every player at the table has of how the others bet (``truque_env.engine.record``). A tail: each
# layout appends these fields after its mano's, so that a row written before the record existed is
# a prefix of one written now (a run's checkpoint resumes by padding its rows with an empty record).
REC_KINDS = 4  # the first four kinds of traditions.action_kinds: raise, accept, refuse, leave
RECORD_FIELDS = (
    ("REC_MANOS", 1),  # manos finished in the juego in progress
    ("REC_WORDS", 2 * REC_KINDS),  # team * REC_KINDS + kind: words of that kind the team said this juego
)
RECORD_SIZE = 1 + 2 * REC_KINDS


# what a vector env's episode is (the tradition's vector loops read these codes)
EPISODE_MANO = 0
EPISODE_JUEGO = 1
EPISODE_PARTIDA = 2


def offsets(fields) -> tuple[dict[str, int], int]:
    """The offset of each field of ``fields`` ((name, width) pairs) and the total size."""
    out, pos = {}, 0
    for name, width in fields:
        if name in out:
            raise ValueError(f"field {name} twice in a layout")
        out[name] = pos
        pos += width
    return out, pos


NUM_RULE_WORDS = 4


_OFFSETS, HEADER_SIZE = offsets(HEADER_FIELDS)
globals().update(_OFFSETS)

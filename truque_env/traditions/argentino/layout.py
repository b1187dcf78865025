"""The layout of a truco argentino table's state: one fixed-shape ``int16`` row per table.

The row begins with the common header of the family (``truque_env.engine.header``); the mano
follows. Module-level integer constants are compile-time constants inside numba kernels. The
state machine that moves through these fields is written in docs/rules/argentino.md, "The mano
as the engine plays it".

Conventions: seats ``0..n-1``, team of a seat ``seat % 2``; masks over seats are bit
``1 << seat``; cards are ids ``0..39`` (``truque_env.cards``), ``-1`` for none.
"""

from __future__ import annotations

import numpy as np

from truque_env.engine import header as H
from truque_env.traditions.argentino.config import MAX_SENA_LOG

STATE_DTYPE = H.STATE_DTYPE
MAX_PLAYERS = H.MAX_PLAYERS
FALTA_NOMINAL = 999  # the stake of a falta envido (its worth is computed when it is won)

# --- phases -------------------------------------------------------------------------------
PH_BLIND = 0  # "falta envido y truco, todo dicho", before the cards are looked at (A33)
PH_PLAY = 1  # the turn holder speaks or plays a card
PH_ANSWER = 2  # a team answers (first answer binds, A29, A32)
PH_DONE = 3
PHASE_NAMES = ("blind", "play", "answer", "done")

# --- bet states (envido, truco) ------------------------------------------------------------
BET_NONE = 0
BET_OPEN = 1
BET_ACCEPTED = 2
BET_REFUSED = 3
BET_VOID = 4  # envido cancelled by a flor (A9), or todo dicho annulled by one (A33)

# --- exchange kinds ------------------------------------------------------------------------
EX_NONE = 0
EX_ENVIDO = 1
EX_TRUCO = 2
EX_DOUBLE = 3  # envido y truco a la vez (A34) and todo dicho (A33): answered for both
EX_FLOR = 4  # contraflor and al resto, or the answer to a flor when both teams hold one
EX_UNO = 5  # uno y uno (A39)

# --- the flor ------------------------------------------------------------------------------
FLOR_NONE = 0
FLOR_BETTING = 1
FLOR_CLOSED = 2
FL_FLOR = 0  # the level of the flor exchange: a flor to answer
FL_CONTRA = 1  # a contraflor
FL_AL_RESTO = 2  # a contraflor al resto

# --- todo dicho (A33) ----------------------------------------------------------------------
TD_NONE = 0
TD_SAID = 1
TD_ANNULLED = 2  # a flor in play
TD_FLOR = 3  # flor on both sides: "si hay flor, contraflor al resto" stands
TD_ANSWERED = 4

# --- uno y uno (A39) -----------------------------------------------------------------------
UNO_NONE = 0
UNO_OPEN = 1
UNO_REFUSED = 2
UNO_ACCEPTED = 3

# --- baza outcome -------------------------------------------------------------------------
BAZA_UNDECIDED = -1
BAZA_PARDA = 2

# --- sources of tantos (columns of CHINAS) ------------------------------------------------
SRC_ENVIDO = 0
SRC_FLOR = 1
SRC_TRUCO = 2


def _layout():
    fields = [
        *H.HEADER_FIELDS,
        # the mano
        ("PHASE", 1),
        ("TO_ACT", 1),
        ("MANO_SEAT", 1),
        ("FALTA", 1),  # what the leader lacks, fixed when the mano is dealt (A23)
        ("CARDS_SEEN", 1),  # the blind round is over
        ("BLIND_POS", 1),  # offset from mano of the next blind turn
        ("TURN", 1),  # the seat whose turn it is to play
        ("BAZA", 1),
        ("BAZA_LEAD", 1),
        ("FOLDED", 1),  # mask: went al mazo (A30)
        ("FLOR_HOLD", 1),  # mask: holds a flor (when flor is played)
        ("FLOR_SUNG", 1),  # mask: sang it
        ("ENV_ST", 1),
        ("ENV_STAKE", 1),  # the tantos if accepted (FALTA_NOMINAL: falta envido)
        ("ENV_PREV", 1),  # what a refusal pays (A25)
        ("ENV_RAISER", 1),
        ("ENV_WINNER", 1),  # seat whose envido won the showdown, -1
        ("ENV_SHOWN", 1),  # mask: declared his tantos in the showdown (A27)
        ("TRUCO_ST", 1),
        ("TRUCO_LEVEL", 1),  # 1 truco, 2 retruco, 3 vale cuatro
        ("TRUCO_PREV", 1),  # the level accepted before the last call
        ("TRUCO_RAISER", 1),
        ("HAB_TEAM", 1),  # the team that accepted last: only it may raise (A37, A40)
        ("TRUCO_WALKER", 1),  # the member whose answer to the truco waits (envido or flor first)
        ("TRUCO_WINNER", 1),  # team, -1
        ("FLOR_ST", 1),
        ("FLOR_LEVEL", 1),
        ("FLOR_RAISER", 1),
        ("FLOR_CONTRA", 1),  # a contraflor was made (so implicitly accepted by an al resto)
        ("FLOR_WINNER", 1),  # seat of the best flor when compared, -1
        ("TD_ST", 1),
        ("TD_SEAT", 1),
        ("UNO_ST", 1),
        ("EX_KIND", 1),
        ("EX_TEAM", 1),  # the answering team
        ("EX_RAISER", 1),  # the walk of the answering team starts after this seat
        ("EX_POS", 1),  # the member to answer
        ("HAND", MAX_PLAYERS * 3),
        ("HAND_PLAYED", MAX_PLAYERS),  # 3-bit mask of the hand slots played
        ("PLAYED", 3 * MAX_PLAYERS),  # card played by each seat in each baza, -1 none
        ("BAZA_WIN_TEAM", 3),
        ("BAZA_WIN_SEAT", 3),
        ("ENVIDO_VAL", MAX_PLAYERS),
        ("FLOR_VAL", MAX_PLAYERS),
        ("SENAS_MADE", MAX_PLAYERS),
        ("SENA_LOG_N", 1),
        ("SENA_LOG", MAX_SENA_LOG),  # seat | seña << 3 | seen-mask << 7
        ("CHINAS", 6),  # team * 3 + source: tantos won this mano (sources envido, flor, truco)
        ("SCORED", 2),  # tantos each team added to its score (A35: no more than it lacked)
        *H.RECORD_FIELDS,  # the juego's public record, last (truque_env.engine.record)
    ]
    return H.offsets(fields)


_OFFSETS, STATE_SIZE = _layout()
globals().update(_OFFSETS)
FIELDS = tuple(_OFFSETS)
STATE_BYTES = STATE_SIZE * np.dtype(STATE_DTYPE).itemsize

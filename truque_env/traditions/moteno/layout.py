"""The layout of a Truque Moteño table's state: one fixed-shape ``int16`` array per table, all fields here.

The row begins with the common header of the family (``truque_env.engine.header``: the
configuration and the partida, at the same offsets in every tradition); Moteño's mano follows.

A batch of tables is a 2-D array ``(num_tables, STATE_SIZE)``. Every kernel takes one row.
Module-level integer constants are compile-time constants inside numba kernels.

Conventions: seats ``0..n-1``, team of a seat ``seat % 2``; masks over seats are bit ``1 << seat``;
cards are ids ``0..39`` (``truque_env.cards``), ``-1`` for none.
"""

from __future__ import annotations

import numpy as np

from truque_env.engine import header as H

STATE_DTYPE = H.STATE_DTYPE
MAX_PLAYERS = H.MAX_PLAYERS
MAX_SENA_LOG = 16
FALTA_NOMINAL = 999  # nominal stake of "la falta": above any number of pares or flores

# --- phases -------------------------------------------------------------------------------
PH_BLIND = 0  # apuestas a ciegas, before anybody sees a card (Arts. 7, 15, 17.19)
PH_CLOSE = 1  # closing blind bets after the deal (7.3, 7.4, 15.3, 17.21)
PH_CANTE = 2  # al cantar (Art. 8)
PH_PLAY = 3  # bazas (Arts. 13, 14, 16)
PH_FLOR_ROUND = 4  # everybody says flor or paso (10.9, 10.17)
PH_FLOR_ENVITE = 5  # the singers speak (Art. 11)
PH_ANSWER = 6  # a team answers a bet (ruling 4)
PH_DONE = 7
PH_RESERVADA = 8  # 12.13, 12.17: a reservada sung at the end against la falta a ciegas
PHASE_NAMES = ("blind", "close", "cante", "play", "flor_round", "flor_envite", "answer", "done", "reservada")

# --- bet states (pares, truco, flor envite) -----------------------------------------------
BET_NONE = 0
BET_OPEN = 1  # an exchange is running
BET_DEFERRED = 2  # "luego te lo digo": answered after the deal
BET_ACCEPTED = 3
BET_REFUSED = 4

# --- exchange kinds and answer values (ordered: the largest answer stands, 17.8) ----------
EX_PARES = 1
EX_TRUCO = 2
EX_FLORES = 3
EX_FALTA_CIEGAS = 4  # the answer with cards to la falta a ciegas (12.5-12.7)
ANS_NONE = 0
ANS_LUEGO = 1
ANS_NO_QUIERO = 2
ANS_QUIERO = 3
ANS_RAISE = 10  # a raise is ANS_RAISE + its nominal stake (pares, flores) or level (truco)

# --- how la falta a ciegas was answered (Art. 12) -----------------------------------------
FC_NONE = 0
FC_REFUSED = 1  # "no quiero": an ordinary refused envite
FC_QUIERO_CIEGAS = 2  # 12.12: querer a ciegas, every flor goes cantada
FC_QUIERO = 3  # 12.5, 12.6: quiero with the pares
FC_CON_FLOR_QUIERO = 4  # 12.7, 12.10
FC_CON_FLOR_NO_QUIERO = 5  # 12.7, 12.8

# --- where an exchange returns ------------------------------------------------------------
RET_BLIND = 0
RET_CLOSE = 1
RET_PLAY = 2
RET_FLOR_ENVITE = 3

# --- baza outcome -------------------------------------------------------------------------
BAZA_UNDECIDED = -1
BAZA_PARDA = 2

# --- sources of chinas (columns of CHINAS) ------------------------------------------------
SRC_PARES = 0
SRC_FLORES = 1
SRC_TRUQUE = 2


def _layout():
    fields = [
        *H.HEADER_FIELDS,
        # the mano
        ("PHASE", 1),
        ("TO_ACT", 1),
        ("MANO_SEAT", 1),
        ("FALTA", 1),
        ("AL_CANTAR", 1),
        ("BLIND_TURN", 1),  # how many seats had their blind turn
        ("TURN", 1),  # the turn holder in play / cante
        ("BAZA", 1),
        ("TRUQUE_OVER", 1),
        ("TRUQUE_WINNER", 1),
        ("FIRST_ROUND", 1),  # mask: had their turn in the first baza
        ("FOLDED", 1),  # mask: went a baraja (13.14)
        ("NO_VALE", 1),  # mask: "la mía no vale" (13.16)
        ("BET_PARES_MASK", 1),  # mask: bet pares with cards in hand (10.10)
        ("CHALLENGED", 1),  # mask: challenged the truque with cards in hand (6.13, 10.12)
        ("FLOR_SUNG", 1),  # mask: sang flor
        ("CARDS_UP", 1),  # mask: left the cards face up after a refused truco (14.10)
        ("PARES_ST", 1),
        ("PARES_STAKE", 1),  # nominal chinas
        ("PARES_PREV", 1),  # nominal chinas accepted before the last raise
        ("PARES_RAISER", 1),
        ("PARES_BLIND_ACC", 1),  # accepted a ciegas: the accepting team may still revoke (7.4)
        ("PARES_VOID", 1),  # a flor was sung (6.8, 10.5)
        ("TRUCO_ST", 1),
        ("TRUCO_LEVEL", 1),  # 1 truco, 2 retruco, 3 panueve
        ("TRUCO_PREV", 1),  # level accepted before the last raise
        ("TRUCO_RAISER", 1),
        ("FLOR_ST", 1),  # 0 no flor round yet, 1 round running, 2 closed
        ("FLOR_ENV_ST", 1),
        ("FLOR_STAKE", 1),
        ("FLOR_PREV", 1),
        ("FLOR_RAISER", 1),
        ("FLOR_STARTER", 1),  # the first singer
        ("FLOR_POS", 1),  # offset from the first singer in the flor round
        ("FLOR_FROM_CANTE", 1),  # the flor round began in the cante
        ("FE_POS", 1),  # offset from mano in the envite de flores
        ("CANTE_DONE", 1),
        ("CARDS_SEEN", 1),  # the blind round is over: players see their cards
        ("FC_TEAM", 1),  # team that sent la falta a ciegas, -1 none (Art. 12)
        ("FC_ANS", 1),
        ("FC_DECLARED", 1),  # mask: "de la mía" (12.8)
        ("RES_POS", 1),  # offset from mano in the RESERVADA phase
        ("RES_DONE", 1),
        ("EX_KIND", 1),
        ("EX_TEAM", 1),  # answering team
        ("EX_RAISER", 1),  # seat the answering order starts after
        ("EX_POS", 1),  # offset of the current member from EX_RAISER
        ("EX_BEST", 1),
        ("EX_BEST_SEAT", 1),
        ("EX_BLIND", 1),  # "luego te lo digo" allowed, bets a ciegas
        ("EX_RETURN", 1),
        ("HAND", MAX_PLAYERS * 3),  # the three cards dealt to each seat
        ("HAND_PLAYED", MAX_PLAYERS),  # 3-bit mask of the hand slots played
        ("PLAYED", 3 * MAX_PLAYERS),  # card played by each seat in each baza, -1 none
        ("BAZA_WIN_TEAM", 3),
        ("BAZA_WIN_SEAT", 3),
        ("PARES_VAL", MAX_PLAYERS),
        ("FLOR_VAL", MAX_PLAYERS),
        ("RESERVADA", 1),  # mask
        ("SENAS_MADE", MAX_PLAYERS),
        ("SENA_LOG_N", 1),
        ("SENA_LOG", MAX_SENA_LOG),  # seat | seña << 3 | seen-mask << 7
        ("CHINAS", 6),  # team * 3 + source: chinas won this mano
        ("SCORED", 2),  # chinas each team actually added to its score this mano (ruling 1 cut)
        *H.RECORD_FIELDS,  # the juego's public record, last (truque_env.engine.record)
    ]
    return H.offsets(fields)


_OFFSETS, STATE_SIZE = _layout()
globals().update(_OFFSETS)
FIELDS = tuple(_OFFSETS)
STATE_BYTES = STATE_SIZE * np.dtype(STATE_DTYPE).itemsize

"""Truco argentino card valuations (seed 003 §§ flor and envido; ruling A3 of traditions.md).

* ``power(card)``: the truco ranking of ruling A3, 1 (cuatros) .. 14 (el ancho de espadas):
  1E > 1B > 7E > 7O > 3s > 2s > 1O = 1C > 12s > 11s > 10s > 7C = 7B > 6s > 5s > 4s. Cards of one
  row tie (rivals' equal cards make a parda, A4).
* ``ENVIDO_CARD_VALUE``: a card's index for envido and flor (003: the figures count 0).
* ``envido_value(hand)``: 20 + the two of a suit, else the highest card (A19; 6-7 of a suit =
  33, three figures of different suits = 0, two figures of a suit = 20). Three of a suit count
  20 + the two highest (A20: the envido of an unsung flor, or of a flor when flor is off; AE11).
* ``flor_value(hand)``: 20 + the three of a suit (A6; 5-6-7 = 38, three figures = 20), 0 when
  the hand has no flor.

The numba kernels call the ``*_nb`` functions on the same tables.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from truque_env.cards import CARD_RANK, CARD_SUIT, NUM_CARDS, SUITS, card_id, parse_hand, parse_one

ANCHO_ESPADAS = card_id(1, "E")
ANCHO_BASTO = card_id(1, "B")
SIETE_ESPADAS = card_id(7, "E")
SIETE_OROS = card_id(7, "O")
MATAS = (ANCHO_ESPADAS, ANCHO_BASTO, SIETE_ESPADAS, SIETE_OROS)

CARD_NICKNAME = {
    ANCHO_ESPADAS: "el ancho de espadas",
    ANCHO_BASTO: "el ancho de basto",
    SIETE_ESPADAS: "el siete de espadas",
    SIETE_OROS: "el siete de oros",
}

POWER_ROWS = (  # ruling A3, strongest first
    ((1, "E"),),
    ((1, "B"),),
    ((7, "E"),),
    ((7, "O"),),
    tuple((3, s) for s in SUITS),
    tuple((2, s) for s in SUITS),
    ((1, "O"), (1, "C")),
    tuple((12, s) for s in SUITS),
    tuple((11, s) for s in SUITS),
    tuple((10, s) for s in SUITS),
    ((7, "C"), (7, "B")),
    tuple((6, s) for s in SUITS),
    tuple((5, s) for s in SUITS),
    tuple((4, s) for s in SUITS),
)


def _build_power() -> np.ndarray:
    power = np.zeros(NUM_CARDS, dtype=np.int64)
    for k, row in enumerate(POWER_ROWS):
        for rank, suit in row:
            power[card_id(rank, suit)] = len(POWER_ROWS) - k
    if (power == 0).any():
        raise AssertionError("every card has a power")
    return power


POWER = _build_power()
ENVIDO_CARD_VALUE = np.where(CARD_RANK <= 7, CARD_RANK, 0).astype(np.int64)  # 003: figures 0


@njit(cache=True)
def envido_value_nb(a, b, c, suit, value):
    """Envido of the cards ``a, b, c`` (A19, A20)."""
    sa, sb, sc = suit[a], suit[b], suit[c]
    va, vb, vc = value[a], value[b], value[c]
    if sa == sb and sb == sc:  # three of a suit: 20 + the two highest (A20, AE11)
        return 20 + va + vb + vc - min(va, min(vb, vc))
    if sa == sb:
        return 20 + va + vb
    if sa == sc:
        return 20 + va + vc
    if sb == sc:
        return 20 + vb + vc
    return max(va, max(vb, vc))


@njit(cache=True)
def flor_value_nb(a, b, c, suit, value):
    """Flor of the cards ``a, b, c``: 20 + the three (A6), 0 without flor."""
    if suit[a] == suit[b] and suit[b] == suit[c]:
        return 20 + value[a] + value[b] + value[c]
    return 0


def power(card) -> int:
    """Truco power of one card (notation like ``"7E"`` or an id), 14 for el ancho de espadas down
    to 1 for the cuatros (ruling A3)."""
    return int(POWER[parse_one(card)])


def envido_value(hand) -> int:
    """Envido of three cards (ids or notation), A19 and A20."""
    a, b, c = parse_hand(hand)
    return int(envido_value_nb(a, b, c, CARD_SUIT, ENVIDO_CARD_VALUE))


def flor_value(hand) -> int:
    """Flor of three cards, 0 when they are not three of a suit (A6)."""
    a, b, c = parse_hand(hand)
    return int(flor_value_nb(a, b, c, CARD_SUIT, ENVIDO_CARD_VALUE))
